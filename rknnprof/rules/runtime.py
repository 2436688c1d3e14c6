"""Runtime-configuration rules: RKN030 multi-core, RKN031 sparse inference, RKN032 zero-copy
and cache sync."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.mac import conv_geometry
from rknnprof.model import Bound, Finding, Profile, Severity, Target
from rknnprof.platforms import dtype_key
from rknnprof.rules._util import opt, pct, share, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext


def _single_core(profile: Profile) -> bool | None:
    """True when every NPU layer ran 100% on core 0; None when the log has no WorkLoad."""
    loads = [la.workload_pct for la in profile.layers if la.target is Target.NPU and la.workload_pct]
    if not loads:
        return None
    return all(not any(slot > 0 for slot in load[1:]) for load in loads)


def check_multi_core(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        (a) A single-core run (WorkLoad 100%/0%/0% on every NPU layer) on a multi-core SoC
        (RK3588: 3 cores, RK3576: 2) with at least 5 ms of NPU time (option
        RKN030.min_npu_us). (b) "Failed to config layer ... using 3Core fallback to single
        core mode" warnings in the log.

    Why it costs time:
        By default (core_mask AUTO) a context uses one core. With RKNN_NPU_CORE_0_1_2 the
        runtime splits only some ops across cores -- Conv, DepthwiseConv, Add, Concat, Relu,
        Clip, Relu6, PRelu, LeakyRelu (and their fused Conv forms); ConvExSwish, Softmax,
        Transpose, Resize, exSDPAttention stay on Core0 (UG230 §5.3, OPL232 多核联合). Small
        networks can even slow down from core switching.

    Example:
        single-core run on rk3588 (3 NPU cores): NPU time 127303 us, of which 3239 us is in ops
        the runtime splits across cores (Add, Concat, Conv)

    How to fix:
        For latency: rknn_set_core_mask(ctx, RKNN_NPU_CORE_0_1_2) when much time is in
        splittable ops. For throughput: one context per core (rknn_dup_context, core_mask
        0/1/2, one thread each) or multi-batch (rknn_batch_size a multiple of the core count).
        Pin the app to a big core and fix NPU/DDR frequencies (UG230 §5.3.3).

    Estimate:
        Time of layers whose op type the platform splits x (1 - 1/cores) -- Amdahl's law with a
        perfect split of the splittable part. Fallback warnings: 0 (no time attached).

    Source:
        UG230 §5.3, §5.6; RT232 rknn_set_core_mask; OPL232 多核联合;
        PaddlePaddle/FastDeploy#2284; DOMAIN.md §4 notes, §7 #13, #14.
    """
    platform = context.platform
    cores = platform.npu_cores if platform is not None else None
    npu_layers = [la for la in profile.layers if la.target is Target.NPU]
    npu_time = time_of(npu_layers)
    if cores and cores > 1 and _single_core(profile) and npu_time >= opt(
        context, "RKN030", "min_npu_us", 5000.0
    ):
        split = [la for la in npu_layers if la.op_type in platform.multi_core_ops]
        split_time = time_of(split)
        kinds = ", ".join(sorted({la.op_type for la in split})) or "none"
        yield Finding(
            code="RKN030", name="multi-core", severity=Severity.INFO,
            message=(f"single-core run on {platform.name} ({cores} NPU cores): NPU time "
                     f"{us(npu_time)}, of which {us(split_time)} is in ops the runtime splits "
                     f"across cores ({kinds})"),
            fix=("latency: rknn_set_core_mask RKNN_NPU_CORE_0_1_2 if much time is splittable; "
                 "throughput: one context per core (rknn_dup_context + core_mask) or multi-batch"),
            layer_ids=tuple(la.id for la in split),
            est_saving_us=split_time * (1.0 - 1.0 / cores),
            estimate=f"splittable time x (1 - 1/{cores}) (perfect split, Amdahl)",
            source="UG230 §5.3, §5.6; OPL232 多核联合",
        )
    failed = sorted({name for name, reason in profile.fallback_warnings
                     if "single core" in reason.lower()})
    if failed:
        by_name = {la.full_name: la.id for la in profile.layers if la.full_name}
        yield Finding(
            code="RKN030", name="multi-core", severity=Severity.INFO,
            message=(f"{len(failed)} layer(s) could not be split across cores and run on one "
                     f"core: {', '.join(failed[:5])}"),
            fix=("expected for small or unsplittable layers; if one dominates, reshape it "
                 "(e.g. the YOLO DFL conv) or move it out of the model"),
            layer_ids=tuple(by_name[n] for n in failed if n in by_name),
            est_saving_us=0.0,
            estimate="no time is attached to the warning",
            source="PaddlePaddle/FastDeploy#2284; UG230 §5.3",
        )


def check_sparse_inference(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        On SoCs with sparse inference (RK3576; TK232 also names RV1126B): compute-bound INT8
        group-1 Conv layers with 32-aligned input and output channels, more than 32 output
        channels, and no sparsity (SparseRation 0% or absent), each at least 1% of the frame
        (option RKN031.min_share), when together at least 5% (RKN031.min_total_share).

    Why it costs time:
        Sparse inference skips zero weights in 4:2 (50%) or 16:4 (75%) patterns, cutting the
        MACs of compute-bound convs. It supports only 2-D Conv with group 1, 32-aligned
        channels, INT8 (UG230 §5.11 Table 5-12).

    Example:
        9 dense INT8 conv layer(s) take 8200 us (22.0%) on rk3576: sparse inference could cut
        about 4100 us

    How to fix:
        Retrain with autosparsity (sparsity_model mode 0..3), then build with
        rknn.config(target_platform='rk3576', sparse_infer=True); check the per-layer
        SparseRation at RKNN_LOG_LEVEL=4.

    Estimate:
        Half the time of the candidate layers (4:2 sparsity halves their MACs; upper bound for
        compute-bound layers).

    Source:
        UG230 §5.11 (Tables 5-10, 5-12); TK232 config sparse_infer; airockchip/rknn-toolkit2
        autosparsity; DOMAIN.md §8.
    """
    platform = context.platform
    if platform is None or not platform.feature("sparse_inference"):
        return
    min_share = opt(context, "RKN031", "min_share", 0.01)
    candidates = []
    for layer in profile.layers:
        geometry = conv_geometry(layer)
        if (layer.target is not Target.NPU or layer.bound is not Bound.COMPUTE or geometry is None
                or geometry.kind != "conv" or dtype_key(layer.data_type) != "int8"):
            continue
        if geometry.in_c % 32 or geometry.out_c % 32 or geometry.out_c <= 32:
            continue
        if layer.sparse_ratio not in (None, "0%") or share(layer, profile) < min_share:
            continue
        candidates.append(layer)
    total = total_us(profile)
    spent = time_of(candidates)
    if not candidates or not total or spent / total < opt(context, "RKN031", "min_total_share", 0.05):
        return
    yield Finding(
        code="RKN031", name="sparse-inference", severity=Severity.INFO,
        message=(f"{len(candidates)} dense INT8 conv layer(s) take {us(spent)} ({pct(spent / total)})"
                 f" on {platform.name}: sparse inference could cut about {us(spent * 0.5)}"),
        fix=("retrain with autosparsity and build with sparse_infer=True "
             f"(target_platform='{platform.name}')"),
        layer_ids=tuple(la.id for la in candidates),
        est_saving_us=spent * 0.5,
        estimate="half the candidates' time (4:2 sparsity halves their MACs)",
        source="UG230 §5.11; TK232 sparse_infer",
    )


def check_io_overhead(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        InputOperator/OutputOperator layers taking at least 3% of the frame together (option
        RKN032.min_share).

    Why it costs time:
        With the general API (rknn_inputs_set / rknn_outputs_get) the runtime copies inputs and
        outputs and converts layout and type on the CPU (e.g. 14.8 ms in rknn_inputs_set for a
        640x640 yolov5s, airockchip/rknn_model_zoo#167; FLOAT16/float outputs are dequantized).
        Cache flushes of cacheable buffers add more, outside the per-layer table.

    Example:
        Input/OutputOperator take 1134 us (5.6% of the frame): OutputOperator x9 1134 us

    How to fix:
        Use the zero-copy API: rknn_create_mem + rknn_set_io_mem, with pass_through and native
        layouts (NHWC input, NC1HWC2 outputs; width alignment per UG230 Table 5-2), and keep
        outputs quantized (no want_float) where post-processing can take int8. With cacheable
        buffers call rknn_mem_sync one-way (TO_DEVICE before run for inputs, FROM_DEVICE after
        for outputs); when RGA/GPU produce or consume the data, set
        RKNN_FLAG_DISABLE_FLUSH_INPUT/OUTPUT_MEM_CACHE and sync only where the CPU reads.

    Estimate:
        Upper bound: the IO layers' time (what zero-copy with native layouts removes).

    Source:
        UG230 §5.2 (Table 5-2), §5.10, §8.1.2; RT232 rknn_create_mem, rknn_mem_sync;
        airockchip/rknn_model_zoo#167; airockchip/librga#69; DOMAIN.md §7 #15-#16, §8.
    """
    io = [la for la in profile.layers if la.is_io]
    total = total_us(profile)
    spent = time_of(io)
    if not io or not total or spent / total < opt(context, "RKN032", "min_share", 0.03):
        return
    parts = []
    for op in ("InputOperator", "OutputOperator"):
        group = [la for la in io if la.op_type == op]
        if group:
            types = "/".join(sorted({la.data_type or "?" for la in group}))
            parts.append(f"{op} x{len(group)} {us(time_of(group))} ({types})")
    yield Finding(
        code="RKN032", name="io-copy", severity=Severity.INFO,
        message=(f"Input/OutputOperator take {us(spent)} ({pct(spent / total)} of the frame): "
                 + ", ".join(parts)),
        fix=("zero-copy: rknn_create_mem + rknn_set_io_mem with pass_through/native layouts; "
             "one-way rknn_mem_sync for cacheable buffers"),
        layer_ids=tuple(la.id for la in io),
        est_saving_us=spent,
        estimate="upper bound: the IO layers' time",
        source="UG230 §5.2, §5.10, §8.1.2; airockchip/rknn_model_zoo#167",
    )


RULES = (
    Rule("RKN030", "multi-core", Severity.INFO,
         "Single-core runs on multi-core SoCs and multi-core fallback warnings", check_multi_core),
    Rule("RKN031", "sparse-inference", Severity.INFO,
         "Dense INT8 convs that sparse inference could speed up (RK3576/RV1126B)",
         check_sparse_inference),
    Rule("RKN032", "io-copy", Severity.INFO,
         "Large Input/OutputOperator time: zero-copy and cache sync", check_io_overhead),
)
