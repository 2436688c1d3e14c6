"""Medians and percentiles of times counted in a ``Counter`` (value -> how often), so that a
capture's memory grows with the distinct times it prints, not with its frames; and the move of
such counts onto a coarser grid when even those are too many."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

from rknnprof.model import tidy_number

_T = TypeVar("_T")


def median_of(counter: Counter[float]) -> float:
    """Median of the multiset ``counter`` (value -> count)."""
    n = sum(counter.values())
    lo_i, hi_i = (n - 1) // 2, n // 2
    seen, lo = 0, None
    for value in sorted(counter):
        seen += counter[value]
        if lo is None and seen > lo_i:
            lo = value
        if seen > hi_i:
            return tidy_number((lo + value) / 2) if lo != value else value  # type: ignore[operator]  # lo is set by now (lo_i <= hi_i)
    raise ValueError("median of an empty counter")


def percentile_of(counter: Counter[float], q: float) -> float | None:
    """Linear-interpolation percentile (``q`` in 0..100) of the multiset ``counter``: the same
    number as ``analysis.stats.percentile`` of the values listed out; None when empty."""
    n = sum(counter.values())
    if not n:
        return None
    pos = (n - 1) * q / 100.0
    lo_i = math.floor(pos)
    hi_i = min(lo_i + 1, n - 1)
    seen, lo = 0, None
    for value in sorted(counter):
        seen += counter[value]
        if lo is None and seen > lo_i:
            lo = float(value)
        if seen > hi_i:
            assert lo is not None
            return lo + (float(value) - lo) * (pos - lo_i)
    raise AssertionError("unreachable: the counts add up to n")


def regrid(counts: Counter[_T], on_grid: Callable[[_T], _T]) -> Counter[_T]:
    """``counts`` with every value moved onto the grid (the counts of values that meet add)."""
    out: Counter[_T] = Counter()
    for value, count in counts.items():
        out[on_grid(value)] += count
    return out
