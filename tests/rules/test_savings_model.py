"""The savings model (``rknnprof.analysis.savings``) on rows copied from corpus 01 (RK3588,
yolov8n 1920x1920, one core, no frequency list: the platform's 1000 MHz clock)."""

from __future__ import annotations

import pytest

from rknnprof.analysis.savings import (
    MULTI_CORE_SPEEDUP,
    achieved_rate_gbs,
    combined_saving_us,
    cycles_explained,
    find_peer,
    from_cycles,
    from_fraction,
    from_pairs,
    from_rate,
    from_removal,
    from_speedup,
    noise_floor_us,
)
from rknnprof.model import Confidence, Layer, Target

ONE_TO_ONE = ((1, 64, 240, 240), (64, 64, 1, 1), (64,))
# 01 #2: ConvExSwish (1,3,1920,1920) -> (1,16,960,960), 1091036/8294400/8294400, 16,130 us
STEM = Layer(
    2, "ConvExSwish", Target.NPU, "UINT8", ddr_cycles=1091036, npu_cycles=8294400, time_us=16130
)
# 01 #12 ConvExSwish and #70 Conv: same shapes, cycles 311889/460800, 2,306 us and 928 us
SWISH = Layer(
    12,
    "ConvExSwish",
    Target.NPU,
    "INT8",
    input_shapes=ONE_TO_ONE,
    output_shapes=((1, 64, 240, 240),),
    ddr_cycles=311889,
    npu_cycles=460800,
    time_us=2306,
)
PLAIN = Layer(
    70,
    "Conv",
    Target.NPU,
    "INT8",
    input_shapes=ONE_TO_ONE,
    output_shapes=((1, 64, 240, 240),),
    ddr_cycles=311889,
    npu_cycles=460800,
    time_us=928,
)
# 01 #8 Add 945 us, #9 Concat 2,002 us (03: 573 us and 1,283 us on three cores)
ADD = Layer(8, "Add", Target.NPU, "INT8", time_us=945, rw_kb=7200)
CONCAT = Layer(9, "Concat", Target.NPU, "INT8", time_us=2002, rw_kb=10800)


def test_cycles_explain_about_half_of_the_stem() -> None:
    assert cycles_explained(STEM, 1000) == pytest.approx(8294400 / 16130e3)  # 0.514
    assert cycles_explained(STEM, None) is None


def test_a_cycles_saving_is_the_cycles_removed_at_the_clock_not_the_cycle_ratio() -> None:
    # aligned output channels would leave 2,073,600 cycles: 6,220,800 removed = 6,221 us at
    # 1 GHz, not 16130 x 0.75 = 12,098 us (cycles explain 51 % of the time)
    saving = from_cycles([(STEM, 2073600)], 1000, "16 -> 32 output channels")
    assert saving.by_layer == ((2, pytest.approx(6220.8)),)
    assert "explain 51%" in saving.basis and saving.confidence is Confidence.MEDIUM
    assert (
        from_cycles([(STEM, 2073600)], 1000, "x", clock_from_log=True).confidence is Confidence.HIGH
    )


def test_an_in_log_pair_saves_the_time_difference() -> None:
    assert find_peer(SWISH, [STEM, SWISH, PLAIN]) is PLAIN
    assert find_peer(SWISH, [STEM, SWISH, PLAIN], op_types={"ConvRelu"}) is None
    saving = from_pairs([(SWISH, PLAIN)])
    assert saving.by_layer == ((12, 1378),) and saving.confidence is Confidence.HIGH
    assert "#12 ConvExSwish 2,306 us against #70 Conv 928 us" in saving.basis
    assert from_pairs([(PLAIN, SWISH)]).by_layer == ()  # the peer is slower: nothing


def test_measured_multi_core_speedups_not_three_x() -> None:
    saving = from_speedup([ADD, CONCAT, SWISH], MULTI_CORE_SPEEDUP, "corpus 01 vs 03")
    assert dict(saving.by_layer) == {
        8: pytest.approx(945 * (1 - 1 / 1.65)),
        9: pytest.approx(2002 * (1 - 1 / 1.56)),
    }


def test_fraction_removal_and_rate_stay_within_each_layer_time() -> None:
    assert from_fraction([STEM], 0.5, "half").by_layer == ((2, 8065),)
    assert from_fraction([STEM], 3.0, "more than all").by_layer == ((2, 16130),)
    assert from_removal([ADD, CONCAT], "removed").total_us == 945 + 2002
    # 7200 KB in 945 us: 7.8 GB/s; at 3.9 GB/s the Add would take longer: no saving
    assert achieved_rate_gbs([ADD]) == pytest.approx(7200 * 1024 / 945e-6 / 1e9)
    assert from_rate([(ADD, 7200 * 1024)], 3.9, "x", Confidence.MEDIUM).by_layer == ()
    assert from_rate([(ADD, 7200 * 1024)], 15.6, "x", Confidence.MEDIUM).total_us == pytest.approx(
        945 - 7200 * 1024 / 15.6e3
    )


def test_a_view_is_left_out_of_an_achieved_rate() -> None:
    """A public FP16 table's two NPU Reshapes of 93 KB: a copy in 120 us and a view in 1 us
    (95 GB/s, past any DDR's peak: classified ``view``); the rate is the copy's, 0.79 GB/s,
    not the pair's 1.57."""
    from rknnprof.model import BoundBasis

    copy = Layer(id=9, op_type="Reshape", target=Target.NPU, time_us=120.0, rw_kb=93.0)
    view = Layer(
        id=18,
        op_type="Reshape",
        target=Target.NPU,
        time_us=1.0,
        rw_kb=93.0,
        bound_basis=BoundBasis.VIEW,
    )
    assert achieved_rate_gbs([copy, view]) == pytest.approx(93 * 1024 / 120e-6 / 1e9)
    assert achieved_rate_gbs([view]) is None


def test_combination_and_noise_floor() -> None:
    from rknnprof.model import Finding, Severity

    def finding(*rows):
        return Finding(
            "RKN901",
            "x",
            Severity.INFO,
            "m",
            "f",
            saving_by_layer=rows,
            est_saving_us=sum(v for _, v in rows),
        )

    times = {2: 16130.0, 12: 2306.0}
    # 16130 x (1 - 6221/16130) x (1 - 8065/16130): 4955 left, 11175 saved; plus 500 outside
    outside = Finding("RKN901", "x", Severity.INFO, "m", "f", est_saving_us=500)
    total = combined_saving_us([finding((2, 6221)), finding((2, 8065)), outside], times, None)
    assert total == pytest.approx(16130 - 16130 * (1 - 6221 / 16130) * 0.5 + 500)
    assert combined_saving_us([outside], times, 300) == 300  # capped by the frame
    assert noise_floor_us(128441) == pytest.approx(642.205) and noise_floor_us(14478) == 100
