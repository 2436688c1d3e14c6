"""Figures the human-facing reporters read off a finished profile: what kind of profile it is,
the frame time that shares are taken of and a layer's share of it (analysis's, re-exported),
layer cycles, time per bound and target.

Nothing here analyses: it reads what parsers, analysis and rules stored on the model; sums of
already classified times are the only arithmetic. :mod:`rknnprof.reporters._facts` phrases them.
"""

from __future__ import annotations

from rknnprof.analysis.figures import frame_total_us
from rknnprof.analysis.figures import time_share as layer_share
from rknnprof.analysis.optypes import ranking_cut_short
from rknnprof.model import Bound, Layer, Profile, Target

__all__ = [
    "BOUND_ORDER",
    "bound_items",
    "cut_short",
    "frame_total_us",
    "has_layer_times",
    "is_benchmark",
    "layer_cycles",
    "layer_share",
    "time_by_bound",
    "time_by_target",
    "top_layers",
]

BOUND_ORDER: tuple[Bound, ...] = (
    Bound.BANDWIDTH,
    Bound.COMPUTE,
    Bound.BALANCED,
    Bound.CPU,
    Bound.UNKNOWN,
)
"""The order bounds are listed in legends and charts (colours stay put)."""


# -- what kind of profile ------------------------------------------------------------------------
def is_benchmark(profile: Profile) -> bool:
    """A benchmark run (rknn_benchmark and its relatives) rather than a table or a total."""
    bench = profile.benchmark
    return (
        not profile.layers
        and bench is not None
        and bool(bench.run_times_ms or bench.warmup_times_ms or bench.avg_time_ms is not None)
    )


def has_layer_times(profile: Profile) -> bool:
    return any(layer.time_us is not None for layer in profile.layers)


def cut_short(profile: Profile) -> bool:
    """A ranking-only profile whose ranking misses rows (a truncated paste, no Total row)."""
    return not profile.layers and ranking_cut_short(profile.ranking)


def whole_ranking(profile: Profile) -> bool:
    """The log has a ranking table, and it is not cut short: it covers the whole frame."""
    return bool(profile.ranking) and not ranking_cut_short(profile.ranking)


# -- layers --------------------------------------------------------------------------------------
def layer_cycles(layer: Layer) -> int | None:
    """A layer's cycles: the Total column (max of DDR and NPU), else the larger of the two."""
    if layer.total_cycles is not None:
        return layer.total_cycles
    sides = [c for c in (layer.ddr_cycles, layer.npu_cycles) if c is not None]
    return max(sides) if sides else None


def top_layers(profile: Profile, n: int) -> list[Layer]:
    """The ``n`` slowest layers, slowest first (ties by ID)."""
    timed = [la for la in profile.layers if la.time_us is not None]
    return sorted(timed, key=lambda la: (-(la.time_us or 0.0), la.id))[: max(n, 0)]


# -- time by class -------------------------------------------------------------------------------
def time_by_bound(profile: Profile) -> dict[Bound, float]:
    """Microseconds of layer time per bound class, in :data:`BOUND_ORDER`, zeros kept."""
    totals = dict.fromkeys(BOUND_ORDER, 0.0)
    for layer in profile.layers:
        totals[layer.bound] = totals.get(layer.bound, 0.0) + (layer.time_us or 0.0)
    return totals


def time_by_target(profile: Profile) -> dict[Target, float]:
    """Microseconds per target (``Profile.time_on``) for targets that have any layer."""
    return {
        target: profile.time_on(target)
        for target in dict.fromkeys(layer.target for layer in profile.layers)
    }


def bound_items(profile: Profile) -> list[tuple[Bound, float]]:
    """(bound, share of the time) for bounds with any time, largest first; empty when every
    timed layer is ``unknown`` (nothing to tell)."""
    total = profile.total_time_us
    if not profile.layers or not total:
        return []
    items = [(b, us / total) for b, us in time_by_bound(profile).items() if us > 0]
    if all(b is Bound.UNKNOWN for b, _ in items):
        return []
    return sorted(items, key=lambda item: -item[1])
