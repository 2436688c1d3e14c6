from __future__ import annotations

from collections import Counter

import pytest

import rknnprof
from rknnprof.analysis.classify import ClassifyOptions, classify, classify_layers
from rknnprof.model import Bound, BoundBasis, Layer, Target

OPTS = ClassifyOptions()


def layer(ddr=None, npu=None, target=Target.NPU, time=100, rw=None) -> Layer:
    total = max(ddr, npu) if ddr is not None and npu is not None else None
    return Layer(1, "Conv", target=target, ddr_cycles=ddr, npu_cycles=npu, total_cycles=total,
                 time_us=time, rw_kb=rw)


@pytest.mark.parametrize(("ddr", "npu", "bound"), [
    (1091036, 8294400, Bound.COMPUTE),     # 01 row 2
    (467909, 460800, Bound.BALANCED),      # 01 row 21
    (235199, 460800, Bound.COMPUTE),       # 01 row 32: NPU/DDR = 1.96 >= 1.5
])
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
        ("Add", 6), ("Concat", 13), ("MaxPool", 3), ("Resize", 2), ("Split", 8)]
    slow = [la.id for la in rows if la.time_us > 2 * la.ddr_cycles / 1000]
    assert len(slow) == 30
    assert sorted({la.id for la in rows} - set(slow)) == [5, 61]
    assert {(la.bound, la.bound_basis) for la in rows} == {(Bound.UNKNOWN, BoundBasis.NO_NPU_CYCLES)}


def test_ratio_is_configurable():
    assert classify(layer(100, 180), ClassifyOptions(bound_ratio=2.0))[0] is Bound.BALANCED
    assert classify(layer(100, 180), ClassifyOptions(bound_ratio=1.5))[0] is Bound.COMPUTE
    assert classify(layer(300, 100), ClassifyOptions(bound_ratio=2.0))[0] is Bound.BANDWIDTH


def test_cpu_target_wins():
    assert classify(layer(0, 0, target=Target.CPU), OPTS) == (Bound.CPU, BoundBasis.TARGET)


def test_zero_cycles_never_compute():
    # 07 row 9: Add 0/0/0, 120 us, 800 KB -> 6.8 GB/s
    add = layer(0, 0, time=120, rw=800)
    assert classify(add, OPTS) == (Bound.UNKNOWN, BoundBasis.NONE)
    fast = ClassifyOptions(ddr_bandwidth_gbs=10.0)
    assert classify(add, fast) == (Bound.BANDWIDTH, BoundBasis.RW_RATE)
    slow = ClassifyOptions(ddr_bandwidth_gbs=30.0)
    assert classify(add, slow) == (Bound.UNKNOWN, BoundBasis.RW_RATE)
    assert classify(layer(0, 0, time=0, rw=100), fast) == (Bound.UNKNOWN, BoundBasis.NONE)
    assert classify(layer(None, None, time=50, rw=None), fast) == (Bound.UNKNOWN, BoundBasis.NONE)


def test_time_share():
    out = classify_layers((layer(1, 10, time=25), layer(10, 1, time=75)), OPTS, 100)
    assert [la.time_share for la in out] == [0.25, 0.75]
    assert [la.bound for la in out] == [Bound.COMPUTE, Bound.BANDWIDTH]
