from __future__ import annotations

from dataclasses import replace

from rknnprof.analysis import analyze_profile
from rknnprof.model import Layer, OpTypeStat, Profile, SourceSpan, Target


def profile(**kw) -> Profile:
    layers = (
        Layer(
            1,
            "InputOperator",
            target=Target.CPU,
            ddr_cycles=0,
            npu_cycles=0,
            total_cycles=0,
            time_us=4,
            line=5,
        ),
        Layer(
            2,
            "Conv",
            target=Target.NPU,
            ddr_cycles=10,
            npu_cycles=100,
            total_cycles=100,
            time_us=96,
            line=6,
        ),
    )
    base = Profile(
        source=SourceSpan("p.log", 1, 20),
        format="toolkit2-perf-table",
        layers=layers,
        reported_total_time_us=100,
        reported_total_line=9,
    )
    return replace(base, **kw)


def messages(p: Profile) -> list[tuple[int | None, str]]:
    return [(w.line, w.message) for w in analyze_profile(p)[1]]


def test_consistent_profile_has_no_warnings():
    assert messages(profile()) == []


def test_total_mismatch_cites_the_total_line():
    (w,) = messages(profile(reported_total_time_us=150))
    assert w[0] == 9 and "100 us" in w[1] and "150 us" in w[1]


def test_cycles_and_ids():
    p = profile()
    bad = replace(p.layers[1], id=5, total_cycles=42)
    got = messages(replace(p, layers=(p.layers[0], bad)))
    assert any("Total cycles != max(DDR, NPU)" in m and line == 6 for line, m in got)
    assert any("skip from 1 to 5" in m for _, m in got)


def test_ranking_disagreement():
    ranking = (OpTypeStat("Conv", 1, 0, 90, 90), OpTypeStat("InputOperator", 1, 4, 0, 4))
    (w,) = messages(profile(ranking=ranking))
    assert "Conv npu_time_us 96 from layers vs 90 ranked" in w[1]


def test_elided_table_says_so_instead_of_mismatch():
    (w,) = messages(profile(reported_total_time_us=1000, elided_rows=1))
    assert "elided" in w[1]


def test_bound_and_share_filled():
    result, _ = analyze_profile(profile())
    assert [la.bound.value for la in result.layers] == ["cpu", "compute"]
    assert [la.time_share for la in result.layers] == [0.04, 0.96]
