"""RKN030 multi-core imbalance: NPU time on one core of a multi-core SoC (RK3588, RK3576)."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.model import Finding, Layer, Profile, Severity, Target
from rknnprof.rules._util import (
    grade,
    labels,
    multi_core_run,
    npu_cores,
    opt,
    pct,
    single_core_slot,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import cite, issue, sources

SOURCE = sources(cite("guide", "§5.3 (§5.3.2 op list, §5.3.3 tips), §5.6 multi-batch"),
                 cite("runtime-api", "rknn_set_core_mask"), cite("ops", "multi-core table"),
                 issue("PaddlePaddle/FastDeploy", 2284))
CONTEXT_PER_CORE = ("for throughput, run one context per core: rknn_dup_context, then "
                    "rknn_set_core_mask(ctx_i, RKNN_NPU_CORE_i), one thread per context")


def _unsplit_in_multi_core_run(profile: Profile, cores: int, total: float,
                               context: RuleContext) -> Iterator[Finding]:
    unsplit = [la for la in profile.layers if la.target is Target.NPU and single_core_slot(la)]
    spent = time_of(unsplit)
    if not unsplit or not total or spent / total < opt(context, "RKN030", "min_share", 0.05):
        return
    saving = spent * (1.0 - 1.0 / cores)
    kinds = sorted({la.op_type for la in unsplit}, key=lambda op: -time_of(
        la for la in unsplit if la.op_type == op))
    yield Finding(
        code="RKN030", name="multi-core-imbalance",
        severity=grade(saving, total, cap=Severity.WARNING),
        message=(f"under a multi-core mask, {len(unsplit)} NPU layer(s) ran on core 0 alone "
                 f"(WorkLoad 100%/0%/0%) for {us(spent)} ({pct(spent / total)} of the frame) while "
                 f"the other {cores - 1} core(s) idled; op types: {', '.join(kinds[:5])}; "
                 f"largest: {labels(unsplit)}"),
        fix=CONTEXT_PER_CORE.replace("run one context per core", "replace the multi-core "
                                     "context by one context per core"),
        layer_ids=tuple(la.id for la in unsplit),
        est_saving_us=saving,
        estimate=(f"unsplit time x (1 - 1/{cores}): the per-frame time one context per core "
                  "recovers by keeping the idle cores busy (throughput, not latency)"),
        source=SOURCE,
    )


def _single_core_run(profile: Profile, cores: int, total: float,
                     context: RuleContext) -> Iterator[Finding]:
    platform = context.platform
    npu = [la for la in profile.layers if la.target is Target.NPU]
    npu_time = time_of(npu)
    if platform is None or npu_time < opt(context, "RKN030", "min_npu_us", 5000.0):
        return
    split = [la for la in npu if la.op_type in platform.multi_core_ops]
    split_time = time_of(split)
    saving = split_time * (1.0 - 1.0 / cores)
    unsplit_kinds = sorted({la.op_type for la in npu if la.op_type not in platform.multi_core_ops},
                           key=lambda op: -time_of(la for la in npu if la.op_type == op))
    mask = "RKNN_NPU_CORE_0_1_2" if cores == 3 else "RKNN_NPU_CORE_0_1"
    split_share = pct(split_time / total) if total else "?"
    yield Finding(
        code="RKN030", name="multi-core-imbalance",
        severity=grade(saving, total, cap=Severity.WARNING),
        message=(f"single-core run on {platform.name} ({cores} NPU cores): {us(npu_time)} of NPU "
                 f"time on core 0. Only {us(split_time)} ({split_share}) "
                 f"is in op types that {mask} splits across cores"
                 + (f" (largest: {labels(split, 2)})" if split else "")
                 + (f"; {', '.join(unsplit_kinds[:3])} stay on core 0" if unsplit_kinds else "")),
        fix=(CONTEXT_PER_CORE + f" (up to {cores}x the frames per second); for latency, "
             f"{mask} would save at most {us(saving)}"),
        layer_ids=tuple(la.id for la in split),
        est_saving_us=saving,
        estimate=(f"latency with {mask}: splittable time x (1 - 1/{cores}) (a perfect split, "
                  "Amdahl); the throughput gain of one context per core is not counted"),
        source=SOURCE,
    )


def _fallback_warnings(profile: Profile, cores: int | None, total: float) -> Iterator[Finding]:
    failed = sorted({name for name, reason in profile.fallback_warnings
                     if "single core" in reason.lower()})
    if not failed:
        return
    layers: list[Layer] = [la for la in profile.layers
                           if la.full_name and la.full_name.strip() in failed]
    spent = time_of(layers)
    saving = spent * (1.0 - 1.0 / cores) if cores and cores > 1 else 0.0
    timed = f"; they take {us(spent)} in the table ({labels(layers)})" if layers else ""
    yield Finding(
        code="RKN030", name="multi-core-imbalance",
        severity=grade(saving, total, cap=Severity.WARNING, unknown=Severity.INFO),
        message=(f"the runtime could not split {len(failed)} layer(s) across cores and ran them "
                 f"on one core: {', '.join(failed[:3])}"
                 + (f" +{len(failed) - 3} more" if len(failed) > 3 else "") + timed),
        fix=("if such a layer is slow, move it out of the model (e.g. the YOLO DFL conv: cut the "
             "export before it, as the model zoo does); else " + CONTEXT_PER_CORE),
        layer_ids=tuple(la.id for la in layers),
        est_saving_us=saving,
        estimate="the named layers' time x (1 - 1/cores); 0 when they have no row in the table",
        source=SOURCE,
    )


def check_multi_core(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        On multi-core SoCs (RK3588: 3 cores, RK3576: 2): (a) in a multi-core run (some layer's
        WorkLoad uses a second core), NPU layers that still ran 100%/0%/0% on core 0, when they
        take at least 5% of the frame (option RKN030.min_share); (b) a single-core run with at
        least 5 ms of NPU time (RKN030.min_npu_us); (c) "Failed to config layer ... using 3Core
        fallback to single core mode" warnings.

    Why it costs time:
        The runtime splits only some ops across cores: Conv, DepthwiseConv, Add, Concat, Relu,
        Clip, Relu6, PRelu, LeakyRelu and their fused Conv forms (RK3576: Conv and Add).
        ConvExSwish, Softmax, Transpose, Resize, exSDPAttention and small layers "fallback to
        Core0" (User Guide §5.3.2); while they run, the other cores idle. Small networks can even
        slow down from single/multi-core switching.

    Example:
        under a multi-core mask, 40 NPU layer(s) ran on core 0 alone (WorkLoad 100%/0%/0%) for
        9,800 us (48.0% of the frame) while the other 2 core(s) idled; op types: ConvExSwish

    How to fix:
        For throughput, one context per core instead of one multi-core context
        (rknn_dup_context + rknn_set_core_mask RKNN_NPU_CORE_0 / _1 / _2, one thread each) or
        multi-batch (rknn_batch_size a multiple of the core count). For latency, only the
        splittable op types gain from RKNN_NPU_CORE_0_1_2 (ReLU-family activations split,
        SiLU does not).

    Estimate:
        (a) unsplit time x (1 - 1/cores): the per-frame time one context per core recovers
        (throughput). (b) splittable time x (1 - 1/cores): the latency a perfect multi-core
        split would save (Amdahl). (c) the named layers' time x (1 - 1/cores), 0 without rows.
    """
    cores = npu_cores(context, profile)
    total = total_us(profile)
    if cores and cores > 1:
        if multi_core_run(profile):
            yield from _unsplit_in_multi_core_run(profile, cores, total, context)
        elif any(single_core_slot(la) for la in profile.layers):
            yield from _single_core_run(profile, cores, total, context)
    yield from _fallback_warnings(profile, cores, total)


RULES = (
    Rule("RKN030", "multi-core-imbalance", Severity.WARNING,
         "NPU time on one core of a multi-core SoC: unsplit ops, single-core runs, "
         "multi-core fallback warnings", check_multi_core,
         source=SOURCE),
)
