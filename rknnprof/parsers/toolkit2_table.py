"""toolkit2 1.6/2.x "Network Layer Information Table" (``rknn.eval_perf()``, the C API
``RKNN_QUERY_PERF_DETAIL``, ``RKNN_LOG_LEVEL=4``), its total lines, and pasted fragments of it.

Opens on the title line, on a header with ``Cycles(DDR/NPU/Total)``-style columns and a
``Time(us)``/``MacUsage``/``WorkLoad`` column (a header without them is the build-time estimate,
another family), on a lone ``Total Operator Elapsed Per Frame Time(us):`` line (a pasted tail),
and on a headerless row that has the unambiguous 2.x shape (``a/b/c`` cycles, shape lists) and
a measured tail (a headerless row with only ``RW(KB) FullName`` after its cycles is the build
table's, :func:`~rknnprof.parsers.table.columns.is_build_row`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.markdown_table import cells_of
from rknnprof.parsers.table.block import TableBlock
from rknnprof.parsers.table.columns import (
    DEFAULT_2X_COLUMNS,
    FAMILY_2X,
    MAX_PREFIX,
    TITLE,
    TOTAL_TIME_RE,
    header_family,
    is_build_row,
    parse_header,
    parse_tokens,
)
from rknnprof.parsers.table.tokens import CYCLES_RE, ROW_SEARCH_RE

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line

_MEASURED_KEYS = {"time", "mac", "workload"}


def _headerless_prefix(text: str) -> str | None:
    """The junk before a complete 2.x row (`` |  ``), or None when ``text`` is no such row."""
    m = ROW_SEARCH_RE.search(text)
    if m is None or m.start(1) > MAX_PREFIX:
        return None
    tokens = text[m.start(1) :].split()
    if not any(CYCLES_RE.match(tok) for tok in tokens[4:8]) or is_build_row(tokens):
        return None  # a build-estimate row (no Time/MacUsage/WorkLoad): parsers/build_table.py
    parse = parse_tokens(tokens, DEFAULT_2X_COLUMNS)
    if parse.error or any(c.key in ("time", "cycles") for c in parse.missing):
        return None
    return text[: m.start(1)]


class Toolkit2TableParser(BlockParser):
    family: ClassVar[str] = FAMILY_2X
    detection: ClassVar[str] = (
        "the 'Network Layer Information Table' title, or an 'ID OpType ... Time(us)' header with "
        "'Cycles(DDR/NPU/Total)'; headerless pasted rows with a/b/c cycles are read as this layout"
    )
    fields: ClassVar[str] = (
        "per-layer op type, target, shapes, DDR/NPU/Total cycles, time, MAC usage, workload, "
        "RW(KB), full name; 'Total Operator Elapsed Per Frame Time(us)' and memory totals"
    )

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if TITLE in text:
            if cells_of(text) is not None:  # a Markdown table's caption row: that table's own
                return None
            return TableBlock(line, self.family)
        if "OpType" in text:
            header = parse_header(text)
            if header is None:
                return None
            keys = {c.key for c in header[1]}
            if not keys & _MEASURED_KEYS or header_family(header[1]) != FAMILY_2X:
                return None
            return TableBlock(line, self.family, header=header)
        if "Total Operator Elapsed Per Frame" in text and TOTAL_TIME_RE.search(text):
            return TableBlock(line, self.family, state="after")
        if "/" in text and ("NPU" in text or "CPU" in text):
            prefix = _headerless_prefix(text)
            if prefix is not None:
                return TableBlock(line, self.family, state="rows", headerless_prefix=prefix)
        return None
