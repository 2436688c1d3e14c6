"""The RKNPU driver's load line (``cat /sys/kernel/debug/rknpu/load``, often logged in a loop)::

    NPU load:  Core0: 52%, Core1:  0%, Core2:  0%,
    NPU load:  20%                                   <- single-core SoCs (RK3566/RK3568/RK3562)

-> ``NpuLoadEvent(load_pct=(52.0, 0.0, 0.0))``, percent per core in core order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import NpuLoadEvent
from rknnprof.parsers.table.tokens import to_float, to_int

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "npu-load"

_LOAD = LazyPattern(r"NPU load:\s*(?P<body>.*)$")
_CORE = LazyPattern(r"Core(?P<core>\d+):\s*(?P<pct>\d+(?:\.\d+)?)\s*%")
_SINGLE = LazyPattern(r"^(?P<pct>\d+(?:\.\d+)?)\s*%")


class _NpuLoad(Block):
    def __init__(self, event: NpuLoadEvent) -> None:
        self.event = event

    def feed(self, line: Line) -> bool:
        return False

    def close(self) -> list[Event]:
        return [self.event]


class NpuLoadParser(BlockParser):
    family = FAMILY
    detection = "the driver's `NPU load:  Core0: 52%, Core1:  0%, …` (or `NPU load:  20%`) line"
    fields = "NPU load per core, percent"

    def opens(self, line: Line) -> Block | None:
        if "NPU load:" not in line.text or (match := _LOAD.search(line.text)) is None:
            return None
        body = match.group("body")
        cores = sorted(
            (to_int(c.group("core")), to_float(c.group("pct"))) for c in _CORE.finditer(body)
        )
        if cores:
            load = tuple(pct for _, pct in cores)
        elif (single := _SINGLE.match(body.strip())) is not None:
            load = (to_float(single.group("pct")),)
        else:
            return None
        return _NpuLoad(NpuLoadEvent(line.number, load, stream=line.stream))
