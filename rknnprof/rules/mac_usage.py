"""RKN011: compute-bound conv layers with low MAC usage, and the padding that wastes it."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.mac import (
    MIN_REDUCTION_DEPTH_INT8,
    ConvGeometry,
    conv_geometry,
    mac_estimate,
    npu_clock_mhz,
)
from rknnprof.model import Bound, Finding, Layer, Profile, Severity, Target
from rknnprof.platforms import dtype_bytes, dtype_key
from rknnprof.rules._util import (
    alignment,
    grade,
    label,
    misaligned,
    opt,
    padded,
    pct,
    share,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import cite, sources

WEIGHT_LIMIT_BYTES = 6 * 1024
"""User Guide §8.5.2: utilisation is relatively high while KH*KW*KC*type_bytes < 6 KB."""


def _compute_reasons(layer: Layer, context: RuleContext) -> tuple[list[str], float]:
    """Why a conv's MAC usage is low, and the fraction of its time that padding wastes."""
    geometry = conv_geometry(layer)
    reasons: list[str] = []
    fraction = 0.0
    if geometry is None:
        return reasons, fraction
    platform = context.platform
    align = alignment(layer, context)
    if geometry.kind == "depthwise":
        reasons.append("depthwise conv (few MACs per byte)")
        if align and misaligned(geometry.out_c, align.depthwise):
            reasons.append(f"{geometry.out_c} channels not a multiple of {align.depthwise}")
            fraction = 1.0 - geometry.out_c / padded(geometry.out_c, align.depthwise)
    else:
        if align:
            if misaligned(geometry.in_c, align.conv_in):
                reasons.append(f"{geometry.in_c} input channels not a multiple of {align.conv_in}")
            if misaligned(geometry.out_c, align.conv_out):
                reasons.append(f"{geometry.out_c} output channels not a multiple of "
                               f"{align.conv_out}")
        if _padding_factors(geometry, layer, context)[2]:
            reasons.append(f"{geometry.kh}x{geometry.kw} over {geometry.in_c} channels: reduction "
                           "depth below the 128 RK3588 INT8 cycles show")
        if geometry.in_c > 512:
            reasons.append(f"{geometry.in_c} input channels (> 512 lowers utilisation)")
        per_kernel = geometry.weight_elements_per_kernel
        size = dtype_bytes(layer.data_type) or 1
        if per_kernel and per_kernel * size > WEIGHT_LIMIT_BYTES:
            reasons.append(f"KH*KW*KC*bytes = {per_kernel * size} B (> 6 KB)")
        if geometry.kh > 1 and geometry.stride and geometry.kh <= geometry.stride:
            reasons.append(f"{geometry.kh}x{geometry.kw} kernel at stride {geometry.stride:g} "
                           "(Ksize/Kstride of 1: non-overlapping windows)")
    if geometry.out_h * geometry.out_w < 16:
        reasons.append(f"output H*W = {geometry.out_h * geometry.out_w} (< 16)")
    estimate = mac_estimate(layer, platform, npu_clock_mhz(None, platform))
    npu = layer.npu_cycles or 0
    if geometry.kind != "depthwise" and estimate and estimate.ideal_cycles and npu:
        floor = max(estimate.ideal_cycles, layer.ddr_cycles or 0)
        fraction = max(0.0, 1.0 - floor / npu)
        if estimate.waste_factor and estimate.waste_factor >= 1.5:
            rate = platform.macs_per_cycle(layer.data_type)
            reasons.append(f"NPU cycles are {estimate.waste_factor:.1f}x the ideal "
                           f"(MACs / {rate:g} MACs per cycle)")
    elif geometry.kind == "conv" and align and not fraction:
        pad_in = padded(geometry.in_c, align.conv_in)
        pad_out = padded(geometry.out_c, align.conv_out)
        fraction = 1.0 - (geometry.in_c * geometry.out_c) / (pad_in * pad_out)
    return reasons, fraction


def _padding_factors(geometry: ConvGeometry, layer: Layer, context: RuleContext
                     ) -> tuple[float, float, bool]:
    """How many times its true size the NPU computes on the input side (reduction depth, with
    the RK3588 INT8 floor of 128) and on the output side; and whether the floor decided it."""
    platform = context.platform
    align = alignment(layer, context)
    if platform is None or align is None or geometry.kind != "conv":
        return 1.0, 1.0, False
    taps = geometry.kh * geometry.kw
    depth = taps * padded(geometry.in_c, align.conv_in)
    floor = (MIN_REDUCTION_DEPTH_INT8 if platform.family == "rk3588"
             and dtype_key(layer.data_type) == "int8" else 0)
    f_in = max(depth, floor) / (taps * geometry.in_c)
    f_out = padded(geometry.out_c, align.conv_out) / geometry.out_c
    return f_in, f_out, floor > depth


def _compute_fix(layer: Layer, context: RuleContext) -> str:
    """One change for a low-utilisation conv, from its largest visible cause."""
    geometry = conv_geometry(layer)
    align = alignment(layer, context)
    if geometry is None:
        return "check the layer's channels against the platform alignment table"
    if geometry.kind == "depthwise":
        return ("replace the depthwise conv by a regular (or grouped) conv where the channel "
                "count is small: it uses few MACs per byte")
    non_overlapping = geometry.kh > 1 and geometry.stride and geometry.kh <= geometry.stride
    f_in, f_out, floor = _padding_factors(geometry, layer, context)
    if align and max(f_in, f_out) >= 1.25:
        pad_in = padded(geometry.in_c, align.conv_in)
        pad_out = padded(geometry.out_c, align.conv_out)
        if geometry.in_c >= 4 and min(f_in, f_out) >= 1.25 and not floor:
            return (f"the NPU runs this {geometry.in_c}->{geometry.out_c} conv as {pad_in}->"
                    f"{pad_out} ({f_in * f_out:.0f}x its MACs): widening it to {pad_in}->{pad_out} "
                    "channels costs no NPU time, so use that width or drop the layer")
        if f_in >= f_out:
            if geometry.in_c < 4 and not non_overlapping:
                return (f"the {geometry.in_c}-channel input is padded to {pad_in}: a "
                        "space-to-depth (Focus) stem gives this conv 4x the channels at a "
                        "quarter of the pixels")
            if geometry.in_c < 4:
                return (f"the {geometry.in_c}-channel image input is padded to {pad_in} "
                        f"({f_in:.1f}x the cycles) and cannot be aligned: only a lower input "
                        "resolution makes this layer cheaper")
            if floor:
                return (f"a {geometry.kh}x{geometry.kw} conv over {geometry.in_c} channels "
                        f"fills {geometry.kh * geometry.kw * pad_in} of the 128-deep MAC "
                        "reduction (as RK3588 INT8 cycles show): fold it into the neighbouring "
                        "conv, or feed it 128+ channels")
            return (f"make the producer emit {pad_in} channels instead of {geometry.in_c} (the "
                    f"NPU pads conv inputs to {align.conv_in})")
        return (f"the NPU computes {pad_out} output channels for these {geometry.out_c}, so the "
                f"layer costs as much as a {pad_out}-channel one: merge narrow parallel convs "
                f"into one with a multiple of {align.conv_out} channels, or use the {pad_out} for "
                "accuracy")
    if geometry.in_c > 512:
        return f"reduce the {geometry.in_c} input channels to 512 or fewer (a 1x1 bottleneck first)"
    if non_overlapping:
        return (f"use a 3x3 kernel at stride {geometry.stride:g} instead of "
                f"{geometry.kh}x{geometry.kw} (a larger Ksize/Kstride keeps the MACs busier)")
    if geometry.out_h * geometry.out_w < 16:
        return "merge this conv with its neighbours: outputs under 16 pixels leave MACs idle"
    return "shrink the layer (fewer channels or pixels) if the model allows"


def check_low_mac_usage(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Compute-bound NPU conv layers with MacUsage below 20% (option RKN011.max_usage_pct),
        each at least 2% of the frame (RKN011.min_share), when a cause is visible in the shapes
        or the cycles. One finding per layer.

    Why it costs time:
        The NPU is busy but most of its MACs idle. User Guide §8.5.2 lists what lowers utilisation:
        channels not aligned to the platform table (they are padded: RK3588 INT8 pads conv
        input and output channels to 32), input channels above 512, KH*KW*KC*type_bytes above
        6 KB, output H*W below 16, a small Ksize/Kstride (a 2x2 stride-2 kernel reads each pixel
        once); depthwise convs use few MACs per byte.

    Example:
        #2 ConvExSwish (Conv:/model.0/conv/Conv) runs at 2.41% MAC usage for 16,130 us (12.6%):
        3 input channels not a multiple of 32; 16 output channels not a multiple of 32; NPU
        cycles are 21.3x the ideal (MACs / 1024 MACs per cycle)

    How to fix:
        One change from the worst visible cause: for a 3-channel first layer, a space-to-depth
        (Focus) stem; round output, then input channels up to the table (User Guide Tables
        8-1..8-4); keep input channels <= 512; a 3x3 kernel over 2x2 at the same stride; no
        tiny outputs.
        A busy layer with HIGH usage is not inefficient: shrink it instead (User Guide §8.2.2).

    Estimate:
        time x (1 - max(MACs/R, DDR cycles) / NPU cycles): the share of the layer's cycles
        spent on padding, where MACs/R is known (RK3588); else, from the alignment table alone,
        time x (1 - IC*OC / (pad(IC)*pad(OC))) (depthwise: 1 - C/pad(C)). An upper bound:
        channels that cannot shrink (RGB input) cannot be "fixed".
    """
    max_usage = opt(context, "RKN011", "max_usage_pct", 20.0)
    min_share = opt(context, "RKN011", "min_share", 0.02)
    freq = npu_clock_mhz(profile, context.platform)
    for layer in profile.layers:
        if layer.target is not Target.NPU or layer.bound is not Bound.COMPUTE:
            continue
        if conv_geometry(layer) is None or share(layer, profile) < min_share:
            continue
        usage = layer.mac_usage_pct
        if usage is None:
            estimate = mac_estimate(layer, context.platform, freq)
            usage = estimate.utilisation_pct if estimate else None
        if usage is None or usage >= max_usage:
            continue
        reasons, fraction = _compute_reasons(layer, context)
        time = layer.time_us or 0.0
        if not reasons and not fraction:
            continue  # nothing visible to change: no advice to give
        yield Finding(
            code="RKN011", name="low-mac-usage",
            severity=grade(time * fraction, total_us(profile), Severity.WARNING),
            message=(f"{label(layer)} runs at {usage:.2f}% MAC usage for {us(time)} "
                     f"({pct(share(layer, profile))} of the frame): "
                     + ("; ".join(reasons) if reasons else "no cause visible in the shapes")),
            fix=_compute_fix(layer, context),
            layer_ids=(layer.id,),
            est_saving_us=time * fraction,
            estimate=f"time x {fraction:.2f}: the share of NPU cycles spent on padding",
            source=cite("guide", "§8.5.1 Tables 8-1..8-4, §8.5.2"),
        )


RULES = (
    Rule("RKN011", "low-mac-usage", Severity.WARNING,
         "Compute-bound conv layers with low MAC utilisation", check_low_mac_usage,
         source=sources(cite("guide", "§8.2.2, §8.5.1 Tables 8-1..8-4, §8.5.2"))),
)
