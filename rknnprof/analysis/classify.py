"""Which resource limits each layer: ``bound`` and ``bound_basis`` (see DESIGN.md).

Decision order, per layer:

1. ``Target`` is CPU -> ``cpu`` (basis ``target``).
2. Cycles present and not all zero (``DDR/NPU/Total``):
   * NPU == 0 and DDR > 0 -> ``unknown``, basis ``no-npu-cycles``. NPU cycles 0 means "not
     computed", not "no compute": the guide (RKNN2 SDK V2.5.0 §5.2.2.4) says the NPU Cycles column
     "mainly displays the Cycles required by Conv". The time says the DDR cycles do not explain
     these layers either: in corpus 01, 30 of the 32 such rows (Split, Add, Concat, MaxPool,
     Resize) take more than twice their DDR-cycle time at 1 GHz (MaxPool #42: 8.8x);
   * DDR >= ``ratio`` x NPU -> ``bandwidth``; NPU >= ``ratio`` x DDR -> ``compute``;
   * otherwise ``balanced``. Basis ``cycles``. ``ratio`` defaults to :data:`DEFAULT_BOUND_RATIO`.
3. Otherwise (0/0/0 rows of runtime 2.0+, or formats without cycles): RW(KB) / Time(us) is the
   layer's achieved memory rate. With the platform's DDR bandwidth known, a rate at or above
   ``rw_share`` (default :data:`DEFAULT_RW_SHARE`) of it -> ``bandwidth``, below -> ``unknown``
   (the rate says the layer did not saturate DDR, not what did limit it); basis ``rw-rate``.
   Without a bandwidth figure, or without RW/Time -> ``unknown`` / ``none``.

A layer is never labelled ``compute`` without NPU cycles that say so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rknnprof.model import Bound, BoundBasis, Layer, Target

DEFAULT_BOUND_RATIO = 1.5
"""DDR cycles at least 1.5x NPU cycles (or the reverse) is "well above"; between the two the
layer is ``balanced``. Overridable with ``--bound-ratio``."""
DEFAULT_RW_SHARE = 0.5
"""Achieved RW rate at or above half the platform's usable DDR bandwidth counts as
bandwidth-bound for rows without cycles."""
KB = 1024
"""Bytes per KB in RW(KB): the input layer of a 1x3x640x640 UINT8 model reads 1200 KB."""


@dataclass(frozen=True)
class ClassifyOptions:
    bound_ratio: float = DEFAULT_BOUND_RATIO
    rw_share: float = DEFAULT_RW_SHARE
    ddr_bandwidth_gbs: float | None = None
    """Usable DDR bandwidth of the platform, GB/s (1e9 bytes/s); None when unknown."""


def achieved_rate_gbs(layer: Layer) -> float | None:
    """RW(KB) / Time(us) in GB/s (1e9 bytes/s), or None without both (or with Time 0)."""
    if layer.rw_kb is None or not layer.time_us:
        return None
    return layer.rw_kb * KB / (layer.time_us * 1e-6) / 1e9


def classify(layer: Layer, options: ClassifyOptions) -> tuple[Bound, BoundBasis]:
    if layer.target is Target.CPU:
        return Bound.CPU, BoundBasis.TARGET
    ddr, npu = layer.ddr_cycles, layer.npu_cycles
    if ddr is not None and npu is not None and (ddr or npu):
        if npu == 0:
            return Bound.UNKNOWN, BoundBasis.NO_NPU_CYCLES
        if ddr >= options.bound_ratio * npu:
            return Bound.BANDWIDTH, BoundBasis.CYCLES
        if npu >= options.bound_ratio * ddr:
            return Bound.COMPUTE, BoundBasis.CYCLES
        return Bound.BALANCED, BoundBasis.CYCLES
    rate = achieved_rate_gbs(layer)
    if rate is None or not options.ddr_bandwidth_gbs:
        return Bound.UNKNOWN, BoundBasis.NONE
    if rate >= options.rw_share * options.ddr_bandwidth_gbs:
        return Bound.BANDWIDTH, BoundBasis.RW_RATE
    return Bound.UNKNOWN, BoundBasis.RW_RATE


def classify_layers(layers: tuple[Layer, ...], options: ClassifyOptions,
                    total_us: float | None) -> tuple[Layer, ...]:
    """Copies of ``layers`` with ``bound``, ``bound_basis`` and ``time_share`` filled."""
    out = []
    for layer in layers:
        bound, basis = classify(layer, options)
        share = None
        if layer.time_us is not None and total_us:
            share = round(layer.time_us / total_us, 6)
        out.append(replace(layer, bound=bound, bound_basis=basis, time_share=share))
    return tuple(out)


def options_from(platform: Any, bound_ratio: float = DEFAULT_BOUND_RATIO,
                 rw_share: float = DEFAULT_RW_SHARE) -> ClassifyOptions:
    """Options for a ``rknnprof.platforms.Platform`` (or None)."""
    return ClassifyOptions(bound_ratio, rw_share, getattr(platform, "ddr_bandwidth_gbs", None))
