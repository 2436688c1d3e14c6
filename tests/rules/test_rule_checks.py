"""Each rule on a minimal hand-built profile that triggers it and one that does not.
Expected savings are computed by hand in the test from the documented estimate."""

from __future__ import annotations

import pytest

from rknnprof.model import Bound, Layer, OpTypeStat, Profile, Severity, SourceSpan, Target
from rknnprof.platforms import get
from rknnprof.rules import by_code
from rknnprof.rules.base import RuleContext

NPU, CPU = Target.NPU, Target.CPU


def L(id, op, target=NPU, t=0.0, i=None, o=None, dtype="INT8", **kw):  # noqa: E741
    return Layer(id=id, op_type=op, target=target, time_us=t, data_type=dtype,
                 input_shapes=i, output_shapes=o, **kw)


def P(*layers, **kw):  # noqa: N802
    return Profile(source=SourceSpan("t.txt"), format="t", layers=tuple(layers), **kw)


def run(code, profile, platform=None, **options):
    context = RuleContext(platform=get(platform) if platform else None, options=options)
    return list(by_code(code).check(profile, context))


# --- RKN001 cpu-fallback -------------------------------------------------------------------

TRANSPOSE_PROFILE = P(
    L(1, "InputOperator", CPU, 10),
    L(2, "Conv", NPU, 100),
    L(3, "Transpose", CPU, 5000, i=((1, 16, 256, 2560),), o=((1, 16, 2560, 256),), rw_kb=20480),
    L(4, "Conv", NPU, 100),
    L(5, "OutputOperator", CPU, 10),
    fallback_warnings=(("Transpose", "input shape has exceeded the max limit, height(256) * "
                        "width(2560) = 655360, required product no larger than 8192!"),),
)


def test_rkn001_transpose_over_rk3588_limit() -> None:
    [finding] = run("RKN001", TRANSPOSE_PROFILE, "rk3588")
    assert finding.layer_ids == (3,) and finding.severity is Severity.ERROR
    # NPU estimate: 20480 KB * 1024 B / 33.8 GB/s = 620.46 us; saving = 5000 - 620.46
    assert finding.est_saving_us == pytest.approx(5000 - 20480 * 1024 / 33.8e3)
    assert "h*w = 256*2560 = 655360 exceeds rk3588's NPU Transpose limit 8192" in finding.message
    assert "rk3576" in finding.message  # RK3576 allows it
    assert "log: input shape has exceeded" in finding.message
    assert "2 NPU<->CPU switch(es)" in finding.message
    assert "95.8% of the frame" in finding.message  # 5000 / 5220


def test_rkn001_rk3576_limit_is_not_the_reason() -> None:
    profile = P(*TRANSPOSE_PROFILE.layers)
    [finding] = run("RKN001", profile, "rk3576")
    assert "exceeds" not in finding.message and "reason not in the log" in finding.message
    # 16.9 GB/s on RK3576
    assert finding.est_saving_us == pytest.approx(5000 - 20480 * 1024 / 16.9e3)


def test_rkn001_resize_with_conversion_and_unknown_platform() -> None:
    profile = P(
        L(1, "Conv", NPU, 100, o=((1, 8, 10, 10),)),
        L(2, "exDataConvert", NPU, 50),
        L(3, "Resize", CPU, 1000, i=((1, 8, 10, 10),), o=((1, 8, 15, 15),)),
        L(4, "Conv", NPU, 100),
    )
    [finding] = run("RKN001", profile)
    assert finding.est_saving_us == 1000 + 50  # no bandwidth: NPU estimate 0, plus the convert
    assert finding.layer_ids == (3, 2)
    [finding] = run("RKN001", profile, "rk3588")
    assert "scale x1.5/x1.5 is not an integer factor in 2..8" in finding.message
    # NPU estimate from shapes: (800 + 1800) int8 bytes / 33.8 GB/s
    assert finding.est_saving_us == pytest.approx(1000 - 2600 / 33.8e3 + 50)


def test_rkn001_softmax_absent_on_rk3566() -> None:
    profile = P(L(1, "Conv", NPU, 900), L(2, "Softmax", CPU, 100))
    [finding] = run("RKN001", profile, "rk3566")
    assert "Softmax has no NPU implementation on rk3566" in finding.message


def test_rkn001_ranking_only_profile() -> None:
    profile = P(ranking=(OpTypeStat("Pow", 19, 88001, 0, 88001), OpTypeStat("Conv", 72, 0, 12220, 12220),
                         OpTypeStat("OutputOperator", 1, 103, 0, 103)))
    [finding] = run("RKN001", profile, "rk3588")
    assert finding.est_saving_us == 88001 and "Pow runs on the CPU: 88,001 us" in finding.message
    assert finding.severity is Severity.ERROR and "Mul(x, x)" in finding.fix
    assert "87.7% of the frame" in finding.message  # 88001 / (88001 + 12220 + 103)


def test_rkn001_warning_without_rows() -> None:
    [finding] = run("RKN001", P(fallback_warnings=TRANSPOSE_PROFILE.fallback_warnings))
    assert finding.est_saving_us == 0 and "Transpose" in finding.message


def test_rkn001_io_operators_are_not_fallback() -> None:
    profile = P(L(1, "InputOperator", CPU, 10), L(2, "Conv", NPU, 100), L(3, "OutputOperator", CPU, 10),
                fallback_warnings=(("Conv:x", "using 3Core fallback to single core mode"),))
    assert run("RKN001", profile, "rk3588") == []


# --- RKN002 float16 --------------------------------------------------------------------------

def test_rkn002_fp16_layers() -> None:
    profile = P(L(1, "Conv", NPU, 1000, dtype="FLOAT16"), L(2, "exNorm", NPU, 200, dtype="FLOAT16"),
                L(3, "Add", NPU, 100))
    [finding] = run("RKN002", profile, "rk3588")
    assert finding.layer_ids == (1,)
    assert finding.est_saving_us == 1000 * (1 - 512 / 1024)


def test_rkn002_not_on_int8_models_or_rk2118() -> None:
    fp16 = P(L(1, "Conv", NPU, 1000, dtype="FLOAT16"))
    assert run("RKN002", fp16, "rk2118") == []
    assert run("RKN002", P(L(1, "Conv", NPU, 1000))) == []


# --- RKN010 bandwidth-bound ------------------------------------------------------------------

def test_rkn010_bandwidth_bound_layers() -> None:
    profile = P(
        L(1, "Concat", NPU, 400, ddr_cycles=1000, npu_cycles=0, bound=Bound.BANDWIDTH),
        L(2, "Conv", NPU, 800, dtype="FLOAT16", ddr_cycles=1000, npu_cycles=250, bound=Bound.BANDWIDTH,
          o=((1, 16, 64, 8),)),
        L(3, "Add", NPU, 200, dtype="FLOAT16", ddr_cycles=0, npu_cycles=0, bound=Bound.BANDWIDTH),
        L(4, "Conv", NPU, 600, ddr_cycles=10, npu_cycles=1000, bound=Bound.COMPUTE),
    )
    [finding] = run("RKN010", profile, "rk3588")
    assert finding.layer_ids == (2, 1, 3)  # largest first
    # Concat: INT8 without NPU cycles -> 0; Conv: 800 * (1 - 250/1000); Add: FP16 -> 200 / 2
    assert finding.est_saving_us == 0 + 800 * 0.75 + 100
    assert "70.0% of the frame" in finding.message
    assert "output taller than wide (64x8)" in finding.message
    assert finding.fix.startswith("quantize these layers to INT8")  # the slowest (#2) is FP16
    assert finding.severity is Severity.WARNING  # 700 / 2000 = 35%, capped at warning


def test_rkn010_small_share_is_quiet() -> None:
    profile = P(L(1, "Concat", NPU, 40, bound=Bound.BANDWIDTH), L(2, "Conv", NPU, 960, bound=Bound.COMPUTE))
    assert run("RKN010", profile, "rk3588") == []


# --- RKN011 low MAC usage --------------------------------------------------------------------

def row2(**kw):
    base = {"i": ((1, 3, 1920, 1920), (16, 3, 3, 3), (16,)), "o": ((1, 16, 960, 960),),
            "dtype": "UINT8", "ddr_cycles": 1_091_036, "npu_cycles": 8_294_400,
            "mac_usage_pct": 2.41, "bound": Bound.COMPUTE, "full_name": "Conv:/model.0/conv/Conv"}
    base.update(kw)
    return L(2, "ConvExSwish", NPU, 16130, **base)


def test_rkn011_first_layer_of_corpus_01() -> None:
    profile = P(row2(), L(3, "Concat", NPU, 128441 - 16130))
    [finding] = run("RKN011", profile, "rk3588")
    # time x (1 - max(MACs/R, DDR cycles) / NPU cycles) = 16130 x (1 - 1091036 / 8294400)
    assert finding.est_saving_us == pytest.approx(16130 * (1 - 1_091_036 / 8_294_400))
    assert "2.41% MAC usage" in finding.message
    assert "3 input channels not a multiple of 32" in finding.message
    assert "16 output channels not a multiple of 32" in finding.message
    assert "21.3x" in finding.message
    assert "space-to-depth (Focus) stem" in finding.fix  # RGB input: the one change that helps
    # RK3576: same alignment table, MACs/cycle unknown -> padding share of the channels
    [finding] = run("RKN011", profile, "rk3576")
    assert finding.est_saving_us == pytest.approx(16130 * (1 - 3 * 16 / (32 * 32)))


def test_rkn011_quiet_for_high_usage_or_bandwidth_bound() -> None:
    filler = L(3, "Concat", NPU, 100000)
    assert run("RKN011", P(row2(mac_usage_pct=60.0), filler), "rk3588") == []
    assert run("RKN011", P(row2(bound=Bound.BANDWIDTH), filler), "rk3588") == []


# --- RKN020 inefficient operators ------------------------------------------------------------

def test_rkn020_data_transfer_share() -> None:
    profile = P(L(1, "Concat", NPU, 300), L(2, "Split", NPU, 200), L(3, "Conv", NPU, 1000),
                L(4, "Sigmoid", NPU, 10))
    [finding] = run("RKN020", profile)
    assert finding.est_saving_us == 500 and finding.layer_ids == (1, 2)
    assert "data transfer ops take 500 us (33.1% of the frame) in 2 layer(s): Concat 300 us in 1, " \
           "Split 200 us in 1; largest #1 Concat 300 us" in finding.message


def test_rkn020_small_share_is_quiet() -> None:
    assert run("RKN020", P(L(1, "Concat", NPU, 10), L(2, "Conv", NPU, 990))) == []


# --- RKN021 Pad before Conv ------------------------------------------------------------------

def test_rkn021_pad_feeds_conv() -> None:
    profile = P(L(1, "Pad", NPU, 50, i=((1, 3, 10, 10),), o=((1, 3, 12, 12),)),
                L(2, "Conv", NPU, 300, i=((1, 3, 12, 12), (8, 3, 3, 3)), o=((1, 8, 10, 10),)))
    [finding] = run("RKN021", profile)
    assert finding.est_saving_us == 50 and finding.layer_ids == (1, 2)


def test_rkn021_pad_not_foldable() -> None:
    to_add = P(L(1, "Pad", NPU, 50, i=((1, 3, 10, 10),), o=((1, 3, 12, 12),)),
               L(2, "Add", NPU, 30, i=((1, 3, 12, 12), (1, 3, 12, 12)), o=((1, 3, 12, 12),)))
    too_big = P(L(1, "Pad", NPU, 50, i=((1, 3, 10, 10),), o=((1, 3, 50, 50),)),
                L(2, "Conv", NPU, 300, i=((1, 3, 50, 50), (8, 3, 3, 3)), o=((1, 8, 48, 48),)))
    assert run("RKN021", to_add) == [] and run("RKN021", too_big) == []


# --- RKN022 mergeable reshapes ---------------------------------------------------------------

def test_rkn022_chain() -> None:
    profile = P(L(1, "Conv", NPU, 100, o=((1, 64, 20, 20),)),
                L(2, "Reshape", NPU, 30, i=((1, 64, 20, 20),), o=((1, 64, 400),)),
                L(3, "Transpose", NPU, 70, i=((1, 64, 400),), o=((1, 400, 64),)),
                L(4, "Slice", NPU, 20, i=((1, 400, 64),), o=((1, 400, 32),)),
                L(5, "Conv", NPU, 100))
    [finding] = run("RKN022", profile)
    assert finding.layer_ids == (2, 3, 4)
    assert finding.est_saving_us == (30 + 70 + 20) - 70


def test_rkn022_single_or_unchained() -> None:
    single = P(L(1, "Reshape", NPU, 30, i=((1, 4),), o=((4,),)), L(2, "Conv", NPU, 10))
    unchained = P(L(1, "Reshape", NPU, 30, i=((1, 4),), o=((4,),)),
                  L(2, "Reshape", NPU, 30, i=((2, 8),), o=((16,),)))
    assert run("RKN022", single) == [] and run("RKN022", unchained) == []


# --- RKN023 unfused Conv + activation / Add --------------------------------------------------

def test_rkn023_conv_then_relu_and_convrelu_then_add() -> None:
    profile = P(L(1, "Conv", NPU, 200, o=((1, 16, 8, 8),)),
                L(2, "Relu", NPU, 40, i=((1, 16, 8, 8),), o=((1, 16, 8, 8),)),
                L(3, "ConvRelu", NPU, 200, o=((1, 16, 8, 8),)),
                L(4, "Add", NPU, 25, i=((1, 16, 8, 8), (1, 16, 8, 8)), o=((1, 16, 8, 8),)))
    findings = run("RKN023", profile)
    assert [(f.layer_ids, f.est_saving_us) for f in findings] == [((1, 2), 40), ((3, 4), 25)]
    assert "Conv+Relu+Add is a hardware fusion" in findings[1].message


def test_rkn023_convexswish_add_and_shape_mismatch_are_quiet() -> None:
    swish_add = P(L(1, "ConvExSwish", NPU, 200, o=((1, 16, 8, 8),)),
                  L(2, "Add", NPU, 25, i=((1, 16, 8, 8), (1, 16, 8, 8))))
    elsewhere = P(L(1, "Conv", NPU, 200, o=((1, 16, 8, 8),)), L(2, "Relu", NPU, 40, i=((1, 32, 4, 4),)))
    assert run("RKN023", swish_add) == [] and run("RKN023", elsewhere) == []


# --- RKN024 unfused subgraphs ----------------------------------------------------------------

def test_rkn024_glu_and_layernorm() -> None:
    glu = [L(1, "Split", NPU, 20, i=((1, 64, 8, 8),), o=((1, 32, 8, 8),)),
           L(2, "Sigmoid", NPU, 30, i=((1, 32, 8, 8),), o=((1, 32, 8, 8),)),
           L(3, "Mul", NPU, 40, i=((1, 32, 8, 8), (1, 32, 8, 8)), o=((1, 32, 8, 8),))]
    chain = ["ReduceMean", "Sub", "Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul", "Add"]
    times = [10, 20, 30, 40, 50, 60, 70, 5, 5]
    norm = [L(10 + k, op, NPU, t) for k, (op, t) in enumerate(zip(chain, times))]
    findings = run("RKN024", P(*glu, *norm))
    assert [(f.layer_ids[0], f.est_saving_us) for f in findings] == [
        (1, 30 + 40),                 # Sigmoid + Mul
        (10, sum(times) - 70),        # chain minus its largest member
    ]
    assert len(findings[1].layer_ids) == 9


def test_rkn024_lone_ops_are_quiet() -> None:
    assert run("RKN024", P(L(1, "ReduceMean", NPU, 10), L(2, "Sigmoid", NPU, 10))) == []


# --- RKN030 multi-core -----------------------------------------------------------------------

def test_rkn030_single_core_run_on_rk3588() -> None:
    profile = P(L(1, "Conv", NPU, 3000, workload_pct=(100.0, 0.0, 0.0)),
                L(2, "ConvExSwish", NPU, 3000, workload_pct=(100.0, 0.0, 0.0)))
    [finding] = run("RKN030", profile, "rk3588")
    assert finding.layer_ids == (1,)
    assert finding.est_saving_us == pytest.approx(3000 * (1 - 1 / 3))


def test_rkn030_split_run_single_core_soc_and_small_nets_are_quiet() -> None:
    split = P(L(1, "Conv", NPU, 6000, workload_pct=(33.3, 33.3, 33.4)))
    single = P(L(1, "Conv", NPU, 6000, workload_pct=(100.0, 0.0, 0.0)))
    small = P(L(1, "Conv", NPU, 600, workload_pct=(100.0, 0.0, 0.0)))
    assert run("RKN030", split, "rk3588") == []
    assert run("RKN030", single, "rk3568") == []
    assert run("RKN030", small, "rk3588") == []


def test_rkn030_multicore_fallback_warning() -> None:
    profile = P(L(7, "Conv", NPU, 10, full_name="Conv:/model.22/dfl/conv/Conv"),
                fallback_warnings=(("Conv:/model.22/dfl/conv/Conv",
                                    "using 3Core fallback to single core mode"),))
    [finding] = run("RKN030", profile)
    assert finding.layer_ids == (7,) and finding.est_saving_us == 0


def test_rkn030_unsplit_layers_in_a_multi_core_run() -> None:
    profile = P(L(1, "Conv", NPU, 1000, workload_pct=(33.3, 33.3, 33.4)),
                L(2, "ConvExSwish", NPU, 3000, workload_pct=(100.0, 0.0, 0.0),
                  full_name="Conv:/m/cv1/Conv"),
                L(3, "OutputOperator", CPU, 100, workload_pct=(0.0, 0.0, 0.0)))
    [finding] = run("RKN030", profile, "rk3588")
    assert finding.layer_ids == (2,)
    assert finding.est_saving_us == pytest.approx(3000 * (1 - 1 / 3))
    assert "#2 ConvExSwish (Conv:/m/cv1/Conv) 3,000 us" in finding.message
    assert "one context per core" in finding.fix
    # 2000 / 4100 = 48.8% at stake, capped at the rule's warning
    assert finding.severity is Severity.WARNING
    # without a platform the WorkLoad column's 3 slots stand for 3 cores
    [finding] = run("RKN030", profile)
    assert finding.est_saving_us == pytest.approx(2000)


# --- RKN040 sparse inference -----------------------------------------------------------------

def dense(**kw):
    base = {"i": ((1, 64, 40, 40), (64, 64, 3, 3), (64,)), "o": ((1, 64, 40, 40),),
            "bound": Bound.COMPUTE}
    base.update(kw)
    return L(1, "ConvRelu", NPU, 1000, **base)


def test_rkn040_dense_convs_on_rk3576_and_rv1126b() -> None:
    [finding] = run("RKN040", P(dense(sparse_ratio="0%")), "rk3576")
    assert finding.est_saving_us == 500 and finding.layer_ids == (1,)
    assert "sparse_infer=True" in finding.fix
    assert len(run("RKN040", P(dense()), "rv1126b")) == 1


def test_rkn040_not_applicable() -> None:
    assert run("RKN040", P(dense()), "rk3588") == []
    assert run("RKN040", P(dense(sparse_ratio="50%(IC)")), "rk3576") == []
    depthwise = dense(i=((1, 64, 40, 40), (1, 64, 3, 3), (64,)))
    assert run("RKN040", P(depthwise), "rk3576") == []


def test_rkn040_sparse_layers_that_gain_nothing() -> None:
    narrow = dense(i=((1, 64, 40, 40), (32, 64, 3, 3), (32,)), o=((1, 32, 40, 40),),
                   sparse_ratio="75%")
    ddr = dense(sparse_ratio="50%(OC)", bound=Bound.BANDWIDTH)
    [finding] = run("RKN040", P(narrow, L(2, "Add", NPU, 10)), "rk3576")
    assert finding.est_saving_us == 0 and finding.severity is Severity.INFO
    assert "32 output channels (more than 32 are needed" in finding.message
    [finding] = run("RKN040", P(ddr), "rk3576")
    assert "bandwidth-bound" in finding.message


# --- RKN050 environment ----------------------------------------------------------------------

def test_rkn050_io_share_and_profiling_note() -> None:
    profile = P(L(1, "InputOperator", CPU, 100, dtype="UINT8"), L(2, "Conv", NPU, 2700),
                L(3, "OutputOperator", CPU, 200, dtype="FLOAT16"))
    io, note = run("RKN050", profile)
    assert io.est_saving_us == 300 and "10.0% of the frame" in io.message
    assert "1 OutputOperator 200 us (FLOAT16)" in io.message and "zero-copy" in io.fix
    assert "rknn_mem_sync one way" in io.fix
    assert note.est_saving_us == 0 and "perf_debug" in note.message


def test_rkn050_small_io_is_quiet_and_benchmark_gap() -> None:
    from rknnprof.model import BenchmarkRun

    quiet = P(L(1, "InputOperator", CPU, 4), L(2, "Conv", NPU, 9990), L(3, "OutputOperator", CPU, 6),
              benchmark=BenchmarkRun(avg_time_ms=10.5))
    assert run("RKN050", quiet) == []
    slow = P(L(1, "Conv", NPU, 10000), benchmark=BenchmarkRun(avg_time_ms=15.0))
    [gap] = run("RKN050", slow)
    assert gap.est_saving_us == pytest.approx(5000) and gap.layer_ids == ()


def test_rkn050_clock_and_driver() -> None:
    from rknnprof.model import Frequencies, Versions

    low = P(L(1, "Conv", NPU, 8000), benchmark=None,
            frequencies=Frequencies(cpu_khz=(1800000,), npu_hz=(800_000_000,), ddr_hz=(None,)),
            versions=Versions(driver="0.8.2", runtime="1.4.0"))
    findings = run("RKN050", low, "rk3588")
    messages = " | ".join(f.message for f in findings)
    assert "DDR frequency is Unknown" in messages
    assert "driver 0.8.2 is older than 0.9.2" in messages
    [clock] = [f for f in findings if "800 MHz" in f.message]
    assert clock.est_saving_us == pytest.approx(8000 * (1 - 800 / 1000))
    ok = P(L(1, "Conv", NPU, 8000), frequencies=Frequencies(npu_hz=(1_000_000_000,), ddr_hz=(2_112_000_000,)),
           versions=Versions(driver="0.9.8"))
    assert [f.message for f in run("RKN050", ok, "rk3588") if "perf_debug" not in f.message] == []


# --- RKN060 post-processing / RKN061 attention -----------------------------------------------

def test_rkn060_dfl_softmax_on_npu() -> None:
    profile = P(L(1, "ConvExSwish", NPU, 20000), L(2, "exSoftmax13", NPU, 14254,
                  full_name="exSoftmax13:/model.23/dfl/Softmax"),
                L(3, "Conv", NPU, 300, full_name="Conv:/model.23/dfl/conv/Conv"),
                L(4, "OutputOperator", CPU, 10))
    [finding] = run("RKN060", profile, "rk3588")
    assert finding.layer_ids == (2, 3) and finding.est_saving_us == 14254 + 300
    assert "#2 exSoftmax13 (exSoftmax13:/model.23/dfl/Softmax) 14,254 us" in finding.message
    assert finding.severity is Severity.ERROR


def test_rkn060_softmax_mid_network_is_not_post_processing() -> None:
    layers = [L(1, "Conv", NPU, 100), L(2, "Softmax", NPU, 500)]
    layers += [L(k, "Conv", NPU, 100) for k in range(3, 20)] + [L(20, "OutputOperator", CPU, 1)]
    assert run("RKN060", P(*layers)) == []


def test_rkn061_attention_per_platform() -> None:
    profile = P(L(1, "ConvExSwish", NPU, 8000),
                L(2, "exSDPAttention", NPU, 1338, i=((2, 32, 1, 400), (2, 32, 1, 400)),
                  full_name="exSDPAttention:node_matmul_1#1_2sdpa"))
    [rk3588] = run("RKN061", profile, "rk3588")
    assert rk3588.est_saving_us == pytest.approx(1338 * 2 / 3)
    assert "no Flash Attention" in rk3588.fix and "one context per core" in rk3588.fix
    assert "#2 exSDPAttention (exSDPAttention:node_matmul_1#1_2sdpa) 1,338 us" in rk3588.message
    [rk3576] = run("RKN061", profile, "rk3576")
    assert "enable_flash_attention=True" in rk3576.fix and rk3576.est_saving_us == 669
    assert run("RKN061", P(L(1, "Conv", NPU, 100000), profile.layers[1])) == []  # 1.3%


def test_rkn011_fix_for_a_narrow_conv_names_the_padded_width() -> None:
    narrow = L(6, "ConvExSwish", NPU, 4094, i=((1, 16, 480, 480), (16, 16, 3, 3), (16,)),
               o=((1, 16, 480, 480),), ddr_cycles=311802, npu_cycles=2073600, mac_usage_pct=12.66,
               bound=Bound.COMPUTE)
    [finding] = run("RKN011", P(narrow, L(7, "Concat", NPU, 100000)), "rk3588")
    assert finding.fix.startswith("the NPU runs this 16->16 conv as 32->32 (4x its MACs)")
