"""Which resource limits each layer: ``bound`` and ``bound_basis`` (``docs/json.md``).

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
   A row with NPU 0 whose RW rate says ``bandwidth`` (step 3) takes that label instead.
3. Otherwise (0/0/0 rows of runtime 2.0+, or formats without cycles): RW(KB) / Time(us) is the
   layer's achieved memory rate, judged against what the DDR is known to deliver:

   * above the platform's THEORETICAL peak (``Platform.ddr_bandwidth_gbs``, RK3588 33.8 GB/s),
     or RW > 0 in Time 0 -> ``unknown``, basis ``view``: no DDR moves that fast, so the op moved
     no data of its own (a Reshape that relabels a tensor: corpus 36 #59, 100 KB in 2 us, 51 GB/s);
   * at or above ``rw_share`` (default :data:`DEFAULT_RW_SHARE`, 0.75) of the ACHIEVED reference
     -> ``bandwidth``, below -> ``unknown`` (the rate says the layer did not saturate DDR, not what
     did limit it); basis ``rw-rate``. The reference is the platform's measured rate
     (``Platform.ddr_achieved_gbs``, RK3588 12.9 GB/s: corpus 03 #8, the fastest real row of the
     corpus), raised to the fastest row of the same log whose cycles call it bandwidth-bound
     when that row is faster (the board showed its DDR can deliver that);
   * without a reference, or without RW/Time -> ``unknown`` / ``none``.

   Why 0.75: single-core Adds at 7.8 GB/s (corpus 01 #8) run 1.65x faster on three cores (03
   #8: 12.9 GB/s), so DDR did not limit them; 0.75 x 12.9 = 9.7 GB/s keeps them out, and passes
   corpus 08's FP16 tail (10.2-11.9 GB/s, beside a ConvAdd whose DDR cycles are 7.2x its NPU's).

A layer is never labelled ``compute`` without NPU cycles that say so.

A cycles label is only as strong as the share of the time its cycles explain:
``cycles_explained = max(DDR, NPU) / (time x NPU clock)`` (``analysis.savings``, the clock of
``analysis.clock``) is stored on every layer with cycles, time and a clock, and a ``cycles``
label whose cycles explain under :data:`WEAK_EXPLAINED` of the time is ``bound_weak``: the
cycles say which resource they point at, but most of the time went elsewhere (waiting,
overheads the cycle model does not count). On the corpus 265 of 450 cycle-based rows are weak.
"""

from __future__ import annotations

from typing import Any

from rknnprof.model import Bound, BoundBasis, Layer, Target
from rknnprof.model.record import Record, record, replace

DEFAULT_BOUND_RATIO = 1.5
"""DDR cycles at least 1.5x NPU cycles (or the reverse) is "well above"; between the two the
layer is ``balanced``. Overridable with ``--bound-ratio``."""
DEFAULT_RW_SHARE = 0.75
"""A row without usable cycles is bandwidth-bound when its RW(KB)/Time reaches 0.75 of the DDR rate
achieved on the platform (module doc: why 0.75)."""
WEAK_EXPLAINED = 0.5
"""A ``cycles`` label whose cycles explain under this share of the layer's time is weak."""
KB = 1024
"""Bytes per KB in RW(KB): the input layer of a 1x3x640x640 UINT8 model reads 1200 KB."""


@record(slots=False)
class ClassifyOptions(Record):
    """The thresholds and platform figures the classification reads (``analyze``'s options)."""

    bound_ratio: float = DEFAULT_BOUND_RATIO
    rw_share: float = DEFAULT_RW_SHARE
    ddr_peak_gbs: float | None = None
    """THEORETICAL DDR peak of the platform, GB/s (1e9 bytes/s); a rate above it is a view.
    None when unknown."""
    ddr_achieved_gbs: float | None = None
    """The DDR rate known to be achieved (platform figure or this log's fastest DDR-bound row),
    GB/s (1e9 bytes/s): the reference of the rw-rate rule. None when unknown."""


def achieved_rate_gbs(layer: Layer) -> float | None:
    """RW(KB) / Time(us) in GB/s (1e9 bytes/s), or None without both (or with Time 0)."""
    if layer.rw_kb is None or not layer.time_us:
        return None
    return layer.rw_kb * KB / (layer.time_us * 1e-6) / 1e9


def _is_view(layer: Layer, options: ClassifyOptions) -> bool:
    """RW(KB) moved faster than the DDR's theoretical peak, or in no time at all."""
    if not layer.rw_kb:
        return False
    if layer.time_us == 0:
        return True
    rate = achieved_rate_gbs(layer)
    return rate is not None and options.ddr_peak_gbs is not None and rate > options.ddr_peak_gbs


def _rate_bound(layer: Layer, options: ClassifyOptions) -> tuple[Bound, BoundBasis]:
    """Step 3 of the module doc: the rw-rate rule."""
    if _is_view(layer, options):
        return Bound.UNKNOWN, BoundBasis.VIEW
    rate = achieved_rate_gbs(layer)
    if rate is None or not options.ddr_achieved_gbs:
        return Bound.UNKNOWN, BoundBasis.NONE
    if rate >= options.rw_share * options.ddr_achieved_gbs:
        return Bound.BANDWIDTH, BoundBasis.RW_RATE
    return Bound.UNKNOWN, BoundBasis.RW_RATE


def _cycles_bound(ddr: int, npu: int, ratio: float) -> Bound:
    """Step 2 for NPU > 0: DDR against NPU cycles."""
    if ddr >= ratio * npu:
        return Bound.BANDWIDTH
    if npu >= ratio * ddr:
        return Bound.COMPUTE
    return Bound.BALANCED


def classify(layer: Layer, options: ClassifyOptions) -> tuple[Bound, BoundBasis]:
    """The bound of one layer and what decided it (module doc)."""
    if layer.target is Target.CPU:
        return Bound.CPU, BoundBasis.TARGET
    ddr, npu = layer.ddr_cycles, layer.npu_cycles
    if ddr is not None and npu is not None and (ddr or npu):
        if npu:
            return _cycles_bound(ddr, npu, options.bound_ratio), BoundBasis.CYCLES
        by_rate = _rate_bound(layer, options)
        if by_rate[0] is Bound.BANDWIDTH:
            return by_rate
        return Bound.UNKNOWN, BoundBasis.NO_NPU_CYCLES
    return _rate_bound(layer, options)


def log_reference_gbs(layers: tuple[Layer, ...], options: ClassifyOptions) -> float | None:
    """The achieved-rate reference for one log: the platform's figure, or the RW(KB)/Time of the
    log's fastest NPU row whose cycles call it bandwidth-bound when that is faster (never above
    the theoretical peak). GB/s; None when neither exists."""
    best = options.ddr_achieved_gbs
    for layer in layers:
        if layer.target is not Target.NPU or not layer.npu_cycles or layer.ddr_cycles is None:
            continue
        if _cycles_bound(
            layer.ddr_cycles, layer.npu_cycles, options.bound_ratio
        ) is not Bound.BANDWIDTH or _is_view(layer, options):
            continue
        rate = achieved_rate_gbs(layer)
        if rate is not None and (best is None or rate > best):
            best = rate
    return best


def classify_layers(
    layers: tuple[Layer, ...], options: ClassifyOptions, total_us: float | None
) -> tuple[Layer, ...]:
    """Copies of ``layers`` with ``bound``, ``bound_basis`` and ``time_share`` filled."""
    options = replace(options, ddr_achieved_gbs=log_reference_gbs(layers, options))
    out = []
    for layer in layers:
        bound, basis = classify(layer, options)
        share = None
        if layer.time_us is not None and total_us:
            share = round(layer.time_us / total_us, 6)
        out.append(replace(layer, bound=bound, bound_basis=basis, time_share=share))
    return tuple(out)


def options_from(
    platform: Any, bound_ratio: float = DEFAULT_BOUND_RATIO, rw_share: float = DEFAULT_RW_SHARE
) -> ClassifyOptions:
    """Options for a ``rknnprof.platforms.Platform`` (or None): its theoretical DDR peak and the
    rate achieved on it."""
    return ClassifyOptions(
        bound_ratio,
        rw_share,
        getattr(platform, "ddr_bandwidth_gbs", None),
        getattr(platform, "ddr_achieved_gbs", None),
    )


def with_explained(layers: tuple[Layer, ...], clock_mhz: float | None) -> tuple[Layer, ...]:
    """Copies of classified ``layers`` with ``cycles_explained`` and ``bound_weak`` filled
    (module doc); unchanged without a clock."""
    if not clock_mhz:
        return layers
    from rknnprof.analysis.savings import cycles_explained

    out = []
    for layer in layers:
        explained = cycles_explained(layer, clock_mhz)
        if explained is None:
            out.append(layer)
            continue
        weak = layer.bound_basis is BoundBasis.CYCLES and explained < WEAK_EXPLAINED
        out.append(replace(layer, cycles_explained=round(explained, 6), bound_weak=weak))
    return tuple(out)
