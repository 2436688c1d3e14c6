"""MAC counts, utilisation and waste factor, checked against rows read from the corpus by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

import rknnprof
from rknnprof.analysis.mac import (
    conv_geometry,
    conv_macs,
    core_mac_usage_pct,
    improve_theoretical_pct,
    mac_estimate,
    mac_table,
    mask_cores,
    used_cores,
)
from rknnprof.model import Frequencies, Layer, Profile, SourceSpan, Target
from rknnprof.platforms import get

RK3588 = get("rk3588")


def conv(data, weight, out, time_us=None, npu=None, usage=None, dtype="INT8", op="ConvExSwish"):
    return Layer(
        id=2,
        op_type=op,
        data_type=dtype,
        target=Target.NPU,
        input_shapes=(data, weight, (weight[0],)),
        output_shapes=(out,),
        time_us=time_us,
        npu_cycles=npu,
        mac_usage_pct=usage,
    )


# corpus 01 row 2: (1,3,1920,1920),(16,3,3,3) -> (1,16,960,960), 8294400 NPU cycles, 16130 us, 2.41 %
ROW2 = conv((1, 3, 1920, 1920), (16, 3, 3, 3), (1, 16, 960, 960), 16130, 8294400, 2.41, "UINT8")


def test_corpus01_row2_lines_up_with_the_printed_mac_usage() -> None:
    est = mac_estimate(ROW2, RK3588)
    assert est.macs == 16 * 960 * 960 * 3 * 3 * 3 == 398_131_200
    assert est.ideal_cycles == 398_131_200 / 1024 == 388_800
    # 388800 / (16130 us * 1000 MHz) = 2.4104 %, the log prints 2.41
    assert est.utilisation_pct == pytest.approx(388_800 / 16_130_000 * 100)
    assert round(est.utilisation_pct, 2) == 2.41
    # 8294400 / 388800 = 21.33: 3 -> 32 input channels (x10.67), 16 -> 32 output (x2)
    assert est.waste_factor == pytest.approx(8_294_400 / 388_800)
    assert est.aligned_cycles == 960 * 960 * 9 * 32 * 32 // 1024 == 8_294_400


@pytest.mark.parametrize(
    "data, weight, out, time_us, npu, usage",
    [
        # corpus 01 row 3: 16->32 3x3 s2; 21.32 %, NPU 2073600 (= 2x ideal: 16 in padded to 32)
        ((1, 16, 960, 960), (32, 16, 3, 3), (1, 32, 480, 480), 4862, 2_073_600, 21.32),
        # corpus 01 row 12: 64->64 1x1; 9.99 %, NPU 460800 (1x1 floor: depth 128)
        ((1, 64, 240, 240), (64, 64, 1, 1), (1, 64, 240, 240), 2306, 460_800, 9.99),
        # corpus 07 row 2: 3->12 2x2 s2; 1.78 %, NPU 409600
        ((1, 3, 640, 640), (12, 3, 2, 2), (1, 12, 320, 320), 810, 409_600, 1.78),
    ],
)
def test_more_corpus_rows(data, weight, out, time_us, npu, usage) -> None:
    est = mac_estimate(conv(data, weight, out, time_us, npu, usage), RK3588)
    assert round(est.utilisation_pct, 2) == usage
    assert est.aligned_cycles == npu


def test_depthwise_rknn_weight_layout() -> None:
    # corpus 36 row 106: (1,64,80,80),(1,64,3,3) -> (1,64,80,80), 249 us, MacUsage 1.45, NPU 57600
    layer = conv((1, 64, 80, 80), (1, 64, 3, 3), (1, 64, 80, 80), 249, 57_600, 1.45)
    geometry = conv_geometry(layer)
    assert geometry.kind == "depthwise" and geometry.groups == 64
    est = mac_estimate(layer, RK3588)
    assert est.macs == 64 * 80 * 80 * 9 == 3_686_400
    assert round(est.utilisation_pct, 2) == 1.45  # 3600 cycles / 249000
    assert est.aligned_cycles == 57_600 and est.waste_factor == 16


def test_onnx_style_depthwise_and_grouped() -> None:
    dw = conv((1, 32, 8, 8), (32, 1, 3, 3), (1, 32, 8, 8))
    assert conv_geometry(dw).kind == "depthwise" and conv_macs(dw) == 32 * 64 * 9
    grouped = conv((1, 32, 8, 8), (64, 8, 3, 3), (1, 64, 8, 8))
    assert conv_geometry(grouped).groups == 4 and conv_macs(grouped) == 64 * 64 * 8 * 9


def test_groups_that_shapes_cannot_tell_are_unknown() -> None:
    odd = conv((1, 32, 8, 8), (5, 7, 3, 3), (1, 64, 8, 8))
    geometry = conv_geometry(odd)
    assert geometry.kind == "unknown" and "groups unknown" in geometry.note
    assert conv_macs(odd) is None
    assert mac_estimate(odd, RK3588).utilisation_pct is None


def test_unknown_rate_is_said_not_guessed() -> None:
    est = mac_estimate(ROW2, get("rk3576"))
    assert est.macs == 398_131_200 and est.ideal_cycles is None
    assert "MACs/cycle for UINT8 on rk3576 unknown" in est.note
    assert mac_estimate(ROW2, None).ideal_cycles is None


def test_non_conv_layers_are_skipped_and_log_clock_is_used() -> None:
    concat = Layer(
        id=3,
        op_type="Concat",
        target=Target.NPU,
        input_shapes=((1, 8, 4, 4), (1, 8, 4, 4)),
        output_shapes=((1, 16, 4, 4),),
    )
    transpose_conv = conv((1, 8, 4, 4), (8, 4, 2, 2), (1, 4, 8, 8), op="ConvTranspose")
    profile = Profile(
        source=SourceSpan("x"),
        format="t",
        layers=(ROW2, concat, transpose_conv),
        frequencies=Frequencies(npu_hz=(500_000_000,)),
    )
    rows = mac_table(profile, RK3588)
    assert [r.layer_id for r in rows] == [2]
    # at 500 MHz the same cycles are twice the share of the time
    assert rows[0].utilisation_pct == pytest.approx(388_800 / (16_130 * 500) * 100)


# --- MacUsage under a multi-core mask ------------------------------------------------------------


def test_corpus03_single_core_layer_under_a_three_core_mask(corpus) -> None:
    # 03 row 7: ConvExSwish (1,16,480,480),(16,16,3,3) -> (1,16,480,480), 3973 us, printed
    # 4.35/4.35/4.35, WorkLoad 100/0/0; rows 8/9 (Add, Concat) split 33.3/33.3/33.3: mask of 3
    profile = rknnprof.load(corpus("03_"))[0]
    assert mask_cores(profile) == 3
    row7 = next(la for la in profile.layers if la.id == 7)
    assert row7.mac_usage_pct == 4.35  # kept as printed
    assert used_cores(row7) == 1
    # MACs 16*480*480*16*9 = 530,841,600; /1024 = 518,400 cycles; / (3973 us x 1000 MHz)
    macs_pct = 518_400 / (3973 * 1000) * 100  # 13.048 %
    assert core_mac_usage_pct(row7, 3) == pytest.approx(4.35 * 3)
    assert core_mac_usage_pct(row7, 3) == pytest.approx(macs_pct, abs=0.01)
    (est,) = mac_table(profile, RK3588)
    assert est.reported_pct == 4.35
    assert est.core_usage_pct == pytest.approx(13.05)
    assert est.utilisation_pct == pytest.approx(macs_pct)


def test_corpus01_single_core_mask_prints_the_core_usage(corpus) -> None:
    # 01 row 7 is the same conv on a one-core mask: 3921 us, printed 13.22 = 518400 / 3921000
    profile = rknnprof.load(corpus("01_"))[0]
    assert mask_cores(profile) == 1
    est = next(e for e in mac_table(profile, RK3588) if e.layer_id == 7)
    assert est.reported_pct == est.core_usage_pct == 13.22
    assert round(est.utilisation_pct, 2) == 13.22


def test_split_layers_read_per_working_core() -> None:
    # no corpus row prints MacUsage for a split layer; the rule: printed x mask / cores used
    split = replace(ROW2, workload_pct=(50.0, 50.0, 0.0), mac_usage_pct=10.0)
    assert used_cores(split) == 2
    assert core_mac_usage_pct(split, 2) == pytest.approx(10.0)
    assert core_mac_usage_pct(split, 3) == pytest.approx(15.0)
    # a mask never holds fewer cores than the layer used
    assert core_mac_usage_pct(split, 1) == pytest.approx(10.0)
    # computed usage is over the working cores: half the time on each of two cores
    est = mac_estimate(split, RK3588)
    assert est.utilisation_pct == pytest.approx(388_800 / (16_130 * 1000 * 2) * 100)
    assert core_mac_usage_pct(replace(ROW2, mac_usage_pct=None), 3) is None
    # 05 prints 0.0%/0.0%/0.0% on an NPU row: it still ran somewhere
    assert used_cores(replace(ROW2, workload_pct=(0.0, 0.0, 0.0))) == 1


def test_improve_theoretical_is_read_from_the_15_layout(corpus) -> None:
    # 38: "50.0%/50.0%/0.0% - Up:50.0%" (rows 2, 4), "48.1%/51.9%/0.0% - Up:48.1%" (row 6)
    profile = rknnprof.load(corpus("38_"))[0]
    assert [improve_theoretical_pct(la) for la in profile.layers] == [
        0.0,
        50.0,
        0.0,
        50.0,
        0.0,
        48.1,
        0.0,
        0.0,
        0.0,
    ]
    assert mask_cores(profile) == 2
    # on every NPU row, Up is 100 minus the largest WorkLoad slot
    for la in profile.layers:
        if la.target is Target.NPU:
            assert improve_theoretical_pct(la) == pytest.approx(100 - max(la.workload_pct))
    # 04 (table) and 08 (eval_perf.csv, "Up:0.0%" in its own field): single-core, Up 0
    for prefix in ("04_", "08_"):
        layers = rknnprof.load(corpus(prefix))[0].layers
        assert {improve_theoretical_pct(la) for la in layers} == {0.0}
    # 2.x tables have no such column
    assert improve_theoretical_pct(rknnprof.load(corpus("01_"))[0].layers[1]) is None
    assert improve_theoretical_pct(replace(ROW2, extra=(("ImproveTherical", "n/a"),))) is None
