"""The op-type aggregation must reproduce the log's own ranking table (01, 07, 36)."""

from __future__ import annotations

import pytest

from rknnprof.api import analyze


@pytest.mark.parametrize("prefix", ["01_", "07_", "36_"])
def test_aggregation_matches_printed_ranking(corpus, prefix):
    report = analyze(corpus(prefix))
    (profile,) = report.profiles
    ours = {s.op_type: s for s in profile.op_stats}
    assert set(ours) == {s.op_type for s in profile.ranking}
    for printed in profile.ranking:
        mine = ours[printed.op_type]
        assert (mine.calls, mine.cpu_time_us, mine.npu_time_us, mine.total_time_us) == (
            printed.calls,
            printed.cpu_time_us,
            printed.npu_time_us,
            printed.total_time_us,
        )
        assert abs(mine.share - printed.share) < 0.00006
    assert [s.op_type for s in profile.op_stats][0] == profile.ranking[0].op_type
    assert not any("ranking" in w.message for w in report.warnings)


def test_printed_numbers_01(corpus):
    (profile,) = analyze(corpus("01_")).profiles
    stats = {s.op_type: s for s in profile.op_stats}
    assert (stats["ConvExSwish"].calls, stats["ConvExSwish"].npu_time_us) == (57, 100965)
    assert (stats["OutputOperator"].calls, stats["OutputOperator"].cpu_time_us) == (9, 1134)
    assert stats["InputOperator"].cpu_time_us == 4


def test_printed_numbers_36(corpus):
    (profile,) = analyze(corpus("36_")).profiles
    stats = {s.op_type: s for s in profile.op_stats}
    assert (stats["exSDPAttention"].calls, stats["exSDPAttention"].total_time_us) == (2, 2674)
    assert sum(s.cpu_time_us for s in profile.op_stats) == 48
    assert sum(s.npu_time_us for s in profile.op_stats) == 20296
