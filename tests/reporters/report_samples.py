"""Hand-built reports for reporter tests (no parser needed).

They imitate a small RK3588 YOLO head: shapes and cycles in the spirit of corpus logs 01/07/36,
a CPU fallback, a 3-core layer, 0/0/0 rows and findings; plus profiles without layers
(ranking only, totals only, benchmark only) and a build-time estimate.
"""

from __future__ import annotations

import io
from dataclasses import replace

from rknnprof.model import (
    BenchmarkRun,
    Bound,
    BoundBasis,
    Finding,
    Layer,
    OpTypeStat,
    Profile,
    Report,
    ReportWarning,
    Severity,
    SkippedRow,
    SourceSpan,
    Target,
    Versions,
)
from rknnprof.reporters import RenderOptions, get_reporter


def _layer(id, op, target, dtype, ins, outs, cycles, time_us, mac, work, rw, name, bound, basis):
    ddr, npu, total = cycles if cycles else (None, None, None)
    return Layer(
        id=id,
        op_type=op,
        target=target,
        data_type=dtype,
        input_shapes=ins,
        output_shapes=outs,
        ddr_cycles=ddr,
        npu_cycles=npu,
        total_cycles=total,
        time_us=time_us,
        mac_usage_pct=mac,
        workload_pct=work,
        rw_kb=rw,
        full_name=name,
        bound=bound,
        bound_basis=basis,
        line=10 + id,
    )


ONE = (100.0, 0.0, 0.0)
NONE3 = (0.0, 0.0, 0.0)
NPU, CPU = Target.NPU, Target.CPU
C, B, U, BAL, K = Bound.COMPUTE, Bound.BANDWIDTH, Bound.UNKNOWN, Bound.BALANCED, Bound.CPU
CY, RW, TG, NO = BoundBasis.CYCLES, BoundBasis.RW_RATE, BoundBasis.TARGET, BoundBasis.NONE

HAND_LAYERS = (
    _layer(
        1,
        "InputOperator",
        CPU,
        "UINT8",
        None,
        ((1, 3, 640, 640),),
        (0, 0, 0),
        12,
        None,
        NONE3,
        0,
        "InputOperator:images",
        K,
        TG,
    ),
    _layer(
        2,
        "ConvExSwish",
        NPU,
        "UINT8",
        ((1, 3, 640, 640), (16, 3, 3, 3), (16,)),
        ((1, 16, 320, 320),),
        (164250, 921600, 921600),
        1888,
        2.29,
        ONE,
        1202,
        "Conv:/model.0/conv/Conv",
        C,
        CY,
    ),
    _layer(
        3,
        "ConvExSwish",
        NPU,
        "INT8",
        ((1, 16, 320, 320), (32, 16, 3, 3), (32,)),
        ((1, 32, 160, 160),),
        (140938, 230400, 230400),
        534,
        21.57,
        ONE,
        1604,
        "Conv:/model.1/conv/Conv",
        C,
        CY,
    ),
    _layer(
        4,
        "Split",
        NPU,
        "INT8",
        ((1, 32, 160, 160), (2,)),
        ((1, 16, 160, 160),),
        (623388, 0, 623388),
        1195,
        None,
        ONE,
        7200,
        "Split:/model.2/Split",
        B,
        CY,
    ),
    _layer(
        5,
        "Add",
        NPU,
        "INT8",
        ((1, 16, 160, 160), (1, 16, 160, 160)),
        ((1, 16, 160, 160),),
        (0, 0, 0),
        113,
        None,
        ONE,
        800,
        "Add:/model.2/m.0/Add",
        U,
        NO,
    ),
    _layer(
        6,
        "Concat",
        NPU,
        "INT8",
        ((1, 16, 160, 160), (1, 16, 160, 160)),
        ((1, 48, 160, 160),),
        (935081, 0, 935081),
        2002,
        None,
        ONE,
        10800,
        "Concat:/model.2/Concat",
        B,
        CY,
    ),
    _layer(
        7,
        "ConvExSwish",
        NPU,
        "INT8",
        ((1, 48, 160, 160), (64, 48, 1, 1), (64,)),
        ((1, 64, 160, 160),),
        (164308, 204800, 204800),
        922,
        8.33,
        (33.3, 33.3, 33.3),
        1203,
        "Conv:/model.2/cv2/conv/Conv",
        BAL,
        CY,
    ),
    _layer(
        8,
        "Transpose",
        CPU,
        "FLOAT16",
        ((1, 64, 80, 80),),
        ((1, 80, 80, 64),),
        (0, 0, 0),
        3150,
        None,
        NONE3,
        800,
        "Transpose:/model.22/dfl/Transpose|a",
        K,
        TG,
    ),
    _layer(
        9,
        "exSDPAttention",
        NPU,
        "INT8",
        ((2, 32, 1, 400), (2, 32, 1, 400)),
        ((2, 64, 1, 400),),
        (0, 0, 0),
        1338,
        None,
        ONE,
        100,
        "exSDPAttention:node_matmul_1#1_2sdpa",
        U,
        NO,
    ),
    _layer(
        10,
        "Reshape",
        NPU,
        "INT8",
        ((2, 64, 1, 400), (4,)),
        ((1, 128, 20, 20),),
        (0, 0, 0),
        0,
        None,
        NONE3,
        50,
        "Reshape:node_view_3",
        U,
        NO,
    ),
    _layer(
        11,
        "ConvSigmoid",
        NPU,
        "INT8",
        ((1, 64, 120, 120), (3, 64, 1, 1), (3,)),
        ((1, 3, 120, 120),),
        (58465, 57600, 58465),
        429,
        0.63,
        ONE,
        900,
        "Conv:/model.22/cv3.1/cv3.1.2/Conv",
        BAL,
        CY,
    ),
    _layer(
        12,
        "OutputOperator",
        CPU,
        "INT8",
        ((1, 3, 120, 120),),
        None,
        (0, 0, 0),
        57,
        None,
        NONE3,
        450,
        "OutputOperator:onnx::ReduceSum_351",
        K,
        TG,
    ),
)
HAND_TOTAL = sum(la.time_us for la in HAND_LAYERS)  # 11640 us


def _with_shares(layers: tuple[Layer, ...]) -> tuple[Layer, ...]:
    from dataclasses import replace

    total = sum(la.time_us or 0 for la in layers)
    return tuple(replace(la, time_share=(la.time_us or 0) / total) for la in layers)


def _op_stats(layers: tuple[Layer, ...]) -> tuple[OpTypeStat, ...]:
    total = sum(la.time_us or 0 for la in layers)
    by_op: dict[str, list[Layer]] = {}
    for la in layers:
        by_op.setdefault(la.op_type, []).append(la)
    stats = []
    for op, group in by_op.items():
        cpu = sum(la.time_us for la in group if la.target is CPU)
        npu = sum(la.time_us for la in group if la.target is NPU)
        stats.append(OpTypeStat(op, len(group), cpu, npu, cpu + npu, share=(cpu + npu) / total))
    stats.sort(key=lambda s: -s.total_time_us)
    return tuple(stats)


HAND_FINDINGS = (
    Finding(
        code="RKN001",
        name="cpu-fallback",
        severity=Severity.ERROR,
        message="Transpose runs on the CPU (3150 us, 27.1% of the frame) between NPU layers",
        fix="Move the Transpose out of the graph or keep H*W*C <= 8192 so it stays on the NPU",
        layer_ids=(8,),
        est_saving_us=2835.0,
        estimate="CPU time minus 10% for an NPU equivalent",
        source="RKNN User Guide 5.4",
    ),
    Finding(
        code="RKN010",
        name="bandwidth-bound-concat",
        severity=Severity.WARNING,
        message="Concat and Split move 18000 KB with no compute <&> (2 layers)",
        fix="Let the compiler fuse Concat into the producer convs | align channels to 16",
        layer_ids=(4, 6),
        est_saving_us=1598.5,
        estimate="half of the layers' time",
    ),
    Finding(
        code="RKN020",
        name="single-core",
        severity=Severity.INFO,
        message="11 of 12 layers ran on core 0 only",
        fix="Set core_mask=RKNN_NPU_CORE_0_1_2 for multi-core execution",
        layer_ids=(2, 3),
        est_saving_us=0.0,
    ),
)

HAND_PROFILE = Profile(
    source=SourceSpan("logs/yolo_rk3588.txt", 3, 40),
    format="toolkit2-perf-table",
    layers=_with_shares(HAND_LAYERS),
    reported_total_time_us=11650,
    reported_rw_kb=25109.0,
    op_stats=_op_stats(HAND_LAYERS),
    platform="rk3588",
    platform_basis="log: target platform: rk3588",
    versions=Versions(runtime="2.3.2", driver="0.9.8", toolkit="2.3.2"),
    model_name="yolov8n_demo.rknn",
    skipped_rows=(
        SkippedRow(25, "13   Conv  INT8  NPU  (1,64", "fewer fields than the header (5 < 12)"),
    ),
    findings=HAND_FINDINGS,
    potential_saving_us=2835.0 + 1598.5,  # the findings name different layers: savings add
)

HAND_REPORT = Report(
    profiles=(HAND_PROFILE,),
    warnings=(
        ReportWarning(
            "logs/yolo_rk3588.txt",
            38,
            "sum of layer times 11640 us differs from the log's total 11650 us",
        ),
    ),
)

# Profiles without a per-layer table: ranking only, totals only, benchmark only, and an estimate.
RANKING_ONLY = Profile(
    source=SourceSpan("logs/ranking.txt", 1, 20),
    format="toolkit2-ranking-table",
    reported_total_time_us=43210,
    ranking=(
        OpTypeStat("Conv", 40, 0, 30000, 30000, share=0.6943),
        OpTypeStat("Pow", 2, 9000, 0, 9000, share=0.2083),
        OpTypeStat("Resize", 3, 0, 4210, 4210, share=0.0974),
    ),
    platform="rk3588",
)
TOTALS_ONLY = Profile(
    source=SourceSpan("logs/nodebug.txt", 5, 9),
    format="toolkit2-perf-total",
    reported_total_time_us=7021,
    platform="rv1106",
    versions=Versions(toolkit="2.3.2"),
)
BENCHMARK_ONLY = Profile(
    source=SourceSpan("logs/bench.txt", 1, 30),
    format="rknn-benchmark",
    model_name="yolov5s-640-640.rknn",
    benchmark=BenchmarkRun(
        run_times_ms=(27.91, 27.55, 28.02),
        warmup_times_ms=(31.2,),
        avg_time_ms=27.83,
        avg_fps=35.93,
    ),
    frames=3,
    frame_times_us=(27910, 27550, 28020),
    platform="rk3588",
)
ESTIMATED = Profile(
    source=SourceSpan("logs/build.txt", 100, 120),
    format="toolkit2-build-estimate",
    measured=False,
    # build-time tables print cycles and RW(KB) but no Time, MacUsage or WorkLoad (corpus 14/15)
    layers=tuple(
        replace(la, time_us=None, mac_usage_pct=None, workload_pct=None) for la in HAND_LAYERS[1:4]
    ),
    platform="rv1106",
)
NO_LAYERS_REPORT = Report(profiles=(RANKING_ONLY, TOTALS_ONLY, BENCHMARK_ONLY, ESTIMATED))


def render(
    name: str, report: Report, *, width: int = 80, top: int = 15, color: bool = False
) -> str:
    out = io.StringIO()
    get_reporter(name).render(report, out, RenderOptions(top=top, color=color, width=width))
    return out.getvalue()
