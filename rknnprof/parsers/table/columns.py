"""The layout of the printed toolkit2 tables (1.6/2.x and 1.5): title, header, total lines, and
how a row's tokens are assigned to the header's columns.

Columns come from the header line, values from the *shape* of each whitespace-separated token
(:mod:`.tokens`), never from character positions: an empty MacUsage or FullName is just a missing
token, an OpType or InputShape wider than its column only moves the tokens after it. A row is

    <ID> <OpType> <DataType> <Target> ...    (Target is NPU, CPU or GPU)

and everything before ``<ID>`` on the line is junk to strip: the same number of characters as
before the header's ``ID`` (``D RKNN: [..] ``, ``    `` markdown indentation), or, failing that,
whatever precedes the first match of the row pattern (`` |  `` pasted prefixes).

A row that ends before its last column is held back: the next non-blank line may be its
continuation (1.5 rows broken across lines begin with a bare number, which is not a row start
because a row start needs OpType/DataType/Target after the number).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model.record import MutableRecord, Record, record
from rknnprof.parsers.table.tokens import (
    CYCLES_RE,
    DTYPE_RE,
    INT_RE,
    MAC_RE,
    NUM_RE,
    NUMBER,
    SHAPES_RE,
    UP_RE,
    WORKLOAD_RE,
    is_target,
    to_number,
)

FAMILY_2X = "toolkit2-perf-table"
FAMILY_15 = "toolkit2-perf-table-v15"

_FIGURE = rf"(\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|{NUMBER})(?!,?\d)"
"""A total line's figure, whole: ``7692``, or with thousands separators as an edited log prints
it (``7,692``, ``123,456.78``); never the digits before a comma (``7,692`` was read as 7 us,
``7,69`` is no figure). :func:`total_figure` reads it."""
TOTAL_TIME_RE = LazyPattern(
    # (an exponent is read with its figure: ``1.18313e+06`` was read as 1.2 us, ``1e999999``
    # as 1 us; out of range, the line is not read and says so)
    rf"Total Operator Elapsed (?:Per Frame )?Time\(us\):\s*"
    rf"(\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|{NUMBER}(?:[eE][+-]?\d+)?)(?!,?\d)"
)
TOTAL_RW_KB_RE = LazyPattern(rf"Total Memory Read/Write Per Frame Size\(KB\):\s*{_FIGURE}")
TOTAL_RW_MB_RE = LazyPattern(rf"Total Memory RW Amount\(MB\):\s*{_FIGURE}")


def total_figure(text: str) -> float | int:
    """The number a total line's figure (group 1 of its pattern) says: ``7,692`` -> 7692."""
    return to_number(text.replace(",", ""))


TITLE = "Network Layer Information Table"
HEADER_RE = LazyPattern(r"(?:^|\s)ID\s+OpType\s")
MAX_PREFIX = 60
"""Longest junk accepted before a row's ID (characters)."""

# header word pairs that name one column
_PAIRS = {
    ("DDR", "Cycles"),
    ("NPU", "Cycles"),
    ("Total", "Cycles"),
    ("Task", "Number"),
    ("Lut", "Number"),
    ("Task", "Size"),
    ("Regcmd", "Size"),
}
OPTIONAL = {"mac", "workload", "workload_up", "rw", "full_name", "sparse", "extra"}
"""Columns that may be an empty cell (missing token) in a row."""
ROW_REQUIRED = frozenset(
    {
        "id",
        "op_type",
        "data_type",
        "target",
        "input",
        "output",
        "cycles",
        "ddr",
        "npu",
        "total",
        "time",
    }
)
"""Columns a row cut short must still have: without one, the row is skipped with the reason."""


@record
class Column(Record):
    """One column of a table's header."""

    key: str
    """Canonical name: id, op_type, data_type, target, input, output, cycles, ddr, npu, total,
    time, mac, workload, workload_up, rw, full_name, sparse, elided, extra."""
    header: str
    """The header text as printed."""


def _canonical(name: str) -> str:
    n = name.replace(" ", "").lower()
    table = {
        "id": "id",
        "optype": "op_type",
        "datatype": "data_type",
        "target": "target",
        "inputshape": "input",
        "outputshape": "output",
        "ddrcycles": "ddr",
        "npucycles": "npu",
        "totalcycles": "total",
        "time(us)": "time",
        "rw(kb)": "rw",
        "fullname": "full_name",
    }
    if n in table:
        return table[n]
    if n.startswith("cycles("):
        return "cycles"
    if n.startswith("macusage"):
        return "mac"
    if n.startswith("workload"):
        return "workload_up" if "improve" in n else "workload"
    if n.startswith("sparse"):
        return "sparse"
    if set(n) == {"."}:
        return "elided"
    return "extra"


def parse_header(text: str) -> tuple[int, tuple[Column, ...]] | None:
    """(offset of ``ID``, columns) when ``text`` is a per-layer table header, else None."""
    if "OpType" not in text:  # cheap test first: this runs on every row of a table
        return None
    return _parse_header(text)


@lru_cache(maxsize=256)
def _parse_header(text: str) -> tuple[int, tuple[Column, ...]] | None:
    """parse_header, cached: every frame of a long capture prints the same header."""
    m = HEADER_RE.search(text)
    if m is None:
        return None
    start = m.start() if text[m.start()] == "I" else m.start() + 1
    words = text[start:].split()
    names: list[str] = []
    i = 0
    while i < len(words):
        if i + 1 < len(words) and (words[i], words[i + 1]) in _PAIRS:
            names.append(f"{words[i]} {words[i + 1]}")
            i += 2
        else:
            names.append(words[i])
            i += 1
    return start, tuple(Column(_canonical(n), n) for n in names)


def header_family(columns: tuple[Column, ...]) -> str:
    keys = {c.key for c in columns}
    return FAMILY_15 if keys & {"ddr", "npu", "total", "workload_up"} else FAMILY_2X


DEFAULT_2X_COLUMNS = parse_header(
    "ID OpType DataType Target InputShape OutputShape Cycles(DDR/NPU/Total) Time(us) "
    "MacUsage(%) WorkLoad(0/1/2) RW(KB) FullName"
)[1]  # type: ignore[index]  # a header: parse_header gives no None


def is_build_row(tokens: list[str]) -> bool:
    """Whether a row's tokens (from its ID on) have the 2.x build-estimate shape: the ``a/b/c``
    cycles cell, then one number and a name (``RW(KB) FullName``). A measured row has Time(us)
    there, then a MacUsage (``\\``, ``4.35/4.35/4.35``) or WorkLoad (``100.0%/0.0%/0.0%``) cell:
    the token after the first number is never a name."""
    at = next((i for i in range(4, min(8, len(tokens))) if CYCLES_RE.match(tokens[i])), None)
    if at is None or len(tokens) < at + 3 or not NUM_RE.match(tokens[at + 1]):
        return False
    name = tokens[at + 2]
    return not (NUM_RE.match(name) or MAC_RE.match(name) or WORKLOAD_RE.match(name))


_MATCHERS: dict[str, tuple[Callable[[str], object], str]] = {
    "id": (INT_RE.match, "an integer ID"),
    "op_type": (lambda t: bool(t), "an op type"),
    "data_type": (DTYPE_RE.match, "a data type"),
    "target": (is_target, "NPU/CPU/GPU"),
    "input": (SHAPES_RE.match, "a shape list"),
    "output": (SHAPES_RE.match, "a shape list"),
    "cycles": (CYCLES_RE.match, "DDR/NPU/Total cycles"),
    "ddr": (INT_RE.match, "a cycle count"),
    "npu": (INT_RE.match, "a cycle count"),
    "total": (INT_RE.match, "a cycle count"),
    "time": (NUM_RE.match, "a time"),
    "mac": (MAC_RE.match, "a MAC usage"),
    "workload": (WORKLOAD_RE.match, "a workload"),
    "workload_up": (WORKLOAD_RE.match, "a workload"),
    "rw": (NUM_RE.match, "a size"),
    "sparse": (lambda t: "%" in t, "a sparse ratio"),
    "extra": (lambda t: not t.startswith(("(", "\\")) and ":" not in t, "a value"),
}


@record(frozen=False)
class RowParse(MutableRecord):
    """One row's tokens assigned to the header's columns, or why they could not be."""

    values: dict[str, str]
    """Canonical column key -> token (``extra`` columns under their header)."""
    missing: list[Column]
    """Columns after the last token (the row ended early)."""
    error: str | None = None


def parse_tokens(tokens: list[str], columns: tuple[Column, ...]) -> RowParse:
    """Assign tokens to columns by shape. Optional columns whose token does not fit are empty."""
    values: dict[str, str] = {}
    n, i = len(tokens), 0
    cols = [c for c in columns if c.key != "elided"]
    for ci, col in enumerate(cols):
        if i >= n:
            return RowParse(values, cols[ci:])
        tok, key = tokens[i], col.key
        if key == "full_name":
            values["full_name"] = " ".join(tokens[i:])
            i = n
            continue
        match, what = _MATCHERS[key]
        if not match(tok):
            if key in OPTIONAL:
                continue
            return RowParse(values, [], f"{col.header}: {tok!r} is not {what}")
        i += 1
        if key == "extra":
            values[f"extra:{col.header}"] = tok
        elif key == "workload_up":
            values["workload"] = tok
            if i < n and tokens[i] == "-":
                i += 1
            if i < n and UP_RE.match(tokens[i]):
                values["improve"] = UP_RE.match(tokens[i]).group(1) + "%"  # type: ignore[union-attr]  # UP_RE matched it on the line above
                i += 1
        else:
            values[key] = tok
    if i < n:
        extra = " ".join(tokens[i:])[:60]
        return RowParse(values, [], f"{n - i} field(s) after the last column: {extra!r}")
    return RowParse(values, [])
