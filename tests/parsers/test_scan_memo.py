"""scan() remembers lines that opened no block; the level and tag are part of what it remembers
(an ``E`` line with the same text opens an error report)."""

from __future__ import annotations

from rknnprof.inputs.lines import Line
from rknnprof.parsers import scan
from rknnprof.parsers.events import NoteEvent


def test_a_repeated_line_is_judged_with_its_level() -> None:
    text = "Start proc 4321:com.example/u0a123 for service"
    lines = [
        Line(1, text, (1, 1), "I", "RKNN"),
        Line(2, text, (1, 1), "I", "RKNN"),
        Line(3, text, (1, 1), "E", "RKNN"),
        Line(4, text, (1, 1), "I", "RKNN"),
    ]
    events = list(scan(lines))
    assert [(type(e), e.line) for e in events] == [(NoteEvent, 3)]
