"""The reads of an input a :class:`~rknnprof.inputs.claims.Skipper` takes runs of lines out of
(the bulk path for repeated frames), and the reading of the lines it hands back inside them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from rknnprof.inputs.body import (
    CHUNK_BYTES,
    body_lines,
    grammar,
    line_reader,
    new_line,
)
from rknnprof.inputs.claims import NEED_MORE, Claim, Claimed, Skipper
from rknnprof.inputs.records import Line, ReadStats
from rknnprof.inputs.sanitize import clean

if TYPE_CHECKING:
    from rknnprof.inputs._prefixes import OtherLayouts


class SkippingSource:
    """The reads :func:`_bodies` asks for, with the runs a :class:`Skipper` claims taken out.

    Skipping starts once the input is known to be UTF-8 (:meth:`start`) and stops for good at
    the first carriage return (line ends other than ``\\n`` would make byte offsets and line
    counts disagree). The data is read in large pieces (:data:`SKIP_READ_BYTES`); what is not
    claimed is handed out in pieces of at most ``CHUNK_BYTES`` (so the line length cap works as
    for plain reads), and a claim is made only at a line start, right after a handed-out newline.
    """

    def __init__(
        self, read: Callable[[int], bytes], skipper: Skipper, stats: ReadStats, other: OtherLayouts
    ) -> None:
        self.raw_read = read
        self.skipper = skipper
        self.stats = stats
        self.read_line = line_reader(stats, other)
        self.other = other
        """The reader's layout state: no run is claimed inside a ``-v long`` entry (its lines
        belong to the entry's stream, which the raw lines do not show)."""
        self.buf = b""
        self.pos = 0
        """Where the data not handed out yet begins in ``buf``."""
        self.eof = False
        self.skipping = False
        self.at_start = True
        """``pos`` begins a line."""
        self.number = 0
        """Physical lines before ``pos``."""
        self.next_run = -2
        """Offset in ``buf`` of the next place a run may begin (-1: none, -2: not looked)."""
        self.seen = -1
        """The skipper's ``version`` when ``next_run`` was looked for."""

    def lines(self, claimed: Claimed) -> Iterator[Line | Claim]:
        """A claimed run's claims and the lines it kept, in line order (:func:`in_order`)."""
        if not claimed.kept:
            return iter(claimed.claims)
        return in_order(claimed, self.other, self.stats)

    def start(self, encoding: str, head: bytes) -> bytes:
        """After the first read: skip from now on if the input is UTF-8; returns what of the
        head :func:`_bodies` decodes now (the head's complete lines; the rest goes to ``buf``)."""
        if encoding != "utf-8" or b"\r" in head:
            return head
        cut = head.rfind(b"\n") + 1
        self.skipping = True
        self.number = head.count(b"\n", 0, cut)
        self.buf = head[cut:]
        return head[:cut]

    def _fill(self, size: int = 0) -> None:
        data = self.raw_read(max(size, SKIP_READ_BYTES))
        if not data:
            self.eof = True
        elif b"\r" in data:
            self.skipping = False
        if self.next_run >= 0:
            self.next_run -= self.pos
        else:
            self.next_run = -2
        rest = memoryview(self.buf)[self.pos :]  # (copied once, into the new buffer)
        self.buf = b"".join((rest, data)) if rest else bytes(data)  # (bytes: the same object)
        rest.release()
        self.pos = 0

    def _hand_out(self, end: int) -> bytes:
        out, self.pos = self.buf[self.pos : end], end
        self.number += out.count(b"\n")
        self.at_start = out.endswith(b"\n")
        if self.next_run != -1 and self.next_run < end:
            self.next_run = -2
        return out

    def read(self, size: int) -> bytes | Claimed:  # noqa: ARG002 - pieces are sized here
        while True:
            buf, pos = self.buf, self.pos
            if not self.skipping:
                if pos < len(buf):
                    return self._hand_out(min(len(buf), pos + CHUNK_BYTES))
                return self.raw_read(CHUNK_BYTES)
            if pos >= len(buf):
                if self.eof:
                    return b""
                self._fill()
                continue
            if not self.at_start:
                cut = buf.find(b"\n", pos, pos + CHUNK_BYTES)
                if cut < 0 and len(buf) - pos < CHUNK_BYTES and not self.eof:
                    self._fill()
                    continue
                return self._hand_out(min(len(buf), pos + CHUNK_BYTES) if cut < 0 else cut + 1)
            if self.next_run == -2 or self.next_run == -1 and self.seen != self.skipper.version:
                self.seen = self.skipper.version
                self.next_run = self.skipper.find(buf, pos)
            if self.next_run == pos and self.other.long_entry is None:
                claimed = self.skipper.claim(buf, pos, self.number + 1, self.eof, self.read_line)
                if claimed == NEED_MORE and not self.eof and len(buf) - pos < MAX_RUN_BYTES:
                    self._fill(len(buf) - pos)  # (doubling: a long run is not copied often)
                    continue
                self.next_run = -2
                if isinstance(claimed, Claimed):
                    self.pos = claimed.end
                    self.number += claimed.lines
                    return claimed
                cut = buf.find(b"\n", pos)  # declined: its first line is read as usual
                if cut >= 0:
                    return self._hand_out(min(cut + 1, pos + CHUNK_BYTES))
                self.at_start = False
                continue
            end = self.next_run if self.next_run > pos else buf.rfind(b"\n", pos) + 1
            if end <= pos:  # no complete line: a long one goes out in pieces, as it comes
                if not self.eof and len(buf) - pos < CHUNK_BYTES:
                    self._fill()
                    continue
                end = len(buf)
            return self._hand_out(min(end, pos + CHUNK_BYTES))


SKIP_READ_BYTES = 1 << 16
"""Size of the reads made while a skipper is in use (the claims are checked in memory). Below
the C allocator's threshold for mapping a block of its own (glibc: 128 KiB at first), so the
buffers come from the heap and are reused; 256 KiB reads were mapped afresh, a page fault per
4 KiB (6,000 for a 60 MB capture, 43 ms of system time)."""
MAX_RUN_BYTES = 16 << 20
"""A run that is not complete within this much data is declined (read line by line)."""


STAMP_BYTES = 18
"""A threadtime time stamp (``MM-DD HH:MM:SS.mmm``): its digits are read as digits, not kept."""
_DIGITS = bytes.maketrans(b"123456789", b"000000000")


def in_order(claimed: Claimed, other: OtherLayouts, stats: ReadStats) -> Iterator[Line | Claim]:
    """A claimed run's claims and the lines it kept (read as usual), in line order."""
    kept, at = claimed.kept, 0
    for claim in claimed.claims:
        upto = at
        while upto < len(kept) and kept[upto][0] < claim.number:
            upto += 1
        if upto > at:
            yield from kept_lines(kept[at:upto], other, stats)
            at = upto
        yield claim
    if at < len(kept):
        yield from kept_lines(kept[at:], other, stats)


def kept_lines(
    kept: tuple[tuple[int, bytes], ...], other: OtherLayouts, stats: ReadStats
) -> Iterator[Line]:
    """The lines a skipper left inside a run it claimed, in order, each read as usual. A logcat
    threadtime line whose ids come after a plain time stamp reads the same as any line of the
    same bytes after a stamp of the same shape (the stamp's digits are matched as digits and
    never kept): its reading (a Line's fields, or the message of a ``chatty`` note, dropped and
    counted) is remembered (bounded, ``other.kept``), and the next line of that shape and those
    bytes gets it, with its own number. Other processes' messages repeat in every frame."""
    memo = other.kept
    for number, raw in kept:
        key = (raw[:STAMP_BYTES].translate(_DIGITS), raw[STAMP_BYTES:])
        reading = memo.get(key)
        if reading is None:
            line, reading = _read_kept(raw, number, other, stats)
            if reading is not None:
                if len(memo) >= 4096:
                    memo.clear()
                memo[key] = reading
            if line is not None:
                yield line
        elif reading.__class__ is tuple:
            yield new_line(Line, (number, *reading))
        else:  # a chatty note (its message and the process it names)
            stats.add_chatty(number, *reading)


def _read_kept(
    raw: bytes,
    number: int,
    other: OtherLayouts,
    stats: ReadStats,
) -> tuple[Line | None, tuple[Any, ...] | str | None]:
    """One kept line read as usual: its Line (None: dropped), and its reading when it is a
    threadtime line whose ids come after a plain time stamp (else None)."""
    text = clean(raw.decode("utf-8", "replace"))
    _, _, THREADTIME_CHUNK, _ = grammar()
    m = THREADTIME_CHUNK.match(text)
    plain = (
        m is not None
        and bool(m.group(1))
        and m.start(1) >= STAMP_BYTES
        and raw[:STAMP_BYTES].isascii()
    )
    chatty = stats.chatty_count
    for item in body_lines(text, number - 1, other, stats):
        if item.__class__ is not int:
            line: Line = item  # type: ignore[assignment]  # not a dropped line's number
            return line, (line.text, line.stream, line.level, line.tag) if plain else None
    if not plain or stats.chatty_count != chatty + 1:
        return None, None
    kept = stats.chatty and stats.chatty[-1][0] == number  # (else no room for examples)
    pid = int(m.group(1).split()[0])
    return None, _Chatty(stats.chatty[-1][1] if kept else "", pid)


class _Chatty(NamedTuple):
    """The reading of a kept ``chatty`` note: its message and the process it names."""

    message: str
    pid: int
