"""The command line. Thin: parse options, call the library, pick a reporter. This is the only
module that turns :class:`~rknnprof.errors.RknnprofError` into an exit code."""

from __future__ import annotations

import sys

import click

from rknnprof import __version__
from rknnprof.errors import RknnprofError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="rknnprof")
def cli() -> None:
    """Profile analyzer for Rockchip RKNN NPUs.

    Reads rknn.eval_perf() / RKNN_LOG_LEVEL=4 / adb logcat output, labels every layer as
    compute- or bandwidth-bound, flags CPU fallback and says what to change first.
    """


@cli.command("rules")
@click.argument("code", required=False)
def rules_command(code: str | None) -> None:
    """List the advice rules, or print one rule's full doc.

    \b
    Example:
        rknnprof rules           # code, severity, name, summary
        rknnprof rules RKN001    # what it finds, why, example, fix, estimate, source
    """
    from rknnprof.rules import RULES, by_code

    if code is None:
        for rule in RULES:
            click.echo(f"{rule.code}  {rule.severity.value:<7}  {rule.name:<22}  {rule.summary}")
        return
    rule = by_code(code)
    if rule is None:
        raise click.UsageError(f"unknown rule code {code!r}; run `rknnprof rules` for the list")
    click.echo(f"# {rule.name} ({rule.code}, {rule.severity.value})\n")
    click.echo(f"{rule.summary}\n")
    click.echo(rule.doc)


def main() -> None:
    try:
        cli.main(standalone_mode=False)
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
