"""Op-type aggregation: the same numbers as the log's "Operator Time Consuming Ranking Table"
(calls, CPU/GPU/NPU/total time per op type, share of the total), computed from the layers.
Sorted like the runtime sorts it: total time descending.

Layers whose target the log does not say (toolkit1 tables have no Target column) count as
``unknown_time_us``, never as NPU time.

For ranking-only logs, :func:`ratio_total_us` gives the frame time the ``TimeRatio`` column
implies, which is the right denominator when a paste is cut short (no ``Total`` row, so the
rows shown sum to less than the frame).
"""

from __future__ import annotations

from collections.abc import Sequence

from rknnprof.model import Layer, OpTypeStat, Target, tidy_number

CUT_SHORT_COVERAGE = 0.99
"""A ranking whose TimeRatio rows add up to less than this fraction is missing rows (the
printed ratios are rounded to 0.01 %, so complete tables add up to 0.9996..1.0001 in the corpus)."""


def aggregate(layers: tuple[Layer, ...], total_us: float | None) -> tuple[OpTypeStat, ...]:
    acc: dict[str, list[float]] = {}
    slot = {Target.CPU: 1, Target.GPU: 2, Target.NPU: 3, Target.UNKNOWN: 4}
    for layer in layers:
        row = acc.setdefault(layer.op_type, [0, 0.0, 0.0, 0.0, 0.0])
        row[0] += 1
        row[slot[layer.target]] += layer.time_us or 0.0
    stats = [
        OpTypeStat(
            op_type=op,
            calls=int(calls),
            cpu_time_us=tidy_number(cpu),
            npu_time_us=tidy_number(npu),
            total_time_us=tidy_number(cpu + gpu + npu + other),
            gpu_time_us=tidy_number(gpu),
            unknown_time_us=tidy_number(other),
            share=round((cpu + gpu + npu + other) / total_us, 6) if total_us else None,
        )
        for op, (calls, cpu, gpu, npu, other) in acc.items()
    ]
    stats.sort(key=lambda s: -s.total_time_us)
    return tuple(stats)


def ratio_coverage(stats: Sequence[OpTypeStat]) -> float | None:
    """Sum of the rows' TimeRatio, fraction 0..1; None when a row has no ratio."""
    rows = [s for s in stats if s.op_type != "Total"]
    if not rows or any(s.share is None for s in rows):
        return None
    return sum(s.share or 0.0 for s in rows)


def ratio_total_us(stats: Sequence[OpTypeStat]) -> float | None:
    """The frame time the TimeRatio column implies: the rows' TotalTime over their TimeRatio,
    microseconds; None without ratios."""
    coverage = ratio_coverage(stats)
    if not coverage:
        return None
    return sum(s.total_time_us for s in stats if s.op_type != "Total") / coverage


def ranking_cut_short(stats: Sequence[OpTypeStat]) -> bool:
    """True when the TimeRatio rows add up to clearly less than 100 % (rows are missing)."""
    coverage = ratio_coverage(stats)
    return coverage is not None and coverage < CUT_SHORT_COVERAGE
