"""One line of an operator ranking table (:mod:`rknnprof.parsers.ranking`): its titles, header
cells and values, and the tests of a line that the ranking block and the bulk path for repeated
frames (:mod:`rknnprof.parsers.fastpath.ranking`) share, so that both read a line alike. The
fast path's one assumption of these tests (none depends on a digit's value) is written in
:mod:`rknnprof.parsers.table`."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import OpTypeStat, tidy_number
from rknnprof.parsers.table.columns import TITLE as TABLE_TITLE
from rknnprof.parsers.table.tokens import MAX_DIGITS, ROW_START_RE, is_rule

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence

SHARE_DIGITS = 6
"""Digits of a fraction a row's share (its TimeRatio / 100) is rounded to (``stat_of``)."""
TITLES = ("Operator Time Consuming Ranking Table", "Operator Time-Consuming Ranking:")
HEADER_RE = LazyPattern(r"(?:^|\s)OpType\s+Call\s?Number(?:\s|$)")
VALUE_RE = LazyPattern(r"^\d+(?:\.\d+)?(?:e[+-]\d+)?%?$")
"""A value: the runtime prints times with ``%g``, so from 1 s on in exponent form
(``1.18313e+06``, six significant digits: see :func:`rounding`)."""
_OP_TYPE_RE = LazyPattern(r"[A-Za-z_][\w.-]*\Z")
"""An op type token (only lines that are not rows are tested: compiled on first use)."""
VALUES_RE = LazyPattern(r"\d+(?:\.\d+)?(?:e[+-]\d+)?%?(?: \d+(?:\.\d+)?(?:e[+-]\d+)?%?)*")
"""Values joined by single spaces, each a VALUE_RE (for ``fullmatch``)."""
_ALIASES = {
    "callnumber": "calls",
    "cputime(us)": "cpu",
    "gputime(us)": "gpu",
    "nputime(us)": "npu",
    "totaltime(us)": "total",
    "timeratio(%)": "ratio",
}
HEADER_NAMES = {
    "calls": "CallNumber",
    "cpu": "CPUTime(us)",
    "gpu": "GPUTime(us)",
    "npu": "NPUTime(us)",
    "total": "TotalTime(us)",
    "ratio": "TimeRatio(%)",
}
_FULL_HEADERS = (
    "OpType CallNumber CPUTime(us) GPUTime(us) NPUTime(us) TotalTime(us) TimeRatio(%)",
    "OpType Call Number CPU Time(us) NPU Time(us) Total Time(us) Time Ratio(%)",
)


def cut_header(text: str) -> bool:
    """The start of a ranking header, cut before its columns (the rows then get the default
    columns for their width)."""
    words = " ".join(text.split())
    return bool(words) and any(full.startswith(words) for full in _FULL_HEADERS)


def damaged_header(text: str) -> bool:
    """A header whose cells were moved (``OpType CPUTime(us) CallNumber ...``): still read by
    name. Only asked after a ranking title, before any row."""
    return "OpType" in text and not any(
        ch.isdigit() for ch in text.replace("(us)", "").replace("(%)", "")
    )


def row_shaped(tokens: list[str]) -> bool:
    """An op type then a value: the shape of a ranking row (whole, short or damaged)."""
    return len(tokens) >= 2 and bool(VALUE_RE.match(tokens[1])) and not VALUE_RE.match(tokens[0])


def sentence(tokens: list[str]) -> bool:
    """A line whose second cell is a value but which is no row, whole, short or damaged: words
    after the value (``Frame 12 done``, ``Thread 1 "x" hit Breakpoint 1, ...``)."""
    return not row_like(tokens) and not all(VALUE_RE.match(tok) for tok in tokens[1:])


def row_like(tokens: list[str]) -> bool:
    """A damaged ranking row (a letter in a number, swapped cells): mostly numbers after one
    word. Kept as a skipped row instead of ending the table silently."""
    numbers = sum(1 for tok in tokens if VALUE_RE.match(tok))
    return len(tokens) >= 4 and numbers >= 3 and numbers >= len(tokens) // 2


def foreign_cut(text: str, tokens: list[str], columns: int) -> int | None:
    """Where foreign text starts in a ranking row that another program's output cut short
    (``Conv      MEM_SYNC flags=0x2 ...``: an op type padded by its column, maybe a few
    values, then words): the index of the first word after the op type, when fewer values
    than ``columns`` came before it; None for a row, a damaged row (:func:`row_like`), a line
    that starts with a value, the Total row, or a sentence (``rknn_run done``: one blank
    after the first word)."""
    if (
        len(tokens) < 2
        or tokens[0] == "Total"
        or not _OP_TYPE_RE.match(tokens[0])
        or tokens[0] + "  " not in text
    ):
        return None
    cut = next((i for i, tok in enumerate(tokens[1:], 1) if not VALUE_RE.match(tok)), None)
    if cut is None or cut - 1 >= columns or row_like(tokens):
        return None
    return cut


def stat_of(op: str, v: dict[str, float], calls_above: Callable[[], int]) -> OpTypeStat:
    """The :class:`OpTypeStat` of a row with values ``v`` (by column key); ``calls_above``: the
    calls of the rows read before it, which a row without CallNumber (the Total row) counts."""
    total = v.get("total", v.get("cpu", 0.0) + v.get("gpu", 0.0) + v.get("npu", 0.0))
    cpu = v["cpu"] if "cpu" in v else max(0.0, total - v.get("npu", 0.0) - v.get("gpu", 0.0))
    return OpTypeStat(
        op_type=op,
        calls=int(v["calls"]) if "calls" in v else calls_above(),
        cpu_time_us=tidy_number(cpu),
        npu_time_us=tidy_number(v.get("npu", 0.0)),
        total_time_us=tidy_number(total),
        gpu_time_us=tidy_number(v.get("gpu", 0.0)),
        share=round(v["ratio"] / 100, SHARE_DIGITS) if "ratio" in v else None,
    )


def row_keys(op: str, columns: Sequence[str]) -> list[str]:
    """The columns a row of ``op`` has values for (the Total row: no CallNumber, no ratio)."""
    return [k for k in columns if k not in ("calls", "ratio")] if op == "Total" else list(columns)


def plain_row(text: str, columns: Sequence[str]) -> bool:
    """Whether a ranking block with ``columns``, no pasted prefix and no row pending reads the
    line ``text`` as one complete row (a stat, or the Total row) without a skipped row: the
    test the bulk path (``parsers/fastpath/ranking.py``) makes once per line shape. Values
    are not checked against each other here (that is the block's ``close``)."""
    s = text.strip()
    if not s or is_rule(s) or has_title(s):
        return False
    tokens = text.split()
    if not row_shaped(tokens):
        return False
    op, values = tokens[0], tokens[1:]
    if op != "Total" and 0 < len(values) < len(columns):
        return False  # _short: held as a row cut short
    if len(values) != len(row_keys(op, columns)) or VALUES_RE.fullmatch(" ".join(values)) is None:
        return False
    return all(len(v) <= MAX_DIGITS for v in values)  # to_float's bounds, with room


def refuses(
    text: str, has_rows: bool, ready: bool, tokens_of: Callable[[str], list[str]] = str.split
) -> bool:
    """What ``RankingBlock.refuses`` says of ``text`` for a block that has rows
    (``has_rows``) and, when ``ready``, its columns and nothing pending; ``tokens_of`` splits a
    row as the block does. Mirrors the first tests of ``RankingBlock.feed`` (False when
    unsure: a row after the block's end is refused by the block, not here)."""
    s = text.strip()
    if not s or is_rule(s):
        return False
    if has_title(s):
        return has_rows
    if not ready:
        return False
    tokens = tokens_of(text)
    if not row_shaped(tokens):
        # (a row cut by foreign text is taken while the table is open: unsure)
        return not row_like(tokens) and foreign_cut(text, tokens, len(tokens)) is None
    # words after a number: a sentence, not a row (a row cut by foreign text: unsure)
    return sentence(tokens) and foreign_cut(text, tokens, len(tokens)) is None


def passable(text: str, tokens: list[str]) -> bool:
    """Whether a ranking with rows and no Total row yet may pass over ``text`` (``tokens``: its
    cells as the block splits them): not a title, header or rule (another table's), not a
    per-layer row (a table without its header) nor a line mostly of values (a damaged row); a
    line that only starts with a number (``3 frames dropped``) is other output."""
    if TABLE_TITLE in text or "OpType" in text or has_title(text) or is_rule(text.strip()):
        return False
    return not ROW_START_RE.match(" ".join(tokens)) and not row_like(tokens)


def resumes(tokens: list[str], ranked: Collection[str], closed: bool) -> bool:
    """Whether a ranking that passed over lines goes on at a line of ``tokens``: its Total
    row, or (before the rule that closes its rows, ``closed``) the row of an op type not in
    ``ranked``."""
    if not row_shaped(tokens):
        return False
    if sentence(tokens):
        return False
    return tokens[0] == "Total" or not closed and tokens[0] not in ranked


def has_title(text: str) -> bool:
    return TITLES[0] in text or TITLES[1] in text  # not any(): this runs on every line


@lru_cache(maxsize=256)
def header_columns(text: str) -> tuple[str, ...]:
    """Canonical column keys after OpType; ``...`` columns are dropped (they hold no values)."""
    start = text.index("OpType") + len("OpType")
    rest = re.sub(r"(Call|CPU|GPU|NPU|Total|Time)\s+(Number|Time|Ratio)", r"\1\2", text[start:])
    keys = []
    for word in rest.split():
        if set(word) == {"."}:
            continue
        keys.append(_alias(word))
    return tuple(keys)


def _alias(word: str) -> str:
    """The canonical key of a header cell; a cut cell (``TimeRatio(%``) still names its column."""
    lower = word.lower()
    for name, key in _ALIASES.items():
        if lower == name or lower.startswith(name.split("(")[0]) and len(lower) > 6:
            return key
    return word


def rounding(token: str) -> float:
    """How far a value printed in exponent form can be from the one it stands for: half a unit
    of its sixth significant digit (``%g`` prints six and drops trailing zeros: ``2e+06`` is
    2.00000e+06, within 5 us, as ``1.18313e+06`` is); 0 for a value printed whole."""
    if "e" not in token:
        return 0.0
    mantissa, exponent = token.rstrip("%").split("e")
    decimals = max(len(mantissa.partition(".")[2]), 5)
    return 0.5 * 10.0 ** (int(exponent) - decimals)
