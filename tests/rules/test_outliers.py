"""A layer RKN050 flags as a single-frame outlier is no evidence for a saving: RKN070 and RKN071
count it at the time the log supports for it. Expected values are read off the fixtures
(``tests/data/rules/outlier_RKN07x.txt``, written by make_fixtures.py):

* outlier_RKN070: #5, #6, #7 ConvExSwish 64->64 3x3 at 80x80, 600, 600 and 1,800 us, same
  shapes and cycles (57600/230400); #3 ConvRelu with the same shapes at 288 us. #7 is 3x its
  siblings in one frame: it counts at #5's 600 us, so each SiLU conv saves 600 - 288 = 312 us
  (936 us), not 1,800 - 288 = 1,512 us for #7 (2,136 us).
* outlier_RKN071: a 1280x1280 input (4x 640x640: 3/4 of the conv time goes); 11 convs take
  4608 + 2304 + 1152 + 7 x 288 + 3456 = 13,536 us; #12 (345,600 cycles at 3,456 us) is 8x the
  median time per cycle (288 us for 230,400 cycles), so it counts at 3456 / 8 = 432 us:
  0.75 x (13,536 - 3,456 + 432) = 7,884 us, not 0.75 x 13,536 = 10,152 us.

The ``outlier_RKNxxx`` fixtures of the other pricing rules each hold one slow sibling, 3x a twin
with the same op type, shapes and 0/0/0 cycles (5x for RKN022), and price it at the twin's time
(:data:`PRICED`).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rknnprof.api import load

DATA = Path(__file__).resolve().parent.parent / "data" / "rules"


def _findings(name: str, path: Path | None = None) -> list:
    [profile] = load(path or DATA / f"{name}.txt")
    return list(profile.findings)


def test_activation_swap_counts_a_slow_sibling_at_its_siblings_time() -> None:
    findings = _findings("outlier_RKN070")
    [swap] = [f for f in findings if f.code == "RKN070"]
    assert swap.saving_by_layer == ((5, 312.0), (6, 312.0), (7, 312.0))
    assert swap.est_saving_us == 936.0
    assert "#7 at 600 us (#5's), not its one-frame 1,800 us (re-measure, RKN050)" in swap.message
    # the in-log example is a pair the log supports, not the outlier
    assert "#5 ConvExSwish (Conv:/model.4/conv/Conv) takes 600 us against 288 us" in swap.message
    [caveat] = [f for f in findings if f.code == "RKN050" and "twice the time" in f.message]
    assert caveat.layer_ids == (7, 5)


def test_every_slow_sibling_of_a_group_is_an_outlier() -> None:
    """outlier_RKN070_two: #6 at 1,500 us beside #7 at 1,800: both are at least 2x (and 100
    us above) #5's 600 us with the same shapes and cycles, so both count at 600 us (each SiLU
    conv then saves 600 - 288 = 312 us), not only the slowest of the group (#6 was priced at
    1,500 - 288)."""
    findings = _findings("outlier_RKN070_two")
    [swap] = [f for f in findings if f.code == "RKN070"]
    assert swap.saving_by_layer == ((5, 312.0), (6, 312.0), (7, 312.0))
    assert "#6 at 600 us (#5's), not its one-frame 1,500 us" in swap.message
    [caveat] = [f for f in findings if f.code == "RKN050" and "twice the time" in f.message]
    assert caveat.layer_ids == (7, 5, 6)  # slowest gap first, #5 once
    assert "2 layer(s) take at least twice" in caveat.message
    assert "2,100 us" in caveat.message  # 1,200 + 900 above #5 in the slower ones


def test_input_resolution_counts_a_slow_pace_at_the_median_pace() -> None:
    findings = _findings("outlier_RKN071")
    [resolution] = [f for f in findings if f.code == "RKN071" and f.est_saving_us]
    assert resolution.est_saving_us == pytest.approx(7884.0)
    assert dict(resolution.saving_by_layer)[12] == pytest.approx(324.0)  # 0.75 x 432
    assert "the 11 NPU layers that work on feature maps take 13,536 us" in resolution.message
    assert "at 640x640 they would take about 2,628 us" in resolution.message  # 10,512 / 4
    assert "#12 at 432 us (the median pace's), not its one-frame 3,456 us" in resolution.message
    assert any(f.code == "RKN050" and "median time per cycle" in f.message for f in findings)


# fixture -> (code, saving at the twin's time, the one-frame saving, slow id, twin's time, its
# one-frame time), read off the fixture tables
def _speedup(cycles: float) -> float:
    lo, hi = (87_702, 1.84), (349_652, 1.77)
    t = math.log(cycles / lo[0]) / math.log(hi[0] / lo[0])
    return lo[1] + t * (hi[1] - lo[1])


CONVS_3CORE = (
    4 * 1152 * (1 - 1 / 1.77)
    + 2 * 144 * (1 - 1 / _speedup(115_200))
    + 288 * (1 - 1 / _speedup(230_400))
)
"""outlier_RKN030's six ConvRelus split over three cores (none reaches its DDR-cycle floor)."""

PRICED = {
    # FP16 NPU rows #2 288, #3 Add 300, #4 Add 900, #5 576, #6 288 = 2,352 us; half of
    # 2,352 - 600 = 876 us, not 1,176
    "outlier_RKN002": ("RKN002", 876.0, 1176.0, 4, 300, 900),
    # LeakyRelu #4 420 and #6 1,260 after identical ConvAdds: 420 + 420, not 420 + 1,260
    "outlier_RKN023": ("RKN023", 840.0, 1680.0, 6, 420, 1260),
    # one core; Concats #7 400, #8 1,200 (800 KB, 2.0 GB/s at 400 us): (400 + 400) x (1 -
    # 1/1.56) = 287.2 us, not 1,600 x 0.56/1.56 = 574.4; plus the INT8 ConvRelus split at the
    # measured per-cycle speed-up (public yolov8n pair): #3-#6 921,600 cycles above the
    # largest point, 1.77x; #2, #10 115,200 and #9 230,400 cycles, log-interpolated between
    # 87,702 (1.84x) and 349,652 (1.77x)
    "outlier_RKN030": (
        "RKN030",
        800 * 0.56 / 1.56 + CONVS_3CORE,
        1600 * 0.56 / 1.56 + CONVS_3CORE,
        8,
        400,
        1200,
    ),
    # C2f Splits #4 260, #6 780 after convs 32 -> 64 (Cin = 2c: half of each Split's bytes
    # go): 2 x 260 / 2 = 260 us, not (260 + 780) / 2 = 520
    "outlier_RKN020": ("RKN020", 260.0, 520.0, 6, 260, 780),
    # Pads #3 180, #5 540 before their Convs: 360 us, not 720
    "outlier_RKN021": ("RKN021", 360.0, 720.0, 5, 180, 540),
    # chains #3 Reshape 40 -> #4 Transpose 160 -> #5 Reshape 60 and #6 40 -> #7 160 -> #8 300:
    # at #5's 60 us, #8 is no longer its chain's largest, so #7 stays and 40 + 60 go from each
    # chain (200 us), not #6 + #7 = 200 from the second as well (300 us)
    "outlier_RKN022": ("RKN022", 200.0, 300.0, 8, 60, 300),
    # the second GLU block: Sigmoid #7 at #4's 140 us + Mul #8 130 = 270 us, not 420 + 130
    "outlier_RKN024": ("RKN024", 270.0, 550.0, 7, 140, 420),
    # RK3576 dense convs #2 144, #3 1,152, #4 3,456, #5 288, #6 144: half of 2,880 = 1,440 us,
    # not half of 5,184
    "outlier_RKN040": ("RKN040", 1440.0, 2592.0, 4, 1152, 3456),
    # NPU at 600 of 1,000 MHz; NPU rows 144 + 300 + 900 + 288 + 144 = 1,776 us: 0.4 x (1,776 -
    # 600) = 470.4 us, not 0.4 x 1,776 = 710.4
    "outlier_RKN050": ("RKN050", 470.4, 710.4, 4, 300, 900),
    # two norms, each Transpose 300 -> exNorm 200 -> Transpose 280 -> Mul -> Add 80, the Muls
    # #6 90 and #11 270: the wrappers and Mul/Add 2 x (300 + 280 + 90 + 80) = 1,500 us, not 1,680
    "outlier_RKN072": ("RKN072", 1500.0, 1680.0, 11, 90, 270),
    # the decode tail #5 Reshape 30, #6 exSoftmax13 3100, #7 Conv 120, #8 Sub 60, #9 Mul 50,
    # #10 Mul 200, #11 Concat 70: 3,480 us with #10 at #9's 50, not 3,630
    "outlier_RKN060": ("RKN060", 3480.0, 3630.0, 10, 50, 200),
}


@pytest.mark.parametrize("name", sorted(PRICED))
def test_a_pricing_rule_counts_a_slow_sibling_at_its_twins_time(name: str) -> None:
    code, expected, one_frame, slow, twin_us, measured_us = PRICED[name]
    findings = _findings(name)
    [found] = [f for f in findings if f.code == code and slow in f.layer_ids and f.est_saving_us]
    assert found.est_saving_us == pytest.approx(expected)
    assert found.est_saving_us < one_frame
    assert sum(v for _, v in found.saving_by_layer) == pytest.approx(expected)
    assert (
        f"#{slow} at {twin_us:,} us (" in found.message
        and f"not its one-frame {measured_us:,} us (re-measure, RKN050)" in found.message
    )
    assert any(f.code == "RKN050" and "twice the time" in f.message for f in findings)


def test_a_time_two_frames_show_is_counted_as_measured(tmp_path: Path) -> None:
    """The same table twice (a two-frame capture): #7's 1,800 us is each frame's median, so it
    is evidence, and RKN070 prices it: 312 + 312 + 1,512 = 2,136 us."""
    lines = (DATA / "outlier_RKN070.txt").read_text(encoding="utf-8").splitlines()
    capture = tmp_path / "two_frames.txt"
    capture.write_text("\n".join(lines[:3] + lines[3:] * 2) + "\n", encoding="utf-8")
    findings = _findings("", capture)
    [swap] = [f for f in findings if f.code == "RKN070"]
    assert swap.saving_by_layer == ((5, 312.0), (6, 312.0), (7, 1512.0))
    assert "single-frame" not in swap.message
    assert not [f for f in findings if f.code == "RKN050" and "one frame only" in f.message]


# -- corpus 08 (FusionNet FP16, one frame, core_mask 1), read off its eval_perf.csv lines -------
# Five layers are at least 2x a twin with the same op type, shapes, data type and cycles:
# #26 Concat 8445 against #38 3526, #24 Concat 5672 / #36 2321, #29 Add 4037 / #41 1835,
# #32 LeakyRelu 4104 / #44 1921, #22 LeakyRelu 2977 / #34 1388. The twins #36, #38, #41, #44
# move their RW(KB) at 10.2-11.3 GB/s (25600 KB / 2321 us, 38400 / 3526, 19200 / 1835,
# 19200 / 1921): bandwidth-bound, and so are the slow ones at the twins' times.
TWINS = {26: 3526, 24: 2321, 29: 1835, 32: 1921, 22: 1388}


def _corpus08():
    from tests.conftest import corpus_file

    [profile] = load(corpus_file("08_"))
    return profile


def test_08_int8_halves_the_outliers_at_their_twins_times() -> None:
    """49 FP16 NPU layers, 163,602 us; at the twins' times 163,602 - (4919 + 3351 + 2202 + 2183
    + 1589) = 149,358 us, half of it 74,679 us (the one-frame times gave 81,801)."""
    profile = _corpus08()
    [int8] = [f for f in profile.findings if f.code == "RKN002"]
    assert int8.est_saving_us == pytest.approx(74679.0)
    by_layer = dict(int8.saving_by_layer)
    for layer, twin_us in TWINS.items():
        assert by_layer[layer] == pytest.approx(twin_us / 2)
    assert by_layer[46] == pytest.approx(15171 / 2)  # not an outlier: half its own time
    assert "INT8 could save up to 74,679 us" in int8.message
    assert (
        "#26 at 3,526 us (#38's), not its one-frame 8,445 us, #24 at 2,321 us (#36's), not "
        "its one-frame 5,672 us, #29 at 1,835 us (#41's), not its one-frame 4,037 us, +2 more "
        "(re-measure, RKN050)"
    ) in int8.message


def test_08_multi_core_leaves_out_outliers_whose_twins_are_bandwidth_bound() -> None:
    """Counted: Adds #10 2131, #19 2093 and Concats #5 2837, #7 4277, #14 2884, #16 4135:
    4224 x (1 - 1/1.65) + 14133 x (1 - 1/1.56) = 1664.0 + 5073.4 = 6,737.4 us. #24, #26, #29
    at their twins' times are bandwidth-bound like #36, #38, #41: nothing (at their one-frame
    times they were counted: 13,395 us)."""
    profile = _corpus08()
    [cores] = [f for f in profile.findings if f.code == "RKN030"]
    assert cores.est_saving_us == pytest.approx(4224 * 0.65 / 1.65 + 14133 * 0.56 / 1.56)
    assert sorted(dict(cores.saving_by_layer)) == [5, 7, 10, 14, 16, 19]
    assert "that cuts 6,737 us per frame" in cores.message
    assert (
        "at those times #24, #26, #29 move their bytes at the DDR's rate, bandwidth-bound "
        "like their twins: not counted"
    ) in cores.message
    assert "#22 at" not in cores.message  # a LeakyRelu: no measured speed-up, not priced


def test_08_the_order_and_the_combined_figure_at_the_supported_times() -> None:
    """INT8 first, then multi-core (6,737 us), then the LeakyRelu fusion (6,618 us). The at-stake
    figure combines them per layer on the printed times: 74,679 (INT8) + what multi-core adds on
    the half INT8 leaves of #10, #19, #5, #7, #14, #16 (0.5 x 4224 x 0.65/1.65 + 0.5 x 14133 x
    0.56/1.56 = 3,368.7) + what the fusion adds on the LeakyRelus: #34 694, #44 960.5 (the half
    left), #22 2977 - 2283 x 1589/2977 - 694 = 1,064.4, #32 4104 - 3143.5 x 2183/4104 - 960.5 =
    1,471.4: 82,238 us."""
    profile = _corpus08()
    assert [f.code for f in profile.findings[:3]] == ["RKN002", "RKN030", "RKN023"]
    assert profile.potential_saving_us == pytest.approx(82238.0, abs=0.5)
    from rknnprof.reporters._facts import biggest_win

    assert (
        biggest_win(profile)
        == "biggest win: RKN002 float16 saves ~74,679 us (45.6% of the rows shown), advice 1"
    )
