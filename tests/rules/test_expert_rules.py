"""The expert's first fixes (issue #17 item 2) on their fixture logs. The fixtures are written by
``tests/data/rules/make_fixtures.py`` (``expert_fixtures``); every expected number below is
read off the fixture text or follows from how the fixture was built."""

from __future__ import annotations

from pathlib import Path

import pytest

from rknnprof.api import load
from rknnprof.model import Confidence

DATA = Path(__file__).resolve().parent.parent / "data" / "rules"


def finding(name: str, code: str):
    [profile] = load(DATA / f"{name}.txt")
    [found] = [f for f in profile.findings if f.code == code]
    return found


def test_activation_swap_pairs_a_silu_conv_with_its_plain_twin() -> None:
    # #3 ConvExSwish 64->64 1x1 @80x80 600 us and #5 Conv, same shapes, 240 us: the activation
    # costs 360 us per 64x80x80 = 409,600 output elements. #4 ConvExSwish 64->96 3x3 500 us has
    # no twin: its 614,400 elements at that cost would be 540 us, but its 345,600 NPU cycles
    # take 345.6 us at 1 GHz, so it keeps those: 500 - 345.6
    found = finding("RKN070", "RKN070")
    assert dict(found.saving_by_layer) == pytest.approx({3: 360.0, 4: 500 - 345.6})
    assert found.layer_ids == (3, 4)
    assert found.confidence is Confidence.MEDIUM  # one layer rests on the pairs' scaling
    assert (
        "#3 ConvExSwish (Conv:/model.4/cv1/conv/Conv) takes 600 us against 240 us for #5 Conv"
    ) in found.message
    assert "with the same shapes: 60.0% of its time is the activation" in found.message
    assert found.message.startswith("2 ConvExSwish (SiLU) layer(s) take 1,100 us")
    assert "1 layer(s) (#3) against a same-shape plain conv in this log" in found.basis
    assert "1 layer(s) (#4) at the activation's cost per output element" in found.basis
    assert "879 us per million output elements" in found.basis
    assert "never below the layer's own cycles" in found.basis
    assert "retrain with ReLU" in found.fix


def test_activation_swap_under_a_multi_core_mask_pairs_with_a_split_twin() -> None:
    # the RKN070 fixture with the plain Conv #5 split 33.3/33.3/33.3 while the ConvExSwish
    # layers ran on core 0 alone: ReLU convs split, so the swap buys the split too and the
    # split twin measures it for #3 (600 - 240 us), but not the activation's cost per output
    # element (its gap is mostly the split, which grows with time): #4 at the model zoo's
    # 37.5 % of its 500 us (187.6), kept above its own cycles (500 - 345.6)
    found = finding("RKN070_core_split", "RKN070")
    assert dict(found.saving_by_layer) == pytest.approx({3: 360.0, 4: 500 - 345.6})
    assert (
        "takes 600 us against 240 us for #5 Conv (Conv:/model.22/cv2.0/cv2.0.2/Conv) with the "
        "same shapes, which ran split across 3 cores: the swap would save 60.0% of its time "
        "under this run's mask"
    ) in found.message
    assert "is the activation" not in found.message
    assert "ran split under this run's mask: the swap buys the split too" in found.basis
    assert "1 layer(s) (#4) at 37.5% of their time" in found.basis
    assert "per output element" not in found.basis
    assert "ran on core 0 alone" in found.message


@pytest.mark.parametrize(("platform", "stays"), [("rk3588", True), ("rk3576", False)])
def test_activation_swap_says_silu_stays_on_core_0_only_where_it_does(
    platform: str, stays: bool
) -> None:
    """RK3588's multi-core op list leaves ConvExSwish on core 0; RK3576's splits it: the
    finding says the SiLU convs would stay on core 0 only on the first (a public RK3588 log
    read as RK3576 said both that and, in RKN030, that ConvExSwish splits)."""
    [profile] = load(DATA / "RKN070.txt", platform=platform)
    [found] = [f for f in profile.findings if f.code == "RKN070"]
    assert ("would stay on core 0 while ConvRelu splits" in found.message) is stays


def test_activation_swap_leaves_an_output_sigmoid_alone() -> None:
    [profile] = load(DATA / "RKN070_ok.txt")
    assert not [f for f in profile.findings if f.code == "RKN070"]


def findings(name: str, code: str) -> list:
    [profile] = load(DATA / f"{name}.txt")
    return [f for f in profile.findings if f.code == code]


def test_unfused_activation_after_conv_add_and_behind_a_transpose() -> None:
    # #3 ConvAdd -> #4 LeakyRelu 420 us; #5 Conv -> #6 Transpose -> #7 Clip 130 us
    after_add, behind = sorted(findings("RKN023", "RKN023"), key=lambda f: f.layer_ids)
    assert after_add.layer_ids == (3, 4) and after_add.saving_by_layer == ((4, 420.0),)
    assert after_add.est_saving_us == 420.0 and after_add.confidence is Confidence.MEDIUM
    assert "not Conv+Add+LeakyRelu" in after_add.message
    assert after_add.fix.startswith("after the residual Add use ReLU (fuses as ConvAddRelu)")
    assert behind.layer_ids == (5, 7) and behind.saving_by_layer == ((7, 130.0),)
    assert "#5 Conv -> #6 Transpose (Transpose:/head/Transpose) -> #7 Clip" in behind.message


def test_unfused_conv_is_silent_where_its_fix_already_holds() -> None:
    # Conv next to its Relu, ConvAdd next to a Relu: adjacent already, nothing to move
    assert not findings("RKN023_ok", "RKN023")


def test_post_processing_claims_the_decode_tail_after_the_last_feature_conv() -> None:
    # #4 ConvRelu is the last feature conv; then #5 Reshape 30, #6 exSoftmax13 3100 (DFL),
    # #7 Conv (dfl) 120, #8 Sub 60, #9 Mul 50, #10 Concat 70 -> 3,430 us
    [found] = findings("RKN060", "RKN060")
    assert found.layer_ids == (5, 6, 7, 8, 9, 10)
    assert found.saving_by_layer == ((5, 30), (6, 3100), (7, 120), (8, 60), (9, 50), (10, 70))
    assert found.est_saving_us == 3430 and found.confidence is Confidence.MEDIUM
    assert "6 layer(s) after the last feature conv" in found.message
    assert found.fix.startswith("end the exported model before the softmax/decode")


def test_post_processing_ignores_a_deep_softmax_and_an_output_layout_tail() -> None:
    assert not findings("RKN060_ok", "RKN060")


def test_measurement_hygiene_time_outside_the_table_and_noisy_twins() -> None:
    # table total 1,785 us; the application's line says 2.3205 ms (1.3 x); #3 Concat 900 us and
    # #4 Concat 300 us have the same shapes and cycles in the one frame; no frequency list
    outside, caveat, twins = findings("RKN050_outside", "RKN050")
    assert outside.est_saving_us == pytest.approx(2320.5 - 1785)
    assert outside.saving_by_layer == () and outside.confidence is Confidence.MEDIUM
    assert "inference time 2.32 ms is 536 us above the per-layer table's 1.78 ms" in (
        outside.message
    )
    assert "rknn_mem_sync one way only" in outside.fix
    assert "no CPU/NPU/DDR frequency list" in caveat.message
    assert caveat.fix.startswith("fix the clocks before profiling")
    assert twins.layer_ids == (3, 4) and twins.est_saving_us == 0
    assert "#3 Concat (Concat:/neck/Concat_0) 900 us against 300 us for #4 (3.0x)" in (
        twins.message
    )
    assert twins.fix.startswith("re-measure")


def test_input_resolution_scales_the_conv_time_by_the_pixels() -> None:
    # input 1280x1280 = 4x 640x640; #2 ConvRelu 4,000 us and #3 ConvRelu 2,000 us: each keeps
    # a quarter of its time
    found = finding("RKN071", "RKN071")
    assert found.saving_by_layer == ((2, 3000.0), (3, 1500.0)) and found.est_saving_us == 4500
    assert found.confidence is Confidence.MEDIUM
    assert found.message.startswith("the input is 1280x1280, 4.0x the pixels of the usual 640x640")
    assert "at 640x640 they would take about 1,500 us" in found.message
    assert found.fix.startswith("export the model at 640x640")


def test_input_resolution_tall_input_and_small_input() -> None:
    [tall] = findings("RKN071_tall", "RKN071")
    assert tall.message.startswith("the input is tall (960x544, height 1.8x the width)")
    assert tall.est_saving_us == 0 and tall.severity.value == "info"
    assert not findings("RKN071_ok", "RKN071")


def test_norm_wrapped_in_transposes_with_its_affine() -> None:
    # #3 Transpose 300 -> #4 exNorm 200 -> #5 Transpose 280 -> #6 Mul 90 -> #7 Add 80, the
    # Mul/Add by (1,64,1,1): the wrappers and the affine go (750 us), the norm stays
    found = finding("RKN072", "RKN072")
    assert found.layer_ids == (3, 4, 5, 6, 7)
    assert dict(found.saving_by_layer) == {3: 300, 5: 280, 6: 90, 7: 80}
    assert found.est_saving_us == 750 and found.confidence is Confidence.MEDIUM
    assert "#3 Transpose -> #4 exNorm -> #5 Transpose -> #6 Mul -> #7 Add; together 950 us" in (
        found.message
    )
    assert "the per-channel Mul/Add fuse into it" in found.fix and "next conv" in found.fix
    assert not findings("RKN072_ok", "RKN072")  # exNorm over the channels, no Transpose


def test_post_processing_tail_stops_at_an_attention() -> None:
    # a transformer end: ... Conv, exMatMul, Add, Softmax, output: the tail is Add + Softmax
    from rknnprof.model import Layer, Profile, SourceSpan, Target

    def lay(i, op, t, shape=(1, 64, 1, 100)):
        return Layer(i, op, Target.NPU, input_shapes=(shape,), output_shapes=(shape,), time_us=t)

    layers = (
        lay(1, "Conv", 500),
        lay(2, "exMatMul", 900),
        lay(3, "Add", 40),
        lay(4, "Softmax", 60),
        Layer(5, "OutputOperator", Target.CPU, time_us=2),
    )
    from rknnprof.rules import by_code
    from rknnprof.rules.base import RuleContext

    [found] = by_code("RKN060").check(Profile(SourceSpan("x"), "t", layers=layers), RuleContext())
    assert found.layer_ids == (3, 4) and found.est_saving_us == 100


def test_norm_chain_through_a_reshape_and_a_transpose() -> None:
    # Transpose -> Reshape -> exLayerNorm -> Reshape -> Transpose -> Mul (per-channel)
    from rknnprof.model import Layer, Profile, SourceSpan, Target
    from rknnprof.rules import by_code
    from rknnprof.rules.base import RuleContext

    def lay(i, op, t, a, b):
        return Layer(i, op, Target.NPU, input_shapes=a, output_shapes=(b,), time_us=t)

    x, t, r = (1, 32, 40, 40), (1, 40, 40, 32), (1, 1600, 32)
    layers = (
        lay(1, "Conv", 300, ((1, 16, 40, 40),), x),
        lay(2, "Transpose", 50, (x,), t),
        lay(3, "Reshape", 5, (t,), r),
        lay(4, "exLayerNorm", 70, (r,), r),
        lay(5, "Reshape", 5, (r,), t),
        lay(6, "Transpose", 45, (t,), x),
        lay(7, "Mul", 20, (x, (1, 32, 1, 1)), x),
        lay(8, "Conv", 300, (x,), x),
    )
    [found] = by_code("RKN072").check(Profile(SourceSpan("x"), "t", layers=layers), RuleContext())
    assert found.layer_ids == (2, 3, 4, 5, 6, 7) and found.est_saving_us == 125


def test_a_transpose_after_a_bare_norm_is_the_next_ops() -> None:
    """A SigLIP vision tower's last LayerNorm, as a public FP16 RK3588 profile prints it: the
    exNorm over (1,768,1,1024) fed by the encoder's conv, then a Transpose to (1,1024,1,768)
    and the connector's Reshape. Nothing moves an axis into the norm (its other LayerNorms of
    that shape ran bare): the Transpose restores the layout the Reshape wants, and no export of
    the norm removes it (RKN072 priced it at 2,181 us)."""
    from rknnprof.model import Layer, Profile, SourceSpan, Target
    from rknnprof.rules import by_code
    from rknnprof.rules.base import RuleContext

    def lay(i, op, t, a, b):
        return Layer(i, op, Target.NPU, input_shapes=a, output_shapes=(b,), time_us=t)

    x, t = (1, 768, 1, 1024), (1, 1024, 1, 768)
    layers = (
        lay(1, "ConvAdd", 22000, (x, (768, 3072, 1, 1)), x),
        lay(2, "exNorm", 900, (x, (1, 768, 1, 1), (1, 768, 1, 1)), x),
        lay(3, "Transpose", 1500, (x,), t),
        lay(4, "Reshape", 681, (t, (4,)), (1, 32, 8, 3072)),
        lay(5, "Conv", 3000, ((1, 3072, 32, 8),), (1, 960, 32, 8)),
    )
    profile = Profile(SourceSpan("x"), "t", layers=layers)
    assert not list(by_code("RKN072").check(profile, RuleContext()))


def test_a_transpose_before_a_norm_alone_is_the_inputs_layout() -> None:
    """A public three-core FP16 table: the model input (1,50,1,480) transposed to (1,480,1,50),
    an exNorm over axis 1, then a 1x1 conv that wants that layout too. Nothing moves an axis
    back out: the Transpose is the input's, no export of the norm removes it (RKN072 called it
    a wrapper)."""
    from rknnprof.model import Layer, Profile, SourceSpan, Target
    from rknnprof.rules import by_code
    from rknnprof.rules.base import RuleContext

    def lay(i, op, t, a, b):
        return Layer(i, op, Target.NPU, input_shapes=a, output_shapes=(b,), time_us=t)

    x, t = (1, 50, 1, 480), (1, 480, 1, 50)
    layers = (
        lay(5, "InputOperator", 5, (x,), x),
        lay(6, "Transpose", 58, (x,), t),
        lay(7, "exNorm", 40, (t, (1, 480, 1, 1), (1, 480, 1, 1)), t),
        lay(8, "Conv", 120, (t, (960, 480, 1, 1)), (1, 960, 1, 50)),
    )
    profile = Profile(SourceSpan("x"), "t", layers=layers)
    assert not list(by_code("RKN072").check(profile, RuleContext()))


def test_post_processing_leaves_attention_softmax_alone() -> None:
    # a softmax feeding exMatMul near the output is attention; a ranking with MatMul and 12
    # Softmax calls is a transformer's
    from rknnprof.model import Layer, OpTypeStat, Profile, SourceSpan, Target
    from rknnprof.rules import by_code
    from rknnprof.rules.base import RuleContext

    def lay(i, op, t, shape=(1, 8, 100, 100)):
        return Layer(i, op, Target.NPU, input_shapes=(shape,), output_shapes=(shape,), time_us=t)

    rows = (
        lay(1, "Softmax", 300),
        lay(2, "exMatMul", 500),
        lay(3, "Conv", 200),
        Layer(4, "OutputOperator", Target.CPU, time_us=2),
    )
    check = by_code("RKN060").check
    assert not list(check(Profile(SourceSpan("x"), "t", layers=rows), RuleContext()))
    ranking = (OpTypeStat("exMatMul", 24, 0, 9000, 9000), OpTypeStat("Softmax", 12, 0, 3000, 3000))
    assert not list(
        check(
            Profile(SourceSpan("x"), "t", ranking=ranking, reported_total_time_us=20000),
            RuleContext(),
        )
    )


def test_environment_flags_a_layer_far_slower_than_its_cycles() -> None:
    # RKN050_paced: #9 ConvRelu 64->96 3x3 takes 3,456 us for 345,600 cycles (10.0 ns per
    # cycle); the table's other convs run at 1.25 ns per cycle (time = cycles / 1000 / 0.8)
    [paced] = [f for f in findings("RKN050_paced", "RKN050") if "time per cycle" in f.basis]
    assert paced.layer_ids == (9,)
    assert paced.est_saving_us == 0.0
    assert "#9 ConvRelu (Conv:/neck/wide/Conv) 3,456 us for 345,600 cycles (8.0x)" in paced.message
    assert paced.fix.startswith("re-measure")


def test_environment_leaves_a_table_at_one_pace_alone() -> None:
    # the RKN070 fixture: fewer than 8 paced layers; RKN072's: all at the default pace
    for name in ("RKN070", "RKN072_ok", "RKN050"):
        assert not [f for f in findings(name, "RKN050") if "time per cycle" in f.basis]


def test_a_resize_at_an_integer_scale_points_at_its_mode():
    """The bundled sample: #60 Resize (1,128,40,40) -> (1,128,80,80) on the CPU, #51 Resize
    (1,256,20,20) -> (1,256,40,40) on the NPU. Both x2, which the NPU takes: the 'why' listed
    the scale limits as if they were the cause; now it says the scale fits, names the mode
    (which the log does not print) and the x2 twin that runs on the NPU."""
    from pathlib import Path

    from rknnprof.api import load

    sample = Path(__file__).resolve().parents[2] / "sample_logs" / "yolov5s_rk3588_perf.txt"
    [profile] = load(str(sample))
    [found] = [f for f in profile.findings if f.code == "RKN001"]
    assert "its scale x2/x2 fits the NPU's integer 2..8, so its mode" in found.message
    assert "#51 Resize, x2 too, runs on the NPU: compare the two nodes' attributes" in (
        found.message
    )


@pytest.mark.parametrize(
    ("toolkit", "called"),
    [
        ("1.5.0", "rknn.config(quantized_dtype='asymmetric_quantized-8')"),
        ("2.3.2", "rknn.config(quantized_dtype='w8a8')"),
        (None, "rknn.config(quantized_dtype='w8a8') (rknn-toolkit2 1.x names it"),
    ],
)
def test_rkn002_names_the_int8_setting_of_the_toolkit_that_built_it(toolkit, called):
    """toolkit2 1.x rejects 'w8a8' (it takes 'asymmetric_quantized-8'), 2.x the old name: the
    fix told a 1.5 user the 2.x spelling."""
    from rknnprof.model import Layer, Profile, SourceSpan, Target, Versions
    from rknnprof.rules import run_rules

    layers = tuple(
        Layer(id=i, op_type="Conv", target=Target.NPU, time_us=2000.0, data_type="FLOAT16",
              full_name=f"Conv:c{i}", npu_cycles=500_000, ddr_cycles=100_000)
        for i in range(1, 6)
    )  # fmt: skip
    profile = Profile(SourceSpan("x.txt", 1, 9), "toolkit2-perf-table", layers=layers,
                      versions=Versions(toolkit=toolkit), platform="rk3588")  # fmt: skip
    found = [f for f in run_rules(profile) if f.code == "RKN002"]
    assert found and called in (found[0].fix or "")


def test_the_clock_fixing_command_quotes_its_glob():
    """``find /sys/ -name *governor`` lets the shell expand the glob in the working directory
    first (a file named 'xgovernor' there changes the command): the pattern is quoted."""
    from rknnprof.rules.environment import FIX_CLOCKS

    assert "$(find /sys/ -name '*governor')" in FIX_CLOCKS
