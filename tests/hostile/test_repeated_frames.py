"""A frame printed again: one inference's table twice (its perf detail queried twice), or a
capture holding its output twice (a file appended to itself, overlapping ``adb logcat -d``
dumps). Equal to an earlier frame to the microsecond in every row and its total line, it is the
same inference: counted once, and said, never another frame of the model.

The bundled 3-frame runtime log prints totals of 27,905, 27,777 and 28,003 us (lines 99, 213
and 327), its tables' titles on lines 5, 119 and 233, 345 lines in all."""

from __future__ import annotations

import json
from pathlib import Path

from rknnprof.api import analyze, load
from tests.hostile.helpers import SAMPLE, distinct, run

THREE = SAMPLE.parent / "yolov5s_rk3588_loglevel4_3frames.txt"
REPEATS = "this frame repeats the frame at line"


def test_a_capture_appended_to_itself_counts_each_frame_once(tmp_path: Path) -> None:
    """``cat a a``: 6 tables, 3 inferences; the warning names the copy's first title (line
    345 + 5) and the frame it repeats (line 5)."""
    text = THREE.read_text(encoding="utf-8")
    path = tmp_path / "twice.txt"
    path.write_text(text + text, encoding="utf-8")
    report = analyze(path, rules=False)
    [profile] = report.profiles
    assert (profile.frames, profile.frames_repeated) == (3, 3)
    assert profile.frame_times_us == (27905, 27777, 28003)
    [said] = [w for w in report.warnings if REPEATS in w.message]
    assert said.line == 350 and "line 5 " in said.message and "(3 frames do)" in said.message
    assert profile.validity is not None and "printed again, counted once" in (
        profile.validity.coverage_reason
    )


def logcat(frames: list[list[str]]) -> str:
    """``frames`` as one thread prints them in ``adb logcat -v threadtime``, each line a
    millisecond after the last (no two lines share a stamp)."""
    out, ms = [], 0
    for frame in frames:
        for line in frame:
            ms += 1
            out.append(
                f"11-30 10:{ms // 60000:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"
                f"  1200  1201 D RKNN    : {line}"
            )
    return "\n".join(out) + "\n"


def table() -> list[str]:
    return SAMPLE.read_text(encoding="utf-8").split("\n")[4:118]


def test_one_inference_printed_twice_is_one_frame(tmp_path: Path) -> None:
    """Frames 0, 0 again (later stamps), 1, 2: three inferences; each frame its own but the
    repeat (frame i moves i us from layer 36 to layer 11, which read 766 and 779)."""
    t = table()
    path = tmp_path / "twice.log"
    path.write_text(logcat([distinct(t, 0), distinct(t, 0), distinct(t, 1), distinct(t, 2)]))
    [profile] = load(path, rules=False)
    assert (profile.frames, profile.frames_repeated) == (3, 1)
    [eleven] = [la for la in profile.layers if la.id == 11]
    assert (eleven.time_us, eleven.time_min_us, eleven.time_max_us) == (780, 779, 781)


def test_overlapping_dumps_count_the_overlap_once(tmp_path: Path) -> None:
    """``adb logcat -d`` twice into one file: frames 0-5, then 3-8 again (the ring buffer still
    held 3-5): nine inferences, three repeated."""
    t = table()
    frames = [distinct(t, i) for i in [*range(6), *range(3, 9)]]
    path = tmp_path / "dumps.log"
    path.write_text(logcat(frames))
    [profile] = load(path, rules=False)
    assert (profile.frames, profile.frames_repeated) == (9, 3)
    [eleven] = [la for la in profile.layers if la.id == 11]
    assert eleven.time_us == 779 + 4  # the median of 779..787


def test_a_small_model_whose_frames_agree_is_not_judged(tmp_path: Path) -> None:
    """Four rows under 20 us each: real inferences of it may take the same microseconds, so
    five equal tables stay five frames."""
    rows = [
        "ID   OpType         DataType Target InputShape   OutputShape  Cycles(DDR/NPU/Total)  "
        "Time(us)  MacUsage(%)  WorkLoad(0/1/2)  RW(KB)  FullName",
        "1    InputOperator  UINT8    CPU    \\            (1,3,8,8)    0/0/0                  "
        "4                                         0       InputOperator:x",
        "2    Conv           INT8     NPU    (1,3,8,8)    (1,8,8,8)    100/200/200            "
        "12        0.10/0.00/0.00  100.0%/0.0%/0.0%  1  Conv:c1",
        "3    Relu           INT8     NPU    (1,8,8,8)    (1,8,8,8)    100/100/100            "
        "9         0.10/0.00/0.00  100.0%/0.0%/0.0%  1  Relu:r1",
        "4    OutputOperator INT8     CPU    (1,8,8,8)    \\            0/0/0                  "
        "6                                         0       OutputOperator:y",
    ]
    rule = "-" * 120
    frame = [
        rule,
        " " * 40 + "Network Layer Information Table",
        rule,
        rows[0],
        rule,
        *rows[1:],
        rule,
        "Total Operator Elapsed Per Frame Time(us): 31",
        rule,
    ]
    path = tmp_path / "small.log"
    path.write_text(logcat([frame] * 5))
    [profile] = load(path, rules=False)
    assert (len(profile.layers), profile.frames, profile.frames_repeated) == (4, 5, 0)


def test_check_says_a_capture_holds_its_output_twice(tmp_path: Path, capsys, monkeypatch) -> None:
    """A budget the frames meet passes, with the word that the capture repeats itself."""
    text = THREE.read_text(encoding="utf-8")
    path = tmp_path / "twice.txt"
    path.write_text(text + text, encoding="utf-8")
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text("budgets:\n  - metric: frame_time_p50_us\n    max: 40000\n")
    code, out, err = run(capsys, monkeypatch, "check", str(path), "--budgets", str(budgets))
    assert code == 0, out + err
    assert REPEATS in out + err
    code, out, err = run(capsys, monkeypatch, "analyze", str(path), "-f", "json")
    [profile] = json.loads(out)["profiles"]
    assert (profile["frames"], profile["frames_repeated"]) == (3, 3)
