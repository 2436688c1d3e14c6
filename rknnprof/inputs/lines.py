"""Bytes in, clean message lines out.

``read_lines`` reads a binary stream *incrementally* (a file, stdin, or a live ``adb logcat``
pipe: each line is yielded as soon as its newline arrives) and yields one :class:`Line` per
physical line, with the transport prefix removed and its facts (pid/tid, level, tag) kept.

What it does, in order:

* **Encoding** is sniffed from the first bytes: UTF-8 BOM, UTF-16 LE/BE BOM (Windows
  PowerShell ``>``), UTF-16 without BOM when NUL bytes sit on every other byte; else UTF-8.
  Invalid bytes become U+FFFD, never an exception. NUL characters are dropped.
* **Line ends**: ``\\n``, ``\\r\\n``, ``\\r\\r\\n`` (adb PTY) and a lone ``\\r`` each end one
  line (a run of ``\\r`` with an optional ``\\n`` is one separator). ``str.splitlines`` is never
  used. A last line without a newline is yielded at EOF.
* **Clean-up** (the sanitising boundary, :mod:`rknnprof.inputs.sanitize`): escape sequences
  (CSI, OSC, every other ESC sequence, 8-bit CSI/OSC), form feeds (0x0C, PDF extraction) and
  NULs are removed and every other control character becomes U+FFFD; then **trailing
  whitespace is stripped** (``rstrip``) from every line. Leading whitespace is kept: table
  parsers rely on nothing either way.
* **Length cap**: a line longer than :data:`MAX_LINE_CHARS` characters keeps its first
  ``MAX_LINE_CHARS`` characters; the rest up to the next newline is read and discarded, so memory
  stays bounded (about one read chunk plus the cap) whatever the input.
* **Prefixes** (logcat ``-v`` layouts, the runtime's ``L RKNN: [hh:mm:ss.mmm] ``) are
  stripped from the start of the line and their facts kept; logcat dividers and logd
  ``chatty`` lines are dropped (no Line, but counted in line numbers and :class:`ReadStats`).
  The grammar, and exactly what is stripped and dropped, is in :mod:`rknnprof.inputs._prefixes`.

``Line.number`` counts every physical line, dropped ones included. A ``\r`` that
ends a read is held until the next read (it may be half of ``\r\n``), so on a live pipe a line
ended by a lone ``\r`` waits for the next byte.

Speed: threadtime lines (logcat's default) are matched a whole read at a time with one
``findall``, and ``D RKNN: [..]`` lines by a literal test before one small regex; other layouts
are tried per line after a first-character dispatch (the reading of decoded text:
:mod:`~rknnprof.inputs.body`). With a skipper, the reads go through
:meth:`Skipper.reads <rknnprof.inputs.claims.Skipper.reads>`, which takes out the runs it
claims.
"""

from __future__ import annotations

import codecs
import sys
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, BinaryIO

from rknnprof.errors import InputError
from rknnprof.inputs.body import CHUNK_BYTES, MAX_LINE_CHARS, body_lines, line_reader
from rknnprof.inputs.claims import Claim, Claimed, Reads, Skipper
from rknnprof.inputs.compressed import compression_of, may_be_compressed
from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.inputs.records import KEEP_EXAMPLES, Line, ReadStats
from rknnprof.inputs.sanitize import clean

if TYPE_CHECKING:
    pass


__all__ = [
    "CHUNK_BYTES",
    "KEEP_EXAMPLES",
    "MAX_LINE_CHARS",
    "Line",
    "ReadStats",
    "line_reader",
    "open_input",
    "read_lines",
]


def open_input(path: str) -> BinaryIO:
    """Open ``path`` for :func:`read_lines`; ``"-"`` is standard input (binary)."""
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=path) from None


_SEPARATORS = LazyPattern(r"\r+\n?")
_END_OF_LINE = LazyPattern(r"[\r\n]")


def read_lines(
    stream: BinaryIO, stats: ReadStats | None = None, skipper: Skipper | None = None
) -> Generator[Line | Claim, None, None]:
    """Yield clean :class:`Line` records from a binary stream, incrementally (see the module
    docstring for what is stripped, dropped and kept). ``stats``, when given, is filled while
    iterating: encoding, logcat layout, truncated and chatty lines.

    ``skipper`` (:mod:`rknnprof.inputs.claims`): runs of lines it claims are yielded as its
    :class:`Claim` objects instead of lines; without one, only lines are yielded.

    A paste wrapped in single back-ticks (sample 40) loses the opening one here, so a table
    header on the first line still reads as a header; the closing one is left to the parsers
    (it would need a line of look-ahead)."""
    lines = _read_lines(stream, stats, skipper)
    first = next(lines, None)
    if first is None:
        return
    if first.__class__ is Line and first.text.startswith("`") and not first.text.startswith("``"):
        first = first._replace(text=first.text[1:])
    yield first
    yield from lines


def _read_lines(
    stream: BinaryIO, stats: ReadStats | None, skipper: Skipper | None
) -> Iterator[Line | Claim]:
    if stats is None:
        stats = ReadStats()
    from rknnprof.inputs._prefixes import OtherLayouts  # its regexes: not for --help

    read = getattr(stream, "read1", None) or stream.read
    other = OtherLayouts(stats)
    source = None if skipper is None else skipper.reads(read, stats, other)
    number = 0
    dropped, dropped_from = -1, 0  # the last run of dropped lines, for stats.last_line
    try:
        for body in _bodies(read if source is None else source.read, stats, source):
            if body.__class__ is Claimed:  # a run the skipper read itself
                claimed: Claimed = body
                number += claimed.lines
                yield from source.lines(claimed)  # type: ignore[union-attr]  # claims come from a source
                continue
            for line in body_lines(body, number, other, stats):  # type: ignore[arg-type]
                if line.__class__ is int:  # a dropped line (its number)
                    dropped_from = dropped_from if dropped == line - 1 else line
                    dropped = number = line
                else:
                    number = line.number  # type: ignore[union-attr]
                    yield line  # type: ignore[misc]
        stats.lines = number
    finally:
        # suspended at a yield (closed early), the last line was yielded; else lines after the
        # last yielded one may have been dropped
        stats.last_line = dropped_from - 1 if dropped == number else number


def _bodies(
    read: Callable[[int], bytes | Claimed], stats: ReadStats, source: Reads | None = None
) -> Iterator[str | Claimed]:
    """Decode and split the input; yield, per read, the text of the lines it completed, joined
    by ``\n`` (separators normalised; form feeds, NULs and ANSI escapes removed; over-long lines
    cut). A body of n newlines holds n + 1 lines. The runs ``source`` claims are passed on as
    they are, between bodies."""
    head = _read_head(read)  # type: ignore[arg-type]  # no claims before source.start()
    stats.compressed = compression_of(head)
    if stats.compressed is not None:  # (a file is decompressed before: see api.parse_path)
        return  # not text: no lines (the caller says how to unpack it)
    encoding, bom = _sniff(head)
    stats.encoding, stats.bom = encoding, bom > 0
    stats.binary = encoding == "utf-8" and looks_binary(head[:512])
    decode = codecs.getincrementaldecoder(encoding)(errors="replace").decode
    data: bytes | Claimed = head[bom:] if bom else head
    final = not head  # end of input (data may be empty before it, e.g. after a lone BOM)
    if source is not None and head:
        data = source.start(encoding, data)  # type: ignore[arg-type]
    carry = ""  # the incomplete last line (at most MAX_LINE_CHARS + held CRs)
    discarding = False  # carry is the kept head of an over-long line; drop text until its end
    done = 0  # lines yielded so far (for line numbers in stats)
    while True:
        if data.__class__ is Claimed:  # claimed at a line start: nothing is carried
            yield data
            done += data.lines
            data = read(CHUNK_BYTES)
            final = not data
            continue
        text = decode(data, final)  # type: ignore[arg-type]
        if discarding:
            m = _END_OF_LINE.search(text)
            if m is not None:
                text = carry + text[m.start() :]
                discarding = False
            elif final:
                text = carry
            else:
                data = read(CHUNK_BYTES)
                final = not data
                continue
        elif carry:
            text = carry + text
        hold = ""
        if "\r" in text:
            if not final and text[-1] == "\r":  # may be the first half of "\r\n"
                kept = text.rstrip("\r")
                hold, text = text[len(kept) :], kept
            text = _SEPARATORS.sub("\n", text)
        body: str | None
        if final:
            if not text:
                return
            stats.unterminated = text[-1] != "\n"
            body, carry = (text[:-1] if text[-1] == "\n" else text), ""
        else:
            cut = text.rfind("\n")
            body, carry = (None, text) if cut < 0 else (text[:cut], text[cut + 1 :])
            if len(carry) > MAX_LINE_CHARS:  # an over-long line still open
                complete = 0 if body is None else body.count("\n") + 1
                _truncated(stats, done + complete + 1)
                carry = carry[:MAX_LINE_CHARS]
                discarding = not hold  # a held CR already ended the line
            carry += hold
        if body is not None:
            first_end = body.find("\n")
            if first_end > MAX_LINE_CHARS or first_end < 0 and len(body) > MAX_LINE_CHARS:
                # only the line begun in an earlier read can be too long (CHUNK_BYTES < cap)
                _truncated(stats, done + 1)
                body = body[:MAX_LINE_CHARS] + (body[first_end:] if first_end >= 0 else "")
            body = clean(body)  # the sanitising boundary: escapes gone, controls visible
            done += body.count("\n") + 1
            yield body
        if final:
            return
        data = read(CHUNK_BYTES)
        final = not data


def _truncated(stats: ReadStats, number: int) -> None:
    stats.truncated_count += 1
    if len(stats.truncated) < KEEP_EXAMPLES:
        stats.truncated.append(number)


def _read_head(read: Callable[[int], bytes]) -> bytes:
    """The first read, extended only while it is too short to tell the encoding, or whether
    it is compressed."""
    head = b""
    while True:
        chunk = read(CHUNK_BYTES)
        if not chunk:
            return head
        head += chunk
        if len(head) < 3 and (codecs.BOM_UTF8.startswith(head) or head in (b"\xff", b"\xfe")):
            continue
        if len(head) < 32 and b"\x00" in head:
            continue
        if may_be_compressed(head):
            continue
        return head


_CONTROLS = bytes(b for b in range(32) if b not in b"\t\n\v\f\r\x1b")


def looks_binary(sample: bytes) -> bool:
    """NULs, or over 5 % control bytes other than blanks and ESC in bytes that are no UTF-8:
    no text log starts so (a terminal capture's backspaces are valid UTF-8)."""
    if b"\x00" in sample:
        return True
    if len(sample.translate(None, _CONTROLS)) >= len(sample) * 0.95:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample)  # (a cut last character: fine)
    except UnicodeDecodeError:
        return True
    return False


def _sniff(head: bytes) -> tuple[str, int]:
    """(codec, BOM length in bytes) from the first bytes of the input."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8", 3
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le", 2
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be", 2
    sample = head[:512]
    pairs = len(sample) // 2
    if pairs >= 2 and b"\x00" in sample:
        even = sample[0 : 2 * pairs : 2].count(0)
        odd = sample[1 : 2 * pairs : 2].count(0)
        if odd * 10 >= pairs * 6 and even * 10 <= pairs:
            return "utf-16-le", 0
        if even * 10 >= pairs * 6 and odd * 10 <= pairs:
            return "utf-16-be", 0
    return "utf-8", 0
