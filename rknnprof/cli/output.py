"""Where a command's report goes: colour, the ``-o`` file (written whole through a temporary
file) or stdout, and warnings on stderr. The format an ``-o`` suffix implies is
:func:`rknnprof.cli.options.choose_format`.

Used by the commands in :mod:`rknnprof.cli.commands`. Nothing here parses options or picks an
exit code: a failed write raises :class:`~rknnprof.errors.InputError` for the commands to
report.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from rknnprof.errors import InputError

if TYPE_CHECKING:
    from rknnprof.model import Report, ReportWarning
    from rknnprof.reporters.base import RenderOptions


def use_color(choice: str, to_terminal: bool) -> bool:
    """``--color auto|always|never``: ``auto`` colours a terminal unless ``NO_COLOR`` is set."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    return to_terminal and not os.environ.get("NO_COLOR")


def render_options(color: str, output: str | None, top: int = 15) -> RenderOptions:
    """Options for ``compare`` and ``check``: colour and the terminal width only when the report
    goes to a terminal (no ``-o``)."""
    import shutil

    from rknnprof.reporters.base import RenderOptions

    tty = output is None and sys.stdout.isatty()
    width = shutil.get_terminal_size().columns if tty else None
    return RenderOptions(top=top, color=use_color(color, tty), width=width)


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a failure leaves no partial file."""
    import tempfile

    if not path:
        raise InputError("-o needs a file name ('-' for stdout)")
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".rknnprof-", suffix=".tmp", dir=directory)
    except OSError as e:
        raise InputError(f"cannot write the report: {e.strerror} ({directory})", path) from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; a report is an ordinary file
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise InputError(f"cannot write the report: {e.strerror}", path) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def emit(text: str, output: str | None) -> None:
    """The report to ``-o FILE`` (written whole, at the end) or to stdout (``-`` or no ``-o``)."""
    if output is not None and output != "-":
        write_atomically(output, text)
    else:
        click.echo(text, nl=False)


def save_report(report: Report, path: str) -> None:
    """Write ``report`` as the JSON contract (``check --save-baseline``)."""
    from rknnprof.reporters import RenderOptions, renderer

    buf = io.StringIO()
    renderer("analyze", "json")(report, buf, RenderOptions())
    emit(buf.getvalue(), path)


def print_report_warnings(warnings: Iterable[ReportWarning]) -> None:
    """``Warning: path:line: message`` on stderr, one per warning of an analysed report."""
    for w in warnings:
        where = f"{w.path}:{w.line}" if w.line is not None else w.path
        click.echo(f"Warning: {where}: {w.message}", err=True)


def print_warnings(lines: Iterable[str]) -> None:
    """``warning: <line>`` on stderr, one per line (``compare`` and ``check``)."""
    for line in lines:
        click.echo(f"warning: {line}", err=True)
