"""Events -> profiles: frames merge per model and stream; other event kinds fed directly."""

from __future__ import annotations

from collections import Counter

from rknnprof.assemble import assemble
from rknnprof.assemble.counters import median_of
from rknnprof.model import BenchmarkRun, Frequencies, Layer, OpTypeStat, Target, Versions
from rknnprof.parsers.events import (
    BenchmarkEvent,
    FallbackWarningEvent,
    FrequencyEvent,
    InfoEvent,
    NpuLoadEvent,
    RankingEvent,
    TableEvent,
    TotalsEvent,
)


def table(line: int, times: list[int], names: str = "abc", stream=None, total=None) -> TableEvent:
    layers = tuple(
        Layer(
            id=i + 1,
            op_type="Conv",
            target=Target.NPU,
            time_us=t,
            full_name=f"Conv:{names[i]}",
            line=line + i,
        )
        for i, t in enumerate(times)
    )
    return TableEvent(
        "toolkit2-perf-table",
        line,
        line + len(times),
        layers,
        reported_total_time_us=total if total is not None else sum(times),
        stream=stream,
        total_line=line + len(times),
    )


def test_median_of_counter():
    assert median_of(Counter({5: 1})) == 5
    assert median_of(Counter({1: 1, 3: 1})) == 2
    assert median_of(Counter({1: 2, 10: 1})) == 1
    assert median_of(Counter({1: 1, 2: 1, 4: 1, 7: 1})) == 3


def test_frames_of_one_model_merge_into_medians():
    evs = [table(1, [10, 20, 30]), table(10, [14, 20, 30]), table(20, [12, 26, 30])]
    (p,) = assemble(evs, "log").profiles
    assert p.frames == 3
    assert [la.time_us for la in p.layers] == [12, 20, 30]
    assert [(la.time_min_us, la.time_max_us) for la in p.layers][:2] == [(10, 14), (20, 26)]
    assert p.frame_times_us == (60, 64, 68)
    assert p.reported_total_time_us == 64
    assert (p.source.first_line, p.source.last_line) == (1, 23)
    assert p.layers[0].line == 1  # the first frame's line


def test_different_models_and_streams_stay_apart():
    evs = [
        table(1, [1, 2, 3]),
        table(10, [1, 2, 3], names="xyz"),
        table(20, [5, 5, 5], stream=(7, 8)),
        table(30, [1, 2, 3]),
    ]
    profiles = assemble(evs, "log").profiles
    assert [(p.frames, p.pid_tid, p.layers[0].full_name) for p in profiles] == [
        (2, None, "Conv:a"),
        (1, None, "Conv:x"),
        (1, (7, 8), "Conv:a"),
    ]


def test_ranking_joins_its_table_and_alone_makes_a_profile():
    stats = (OpTypeStat("Conv", 3, 0, 60, 60),)
    evs = [
        table(1, [10, 20, 30]),
        RankingEvent(5, 9, stats),
        RankingEvent(40, 44, stats, total=OpTypeStat("Total", 3, 0, 60, 60)),
    ]
    first, second = assemble(evs, "log").profiles
    assert first.ranking == stats and len(first.layers) == 3 and first.source.last_line == 9
    assert second.layers == () and second.format == "toolkit2-ranking"
    assert second.reported_total_time_us == 60 and second.total_time_us == 60


def test_info_and_frequencies_apply_to_the_stream():
    evs = [
        InfoEvent(
            1,
            Versions(runtime="2.3.2"),
            platform="rk3588",
            platform_evidence="target platform: rk3588",
            stream=(5, 5),
        ),
        InfoEvent(2, Versions(driver="0.9.8")),
        FrequencyEvent(3, Frequencies((1800000,), (1000000000,), (None,))),
        table(10, [1], stream=(5, 6)),
        table(20, [1], names="z", stream=(9, 9)),
    ]
    same_pid, other = assemble(evs, "log").profiles
    assert same_pid.versions == Versions(runtime="2.3.2", driver="0.9.8")
    assert (
        same_pid.platform == "rk3588" and same_pid.platform_basis == "log: target platform: rk3588"
    )
    assert other.versions == Versions(driver="0.9.8") and other.platform is None
    assert other.frequencies.npu_hz == (1000000000,)


def test_totals_benchmark_fallback_npu_load_events():
    evs = [
        TotalsEvent("toolkit1-perf-totals", 3, 18642.0, fps=53.64),
        TotalsEvent("toolkit1-perf-totals", 9, 18000.0),
        FallbackWarningEvent(1, "cpu", "Transpose", "input shape has exceeded the max limit"),
        NpuLoadEvent(2, (52.0, 0.0, 0.0)),
        BenchmarkEvent(
            20,
            30,
            BenchmarkRun(run_times_ms=(12.0, 14.0), avg_time_ms=13.0),
            model_name="yolov5s.rknn",
        ),
    ]
    result = assemble(evs, "log")
    totals, bench = result.profiles
    assert totals.format == "toolkit1-perf-totals" and totals.layers == ()
    assert totals.frames == 2 and totals.reported_total_time_us == 18321
    assert totals.total_time_us == 18321
    assert totals.fallback_warnings == (("Transpose", "input shape has exceeded the max limit"),)
    assert totals.npu_load_pct == (52.0, 0.0, 0.0)
    assert bench.format == "benchmark" and bench.benchmark.avg_time_ms == 13.0
    assert bench.reported_total_time_us == 13000 and bench.frame_times_us == (12000, 14000)
    assert bench.model_name == "yolov5s.rknn"


def test_nothing_but_info_names_what_was_found():
    evs = [
        InfoEvent(1, Versions(runtime="2.3.0", driver="0.9.8")),
        FallbackWarningEvent(
            2, "multicore", "Conv:/dfl/Conv", "using 3Core fallback to single core mode"
        ),
    ]
    result = assemble(evs, "log")
    assert result.profiles == []
    assert result.found == [
        ("runtime information", "runtime 2.3.0, driver 0.9.8"),
        # (a multi-core fallback: the layer runs on one core, not on the CPU)
        (
            "multi-core fallback warnings",
            "Conv:/dfl/Conv runs on one NPU core (`using 3Core fallback to single core mode`) "
            "while the rest of the model splits",
        ),
    ]


def test_a_cpu_fallback_warning_alone_is_a_profile_of_its_own():
    """Issue 29: the warning is the one actionable fact in such a log (RKN001 advises on it)."""
    evs = [
        InfoEvent(1, Versions(runtime="2.3.0", driver="0.9.8")),
        FallbackWarningEvent(2, "cpu", "Transpose", "too big"),
    ]
    [profile] = assemble(evs, "log").profiles
    assert profile.format == "fallback-warnings" and profile.layers == ()
    assert not profile.measured and profile.frames == 0
    assert profile.fallback_warnings == (("Transpose", "too big"),)
    assert profile.versions.driver == "0.9.8"


def test_notes_and_skipped_rows_become_warnings():
    from rknnprof.model import SkippedRow

    ev = TableEvent(
        "toolkit2-perf-table",
        1,
        5,
        table(1, [1]).layers,
        skipped=(SkippedRow(4, "98 Conv", "row cut short: no Time(us)"),),
        notes=((1, "assumed the 2.x layout"),),
        reported_total_time_us=1,
        total_line=5,
    )
    result = assemble([ev], "x.log")
    assert [(w.path, w.line, w.message) for w in result.warnings] == [
        ("x.log", 1, "assumed the 2.x layout"),
        ("x.log", 4, "skipped row: row cut short: no Time(us)"),
    ]
    assert result.profiles[0].skipped_rows[0].line == 4
