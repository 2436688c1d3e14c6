"""The application's own timing of an inference, printed by the user's program beside the
runtime's table::

    Total inference time (in milliseconds, 4 decimal places): 151.6830 ms   (corpus 43)
    infer time: 23.4 ms                       (a user's script)
    Inference time: 0.0234 s                  (toolkit-lite2 scripts around inference())
    once run use 24.512000 ms                 (rknpu2 / rknn_model_zoo demos: rknn_run + outputs)

-> ``AppTimeEvent(time_us=…)``, the whole inference; and the rknpu2 demos' ``EVAL_TIME`` lines
around single calls::

    rknn_inputs_set use 1.204000 ms
    rknn_run use 20.513000 ms
    rknn_outputs_get use 2.870000 ms          (also ``rknn_run time: …``, ``rknn_run cost=…``)

-> ``AppTimeEvent(call="rknn_run", time_us=20513.0)``. Units ``ms``, ``us``/``µs`` and ``s``.
The values are what the application measured around ``rknn_run`` and its I/O calls, so they hold
time the per-layer table does not (input copies, cache syncs); ``analysis.waterfall`` splits
them up.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import AppTimeEvent

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "app-time"

_NUMBER = r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>ms|us|µs|s)\b"
_TOTAL = LazyPattern(r"\binfer(?:ence)? time\b[^:=]{0,60}[:=]\s*" + _NUMBER, re.IGNORECASE)
_ONCE = LazyPattern(r"\bonce run use\s*" + _NUMBER, re.IGNORECASE)
_CALL = LazyPattern(
    r"\b(?P<call>rknn_inputs_set|rknn_run|rknn_outputs_get)\b\s*"
    r"(?:use[ds]?|time|cost|took|elapsed?)\s*[:=]?\s*" + _NUMBER,
    re.IGNORECASE,
)
_SCALE = {"ms": 1000.0, "us": 1.0, "µs": 1.0, "s": 1e6}


class _AppTime(Block):
    def __init__(self, event: AppTimeEvent) -> None:
        self.event = event

    def feed(self, line: Line) -> bool:
        return False

    def close(self) -> list[Event]:
        return [self.event]


def _time_us(match: re.Match[str]) -> float:
    return float(match.group("value")) * _SCALE[match.group("unit").lower()]


class AppTimeParser(BlockParser):
    family = FAMILY
    detection = (
        "an application's `Total inference time (…): 151.6830 ms`, `infer time: N ms`, "
        "`once run use N ms` or `rknn_run use N ms` line"
    )
    fields = (
        "the application's time for one inference and for its rknn_inputs_set / rknn_run "
        "/ rknn_outputs_get calls (us), beside the table"
    )

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if "rknn_" in text and (match := _CALL.search(text)) is not None:
            return _AppTime(
                AppTimeEvent(
                    line.number,
                    _time_us(match),
                    stream=line.stream,
                    call=match.group("call").lower(),
                )
            )
        if "nfer" in text and (match := _TOTAL.search(text)) is not None:
            return _AppTime(AppTimeEvent(line.number, _time_us(match), stream=line.stream))
        if "once run" in text and (match := _ONCE.search(text)) is not None:
            return _AppTime(AppTimeEvent(line.number, _time_us(match), stream=line.stream))
        return None
