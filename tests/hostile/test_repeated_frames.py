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


def small(times: tuple[int, int, int, int]) -> list[str]:
    """A four-row table whose rows take ``times`` (us), its total line their sum."""
    rows = [
        "ID   OpType         DataType Target InputShape   OutputShape  Cycles(DDR/NPU/Total)  "
        "Time(us)  MacUsage(%)  WorkLoad(0/1/2)  RW(KB)  FullName",
        "1    InputOperator  UINT8    CPU    \\            (1,3,8,8)    0/0/0                  "
        f"{times[0]:<9} 0.0%/0.0%/0.0%    0       InputOperator:x",
        "2    Conv           INT8     NPU    (1,3,8,8)    (1,8,8,8)    100/200/200            "
        f"{times[1]:<9} 0.10/0.00/0.00  100.0%/0.0%/0.0%  1  Conv:c1",
        "3    Relu           INT8     NPU    (1,8,8,8)    (1,8,8,8)    100/100/100            "
        f"{times[2]:<9} 0.10/0.00/0.00  100.0%/0.0%/0.0%  1  Relu:r1",
        "4    OutputOperator INT8     CPU    (1,8,8,8)    \\            0/0/0                  "
        f"{times[3]:<9} 0.0%/0.0%/0.0%    0       OutputOperator:y",
    ]
    rule = "-" * 120
    return [
        rule,
        " " * 40 + "Network Layer Information Table",
        rule,
        rows[0],
        rule,
        *rows[1:],
        rule,
        f"Total Operator Elapsed Per Frame Time(us): {sum(times)}",
        rule,
    ]


def test_a_small_model_whose_frames_agree_is_not_judged(tmp_path: Path) -> None:
    """Rows under 20 us (4, 12, 9, 6): real inferences of it may take the same microseconds,
    so five equal tables stay five frames; and a model whose four rows of 20 us or more never
    move (20, 40, 300, 90 us, 20 tables alike) tells a copy from the next inference no better."""
    for times, frames in (((4, 12, 9, 6), 5), ((20, 40, 300, 90), 20)):
        path = tmp_path / "small.log"
        path.write_text(logcat([small(times)] * frames))
        [profile] = load(path, rules=False)
        assert (len(profile.layers), profile.frames, profile.frames_repeated) == (4, frames, 0)


def test_a_small_models_copy_is_told_by_a_long_run(tmp_path: Path) -> None:
    """Four rows of 20 us or more (20, 40, 300 and 90 us, two of them moving a microsecond a
    frame): four different frames repeated in order hold 16 of them, so ``cat a a`` of four
    frames is told; of three it is not (12 rows: any two of a small model's frames may
    meet)."""
    frames = [small((20, 40 + i, 300 - i, 90)) for i in range(6)]
    for count, repeated in ((4, 4), (3, 0)):
        path = tmp_path / "twice.log"
        path.write_text(logcat(frames[:count] * 2))
        [profile] = load(path, rules=False)
        assert (profile.frames, profile.frames_repeated) == (2 * count - repeated, repeated)


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


def test_a_frame_equal_to_an_earlier_one_alone_is_another_inference(tmp_path: Path) -> None:
    """Frames 0, 1, 2, then 0's times again, then 3: one frame meeting an earlier one is no
    copy (any two of many frames may meet); five frames, as printed. So does a run left open at
    the end of the capture (frames 0-3, then 0 again)."""
    t = table()
    for order in ([0, 1, 2, 0, 3], [0, 1, 2, 3, 0]):
        path = tmp_path / "met.log"
        path.write_text(logcat([distinct(t, i) for i in order]))
        [profile] = load(path, rules=False)
        assert (profile.frames, profile.frames_repeated) == (5, 0), order
        [eleven] = [la for la in profile.layers if la.id == 11]
        assert eleven.time_us == 780  # the median of 779, 780, 781, 779, 782 / 782, 779
