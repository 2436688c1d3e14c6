"""RKN030 multi-core: NPU time on one core of a multi-core SoC (RK3588, RK3576).

Latency and throughput are kept apart. A multi-core mask shortens a frame only where the runtime
splits a layer, by the speed-ups measured in the corpus (``analysis.savings.MULTI_CORE_SPEEDUP``:
Add 1.65x, Concat 1.56x, ConvExSwish 1.0x; not 3x); that is the latency saving. Idle cores give
frames per second with one context per core: a ``throughput_gain``, never ``est_saving_us``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rknnprof.analysis.mac import npu_clock_mhz
from rknnprof.analysis.savings import (
    MULTI_CORE_BASIS,
    MULTI_CORE_SPEEDUP,
    NONE,
    from_speedup,
    merged,
    saving_of,
)
from rknnprof.model import (
    Bound,
    Confidence,
    Finding,
    Layer,
    Profile,
    Severity,
    Target,
    ThroughputGain,
    is_multicore_fallback,
)
from rknnprof.rules._util import (
    claim,
    cores_of,
    first_few,
    grade,
    labels,
    multi_core_run,
    npu_cores,
    of_frame,
    opt,
    pct,
    single_core_slot,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.decoding import covered_layers as decode_layers
from rknnprof.rules.outliers import STALLED, Outlier, note, outliers, supported
from rknnprof.rules.sources import cite, issue, sources

SOURCE = sources(
    cite("guide", "§5.3 (§5.3.2 op list, §5.3.3 tips), §5.6 multi-batch"),
    cite("runtime-api", "rknn_set_core_mask"),
    cite("ops", "multi-core table"),
    issue("PaddlePaddle/FastDeploy", 2284),
    cite("yolov8n-pair"),
    cite("yolov8n-3core", "plain Conv rows #70, #88, #102 split 33/33/33"),
    cite("smolvla-rope-3core", "broadcast Mul rows on core 0, same-shape Add split"),
)
MEASURED_CORES = 3
"""The speed-ups below were measured on RK3588's three cores against one."""
CONV_SPLIT_SPEEDUP: tuple[tuple[int, float], ...] = (
    (22_215, 1.05),
    (87_702, 1.84),
    (349_652, 1.77),
)
"""(max(DDR, NPU) cycles, speed-up) of a plain 1x1 Conv split over three cores, per cycle:
the yolov8n head convs #102, #88, #70 of a public three-core profile (87, 199, 397 us for
22,215, 87,702, 349,652 cycles) against the same convs of the one-core profile (118, 480,
928 us for 28,800, 115,200, 460,800 cycles): time per cycle 4.10 -> 3.92, 4.17 -> 2.27,
2.01 -> 1.14 ns. Between the points linear in log(cycles); below the smallest 1.0 (a small
conv stays under the split granularity), above the largest its figure."""
SPLIT_CONVS = frozenset(
    {
        "Conv",
        "ConvRelu",
        "ConvClip",
        "ConvRelu6",
        "ConvLeakyRelu",
        "ConvPRelu",
        "ConvAdd",
        "ConvAddRelu",
    }
)
"""Conv op types the operator list splits across cores (ConvolutionRelu/Clip/PRelu/Add)."""
CONV_BASIS = (
    "plain INT8 convs by their cycles at the speed-up a public three-core yolov8n profile "
    "measures against the one-core one per cycle (1.05x at 22,215 cycles, 1.84x at 87,702, "
    "1.77x at 349,652)"
)


def conv_speedup(layer: Layer) -> float:
    """The measured three-core speed-up of a plain conv of this many cycles
    (:data:`CONV_SPLIT_SPEEDUP`)."""
    import math

    cycles = max(layer.ddr_cycles or 0, layer.npu_cycles or 0)
    points = CONV_SPLIT_SPEEDUP
    if cycles < points[0][0]:
        return 1.0
    for (c0, s0), (c1, s1) in zip(points, points[1:]):
        if cycles <= c1:
            t = (math.log(cycles) - math.log(c0)) / (math.log(c1) - math.log(c0))
            return s0 + t * (s1 - s0)
    return points[-1][1]


def on_cores(speedup: float, cores: int) -> float:
    """A speed-up measured on RK3588's three cores, on ``cores`` cores by Amdahl's law: the
    share of the layer the three cores split, ``p = (1 - 1/s) / (1 - 1/3)``, split ``cores``
    ways (``1.65`` -> ``1.42`` on two)."""
    if cores == MEASURED_CORES or speedup <= 1.0:
        return speedup
    share = min(1.0, (1.0 - 1.0 / speedup) / (1.0 - 1.0 / MEASURED_CORES))
    return 1.0 / ((1.0 - share) + share / cores)


def _conv_split_us(layer: Layer, clock_mhz: float | None, cores: int) -> float:
    """A plain conv's saving split over the cores: time x (1 - 1/speed-up), never below its
    DDR cycles at the clock (the cores share one DDR: the measured pair's three-core conv ran
    at 1.14x its DDR cycles)."""
    time = layer.time_us or 0.0
    floor = (layer.ddr_cycles or 0) / clock_mhz if clock_mhz else 0.0
    speedup = on_cores(conv_speedup(layer), cores)
    return max(0.0, min(time * (1.0 - 1.0 / speedup), time - floor))


CONTEXT_PER_CORE = (
    "run one context per core for frames per second: rknn_dup_context, then "
    "rknn_set_core_mask(ctx_i, RKNN_NPU_CORE_i), one thread per context"
)


def _contexts(cores: int, busy: str) -> ThroughputGain:
    """One context per core: up to ``cores`` x the frames per second."""
    return ThroughputGain(
        float(cores),
        f"{cores} NPU cores with one context each; an upper bound, the contexts share DDR; {busy}",
    )


def core0_only(cores: int) -> str:
    """The WorkLoad column of a layer all on core 0, as the runtime prints it for ``cores``
    cores: ``100%/0%/0%`` (RK3588), ``100%/0%`` (RK3576)."""
    return "/".join(["100%"] + ["0%"] * (cores - 1))


def _unsplit_in_multi_core_run(
    profile: Profile, cores: int, total: float, context: RuleContext
) -> Iterator[Finding]:
    unsplit = [la for la in profile.layers if la.target is Target.NPU and single_core_slot(la)]
    spent = time_of(unsplit)
    if not unsplit or not total or spent / total < opt(context, "RKN030", "min_share", 0.05):
        return
    kinds = sorted(
        {la.op_type for la in unsplit},
        key=lambda op: (-time_of(la for la in unsplit if la.op_type == op), op),
    )
    yield Finding(
        code="RKN030",
        name="multi-core-imbalance",
        severity=grade(spent * (1.0 - 1.0 / cores), total, cap=Severity.WARNING),
        message=(
            f"under a multi-core mask, {len(unsplit)} NPU layer(s) ran on core 0 alone (WorkLoad "
            f"{core0_only(cores)}) for {us(spent)} ({of_frame(spent / total, profile)}) while the "
            f"other {cores - 1} core(s) idled; op types: {first_few(kinds, 5)}; "
            f"largest: {labels(unsplit)}"
        ),
        fix=CONTEXT_PER_CORE + " instead of one multi-core context",
        layer_ids=tuple(la.id for la in unsplit),
        estimate="0 latency: these op types do not split; the idle cores are throughput",
        source=SOURCE,
        throughput_gain=_contexts(
            cores, f"{pct(spent / total)} of this frame kept one core busy and the others idle"
        ),
        **NONE.fields(),
    )


def _outlier_note(split: list[Layer], waiting: list[Layer], flagged: Mapping[int, Outlier]) -> str:
    """The single-frame outliers among the op types with a measured speed-up, and which of them
    their twin's time makes bandwidth-bound (so not counted)."""
    sped = [la for la in split if la.op_type in MULTI_CORE_SPEEDUP]
    text = note(sped, flagged)
    ids = {la.id for la in waiting}
    slow = [f"#{la.id}" for la in sped if la.id in flagged and la.id in ids]
    if slow:
        text += (
            f"; at those times {', '.join(slow)} move their bytes at the DDR's rate, "
            "bandwidth-bound like their twins: not counted"
        )
    return text


BROADCAST_ON_CORE_0 = frozenset({"Mul", "MulRelu"})
"""Op types the operator list splits that a public three-core log ran on core 0 when one input
is broadcast (a SmolVLA query probe: Mul (1,50,15,32) x (1,50,1,32) 100%/0%/0% four times, while
its same-shape Add split 33/33/33): such a layer is not counted as splitting."""


def _broadcast(layer: Layer) -> bool:
    """A Mul whose inputs have different shapes (one broadcast over the other)."""
    shapes = [s for s in layer.input_shapes or () if s]
    return layer.op_type in BROADCAST_ON_CORE_0 and len(set(shapes)) > 1


def _single_core_run(
    profile: Profile, cores: int, total: float, context: RuleContext
) -> Iterator[Finding]:
    platform = context.platform
    npu = [la for la in profile.layers if la.target is Target.NPU]
    npu_time = time_of(npu)
    if platform is None or npu_time < opt(context, "RKN030", "min_npu_us", 5000.0):
        return
    removed = {la.id for la in decode_layers(profile, context)}  # RKN060 cuts them out
    split = [
        la
        for la in npu
        if la.op_type in platform.multi_core_ops and la.id not in removed and not _broadcast(la)
    ]
    # priced at the times the log supports: a slow sibling at its twin's time, and bound; a
    # stalled layer (RKN051) is left out, named in the caveat
    flagged = outliers(profile)
    splitting = split  # (the op types the mask splits, stalled layers' included)
    stalled_ids = {i for i, o in flagged.items() if o.because == STALLED}
    stalled = [la for la in splitting if la.id in stalled_ids]
    split = [la for la in splitting if la.id not in stalled_ids]  # (by id: see `waits` below)
    at = supported(split, flagged)
    # bandwidth-bound layers share one DDR whatever the cores: no latency is claimed for them
    waiting = [la for la in at if la.bound is Bound.BANDWIDTH]
    # by identity: a layer's equality compares every field, and a 300,000-row table made
    # `la not in waiting` quadratic (minutes)
    waits = {id(la) for la in waiting}
    pairable = [
        la
        for la in at
        if la.op_type in SPLIT_CONVS
        and id(la) not in waits
        and (la.data_type or "").upper() in ("INT8", "UINT8")  # the measured pair's type
        and max(la.ddr_cycles or 0, la.npu_cycles or 0)
    ]
    convs = [la for la in pairable if conv_speedup(la) > 1.0]
    small = [la for la in pairable if conv_speedup(la) <= 1.0]
    # convs of another data type (FP16): the measured conv speed-ups are INT8's
    other_type = [
        la
        for la in at
        if la.op_type in SPLIT_CONVS
        and id(la) not in waits
        and la.data_type
        and la.data_type.upper() not in ("INT8", "UINT8")
    ]
    conv_ids = {id(la) for la in (*convs, *small, *other_type)}
    clock = npu_clock_mhz(profile, platform)
    # (ConvExSwish's 1.0x is RK3588 keeping it on core 0, no measure of a split elsewhere)
    measured = [
        la for la in at if MULTI_CORE_SPEEDUP.get(la.op_type, 1.0) > 1.0 and id(la) not in waits
    ]
    unmeasured = sorted(
        {la.op_type for la in at if id(la) not in waits and id(la) not in conv_ids}
        - {la.op_type for la in measured},
        key=lambda op: (-time_of(la for la in at if la.op_type == op), op),
    )
    speedups = {op: on_cores(s, cores) for op, s in MULTI_CORE_SPEEDUP.items()}
    scaled = cores != MEASURED_CORES
    # (on another core count the three-core figures are scaled: a model, said so, low)
    scaling = (
        f"; scaled to {cores} cores by Amdahl's law, the share of each layer three cores split "
        f"kept (Add {speedups['Add']:.2f}x, Concat {speedups['Concat']:.2f}x)"
        if scaled
        else ""
    )
    confidence = Confidence.LOW if scaled else Confidence.MEDIUM
    saving = merged(
        [
            from_speedup(measured, speedups, MULTI_CORE_BASIS + scaling, confidence),
            saving_of(
                ((la, _conv_split_us(la, clock, cores)) for la in convs),
                CONV_BASIS + scaling,
                confidence,
            ),
        ]
    )
    caveat = _outlier_note(split, waiting, flagged) + note(stalled, flagged)
    mask = "RKNN_NPU_CORE_0_1_2" if cores == 3 else "RKNN_NPU_CORE_0_1"
    stays = sorted(
        {la.op_type for la in npu if la.op_type not in platform.multi_core_ops},
        key=lambda op: (-time_of(la for la in npu if la.op_type == op), op),
    )
    kinds = ", ".join(sorted({la.op_type for la in splitting}))
    latency = (
        f"Under {mask} only {kinds} split"
        + claim(
            profile,
            (
                f"; at RK3588's three-core speed-ups scaled to {cores} cores (Add "
                f"{speedups['Add']:.2f}x, Concat {speedups['Concat']:.2f}x, plain convs "
                f"1.0-{on_cores(CONV_SPLIT_SPEEDUP[1][1], cores):.1f}x by their cycles)"
                if scaled
                else "; at the multi-core speed-ups measured (Add 1.65x, Concat 1.56x, plain "
                "convs 1.0-1.8x by their cycles)"
            )
            + f" that cuts {us(saving.total_us)} per frame",
        )
        if splitting
        else f"{mask} splits none of these op types"
    )
    if removed:
        latency += f" (the {len(removed)} decode layer(s) RKN060 cuts out are left out)"
    left_out = []
    if unmeasured:
        time = time_of(
            la
            for la in at
            if la.op_type in unmeasured and id(la) not in waits and id(la) not in conv_ids
        )
        left_out.append(f"{first_few(unmeasured)} {us(time)} (no measured speed-up)")
    if other_type:
        types = "/".join(sorted({la.data_type for la in other_type if la.data_type}))
        left_out.append(
            f"{len(other_type)} {types} conv(s) {us(time_of(other_type))} (the conv speed-ups "
            "measured are INT8's)"
        )
    if small:
        left_out.append(
            f"{len(small)} conv(s) under {CONV_SPLIT_SPEEDUP[0][0]:,} cycles "
            f"{us(time_of(small))} (1.0x measured: below the split granularity)"
        )
    if waiting:
        left_out.append(
            f"{len(waiting)} bandwidth-bound layer(s) {us(time_of(waiting))} (the "
            "cores share one DDR)"
        )
    if left_out:
        latency += f"; not counted: {', '.join(left_out)}"
    where = (
        f"(every WorkLoad {core0_only(cores)}; {us(npu_time)} of NPU time on core 0, "
        f"{'the other core' if cores == 2 else f'the other {cores - 1}'} idle)"
    )
    yield Finding(
        code="RKN030",
        name="multi-core-imbalance",
        severity=grade(saving.total_us, total, cap=Severity.WARNING)
        if saving.total_us
        else Severity.INFO,
        message=(
            (
                f"the run used 1 of {platform.name}'s {cores} NPU cores {where}."
                if splitting
                # (op types that stay on core 0 under any mask print this WorkLoad under every
                # mask: the log cannot tell which one the run had)
                else f"every layer ran on core 0 of {platform.name}'s {cores} NPU cores {where}, "
                "as its op types do under any core mask: which mask the run had, the log "
                "cannot tell."
            )
            + f" {latency}"
            + (f"; {first_few(stays)} stay on core 0 under any mask" if stays else "")
            + caveat
        ),
        fix=(
            f"for frames per second, one context per core: rknn_dup_context, then "
            f"rknn_set_core_mask(ctx_i, RKNN_NPU_CORE_i), one thread each (up to {cores}x); for "
            f"one frame's latency, rknn_set_core_mask(ctx, {mask})"
            + (" (for the op types above that split)" if splitting else " (no gain here)")
        ),
        layer_ids=tuple(la.id for la in split),
        estimate=f"latency with {mask}: the measured speed-ups of the splittable op types",
        source=SOURCE,
        throughput_gain=_contexts(cores, "this run kept every layer on core 0"),
        **saving.fields(),
    )


def _fallback_warnings(profile: Profile, cores: int | None, total: float) -> Iterator[Finding]:
    failed = sorted(
        {name for name, reason in profile.fallback_warnings if is_multicore_fallback(reason)}
    )
    if not failed:
        return
    layers: list[Layer] = [
        la for la in profile.layers if la.full_name and la.full_name.strip() in failed
    ]
    spent = time_of(layers)
    timed = f"; they take {us(spent)} in the table ({labels(layers)})" if layers else ""
    yield Finding(
        code="RKN030",
        name="multi-core-imbalance",
        severity=Severity.INFO,
        message=(
            f"the runtime could not split {len(failed)} layer(s) across cores and ran them "
            f"on one core: {first_few(failed)}"
            + (f" +{len(failed) - 3} more" if len(failed) > 3 else "")
            + timed
        ),
        fix=(
            "if such a layer is slow, move it out of the model (e.g. the YOLO DFL conv: cut the "
            "export before it, as the model zoo does); else " + CONTEXT_PER_CORE
        ),
        layer_ids=tuple(la.id for la in layers),
        estimate="0: the log gives no speed-up for these layers split",
        source=SOURCE,
        throughput_gain=_contexts(cores, "these layers keep one core busy")
        if cores and cores > 1
        else None,
        **NONE.fields(),
    )


def check_multi_core(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        On multi-core SoCs (RK3588: 3 cores, RK3576: 2): (a) in a multi-core run (some layer's
        WorkLoad uses a second core), NPU layers that still ran 100%/0%/0% on core 0, when they
        take at least 5% of the frame (option RKN030.min_share); (b) a run on one core (every
        WorkLoad 100%/0%/0%, e.g. a deliberate core mask 0) with at least 5 ms of NPU time
        (RKN030.min_npu_us): what the idle cores could give, not an "imbalance" (unless other
        processes of the same model in the capture kept the other cores busy: one context per
        core is already the setup); (c) "Failed to config layer ... using 3Core fallback to
        single core mode" warnings.

    Why it costs time:
        The runtime splits only some ops across cores: Conv, DepthwiseConv, Add, Concat, Relu,
        Clip, Relu6, PRelu, LeakyRelu and their fused Conv forms. ConvExSwish, Softmax,
        Transpose, Resize, exSDPAttention and small layers "fallback to Core0" (User Guide
        §5.3.2). Even split layers gain far less than the core count: a public RK3588 yolov8n
        profile, one core against three, measures Add 1.65x, Concat 1.56x, ConvExSwish 1.0x. A
        Mul with one input broadcast stays on core 0 though the operator list splits Mul (a
        public three-core profile, see Source): it is not counted as splitting.

    Example:
        the run used 1 of rk3588's 3 NPU cores (every WorkLoad 100%/0%/0%; 14,370 us of NPU
        time on core 0, the other 2 idle). Under RKNN_NPU_CORE_0_1_2 only Add, Concat, Conv
        split; at the multi-core speed-ups measured (Add 1.65x, Concat 1.56x) that cuts 522 us
        per frame; not counted: Conv 810 us (no measured speed-up); ConvExSwish, ConvSigmoid,
        MaxPool stay on core 0 under any mask

    How to fix:
        For throughput, one context per core (rknn_dup_context + rknn_set_core_mask
        RKNN_NPU_CORE_0 / _1 / _2, one thread each) or multi-batch (rknn_batch_size a multiple
        of the core count): the ``throughput_gain`` (up to the core count). For latency, a
        multi-core mask helps only the splittable op types.

    Estimate:
        Latency (``est_saving_us``): (b) the splittable layers whose op type has a speed-up
        measured (public yolov8n profiles, 1 core vs 3), time x (1 - 1/speed-up): Add, Concat,
        and plain INT8 Conv/ConvRelu/ConvClip/ConvAdd by their max(DDR, NPU) cycles (the head's
        1x1 convs of the three-core profile against the one-core one, per cycle: 1.05x at
        22,215 cycles, 1.84x at 87,702, 1.77x at 349,652; 1.0x below, log-linear between),
        never below the conv's DDR cycles at the clock; other splittable op types have none
        and are not counted (the message says how much time that leaves out), nor are layers
        labelled bandwidth-bound (the cores share one DDR), nor the decode layers RKN060 cuts
        out of the model.
        (a), (c): 0. The idle cores go to ``throughput_gain``: up to the core count in frames
        per second. A layer RKN050 flags as a single-frame outlier counts at the time the log
        supports, named in the message; a slow sibling takes its twin's bound with its time, so
        one whose twin moves its bytes at the DDR's rate is not counted either.
    """
    cores = npu_cores(context, profile)
    total = total_us(profile)
    if cores and cores > 1:
        if multi_core_run(profile):
            yield from _unsplit_in_multi_core_run(profile, cores, total, context)
        elif any(single_core_slot(la) for la in profile.layers) and not (
            context.busy_cores - cores_of(profile)
        ):  # (other processes of the model on the other cores: one context per core already)
            yield from _single_core_run(profile, cores, total, context)
    yield from _fallback_warnings(profile, cores, total)


RULES = (
    Rule(
        "RKN030",
        "multi-core-imbalance",
        Severity.WARNING,
        "NPU time on one core of a multi-core SoC: measured multi-core latency, idle cores as "
        "throughput",
        check_multi_core,
        source=SOURCE,
        basis=(
            "latency: multi-core speed-ups measured on public yolov8n profiles, 1 core against "
            "3 (Add 1.65x, Concat 1.56x, ConvExSwish 1.0x; plain INT8 convs by their cycles, "
            "1.0x under 22k cycles to 1.8x, never below their DDR cycles); on another core "
            "count (RK3576's two) those scaled by Amdahl's law; no layer RKN060 removes; a "
            "single-frame outlier at the time the log supports; idle cores: throughput_gain, "
            "never latency"
        ),
        confidence=(
            "medium (measured on a public yolov8n profile, 1 core against 3, not on this "
            "model); low when scaled to another core count"
        ),
    ),
)
