"""``eval_perf(perf_debug=False)`` totals: no per-layer table, only the run's time and FPS.

::

    ========================================================================
                                   Performance
    ========================================================================
    Total Time(us): 18642
    FPS: 53.64
    ========================================================================

Seen from rknn-toolkit 1.x (samples 29, 30); 1.7.x prints ``Average inference Time(us):
2956.56`` in place of ``Total Time(us)`` (the mean of its timed runs), read the same way.
Sample 30 lost its newlines:
``Total Time(us): 7140FPS: 140.06`` is one line, so both values are searched within the line.
toolkit2's perf_debug=False short form is documented only by third-party parsers as the same
``Total Time(us):`` line; it is read the same way. The block opens on ``Total Time(us): N``
(not the 1.5 ``Total Operator Elapsed Time(us)`` nor a ranking header, which have no number
after ``Total Time(us)``) and takes a following ``FPS: x`` line. Times in microseconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import TotalsEvent
from rknnprof.parsers.table.tokens import to_float, to_number

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "eval_perf-totals"

_TOTAL = LazyPattern(
    # (not the start of another number: ``1e309`` is no 1 us)
    r"(?<![A-Za-z])(?:Total|Average inference) Time\(us\):\s*(?P<total>\d+(?:\.\d+)?)(?![\d.eE])"
)
_MAX_BLANKS = 2
"""Blank lines allowed between ``Total Time(us)`` and ``FPS`` (pasting damage)."""
_FPS = LazyPattern(r"(?<![A-Za-z])FPS:\s*(?P<fps>\d+(?:\.\d+)?)")


class _Totals(Block):
    def __init__(self, line: Line, total_us: float, fps: float | None) -> None:
        self.line = line.number
        self.stream = line.stream
        self.total_us = total_us
        self.fps = fps
        self.blanks = 0

    def feed(self, line: Line) -> bool:
        if self.fps is not None:
            return False
        text = line.text.strip()
        if not text and self.blanks < _MAX_BLANKS:
            self.blanks += 1  # PDF / chat pastes put a blank line after every line
            return True
        match = _FPS.match(text)
        if match:
            self.fps = to_float(match.group("fps"))
            return True
        return False

    def close(self) -> list[Event]:
        return [TotalsEvent(FAMILY, self.line, self.total_us, self.fps, stream=self.stream)]


class TotalsParser(BlockParser):
    family = FAMILY
    detection = (
        "a `Total Time(us): N` (1.7: `Average inference Time(us): N`) line, optionally with "
        "`FPS: x` on it or on the next line"
    )
    fields = "reported total time (us) and FPS; no layers"

    def opens(self, line: Line) -> Block | None:
        if "Total Time(us):" not in line.text and "Average inference Time(us):" not in line.text:
            return None
        total = _TOTAL.search(line.text)
        if total is None:
            return None
        fps = _FPS.search(line.text, total.end())
        fps_value = to_float(fps.group("fps")) if fps else None
        return _Totals(line, to_number(total.group("total")), fps_value)
