"""What a line among a table's rows is, besides a row: a row short of some columns, a damaged
row (kept as a skipped row, so the table reads on), or a foreign line (it ends the table); and
where a row starts in its line (:func:`body_of`), and the plan a repeated row of a line shape
takes (:func:`repeated_row_plan`)."""

from __future__ import annotations

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import SkippedRow
from rknnprof.parsers.fastpath.repeat import TOO_MANY_DIGITS, Carried, LinePlan, plan_of, shape_key
from rknnprof.parsers.run_lines import read_run_line
from rknnprof.parsers.table.columns import (
    MAX_PREFIX,
    TITLE,
    TOTAL_RW_KB_RE,
    TOTAL_RW_MB_RE,
    TOTAL_TIME_RE,
    Column,
    parse_header,
    parse_tokens,
)
from rknnprof.parsers.table.tokens import (
    CYCLES_RE,
    ELISION_RE,
    ROW_SEARCH_RE,
    ROW_START_RE,
    SHAPES_RE,
    is_rule,
    is_target,
)

MAX_ROWS_PER_TABLE = 20_000
"""Rows read per table: real models have hundreds to a few thousand layers; an endless stream
of rows after one header stops growing memory here (a warning says so)."""
MAX_SKIPPED_PER_TABLE = 1_000
"""Unreadable rows kept per table (the assembly keeps 50 per profile in ``skipped_rows``)."""


class TableLimits:
    """The row limits every table reader keeps: past :data:`MAX_ROWS_PER_TABLE` rows the rest
    are not read, past :data:`MAX_SKIPPED_PER_TABLE` unreadable rows the rest are not kept;
    one note each."""

    __slots__ = ("rows_hit", "skips_hit")

    def __init__(self) -> None:
        self.rows_hit = self.skips_hit = False

    def full(self, rows: int, line: int, notes: list[tuple[int, str]]) -> bool:
        """Whether a table of ``rows`` rows takes no more (the row at ``line`` is not read)."""
        if rows < MAX_ROWS_PER_TABLE:
            return False
        if not self.rows_hit:
            self.rows_hit = True
            notes.append(
                (line, f"more than {MAX_ROWS_PER_TABLE:,} rows in one table: the rest are not read")
            )
        return True

    def skip(
        self, skipped: list[SkippedRow], row: SkippedRow, notes: list[tuple[int, str]]
    ) -> None:
        """Keep the unreadable ``row`` unless the table holds enough of them."""
        if len(skipped) < MAX_SKIPPED_PER_TABLE:
            skipped.append(row)
        elif not self.skips_hit:
            self.skips_hit = True
            notes.append(
                (
                    row.line,
                    f"more than {MAX_SKIPPED_PER_TABLE:,} unreadable rows in one "
                    "table: the rest are not kept",
                )
            )


MAY_BE_EMPTY = frozenset({"mac", "full_name", "elided"})
"""Columns real logs leave empty (MacUsage of non-MAC ops from 2.0.0 on, FullName in 26): a row
without them is complete. Any other column missing from a row is warned about."""


def missing_columns(values: dict[str, str], columns: tuple[Column, ...]) -> list[str]:
    """Headers of the columns a parsed row has no value for, except those real logs leave
    empty (:data:`MAY_BE_EMPTY`)."""
    return [c.header for c in columns if c.key not in MAY_BE_EMPTY and not _has(values, c)]


_SOURCE_LINE = LazyPattern(r"\d+\t")
"""gdb's source line at a stop (``100\t  return 0;``): a row's ID is followed by blanks."""


def damage_reason(body: str, columns: tuple[Column, ...]) -> str | None:
    """Why ``body`` (neither a row nor a continuation) is a damaged row, or None when it is a
    foreign line: it starts with a number, or it holds a Target cell, a cycles cell or a shape
    list where a row would."""
    if body[:1].isdigit():
        if _SOURCE_LINE.match(body) or read_run_line(body) is not None:
            return None  # how the run was taken: a debugger's stop (``0x7fb7e4c9a8 in ioctl
            # () from …``, its source line ``100\t  …``), a trace line
        return "starts with a number but is not a row (no OpType DataType Target after it)"
    if _row_like(body.split()):
        parse = parse_tokens(body.split(), columns)
        return parse.error or "not a row: no <ID> <OpType> <DataType> <Target> at its start"
    return None


def _row_like(tokens: list[str]) -> bool:
    """A line inside the rows that is damaged rather than foreign: a Target cell near the start,
    a DDR/NPU/Total cycles cell, or a shape list among several cells."""
    if any(is_target(tok) for tok in tokens[:6]) or any(CYCLES_RE.match(tok) for tok in tokens):
        return True
    return len(tokens) >= 5 and any(
        tok.startswith("(") and tok != "()" and SHAPES_RE.match(tok) for tok in tokens
    )  # ("()" alone is a call's, as a debugger's stop prints ``in ioctl () from``)


def _has(values: dict[str, str], column: Column) -> bool:
    """Whether a parsed row holds a value for ``column``."""
    if column.key == "workload_up":
        return "workload" in values
    if column.key == "extra":
        return f"extra:{column.header}" in values
    return column.key in values


def body_of(text: str, prefix_len: int) -> tuple[str, bool]:
    """(the row text with the pasted prefix removed, whether it starts like a row)."""
    if prefix_len and len(text) > prefix_len:
        body = text[prefix_len:].lstrip()
        if ROW_START_RE.match(body):
            return body, True
    stripped = text.lstrip()
    if ROW_START_RE.match(stripped):
        return stripped, True
    m = ROW_SEARCH_RE.search(text)
    if m and m.start(1) <= MAX_PREFIX:
        return text[m.start(1) :], True  # ROW_SEARCH_RE asks more than ROW_START_RE
    return stripped, False


def is_total_line(text: str) -> bool:
    """A table's total line (elapsed time, memory read/write in KB or MB)."""
    return "Total " in text and bool(
        TOTAL_TIME_RE.search(text) or TOTAL_RW_KB_RE.search(text) or TOTAL_RW_MB_RE.search(text)
    )


def repeated_row_plan(text: str, carried: Carried) -> LinePlan | None:
    """The plan a table block reading ``carried``'s table again would place in the line
    ``text`` among its rows (:meth:`TableBlock.feed` with every row so far repeated, nothing
    pending), before its op type and full name are compared with the template row's; None
    when the block would not read the line as a repeated row. Pure: the bulk reader
    (``parsers/fastpath/skipper.py``) asks it once per line shape the exact path has not met."""
    s = text.strip()
    if not s or s[-1] in "-=" and is_rule(s):
        return None
    if is_total_line(text):
        return None
    if TITLE in s or "OpType" in text and parse_header(text) is not None:
        return None
    if s.startswith((".", "…")) and ELISION_RE.match(s):
        return None
    body, is_row = body_of(text, carried.prefix_len)
    if not is_row:
        return None
    key = shape_key(body)
    if len(key) != len(body) or TOO_MANY_DIGITS in key:
        return None
    plan = plan_of(carried, key, body, MAY_BE_EMPTY)
    return None if plan is None else LinePlan.place(plan, len(text) - len(body))
