"""The application's own timing of an inference, printed by the user's program beside the
runtime's table::

    Total inference time (in milliseconds, 4 decimal places): 151.6830 ms   (corpus 43)
    infer time: 23.4 ms                       (a user's script)
    Inference time: 0.0234 s                  (toolkit-lite2 scripts around inference())
    loop count = 10 , average run  41.760800 ms   (rknpu2 demos: the average of the timed loop)

-> ``AppTimeEvent(time_us=…)``, the whole inference; and the time of single calls, as the
rknpu2 demos' ``EVAL_TIME`` lines, rknn_model_zoo's timer (``-- rknn_run use: 12.3 ms``) and
rknn_model_zoo's per-call summary (the average, not the max or tp99) print it::

    rknn_inputs_set use 1.204000 ms
    rknn_run use 20.513000 ms
    rknn_outputs_get use 2.870000 ms          (also ``rknn_run time: …``, ``rknn_run cost=…``)
    rknn_inputs_set ave time: 1.802ms, max_time: 2.310ms, tp99: 2.250ms

-> ``AppTimeEvent(call="rknn_run", time_us=20513.0)``. Units ``ms``, ``us``/``µs`` and ``s``.
An average is marked ``run="average"`` and wins over single runs in assembly. The demos' first
run (``once run use 49.000000 ms``, printed before their timed loop: rknpu2
``examples/rknn_yolov5_demo``) is cold, warm-up included, and is marked ``run="first"``: read,
never what the waterfall rests on.
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

_NUMBER = r"(?P<value>\d++(?:\.\d++)?)\s*+(?P<unit>ms|us|µs|s)\b"
_TOTAL = LazyPattern(r"\binfer(?:ence)? time\b[^:=]{0,60}[:=]\s*" + _NUMBER, re.IGNORECASE)
_ONCE = LazyPattern(r"\bonce run use\s*" + _NUMBER, re.IGNORECASE)
_AVERAGE_RUN = LazyPattern(r"\baverage run\s*+[:=]?\s*+" + _NUMBER, re.IGNORECASE)
_CALL = LazyPattern(
    r"\b(?P<call>rknn_inputs_set|rknn_run|rknn_outputs_get)\b\s*+"
    r"(?P<average>ave(?:rage)?\s++)?(?:use[ds]?|time|cost|took|elapsed?)\s*+[:=]?\s*+" + _NUMBER,
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
        "`average run N ms`, `once run use N ms` (the cold first run: not used), "
        "`rknn_run use N ms` or `rknn_run ave time: Nms` line"
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
                    run="average" if match.group("average") else "single",
                )
            )
        if "nfer" in text and (match := _TOTAL.search(text)) is not None:
            return _AppTime(AppTimeEvent(line.number, _time_us(match), stream=line.stream))
        if "average run" in text and (match := _AVERAGE_RUN.search(text)) is not None:
            return _AppTime(
                AppTimeEvent(line.number, _time_us(match), stream=line.stream, run="average")
            )
        if "once run" in text and (match := _ONCE.search(text)) is not None:
            return _AppTime(
                AppTimeEvent(line.number, _time_us(match), stream=line.stream, run="first")
            )
        return None
