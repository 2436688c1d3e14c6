"""The advice check on real before/after pairs of one model (docs/track-record.md).

Every expected figure is read from the two logs (the rows quoted in each test), never from
the code under test:

* corpus 01 -> 03: yolov8n at 1920x1920 on RK3588, one core (WorkLoad 100%/0%/0%) against
  three cores, from one blog post (https://github.com/channyHuang/channyHuang.github.io,
  ``_posts/linuxAndWin/2024-04-08-Push_Yolov8n_Pre-train_Model_To_rk3588_(2).md``); the
  three-core table shows rows 7-9 only (``......`` elides the rest).
* corpus 27 -> 28: a UNet on RK3588 (Orange Pi 5), FP16 with ``Resize`` on the CPU against
  the author's later, slimmed model with every op on the NPU: ranking tables only.
"""

from __future__ import annotations

import pytest

from rknnprof.api import analyze
from rknnprof.compare import compare_reports
from tests.conftest import corpus_file


@pytest.fixture(scope="module")
def cores_pair():
    before = analyze([str(corpus_file("01_"))])
    after = analyze([str(corpus_file("03_"))])
    return before, compare_reports(before, after).comparisons[0]


@pytest.fixture(scope="module")
def unet_pair():
    before = analyze([str(corpus_file("27_"))])
    after = analyze([str(corpus_file("28_"))])
    return before, compare_reports(before, after).comparisons[0]


def test_one_core_to_three_cannot_tell_a_promise_over_rows_the_after_log_elides(cores_pair):
    # 03 prints 3 of yolov8n's rows between two ``......`` lines: no finding's whole promise
    # (RKN071 over 98 NPU layers, RKN070 over 57 ConvExSwish, RKN030 over every split op) can be
    # measured on it.
    _, comp = cores_pair
    assert {o.code for o in comp.advice} >= {"RKN030", "RKN070", "RKN071"}
    assert {o.verdict for o in comp.advice} == {"cannot-tell"}
    assert all("shows part of the model" in o.reason for o in comp.advice)


def test_one_core_to_three_on_the_rows_shown_matches_rkn030_per_layer(cores_pair):
    # Rows read from the logs (Time(us) column), 1 core -> 3 cores:
    #   #8 Add    945 -> 573  (WorkLoad 100/0/0 -> 33.3/33.3/33.3): 372 us saved
    #   #9 Concat 2002 -> 1283 (same):                              719 us saved
    #   #7 ConvExSwish 3921 -> 3973, WorkLoad 100/0/0 in both: it did not split, nothing saved
    before, comp = cores_pair
    rkn030 = next(f for f in before.profiles[0].findings if f.code == "RKN030")
    promised = dict(rkn030.saving_by_layer)
    outcome = next(o for o in comp.advice if o.code == "RKN030")
    for layer, measured in ((8, 945 - 573), (9, 2002 - 1283)):
        assert abs(promised[layer] - measured) <= outcome.uncertainty * measured
    assert promised.get(7, 0.0) == 0.0
    shown = {d.base_id: d.delta_us for d in comp.layers if d.status != "not-shown"}
    assert shown == {7: 3973 - 3921, 8: 573 - 945, 9: 1283 - 2002}


def test_unet_fix_cannot_tell_per_layer_on_ranking_tables_of_two_models(unet_pair):
    # 27 and 28 are ranking tables (no per-layer rows), and 28 is another model (the author's
    # slimmed UNet: ConvLeakyRelu 21 -> 14 calls, Conv 22 -> 7): nothing to align layer by layer.
    _, comp = unet_pair
    assert {o.code for o in comp.advice} == {"RKN001", "RKN072"}
    assert {o.verdict for o in comp.advice} == {"cannot-tell"}


def test_unet_fix_op_type_figures_against_the_promises(unet_pair):
    # 27: Resize CPUTime 23583 (3 calls); Transpose NPUTime 27731 (2 calls).
    # 28: Resize NPUTime 372 (2 calls); no Transpose row.
    _, comp = unet_pair
    promised = {o.code: o.predicted_us for o in comp.advice}
    ops = {d.op_type: d for d in comp.op_types}
    assert promised["RKN001"] == pytest.approx(23583)
    assert ops["Resize"].delta_us == pytest.approx(372 - 23583)
    assert promised["RKN072"] == pytest.approx(27731)
    assert ops["Transpose"].delta_us == pytest.approx(-27731)
    assert ops["Transpose"].current_calls == 0
