"""The application's own timing of an inference, printed by the user's program beside the
runtime's table (corpus 43)::

    Total inference time (in milliseconds, 4 decimal places): 151.6830 ms

-> ``AppTimeEvent(time_us=151683.0)``. Any ``… inference time …: N ms`` (or ``us``) line is
read; the value is what the application measured around ``rknn_run`` and its I/O calls, so
it can hold time the per-layer table does not (input copies, cache syncs).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import AppTimeEvent
from rknnprof.parsers.table.tokens import to_float

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "app-time"

_TIME = re.compile(r"\binference time\b[^:=]{0,60}[:=]\s*(?P<value>\d+(?:\.\d+)?)\s*"
                   r"(?P<unit>ms|us|µs)\b", re.IGNORECASE)
_SCALE = {"ms": 1000.0, "us": 1.0, "µs": 1.0}


class _AppTime(Block):
    def __init__(self, event: AppTimeEvent) -> None:
        self.event = event

    def feed(self, line: Line) -> bool:
        return False

    def close(self) -> list[Event]:
        return [self.event]


class AppTimeParser(BlockParser):
    family = FAMILY
    detection = "an application's `Total inference time (…): 151.6830 ms` line"
    fields = "the application's time for one inference (us), beside the table"

    def opens(self, line: Line) -> Block | None:
        if "nference time" not in line.text or (match := _TIME.search(line.text)) is None:
            return None
        time_us = to_float(match.group("value")) * _SCALE[match.group("unit").lower()]
        return _AppTime(AppTimeEvent(line.number, time_us, stream=line.stream))
