"""The :class:`Block` that reads one per-layer table (either toolkit2 layout) and its total lines.

States: ``pre`` (title, rules, banner; waiting for the header), ``rows``, ``after`` (total lines
and rules after the rows). A foreign line ends the block and is offered to the other parsers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.parsers import _table as t
from rknnprof.parsers.base import Block
from rknnprof.parsers.events import TableEvent

if TYPE_CHECKING:
    from rknnprof.lines import Line
    from rknnprof.model import Layer, SkippedRow

_BANNER_WORDS = ("Performance", "####")
TITLE_ONLY_NOTE = "perf table title without a header"
MAY_BE_EMPTY = frozenset({"mac", "full_name", "elided"})
"""Columns real logs leave empty (MacUsage of non-MAC ops from 2.0.0 on, FullName in 26): a row
without them is complete. Any other column missing from a row is warned about."""
MAX_SHORT_ROW_NOTES = 5
"""Short rows named one by one per table; later ones are counted in one more note."""


class TableBlock(Block):
    def __init__(
        self,
        line: Line,
        family: str,
        *,
        state: str = "pre",
        header: tuple[int, tuple[t.Column, ...]] | None = None,
        headerless_prefix: str | None = None,
    ) -> None:
        self.family = family
        self.stream = line.stream
        self.first_line = self.last_line = line.number
        self.state = state
        self.columns: tuple[t.Column, ...] | None = None
        self.prefix_len = 0
        self.layers: list[Layer] = []
        self.skipped: list[SkippedRow] = []
        self.notes: list[tuple[int, str]] = []
        self.pending: tuple[int, list[str], t.RowParse] | None = None
        self.total_time: float | None = None
        self.total_line: int | None = None
        self.rw_kb: float | None = None
        self.elided = 0
        self.short_rows = 0
        self.saw_header = False
        self.handed_over = False
        """True when the header turned out to be another family's (the estimate table)."""
        if header is not None:
            self._set_header(line, header)
        elif headerless_prefix is not None:
            self.columns = t.DEFAULT_2X_COLUMNS
            self.prefix_len = len(headerless_prefix)
            self.notes.append((line.number, (
                "rows without a table header: assumed the 2.x column layout (ID OpType DataType "
                "Target InputShape OutputShape Cycles(DDR/NPU/Total) Time(us) MacUsage(%) "
                "WorkLoad(0/1/2) RW(KB) FullName) from the row shape")))
            self._row(line, line.text[self.prefix_len:])
        elif state == "after":
            self._summary(line)

    # -- helpers ---------------------------------------------------------------------------
    def _set_header(self, line: Line, header: tuple[int, tuple[t.Column, ...]]) -> None:
        self.prefix_len, self.columns = header
        self.saw_header = True
        self.state = "rows"
        self.family = t.header_family(self.columns)
        if any(c.key == "elided" for c in self.columns):
            known = " ".join(c.header for c in self.columns if c.key != "elided")
            self.notes.append((line.number, f"header has elided columns (`...`); known columns: {known}"))

    def _body(self, text: str) -> str:
        """The row text with the pasted prefix removed."""
        if self.prefix_len and len(text) > self.prefix_len:
            body = text[self.prefix_len:]
            if t.ROW_START_RE.match(body.lstrip()):
                return body.lstrip()
        stripped = text.lstrip()
        if t.ROW_START_RE.match(stripped):
            return stripped
        m = t.ROW_SEARCH_RE.search(text)
        if m and m.start(1) <= t.MAX_PREFIX:
            return text[m.start(1):]
        return stripped

    def _summary(self, line: Line) -> bool:
        text = line.text
        if (m := t.TOTAL_TIME_RE.search(text)) is not None:
            self.total_time = t._number(m.group(1))
            self.total_line = line.number
        elif (m := t.TOTAL_RW_KB_RE.search(text)) is not None:
            self.rw_kb = t._number(m.group(1))
        elif (m := t.TOTAL_RW_MB_RE.search(text)) is not None:
            mb = float(m.group(1))
            self.rw_kb = mb * 1024 if mb else None  # 1.5 runtimes print 0 when they do not count
        else:
            return False
        return True

    def _flush(self) -> None:
        if self.pending is None:
            return
        number, tokens, parse = self.pending
        self.pending = None
        required = {"id", "op_type", "data_type", "target", "input", "output", "cycles", "ddr",
                    "npu", "total", "time"}
        lost = [c.header for c in parse.missing if c.key in required]
        if lost:
            self.skipped.append(t.skipped(number, " ".join(tokens),
                                          f"row cut short: no {', '.join(lost)}"))
            return
        self._append(number, parse.values)

    def _append(self, number: int, values: dict[str, str]) -> None:
        """Keep the row; note (with its line) a row with fewer fields than the header."""
        assert self.columns is not None
        absent = [c.header for c in self.columns
                  if c.key not in MAY_BE_EMPTY and not _has(values, c)]
        if absent:
            self.short_rows += 1
            if self.short_rows <= MAX_SHORT_ROW_NOTES:
                self.notes.append((number, (
                    f"row {values.get('id', '?')} has fewer fields than the header: no "
                    f"{', '.join(absent)} (kept with those values unknown)")))
        self.layers.append(t.build_layer(values, number))

    def _row(self, line: Line, body: str) -> None:
        assert self.columns is not None
        tokens = body.split()
        parse = t.parse_tokens(tokens, self.columns)
        if parse.error:
            self.skipped.append(t.skipped(line.number, body, parse.error))
        elif parse.missing:
            self.pending = (line.number, tokens, parse)
        else:
            self._append(line.number, parse.values)

    def _continuation(self, line: Line, body: str) -> bool:
        """Join ``body`` to the held-back row when that makes a better row."""
        if self.pending is None or self.columns is None:
            return False
        number, tokens, old = self.pending
        joined = tokens + body.split()
        parse = t.parse_tokens(joined, self.columns)
        if parse.error or len(parse.missing) >= len(old.missing):
            return False
        self.pending = (number, joined, parse)
        self.notes.append((line.number, f"row {old.values.get('id', '?')} continues on this line"))
        if not parse.missing:
            self._flush()
        return True

    # -- Block -------------------------------------------------------------------------------
    def feed(self, line: Line) -> bool:
        text = line.text
        s = text.strip()
        if self.state == "pre":
            if not s or t.is_rule(s) or t.TITLE in s or s.startswith(_BANNER_WORDS):
                self.last_line = line.number
                return True
            header = t.parse_header(text)
            if header is None:
                return False
            if not {c.key for c in header[1]} & {"time", "mac", "workload"}:
                # a Time-less header is the build-time estimate (parsers/build_table.py): hand
                # the header over, and the title and rules read so far go with it
                self.handed_over = True
                return False
            self._set_header(line, header)
            self.last_line = line.number
            return True
        if not s:
            self.last_line = line.number
            return True
        if t.is_rule(s):
            self._flush()
            if self.state == "rows" and (self.layers or self.skipped or self.elided):
                self.state = "after"
            self.last_line = line.number
            return True
        if self._summary(line):
            self._flush()
            self.state = "after"
            self.last_line = line.number
            return True
        if self.state == "after" or t.TITLE in s or t.parse_header(text) is not None:
            return False
        if t.ELISION_RE.match(s):
            self._flush()
            if not self.elided:
                self.notes.append((line.number, f"elided rows (`{s}`): the table is incomplete"))
            self.elided += 1
            self.last_line = line.number
            return True
        body = self._body(text)
        if t.ROW_START_RE.match(body):
            self._flush()
            self._row(line, body)
        elif self._continuation(line, body):
            pass
        elif body[:1].isdigit():
            self._flush()
            self.skipped.append(t.skipped(line.number, body, "starts with a number but is not a "
                                          "row (no OpType DataType Target after it)"))
        elif _row_like(body.split()):  # a damaged row: keep it visible, do not end the table
            self._flush()
            parse = t.parse_tokens(body.split(), self.columns or t.DEFAULT_2X_COLUMNS)
            self.skipped.append(t.skipped(line.number, body, parse.error or (
                "not a row: no <ID> <OpType> <DataType> <Target> at its start")))
        else:
            self._flush()
            return False
        self.last_line = line.number
        return True

    def close(self) -> list[TableEvent]:
        self._flush()
        if self.handed_over:
            return []
        if self.short_rows > MAX_SHORT_ROW_NOTES:
            self.notes.append((self.last_line, (
                f"{self.short_rows - MAX_SHORT_ROW_NOTES} more row(s) with fewer fields than the "
                "header")))
        if not self.saw_header and not self.layers and self.total_time is None and self.rw_kb is None:
            if self.state == "pre":  # a title that never got its header
                self.notes.append((self.first_line, TITLE_ONLY_NOTE))
            else:
                return []
        return [TableEvent(
            family=self.family,
            line=self.first_line,
            last_line=self.last_line,
            layers=tuple(self.layers),
            measured=True,
            reported_total_time_us=self.total_time,
            reported_rw_kb=self.rw_kb,
            skipped=tuple(self.skipped),
            notes=tuple(self.notes),
            stream=self.stream,
            total_line=self.total_line,
            elided_rows=self.elided,
        )]


def _row_like(tokens: list[str]) -> bool:
    """A line inside the rows that is damaged rather than foreign: a Target cell near the start,
    a DDR/NPU/Total cycles cell, or a shape list among several cells."""
    if any(t.TARGET_RE.match(tok) for tok in tokens[:6]) or any(
            t.CYCLES_RE.match(tok) for tok in tokens):
        return True
    return len(tokens) >= 5 and any(tok.startswith("(") and t.SHAPES_RE.match(tok) for tok in tokens)


def _has(values: dict[str, str], column: t.Column) -> bool:
    """Whether a parsed row holds a value for ``column``."""
    if column.key == "workload_up":
        return "workload" in values
    if column.key == "extra":
        return f"extra:{column.header}" in values
    return column.key in values
