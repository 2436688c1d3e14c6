"""Token-shape predicates and small converters shared by the table parsers.

RKNN tables are fixed-width in theory and ragged in practice (long op types push columns right,
empty cells collapse into blank runs, pastes collapse blanks). So tables are tokenised on runs of
two or more blanks (:func:`split_cells`) and each token is recognised by its *shape*, never by
its character position. These predicates are the vocabulary for that; every one takes a single
stripped token and never raises.

Sparse inference (RK3576) adds a ``SparseRatio`` column (also spelled ``SparseRation`` in
Rockchip's guide) with values such as ``50%(IC)``, ``50%(OC)``, ``75%`` or ``0%``. Table parsers
find it with :func:`sparse_column_index` on the header cells and check values with
:func:`is_sparse_ratio`; the value goes into ``Layer.sparse_ratio`` as printed.
"""

from __future__ import annotations

import re

from rknnprof.model import Shape, Target

_CELL_SPLIT = re.compile(r"\s{2,}|\t+")
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)")
_SHAPE = re.compile(r"\((?:\s*-?\d+\s*(?:,\s*-?\d+\s*)*)?\)")
_SHAPE_LIST = re.compile(rf"{_SHAPE.pattern}(?:,{_SHAPE.pattern})*(?:,\.\.\.)?")
_CYCLES = re.compile(r"\d+/\d+/\d+")
_TASKS = re.compile(r"\d+/\d+")
_SPARSE = re.compile(r"\d{1,3}(?:\.\d+)?%(?:\((?:IC|OC|[A-Za-z]{1,8})\))?")
_OP_TYPE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")

DATA_TYPES = frozenset(
    {"INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "INT64", "INT4", "FLOAT16", "FLOAT",
     "FLOAT32", "FP16", "FP32", "BFLOAT16", "BF16", "TF32", "BOOL"}
)
"""Data types seen in (or documented for) RKNN tables."""

SPARSE_HEADERS = frozenset({"sparseratio", "sparseration", "sparse_ratio", "sparseratio(%)"})


def split_cells(text: str) -> list[str]:
    """Cells of a table line: split on runs of >= 2 blanks (or tabs), outer blanks dropped."""
    return [cell for cell in _CELL_SPLIT.split(text.strip()) if cell]


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
    return token in ("NPU", "CPU", "GPU")


def is_data_type(token: str) -> bool:
    return token.upper() in DATA_TYPES


def is_op_type(token: str) -> bool:
    """An identifier: ``ConvExSwish``, ``cstInstanceNormalization_1_256``, ``CONVOLUTION``."""
    return _OP_TYPE.fullmatch(token) is not None


def is_elision(text: str) -> bool:
    """A row an author replaced by dots: ``...``, ``......``, ``....`` (maybe with blanks)."""
    stripped = text.strip()
    return len(stripped) >= 3 and set(stripped) <= {".", " ", "…"} or stripped == "…"


def sparse_column_index(header_cells: list[str]) -> int | None:
    """Index of the SparseRatio / SparseRation column in a header's cells, or None."""
    for index, cell in enumerate(header_cells):
        if cell.strip().lower().replace(" ", "") in SPARSE_HEADERS:
            return index
    return None


def parse_shapes(token: str) -> tuple[tuple[Shape, ...] | None, bool]:
    """``(1,3,640,640),(12,3,2,2),(12),...`` -> (((1,3,640,640), (12,3,2,2), (12,)), True).

    Returns (None, False) for ``\\``; the bool says whether the list ended in ``,...``.
    """
    if is_na(token):
        return None, False
    text = token.replace(" ", "")
    truncated = text.endswith(",...")
    shapes = tuple(
        tuple(int(dim) for dim in inner.split(",") if dim)
        for inner in re.findall(r"\(([^()]*)\)", text)
    )
    return shapes, truncated


def parse_cycles(token: str) -> tuple[int, int, int]:
    """``164250/921600/921600`` -> (164250, 921600, 921600)."""
    ddr, npu, total = (int(part) for part in token.split("/"))
    return ddr, npu, total


def parse_workload(token: str) -> tuple[float, ...]:
    """``100.0%/0.0%/0.0%`` -> (100.0, 0.0, 0.0), percent per core slot."""
    return tuple(float(part.rstrip("%")) for part in token.split("/"))


def parse_mac_usage(token: str) -> float | None:
    """First core slot of ``2.29/0.00/0.00`` (or a single value), percent; None for ``\\``/empty."""
    if not token or is_na(token):
        return None
    return float(token.split("/")[0])


def parse_target(token: str) -> Target:
    try:
        return Target(token.upper())
    except ValueError:
        return Target.UNKNOWN


def to_number(token: str) -> float | int:
    """``808`` -> 808, ``3402.31`` -> 3402.31."""
    return int(token) if is_int(token) else float(token)
