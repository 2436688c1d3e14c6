"""RKN010: bandwidth-bound layers taking a large share of the frame."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.mac import npu_clock_mhz
from rknnprof.analysis.savings import NONE
from rknnprof.model import Bound, BoundBasis, Finding, Layer, Profile, Severity, Target
from rknnprof.model.record import replace
from rknnprof.rules._util import (
    claim,
    label,
    labels,
    of_frame,
    opt,
    out_shape,
    share,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.quantize import covered_layers
from rknnprof.rules.sources import cite, sources


def _excess_us(layer: Layer, clock_mhz: float | None) -> float:
    """The DDR cycles above the NPU cycles, at the clock, microseconds (capped by the time):
    what a change that cut the bytes to the compute floor could save at most."""
    ddr, npu = layer.ddr_cycles or 0, layer.npu_cycles or 0
    if not clock_mhz or ddr <= npu:
        return 0.0
    return min(layer.time_us or 0.0, (ddr - npu) / clock_mhz)


def _bandwidth_fix(layers: list[Layer], context: RuleContext) -> str:
    """One change, chosen from what the slowest layers show."""
    for layer in layers[:3]:
        shape = out_shape(layer)
        if shape and len(shape) == 4 and shape[2] > shape[3]:
            return (
                f"lay {label(layer)}'s tensor out wider than tall (swap H and W, "
                f"{shape[2]}x{shape[3]} -> {shape[3]}x{shape[2]}): wide tensors are "
                "friendlier to DDR (User Guide §8.5.1 Figure 8-11)"
            )
    platform = context.platform
    if platform is not None and platform.feature("sram"):
        return (
            "enable the NPU SRAM (RKNN_FLAG_ENABLE_SRAM, User Guide §5.7) to relieve DDR, and "
            "re-measure: the guide warns it may also cost time"
        )
    return (
        f"shrink the tensors these layers move, starting with {label(layers[0])} (fewer "
        "channels or a lower input resolution)"
    )


def _counted(layers: list[Layer], labelled: list[Layer], left_out: dict[str, list[Layer]]) -> str:
    """``7 of the 18 bandwidth-bound layers (11 each under 1.0% of the frame …)``: how the
    finding's layers relate to the summary's bandwidth share, which counts every label."""
    if len(layers) == len(labelled):
        return f"{len(layers)} bandwidth-bound layer(s)"
    seen: set[int] = set()
    why = []
    for reason, group in left_out.items():
        fresh = [la for la in group if la.id not in seen]
        seen.update(la.id for la in fresh)
        if fresh:
            why.append(f"{len(fresh)} {reason}")
    return (
        f"{len(layers)} of the {len(labelled)} bandwidth-bound layers (not counted: "
        f"{'; '.join(why)})"
    )


def check_bandwidth_bound(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        NPU layers whose printed cycles say they wait on DDR (DDR cycles well above non-zero NPU
        cycles; rows with NPU cycles 0 are "not computed", not bandwidth-bound), each at least
        1% of the frame (option RKN010.min_layer_share), when together they take at least 5%
        (RKN010.min_share). FP16 layers that RKN002 advises quantizing are left to it: one cause,
        one finding.

    Why it costs time:
        The NPU waits on DDR: more MACs would not help, fewer bytes would (User Guide §8.2.4,
        §8.5.1). Tall narrow tensors are less DDR-friendly than wide short ones (Figure 8-11).

    Example:
        4 bandwidth-bound layer(s) take 5,400 us (6.2% of the frame) waiting on DDR; largest:
        #31 Conv (Conv:/head/Conv) 2,100 us, ...; their DDR cycles exceed their NPU cycles by
        2,300 us at 1000 MHz, the most a change that cut their bytes could save

    How to fix:
        One change, picked from the slowest layers: lay tall tensors out wide (swap H and W);
        on RK3588, the NPU SRAM (RKNN_FLAG_ENABLE_SRAM, User Guide §5.7), re-measured; else
        shrink the tensors (fewer channels, lower resolution).

    Estimate:
        0, severity info: no change the log can price. The guide gives no figure for the
        wide-layout or SRAM gains, and "time x (1 - NPU/DDR)" is tied to no change. The message
        shows the DDR cycles above the NPU cycles, at the clock, as the ceiling of any change
        that cuts the bytes.
    """
    min_layer = opt(context, "RKN010", "min_layer_share", 0.01)
    fp16 = {la.id for la in covered_layers(profile, context)}
    labelled = [la for la in profile.layers if la.bound is Bound.BANDWIDTH]
    left_out = {
        "without NPU cycles (labelled from RW rate or DDR cycles alone)": [
            la
            for la in labelled
            if la.bound_basis is not BoundBasis.CYCLES or not (la.npu_cycles or 0) > 0
        ],
        "FP16, left to RKN002": [la for la in labelled if la.id in fp16],
        f"each under {of_frame(min_layer, profile)} (RKN010.min_layer_share)": [
            la for la in labelled if share(la, profile) < min_layer
        ],
    }
    left = {id(la) for group in left_out.values() for la in group}  # by identity: linear
    layers = [la for la in labelled if la.target is Target.NPU and id(la) not in left]
    total = total_us(profile)
    spent = time_of(layers)
    if not layers or not total or spent / total < opt(context, "RKN010", "min_share", 0.05):
        return
    layers.sort(key=lambda la: -(la.time_us or 0.0))
    clock = npu_clock_mhz(profile, context.platform)
    excess = sum(_excess_us(la, clock) for la in layers)
    ceiling = claim(
        profile,
        f"; their DDR cycles exceed their NPU cycles by {us(excess)} at {clock:g} MHz, "
        "the most a change that cut their bytes could save"
        if clock and excess
        else "",
    )
    yield Finding(
        code="RKN010",
        name="bandwidth-bound",
        severity=Severity.INFO,
        message=(
            f"{_counted(layers, labelled, left_out)} take {us(spent)} "
            f"({of_frame(spent / total, profile)}) waiting on DDR; largest: "
            f"{labels(layers)}{ceiling}"
        ),
        fix=_bandwidth_fix(layers, context),
        layer_ids=tuple(la.id for la in layers),
        estimate="0: no change the log can price; the DDR excess over NPU cycles is a ceiling",
        source=cite("guide", "§8.2.4, §8.5.1, §5.7"),
        **replace(
            NONE,
            basis="no achievable change is priced by the log; the DDR excess "
            "is shown as a ceiling only",
        ).fields(),
    )


RULES = (
    Rule(
        "RKN010",
        "bandwidth-bound",
        Severity.INFO,  # it prices no change (saving 0), so it only ever reports at info
        "Bandwidth-bound layers taking a large share of the frame",
        check_bandwidth_bound,
        source=sources(cite("guide", "§8.2.4, §8.3, §8.5.1 (Figure 8-11), §5.7")),
        basis=(
            "none: no change the log can price; the DDR cycles above the NPU cycles are shown "
            "as a ceiling only"
        ),
        confidence="low (0 us claimed)",
    ),
)
