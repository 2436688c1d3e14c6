"""The command line. Thin: parse options, call the library, pick a reporter. This is the only
module that turns :class:`~rknnprof.errors.RknnprofError` into an exit code."""

from __future__ import annotations

import contextlib
import io
import os
import sys

import click

from rknnprof import __version__
from rknnprof.analysis.classify import DEFAULT_BOUND_RATIO
from rknnprof.errors import EXIT_FAILED, RknnprofError
from rknnprof.reporters import REPORTERS


class _Group(click.Group):
    """Turns :class:`RknnprofError` into its one-line message and exit code for every command,
    also under ``CliRunner`` (``main`` does the same for anything raised outside a command)."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except RknnprofError as e:
            click.echo(f"Error: {e}", err=True)
            ctx.exit(e.exit_code)


@click.group(cls=_Group,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="rknnprof")
def cli() -> None:
    """Profile analyzer for Rockchip RKNN NPUs.

    Reads rknn.eval_perf() / RKNN_LOG_LEVEL=4 / adb logcat output, labels every layer as
    compute- or bandwidth-bound, flags CPU fallback and says what to change first.
    """


# -- analyze ---------------------------------------------------------------------------------

_SEVERITIES = ("info", "warning", "error")


def _default_format() -> str:
    """``table`` when its reporter exists, else ``json`` (while the table reporter is not merged)."""
    import importlib.util

    from rknnprof.reporters import REPORTERS

    module = REPORTERS.get("table", "").split(":")[0]
    if module and importlib.util.find_spec(module) is not None:
        return "table"
    return "json"


def _use_color(choice: str, to_terminal: bool) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    return to_terminal and not os.environ.get("NO_COLOR")


def _write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a failure leaves no partial file."""
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".rknnprof-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@cli.command()
@click.argument("paths", nargs=-1, metavar="[PATH|-]...",
                type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(list(REPORTERS)), default=None,
              help="Report format (default: from the -o suffix, else table).")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write the report to FILE ('-' = stdout); the format follows its suffix.")
@click.option("--top", default=15, show_default=True, type=click.IntRange(min=1),
              help="How many layers the top-layers list shows.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour in terminal output (NO_COLOR is honoured).")
@click.option("--platform", default=None, metavar="SOC",
              help="SoC to judge by (rk3588, rk3576, ...); overrides what the log says.")
@click.option("--bound-ratio", type=click.FloatRange(min=1.0, min_open=True),
              default=DEFAULT_BOUND_RATIO, show_default=True,
              help="DDR/NPU cycle ratio above which a layer counts as bandwidth-bound "
                   "(and NPU/DDR for compute-bound).")
@click.option("--fail-on", type=click.Choice(_SEVERITIES), default=None,
              help="Exit 1 when a finding has this severity or a higher one.")
def analyze(paths: tuple[str, ...], fmt: str | None, output: str | None, top: int, color: str,
            platform: str | None, bound_ratio: float, fail_on: str | None) -> None:
    """Parse RKNN profiling logs, label every layer, rank what to fix.

    PATH is a log file (eval_perf output, RKNN_LOG_LEVEL=4 log, adb logcat capture); '-' or no
    PATH with a pipe reads stdin.
    """
    from rknnprof.api import analyze as run_analysis
    from rknnprof.reporters import RenderOptions, for_suffix, get_reporter

    if not paths:
        if sys.stdin.isatty():
            raise click.UsageError("give a log PATH, or '-' to read stdin")
        paths = ("-",)
    to_file = output not in (None, "-")
    if fmt is None and to_file:
        fmt = for_suffix(output)  # type: ignore[arg-type]
        if fmt is None:
            raise click.BadParameter(f"cannot tell the format from {output!r}; use --format",
                                     param_hint="'-o'")
    fmt = fmt or _default_format()
    report = run_analysis(paths, platform=platform, bound_ratio=bound_ratio)
    for w in report.warnings:
        where = f"{w.path}:{w.line}" if w.line is not None else w.path
        click.echo(f"Warning: {where}: {w.message}", err=True)
    options = RenderOptions(top=top, color=_use_color(color, not to_file and sys.stdout.isatty()))
    buffer = io.StringIO()
    get_reporter(fmt).render(report, buffer, options)
    if to_file:
        _write_atomically(output, buffer.getvalue())  # type: ignore[arg-type]
    else:
        click.echo(buffer.getvalue(), nl=False, color=options.color)
    if fail_on is not None:
        level = _SEVERITIES.index(fail_on)
        if any(f.severity.rank >= level for p in report.profiles for f in p.findings):
            raise click.exceptions.Exit(EXIT_FAILED)


def main() -> None:
    try:
        # with standalone_mode=False click *returns* the code of ``ctx.exit(n)`` instead of exiting
        code = cli.main(standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except RknnprofError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
