"""Many runs in one log: frames of one model merge into medians; processes and models stay apart."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from synthetic_logs import interleave, runtime_prefixed, table, threadtime

from rknnprof.api import analyze
from rknnprof.assemble import Assembler
from rknnprof.cli import cli
from rknnprof.parsers.events import FallbackWarningEvent

A_FRAMES = [[10, 100, 300, 5], [14, 120, 280, 5], [12, 80, 320, 7], [11, 90, 310, 5]]
B_FRAMES = [[3, 40, 50, 60, 2], [5, 44, 52, 58, 2]]


def yolo_frames(pid: int, tid: int) -> list[str]:
    """A_FRAMES' yolo tables as thread ``tid`` of process ``pid`` prints them in logcat."""
    return [
        ln for n, t in enumerate(A_FRAMES) for ln in threadtime(table(t, "yolo"), pid, tid, n * 40)
    ]


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_runtime_log_frames_merge_into_medians(tmp_path: Path) -> None:
    lines = ["I RKNN: [10:00:00.000] RKNN Runtime Information, librknnrt version: 2.3.2 (x@y)"]
    for n, times in enumerate(A_FRAMES):
        lines += runtime_prefixed(table(times, "yolo"), start_ms=n * 50)
        lines.append(f"app: frame {n} done")  # the app's own print between inferences
    [profile] = analyze(_write(tmp_path, lines), rules=False).profiles
    assert profile.frames == 4
    # per layer: medians of (10,14,12,11) = 11.5, (100,120,80,90) = 95, (300,280,320,310) = 305
    assert [la.time_us for la in profile.layers] == [11.5, 95, 305, 5]
    assert (profile.layers[1].time_min_us, profile.layers[1].time_max_us) == (80, 120)
    assert profile.frame_times_us == (415, 419, 419, 416)
    assert profile.versions.runtime == "2.3.2"


def test_two_processes_interleaved_in_logcat_are_not_mixed(tmp_path: Path) -> None:
    a = yolo_frames(1200, 1201)
    b = [
        ln
        for n, t in enumerate(B_FRAMES)
        for ln in threadtime(table(t, "unet"), 3400, 3417, n * 40)
    ]
    noise = threadtime(["Start proc 4321:com.example/u0a123"] * 5, 561, 602)
    profiles = analyze(_write(tmp_path, interleave(a, b, noise)), rules=False).profiles
    by_pid = {p.pid_tid: p for p in profiles}
    assert set(by_pid) == {(1200, 1201), (3400, 3417)}
    yolo, unet = by_pid[(1200, 1201)], by_pid[(3400, 3417)]
    assert (yolo.frames, len(yolo.layers)) == (4, 4)
    assert (unet.frames, len(unet.layers)) == (2, 5)
    assert [la.time_us for la in unet.layers] == [4, 42, 51, 59, 2]
    assert all("yolo" in (la.full_name or "") for la in yolo.layers)


def test_two_models_in_one_stream_are_two_profiles(tmp_path: Path) -> None:
    lines = []
    for times in A_FRAMES[:2]:
        lines += runtime_prefixed(table(times, "yolo"))
    for times in B_FRAMES:
        lines += runtime_prefixed(table(times, "unet"))
    lines += runtime_prefixed(table(A_FRAMES[2], "yolo"))
    profiles = analyze(_write(tmp_path, lines), rules=False).profiles
    assert [(len(p.layers), p.frames) for p in profiles] == [(4, 3), (5, 2)]


def test_a_dynamic_shape_model_gives_a_profile_per_input_shape(tmp_path: Path) -> None:
    """One model (same op types and names) run at 64x64, then 32x32, then 64x64 again: the
    InputOperator rows' shapes differ, so the frames are two profiles, each of its own frames'
    medians, and the terminal summary names each one's input."""

    def at(size: int, times: list[int]) -> list[str]:
        small = f"(1,3,{size},{size})"
        return [ln.replace("(1,3,64,64)", small.ljust(11)) for ln in table(times, "yolo")]

    lines = []
    for times in A_FRAMES[:2]:
        lines += runtime_prefixed(at(64, times))
    for times in ([3, 30, 70, 2], [5, 34, 76, 2]):
        lines += runtime_prefixed(at(32, times))
    lines += runtime_prefixed(at(64, A_FRAMES[2]))
    path = _write(tmp_path, lines)
    profiles = analyze(path, rules=False).profiles
    assert [(p.layers[0].output_shapes, p.frames) for p in profiles] == [
        (((1, 3, 64, 64),), 3),
        (((1, 3, 32, 32),), 2),
    ]
    # medians per shape: (100, 120, 80) = 100 at 64x64; (30, 34) = 32 at 32x32
    assert profiles[0].layers[1].time_us == 100 and profiles[1].layers[1].time_us == 32
    result = CliRunner().invoke(cli, ["analyze", str(path)], env={"COLUMNS": "120"})
    summaries = [ln for ln in result.stdout.splitlines() if "· total" in ln]
    inputs = [[part for part in ln.split(" · ") if part.startswith("input")] for ln in summaries]
    assert inputs == [["input 1x3x64x64"], ["input 1x3x32x32"]]


def test_check_names_each_input_shape_of_a_dynamic_shape_model(tmp_path: Path) -> None:
    """The gate judges each profile of a dynamic-shape model and names it by its input."""
    lines = []
    for size, times in ((64, A_FRAMES[0]), (32, [3, 30, 70, 2])):
        small = f"(1,3,{size},{size})".ljust(11)
        lines += runtime_prefixed([ln.replace("(1,3,64,64)", small) for ln in table(times)])
    path = _write(tmp_path, lines)
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max: 400\n")
    result = CliRunner().invoke(
        cli, ["check", str(path), "--budgets", str(budgets), "-f", "json"], env={"COLUMNS": "200"}
    )
    verdicts = json.loads(result.stdout)["verdicts"]
    # 10 + 100 + 300 + 5 = 415 us at 64x64, over the 400 us budget; 3 + 30 + 70 + 2 = 105 at 32
    assert [(v["model"], v["status"]) for v in verdicts] == [
        (f"{path}#1 (input 1x3x64x64)", "fail"),
        (f"{path}#2 (input 1x3x32x32)", "pass"),
    ]
    assert result.exit_code == 1


def test_check_does_not_judge_an_increase_against_another_input_shape(tmp_path: Path) -> None:
    """A baseline at 32x32 and this run at 64x64: the max_increase budget is inconclusive
    (another input shape), not a +295% regression; --allow-incomplete judges it anyway."""

    def log(size: int, times: list[int]) -> Path:
        small = f"(1,3,{size},{size})".ljust(11)
        lines = runtime_prefixed([ln.replace("(1,3,64,64)", small) for ln in table(times)])
        path = tmp_path / f"run{size}.log"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    base, now = log(32, [3, 30, 70, 2]), log(64, A_FRAMES[0])
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max_increase: 10%\n")
    args = ["check", str(now), "--budgets", str(budgets), "--baseline", str(base), "-f", "json"]
    [verdict] = json.loads(CliRunner().invoke(cli, args).stdout)["verdicts"]
    assert verdict["status"] == "inconclusive"
    assert "baseline: another input shape (1x3x32x32, this run 1x3x64x64)" in verdict["message"]
    result = CliRunner().invoke(cli, [*args, "--allow-incomplete"])
    assert json.loads(result.stdout)["verdicts"][0]["status"] == "fail"  # 105 -> 415 us
    # the remedy fits the reason: a baseline at this shape, not a capture without a debugger
    text = CliRunner().invoke(cli, args[:-2]).stdout
    assert "Save a baseline at this run's input shape (--save-baseline)" in " ".join(text.split())
    assert "no debugger" not in text


def test_fallback_warning_goes_to_the_model_whose_layer_it_names() -> None:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers import scan

    text = [
        *table([5, 50, 5], "yolo"),
        "W RKNN: [10:00:00.000] Failed to config layer: 'Conv:/unet/conv2/Conv' using 3Core "
        "fallback to single core mode,",
        *table([5, 60, 70, 5], "unet"),
    ]
    assembler = Assembler("x.log")
    events = list(scan(Line(n, t) for n, t in enumerate(text, 1)))
    assert any(isinstance(e, FallbackWarningEvent) for e in events)
    for event in events:
        assembler.feed(event)
    yolo, unet = assembler.finish().profiles
    assert yolo.fallback_warnings == ()
    assert unet.fallback_warnings == (
        ("Conv:/unet/conv2/Conv", "using 3Core fallback to single core mode"),
    )


def test_each_process_is_named_in_the_reports(tmp_path: Path) -> None:
    """Two processes of one capture: the terminal and Markdown headings and the gate's model
    labels say which process and thread each profile is."""
    from click.testing import CliRunner

    from rknnprof.cli import cli

    a = [ln for n, t in enumerate(A_FRAMES) for ln in threadtime(table(t, "yolo"), 1200, 1201, n)]
    b = [ln for n, t in enumerate(B_FRAMES) for ln in threadtime(table(t, "unet"), 3400, 3417, n)]
    path = _write(tmp_path, interleave(a, b, []))
    runner = CliRunner()
    terminal = runner.invoke(cli, ["analyze", str(path)]).output
    assert "run.log:" in terminal and "· pid 1200 tid 1201" in terminal
    assert "· pid 3400 tid 3417" in terminal
    markdown = runner.invoke(cli, ["analyze", str(path), "-f", "markdown"]).output
    assert "` · pid 1200 tid 1201" in markdown
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max: 1000000\n")
    gate = runner.invoke(cli, ["check", str(path), "--budgets", str(budgets), "-f", "json"])
    models = {v["model"] for v in json.loads(gate.output)["verdicts"]}
    assert any(m.endswith("(pid 3400 tid 3417)") for m in models), models


def test_one_context_per_core_is_not_told_to_use_the_idle_cores(tmp_path: Path) -> None:
    """The bundled yolov5s run (RK3588, every WorkLoad 100%/0%/0%) alone gets RKN030: the
    other two cores idle. Captured with a second process of the same model pinned to core 1
    (0%/100%/0%), the core-0 process is one context per core already: no RKN030."""
    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "yolov5s_rk3588_perf.txt"
    text = sample.read_text(encoding="utf-8").splitlines()
    assert any("100.0%/0.0%/0.0%" in line for line in text)
    core0 = threadtime(text, 1200, 1201)
    alone = analyze(_write(tmp_path, core0)).profiles
    assert [p.pid_tid for p in alone] == [(1200, 1201)]
    assert "RKN030" in {f.code for f in alone[0].findings}
    core1 = threadtime(
        [ln.replace("100.0%/0.0%/0.0%", "0.0%/100.0%/0.0%") for ln in text], 1300, 1301
    )
    both = {p.pid_tid: p for p in analyze(_write(tmp_path, interleave(core0, core1, []))).profiles}
    assert set(both) == {(1200, 1201), (1300, 1301)}
    assert "RKN030" not in {f.code for f in both[(1200, 1201)].findings}


def test_the_platform_a_log_names_wins_over_the_models_path(tmp_path: Path) -> None:
    """An rknpu2 demo run from model/RV1106/ (a public RV1106 wiki): the platform is guessed
    from the path and said to be; a line that names the SoC wins over the guess."""
    demo = [
        "# ./rknn_yolov5_demo model/RV1106/yolov5s-640-640.rknn ./model/bus.jpg",
        "rknn_api/rknnrt version: 1.5.2 (c6b7b351a@2023-08-23T15:29:48), driver version: 0.7.2",
        "Begin perf ...",
        "   0: Elapse Time = 120.09ms, FPS = 8.33",
        "model is NHWC input fmt",
    ]
    [profile] = analyze(_write(tmp_path, demo), rules=False).profiles
    assert profile.platform == "rv1106"
    assert (profile.platform_basis or "").startswith("guess: the model's path …/RV1106/")
    named = ["I target set by user is: rk3588", *demo]
    [profile] = analyze(_write(tmp_path, named), rules=False).profiles
    assert profile.platform == "rk3588"
    assert profile.platform_basis == "log: target set by user is: rk3588"


def test_a_demo_timed_once_without_warm_up_says_so(tmp_path: Path) -> None:
    """An rknpu2 demo's one ``0: Elapse Time`` (a public RV1106 wiki): the first run, cold;
    the verdict names it. Two timed runs, or a warm-up, are not one cold run."""
    demo = [
        "rknn_api/rknnrt version: 1.5.2 (c6b7b351a@2023-08-23T15:29:48), driver version: 0.7.2",
        "Begin perf ...",
        "   0: Elapse Time = 120.09ms, FPS = 8.33",
        "model is NHWC input fmt",
    ]
    [profile] = analyze(_write(tmp_path, demo), rules=False).profiles
    assert profile.validity is not None
    [cold] = [c for c in profile.validity.conditions if c.kind == "cold-run"]
    assert cold.message.startswith("one timed run, no warm-up: a first run includes")
    result = CliRunner().invoke(cli, ["analyze", str(tmp_path / "run.log")])
    verdict = " ".join(result.stdout.split("\nbenchmark runs only")[0].split()[-12:])
    assert verdict.endswith("no per-layer table · one timed run, no warm-up")
    twice = [*demo[:3], "   1: Elapse Time = 110.00ms, FPS = 9.09", demo[3]]
    [profile] = analyze(_write(tmp_path, twice), rules=False).profiles
    assert profile.validity is not None and not profile.validity.conditions


def test_a_benchmark_ending_the_log_after_its_runs_may_be_cut(tmp_path: Path) -> None:
    """Timed runs with nothing after them (no Avg line, no output) may be a loop the log cut:
    a warning says so (a gate is not passed without a word), in words that fit one run."""
    head = [
        "rknn_api/rknnrt version: 2.3.0 (c949ad889d@2024-11-07T11:35:33), driver version: 0.9.8",
        "Begin perf ...",
        "   0: Elapse Time = 25.31ms, FPS = 39.51",
    ]
    [cut] = [w.message for w in analyze(_write(tmp_path, head), rules=False).warnings]
    assert cut.startswith(
        "the benchmark stops after its first timed run, with no Avg line or output after it: "
        "the log may be cut inside the loop"
    )
    three = [*head, "   1: Elapse Time = 25.11ms, FPS = 39.82", "   2: Elapse Time = 25.20ms"]
    [cut] = [w.message for w in analyze(_write(tmp_path, three), rules=False).warnings]
    assert cut.startswith("the benchmark stops after 3 timed runs, with no Avg line or output")
    ended = [*three, "model is NHWC input fmt"]
    assert not analyze(_write(tmp_path, ended), rules=False).warnings


def test_a_soc_without_platform_data_is_said_to_be_one(tmp_path: Path) -> None:
    """A log naming a SoC rknnprof has no data for: the platform stays the log's, and the
    summary and platform_basis say there is no data for it (it showed a bare "RK9999")."""
    lines = ["I Get hardware info: target_platform = rk9999, os = Linux", *table(A_FRAMES[0])]
    path = _write(tmp_path, lines)
    [profile] = analyze(path, rules=False).profiles
    assert profile.platform == "rk9999"
    assert profile.platform_basis == "log: target_platform = rk9999 (no platform data)"
    result = CliRunner().invoke(cli, ["analyze", str(path)], env={"COLUMNS": "120"})
    assert "RK9999 (no platform data) · total" in result.stdout


def test_two_socs_named_in_one_log_are_warned_about(tmp_path: Path) -> None:
    """The user's target (rv1106) and the board the toolkit found (rk3588): the board's is
    used (the toolkit refuses a target that is not the board's: rknn_model_zoo issue 408), and
    one warning names the other so the user can pass --platform. Two targets the user named:
    the first."""
    lines = [
        "I target set by user is: rv1106",
        "I Get hardware info: target_platform = rk3588, os = Linux",
        *table(A_FRAMES[0]),
    ]
    report = analyze(_write(tmp_path, lines), rules=False)
    assert report.profiles[0].platform == "rk3588"
    assert report.profiles[0].platform_basis == "log: target_platform = rk3588"
    assert [(w.line, w.message) for w in report.warnings] == [
        (
            1,
            "the log also names another SoC: rv1106 (line 1) beside rk3588, which the report "
            "uses: pass --platform to choose",
        )
    ]
    lines = ["I target set by user is: rv1106", "I target is RK3588", *table(A_FRAMES[0])]
    assert analyze(_write(tmp_path, lines), rules=False).profiles[0].platform == "rv1106"
    # many SoCs named: three shown, the rest counted
    socs = ["rk3566", "rk3568", "rk3576", "rk3562", "rv1103"]
    lines = [*(f"I target set by user is: {soc}" for soc in socs), *table(A_FRAMES[0])]
    [warning] = analyze(_write(tmp_path, lines), rules=False).warnings
    assert (
        "rk3568 (line 2), rk3576 (line 3), rk3562 (line 4) and 1 more beside rk3566"
        in warning.message
    )
    # without a profile, the exit-3 line names the board's too (it named the user's target)
    lines = ["I target set by user is: rk3576", "I Get hardware info: target_platform = rk3588"]
    result = CliRunner().invoke(cli, ["analyze", str(_write(tmp_path, lines))])
    assert result.exit_code == 3 and "runtime information only (rk3588)" in result.stderr


def test_chatty_notes_of_another_process_say_nothing_of_the_tables(tmp_path: Path) -> None:
    """logd's ``chatty`` note names the process whose lines it squashed: a busy phone's
    ``Binder:561_2 identical 3 lines`` (pid 561) lost none of pid 1200's table rows, and
    warned on every capture that rows may be missing; the table's own process's note does."""
    lines = yolo_frames(1200, 1201)
    other = threadtime(["uid=1000(system) Binder:561_2 identical 3 lines"], 561, 602)
    other = [ln.replace(" D RKNN    ", " I chatty  ") for ln in other]
    ours = threadtime(["uid=10099(u0_a99) rknn_demo identical 12 lines"], 1200, 1201)
    ours = [ln.replace(" D RKNN    ", " I chatty  ") for ln in ours]
    path = _write(tmp_path, [*lines[:30], *other, *lines[30:]])
    report = analyze(path, rules=False)
    assert report.profiles[0].frames == 4
    assert not [w for w in report.warnings if "chatty" in w.message]
    path = _write(tmp_path, [*lines[:30], *other, *ours, *lines[30:]])
    [said] = [w.message for w in analyze(path, rules=False).warnings if "chatty" in w.message]
    assert said.startswith("logd squashed 1 run(s) of identical lines")


def test_a_benchmarks_avg_outside_its_runs_is_said(tmp_path: Path) -> None:
    """npu_stress_test's runs (a vendor doc's rknn_common_test, 2.59-2.85 ms) under an Avg line
    that says 0.50 ms: no average of them; the report said nothing and its total read 500 us.
    The same runs under their own average (2.71 ms) say nothing."""
    runs = [2.85, 2.70, 2.59, 2.71]
    log = [
        "rknn_api/rknnrt version: 2.0.0b0 (35a6907d79@2024-03-24T10:31:14), driver version: 0.9.7",
        "Begin perf ...",
        *(f"   {i}: Elapse Time = {ms:.2f}ms, FPS = {1000 / ms:.2f}" for i, ms in enumerate(runs)),
        "---- Top5 ----",
    ]
    edited = analyze(_write(tmp_path, [*log, "Avg Time 0.50ms, Avg FPS = 2000.000"]), rules=False)
    [said] = [w.message for w in edited.warnings if "Avg Time" in w.message]
    assert said.startswith("the benchmark's Avg Time 0.5 ms lies outside its 4 timed run(s), ")
    assert "2.59-2.85 ms" in said
    whole = analyze(_write(tmp_path, [*log, "Avg Time 2.71ms, Avg FPS = 368.864"]), rules=False)
    assert not [w for w in whole.warnings if "Avg Time" in w.message]


def test_threads_interleaved_without_thread_ids_say_to_capture_threadtime(tmp_path: Path) -> None:
    """Two threads of one process (pid 1200) print tables at once under ``adb logcat -v
    brief``, which prints no thread id: their rows interleave into tables read in pieces, and
    one warning says which layout keeps them apart (there were dozens of pieces and no word)."""
    a = yolo_frames(1200, 1201)
    b = yolo_frames(1200, 1202)
    brief = [f"D/RKNN    ( 1200): {ln.split(': ', 1)[1]}" for ln in interleave(a, b)]
    report = analyze(_write(tmp_path, brief), rules=False)
    [said] = [w.message for w in report.warnings if "without thread ids" in w.message]
    assert said == (
        "1 table(s) damaged or read in pieces in a logcat layout without thread ids (`-v "
        "brief`): if several threads printed tables at once, their rows interleave there; "
        "capture with `adb logcat -v threadtime`, which keeps them apart"
    )
    one = [f"D/RKNN    ( 1200): {ln.split(': ', 1)[1]}" for ln in a]  # one thread: no word
    assert not [w for w in analyze(_write(tmp_path, one)).warnings if "thread ids" in w.message]
