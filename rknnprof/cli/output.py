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
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NoReturn, TextIO, cast

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


Render = Callable[[TextIO], object]
"""A report written to the text stream it is given, piece by piece (:func:`stream`); what it
returns is ignored."""


def write_report(path: str, render: Render) -> None:
    """Write what ``render`` writes to ``path``, as it writes it: a regular file (or a new one)
    through a temporary file and a rename, so a failure leaves no partial file; anything else (a
    symlink, a FIFO, a character device such as ``/dev/null`` or ``/dev/stdout``) is opened and
    written in place, so the node stays what it was. A failed write (``/dev/full``: no space
    left) raises :class:`InputError`."""
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
        _write_in_place(path, render)
    else:
        _write_atomically(path, render, None if mode is None else stat.S_IMODE(mode))


def _write_in_place(path: str, render: Render) -> None:
    try:
        with _open_for(path) as f:
            render(f)
    except OSError as e:
        raise InputError(f"cannot write the report: {e.strerror}", path) from None


def _write_atomically(path: str, render: Render, keep_mode: int | None) -> None:
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
        with _open_for(fd) as f:
            render(f)
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise InputError(f"cannot write the report: {e.strerror}", path) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _open_for(file: str | int) -> TextIO:
    """``file`` (a path or a descriptor) opened to write a report as UTF-8; a lone surrogate (a
    file name that is not UTF-8) is written ``\\udcff``, as on stdout (strict UTF-8 ended the run
    with a traceback)."""
    return open(file, "w", encoding="utf-8", errors="backslashreplace", newline="")  # noqa: SIM115


def emit(text: str, output: str | None, color: bool | None = None) -> None:
    """``text``, the whole report, to ``-o FILE`` or to stdout, as :func:`stream` writes."""
    stream(lambda out: out.write(text), output, color)


def stream(render: Render, output: str | None, color: bool | None = None) -> None:
    """The report ``render`` writes, sent to its destination as it is written, so that a long
    capture's trace (megabytes) is never held whole: to ``-o FILE`` through the temporary file
    of :func:`write_report` (renamed once the report is whole), or to stdout's descriptor a
    piece at a time (:func:`_to_stdout`). A closed or full stdout is an :class:`InputError`; a
    reader that went away (``| head``) ends the run quietly with exit 141, as SIGPIPE would."""
    if output is not None and output != "-":
        write_report(output, render)
        return
    if sys.stdout is None:  # started with stdout closed (``>&-``)
        raise InputError("cannot write the report: standard output is closed", "-")
    try:
        _to_stdout(render, color)
    except BrokenPipeError:
        reader_gone()
    except OSError as e:
        raise InputError(f"cannot write the report: {e.strerror}", "-") from None


class _Pieces(io.TextIOBase):
    """A text stream to a file descriptor, written about :data:`_PIECE` characters at a time
    and in full (as :func:`_to_stdout` writes), encoded with ``backslashreplace``. A piece ends
    after a newline when styles are to be stripped (``strip``): an ANSI sequence never spans
    lines, so each piece is unstyled whole."""

    def __init__(self, fd: int, encoding: str, strip: bool) -> None:
        super().__init__()
        self._fd = fd
        self._encode = codecs.getincrementalencoder(encoding)("backslashreplace").encode
        self._strip = strip
        self._parts: list[str] = []
        self._size = 0

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        self._parts.append(s)
        self._size += len(s)
        if self._size >= _PIECE:
            self._send(final=False)
        return len(s)

    def finish(self) -> None:
        """Write what is left."""
        self._send(final=True)

    def _send(self, final: bool) -> None:
        text = "".join(self._parts)
        cut = len(text)
        if self._strip and not final and "\x1b" in text:
            cut = text.rfind("\n") + 1  # 0: no line ends yet; keep it all
        piece, rest = text[:cut], text[cut:]
        self._parts, self._size = ([rest], len(rest)) if rest else ([], 0)
        if self._strip and "\x1b" in piece:  # no styles, no copy (a trace is megabytes)
            piece = click.unstyle(piece)
        for start in range(0, len(piece), _PIECE):  # encoded a piece at a time: no second copy
            self._write_all(self._encode(piece[start : start + _PIECE]))
        if final:
            self._write_all(self._encode("", True))

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]


def reader_gone() -> NoReturn:
    """A reader of stdout or stderr went away (``| head -1``, a closed ``2>`` pipe): end the
    run quietly with exit 141, as SIGPIPE would, whichever stream it was. Both streams are
    pointed at ``/dev/null`` first, so Python's exit-time flush of the text still buffered for
    them cannot fail too (it exited 1 or 120 with a second error)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    raise SystemExit(EXIT_BROKEN_PIPE)


def _to_stdout(render: Render, color: bool | None) -> None:
    """Write what ``render`` writes to stdout's file descriptor in full, so a closed pipe is
    always seen.

    ``sys.stdout.write`` of a report larger than the pipe buffer swallows the EPIPE that follows
    a partial write (CPython's buffered writer returns the partial count and the text layer
    drops it), so ``… | head -1`` ended with exit 0 or 1 depending on timing. Streams without a
    descriptor (tests' captured stdout) get the whole text through ``click.echo``. ANSI styles
    are stripped as ``click.echo`` would: when ``color`` is False, or unset and stdout is not a
    terminal."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        whole = io.StringIO()
        render(whole)
        click.echo(whole.getvalue(), nl=False, color=color)
        sys.stdout.flush()
        return
    pieces = _Pieces(fd, sys.stdout.encoding or "utf-8", _strip(color, fd))
    sys.stdout.flush()
    render(cast(TextIO, pieces))  # what a reporter uses of a TextIO: write
    pieces.finish()


def _strip(color: bool | None, fd: int) -> bool:
    """Whether ANSI styles are stripped, as ``click.echo`` would: when ``color`` is False, or
    unset and ``fd`` is not a terminal."""
    return not color if color is not None else not os.isatty(fd)


_PIECE = 1 << 18
"""Characters of the report encoded and written at a time."""


def stdout_is_terminal() -> bool:
    """Whether stdout is a terminal (False when it was closed at start)."""
    return sys.stdout is not None and sys.stdout.isatty()


def stdin_is_terminal() -> bool:
    """Whether stdin is a terminal (False when it was closed at start)."""
    return sys.stdin is not None and sys.stdin.isatty()


def require_stdin(paths: Iterable[str]) -> None:
    """An :class:`InputError` when a path is ``-`` but stdin was closed at start (``<&-``); a
    usage error when ``-`` is given twice (stdin is read once)."""
    paths = list(paths)
    if paths.count("-") > 1:
        raise click.UsageError("standard input ('-') is given twice: it can be read once")
    if sys.stdin is None and "-" in paths:
        raise InputError("cannot read: standard input is closed", "-")


def echo_err(text: str) -> None:
    """``text`` and a newline on stderr; a stderr that cannot take it (``2>/dev/full``) loses
    the line, not the run's exit code (every code read 1). A reader gone away is still a
    broken pipe."""
    try:
        click.echo(text, err=True)
    except BrokenPipeError:
        raise
    except OSError:
        pass


def refuse_overwrite(inputs: Iterable[str], **outputs: str | None) -> None:
    """A usage error when an output (``o="report.json"``) is one of the input files: the log
    was replaced by its own report without a word (``analyze run.txt -o run.txt``)."""
    for option, target in outputs.items():
        if target in (None, "-"):
            continue
        for path in inputs:
            try:
                if path == "-":  # (stdin redirected from the file: `< run.txt -o run.txt`)
                    same = os.path.samestat(os.fstat(0), os.stat(target))
                else:
                    same = os.path.samefile(path, target)
            except (OSError, ValueError):  # (the output does not exist yet, no stdin, …)
                same = False
            if same:
                name = "-" + option if len(option) == 1 else "--" + option.replace("_", "-")
                what = "stdin's file" if path == "-" else path
                raise click.UsageError(
                    f"{name} {target} is the input {what}: it would be overwritten"
                )


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
        echo_err(f"Warning: {message_line(f'{where}: {w.message}')}")


def one_terminal() -> bool:
    """Standard output and standard error are both a terminal: a report printed there already
    shows the warnings stderr would repeat."""
    return all(stream is not None and stream.isatty() for stream in (sys.stdout, sys.stderr))


def print_warnings(lines: Iterable[str]) -> None:
    """``Warning: <line>`` on stderr, one per line (``compare`` and ``check``; none with
    ``-q``). The same prefix as :func:`print_report_warnings`."""
    if is_quiet():
        return
    for line in lines:
        echo_err(f"Warning: {message_line(line)}")


def wrapped(text: str) -> str:
    """Each line of ``text`` wrapped to the terminal (100 columns piped), under its own indent;
    a URL is never broken, as it would not copy."""
    import shutil
    import textwrap

    width = max(40, shutil.get_terminal_size((100, 24)).columns)
    out = []
    for line in text.splitlines():
        indent = line[: len(line) - len(line.lstrip())]
        out.append(
            textwrap.fill(
                line,
                width,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
            if line
            else ""
        )
    return "\n".join(out)
