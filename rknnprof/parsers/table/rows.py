"""What a line among a table's rows is, besides a row: a row short of some columns, a damaged
row (kept as a skipped row, so the table reads on), or a foreign line (it ends the table)."""

from __future__ import annotations

from rknnprof.parsers.table.columns import Column, parse_tokens
from rknnprof.parsers.table.tokens import CYCLES_RE, SHAPES_RE, is_target

MAY_BE_EMPTY = frozenset({"mac", "full_name", "elided"})
"""Columns real logs leave empty (MacUsage of non-MAC ops from 2.0.0 on, FullName in 26): a row
without them is complete. Any other column missing from a row is warned about."""


def missing_columns(values: dict[str, str], columns: tuple[Column, ...]) -> list[str]:
    """Headers of the columns a parsed row has no value for, except those real logs leave
    empty (:data:`MAY_BE_EMPTY`)."""
    return [c.header for c in columns if c.key not in MAY_BE_EMPTY and not _has(values, c)]


def damage_reason(body: str, columns: tuple[Column, ...]) -> str | None:
    """Why ``body`` (neither a row nor a continuation) is a damaged row, or None when it is a
    foreign line: it starts with a number, or it holds a Target cell, a cycles cell or a shape
    list where a row would."""
    if body[:1].isdigit():
        return "starts with a number but is not a row (no OpType DataType Target after it)"
    if _row_like(body.split()):
        parse = parse_tokens(body.split(), columns)
        return parse.error or "not a row: no <ID> <OpType> <DataType> <Target> at its start"
    return None


def _row_like(tokens: list[str]) -> bool:
    """A line inside the rows that is damaged rather than foreign: a Target cell near the start,
    a DDR/NPU/Total cycles cell, or a shape list among several cells."""
    if any(is_target(tok) for tok in tokens[:6]) or any(
            CYCLES_RE.match(tok) for tok in tokens):
        return True
    return len(tokens) >= 5 and any(
        tok.startswith("(") and SHAPES_RE.match(tok) for tok in tokens
    )


def _has(values: dict[str, str], column: Column) -> bool:
    """Whether a parsed row holds a value for ``column``."""
    if column.key == "workload_up":
        return "workload" in values
    if column.key == "extra":
        return f"extra:{column.header}" in values
    return column.key in values
