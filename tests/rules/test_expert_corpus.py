"""The fixes an RKNPU expert puts first, on real logs (issue #17 item 2). Expected values are
read from the corpus files, not from the code's output; each test says where."""

from __future__ import annotations

import pytest

from rknnprof.api import load
from rknnprof.model import Confidence
from tests.conftest import corpus_file


def only(prefix: str):
    [profile] = load(corpus_file(prefix))
    return profile


def codes(profile, code: str) -> list:
    return [f for f in profile.findings if f.code == code]


def test_05_cpu_softmax_seen_only_in_the_ranking_reaches_rkn001() -> None:
    # 05 prints rows 1-2, then `...`; its ranking: exSoftmax13 1 call, CPU Time 387 us, 1.9 %
    # of the log's total 20,274 us
    [finding] = codes(only("05_"), "RKN001")
    assert finding.message.startswith("exSoftmax13 runs on the CPU: 387 us (1.9% of the frame)")
    assert "rows are elided" in finding.message and finding.layer_ids == ()


def test_37_cpu_op_with_a_printed_row_is_reported_once() -> None:
    # 37 elides rows 5-54 but prints #56 Reshape on the CPU (61 us); its ranking repeats it
    [finding] = codes(only("37_"), "RKN001")
    assert finding.layer_ids == (56,)


ZOO = (1 - 48.4 / 66.1) / (22898 / 32070)
"""rknn_model_zoo benchmark: yolov5s 48.4 FPS, yolov5s_relu 66.1 FPS (RK3588): 26.8 % of the
whole frame, carried by yolov5s's ConvExSwish layers (22,898 of 32,070 us in a public RK3588 yolov5s
profile, 71.4 % of it): 37.5 % of their own time."""


def _floor(layer) -> float:
    """The layer's own max(DDR, NPU) cycles at RK3588's 1,000 MHz, us."""
    return max(layer.ddr_cycles or 0, layer.npu_cycles or 0) / 1000.0


def test_01_activation_swap_rests_on_the_12_vs_70_pair() -> None:
    # 01's ranking: ConvExSwish 57 calls, 100,965 us, 78.61 %; #12 ConvExSwish 2,306 us and #70
    # Conv 928 us share (1,64,240,240),(64,64,1,1),(64) -> (1,64,240,240) and 311889/460800:
    # the activation costs 1,378 us per 64x240x240 = 3,686,400 output elements
    profile = only("01_")
    [found] = codes(profile, "RKN070")
    assert found.message.startswith(
        "57 ConvExSwish (SiLU) layer(s) take 100,965 us (78.6% of the frame)"
    )
    assert (
        "#12 ConvExSwish (Conv:/model.4/cv1/conv/Conv) takes 2,306 us against 928 us for #70"
        in (found.message)
    )
    per_element = 1378 / 3_686_400
    saved = dict(found.saving_by_layer)
    assert saved[12] == pytest.approx(2306 - 928)
    # #3 (1,32,480,480) 4,862 us, 2,073,600 cycles: 7,372,800 elements x the pair's cost
    assert saved[3] == pytest.approx(per_element * 7_372_800)
    # #7 (1,16,480,480) 3,921 us: as many elements as #12, so the pair's 1,378 us
    assert saved[7] == pytest.approx(1378)
    # #2, the UINT8 stem (no INT8 pair applies), 16,130 us: the model-zoo share of its time,
    # above its 8,294,400 cycles' 8,294 us
    assert saved[2] == pytest.approx(16130 * ZOO)
    by_id = {la.id: la for la in profile.layers}
    for i, value in saved.items():  # never below the layer's own cycles at the clock
        assert by_id[i].time_us - value >= _floor(by_id[i]) - 1e-6
    assert "1 layer(s) (#12) against a same-shape plain conv" in found.basis
    assert "per output element" in found.basis and "1 layer(s) (#2) at 37.5%" in found.basis
    assert profile.findings.index(found) <= 1


@pytest.mark.parametrize(
    ("prefix", "share"),
    [
        # 07: 57 ConvExSwish, 10,643 us of 14478 (73.5 %), no same-shape plain conv
        ("07_", "10,643 us (73.5% of the frame)"),
    ],
)
def test_activation_swap_without_a_pair_takes_the_whole_model_figure(
    prefix: str, share: str
) -> None:
    # each layer saves 37.5 % of its time (the model zoo's 26.8 % of the frame carried by
    # convs holding 71.4 % of it), never below its own cycles at the clock
    profile = only(prefix)
    [found] = codes(profile, "RKN070")
    assert share in found.message
    swish = [la for la in profile.layers if la.id in found.layer_ids]
    expected = sum(min(la.time_us * ZOO, la.time_us - _floor(la)) for la in swish)
    assert found.est_saving_us == pytest.approx(expected)
    assert found.est_saving_us > 10643 * (1 - 48.4 / 66.1)  # 26.8 % of their time undercounts
    assert profile.findings.index(found) == 0


def test_36_activation_swap_pairs_then_scales_by_output_size() -> None:
    # 36: 87 ConvExSwish rows, 13,736 us of 20344 (67.5 %); five have a same-shape Conv:
    # #67 71 against #58 46 and #143 34 (the fastest counts), #117 355/#118 151,
    # #144 100/#145 48, #155 71/#143 34, #166 37/#167 21
    profile = only("36_")
    [found] = codes(profile, "RKN070")
    assert "13,736 us (67.5% of the frame)" in found.message
    saved = dict(found.saving_by_layer)
    assert saved[67] == 37 and saved[117] == 204 and saved[144] == 52 and saved[166] == 16
    assert "per output element" in found.basis
    assert profile.findings.index(found) == 0


def test_08_leaky_relu_after_conv_add_is_one_finding() -> None:
    # 08 (eval_perf.csv): #21 ConvAdd -> #22 LeakyRelu 2,977 us, #31 -> #32 4104, #33 -> #34
    # 1388, #43 -> #44 1921: 10,390 us of 163836 (6.3 %). The ConvLeakyRelu -> Add and
    # Conv -> Tanh neighbours are adjacent already: no finding for them. One frame: #22 is 2.1x
    # its twin #34 (same shapes, 2216301 cycles) and #32 2.1x #44 (3324451 cycles), so the
    # saving counts them at the twins' times: 1388 + 1921 + 1388 + 1921 = 6,618 us.
    [found] = codes(only("08_"), "RKN023")
    assert found.layer_ids == (21, 22, 31, 32, 33, 34, 43, 44)
    assert dict(found.saving_by_layer) == {22: 1388, 32: 1921, 34: 1388, 44: 1921}
    assert found.est_saving_us == 6618
    assert "for 10,390 us (6.3% of the rows shown)" in found.message
    assert (
        "#32 at 1,921 us (#44's), not its one-frame 4,104 us, #22 at 1,388 us (#34's), not "
        "its one-frame 2,977 us (re-measure, RKN050)"
    ) in found.message


def test_04_softmax_in_the_ranking_of_an_elided_table() -> None:
    # 04 prints rows 1-2; its ranking: Softmax 1 call 248 us NPU (1.75 % of 14147), and
    # exDataConvert 269 us, named but not counted
    [found] = codes(only("04_"), "RKN060")
    assert found.est_saving_us == 248 and found.layer_ids == ()
    assert "Softmax 248 us in 1 call(s) (1.8% of the frame)" in found.message
    assert "exDataConvert 269 us (1)" in found.message
    # a classifier (mobilenetv2): the fix reads for its top scores, not only for boxes
    assert "a classifier needs only its top scores" in (found.fix or "")


def test_43_dfl_softmax_in_a_ranking_only_log() -> None:
    # 43's ranking: exSoftmax13 1 call 2,344 us NPU of 131201 (1.79 %); Sigmoid 398 us (1 call),
    # Sub 202 (2), Mul 150 (2) named as the likely box decode
    [found] = codes(only("43_"), "RKN060")
    assert found.est_saving_us == 2344
    assert "exSoftmax13 2,344 us in 1 call(s) (1.8% of the frame)" in found.message
    assert "Sigmoid 398 us (1), Sub 202 us (2), Mul 150 us (2)" in found.message


def test_43_application_total_against_the_table() -> None:
    # 43: "Total inference time (in milliseconds, 4 decimal places): 151.6830 ms" against the
    # ranking's Total 131,201 us: 20,482 us outside the layers
    profile = only("43_")
    assert profile.app_time_us == 151683
    [found] = [f for f in codes(profile, "RKN050") if f.est_saving_us]
    assert found.est_saving_us == pytest.approx(20482)
    assert "151.68 ms is 20,482 us above the per-layer table's 131.20 ms" in found.message
    # the application's timer may span its pre- and post-processing: said, as the waterfall does
    assert found.message.endswith(
        "or in whatever else the application's timer spans (pre- and post-processing)"
    )


@pytest.mark.parametrize("prefix", ["01_", "07_", "36_"])
def test_no_frequency_list_means_unfixed_clocks(prefix: str) -> None:
    # 01, 07 and 36 are C-API perf details: no "NPU Current Frequency List"
    [caveat] = [f for f in codes(only(prefix), "RKN050") if "frequency list" in f.message]
    assert "scaling_frequency.sh" in caveat.fix


def test_08_single_frame_twins_that_differ_twice_are_flagged() -> None:
    # 08 is one frame; same op type, shapes and cycles, at least 2x and 100 us apart:
    # #26/#38 Concat 8445/3526, #24/#36 Concat 5672/2321, #29/#41 Add 4037/1835,
    # #32/#44 LeakyRelu 4104/1921, #22/#34 LeakyRelu 2977/1388 -> 14,244 us slower
    [twins] = [f for f in codes(only("08_"), "RKN050") if "sibling" in f.message]
    assert twins.layer_ids == (26, 38, 24, 36, 29, 41, 32, 44, 22, 34)
    assert "14,244 us (8.7% of the rows shown)" in twins.message


def test_01_input_resolution_comes_first() -> None:
    # 01: InputOperator (1,3,1920,1920) = 9x 640x640; every NPU row works on a feature map:
    # the frame 128,441 us less the CPU's 9 OutputOperator rows (ranking: 1,134 us) and its
    # InputOperator (4 us) is 127,303 us, over 108 - 10 = 98 rows
    profile = only("01_")
    [found] = codes(profile, "RKN071")
    assert profile.findings[0] is found
    assert found.est_saving_us == pytest.approx(127303 * (1 - 1 / 9))
    assert len(found.layer_ids) == 98
    assert (
        "1920x1920, 9.0x the pixels of the usual 640x640: the 98 NPU layers that work on "
        "feature maps take 127,303 us" in found.message
    )


@pytest.mark.parametrize("prefix", ["07_", "36_", "08_", "04_"])
def test_usual_inputs_get_no_resolution_finding(prefix: str) -> None:
    # 07 and 36 are 640x640, 08 two 160x640 (wide), 04 224x224
    assert not codes(only(prefix), "RKN071")


def test_27_norm_between_two_transposes_from_the_ranking() -> None:
    # 27 (UNet FP16, ranking only): exNorm 1 call 20,555 us, Transpose 2 calls 27,731 us,
    # 48286 of 183,003 us (26.4 %); 28, the slimmed model, has neither
    [found] = codes(only("27_"), "RKN072")
    assert found.est_saving_us == 27731 and found.confidence.value == "low"
    assert "together 48,286 us (26.4% of the frame)" in found.message
    assert "An assumption" in found.message
    assert not codes(only("28_"), "RKN072")


def test_43_silu_priced_from_the_ranking_alone() -> None:
    # 43's ranking: ConvExSwish 138 calls, 95,657 us NPU of the 131,201 us frame (72.9 %); no
    # per-layer rows, so no pair and no cycles: the model zoo's 37.5 % of the SiLU convs' own
    # time (26.8 % of yolov5s's frame over its ConvExSwish layers' 71.4 %), at low confidence
    [found] = codes(only("43_"), "RKN070")
    assert found.est_saving_us == pytest.approx(95657 * ZOO)
    assert found.layer_ids == () and found.confidence is Confidence.LOW
    assert found.message.startswith(
        "ConvExSwish (SiLU) 95,657 us in 138 call(s) (72.9% of the frame) in the ranking table"
    )
