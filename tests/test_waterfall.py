"""The deployment waterfall: the application's own timings beside a table, split into the
table's layers, rknn_run's overhead, the input/output calls and the rest. Expected values are
read off the fixtures (tests/data/app_timing, written from the rknpu2 demos' printf grammar)
and corpus 43's tail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rknnprof.api import analyze
from rknnprof.cli import cli
from rknnprof.model import Profile, Waterfall, WaterfallNoteKind
from tests.conftest import corpus_file

DATA = Path(__file__).resolve().parent / "data" / "app_timing"
TABLE = (DATA / "demo_calls_only.txt").read_text().split("rknn_inputs_set")[0]
"""The fixtures' table: 21,300 us, of which 20,100 on the NPU (rows 2 and 3)."""


def _profile(path: Path) -> Profile:
    [profile] = analyze(path).profiles
    return profile


def _fall(profile: Profile) -> Waterfall:
    fall = profile.waterfall
    assert fall is not None
    assert sum(s.time_us for s in fall.steps) == pytest.approx(fall.total_us)
    return fall


def _steps(profile: Profile) -> dict[str, float]:
    return {s.key: s.time_us for s in _fall(profile).steps}


def test_demo_eval_time_adds_up() -> None:
    # rknn_inputs_set 1.9 ms, rknn_run 23.6 ms, rknn_outputs_get 2.5 ms, total line 30.0 ms
    profile = _profile(DATA / "demo_eval_time.txt")
    assert profile.app_time_us == 30000
    assert profile.app_calls == (
        ("rknn_inputs_set", 1900),
        ("rknn_run", 23600),
        ("rknn_outputs_get", 2500),
    )
    assert _steps(profile) == {
        "npu_layers": 20100,
        "cpu_layers": 1200,
        "run_overhead": 2300,
        "inputs_set": 1900,
        "outputs_get": 2500,
        "remainder": 2000,
    }
    fall = _fall(profile)
    assert fall.total_us == 30000 and fall.outside_us == 8700
    assert sum(s.time_us for s in fall.steps) == fall.total_us
    assert fall.scale == 1
    assert [n.kind for n in fall.notes] == [WaterfallNoteKind.TIMER_SPAN_UNKNOWN]


def test_calls_only_medians_and_their_sum() -> None:
    # three frames: inputs 2.0/1.8/2.2, run 22.0/22.4/22.2, outputs 3.0/3.4/3.2 -> medians
    profile = _profile(DATA / "demo_calls_only.txt")
    assert profile.app_time_us is None
    assert _steps(profile) == {
        "npu_layers": 20100,
        "cpu_layers": 1200,
        "run_overhead": 900,
        "inputs_set": 2000,
        "outputs_get": 3200,
    }
    assert _fall(profile).total_us == 27400


def test_run_below_the_table_is_a_scaled_breakdown_of_run() -> None:
    # rknn_run 19.0 ms below the perf_debug table's 21.3 ms (NPU 20,100, CPU 1,200): the layers
    # share rknn_run's 19.0 ms. The "once run use 20.5 ms" before it is the demo's cold first
    # run, not a frame's time: the total is the 19.0 ms the application timed
    profile = _profile(DATA / "demo_run_below_table.txt")
    assert profile.app_time_us is None
    fall = _fall(profile)
    steps = {s.key: s.time_us for s in fall.steps}
    assert fall.scale == pytest.approx(19000 / 21300)
    assert steps["npu_layers"] == pytest.approx(20100 * 19000 / 21300)
    assert steps["cpu_layers"] == pytest.approx(1200 * 19000 / 21300)
    assert "run_overhead" not in steps and "remainder" not in steps
    assert fall.total_us == pytest.approx(19000)
    assert fall.has(WaterfallNoteKind.TABLE_SCALED)


def test_table_above_run_never_grows_the_total() -> None:
    # issue 22: calls 0.93 + 9.00 + 0.90 = 10.83 ms beside a 14.48 ms table (NPU 13,500 us:
    # rows 2 and 3; CPU 980: rows 1 and 4). The total is the 10.83 ms the application timed
    fall = _fall(_profile(DATA / "demo_table_above_run.txt"))
    steps = {s.key: s.time_us for s in fall.steps}
    assert fall.total_us == pytest.approx(10830)
    assert fall.scale == pytest.approx(9000 / 14480)
    assert steps["npu_layers"] + steps["cpu_layers"] == pytest.approx(9000)
    assert steps["npu_layers"] == pytest.approx(13500 * 9000 / 14480)
    assert (steps["inputs_set"], steps["outputs_get"]) == (930, 900)
    assert "run_overhead" not in steps and "remainder" not in steps
    assert [n.kind for n in fall.notes] == [WaterfallNoteKind.TABLE_SCALED]
    assert "14.48 ms" in fall.notes[0].text and "9.00 ms of rknn_run" in fall.notes[0].text
    text = CliRunner().invoke(cli, ["analyze", str(DATA / "demo_table_above_run.txt")]).output
    assert "Where an inference's 10.83 ms goes" in text and "16.31" not in text


def test_the_cold_first_run_is_never_the_frame(tmp_path: Path) -> None:
    # the rknpu2 demos print their first, cold run, then the average of a timed loop
    # (rknpu2 examples/rknn_yolov5_demo: "once run use %f ms", "loop count = %d , average run
    # %f ms"); the average is the application's frame, the first run is not
    path = tmp_path / "demo.txt"
    path.write_text(
        TABLE + "once run use 49.000000 ms\nloop count = 10 , average run  41.760800 ms\n"
    )
    profile = _profile(path)
    assert profile.app_time_us == pytest.approx(41760.8)
    assert _fall(profile).total_us == pytest.approx(41760.8)
    alone = tmp_path / "alone.txt"
    alone.write_text(TABLE + "once run use 49.000000 ms\n")
    profile = _profile(alone)
    assert profile.app_time_us is None and profile.waterfall is None


def test_model_zoo_averages_are_read_not_their_max_or_tp99(tmp_path: Path) -> None:
    # rknn_model_zoo's per-call summary: the average, never max_time or tp99; and an average
    # wins over the single runs printed before it
    path = tmp_path / "zoo.txt"
    path.write_text(
        TABLE
        + "rknn_run use 25.000000 ms\n"
        + "rknn_inputs_set ave time: 1.802ms, max_time: 2.310ms, tp99: 2.250ms\n"
        + "rknn_run ave time: 22.150ms, max_time: 25.000ms, tp99: 24.800ms\n"
        + "rknn_outputs_get ave time: 3.004ms, max_time: 3.900ms, tp99: 3.870ms\n"
    )
    profile = _profile(path)
    assert profile.app_calls == (
        ("rknn_inputs_set", pytest.approx(1802)),
        ("rknn_run", pytest.approx(22150)),
        ("rknn_outputs_get", pytest.approx(3004)),
    )
    assert _steps(profile)["run_overhead"] == pytest.approx(22150 - 21300)


def test_corpus_43_total_line_against_the_ranking() -> None:
    # ranking Total: CPU 1,117, NPU 130,084 = 131,201 us; Total inference time 151.6830 ms
    profile = _profile(corpus_file("43_"))
    assert _steps(profile) == {"npu_layers": 130084, "cpu_layers": 1117, "remainder": 20482}
    fall = _fall(profile)
    assert fall.total_us == 151683
    assert fall.has(WaterfallNoteKind.TIMER_SPAN_UNKNOWN) and "not in the log" in fall.notes[0].text
    # a part of a frame in us, as the line above it says (it read 20.48 ms)
    assert fall.notes[0].text.startswith("20,482 us of the application's 151.68 ms is outside")


def test_perf_debug_false_total(tmp_path: Path) -> None:
    # eval_perf(perf_debug=False): "Total Time(us): 18642" only; the script's 24.0 ms around it
    path = tmp_path / "nodebug.txt"
    path.write_text("        Total Time(us): 18642\n        FPS: 53.64\nInference time: 24.0 ms\n")
    assert _steps(_profile(path)) == {"all_layers": 18642, "remainder": 5358}


def test_no_waterfall_without_application_timings() -> None:
    profile = _profile(corpus_file("07_"))
    assert profile.waterfall is None


@pytest.mark.parametrize(
    ("line", "call", "time_us"),
    [
        ("rknn_run use 20.513000 ms", "rknn_run", 20513),
        ("rknn_inputs_set use 1.204000 ms", "rknn_inputs_set", 1204),
        ("I/app: rknn_outputs_get use 2.870000 ms", "rknn_outputs_get", 2870),
        ("rknn_run time: 800 us", "rknn_run", 800),
        ("rknn_run cost=12.5ms", "rknn_run", 12500),
        ("Inference time: 0.0234 s", None, 23400),
        ("infer time: 12.5 ms", None, 12500),
        ("loop count = 10 , average run  41.760800 ms", None, 41760.8),
        ("-- rknn_run use: 12.345000 ms", "rknn_run", 12345),  # rknn_model_zoo's TIMER
    ],
)
def test_timing_lines(tmp_path: Path, line: str, call: str | None, time_us: float) -> None:
    path = tmp_path / "log.txt"
    path.write_text(TABLE + line + "\n")
    profile = _profile(path)
    if call is None:
        assert profile.app_time_us == pytest.approx(time_us)
        assert profile.app_calls == ()
    else:
        assert profile.app_calls == ((call, pytest.approx(time_us)),)
        assert profile.app_time_us is None


@pytest.mark.parametrize(
    "line",
    [
        "E RKNN: rknn_run: failed to submit!, op id: 1",
        "rknn_run(ctx, NULL);",
        "the inference timed out",
    ],
)
def test_not_timing_lines(tmp_path: Path, line: str) -> None:
    path = tmp_path / "log.txt"
    path.write_text(TABLE + line + "\n")
    profile = _profile(path)
    assert profile.app_calls == () and profile.app_time_us is None and profile.waterfall is None


def test_finding_itemises_and_is_bounded_by_the_measurement() -> None:
    profile = _profile(DATA / "demo_eval_time.txt")
    [found] = [
        f for f in profile.findings if f.code == "RKN050" and "outside the table's" in f.message
    ]
    assert found.est_saving_us == 8700  # 30.0 ms - the table's 21.3 ms
    assert "rknn_run overhead 2,300 us" in found.message
    assert "rknn_inputs_set 1,900 us" in found.message
    assert "RGA" in found.fix and "rknn_mem_sync" in found.fix and "threads" in found.fix


def test_reports_show_it() -> None:
    path = str(DATA / "demo_eval_time.txt")
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["analyze", path, "-f", "json"]).output)
    fall = data["profiles"][0]["waterfall"]
    assert [[s["key"], s["time_us"]] for s in fall["steps"]] == [
        ["npu_layers", 20100],
        ["cpu_layers", 1200],
        ["run_overhead", 2300],
        ["inputs_set", 1900],
        ["outputs_get", 2500],
        ["remainder", 2000],
    ]
    assert fall["total_us"] == 30000 and fall["notes"][0]["kind"] == "timer_span_unknown"
    text = runner.invoke(cli, ["analyze", path, "--color", "never"]).output
    assert "Where an inference's 30.00 ms goes" in text and "rknn_run overhead" in text
    md = runner.invoke(cli, ["analyze", path, "-f", "markdown"]).output
    assert "| rknn\\_run overhead | 2,300 |" in md
    html = runner.invoke(cli, ["analyze", path, "-f", "html"]).output
    assert '<svg class="waterfall"' in html and "30,000 us" in html
