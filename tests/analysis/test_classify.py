from __future__ import annotations

from collections import Counter

import pytest

import rknnprof
from rknnprof.analysis.classify import (
    ClassifyOptions,
    achieved_rate_gbs,
    classify,
    classify_layers,
)
from rknnprof.model import Bound, BoundBasis, Layer, Target

OPTS = ClassifyOptions()


def layer(ddr=None, npu=None, target=Target.NPU, time=100, rw=None) -> Layer:
    total = max(ddr, npu) if ddr is not None and npu is not None else None
    return Layer(
        1,
        "Conv",
        target=target,
        ddr_cycles=ddr,
        npu_cycles=npu,
        total_cycles=total,
        time_us=time,
        rw_kb=rw,
    )


@pytest.mark.parametrize(
    ("ddr", "npu", "bound"),
    [
        (1091036, 8294400, Bound.COMPUTE),  # 01 row 2
        (467909, 460800, Bound.BALANCED),  # 01 row 21
        (235199, 460800, Bound.COMPUTE),  # 01 row 32: NPU/DDR = 1.96 >= 1.5
    ],
)
def test_from_cycles(ddr, npu, bound):
    assert classify(layer(ddr, npu), OPTS) == (bound, BoundBasis.CYCLES)


def test_npu_cycles_zero_is_not_computed_not_bandwidth():
    # 01 row 5, Split: 623388/0/623388 -> the runtime printed no NPU cycles for it
    assert classify(layer(623388, 0), OPTS) == (Bound.UNKNOWN, BoundBasis.NO_NPU_CYCLES)
    # a high ratio does not change that: NPU 0 is no evidence of compute or of its absence
    assert classify(layer(623388, 0), ClassifyOptions(bound_ratio=1.01))[0] is Bound.UNKNOWN


def test_corpus01_rows_without_npu_cycles_outlast_their_ddr_cycles(corpus):
    # Read from the log: 32 NPU rows print NPU cycles 0 with DDR > 0 (8 Split, 6 Add, 13 Concat,
    # 3 MaxPool, 2 Resize). At the 1 GHz clock of RK3588, 30 take more than twice the DDR-cycle
    # time: only #5 Split (623388 cycles, 1195 us: 1.92x) and #61 Concat (467541, 922 us: 1.97x)
    # do not; #56 Concat is 1871 us for 935081 cycles (2.001x). MaxPool #42: 38962 cycles, 341 us.
    profile = rknnprof.load(corpus("01_"))[0]
    rows = [la for la in profile.layers if la.npu_cycles == 0 and la.ddr_cycles]
    assert len(rows) == 32
    assert sorted(Counter(la.op_type for la in rows).items()) == [
        ("Add", 6),
        ("Concat", 13),
        ("MaxPool", 3),
        ("Resize", 2),
        ("Split", 8),
    ]
    slow = [la.id for la in rows if la.time_us > 2 * la.ddr_cycles / 1000]
    assert len(slow) == 30
    assert sorted({la.id for la in rows} - set(slow)) == [5, 61]
    assert {(la.bound, la.bound_basis) for la in rows} == {
        (Bound.UNKNOWN, BoundBasis.NO_NPU_CYCLES)
    }


def test_ratio_is_configurable():
    assert classify(layer(100, 180), ClassifyOptions(bound_ratio=2.0))[0] is Bound.BALANCED
    assert classify(layer(100, 180), ClassifyOptions(bound_ratio=1.5))[0] is Bound.COMPUTE
    assert classify(layer(300, 100), ClassifyOptions(bound_ratio=2.0))[0] is Bound.BANDWIDTH


def test_cpu_target_wins():
    assert classify(layer(0, 0, target=Target.CPU), OPTS) == (Bound.CPU, BoundBasis.TARGET)


RK3588 = ClassifyOptions(ddr_peak_gbs=33.8, ddr_achieved_gbs=12.9)


def test_zero_cycles_never_compute():
    # 07 row 9: Add 0/0/0, 120 us, 800 KB -> 6.8 GB/s: 53 % of the 12.9 GB/s achieved, not enough
    add = layer(0, 0, time=120, rw=800)
    assert classify(add, OPTS) == (Bound.UNKNOWN, BoundBasis.NONE)
    assert classify(add, RK3588) == (Bound.UNKNOWN, BoundBasis.RW_RATE)
    slower_ddr = ClassifyOptions(ddr_peak_gbs=33.8, ddr_achieved_gbs=9.0)  # 6.8 >= 0.75 x 9
    assert classify(add, slower_ddr) == (Bound.BANDWIDTH, BoundBasis.RW_RATE)
    assert classify(layer(None, None, time=50, rw=None), RK3588) == (Bound.UNKNOWN, BoundBasis.NONE)


def test_rw_rate_threshold_is_three_quarters_of_the_achieved_rate():
    # 0.75 x 12.9 = 9.675 GB/s; 1 KB in 1 us = 1.024 GB/s
    assert classify(layer(0, 0, time=100, rw=945), RK3588)[0] is Bound.BANDWIDTH  # 9.68 GB/s
    assert classify(layer(0, 0, time=100, rw=944), RK3588)[0] is Bound.UNKNOWN  # 9.67 GB/s
    # the theoretical peak alone is no reference: without an achieved rate nothing is bandwidth
    peak_only = ClassifyOptions(ddr_peak_gbs=33.8)
    assert classify(layer(0, 0, time=100, rw=3000), peak_only) == (Bound.UNKNOWN, BoundBasis.NONE)


def test_faster_than_the_ddr_peak_is_a_view():
    # 36 row 59: Reshape 0/0/0, 2 us, 100 KB -> 51.2 GB/s, above the 33.8 GB/s any DDR gives
    reshape = layer(0, 0, time=2, rw=100)
    assert classify(reshape, RK3588) == (Bound.UNKNOWN, BoundBasis.VIEW)
    # 36 row 64: Reshape, 50 KB in Time 0
    assert classify(layer(0, 0, time=0, rw=50), RK3588) == (Bound.UNKNOWN, BoundBasis.VIEW)
    assert classify(layer(0, 0, time=0, rw=50), OPTS) == (Bound.UNKNOWN, BoundBasis.VIEW)
    assert classify(layer(0, 0, time=0, rw=0), RK3588) == (Bound.UNKNOWN, BoundBasis.NONE)


def test_npu_zero_rows_fast_enough_are_bandwidth_by_rate():
    # 08 row 45: Concat 6648901/0, 3307 us, 38400 KB -> 11.9 GB/s
    assert classify(layer(6648901, 0, time=3307, rw=38400), RK3588) == (
        Bound.BANDWIDTH,
        BoundBasis.RW_RATE,
    )
    # 08 row 5: Concat 2216301/0, 2837 us, 12800 KB -> 4.6 GB/s: the cycles cannot say, nor the rate
    assert classify(layer(2216301, 0, time=2837, rw=12800), RK3588) == (
        Bound.UNKNOWN,
        BoundBasis.NO_NPU_CYCLES,
    )


def test_a_faster_ddr_bound_row_in_the_log_raises_the_reference():
    # a conv whose DDR cycles are 10x its NPU cycles moving 20 GB/s shows this board's DDR does
    conv = layer(1_000_000, 100_000, time=1000, rw=19_531)  # 20.0 GB/s
    add = layer(0, 0, time=1000, rw=14_000)  # 14.3 GB/s < 0.75 x 20
    out = classify_layers((conv, add), RK3588, 2000)
    assert [(la.bound, la.bound_basis) for la in out] == [
        (Bound.BANDWIDTH, BoundBasis.CYCLES),
        (Bound.UNKNOWN, BoundBasis.RW_RATE),
    ]
    assert classify(add, RK3588)[0] is Bound.BANDWIDTH  # 14.3 >= 0.75 x 12.9


def test_corpus_rw_rates_as_read_from_the_logs(corpus):
    # 03 row 8: Add 467541/0, 573 us, 7200 KB: 12.9 GB/s, the fastest real row of the corpus
    rows = {la.id: la for la in rknnprof.load(corpus("03_"))[0].layers}
    assert round(achieved_rate_gbs(rows[8]), 1) == 12.9
    assert (rows[8].bound, rows[8].bound_basis) == (Bound.BANDWIDTH, BoundBasis.RW_RATE)
    # 03 row 9: Concat 935081/0, 1283 us, 10800 KB: 8.6 GB/s
    assert (rows[9].bound, rows[9].bound_basis) == (Bound.UNKNOWN, BoundBasis.NO_NPU_CYCLES)
    # 07: no 0/0/0 row reaches 9.7 GB/s (the fastest, #9 Add, moves 6.8)
    p07 = rknnprof.load(corpus("07_"))[0]
    assert not [
        la.id
        for la in p07.layers
        if la.bound_basis is BoundBasis.RW_RATE and la.bound is Bound.BANDWIDTH
    ]
    # 36: the four Reshapes that move faster than DDR or in no time (#59 2 us; #64, #147, #152 0 us)
    p36 = rknnprof.load(corpus("36_"))[0]
    views = [la.id for la in p36.layers if la.bound_basis is BoundBasis.VIEW]
    assert views == [59, 64, 147, 152]
    assert not [
        la
        for la in p36.layers
        if la.bound_basis is BoundBasis.RW_RATE and la.bound is Bound.BANDWIDTH
    ]
    # 08: the FP16 tail whose RW rate passes 9.7 GB/s (#36, #38, #41, #44, #45)
    p08 = rknnprof.load(corpus("08_"))[0]
    by_rate = [la.id for la in p08.layers if la.bound_basis is BoundBasis.RW_RATE]
    assert by_rate == [36, 38, 41, 44, 45]


def test_time_share():
    out = classify_layers((layer(1, 10, time=25), layer(10, 1, time=75)), OPTS, 100)
    assert [la.time_share for la in out] == [0.25, 0.75]
    assert [la.bound for la in out] == [Bound.COMPUTE, Bound.BANDWIDTH]
