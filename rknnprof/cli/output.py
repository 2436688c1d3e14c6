"""Where a command's report goes: colour, the ``-o`` file (written whole through a temporary
file) or stdout, and warnings on stderr. The format an ``-o`` suffix implies is
:func:`rknnprof.cli.options.choose_format`.

Used by the commands in :mod:`rknnprof.cli.commands`. Nothing here parses options or picks an
exit code: a failed write raises :class:`~rknnprof.errors.InputError` for the commands to
report.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import sys
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any, NoReturn

import click

from rknnprof.cli.options import is_quiet
from rknnprof.errors import EXIT_BROKEN_PIPE, InputError
from rknnprof.reporters._escape import message_line

if TYPE_CHECKING:
    from rknnprof.model import Report, ReportWarning
    from rknnprof.reporters.base import RenderOptions


def _env_set(name: str) -> bool:
    """A colour variable is on when set to anything but empty or ``0``."""
    return os.environ.get(name, "") not in ("", "0")


def use_color(choice: str, to_terminal: bool) -> bool:
    """``--color auto|always|never``. ``auto``: no colour when ``NO_COLOR`` is set; colour when
    ``FORCE_COLOR`` or ``CLICOLOR_FORCE`` is set (CI logs that render ANSI), else only on a
    terminal. ``always`` and ``never`` win over the variables."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    return to_terminal or _env_set("FORCE_COLOR") or _env_set("CLICOLOR_FORCE")


def render_options(color: str, output: str | None, top: int = 15) -> RenderOptions:
    """Options for ``compare`` and ``check``: colour and the terminal width only when the report
    goes to a terminal (no ``-o``)."""
    import shutil

    from rknnprof.reporters.base import RenderOptions

    tty = output is None and stdout_is_terminal()
    width = shutil.get_terminal_size().columns if tty else None
    return RenderOptions(top=top, color=use_color(color, tty), width=width)


def write_report(path: str, text: str | bytes) -> None:
    """Write ``text`` to ``path``: a regular file (or a new one) through a temporary file and a
    rename, so a failure leaves no partial file; anything else (a symlink, a FIFO, a character
    device such as ``/dev/null`` or ``/dev/stdout``) is opened and written in place, so the node
    stays what it was. A failed write (``/dev/full``: no space left) raises :class:`InputError`.
    ``text`` may be UTF-8 bytes (:func:`emit`), written as they are."""
    import stat

    if not path:
        raise InputError("-o needs a file name ('-' for stdout)")
    try:
        mode = os.stat(path).st_mode  # what a symlink names decides
    except OSError:
        mode = None  # nothing there yet (or not visible): a new regular file
    if mode is not None and stat.S_ISDIR(mode):
        raise InputError("cannot write the report: is a directory", path)
    if mode is not None and stat.S_ISREG(mode) and not mode & 0o222:
        # refused also where root could write or replace it: a file nobody may write was made
        # so on purpose (a committed baseline, a report kept as evidence)
        raise InputError("cannot write the report: the file is read-only", path)
    if os.path.islink(path) or (mode is not None and not stat.S_ISREG(mode)):
        _write_in_place(path, text)
    else:
        _write_atomically(path, text, None if mode is None else stat.S_IMODE(mode))


def _write_in_place(path: str, text: str | bytes) -> None:
    try:
        with _open_for(text, path) as f:
            f.write(text)
    except OSError as e:
        raise InputError(f"cannot write the report: {e.strerror}", path) from None


def _write_atomically(path: str, text: str | bytes, keep_mode: int | None) -> None:
    """Through a temporary file and a rename; a file it replaces keeps its permission bits
    (``keep_mode``), a new one gets 0666 less the umask."""
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".rknnprof-", suffix=".tmp", dir=directory)
    except OSError as e:
        raise InputError(f"cannot write the report: {e.strerror} ({directory})", path) from None
    try:
        if keep_mode is None:
            umask = os.umask(0)
            os.umask(umask)
            keep_mode = 0o666 & ~umask  # mkstemp makes 0600; a report is an ordinary file
        os.fchmod(fd, keep_mode)
        with _open_for(text, fd) as f:
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


def _open_for(text: str | bytes, file: str | int) -> IO[Any]:
    """``file`` (a path or a descriptor) opened to write ``text``: binary for bytes, UTF-8 text
    for a str; a lone surrogate (a file name that is not UTF-8) is written ``\\udcff``, as on
    stdout (strict UTF-8 ended the run with a traceback)."""
    if isinstance(text, bytes):
        return open(file, "wb")  # noqa: SIM115 - the caller's with closes it
    return open(file, "w", encoding="utf-8", errors="backslashreplace", newline="")  # noqa: SIM115


def emit(text: str | bytes, output: str | None, color: bool | None = None) -> None:
    """The report to ``-o FILE`` (written whole, at the end) or to stdout (``-`` or no ``-o``).
    A closed or full stdout is an :class:`InputError`; a reader that went away (``| head``) ends
    the run quietly with exit 141, as SIGPIPE would.

    ``text`` may be the report as the UTF-8 bytes it was rendered into (``analyze``'s buffer,
    written with ``surrogatepass``): they are written as they are wherever that gives the bytes
    the text would, so a long capture's trace report (megabytes) is not also held as a str;
    else they are decoded first."""
    if isinstance(text, bytes) and not _bytes_as_they_are(text, output, color):
        text = text.decode("utf-8", "surrogatepass")
    if output is not None and output != "-":
        write_report(output, text)
        return
    if sys.stdout is None:  # started with stdout closed (``>&-``)
        raise InputError("cannot write the report: standard output is closed", "-")
    try:
        _to_stdout(text, color)
    except BrokenPipeError:
        reader_gone()
    except OSError as e:
        raise InputError(f"cannot write the report: {e.strerror}", "-") from None


def reader_gone() -> NoReturn:
    """A reader of stdout or stderr went away (``| head -1``, a closed ``2>`` pipe): end the
    run quietly with exit 141, as SIGPIPE would, whichever stream it was. Both streams are
    pointed at ``/dev/null`` first, so Python's exit-time flush of the text still buffered for
    them cannot fail too (it exited 1 or 120 with a second error)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    raise SystemExit(EXIT_BROKEN_PIPE)


_SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")
"""A lone surrogate as ``surrogatepass`` encodes it (a file name that is not UTF-8): written as
``\\udcxx`` to files and stdout, so such bytes are decoded first."""


def _bytes_as_they_are(data: bytes, output: str | None, color: bool | None) -> bool:
    """Whether writing ``data`` (UTF-8) unchanged gives the bytes its text would: no lone
    surrogate; to stdout, also a UTF-8 stdout with a descriptor and no styles to strip."""
    if _SURROGATE.search(data):
        return False
    if output is not None and output != "-":
        return True
    try:
        fd = sys.stdout.fileno() if sys.stdout is not None else -1
    except (AttributeError, OSError, ValueError):
        return False
    if fd < 0 or codecs.lookup(sys.stdout.encoding or "utf-8").name != "utf-8":
        return False
    strip = not color if color is not None else not os.isatty(fd)
    return not (strip and b"\x1b" in data)


def _to_stdout(text: str | bytes, color: bool | None) -> None:
    """Write ``text`` to stdout's file descriptor in full, so a closed pipe is always seen.

    ``sys.stdout.write`` of a report larger than the pipe buffer swallows the EPIPE that follows
    a partial write (CPython's buffered writer returns the partial count and the text layer
    drops it), so ``… | head -1`` ended with exit 0 or 1 depending on timing. Streams without a
    descriptor (tests' captured stdout) go through ``click.echo``. ANSI styles are stripped as
    ``click.echo`` would: when ``color`` is False, or unset and stdout is not a terminal."""
    if isinstance(text, bytes):  # as they are (see emit)
        sys.stdout.flush()
        view = memoryview(text)
        while view:
            view = view[os.write(sys.stdout.fileno(), view) :]
        return
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        click.echo(text, nl=False, color=color)
        sys.stdout.flush()
        return
    strip = not color if color is not None else not os.isatty(fd)
    if strip and "\x1b" in text:  # no styles, no copy (a trace report is megabytes)
        text = click.unstyle(text)
    encode = codecs.getincrementalencoder(sys.stdout.encoding or "utf-8")("backslashreplace")
    sys.stdout.flush()
    for start in range(0, len(text), _PIECE):  # encoded a piece at a time: no second copy
        view = memoryview(encode.encode(text[start : start + _PIECE]))
        while view:
            view = view[os.write(fd, view) :]


_PIECE = 1 << 20
"""Characters of the report encoded and written at a time."""


def stdout_is_terminal() -> bool:
    """Whether stdout is a terminal (False when it was closed at start)."""
    return sys.stdout is not None and sys.stdout.isatty()


def stdin_is_terminal() -> bool:
    """Whether stdin is a terminal (False when it was closed at start)."""
    return sys.stdin is not None and sys.stdin.isatty()


def require_stdin(paths: Iterable[str]) -> None:
    """An :class:`InputError` when a path is ``-`` but stdin was closed at start (``<&-``)."""
    if sys.stdin is None and "-" in paths:
        raise InputError("cannot read: standard input is closed", "-")


def save_report(report: Report, path: str) -> None:
    """Write ``report`` as the JSON contract (``check --save-baseline``)."""
    from rknnprof.reporters import RenderOptions, renderer

    buf = io.StringIO()
    renderer("analyze", "json")(report, buf, RenderOptions())
    emit(buf.getvalue(), path)


def print_report_warnings(warnings: Iterable[ReportWarning]) -> None:
    """``Warning: path:line: message`` on stderr, one per warning of an analysed report
    (none with ``-q``)."""
    if is_quiet():
        return
    for w in warnings:
        where = f"{w.path}:{w.line}" if w.line is not None else w.path
        click.echo(f"Warning: {message_line(f'{where}: {w.message}')}", err=True)


def print_warnings(lines: Iterable[str]) -> None:
    """``Warning: <line>`` on stderr, one per line (``compare`` and ``check``; none with
    ``-q``). The same prefix as :func:`print_report_warnings`."""
    if is_quiet():
        return
    for line in lines:
        click.echo(f"Warning: {message_line(line)}", err=True)
