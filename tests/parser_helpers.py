"""Helpers for the family-parser tests: build Lines, and drive BlockParsers the way
``parsers.scan`` does (offer each line to the open block, else ask the parsers in order)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from rknnprof.inputs.lines import Line, read_lines
from rknnprof.parsers.base import Block, BlockParser

_RUNTIME_PREFIX = re.compile(r"^[VDIWEF] RKNN: \[\d\d:\d\d:\d\d\.\d+\] ")


def lines_of(text: str, start: int = 1) -> list[Line]:
    """Lines from a text block, numbered from ``start``."""
    return [Line(number, body) for number, body in enumerate(text.split("\n"), start=start)]


def corpus_lines(path: Path) -> list[Line]:
    """A corpus file through ``lines.read_lines``. The ``X RKNN: [hh:mm:ss.mmm] `` prefix is
    stripped here too, in case the ``lines`` stage on this branch does not do it yet (a no-op
    once it does)."""
    with path.open("rb") as handle:
        lines = list(read_lines(handle))
    return [line._replace(text=_RUNTIME_PREFIX.sub("", line.text, count=1)) for line in lines]


def run(parsers: BlockParser | Sequence[BlockParser], lines: Iterable[Line]) -> list:
    """Events from ``lines`` through ``parsers`` (one stream), mimicking ``parsers.scan``."""
    if isinstance(parsers, BlockParser):
        parsers = [parsers]
    events: list = []
    block: Block | None = None
    for line in lines:
        if block is not None:
            if block.feed(line):
                continue
            events.extend(block.close())
            block = None
        for parser in parsers:
            block = parser.opens(line)
            if block is not None:
                break
    if block is not None:
        events.extend(block.close())
    return events


def of_type(events: list, kind: type) -> list:
    return [event for event in events if isinstance(event, kind)]
