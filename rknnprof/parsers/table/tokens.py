"""The token vocabulary of every per-layer table reader: what a cell looks like, and its value.

RKNN tables are fixed-width in theory and ragged in practice (long op types push columns right,
empty cells collapse into blank runs, pastes collapse blanks), so every table is read by the
*shape* of its tokens, never by character positions. Here are those shapes (predicates that take
one stripped token and never raise) and the converters from a token to a model value. Each rule
exists once; where two readers need different rules for the same kind of token, both are here,
named for what they accept, with the reader that needs each:

* integers: the printed toolkit2 tables print unsigned IDs and cycle counts (:data:`INT_RE`);
  the eval_perf.csv and build-estimate readers accept a sign (:func:`is_int`);
* shape lists: the printed tables' whitespace-split tokens (:data:`SHAPES_RE`: digits and
  commas in parentheses, empty dimensions kept as nothing); the CSV and build readers' cells,
  which may hold blanks and negative dimensions (:func:`is_shape_list`);
* data types: the printed tables take any upper-case word (:data:`DTYPE_RE`; new runtimes add
  types), the build estimate's headerless layout, recognised from token shapes alone, only the
  listed ones (:func:`is_data_type`);
* elisions: a whole line of dots, as the printed tables' rows see it (:data:`ELISION_RE`), or
  with blanks and at least three dots, as the CSV-era readers see it (:func:`is_elision`).

Sparse inference (RK3576) adds a ``SparseRatio`` column (also spelled ``SparseRation`` in
Rockchip's guide) with values such as ``50%(IC)``, ``50%(OC)``, ``75%`` or ``0%``; the value goes
into ``Layer.sparse_ratio`` as printed.
"""

from __future__ import annotations

from functools import lru_cache

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Shape, Target

# -- the printed toolkit2 tables (whitespace-split tokens, ``re.match``: a token has no "\n") --
NUMBER = r"\d+(?:\.\d+)?"
"""An unsigned integer or decimal, as the printed tables print times, sizes and percentages."""
TARGET = r"(?:NPU|CPU|GPU)"
"""The Target column: where the runtime ran the layer."""
DTYPE = r"[A-Z][A-Z0-9_]*"
"""A DataType as the printed tables' rows are recognised: any upper-case word."""
INT_RE = LazyPattern(r"^\d+$")
NUM_RE = LazyPattern(rf"^{NUMBER}$")
SHAPES_RE = LazyPattern(r"^(?:\\|\([\d,]*\)(?:,\([\d,]*\))*(?:,\.\.\.)?)$")
CYCLES_RE = LazyPattern(r"^(\d+)/(\d+)/(\d+)$")
MAC_RE = LazyPattern(rf"^(?:\\|{NUMBER}(?:/{NUMBER})*)$")
WORKLOAD_RE = LazyPattern(rf"^{NUMBER}%(?:/{NUMBER}%)*$")
UP_RE = LazyPattern(rf"^-?Up:({NUMBER})%$")
DTYPE_RE = LazyPattern(rf"^{DTYPE}$")
ROW_START_RE = LazyPattern(rf"^(\d+)\s+(\S+)\s+(\S+)\s+{TARGET}(?:\s|$)")
"""``<ID> <OpType> <DataType> <Target>`` at the start of a row."""
ROW_SEARCH_RE = LazyPattern(rf"(?:^|\s)(\d+)\s+[A-Za-z_]\S*\s+{DTYPE}\s+{TARGET}(?:\s|$)")
"""The same, anywhere in a line (behind a pasted prefix), with a stricter OpType and DataType."""
RULE_RE = LazyPattern(r"^(.{0,40}?)[-=]{10,}\s*$")
ELISION_RE = LazyPattern(r"^(?:\.+|…+)$")
"""A line of dots (``...``, ``......``; damaged pastes keep fewer) or ``…``: rows left out."""

# -- the eval_perf.csv and build-estimate cells (split on blank runs or commas, ``fullmatch``) --
_CELL_SPLIT = LazyPattern(r"\s{2,}|\t+")
_INT = LazyPattern(r"[+-]?\d+")
_FLOAT = LazyPattern(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)")
_SHAPE = LazyPattern(r"\((?:\s*-?\d+\s*(?:,\s*-?\d+\s*)*)?\)")
_SHAPE_LIST = LazyPattern(rf"{_SHAPE.pattern}(?:,{_SHAPE.pattern})*(?:,\.\.\.)?")
_CYCLES = LazyPattern(r"\d+/\d+/\d+")
_TASKS = LazyPattern(r"\d+/\d+")
_SPARSE = LazyPattern(r"\d{1,3}(?:\.\d+)?%(?:\((?:IC|OC|[A-Za-z]{1,8})\))?")
_OP_TYPE = LazyPattern(r"[A-Za-z_][A-Za-z0-9_.]*")
_DIMS = LazyPattern(r"\(([^()]*)\)")

DATA_TYPES = frozenset(
    {
        "INT8",
        "UINT8",
        "INT16",
        "UINT16",
        "INT32",
        "UINT32",
        "INT64",
        "INT4",
        "FLOAT16",
        "FLOAT",
        "FLOAT32",
        "FP16",
        "FP32",
        "BFLOAT16",
        "BF16",
        "TF32",
        "BOOL",
    }
)
"""Data types seen in (or documented for) RKNN tables."""

SPARSE_HEADERS = frozenset({"sparseratio", "sparseration", "sparse_ratio", "sparseratio(%)"})
_TARGETS = {"NPU": Target.NPU, "CPU": Target.CPU, "GPU": Target.GPU}


# -- lines ---------------------------------------------------------------------------------------
def split_cells(text: str) -> list[str]:
    """Cells of a table line: split on runs of >= 2 blanks (or tabs), outer blanks dropped."""
    return [cell for cell in _CELL_SPLIT.split(text.strip()) if cell]


def is_rule(s: str) -> bool:
    """A dash or ``=`` rule (possibly behind a pasted prefix), or a stripped line of nothing but
    dashes / ``=`` (a rule cut short by a damaged paste)."""
    if not s.endswith(("-", "=")):  # both need it (``s`` is stripped); spares rows the regex
        return False
    return RULE_RE.match(s) is not None or not s.strip("-=")


def is_elision(text: str) -> bool:
    """A row an author replaced by dots: ``...``, ``......``, ``....`` (maybe with blanks)."""
    stripped = text.strip()
    return len(stripped) >= 3 and set(stripped) <= {".", " ", "…"} or stripped == "…"


# -- cells ---------------------------------------------------------------------------------------
def is_int(token: str) -> bool:
    return _INT.fullmatch(token) is not None


def is_number(token: str) -> bool:
    return _FLOAT.fullmatch(token) is not None


def is_na(token: str) -> bool:
    """``\\`` is how RKNN tables print "not applicable"."""
    return token == "\\"


def is_shape_list(token: str) -> bool:
    """``(1,3,640,640),(16,3,3,3),(16)``, optionally ending in ``,...``; or ``\\``."""
    return is_na(token) or _SHAPE_LIST.fullmatch(token.replace(" ", "")) is not None


def is_cycles_triplet(token: str) -> bool:
    """``DDR/NPU/Total`` integers, e.g. ``164250/921600/921600``."""
    return _CYCLES.fullmatch(token) is not None


def is_task_pair(token: str) -> bool:
    """The old build table's task column, e.g. ``3/0``."""
    return _TASKS.fullmatch(token) is not None


def is_sparse_ratio(token: str) -> bool:
    """A SparseRatio cell: ``50%(IC)``, ``50%(OC)``, ``75%``, ``0%``."""
    return _SPARSE.fullmatch(token) is not None


def is_target(token: str) -> bool:
    """``NPU``, ``CPU`` or ``GPU`` (:data:`TARGET`)."""
    return token in _TARGETS


def is_data_type(token: str) -> bool:
    """One of :data:`DATA_TYPES`, in any case."""
    return token.upper() in DATA_TYPES


def is_op_type(token: str) -> bool:
    """An identifier: ``ConvExSwish``, ``cstInstanceNormalization_1_256``, ``CONVOLUTION``."""
    return _OP_TYPE.fullmatch(token) is not None


def sparse_column_index(header_cells: list[str]) -> int | None:
    """Index of the SparseRatio / SparseRation column in a header's cells, or None."""
    for index, cell in enumerate(header_cells):
        if cell.strip().lower().replace(" ", "") in SPARSE_HEADERS:
            return index
    return None


# -- values --------------------------------------------------------------------------------------
MAX_DIGITS = 18
"""Most digits in a number token: every 18-digit integer fits an int64 (CSV, pandas), and no
RKNN figure (cycles, us, KB, ids) comes near it."""
MAX_VALUE = 2**63 - 1
"""Largest magnitude of a number token (int64): a bigger one is damage, never a measurement."""


class NumberOutOfRange(ValueError):
    """A number token longer than :data:`MAX_DIGITS` digits, beyond :data:`MAX_VALUE`, or not
    finite: the row that holds it is skipped (with its reason) rather than read."""


def _cut(token: str) -> str:
    return token if len(token) <= 24 else token[:23] + "…"


def to_int(token: str) -> int:
    """``808`` -> 808 (``-3`` -> -3), within the bounds; :class:`NumberOutOfRange` beyond them,
    ``ValueError`` when not an integer."""
    if len(token.lstrip("+-")) > MAX_DIGITS:
        raise NumberOutOfRange(f"number out of range: {_cut(token)} ({len(token)} characters)")
    value = int(token)
    if abs(value) > MAX_VALUE:
        raise NumberOutOfRange(f"number out of range: {token}")
    return value


def to_float(token: str) -> float:
    """``3402.31`` -> 3402.31, finite and within the bounds (see :func:`to_int`)."""
    if len(token.lstrip("+-")) > MAX_DIGITS + 12:
        raise NumberOutOfRange(f"number out of range: {_cut(token)} ({len(token)} characters)")
    value = float(token)
    if not abs(value) <= MAX_VALUE:  # also NaN
        raise NumberOutOfRange(f"number out of range: {token}")
    return value


def to_number(token: str) -> float | int:
    """``808`` -> 808, ``-3`` -> -3, ``3402.31`` -> 3402.31 (``float`` raises on anything else);
    :class:`NumberOutOfRange` beyond the bounds."""
    # isdecimal() answers "unsigned integer" without a regex call: the hot path's tokens
    if token.isdecimal() or token[:1] in ("+", "-") and token[1:].isdecimal():
        return int(token) if len(token) <= MAX_DIGITS else to_int(token)
    return to_float(token)


@lru_cache(maxsize=4096)
def parse_shapes(token: str) -> tuple[tuple[Shape, ...] | None, bool]:
    """``(1,3,640,640),(12,3,2,2),(12),...`` -> (((1,3,640,640), (12,3,2,2), (12,)), True).

    Returns (None, False) for ``\\``; the bool says whether the list ended in ``,...``; blanks
    are ignored. Cached: a model's shapes repeat in every frame, and the result is immutable.
    """
    if is_na(token):
        return None, False
    text = token.replace(" ", "")
    truncated = text.endswith(",...")
    shapes = tuple(
        tuple(to_int(dim) for dim in inner.split(",") if dim) for inner in _DIMS.findall(text)
    )
    return shapes, truncated


def parse_cycles(token: str) -> tuple[int, int, int]:
    """``164250/921600/921600`` -> (164250, 921600, 921600)."""
    ddr, npu, total = (to_int(part) for part in token.split("/"))
    return ddr, npu, total


def parse_workload(token: str) -> tuple[float, ...]:
    """``100.0%/0.0%/0.0%`` -> (100.0, 0.0, 0.0), percent per core slot."""
    return tuple(to_float(part.rstrip("%")) for part in token.split("/"))


def parse_mac_usage(token: str | None) -> float | None:
    """First core slot of ``2.29/0.00/0.00`` (or a single value), percent; None for ``\\``/empty."""
    if not token or is_na(token):
        return None
    return to_float(token.split("/")[0])


def parse_target(token: str) -> Target:
    """``NPU``/``CPU``/``GPU`` in any case; anything else is ``Target.UNKNOWN``."""
    target = _TARGETS.get(token)
    if target is not None:
        return target
    try:
        return Target(token.upper())
    except ValueError:
        return Target.UNKNOWN
