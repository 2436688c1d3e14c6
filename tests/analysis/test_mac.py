"""MAC counts, utilisation and waste factor, checked against rows read from the corpus by hand."""

from __future__ import annotations

import pytest

from rknnprof.analysis.mac import conv_geometry, conv_macs, mac_estimate, mac_table
from rknnprof.model import Frequencies, Layer, Profile, SourceSpan, Target
from rknnprof.platforms import get

RK3588 = get("rk3588")


def conv(data, weight, out, time_us=None, npu=None, usage=None, dtype="INT8", op="ConvExSwish"):
    return Layer(id=2, op_type=op, data_type=dtype, target=Target.NPU,
                 input_shapes=(data, weight, (weight[0],)), output_shapes=(out,),
                 time_us=time_us, npu_cycles=npu, mac_usage_pct=usage)


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
    concat = Layer(id=3, op_type="Concat", target=Target.NPU,
                   input_shapes=((1, 8, 4, 4), (1, 8, 4, 4)), output_shapes=((1, 16, 4, 4),))
    transpose_conv = conv((1, 8, 4, 4), (8, 4, 2, 2), (1, 4, 8, 8), op="ConvTranspose")
    profile = Profile(source=SourceSpan("x"), format="t", layers=(ROW2, concat, transpose_conv),
                      frequencies=Frequencies(npu_hz=(500_000_000,)))
    rows = mac_table(profile, RK3588)
    assert [r.layer_id for r in rows] == [2]
    # at 500 MHz the same cycles are twice the share of the time
    assert rows[0].utilisation_pct == pytest.approx(388_800 / (16_130 * 500) * 100)
