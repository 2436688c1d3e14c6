"""Other streams' lines inside a frame the bulk path claims
(:mod:`rknnprof.parsers.fastpath.skipper`): which of them the claim must hand back to the
reader, and which scan would pass over anyway.

Scan passes over a line when it would offer it to no block (none is open on its stream, none is
being recorded, and no earlier line of its stream in the frame is handed back) and its (text,
level, tag) opened nothing before (``ScanState.opened_nothing``). A logcat threadtime line's
reading depends only on its bytes after the time stamp, given a time stamp of the stream's
shape (the stamp's digits are read as digits, never kept), so each distinct rest is read once
(:class:`OtherLines`). A line the reader drops (a ``chatty`` note: it counts it) is handed
back, and so is everything from a line of another layout on (its stream is not known).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.inputs.lines import MAX_LINE_CHARS
from rknnprof.parsers.fastpath.template import MAX_SHAPES, SHAPE

if TYPE_CHECKING:
    from rknnprof.inputs.claims import ReadLine
    from rknnprof.parsers.events import Stream
    from rknnprof.parsers.fastpath.scan_state import ScanState
    from rknnprof.parsers.fastpath.template import Template

Reading = tuple["Stream", tuple[str, str | None, str | None]] | None
"""A line's stream and (text, level, tag); None: the reader drops it."""


class OtherLines:
    """The readings of other streams' lines met inside claimed frames (bounded)."""

    def __init__(self, state: ScanState, read_line: ReadLine) -> None:
        self.state = state
        self.read_line = read_line
        self.readings: dict[bytes, Reading] = {}
        """A threadtime line's bytes after its time stamp -> its reading."""

    def hand_back(
        self,
        t: Template,
        raws: list[bytes],
        numbers: list[int],
    ) -> tuple[tuple[int, bytes], ...] | None:
        """The (line number, raw line without its newline) the reader must read of the other
        lines ``raws`` (newlines kept) of a frame of ``t``'s stream (numbered ``numbers``):
        without those scan would pass over.
        None when one of them is a line of the stream after all (its ``pid tid`` elsewhere than
        where the frame's lines have it) or is longer than the reader keeps (it cuts it and
        says so): the frame is then read line by line."""
        if max(map(len, raws)) > MAX_LINE_CHARS + 1:  # (a raw line keeps its newline)
            return None
        ids = t.ids
        assert ids is not None  # other lines are told apart by their ids
        cut, stamp, mine = ids.start, t.prefix_shape[: ids.start], t.stream
        state, readings = self.state, self.readings
        heard: set[Stream] = set()
        out: list[tuple[int, bytes]] = []
        for at, raw in enumerate(raws):
            if raw[:cut].translate(SHAPE) != stamp:  # another layout: its stream is not known
                pid = t.pid_text
                for number, later in zip(numbers[at:], raws[at:]):
                    if pid in later:  # (without the pid it is not the stream's)
                        line = self.read_line(later, number)
                        if line is not None and line.stream == mine:
                            return None
                    out.append((number, later[:-1]))
                break
            rest = raw[cut:]
            if rest in readings:
                reading = readings[rest]
            else:
                if len(readings) >= MAX_SHAPES:
                    readings.clear()
                line = self.read_line(raw, numbers[at])
                reading = readings[rest] = (
                    None if line is None else (line.stream, (line.text, line.level, line.tag))
                )
            if reading is not None:
                stream, seen = reading
                if stream == mine:
                    return None  # a line of the stream not where the frame's are
                if (
                    stream not in heard
                    and stream not in state.open_blocks
                    and stream not in state.recording
                    and seen in state.opened_nothing
                ):
                    continue  # scan would pass over it
                heard.add(stream)
            out.append((numbers[at], raw[:-1]))
        return tuple(out)
