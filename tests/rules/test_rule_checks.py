"""Each rule on a minimal hand-built profile that triggers it and one that does not.
Expected savings are computed by hand in the test from the documented estimate."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rknnprof.model import (
    Bound,
    BoundBasis,
    Confidence,
    KnownFailure,
    Layer,
    OpTypeStat,
    Profile,
    Severity,
    SourceSpan,
    Target,
)
from rknnprof.platforms import get
from rknnprof.rules import by_code
from rknnprof.rules.base import RuleContext

NPU, CPU = Target.NPU, Target.CPU


def L(id, op, target=NPU, t=0.0, i=None, o=None, dtype="INT8", **kw):  # noqa: E741
    return Layer(
        id=id,
        op_type=op,
        target=target,
        time_us=t,
        data_type=dtype,
        input_shapes=i,
        output_shapes=o,
        **kw,
    )


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
    fallback_warnings=(
        (
            "Transpose",
            "input shape has exceeded the max limit, height(256) * "
            "width(2560) = 655360, required product no larger than 8192!",
        ),
    ),
)


def test_rkn001_transpose_over_rk3588_limit() -> None:
    [finding] = run("RKN001", TRANSPOSE_PROFILE, "rk3588")
    assert finding.layer_ids == (3,) and finding.severity is Severity.ERROR
    # no NPU Transpose or data-movement op in the log, no corpus rate: the whole CPU time,
    # an upper bound at low confidence -- never bytes / the 33.8 GB/s DDR peak
    assert finding.est_saving_us == 5000 and finding.saving_by_layer == ((3, 5000),)
    assert finding.confidence is Confidence.LOW
    assert "no measured NPU rate for Transpose" in finding.basis
    # the runtime printed its own limit: that is the reason given, not the rule's table
    assert "log: input shape has exceeded" in finding.message
    assert "required product no larger than 8192" in finding.message
    assert "exceeds rk3588's NPU Transpose limit" not in finding.message
    assert "2 NPU<->CPU switch(es)" in finding.message
    assert "95.8% of the frame" in finding.message  # 5000 / 5220


def test_rkn001_npu_estimate_uses_the_rate_an_npu_layer_achieved_in_the_log() -> None:
    # an NPU Transpose in the same log moved 8000 KB in 1,000 us (8.19 GB/s)
    npu = L(6, "Transpose", NPU, 1000, rw_kb=8000)
    profile = P(*TRANSPOSE_PROFILE.layers, npu)
    [finding] = run("RKN001", profile, "rk3588")
    rate = 8000 * 1024 / 1000e-6 / 1e9
    assert finding.est_saving_us == pytest.approx(5000 - 20480 * 1024 / (rate * 1e3))
    assert finding.est_saving_us == pytest.approx(2440)
    assert finding.confidence is Confidence.HIGH and "8.19 GB/s" in finding.basis


def test_rkn001_rk3576_limit_is_not_the_reason() -> None:
    profile = P(*TRANSPOSE_PROFILE.layers)
    [finding] = run("RKN001", profile, "rk3576")
    assert "exceeds" not in finding.message and "reason not in the log" in finding.message
    assert finding.est_saving_us == 5000


def test_rkn001_resize_with_conversion_and_unknown_platform() -> None:
    profile = P(
        L(1, "Conv", NPU, 100, o=((1, 8, 10, 10),)),
        L(2, "exDataConvert", NPU, 50),
        L(3, "Resize", CPU, 1000, i=((1, 8, 10, 10),), o=((1, 8, 15, 15),)),
        L(4, "Conv", NPU, 100),
    )
    # NPU estimate from shapes: (800 + 1800) int8 bytes at the 1.54 GB/s NPU Resize achieved in
    # corpus 01; plus the 50 us conversion layer that goes with the CPU island
    expected = 1000 - 2600 / 1.54e3 + 50
    [finding] = run("RKN001", profile)
    assert finding.est_saving_us == pytest.approx(expected)
    assert finding.layer_ids == (3, 2) and finding.confidence is Confidence.MEDIUM
    [finding] = run("RKN001", profile, "rk3588")
    assert "scale x1.5/x1.5 is not an integer factor in 2..8" in finding.message
    assert finding.est_saving_us == pytest.approx(expected)


def test_rkn001_softmax_absent_on_rk3566() -> None:
    profile = P(L(1, "Conv", NPU, 900), L(2, "Softmax", CPU, 100))
    [finding] = run("RKN001", profile, "rk3566")
    assert "Softmax has no NPU implementation on rk3566" in finding.message


def test_rkn001_ranking_only_profile() -> None:
    profile = P(
        ranking=(
            OpTypeStat("Pow", 19, 88001, 0, 88001),
            OpTypeStat("Conv", 72, 0, 12220, 12220),
            OpTypeStat("OutputOperator", 1, 103, 0, 103),
        )
    )
    [finding] = run("RKN001", profile, "rk3588")
    assert finding.est_saving_us == 88001 and "Pow runs on the CPU: 88,001 us" in finding.message
    assert finding.severity is Severity.ERROR and "Mul(x, x)" in finding.fix
    assert "87.7% of the frame" in finding.message  # 88001 / (88001 + 12220 + 103)


def test_rkn072_from_a_ranking_leaves_the_transposes_cpu_time_to_rkn001() -> None:
    """airockchip/rknn-toolkit2 issue 402's ranking: Transpose 15 calls, 12,618 us CPU + 6,833
    us NPU; exNorm 4 calls. RKN001 prices the CPU time; RKN072 claimed 8/15 of the whole
    19,451 us on top (10,374 us): together more than the row. It takes 8/15 of the NPU part."""
    profile = P(
        ranking=(
            OpTypeStat("Gather", 4, 0, 59192, 59192),
            OpTypeStat("Transpose", 15, 12618, 6833, 19451),
            OpTypeStat("exNorm", 4, 0, 10947, 10947),
        )
    )
    [cpu] = run("RKN001", profile, "rk3588")
    [norm] = run("RKN072", profile, "rk3588")
    assert cpu.est_saving_us == 12618
    assert norm.est_saving_us == pytest.approx(6833 * 8 / 15)
    assert cpu.est_saving_us + norm.est_saving_us <= 19451
    assert "their CPU time (12,618 us) is RKN001's" in norm.message


def test_rkn001_a_small_transpose_is_not_told_to_fit_a_size_limit() -> None:
    """A public build table: a 1x2x3x4 Transpose on the CPU was told to reshape so the permuted
    h*w stays within the limit (h*w = 12). A big one still is."""
    small = P(
        L(1, "InputOperator", CPU, 0, o=((1, 2, 3, 4),)),
        L(2, "Transpose", CPU, 50, i=((1, 2, 3, 4),), o=((1, 2, 4, 3),)),
        L(3, "OutputOperator", CPU, 0),
    )
    [finding] = run("RKN001", small, "rk3588")
    assert finding.fix.startswith("its tensors are far inside the NPU Transpose's size limit")
    [finding] = run("RKN001", TRANSPOSE_PROFILE, "rk3588")
    assert "permuted h*w stays within the platform limit" in finding.fix


def test_rkn001_warning_without_rows() -> None:
    [finding] = run("RKN001", P(fallback_warnings=TRANSPOSE_PROFILE.fallback_warnings))
    assert finding.est_saving_us == 0 and "Transpose" in finding.message


def test_rkn001_io_operators_are_not_fallback() -> None:
    profile = P(
        L(1, "InputOperator", CPU, 10),
        L(2, "Conv", NPU, 100),
        L(3, "OutputOperator", CPU, 10),
        fallback_warnings=(("Conv:x", "using 3Core fallback to single core mode"),),
    )
    assert run("RKN001", profile, "rk3588") == []


# --- RKN002 float16 --------------------------------------------------------------------------


def test_rkn002_fp16_layers() -> None:
    profile = P(
        L(1, "Conv", NPU, 1000, dtype="FLOAT16"),
        L(2, "exNorm", NPU, 200, dtype="FLOAT16"),
        L(3, "Add", NPU, 100),
    )
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
        L(
            2,
            "Conv",
            NPU,
            800,
            ddr_cycles=600_000,
            npu_cycles=250_000,
            bound=Bound.BANDWIDTH,
            bound_basis=BoundBasis.CYCLES,
            o=((1, 16, 64, 8),),
        ),
        L(
            3,
            "Conv",
            NPU,
            200,
            dtype="FLOAT16",
            ddr_cycles=90_000,
            npu_cycles=10_000,
            bound=Bound.BANDWIDTH,
            bound_basis=BoundBasis.CYCLES,
        ),
        L(4, "Conv", NPU, 600, ddr_cycles=10, npu_cycles=1000, bound=Bound.COMPUTE),
    )
    [finding] = run("RKN010", profile, "rk3588")
    # Concat: NPU cycles 0 is "not computed", not bandwidth; the FP16 conv is RKN002's (10% of
    # the frame): only #2 is left
    assert finding.layer_ids == (2,)
    assert finding.est_saving_us == 0 and finding.severity is Severity.INFO
    # DDR above NPU: 350,000 cycles at 1000 MHz = 350 us, shown as a ceiling only
    assert "exceed their NPU cycles by 350 us at 1000 MHz" in finding.message
    assert "40.0% of the frame" in finding.message
    assert "wider than tall (swap H and W, 64x8 -> 8x64)" in finding.fix


def test_rkn010_small_share_is_quiet() -> None:
    profile = P(
        L(1, "Concat", NPU, 40, bound=Bound.BANDWIDTH), L(2, "Conv", NPU, 960, bound=Bound.COMPUTE)
    )
    assert run("RKN010", profile, "rk3588") == []


# --- RKN011 low MAC usage --------------------------------------------------------------------


def row2(**kw):
    base = {
        "i": ((1, 3, 1920, 1920), (16, 3, 3, 3), (16,)),
        "o": ((1, 16, 960, 960),),
        "dtype": "UINT8",
        "ddr_cycles": 1_091_036,
        "npu_cycles": 8_294_400,
        "mac_usage_pct": 2.41,
        "bound": Bound.COMPUTE,
        "full_name": "Conv:/model.0/conv/Conv",
    }
    base.update(kw)
    return L(2, "ConvExSwish", NPU, 16130, **base)


def test_rkn011_rgb_stem_of_corpus_01_is_silent() -> None:
    # 3 input channels are padded to 32 whatever the stem (a Focus stem is no cheaper: 07 vs
    # 36), 16 output channels cost what 32 do: no change removes this padding
    profile = P(row2(), L(3, "Concat", NPU, 128441 - 16130))
    assert run("RKN011", profile, "rk3588") == []
    assert run("RKN011", profile, "rk3576") == []


def mid(**kw):
    """A 48 -> 64 3x3 conv at 80x80: 48 input channels are computed as 64.
    Cycles: 6400 px x 9 x 64 x 64 / 1024 = 230,400; with 32 inputs 115,200.
    MACs 6400 x 64 x 48 x 9 / 1024 = 172,800 cycles in 1,200 us: 14.4% usage."""
    base = {
        "i": ((1, 48, 80, 80), (64, 48, 3, 3), (64,)),
        "o": ((1, 64, 80, 80),),
        "ddr_cycles": 50_000,
        "npu_cycles": 230_400,
        "mac_usage_pct": 14.4,
        "bound": Bound.COMPUTE,
        "full_name": "Conv:/neck/conv",
    }
    base.update(kw)
    return L(30, "ConvRelu", NPU, 1200, **base)


def test_rkn011_prunes_channels_just_above_the_alignment() -> None:
    profile = P(mid(), L(31, "Concat", NPU, 20000))
    [finding] = run("RKN011", profile, "rk3588")
    # 115,200 cycles removed at 1000 MHz = 115.2 us; the cycles explain 230,400 / 1.2e6 = 19%
    # of the layer's 1,200 us, so not 1200 x 0.5
    assert finding.saving_by_layer == ((30, pytest.approx(115.2)),)
    assert "48 -> 32 input channels" in finding.fix and "explain 19%" in finding.basis
    assert "48 input channels are computed as 64" in finding.message


def test_rkn011_one_finding_for_every_padded_conv() -> None:
    """One cause, one finding: #30 (48 -> 64 at 1,200 us) and #31, an 80 -> 64 3x3 conv at
    80x80 for 2,400 us (80 inputs computed as 96: 345,600 cycles, 230,400 at 64 inputs). Each
    pruning removes 115,200 cycles = 115.2 us at 1000 MHz (both below what their cycles
    explain): 230.4 us, the slower conv first."""
    wide = mid(
        i=((1, 80, 80, 80), (64, 80, 3, 3), (64,)),
        npu_cycles=345_600,
        mac_usage_pct=16.0,
        full_name="Conv:/neck/conv80",
    )
    wide = replace(wide, id=31, time_us=2400.0)
    [finding] = run("RKN011", P(mid(), wide, L(32, "Concat", NPU, 20000)), "rk3588")
    assert finding.layer_ids == (31, 30)
    assert finding.saving_by_layer == ((30, pytest.approx(115.2)), (31, pytest.approx(115.2)))
    assert finding.est_saving_us == pytest.approx(230.4)
    assert finding.message.startswith(
        "2 low-MAC-usage conv layer(s) compute padded channels "
        "that pruning removes (230 us together): #31 ConvRelu"
    )
    assert (
        "#31 80 -> 64 input channels (from the producer), #30 48 -> 32 input channels"
        in finding.fix
    )
    assert "2 convs pruned to the aligned channel count" in finding.basis


def test_rkn011_head_outputs_and_narrow_convs_are_silent() -> None:
    head = mid(i=((1, 64, 80, 80), (255, 64, 1, 1), (255,)), o=((1, 255, 80, 80),))
    out = L(31, "OutputOperator", CPU, 10, i=((1, 255, 80, 80),))
    assert run("RKN011", P(head, out, L(32, "Concat", NPU, 20000)), "rk3588") == []


def test_rkn011_quiet_for_high_usage_or_bandwidth_bound() -> None:
    filler = L(3, "Concat", NPU, 100000)
    assert run("RKN011", P(row2(mac_usage_pct=60.0), filler), "rk3588") == []
    assert run("RKN011", P(row2(bound=Bound.BANDWIDTH), filler), "rk3588") == []


# --- RKN020 inefficient operators ------------------------------------------------------------


def test_rkn020_c2f_splits_only() -> None:
    profile = P(
        L(1, "ConvExSwish", NPU, 1000, o=((1, 32, 80, 80),)),
        L(2, "Split", NPU, 200, i=((1, 32, 80, 80), (2,)), o=((1, 16, 80, 80),)),
        L(3, "Concat", NPU, 300),
        # a head's box/class split: not halves of the conv's output
        L(4, "Conv", NPU, 400, o=((1, 144, 80, 80),)),
        L(5, "Split", NPU, 250, i=((1, 144, 80, 80), (2,)), o=((1, 64, 80, 80),)),
    )
    [finding] = run("RKN020", profile)
    # the conv's input is not printed: the C2f case (Cin = 2c), half the Split's bytes removed
    assert finding.est_saving_us == 100 and finding.layer_ids == (2,)
    assert finding.confidence is Confidence.LOW and "upper end" in finding.basis
    assert "1 C2f-style Split layer(s)" in finding.message and "two convs" in finding.fix


def test_rkn020_small_share_is_quiet() -> None:
    assert run("RKN020", P(L(1, "Concat", NPU, 10), L(2, "Conv", NPU, 990))) == []
    split = P(
        L(1, "Conv", NPU, 990, o=((1, 32, 8, 8),)),
        L(2, "Split", NPU, 10, i=((1, 32, 8, 8), (2,)), o=((1, 16, 8, 8),)),
    )
    assert run("RKN020", split) == []  # 1% of the frame


# --- RKN021 Pad before Conv ------------------------------------------------------------------


def test_rkn021_pad_feeds_conv() -> None:
    profile = P(
        L(1, "Pad", NPU, 50, i=((1, 3, 10, 10),), o=((1, 3, 12, 12),)),
        L(2, "Conv", NPU, 300, i=((1, 3, 12, 12), (8, 3, 3, 3)), o=((1, 8, 10, 10),)),
    )
    [finding] = run("RKN021", profile)
    assert finding.est_saving_us == 50 and finding.layer_ids == (1, 2)


def test_a_build_time_table_places_ops_and_times_nothing() -> None:
    """A build-time table (PUIE-Net's verbose build, rows of Target and shapes, Time 0): its
    CPU Pads 'take 0 us' and 'as Slice + Concat on the NPU would take about 5,757 us' (a
    fix that read slower), and RKN001 said they 'run on the CPU', which no run showed."""
    pads = []
    for k in range(2):
        pads += [
            L(2 * k + 1, "Pad", CPU, None, i=((1, 8, 10, 10),), o=((1, 8, 12, 12),), rw_kb=2.0),
            L(2 * k + 2, "Conv", NPU, None, i=((1, 8, 12, 12), (8, 8, 3, 3)), o=((1, 8, 10, 10),)),
        ]
    built = P(*pads, measured=False)
    [pad] = run("RKN021", built)
    assert "take a time not in the log (a build-time table)" in pad.message
    assert "would take about" not in pad.message and pad.est_saving_us == 0
    alone = P(
        L(1, "Conv", NPU, None, o=((1, 8, 10, 10),)),
        L(2, "Pad", CPU, None, i=((1, 8, 10, 10),), o=((1, 8, 20, 12),)),
        L(3, "Relu", NPU, None, i=((1, 8, 20, 12),)),
        measured=False,
    )
    [cpu] = run("RKN001", alone)
    assert cpu.message.startswith("1 Pad layer(s) are placed on the CPU at build time: #2 Pad")


def test_rkn021_many_pads_are_one_finding() -> None:
    # one cause, one change: 3 Pads (50 + 60 + 70 us) each before a Conv make one finding
    layers = []
    for k, t in enumerate((50, 60, 70)):
        layers += [
            L(2 * k + 1, "Pad", NPU, t, i=((1, 8, 10, 10),), o=((1, 8, 12, 12),)),
            L(2 * k + 2, "Conv", NPU, 300, i=((1, 8, 12, 12), (8, 8, 3, 3)), o=((1, 8, 10, 10),)),
        ]
    [finding] = run("RKN021", P(*layers))
    assert finding.saving_by_layer == ((1, 50), (3, 60), (5, 70))
    assert finding.est_saving_us == 180 and finding.layer_ids == (1, 2, 3, 4, 5, 6)
    assert "3 Pad layer(s)" in finding.message
    assert "the log does not print the Pad mode" in finding.message
    assert finding.confidence is Confidence.LOW  # zero padding is not shown: retrain
    assert "Slice + Concat" in finding.fix


def test_rkn021_pad_not_foldable() -> None:
    to_add = P(
        L(1, "Pad", NPU, 50, i=((1, 3, 10, 10),), o=((1, 3, 12, 12),)),
        L(2, "Add", NPU, 30, i=((1, 3, 12, 12), (1, 3, 12, 12)), o=((1, 3, 12, 12),)),
    )
    too_big = P(
        L(1, "Pad", NPU, 50, i=((1, 3, 10, 10),), o=((1, 3, 50, 50),)),
        L(2, "Conv", NPU, 300, i=((1, 3, 50, 50), (8, 3, 3, 3)), o=((1, 8, 48, 48),)),
    )
    assert run("RKN021", to_add) == [] and run("RKN021", too_big) == []


# --- RKN022 mergeable reshapes ---------------------------------------------------------------


def test_rkn022_chain() -> None:
    profile = P(
        L(1, "Conv", NPU, 100, o=((1, 64, 20, 20),)),
        L(2, "Reshape", NPU, 30, i=((1, 64, 20, 20),), o=((1, 64, 400),)),
        L(3, "Transpose", NPU, 70, i=((1, 64, 400),), o=((1, 400, 64),)),
        L(4, "Slice", NPU, 20, i=((1, 400, 64),), o=((1, 400, 32),)),
        L(5, "Conv", NPU, 100),
    )
    [finding] = run("RKN022", profile)
    assert finding.layer_ids == (2, 3, 4)
    assert finding.est_saving_us == (30 + 70 + 20) - 70


def test_rkn022_chains_are_one_finding_and_tiny_ones_are_noise() -> None:
    # two chains of Reshapes (2 + 3 us, 1 + 4 us): one finding keeps the larger of each,
    # saving 2 + 1 = 3 us -- under the 100 us noise floor, so run_rules makes it info
    from rknnprof.rules import run_rules

    def chain(first, a, b):
        return [
            L(first, "Reshape", NPU, a, i=((1, 4, 4),), o=((1, 16),)),
            L(first + 1, "Reshape", NPU, b, i=((1, 16),), o=((16,),)),
        ]

    profile = P(*chain(1, 2, 3), L(3, "Conv", NPU, 5000), *chain(4, 1, 4))
    [finding] = run("RKN022", profile)
    assert finding.saving_by_layer == ((1, 2), (4, 1)) and finding.layer_ids == (1, 2, 4, 5)
    [ranked] = [f for f in run_rules(profile) if f.code == "RKN022"]
    assert ranked.severity is Severity.INFO


def test_rkn022_names_the_toolkits_own_reshapes_and_the_op_they_feed() -> None:
    """A public FP16 SigLIP block: a Transpose and a Reshape the toolkit inserted before
    exSDPAttention (FullNames ending _tp, _tp_rs): no node of the source model to merge; the
    fix is the layout handed to the attention op. Medium confidence: that one op remains is
    the guide's advice, not measured."""
    name = "/vision_model/encoder/layers.0/self_attn/Mul_output_0"
    profile = P(
        L(5, "Mul", NPU, 300, o=((2, 1024, 12, 64),)),
        L(6, "Transpose", NPU, 3465, i=((2, 1024, 12, 64),), o=((2, 12, 64, 1024),),
          full_name=f"Transpose:{name}_tp"),
        L(7, "Reshape", NPU, 4824, i=((2, 12, 64, 1024),), o=((24, 64, 1, 1024),),
          full_name=f"Reshape:{name}_tp_rs"),
        L(8, "exSDPAttention", NPU, 9000, i=((24, 64, 1, 1024),)),
    )  # fmt: skip
    [finding] = run("RKN022", profile)
    assert finding.est_saving_us == 3465 and finding.confidence is Confidence.MEDIUM
    assert "2 of their layers are the toolkit's own (FullName ending _rs or _tp" in (
        finding.message
    )
    assert "the other" not in finding.fix  # (its one chain holds them)
    assert finding.fix.startswith(
        "the toolkit's own reshapes go when the source model hands exSDPAttention the layout "
        "it takes (for attention:"
    )


def test_rkn022_single_or_unchained() -> None:
    single = P(L(1, "Reshape", NPU, 30, i=((1, 4),), o=((4,),)), L(2, "Conv", NPU, 10))
    unchained = P(
        L(1, "Reshape", NPU, 30, i=((1, 4),), o=((4,),)),
        L(2, "Reshape", NPU, 30, i=((2, 8),), o=((16,),)),
    )
    assert run("RKN022", single) == [] and run("RKN022", unchained) == []


# --- RKN023 unfused Conv + activation / Add --------------------------------------------------


def test_rkn023_adjacent_conv_and_relu_or_add_are_quiet() -> None:
    # adjacent already: "make it the Conv's adjacent consumer" would be advice that holds
    profile = P(
        L(1, "Conv", NPU, 200, o=((1, 16, 8, 8),)),
        L(2, "Relu", NPU, 40, i=((1, 16, 8, 8),), o=((1, 16, 8, 8),)),
        L(3, "ConvRelu", NPU, 200, o=((1, 16, 8, 8),)),
        L(4, "Add", NPU, 25, i=((1, 16, 8, 8), (1, 16, 8, 8)), o=((1, 16, 8, 8),)),
    )
    assert run("RKN023", profile) == []


def test_rkn023_sigmoid_after_conv_add_is_one_finding() -> None:
    profile = P(
        L(1, "ConvAdd", NPU, 200, o=((1, 16, 8, 8),)),
        L(2, "Sigmoid", NPU, 40, i=((1, 16, 8, 8),), o=((1, 16, 8, 8),)),
        L(3, "ConvAdd", NPU, 200, o=((1, 16, 8, 8),)),
        L(4, "Sigmoid", NPU, 25, i=((1, 16, 8, 8),), o=((1, 16, 8, 8),)),
    )
    [finding] = run("RKN023", profile)
    assert (finding.layer_ids, finding.est_saving_us) == ((1, 2, 3, 4), 65)
    assert "not Conv+Add+Sigmoid" in finding.message
    gate = P(
        L(1, "ConvAdd", NPU, 200, o=((1, 16, 8, 8),)),
        L(2, "Sigmoid", NPU, 40, i=((1, 16, 8, 8),), o=((1, 16, 8, 8),)),
        L(3, "Mul", NPU, 30, i=((1, 16, 8, 8), (1, 16, 8, 8)), o=((1, 16, 8, 8),)),
    )
    assert run("RKN023", gate) == []  # a Sigmoid gating a Mul: ReLU cannot replace it


def test_rkn023_convexswish_add_and_shape_mismatch_are_quiet() -> None:
    swish_add = P(
        L(1, "ConvExSwish", NPU, 200, o=((1, 16, 8, 8),)),
        L(2, "Add", NPU, 25, i=((1, 16, 8, 8), (1, 16, 8, 8))),
    )
    elsewhere = P(
        L(1, "Conv", NPU, 200, o=((1, 16, 8, 8),)), L(2, "Relu", NPU, 40, i=((1, 32, 4, 4),))
    )
    assert run("RKN023", swish_add) == [] and run("RKN023", elsewhere) == []


# --- RKN024 unfused subgraphs ----------------------------------------------------------------


def test_rkn024_glu_and_layernorm() -> None:
    glu = [
        L(1, "Split", NPU, 20, i=((1, 64, 8, 8),), o=((1, 32, 8, 8),)),
        L(2, "Sigmoid", NPU, 30, i=((1, 32, 8, 8),), o=((1, 32, 8, 8),)),
        L(3, "Mul", NPU, 40, i=((1, 32, 8, 8), (1, 32, 8, 8)), o=((1, 32, 8, 8),)),
    ]
    chain = ["ReduceMean", "Sub", "Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul", "Add"]
    times = [10, 20, 30, 40, 50, 60, 70, 5, 5]
    norm = [L(10 + k, op, NPU, t) for k, (op, t) in enumerate(zip(chain, times))]
    findings = run("RKN024", P(*glu, *norm))
    assert [(f.layer_ids[0], f.est_saving_us) for f in findings] == [
        (1, 30 + 40),  # Sigmoid + Mul
        (10, sum(times) - 70),  # chain minus its largest member
    ]
    assert len(findings[1].layer_ids) == 9


def test_rkn024_lone_ops_are_quiet() -> None:
    assert run("RKN024", P(L(1, "ReduceMean", NPU, 10), L(2, "Sigmoid", NPU, 10))) == []


# --- RKN030 multi-core -----------------------------------------------------------------------


def test_rkn030_on_two_cores_scales_the_three_core_speed_ups() -> None:
    """RK3576 has two cores; the speed-ups were measured on RK3588's three. Amdahl's law keeps
    the share of the layer three cores split: Add 1.65x -> p = (1 - 1/1.65) / (2/3) = 0.591,
    1 / (0.409 + 0.591/2) = 1.419x on two, 945 us -> 279.2 us saved; Concat 1.56x -> 1.368x,
    2002 us -> 539.0 us. A low-confidence model, said so."""
    one = (100.0, 0.0)
    profile = P(
        L(1, "Conv", NPU, 3000, workload_pct=one),
        L(3, "Add", NPU, 945, workload_pct=one),
        L(4, "Concat", NPU, 2002, workload_pct=one),
    )
    [finding] = run("RKN030", profile, "rk3576")
    assert dict(finding.saving_by_layer) == pytest.approx({3: 279.2, 4: 539.0}, abs=0.1)
    assert "speed-ups scaled to 2 cores (Add 1.42x, Concat 1.37x" in finding.message
    assert "the other core idle" in finding.message
    assert finding.confidence is Confidence.LOW and "Amdahl's law" in finding.basis


def test_rkn030_names_op_types_of_equal_time_in_one_order() -> None:
    """Split and MaxPool stay on core 0 with 4,124 us each: ties go by name, so the message
    is the same in every run (set order follows the hash seed)."""
    one = (100.0, 0.0, 0.0)
    profile = P(
        L(1, "Conv", NPU, 5000, workload_pct=one),
        L(2, "Split", NPU, 4124, workload_pct=one),
        L(3, "MaxPool", NPU, 4124, workload_pct=one),
    )
    [finding] = run("RKN030", profile, "rk3588")
    assert "; MaxPool, Split stay on core 0 under any mask" in finding.message


def test_rkn030_single_core_run_on_rk3588() -> None:
    one = (100.0, 0.0, 0.0)
    profile = P(
        L(1, "Conv", NPU, 3000, workload_pct=one),
        L(2, "ConvExSwish", NPU, 3000, workload_pct=one),
        L(3, "Add", NPU, 945, workload_pct=one),
        L(4, "Concat", NPU, 2002, workload_pct=one),
    )
    [finding] = run("RKN030", profile, "rk3588")
    assert finding.layer_ids == (1, 3, 4)
    # latency: the corpus-measured speed-ups (Add 1.65x, Concat 1.56x); Conv has none: 0
    assert dict(finding.saving_by_layer) == {
        3: pytest.approx(945 * (1 - 1 / 1.65)),
        4: pytest.approx(2002 * (1 - 1 / 1.56)),
    }
    assert "not counted: Conv 3,000 us (no measured speed-up)" in finding.message
    # an FP16 conv: the measured conv speed-ups are INT8's, and the message says that
    fp16 = L(1, "Conv", NPU, 3000, dtype="FLOAT16", workload_pct=one, npu_cycles=900_000)
    [finding] = run("RKN030", P(fp16, *profile.layers[1:]), "rk3588")
    assert "1 FLOAT16 conv(s) 3,000 us (the conv speed-ups measured are INT8's)" in finding.message
    assert "no measured speed-up" not in finding.message
    assert "1 of rk3588's 3 NPU cores" in finding.message and "imbalance" not in finding.message
    # the idle cores are throughput, never latency
    assert finding.throughput_gain is not None and finding.throughput_gain.factor == 3
    # a Concat the tool calls bandwidth-bound gets no latency claim: the cores share one DDR
    waiting = L(4, "Concat", NPU, 2002, workload_pct=one, bound=Bound.BANDWIDTH)
    [finding] = run("RKN030", P(*profile.layers[:3], waiting), "rk3588")
    assert dict(finding.saving_by_layer) == {3: pytest.approx(945 * (1 - 1 / 1.65))}
    assert "1 bandwidth-bound layer(s) 2,002 us (the cores share one DDR)" in finding.message


def test_rkn030_split_run_single_core_soc_and_small_nets_are_quiet() -> None:
    split = P(L(1, "Conv", NPU, 6000, workload_pct=(33.3, 33.3, 33.4)))
    single = P(L(1, "Conv", NPU, 6000, workload_pct=(100.0, 0.0, 0.0)))
    small = P(L(1, "Conv", NPU, 600, workload_pct=(100.0, 0.0, 0.0)))
    assert run("RKN030", split, "rk3588") == []
    assert run("RKN030", single, "rk3568") == []
    assert run("RKN030", small, "rk3588") == []


def test_rkn030_multicore_fallback_warning() -> None:
    profile = P(
        L(7, "Conv", NPU, 10, full_name="Conv:/model.22/dfl/conv/Conv"),
        fallback_warnings=(
            ("Conv:/model.22/dfl/conv/Conv", "using 3Core fallback to single core mode"),
        ),
    )
    [finding] = run("RKN030", profile)
    assert finding.layer_ids == (7,) and finding.est_saving_us == 0


def test_rkn030_unsplit_layers_in_a_multi_core_run() -> None:
    profile = P(
        L(1, "Conv", NPU, 1000, workload_pct=(33.3, 33.3, 33.4)),
        L(
            2,
            "ConvExSwish",
            NPU,
            3000,
            workload_pct=(100.0, 0.0, 0.0),
            full_name="Conv:/m/cv1/Conv",
        ),
        L(3, "OutputOperator", CPU, 100, workload_pct=(0.0, 0.0, 0.0)),
    )
    [finding] = run("RKN030", profile, "rk3588")
    assert finding.layer_ids == (2,)
    assert finding.est_saving_us == 0 and finding.throughput_gain.factor == 3
    assert "#2 ConvExSwish (Conv:/m/cv1/Conv) 3,000 us" in finding.message
    assert "one context per core" in finding.fix
    # 2000 / 4100 = 48.8% of idle-core time, capped at the rule's warning
    assert finding.severity is Severity.WARNING
    # without a platform the WorkLoad column's 3 slots stand for 3 cores
    [finding] = run("RKN030", profile)
    assert finding.throughput_gain.factor == 3


def test_rkn030_prints_the_workload_of_the_socs_core_count() -> None:
    # RK3576 prints WorkLoad(0/1), two values (RKNN SDK User Guide, the perf table's fields):
    # a layer all on core 0 reads 100%/0%, not RK3588's 100%/0%/0%
    profile = P(
        L(1, "Conv", NPU, 1000, workload_pct=(50.0, 50.0)),
        L(2, "ConvRelu", NPU, 3000, workload_pct=(100.0, 0.0), full_name="Conv:/m/cv1/Conv"),
    )
    [finding] = run("RKN030", profile, "rk3576")
    assert "(WorkLoad 100%/0%)" in finding.message and "100%/0%/0%" not in finding.message
    assert "the other 1 core(s) idled" in finding.message
    single = P(*(L(i, "Concat", NPU, 3000, workload_pct=(100.0, 0.0)) for i in (1, 2)))
    [finding] = run("RKN030", single, "rk3576")
    assert "every WorkLoad 100%/0%;" in finding.message


# --- RKN040 sparse inference -----------------------------------------------------------------


def dense(**kw):
    base = {
        "i": ((1, 64, 40, 40), (64, 64, 3, 3), (64,)),
        "o": ((1, 64, 40, 40),),
        "bound": Bound.COMPUTE,
    }
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
    narrow = dense(
        i=((1, 64, 40, 40), (32, 64, 3, 3), (32,)), o=((1, 32, 40, 40),), sparse_ratio="75%"
    )
    ddr = dense(sparse_ratio="50%(OC)", bound=Bound.BANDWIDTH)
    [finding] = run("RKN040", P(narrow, L(2, "Add", NPU, 10)), "rk3576")
    assert finding.est_saving_us == 0 and finding.severity is Severity.INFO
    assert "32 output channels (more than 32 are needed" in finding.message
    [finding] = run("RKN040", P(ddr), "rk3576")
    assert "bandwidth-bound" in finding.message


# --- RKN050 environment ----------------------------------------------------------------------


def test_rkn050_io_share_and_profiling_note() -> None:
    profile = P(
        L(1, "InputOperator", CPU, 100, dtype="UINT8"),
        L(2, "Conv", NPU, 2700),
        L(3, "OutputOperator", CPU, 200, dtype="FLOAT16"),
    )
    io, note = run("RKN050", profile)
    assert io.est_saving_us == 300 and "10.0% of the frame" in io.message
    assert "1 OutputOperator 200 us (FLOAT16)" in io.message and "zero-copy" in io.fix
    assert "rknn_mem_sync one way" in io.fix
    assert note.est_saving_us == 0 and "perf_debug" in note.message


def test_rkn050_small_io_is_quiet_and_benchmark_gap() -> None:
    from rknnprof.model import BenchmarkRun

    quiet = P(
        L(1, "InputOperator", CPU, 4),
        L(2, "Conv", NPU, 9990),
        L(3, "OutputOperator", CPU, 6),
        benchmark=BenchmarkRun(avg_time_ms=10.5),
    )
    assert run("RKN050", quiet) == []
    slow = P(L(1, "Conv", NPU, 10000), benchmark=BenchmarkRun(avg_time_ms=15.0))
    [gap] = run("RKN050", slow)
    assert gap.est_saving_us == pytest.approx(5000) and gap.layer_ids == ()


def test_rkn050_clock_and_driver() -> None:
    from rknnprof.model import Frequencies, Versions

    low = P(
        L(1, "Conv", NPU, 8000),
        benchmark=None,
        frequencies=Frequencies(cpu_khz=(1800000,), npu_hz=(800_000_000,), ddr_hz=(None,)),
        versions=Versions(driver="0.8.2", runtime="1.4.0"),
    )
    findings = run("RKN050", low, "rk3588")
    messages = " | ".join(f.message for f in findings)
    assert "DDR frequency is Unknown" in messages
    # (a runtime of the driver's own time: the SDK is updated together)
    [driver] = [f for f in findings if "driver 0.8.2" in f.message]
    assert driver.message.startswith(
        "RKNPU driver 0.8.2 and runtime 1.4.0 are both of an SDK before 1.5"
    )
    assert driver.fix.startswith("update the board's SDK together")
    assert "toolkit's version" not in driver.fix  # (no toolkit version in the log)
    newer = replace(low, versions=Versions(driver="0.8.2", runtime="2.3.2", toolkit="2.3.2"))
    [driver] = [f for f in run("RKN050", newer, "rk3588") if "driver 0.8.2" in f.message]
    assert "driver 0.8.2 is older than 0.8.8 (runtime 2.3.2)" in driver.message
    # 0.8.8 and later pass, but 0.9.3, whose 'failed to submit' 0.9.6 fixed (radxa/kernel#312)
    for version, flagged in (("0.8.8", False), ("0.9.2", False), ("0.9.3", True), ("0.9.6", False)):
        current = replace(low, versions=Versions(driver=version, runtime="1.6.0"))
        said = [f for f in run("RKN050", current, "rk3588") if f"driver {version}" in f.message]
        assert bool(said) is flagged
        if flagged:
            assert "fixed by 0.9.6" in said[0].message and "0.9.6 or later" in said[0].fix
            # a run that completed was not hit by it: information, said so (an RK3562 demo
            # under 0.9.3 that printed its Top-5 got a warning that its driver fails tasks)
            assert said[0].severity is Severity.INFO
            assert said[0].message.endswith("this run completed, so its model is not one it fails")
    failed = replace(
        low,
        versions=Versions(driver="0.9.3", runtime="1.6.0"),
        failures=(
            KnownFailure("submit-failed", 3, "E RKNN: failed to submit!", "d", "c", "f", "s"),
        ),
    )
    [said] = [f for f in run("RKN050", failed, "rk3588") if "driver 0.9.3" in f.message]
    assert said.severity is Severity.WARNING and "this run completed" not in said.message
    assert driver.fix.endswith("keep the board's runtime library at the toolkit's version (2.3.2)")
    [clock] = [f for f in findings if "800 MHz" in f.message]
    assert clock.est_saving_us == pytest.approx(8000 * (1 - 800 / 1000))
    ok = P(
        L(1, "Conv", NPU, 8000),
        frequencies=Frequencies(npu_hz=(1_000_000_000,), ddr_hz=(2_112_000_000,)),
        versions=Versions(driver="0.9.8"),
    )
    assert [f.message for f in run("RKN050", ok, "rk3588") if "perf_debug" not in f.message] == []


# --- RKN060 post-processing / RKN061 attention -----------------------------------------------


def test_rkn060_dfl_softmax_on_npu() -> None:
    profile = P(
        L(1, "ConvExSwish", NPU, 20000),
        L(2, "exSoftmax13", NPU, 14254, full_name="exSoftmax13:/model.23/dfl/Softmax"),
        L(3, "Conv", NPU, 300, full_name="Conv:/model.23/dfl/conv/Conv"),
        L(4, "OutputOperator", CPU, 10),
    )
    [finding] = run("RKN060", profile, "rk3588")
    assert finding.layer_ids == (2, 3) and finding.est_saving_us == 14254 + 300
    assert "#2 exSoftmax13 (exSoftmax13:/model.23/dfl/Softmax) 14,254 us" in finding.message
    assert finding.severity is Severity.ERROR


def test_rkn060_softmax_mid_network_is_not_post_processing() -> None:
    layers = [L(1, "Conv", NPU, 100), L(2, "Softmax", NPU, 500)]
    layers += [L(k, "Conv", NPU, 100) for k in range(3, 20)] + [L(20, "OutputOperator", CPU, 1)]
    assert run("RKN060", P(*layers)) == []


def test_rkn060_a_rotary_embedding_after_a_projection_is_not_a_decode() -> None:
    """A public SmolVLA query probe (RK3588, FP16): Split, Mul, Sub, Add and Concat after the
    ``q_proj`` MatMul the compiler made a conv are a rotary position embedding, not a decode
    (RKN060 called it post-processing, error, 66% of the frame). A sigmoid there, or the
    same Sub tail after a detector's plain conv, still is one."""
    rope = [
        L(7, "Split", NPU, 28, full_name="Split:/Split_2"),
        L(8, "Mul", NPU, 30, full_name="Mul:/Mul_33"),
        L(11, "Sub", NPU, 21, full_name="Sub:/Sub_2"),
        L(13, "Add", NPU, 22, full_name="Add:/Add_4"),
        L(14, "Concat", NPU, 25, full_name="Concat:/ScatterND_4_update_concat"),
        L(15, "OutputOperator", CPU, 5),
    ]
    projection = L(4, "Conv", NPU, 60, full_name="Conv:/q_proj_1/MatMul#2")
    assert run("RKN060", P(projection, *rope), "rk3588") == []
    sigmoid = L(12, "Sigmoid", NPU, 40, full_name="Sigmoid:/head/Sigmoid")
    [finding] = run("RKN060", P(projection, *rope[:-1], sigmoid, rope[-1]), "rk3588")
    assert 12 in finding.layer_ids
    detector = L(4, "Conv", NPU, 60, full_name="Conv:/model.22/cv3.2/Conv")
    [finding] = run("RKN060", P(detector, *rope), "rk3588")
    assert finding.layer_ids == (7, 8, 11, 13, 14)


def test_rkn070_gelu_of_a_transformer_is_not_priced_by_a_cnns_silu_figure() -> None:
    """A public SigLIP ViT profile (RK3588, FP16): 12 ConvExGelu layers in its MLPs were priced
    at the model zoo's yolov5s SiLU figure (then 35.3%) and told to retrain with ReLU. Without a
    same-shape twin in the log they are not priced; SiLU convs beside them still are; a GELU
    conv with a twin is measured."""
    gelu = L(
        7,
        "ConvExGelu",
        NPU,
        7263,
        i=((1, 768, 1, 1024), (3072, 768, 1, 1)),
        o=((1, 3072, 1, 1024),),
        dtype="FLOAT16",
        full_name="Conv:/vision_model/encoder/layers.0/mlp/fc1/MatMul#2",
    )
    assert run("RKN070", P(L(1, "Conv", NPU, 20000), gelu), "rk3588") == []
    silu = L(3, "ConvExSwish", NPU, 4000, i=((1, 64, 80, 80), (64, 64, 3, 3)), o=((1, 64, 80, 80),))
    [finding] = run("RKN070", P(L(1, "Conv", NPU, 20000), silu, gelu), "rk3588")
    assert finding.layer_ids == (3,) and "ConvExGelu" not in finding.message
    assert finding.est_saving_us == pytest.approx(4000 * 0.375, rel=0.01)
    twin = L(9, "Conv", NPU, 5000, i=gelu.input_shapes, o=gelu.output_shapes, dtype="FLOAT16")
    [finding] = run("RKN070", P(L(1, "Conv", NPU, 20000), gelu, twin), "rk3588")
    assert finding.layer_ids == (7,) and finding.est_saving_us == pytest.approx(7263 - 5000)


def test_rkn071_an_attention_tensor_is_not_an_image() -> None:
    """A public attention probe (RK3588, FP16): inputs ``query``, ``key``, ``value`` of
    (1, 3, 1024, 64) are 3 heads of 1024 tokens; RKN071 told it to feed the image rotated. An
    input named ``images`` of that shape is still a tall image."""

    def model(name: str):
        return P(
            L(1, "InputOperator", CPU, 1, o=((1, 3, 1024, 64),), full_name=f"InputOperator:{name}"),
            L(4, "Conv", NPU, 29, i=((1, 3, 1024, 64), (3, 3, 1, 1)), o=((1, 3, 1024, 64),)),
            L(12, "exSDPAttention", NPU, 400, o=((3, 64, 1, 1024),)),
        )

    for name in ("query", "key", "value", "hidden_states"):
        assert run("RKN071", model(name), "rk3588") == [], name
    [tall] = run("RKN071", model("images"), "rk3588")
    assert "the input is tall (1024x64" in tall.message


def test_rkn030_a_broadcast_mul_is_not_counted_as_splitting() -> None:
    """A public three-core profile ran its broadcast Muls ((1,50,15,32) x (1,50,1,32)) on core
    0 while its same-shape Add split: on a one-core run, RKN030 said "only Conv, Mul split" for
    an attention probe's broadcast Muls. A same-shape Mul still counts."""
    conv = L(
        4, "Conv", NPU, 3000, i=((1, 3, 1024, 64), (3, 3, 1, 1)), workload_pct=(100.0, 0.0, 0.0)
    )
    wide = L(
        5, "Mul", NPU, 3000, i=((1, 3, 1024, 64), (1, 1, 1, 1)), workload_pct=(100.0, 0.0, 0.0)
    )
    same = L(
        6, "Mul", NPU, 3000, i=((1, 3, 1024, 64), (1, 3, 1024, 64)), workload_pct=(100.0, 0.0, 0.0)
    )
    [finding] = run("RKN030", P(conv, wide), "rk3588")
    assert "only Conv split" in finding.message
    [finding] = run("RKN030", P(conv, same), "rk3588")
    assert "only Conv, Mul split" in finding.message


def test_rkn061_attention_per_platform() -> None:
    profile = P(
        L(1, "ConvExSwish", NPU, 8000),
        L(
            2,
            "exSDPAttention",
            NPU,
            1338,
            i=((2, 32, 1, 400), (2, 32, 1, 400)),
            full_name="exSDPAttention:node_matmul_1#1_2sdpa",
        ),
    )
    [rk3588] = run("RKN061", profile, "rk3588")
    # idle cores are throughput, not a latency saving; no kernel is faster on RK3588
    assert rk3588.est_saving_us == 0 and rk3588.throughput_gain.factor == 3
    assert "no Flash Attention" in rk3588.fix and "one context per core" in rk3588.fix
    assert "#2 exSDPAttention (exSDPAttention:node_matmul_1#1_2sdpa) 1,338 us" in rk3588.message
    [rk3576] = run("RKN061", profile, "rk3576")
    # Flash Attention's speed-up is not published: no figure is claimed
    assert "enable_flash_attention=True" in rk3576.fix and rk3576.est_saving_us == 0
    assert run("RKN061", P(L(1, "Conv", NPU, 100000), profile.layers[1])) == []  # 1.3%


def test_rkn011_narrow_conv_gets_no_widen_advice() -> None:
    # 16 -> 16 is computed as 32 -> 32: widening costs nothing and saves nothing, narrowing
    # is still padded to 32 -- no finding (the review's "widen channels" false positive)
    narrow = L(
        6,
        "ConvExSwish",
        NPU,
        4094,
        i=((1, 16, 480, 480), (16, 16, 3, 3), (16,)),
        o=((1, 16, 480, 480),),
        ddr_cycles=311802,
        npu_cycles=2073600,
        mac_usage_pct=12.66,
        bound=Bound.COMPUTE,
    )
    assert run("RKN011", P(narrow, L(7, "Concat", NPU, 100000)), "rk3588") == []
