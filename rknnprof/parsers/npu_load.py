"""The RKNPU driver's load line (``cat /sys/kernel/debug/rknpu/load``, often logged in a loop)::

    NPU load:  Core0: 52%, Core1:  0%, Core2:  0%,
    NPU load:  20%                                   <- single-core SoCs (RK3566/RK3568/RK3562)

-> ``NpuLoadEvent(load_pct=(52.0, 0.0, 0.0))``, percent per core in core order. A core above
100% (``Core2: 429496%``, a wrapped counter of the driver's) is no load: the event names it in
``impossible``, and the assembler keeps no such reading and warns.
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
MAX_PCT = 100.0
"""A core is busy at most all of the time."""


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
        found = [(c.group("core"), c.group("pct")) for c in _CORE.finditer(body)]
        cores = sorted((to_int(core), to_float(pct), f"Core{core}: {pct}%") for core, pct in found)
        if cores:
            load = tuple(pct for _, pct, _ in cores)
            impossible = tuple(said for _, pct, said in cores if pct > MAX_PCT)
        elif (single := _SINGLE.match(body.strip())) is not None:
            load = (to_float(single.group("pct")),)
            impossible = (f"{single.group('pct')}%",) if load[0] > MAX_PCT else ()
        else:
            return None
        return _NpuLoad(NpuLoadEvent(line.number, load, stream=line.stream, impossible=impossible))
