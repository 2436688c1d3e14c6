"""rknn-toolkit 1.x ``eval_perf(perf_debug=True)`` table (RK1808 / RV1109 / RV1126 / RK3399Pro).

::

    Layer ID    Name                                         Operator            Uid       Time(us)
    0           MobilenetV1/MobilenetV1/Conv2d_0/Relu6_1     TENSOR_TRANS        60        361
                _RKNN_mark_perm_60_0
    2           MobilenetV1/MobilenetV1/Conv2d_0/Relu6_1     CONVOLUTION         1         920

* The block opens on the header line (``Layer ID`` … ``Operator`` … ``Time(us)``); the ``=====``
  ``Performance`` banner before it is left to nobody (it carries nothing).
* Names are wrapped at 40 characters: the rest goes on continuation lines indented (12 blanks in
  the original) with no other field; they are joined with no separator into ``full_name``.
* IDs are 0-based and may skip; operators are kernel names (``CONVOLUTION``). No cycles, no
  target column (``Target.UNKNOWN``), no bandwidth. ``Uid`` goes to ``Layer.extra``.
* ``Total Time(us): N`` / ``FPS: x`` after the rows (perf_debug=False style) are taken as the
  table's reported total; a ``====`` rule ends the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import SkippedRow
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import TableEvent
from rknnprof.parsers.table.layer import build_layer, skipped
from rknnprof.parsers.table.rows import TableLimits
from rknnprof.parsers.table.tokens import NumberOutOfRange, is_elision, to_number

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "toolkit1-perf-table"

_HEADER = LazyPattern(r"^\s*Layer ID\s+Name\s+Operator\s+Uid\s+Time\(us\)\s*$")
_ROW = LazyPattern(
    r"^(?P<id>\d+)\s+(?P<name>\S+)\s+(?P<op>[A-Z][A-Z0-9_]*)\s+(?P<uid>-?\d+)"
    r"\s+(?P<time>\d+(?:\.\d+)?)$"
)
_TOTAL = LazyPattern(r"Total Time\(us\):\s*(?P<total>\d+(?:\.\d+)?)")
_FPS = LazyPattern(r"FPS:\s*(?P<fps>\d+(?:\.\d+)?)")
_RULE = LazyPattern(r"^\s*={10,}\s*$")
_WRAP = 40
"""rknn-toolkit 1.x wraps the Name column at this many characters."""


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


MAX_NAME_CHARS = 4096
"""Longest name a wrapped name is joined up to (the continuation lines past it are taken, not
joined)."""


class _Toolkit1Table(Block):
    def __init__(self, header: Line) -> None:
        self.first_line = header.number
        self.last_line = header.number
        self.stream = header.stream
        self.header_indent = _indent(header.text)
        self.rows: list[dict[str, Any]] = []
        self.skipped: list[SkippedRow] = []
        self.notes: list[tuple[int, str]] = []
        self.limits = TableLimits()
        self.total_us: float | None = None
        self.closed = False

    def feed(self, line: Line) -> bool:
        if self.closed:
            return False
        text = line.text.rstrip().removesuffix("`")  # the closing back-tick of a wrapped paste
        stripped = text.strip()
        if not stripped:
            return True  # blank lines (PDF/markdown damage) do not end the table
        if _RULE.match(text):
            # The closing ``====`` rule belongs to the table: take it, then stop.
            self.closed = True
            self.last_line = line.number
            return True
        total = _TOTAL.search(stripped)
        if total:
            self.total_us = to_number(total.group("total"))
            self.last_line = line.number
            return True
        if stripped.startswith("FPS:") and _FPS.match(stripped):
            self.last_line = line.number
            return True
        row = _ROW.match(stripped)
        if row:
            if not self.limits.full(len(self.rows), line.number, self.notes):
                self.rows.append({**row.groupdict(), "line": line.number})
            self.last_line = line.number
            return True
        if is_elision(stripped):
            self.notes.append((line.number, "rows elided in the log (`...`)"))
            self.last_line = line.number
            return True
        if self._is_continuation(text, stripped):
            if not self.limits.rows_hit and len(self.rows[-1]["name"]) < MAX_NAME_CHARS:
                self.rows[-1]["name"] += stripped
            self.last_line = line.number
            return True
        if stripped[0].isdigit() and self.rows and _indent(text) <= self.header_indent + 2:
            self.limits.skip(
                self.skipped,
                SkippedRow(line.number, stripped[:200], "incomplete toolkit1 row"),
                self.notes,
            )
            self.last_line = line.number
            return True
        return False

    def _is_continuation(self, text: str, stripped: str) -> bool:
        """A wrapped name: one token right after a row, indented deeper than the header, or
        (when a paste lost the indentation) following a name that filled its 40 characters."""
        if not self.rows or " " in stripped:
            return False
        deeper = _indent(text) >= self.header_indent + 8
        name_full = len(self.rows[-1]["name"]) % _WRAP == 0
        return deeper or name_full

    def close(self) -> list[Event]:
        layers = []
        for row in self.rows:
            values = {
                "id": row["id"],
                "op_type": row["op"],
                "time": row["time"],
                "full_name": row["name"],
                "extra:Uid": row["uid"],
            }
            try:
                layers.append(build_layer(values, row["line"]))
            except NumberOutOfRange as e:  # damage, not data: skipped with its reason
                self.skipped.append(skipped(row["line"], " ".join(values.values()), str(e)))
        return [
            TableEvent(
                family=FAMILY,
                line=self.first_line,
                last_line=self.last_line,
                layers=tuple(layers),
                reported_total_time_us=self.total_us,
                skipped=tuple(self.skipped),
                notes=tuple(self.notes),
                stream=self.stream,
            )
        ]


class Toolkit1TableParser(BlockParser):
    family = FAMILY
    detection = (
        "header `Layer ID  Name  Operator  Uid  Time(us)` (rknn-toolkit 1.x, perf_debug=True)"
    )
    fields = "id, kernel op type, wrapped name joined, time_us; Uid in extra; no target or cycles"

    def opens(self, line: Line) -> Block | None:
        if "Layer ID" in line.text and _HEADER.match(line.text):
            return _Toolkit1Table(line)
        return None
