"""toolkit2 1.5 layout: the ``Performance`` banner table with separate ``DDR Cycles`` /
``NPU Cycles`` / ``Total Cycles`` columns, ``WorkLoad(0/1/2)-ImproveTherical`` values such as
``100.0%/0.0%/0.0% - Up:0.0%``, and build-dependent tails (``Task Number``/``Lut Number`` or
``Task Number``/``Task Size``/``Regcmd Size``, kept in ``Layer.extra``). Rows broken across
lines are joined (see :mod:`rknnprof.parsers.table.columns`). Also the doc-edited variants that keep
only some of these columns (the 2.3.0 User Guide's RKNN_LOG_LEVEL=4 example).

Opens on the header line (the banner is shared with toolkit1, which has a different header) or
on a lone ``Total Operator Elapsed Time(us):`` line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.table.block import TableBlock
from rknnprof.parsers.table.columns import FAMILY_15, TOTAL_TIME_RE, header_family, parse_header

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line


class Toolkit2V15Parser(BlockParser):
    family: ClassVar[str] = FAMILY_15
    detection: ClassVar[str] = (
        "an 'ID OpType ...' header with 'DDR Cycles'/'NPU Cycles'/'Total Cycles' or "
        "'WorkLoad(0/1/2)-ImproveTherical' columns (toolkit2 1.5 'Performance' table)"
    )
    fields: ClassVar[str] = (
        "per-layer op type, target, shapes, cycles, time, MAC usage, workload and 'Up', task/LUT "
        "/regcmd columns, RW(KB), full name; 'Total Operator Elapsed Time(us)'"
    )

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if "OpType" in text:
            header = parse_header(text)
            if header is None or header_family(header[1]) != FAMILY_15:
                return None
            return TableBlock(line, self.family, header=header)
        if "Total Operator Elapsed Time(us)" in text and TOTAL_TIME_RE.search(text):
            return TableBlock(line, self.family, state="after")
        return None
