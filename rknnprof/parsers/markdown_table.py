"""Per-layer tables pasted as GitHub (Markdown) pipe tables, into docs and issues:
``| 1 | InputOperator | UINT8 | CPU | 17 |``.

The header is a pipe row holding ``ID`` and ``OpType``, either one name a cell or squeezed into
one cell (``| ID OpType DataType Target Time(us) |  |  |``); its names are read with the printed
tables' header rule (:func:`~rknnprof.parsers.table.columns.parse_header`). Rows are read cell
by cell with the same token rules as a printed row. What a paste does to a table:

* ``|---|---|`` separators and blank lines between rows are skipped;
* cells merged by a PDF conversion: ``| 3 4 | Conv | …`` holds row 3, and the next row whose
  first cell is empty is row 4 (the IDs are given out in order);
* a row with ``...`` cells (elided columns) cannot be read exactly: it is skipped with a
  warning naming its line, as is any other row whose cells do not fit the header;
* a ``| ... |`` row marks elided rows (the table is incomplete); so does an empty row
  (``|  |  |``, a PDF conversion's ``...``) between rows whose IDs are not consecutive, while
  one between consecutive rows is nothing.

Every row read is read exactly; the rest are :class:`~rknnprof.model.SkippedRow` records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rknnprof.model import Layer, SkippedRow
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import TableEvent
from rknnprof.parsers.table.columns import (
    TOTAL_TIME_RE,
    Column,
    parse_header,
    parse_tokens,
    total_figure,
)
from rknnprof.parsers.table.layer import build_layer, skipped
from rknnprof.parsers.table.rows import TableLimits
from rknnprof.parsers.table.tokens import is_int

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "markdown-pipe-table"
_REQUIRED = frozenset({"id", "op_type", "target"})
"""Cells a row must give to be a layer. Time(us) is not among them: an extraction that lost
the column still says which op ran where (its rows are read without times, and said so)."""


def cells_of(text: str) -> list[str] | None:
    """The cells of a pipe row (``| a | b |``, or one cell: ``| ... |``, ``|``), stripped; None
    when ``text`` is not one."""
    s = text.strip()
    if s == "|":  # (an empty row a conversion left one pipe of)
        return [""]
    if len(s) < 2 or s[0] != "|" or s[-1] != "|":
        return None
    return [cell.strip() for cell in s[1:-1].split("|")]


def _is_separator(cells: list[str]) -> bool:
    return all(c and set(c) <= set("-: ") for c in cells)


def _header(cells: list[str]) -> tuple[Column, ...] | None:
    if not any("OpType" in c for c in cells):
        return None
    parsed = parse_header(" ".join(c for c in cells if c))
    if parsed is None or not _REQUIRED <= {c.key for c in parsed[1]}:
        return None
    return parsed[1]


class _MarkdownTable(Block):
    def __init__(self, line: Line, columns: tuple[Column, ...]) -> None:
        self.stream = line.stream
        self.first_line = self.last_line = line.number
        self.columns = columns
        self.layers: list[Layer] = []
        self.skipped: list[SkippedRow] = []
        self.notes: list[tuple[int, str]] = []
        self.limits = TableLimits()
        self.pending_ids: list[str] = []
        """IDs of a merged cell (``| 3 4 |``) still to give to the rows after it."""
        self.pending_line = 0
        self.elided = 0
        self.empty_line: int | None = None
        """An empty row after the last layer: rows elided if the next row's ID jumps."""
        self.total: float | None = None
        self.total_line: int | None = None

    def feed(self, line: Line) -> bool:
        text = line.text
        if not text.strip():
            return True
        if "Total " in text and (m := TOTAL_TIME_RE.search(text)):
            self.total, self.total_line = total_figure(m.group(1)), line.number
            self.last_line = line.number
            return True
        cells = cells_of(text)
        if cells is None:
            return False
        self.last_line = line.number
        if not _is_separator(cells) and not self.limits.full(
            len(self.layers), line.number, self.notes
        ):
            self._row(line.number, text, cells)
        return True

    def _row(self, number: int, text: str, cells: list[str]) -> None:
        present = [c for c in cells if c]
        if not present:
            if self.layers:
                self.empty_line = number
            return
        if all(c in ("...", "…", "....", "......") for c in present):
            self._elided(number, "elided rows (`| ... |`): the table is incomplete")
            return
        first = cells[0]
        if not first and self.pending_ids:
            cells = [self.pending_ids.pop(0), *cells[1:]]
            self.notes.append(
                (
                    number,
                    f"row {cells[0]}: its ID was merged into the cell of "
                    f"line {self.pending_line} (PDF conversion)",
                )
            )
        elif len(first.split()) > 1 and all(is_int(t) for t in first.split()):
            ids = first.split()
            cells = [ids[0], *cells[1:]]
            self.pending_ids, self.pending_line = ids[1:], number
        if any(c in ("...", "…") for c in cells):
            self.limits.skip(
                self.skipped,
                skipped(number, text, "elided cells (`...`): the row cannot be read exactly"),
                self.notes,
            )
            return
        parse = parse_tokens([t for c in cells if c for t in c.split()], self.columns)
        lost = [c.header for c in parse.missing if c.key in _REQUIRED]
        if parse.error or lost:
            reason = parse.error or f"no {', '.join(lost)}"
            self.limits.skip(
                self.skipped,
                skipped(number, text, f"cells do not fit the header: {reason}"),
                self.notes,
            )
            return
        layer = build_layer(parse.values, number)
        if self.empty_line is not None and self.layers and layer.id > self.layers[-1].id + 1:
            missing = f"{self.layers[-1].id + 1}-{layer.id - 1}"
            self._elided(
                self.empty_line,
                f"elided rows (an empty row where rows {missing} would be): the table is "
                "incomplete",
            )
        self.empty_line = None
        self.layers.append(layer)

    def _elided(self, number: int, note: str) -> None:
        self.elided += 1
        if self.elided == 1:
            self.notes.append((number, note))

    def close(self) -> list[Event]:
        if self.pending_ids:
            self.notes.append(
                (
                    self.pending_line,
                    (
                        f"merged ID cell names row(s) {', '.join(self.pending_ids)} that no row "
                        "with an "
                        "empty ID cell followed"
                    ),
                )
            )
        if not self.layers and not self.skipped:
            return []
        return [
            TableEvent(
                family=FAMILY,
                line=self.first_line,
                last_line=self.last_line,
                layers=tuple(self.layers),
                reported_total_time_us=self.total,
                skipped=tuple(self.skipped),
                notes=tuple(self.notes),
                stream=self.stream,
                total_line=self.total_line,
                elided_rows=self.elided,
            )
        ]


class MarkdownTableParser(BlockParser):
    family: ClassVar[str] = FAMILY
    detection: ClassVar[str] = (
        "a Markdown pipe-table header with ID, OpType and Target (Time(us) when kept), one name "
        "a cell or squeezed into one cell (`| ID OpType DataType Target Time(us) |  |`)"
    )
    fields: ClassVar[str] = (
        "the per-layer columns the header names, row by row; PDF-merged ID cells given out in "
        "order; rows with `...` cells skipped with a warning"
    )

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if "OpType" not in text or "|" not in text:
            return None
        cells = cells_of(text)
        columns = _header(cells) if cells is not None else None
        return _MarkdownTable(line, columns) if columns is not None else None
