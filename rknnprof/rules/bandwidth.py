"""RKN010: bandwidth-bound layers taking a large share of the frame."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.mac import conv_geometry
from rknnprof.model import Bound, Finding, Layer, Profile, Severity, Target
from rknnprof.platforms import dtype_key
from rknnprof.rules._util import (
    alignment,
    grade,
    label,
    labels,
    misaligned,
    opt,
    out_shape,
    pct,
    share,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import cite, sources


def _bandwidth_saving(layer: Layer) -> float:
    """Time above the layer's compute floor (cycles), or half of an FP16 layer's time."""
    time = layer.time_us or 0.0
    ddr, npu = layer.ddr_cycles or 0, layer.npu_cycles or 0
    if ddr > 0 and npu > 0:
        return max(0.0, time * (1.0 - npu / ddr))
    if dtype_key(layer.data_type) == "float16":
        return time * 0.5
    return 0.0


def _bandwidth_hints(layer: Layer, context: RuleContext) -> list[str]:
    hints: list[str] = []
    if dtype_key(layer.data_type) == "float16":
        hints.append("FP16 (INT8 halves the bytes)")
    shape = out_shape(layer)
    align = alignment(layer, context)
    if shape and len(shape) == 4:
        if shape[2] > shape[3]:
            hints.append(f"output taller than wide ({shape[2]}x{shape[3]})")
        if align is not None:
            geometry = conv_geometry(layer)
            want = align.conv_out if geometry and geometry.kind == "conv" else align.other
            if misaligned(shape[1], want):
                hints.append(f"{shape[1]} channels not a multiple of {want}")
    return hints


def _bandwidth_fix(layers: list[Layer], context: RuleContext) -> str:
    """One change, chosen from what the slowest layers show."""
    if any(dtype_key(la.data_type) == "float16" for la in layers[:3]):
        return "quantize these layers to INT8 (half the bytes of FP16)"
    for layer in layers[:3]:
        for hint in _bandwidth_hints(layer, context):
            if "channels not a multiple" in hint:
                want = hint.split()[-1]
                return (f"round {label(layer)}'s channels up to a multiple of {want}: padded "
                        "channels are read and written anyway")
            if "taller than wide" in hint:
                return (f"lay {label(layer)}'s tensor out wider than tall (swap H and W): wide "
                        "tensors are friendlier to DDR (User Guide Figure 8-11)")
    largest = layers[0]
    return (f"shrink the largest tensors, starting with {label(largest)} (fewer channels or a "
            "lower input resolution): its time scales with the bytes it moves")


def check_bandwidth_bound(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        NPU layers that analysis labelled bandwidth-bound (DDR cycles well above NPU cycles, or
        RW(KB)/Time near the platform's DDR bandwidth), each at least 1% of the frame (option
        RKN010.min_layer_share), when together they take at least 5% (RKN010.min_share).

    Why it costs time:
        The NPU waits on DDR: more MACs would not help, fewer bytes would (User Guide
        §8.2.4, §8.5.1). FP16 tensors are twice the bytes of INT8; misaligned channels are padded
        in memory; tall narrow tensors are less DDR-friendly than wide short ones (Figure 8-11).

    Example:
        12 bandwidth-bound layer(s) take 21,400 us (16.7% of the frame) waiting on DDR; largest:
        #9 Concat (Concat:/model.2/Concat) 2,002 us, #5 Split (Split:/model.2/Split) 1,195 us

    How to fix:
        One change, picked from the slowest layers: quantize FP16 layers to INT8; else round
        misaligned channels up to the platform table (User Guide Tables 8-1..8-4); else lay tall
        tensors out wide; else shrink the largest tensors (fewer channels, lower resolution).
        On RK3588, SRAM (RKNN_FLAG_ENABLE_SRAM, User Guide §5.7) can also relieve DDR.

    Estimate:
        Per layer: time x (1 - NPU/DDR cycles) -- the time above its compute floor -- when both
        cycle counts are printed; else half the time for FP16 layers (INT8 halves the bytes);
        else 0 (no floor is known).
    """
    min_layer = opt(context, "RKN010", "min_layer_share", 0.01)
    layers = [
        la for la in profile.layers
        if la.target is Target.NPU and la.bound is Bound.BANDWIDTH
        and share(la, profile) >= min_layer
    ]
    total = total_us(profile)
    spent = time_of(layers)
    if not layers or not total or spent / total < opt(context, "RKN010", "min_share", 0.05):
        return
    layers.sort(key=lambda la: -(la.time_us or 0.0))
    details = [f"#{la.id}: {', '.join(h)}" for la in layers[:3]
               if (h := _bandwidth_hints(la, context))]
    saving = sum(_bandwidth_saving(la) for la in layers)
    yield Finding(
        code="RKN010", name="bandwidth-bound", severity=grade(saving, total, Severity.WARNING),
        message=(f"{len(layers)} bandwidth-bound layer(s) take {us(spent)} ({pct(spent / total)} "
                 f"of the frame) waiting on DDR; largest: {labels(layers)}"
                 + (f". {'; '.join(details)}" if details else "")),
        fix=_bandwidth_fix(layers, context),
        layer_ids=tuple(la.id for la in layers),
        est_saving_us=saving,
        estimate=("time x (1 - NPU/DDR cycles) per layer; half the time for FP16 rows without "
                  "cycles"),
        source=cite("guide", "§8.2.4, §8.3, §8.5.1, §5.7"),
    )


RULES = (
    Rule("RKN010", "bandwidth-bound", Severity.WARNING,
         "Bandwidth-bound layers taking a large share of the frame", check_bandwidth_bound,
         source=sources(cite("guide", "§8.2.4, §8.3, §8.5.1 (Figure 8-11), §5.7"))),
)
