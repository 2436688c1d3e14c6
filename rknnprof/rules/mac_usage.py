"""RKN011: compute-bound conv layers with low MAC usage whose channel padding a change removes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rknnprof.analysis.mac import (
    ConvGeometry,
    aligned_cycles,
    conv_geometry,
    mac_estimate,
    npu_clock_mhz,
)
from rknnprof.analysis.savings import Saving, from_cycles
from rknnprof.model import Bound, Finding, Layer, Profile, Severity, Target
from rknnprof.model.record import Record, record, replace
from rknnprof.rules._util import (
    alignment,
    claim,
    feeds,
    following,
    grade,
    label,
    of_frame,
    opt,
    padded,
    share,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import at_supported, note, outliers
from rknnprof.rules.sources import cite, sources

IMAGE_CHANNELS = 4
"""A conv with at most this many input channels reads the image (RGB, RGBA, grey): no change to
the model removes the padding of its input channels."""


def _feeds_output(layers: Sequence[Layer], index: int) -> bool:
    """The layer's output is a model output (an OutputOperator within 2 layers takes it): its
    channel count is fixed by what the application decodes (a detection head's classes)."""
    layer = layers[index]
    return any(
        la.op_type == "OutputOperator" and feeds(layer, la) for la in following(layers, index, 2)
    )


def _rounded_down(channels: int, multiple: int) -> int | None:
    """The multiple of ``multiple`` just below ``channels``, when the channels are above one
    multiple and misaligned; None otherwise (below the multiple, padding cannot be removed:
    fewer channels are still padded to ``multiple``, more cost nothing -- "widen" saves 0)."""
    if channels <= multiple or channels % multiple == 0:
        return None
    return channels // multiple * multiple


def _change(
    geometry: ConvGeometry, layer: Layer, layers: Sequence[Layer], index: int, context: RuleContext
) -> tuple[str, ConvGeometry] | None:
    """The one channel change that removes padding, and the geometry after it; None when no
    change can (the image input, a model output, channels below the alignment)."""
    align = alignment(layer, context)
    if align is None or geometry.kind != "conv":
        return None
    if not _feeds_output(layers, index):
        down = _rounded_down(geometry.out_c, align.conv_out)
        if down:
            return (f"{geometry.out_c} -> {down} output channels", replace(geometry, out_c=down))
    if geometry.in_c > IMAGE_CHANNELS:
        down = _rounded_down(geometry.in_c, align.conv_in)
        if down:
            return (
                f"{geometry.in_c} -> {down} input channels (from the producer)",
                replace(geometry, in_c=down),
            )
    return None


def check_low_mac_usage(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Compute-bound NPU conv layers with MacUsage below 20% (option RKN011.max_usage_pct),
        each at least 2% of the frame (RKN011.min_share), whose channel count sits just above a
        multiple of the platform's alignment (RK3588 INT8: 32), so that pruning to that multiple
        removes the padded channels the NPU computes. One finding for the model (one cause,
        one change), listing the layers slowest first.

        Silent where no change removes the padding: the image input (3 channels are padded to
        32 whatever the stem; a Focus/space-to-depth stem is no cheaper: a public yolov5n
        profile's s2d stem spends 2,624 us where a yolo26n profile's plain 3x3/s2 stem at the
        same 640 input and core takes 1,888 us, see Source); a
        model output (a detection head's channels are fixed by its classes); channels below the
        multiple (16 channels cost what 32 do: fewer save nothing, "widening" saves nothing);
        depthwise convs (cheaper than a regular conv: the yolo26n profile's #115 costs
        115,200 cycles against 518,400 for a regular 80->80 3x3).

    Why it costs time:
        The NPU computes channels in multiples of the alignment table (User Guide §8.5.1
        Tables 8-1..8-4): a 48-channel conv input is computed as 64.

    Example:
        #30 ConvRelu (Conv:/neck/conv) at 14.20% MAC usage for 2,400 us (4.1% of the frame):
        48 input channels are computed as 64, pruning to 32 removes 310 us

    How to fix:
        Prune the named channels to the multiple below (retrain or fine-tune; accuracy must
        be checked).

    Estimate:
        The NPU cycles the change removes (the alignment model of ``analysis.mac``, which
        matches the printed NPU cycles of RK3588 INT8 rows), at the NPU clock: only the share
        of the layer's time that its cycles explain is claimed (per layer), a single-frame
        outlier's at the time the log supports.
    """
    max_usage = opt(context, "RKN011", "max_usage_pct", 20.0)
    min_share = opt(context, "RKN011", "min_share", 0.02)
    platform = context.platform
    freq = npu_clock_mhz(profile, platform)
    from_log = bool(profile.frequencies and any(profile.frequencies.npu_hz))
    layers = profile.layers
    flagged = outliers(profile)
    found: list[_Padded] = []
    for index, layer in enumerate(layers):
        geometry = conv_geometry(layer)
        if layer.target is not Target.NPU or layer.bound is not Bound.COMPUTE:
            continue
        if geometry is None or platform is None or share(layer, profile) < min_share:
            continue
        estimate = mac_estimate(layer, platform, freq)
        usage = layer.mac_usage_pct
        if usage is None and estimate is not None:
            usage = estimate.utilisation_pct
        if usage is None or usage >= max_usage:
            continue
        change = _change(geometry, layer, layers, index, context)
        align = alignment(layer, context)
        if change is None or align is None:
            continue
        what, after = change
        cycles = aligned_cycles(after, layer, platform)
        if cycles is None:
            continue
        new_total = max(layer.ddr_cycles or 0, cycles)
        saving = from_cycles(
            [(at_supported(layer, flagged), new_total)],
            freq,
            f"{what}: NPU cycles {layer.npu_cycles} -> {cycles} (alignment model)",
            clock_from_log=from_log,
        )
        if not saving.total_us:
            continue
        computed = (
            f"{geometry.in_c} input channels are computed as {padded(geometry.in_c, align.conv_in)}"
            if "input" in what
            else f"{geometry.out_c} output channels are computed as "
            f"{padded(geometry.out_c, align.conv_out)}"
        )
        found.append(_Padded(layer, usage, what, computed, saving, new_total))
    caveat = note([p.layer for p in found], flagged)
    if len(found) == 1:
        yield _finding(found, found[0].saving, profile, caveat)
    elif found:
        yield _finding(
            found,
            from_cycles(
                [(at_supported(p.layer, flagged), p.cycles_after) for p in found],
                freq,
                f"{len(found)} convs pruned to the aligned channel count: the NPU cycles each "
                "pruning removes (alignment model)",
                clock_from_log=from_log,
            ),
            profile,
            caveat,
        )


@record
class _Padded(Record):
    """One conv whose padded channels a pruning removes."""

    layer: Layer
    usage_pct: float
    """MAC usage, percent (printed, else the MAC model's estimate)."""
    change: str
    """``48 -> 32 input channels (from the producer)``."""
    computed: str
    """``48 input channels are computed as 64``."""
    saving: Saving
    """This conv's saving alone."""
    cycles_after: int
    """max(DDR, NPU) cycles after the pruning."""


def _finding(found: list[_Padded], saving: Saving, profile: Profile, caveat: str) -> Finding:
    """One finding for every padded conv: one cause (channel padding), one change (prune to
    the alignment), the layers listed slowest first."""
    ranked = sorted(found, key=lambda p: -(p.layer.time_us or 0.0))
    shown = "; ".join(
        f"{label(p.layer)} at {p.usage_pct:.2f}% MAC usage for {us(p.layer.time_us or 0.0)} "
        f"({of_frame(share(p.layer, profile), profile)}): {p.computed}, pruning to "
        f"{p.change.split(' -> ')[1].split(' ')[0]}"
        + claim(profile, f" removes {us(p.saving.total_us)}")
        for p in ranked[:3]
    )
    more = f"; +{len(ranked) - 3} more" if len(ranked) > 3 else ""
    head = (
        ""
        if len(ranked) == 1
        else f"{len(ranked)} low-MAC-usage conv layer(s) compute padded channels that pruning "
        "removes" + claim(profile, f" ({us(saving.total_us)} together)") + ": "
    )
    changes = ", ".join(f"#{p.layer.id} {p.change}" for p in ranked)
    return Finding(
        code="RKN011",
        name="low-mac-usage",
        severity=grade(saving.total_us, total_us(profile), Severity.WARNING),
        message=f"{head}{shown}{more}{caveat}",
        fix=(
            f"prune each to the aligned channel count: {changes} (retrain or fine-tune, check "
            "the accuracy); the NPU computes the padded channels anyway"
        ),
        layer_ids=tuple(p.layer.id for p in ranked),
        estimate="NPU cycles removed by the channel change, at the clock, per layer",
        source=cite("guide", "§8.5.1 Tables 8-1..8-4, §8.5.2"),
        **saving.fields(),
    )


RULES = (
    Rule(
        "RKN011",
        "low-mac-usage",
        Severity.WARNING,
        "Low-MAC-usage convs whose channel padding a pruning change removes",
        check_low_mac_usage,
        source=sources(
            cite("guide", "§8.2.2, §8.5.1 Tables 8-1..8-4, §8.5.2"),
            cite("yolov5n-640", "(a space-to-depth stem)"),
            cite("yolo26n-640", "(a plain stem, a depthwise conv)"),
        ),
        basis=(
            "the NPU cycles a pruning to the aligned channel count removes, at the NPU clock, "
            "only for the share of the layer's time its cycles explain (per layer)"
        ),
        confidence="high with the log's own NPU clock, else medium (the platform's clock)",
    ),
)
