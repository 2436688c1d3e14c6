"""Per-frame storage stays bounded: a capture of any length keeps at most MAX_FRAME_TIMES frame
totals in order and MAX_FRAME_NOTES + 1 disagreeing frames, while ``frames``, p50 and p90 still
count every frame (from counters of distinct values); repeated runtime-info, NPU-load and
app-time lines are kept once; tables that make no profile, RKLLM generations, totals and
benchmark profiles have their limits too. Each limit that is hit gives one warning."""

from __future__ import annotations

import json
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from rknnprof.assemble import assemble, inferences
from rknnprof.assemble import assembler as assembler_module
from rknnprof.assemble.context import MAX_CONTEXT_RECORDS
from rknnprof.assemble.frame_notes import frame_notes
from rknnprof.assemble.inferences import (
    MAX_FRAME_NOTES,
    MAX_FRAME_TIMES,
    ModelFrames,
    percentile_of,
)
from rknnprof.cli import cli
from rknnprof.model import BenchmarkRun, Layer, Target, Versions
from rknnprof.parsers.events import (
    AppTimeEvent,
    BenchmarkEvent,
    InfoEvent,
    LlmStatsEvent,
    NpuLoadEvent,
    TableEvent,
    TotalsEvent,
)

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402


def test_percentile_of_a_counter_is_the_listed_values_percentile():
    # listed out: 100, 100, 110, 140
    counts = Counter({100.0: 2, 140.0: 1, 110.0: 1})
    assert percentile_of(counts, 50) == 105  # halfway between the 2nd and 3rd values
    assert percentile_of(counts, 90) == pytest.approx(131)  # 110 + 0.7 * (140 - 110)
    assert percentile_of(Counter({7.0: 1}), 90) == 7
    assert percentile_of(Counter(), 50) is None


def _frame(line: int, time_us: float, total_us: float) -> TableEvent:
    layer = Layer(
        id=1, op_type="Conv", target=Target.NPU, time_us=time_us, full_name="Conv:c", line=line
    )
    return TableEvent(
        "toolkit2-perf-table",
        line,
        line + 2,
        (layer,),
        reported_total_time_us=total_us,
        total_line=line + 2,
    )


def test_model_frames_containers_stay_at_their_caps():
    frames = MAX_FRAME_TIMES + 2_000
    model = ModelFrames(None, "toolkit2-perf-table", True, 1, 1)
    for i in range(frames):
        # (10.0 .. 19.9 us, each 120 times: under 20 us, the frames tell no repeat)
        time_us = (100 + i % 100) / 10
        model.add(_frame(1 + 3 * i, time_us, time_us + 5), None)  # every total line 5 us off
    assert model.frames == frames
    assert len(model.frame_times) == MAX_FRAME_TIMES
    assert model.frame_times[:3] == [10, 10.1, 10.2] and model.frame_times[-1] == 19.9
    assert len(model.frame_time_counts) == 100  # distinct totals, not frames
    assert len(model.mismatched) == MAX_FRAME_NOTES + 1 and model.mismatched_total == frames
    assert model.mismatched[0] == (3, 10, 15)
    assert model.incomplete() == (
        f"{frames} of {frames} frame(s) disagree with their own total line (first: line 3)"
    )
    profile = model.profile("x.log")
    assert len(profile.frame_times_us) == MAX_FRAME_TIMES
    # 12,000 frames, each of 10.0..19.9 120 times: the 6,000th and 6,001st values are 14.9
    # and 15.0
    assert profile.frame_time_p50_us == pytest.approx(14.95)
    # position 10,799.1 of the sorted frames: 18.9 (the 10,800th) + 0.1 * (19.0 - 18.9)
    assert profile.frame_time_p90_us == pytest.approx(18.91)


def test_a_long_generated_capture_keeps_the_first_frames_and_counts_all(tmp_path):
    frames = MAX_FRAME_TIMES + 50
    lines: list[str] = []
    for n in range(frames):
        lines += generate.table(4, seed=n, jitter=0.3)
    log = tmp_path / "long.txt"
    log.write_text("\n".join(lines) + "\n")
    # what the log says: each frame's total line, and layer 2's Time(us) column
    totals = [int(m) for m in re.findall(r"Per Frame Time\(us\): (\d+)", log.read_text())]
    conv = [int(line.split()[7]) for line in lines if line.startswith("2    ")]
    assert len(totals) == len(conv) == frames

    result = CliRunner().invoke(cli, ["analyze", "-f", "json", str(log)])
    assert result.exit_code == 0, result.output
    (profile,) = json.loads(result.stdout)["profiles"]
    assert profile["frames"] == frames
    assert profile["frame_times_us"] == totals[:MAX_FRAME_TIMES]
    deciles = statistics.quantiles(totals, n=10, method="inclusive")  # NumPy's linear method
    assert profile["frame_time_p50_us"] == pytest.approx(statistics.median(totals))
    assert profile["frame_time_p90_us"] == pytest.approx(deciles[8])
    assert profile["layers"][1]["time_us"] == statistics.median(conv)
    assert profile["layers"][1]["time_max_us"] == max(conv)
    assert profile["incomplete"] is None
    assert (
        f"{frames:,} frames: frame_times_us keeps the first {MAX_FRAME_TIMES:,} frame times"
        in result.stderr
    )


def _context(evs: list):
    built = assembler_module.Assembler("x.log")
    for ev in evs:
        built.feed(ev)
    return built.context


def test_repeated_context_lines_are_kept_once():
    evs: list = []
    for i in range(5_000):  # a runtime that prints all of this once per inference
        evs += [
            InfoEvent(
                10 * i,
                Versions(runtime="2.3.2"),
                platform="rk3588",
                platform_evidence="target platform: rk3588",
                stream=(5, 5),
            ),
            NpuLoadEvent(10 * i + 1, (float(i % 7), 0.0, 0.0), stream=(5, 5)),
            AppTimeEvent(10 * i + 2, 1000.0 + i % 3, stream=(5, 5), call="rknn_run"),
        ]
    evs += [TotalsEvent("toolkit1-perf-totals", 60_000, 900.0, stream=(5, 5))]
    result = assemble(evs, "x.log")
    (profile,) = result.profiles
    context = _context(evs)
    assert (len(context.infos), len(context.loads), len(context.app_times)) == (1, 1, 1)
    assert profile.versions.runtime == "2.3.2" and profile.platform == "rk3588"
    assert profile.npu_load_pct == (float(4_999 % 7), 0.0, 0.0)  # the last reading
    assert profile.app_calls == (("rknn_run", 1001),)  # 1000, 1001, 1002 about equally often
    assert result.warnings == []


def test_distinct_context_records_are_capped_with_a_warning():
    evs = [
        InfoEvent(i + 1, Versions(runtime=f"2.{i}"), stream=(i, i))
        for i in range(MAX_CONTEXT_RECORDS + 5)
    ]
    result = assemble(evs, "x.log")
    assert len(_context(evs).infos) == MAX_CONTEXT_RECORDS
    [warning] = result.warnings
    assert warning.line == MAX_CONTEXT_RECORDS + 1 and "are not read" in warning.message


def test_tables_without_profile_data_are_counted_past_the_limit():
    limit = assembler_module.MAX_LOOSE_WARNINGS
    header_only = [
        TableEvent(
            "toolkit2-perf-table", 10 * i + 1, 10 * i + 2, (), notes=((10 * i + 1, "a header"),)
        )
        for i in range(limit + 30)
    ]
    result = assemble(header_only, "x.log")
    assert result.profiles == [] and len(result.found) == limit
    assert len(result.warnings) == limit + 1
    assert result.warnings[-1].message.startswith("30 more table(s) without profile data")


def test_totals_benchmarks_and_generations_count_against_the_profile_limit():
    cap = assembler_module.MAX_PROFILES
    evs: list = [
        TotalsEvent("toolkit1-perf-totals", i + 1, 100.0, stream=(i, i)) for i in range(cap)
    ]
    evs += [
        BenchmarkEvent(cap + 1, cap + 2, BenchmarkRun(run_times_ms=(1.0, 2.0))),
        LlmStatsEvent(cap + 3, cap + 4, prefill_ms=10.0, stream=(1, 1)),
    ]
    result = assemble(evs, "x.log")
    assert len(result.profiles) == cap
    [warning] = result.warnings
    assert warning.line == cap + 1 and "are not read" in warning.message


def test_generations_past_the_limit_are_counted(monkeypatch):
    monkeypatch.setattr(assembler_module, "MAX_GENERATIONS", 3)
    evs = [
        LlmStatsEvent(10 * i + 1, 10 * i + 5, prefill_ms=100.0 + i, prefill_tokens=50)
        for i in range(5)
    ]
    result = assemble(evs, "x.log")
    (profile,) = result.profiles
    assert profile.llm.generations == 3 and profile.llm.prefill_ms == 101  # 100, 101, 102
    [warning] = result.warnings
    assert warning.line == 25 and warning.message.startswith("2 more RKLLM stage table(s)")


def test_times_go_on_a_coarser_grid_past_the_distinct_limit(monkeypatch):
    monkeypatch.setattr(inferences, "MAX_DISTINCT_TIMES", 100)
    model = ModelFrames(None, "toolkit2-perf-table", True, 1, 1)
    for i in range(300):  # row 1 prints a new time every frame: 1000 .. 1299 us; row 2 50 us
        layers = (
            Layer(id=1, op_type="Conv", target=Target.NPU, time_us=1000 + i, full_name="Conv:a"),
            Layer(id=2, op_type="Add", target=Target.NPU, time_us=50, full_name="Add:b"),
        )
        model.add(
            TableEvent(
                "toolkit2-perf-table",
                1 + 4 * i,
                4 + 4 * i,
                layers,
                reported_total_time_us=1050 + i,
                total_line=4 + 4 * i,
            ),
            None,
        )
    # 300 distinct times > 100: 1 us changes nothing for whole numbers, 10 us leaves 12 (<= 50)
    model.profile("x.log")  # counts the frames still waiting in the flat list
    assert model.time_step == 10 and sum(len(c) for c in model.counts) <= 100
    profile = model.profile("x.log")
    first, second = profile.layers
    # the 150th and 151st times, 1149 and 1150 us, both 1150 on the 10 us grid
    assert (first.time_us, first.time_min_us, first.time_max_us) == (1150, 1000, 1300)
    assert (second.time_us, second.time_min_us, second.time_max_us) == (50, 50, 50)
    assert profile.frame_times_us[:2] == (1050, 1051)  # kept as printed
    assert profile.frame_time_p50_us == 1200  # 1199 and 1200 us, both 1200 on the grid
    assert profile.reported_total_time_us == 1200
    [note] = [text for _, text in frame_notes(model) if "distinct times" in text]
    assert "counted to the nearest 10 us" in note


def test_a_long_benchmark_keeps_the_first_run_times_and_counts_all():
    runs = MAX_FRAME_TIMES + 10
    times = tuple(20.0 + (i % 10) / 10 for i in range(runs))  # 20.0 .. 20.9 ms, 1,001 each
    result = assemble([BenchmarkEvent(5, 6, BenchmarkRun(run_times_ms=times))], "x.log")
    (profile,) = result.profiles
    assert profile.frames == runs and len(profile.frame_times_us) == MAX_FRAME_TIMES
    assert profile.frame_times_us[:3] == (20000, 20100, 20200)
    # 10,010 runs sorted: the 5,005th and 5,006th are 20.4 and 20.5 ms; position 9,008.1 is
    # 20.8 ms (runs 8,009 .. 9,009 of the sorted list) followed by 20.9
    assert profile.frame_time_p50_us == pytest.approx(20450)
    assert profile.frame_time_p90_us == pytest.approx(20810)
    [warning] = result.warnings
    assert warning.line == 5 and warning.message.startswith("10,010 runs: frame_times_us keeps")


def test_row_times_wait_in_bounded_memory_for_a_wide_table(monkeypatch):
    monkeypatch.setattr(inferences, "MAX_PENDING_TIMES", 1_000)
    model = ModelFrames(None, "toolkit2-perf-table", True, 1, 1)
    layers = tuple(
        Layer(id=i, op_type="Conv", target=Target.NPU, time_us=10 + i % 3, full_name=f"Conv:{i}")
        for i in range(300)
    )
    for n in range(40):
        model.add(TableEvent("toolkit2-perf-table", 1 + 400 * n, 301 + 400 * n, layers), None)
        assert len(model.row_times) < 1_000 + 300  # counted once 1,000 times wait
    profile = model.profile("x.log")
    assert [la.time_us for la in profile.layers[:4]] == [10, 11, 12, 10]
    assert profile.frames == 40 and model.counts[0] == Counter({10: 40})


def test_a_frame_set_aside_among_ten_thousand_is_counted_with_separators():
    """A frame of 10,001 whose row (15 us) disagrees with its total line (14 us), both among
    the other frames' 10-19 us: set aside, and the warning counts the others as the reports
    count frames (it read 'merges the other 10000 frames'). (Rows under 20 us: the frames
    tell no repeat.)"""
    model = ModelFrames(None, "toolkit2-perf-table", True, 1, 1)
    for i in range(10_001):
        time_us = 10 + i % 10
        total = 14 if i == 5_000 else time_us
        model.add(_frame(1 + 3 * i, 15 if i == 5_000 else time_us, total), None)
    notes = [text for _, text in frame_notes(model)]
    assert any(t.endswith("set aside, the profile merges the other 10,000 frames") for t in notes)
    assert model.profile("x.log").frames_set_aside == 1
