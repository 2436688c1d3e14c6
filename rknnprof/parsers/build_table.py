"""Build-time *estimated* layer tables (``rknn.build(verbose=True)`` / RKNN_LOG_LEVEL at build).

These are compiler estimates, not measurements: every TableEvent from here has
``measured=False`` and no ``time_us``, so they are never mixed with measured time.

Two layouts (samples 15 and 14), both usually behind ``D RKNN: [hh:mm:ss.mmm] `` (stripped by
``lines``):

* Header ``ID OpType DataType Target InputShape OutputShape Cycles(DDR/NPU/Total) RW(KB)
  FullName`` — like the measured 2.x table but with no ``Time(us)`` / MacUsage / WorkLoad; IDs
  start at 0. The block opens on this header (a header with ``Time(us)`` belongs to the measured
  table parser). A ``SparseRatio`` column in the header is read into ``Layer.sparse_ratio``.
* An older layout whose header was never captured: DDR, NPU and Max cycles as three integer
  columns, then a task column such as ``3/0``, then RW(KB) and FullName. It is recognised row by
  row from token shapes (three integers followed by ``n/m``), which no measured layout has.
* Rows of the first layout pasted without their header: ``a/b/c`` cycles followed by only one
  number and a name (:func:`~rknnprof.parsers.table.columns.is_build_row`), where a measured row
  has Time(us), MacUsage and WorkLoad. Read with that header's columns, noted as header-less; a
  line that does not fit them ends the table (a measured row goes to the measured parser).

Rows are tokenised on runs of two or more blanks and matched to the header's columns by token
shape, falling back to single-blank splitting for collapsed pastes and overflowing op types.
Cycles are counts; RW in KB.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Layer, SkippedRow
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import MissingHeader, TableEvent
from rknnprof.parsers.table import tokens as tok
from rknnprof.parsers.table.block import HEADERLESS_NOTE_START
from rknnprof.parsers.table.columns import is_build_row
from rknnprof.parsers.table.layer import build_layer
from rknnprof.parsers.table.rows import TableLimits

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "toolkit2-build-estimate"

_DASH_RULE = LazyPattern(r"^\s*-{20,}\s*$")
_TOTAL_LINE = LazyPattern(r"^\s*Total [^:]*:\s*(?P<value>\d+(?:\.\d+)?)")
_OLD_COLUMNS = (
    "ID",
    "OpType",
    "DataType",
    "Target",
    "InputShape",
    "OutputShape",
    "DDR Cycles",
    "NPU Cycles",
    "Max Cycles",
    "Tasks",
    "RW(KB)",
    "FullName",
)
"""Column names given to the headerless older layout (sample 14)."""

_HEADER_TAILS = frozenset({"Cycles", "Number", "Size", "Time(us)", "Ratio(%)", "Amount"})


def header_cells(text: str) -> list[str]:
    """Column names of a header line. Names are split on any blank run (the 2.x header has
    single blanks between ``DataType Target``), then two-word names are put back together
    (``DDR Cycles``, ``Task Number``, ``Regcmd Size``, ``CPU Time(us)``)."""
    cells: list[str] = []
    for word in text.split():
        if cells and word in _HEADER_TAILS:
            cells[-1] = f"{cells[-1]} {word}"
        else:
            cells.append(word)
    return cells


Predicate = Callable[[str], bool]


def _predicate(column: str) -> tuple[Predicate, bool]:
    """(token test, optional?) for a header cell."""
    key = column.lower().replace(" ", "")
    if key == "id":
        return tok.is_int, False
    if key == "optype":
        return tok.is_op_type, False
    if key == "datatype":
        return tok.is_data_type, False
    if key == "target":
        return tok.is_target, False
    if key in ("inputshape", "outputshape"):
        return tok.is_shape_list, False
    if key.startswith("cycles("):
        return tok.is_cycles_triplet, False
    if key.endswith("cycles"):
        return tok.is_int, False
    if key == "tasks":
        return tok.is_task_pair, False
    if key.startswith("rw("):
        return tok.is_number, False
    if key in tok.SPARSE_HEADERS:
        return tok.is_sparse_ratio, True
    if key == "fullname":
        return (lambda token: " " not in token), True
    return (lambda token: True), True


def _assign(columns: list[str], tokens: list[str]) -> dict[str, str] | None:
    """Match tokens to columns in order, skipping optional columns that do not fit."""
    cells: dict[str, str] = {}
    index = 0
    for column in columns:
        test, optional = _predicate(column)
        if index < len(tokens) and test(tokens[index]):
            cells[column] = tokens[index]
            index += 1
        elif not optional:
            return None
    return cells if index == len(tokens) else None


def match_row(columns: list[str], text: str) -> dict[str, str] | None:
    """A row's cells by column name, or None when the row does not fit the columns."""
    return _assign(columns, tok.split_cells(text)) or _assign(columns, text.split())


_NAMED = {
    "ID": "id",
    "OpType": "op_type",
    "DataType": "data_type",
    "Target": "target",
    "InputShape": "input",
    "OutputShape": "output",
    "FullName": "full_name",
    "DDR Cycles": "ddr",
    "NPU Cycles": "npu",
    "Max Cycles": "total",
}
"""Cells named as printed (or as given to the headerless layout) -> ``build_layer`` keys."""


def _layer(cells: dict[str, str], line: int) -> Layer:
    """The layer of a matched row: cells by column name -> ``build_layer`` keys. The first
    ``Cycles(...)``, ``RW(...)`` and SparseRatio columns are read; other ``... Cycles`` columns
    are dropped; any other column goes to ``Layer.extra``."""
    values: dict[str, str] = {}
    for name, value in cells.items():
        low = name.lower()
        key = _NAMED.get(name)
        if key is None:
            if low.startswith("cycles("):
                key = "cycles"
            elif low.startswith("rw("):
                key = "rw"
            elif low in tok.SPARSE_HEADERS:
                key = "sparse"
            elif low.endswith("cycles"):
                continue
            else:
                key = f"extra:{name}"
        values.setdefault(key, value)
    return build_layer(values, line, rw_float=True)


def _looks_like_cut_row(text: str) -> bool:
    tokens = text.split()
    return len(tokens) >= 2 and tok.is_int(tokens[0]) and tok.is_op_type(tokens[1])


class _BuildTable(Block):
    def __init__(self, line: Line, columns: list[str], *, headerless: bool = False) -> None:
        self.headerless = headerless
        """Opened on a row of :data:`HEADERLESS_COLUMNS`' shape: a line that is not such a row
        ends the table."""
        self.first_line = self.last_line = line.number
        self.stream = line.stream
        self.columns = columns
        self.layers: list[Layer] = []
        self.skipped: list[SkippedRow] = []
        self.notes: list[tuple[int, str]] = []
        self.rw_total: float | None = None
        self.limits = TableLimits()

    def feed(self, line: Line) -> bool:
        text = line.text.strip()
        if not text:
            return True
        if _DASH_RULE.match(text):
            self.last_line = line.number
            return True
        cells = match_row(self.columns, text)
        if cells is not None:
            if not self.limits.full(len(self.layers), line.number, self.notes):
                self.layers.append(_layer(cells, line.number))
        elif tok.is_elision(text):
            self.notes.append((line.number, "rows elided in the log (`...`)"))
        elif (total := _TOTAL_LINE.match(text)) and "Time" not in text:
            if "Read/Write" in text or "RW" in text:
                self.rw_total = tok.to_float(total.group("value"))
        elif self.headerless:
            return False
        elif _looks_like_cut_row(text):
            reason = "row does not fit the columns (cut?)"
            self.limits.skip(self.skipped, SkippedRow(line.number, text[:200], reason), self.notes)
        else:
            return False
        self.last_line = line.number
        return True

    def close(self) -> list[Event]:
        placement = self.columns == PLACEMENT_COLUMNS
        notes = [(self.first_line, PLACEMENT_NOTE if placement else ESTIMATE_NOTE)]
        if self.headerless:
            notes.append((self.first_line, HEADERLESS_NOTE))
        return [
            TableEvent(
                missing_header=MissingHeader.ASSUMED_LAYOUT if self.headerless else None,
                family=FAMILY,
                line=self.first_line,
                last_line=self.last_line,
                layers=tuple(self.layers),
                measured=False,
                reported_rw_kb=self.rw_total,
                skipped=tuple(self.skipped),
                notes=tuple(notes + self.notes),
                stream=self.stream,
            )
        ]


PLACEMENT_COLUMNS = ["ID", "OpType", "DataType", "Target", "InputShape", "OutputShape", "FullName"]
"""The short build header of 2.3.2 for CPU-only or FP16 models: no cycles, no time."""
PLACEMENT_NOTE = (
    "build-time placement table (no cycles, no time): which ops the compiler put "
    "on the CPU and which on the NPU, not a measurement"
)
ESTIMATE_NOTE = "build-time estimate (compiler cycles), not a measurement"
HEADERLESS_COLUMNS = header_cells(
    "ID OpType DataType Target InputShape OutputShape Cycles(DDR/NPU/Total) RW(KB) FullName"
)
"""The 2.x build header, given to its rows pasted without it."""
HEADERLESS_NOTE = (
    f"{HEADERLESS_NOTE_START}: only RW(KB) and FullName follow the cycles (no Time(us), "
    "MacUsage or WorkLoad), so they were read as the build-time estimate table "
    f"({' '.join(HEADERLESS_COLUMNS)}), not as measured times"
)


def is_estimate_header(text: str) -> bool:
    """``ID  OpType … Cycles… RW(KB) …`` without ``Time(us)``: the build-time estimate header;
    or the short placement header (:data:`PLACEMENT_COLUMNS`)."""
    words = text.split()
    if words[:2] != ["ID", "OpType"] or "Time(us)" in text:
        return False
    return "Cycles" in text or words == PLACEMENT_COLUMNS


class BuildTableParser(BlockParser):
    family = FAMILY
    detection = (
        "header `ID OpType … Cycles(DDR/NPU/Total) RW(KB) FullName` without Time(us), the short "
        "placement header `ID OpType DataType Target InputShape OutputShape FullName`, or rows "
        "with three cycle integers and a `3/0` task column, or header-less rows with `a/b/c` "
        "cycles followed only by RW(KB) and FullName"
    )
    fields = (
        "estimated cycles and RW per layer (or only the CPU/NPU placement), measured=false "
        "(never mixed with measured time)"
    )

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if "OpType" in text and is_estimate_header(text.strip()):
            return _BuildTable(line, header_cells(text))
        if "/" in text and text.lstrip()[:1].isdigit():
            columns = list(_OLD_COLUMNS)
            if match_row(columns, text.strip()) is not None:
                block = _BuildTable(line, columns)
                block.feed(line)
                return block
            if is_build_row(text.split()) and match_row(HEADERLESS_COLUMNS, text.strip()):
                block = _BuildTable(line, list(HEADERLESS_COLUMNS), headerless=True)
                block.feed(line)
                return block
        return None
