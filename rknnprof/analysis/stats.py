"""Small statistics shared by the reports and the CI gate, so both print the same number."""

from __future__ import annotations

import math
from collections.abc import Iterable


def median(values: Iterable[float]) -> float:
    """The middle value, or the mean of the two middle ones: ``statistics.median``, whose
    module costs 3 ms to import (``fractions``, ``decimal``) at every start."""
    data = sorted(values)
    n = len(data)
    if not n:
        raise ValueError("median of no values")
    half = n // 2
    return data[half] if n % 2 else (data[half - 1] + data[half]) / 2


def percentile(values: Iterable[float], q: float) -> float | None:
    """Linear-interpolation percentile (NumPy's default method), ``q`` in 0..100; None when
    ``values`` is empty. ``frame p90`` in a report and ``frame_time_p90_us`` in a budget are
    this function of ``Profile.frame_times_us``."""
    data = sorted(float(v) for v in values)
    if not data:
        return None
    pos = (len(data) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)
