"""A capture of many frames where one frame's rows disagree with its own total line (a value
damaged in the log): that frame is set aside, and the others, which agree, are merged and
priced as a clean profile; a capture where such frames are more than one in ten stays damaged.

The captures repeat the bundled sample's table (89 rows, total line 28,023 us; layer 2,
``Conv:/model.0/conv/Conv``, 6,030 us) with its runtime lines once at the top."""

from __future__ import annotations

import json
from pathlib import Path

from rknnprof.api import load
from rknnprof.model import Coverage
from tests.hostile.helpers import SAMPLE, distinct, run

FIRST_CONV_ROW_TIME = "6030         "
"""Layer 2's Time(us) cell in the sample, padded as printed."""


def capture(
    tmp_path: Path,
    frames: int,
    damaged: dict[int, str],
    rows: dict[int, tuple[str, str]] | None = None,
    totals: dict[int, str] | None = None,
    step: int = 0,
) -> str:
    """The sample's table ``frames`` times, each frame its own (:func:`distinct`). With ``step``, frame i's layer 2 takes 6,030 +
    step x (i % 5) us and its total line says 28,023 + step x (i % 5): frames that vary, as
    real ones do. Frame i (0-based) in ``damaged`` has layer 2's time cell replaced by
    ``damaged[i]`` (the total line left as printed), in ``rows`` the row holding ``rows[i][0]``
    replaced by ``rows[i][1]``, in ``totals`` its total line's figure."""
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    head, table = lines[:4], lines[4:118]
    assert "Network Layer Information Table" in table[1] and table[-2].startswith("Total ")
    out = list(head)
    for i in range(frames):
        frame = distinct(table, i)
        [row] = [k for k, line in enumerate(frame) if "Conv:/model.0/conv/Conv" in line]
        [total] = [k for k, line in enumerate(frame) if line.startswith("Total Operator")]
        assert FIRST_CONV_ROW_TIME in frame[row]
        cell = f"{6030 + step * (i % 5):<13}"
        frame[row] = frame[row].replace(FIRST_CONV_ROW_TIME, cell, 1)
        frame[total] = f"Total Operator Elapsed Per Frame Time(us): {28023 + step * (i % 5)}"
        if i in damaged:
            frame[row] = frame[row].replace(cell, damaged[i], 1)
        if rows and i in rows:
            old, new = rows[i]
            [k] = [k for k, line in enumerate(frame) if old in line]
            frame[k] = new
        if totals and i in totals:
            frame[total] = f"Total Operator Elapsed Per Frame Time(us): {totals[i]}"
        out += frame
    path = tmp_path / "capture.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return str(path)


VARYING = [28023, 28123, 28223, 28323, 28423]
"""The frame totals of a capture with ``step=100``, frame i's being ``VARYING[i % 5]``."""


def test_one_damaged_frame_of_twenty_is_set_aside(tmp_path: Path, capsys, monkeypatch) -> None:
    # frame 7 (i = 6): layer 2 reads 6,331 us where its total line says 28,123 (its rows sum to
    # 28,324); both figures lie among the other frames' 28,023-28,423 us
    log = capture(tmp_path, 20, {6: "6331         "}, step=100)
    code, out, err = run(capsys, monkeypatch, "analyze", "-f", "json", log)
    assert code == 0, err
    [profile] = json.loads(out)["profiles"]
    assert profile["frames"] == 19 and profile["frames_set_aside"] == 1
    assert len(profile["frame_times_us"]) == 19
    assert set(profile["frame_times_us"]) == set(VARYING)  # (28,324 is in no figure)
    [conv] = [layer for layer in profile["layers"] if layer["id"] == 2]
    assert (conv["time_min_us"], conv["time_max_us"]) == (6030, 6430)
    assert profile["incomplete"] is None
    validity = profile["validity"]
    assert validity["coverage"] == "complete"
    assert validity["coverage_reason"] == (
        "89 rows, agreeing with the table's own total line in 19 of 20 frames (1 set aside: "
        "rows that disagree with their own total)"
    )
    # the frame's total line: the 7th table's, 4 + 6 * 114 + 96 lines down
    assert (
        f"{log}:784: this frame's rows sum to 28,324 us but its total line says 28,123 us (a "
        "damaged or lost row): set aside, the profile merges the other 19 frames"
    ) in " ".join(err.split())
    # priced as a clean frame: the sample's first finding
    first = profile["findings"][0]
    assert first["code"] == "RKN070" and first["est_saving_us"] > 7000


def test_a_gate_on_the_other_frames_passes_with_the_frame_named(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    log = capture(tmp_path, 20, {6: "6331         "}, step=100)
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max: 30000\n", encoding="utf-8")
    code, out, err = run(capsys, monkeypatch, "check", log, "--budgets", str(budgets))
    assert code == 0, out + err
    assert "PASS" in out and "inconclusive" not in (out + err).split("0 inconclusive")[0]
    assert "set aside, the profile merges the other 19 frames" in " ".join(err.split())


def test_a_frame_either_figure_puts_out_of_the_others_is_not_set_aside(tmp_path: Path) -> None:
    """Frame 7's rows sum to 31,023 us (layer 2 at 9,030) where every frame, its own total line
    too, says 28,023: which figure is right cannot be told, and if its rows are, it was the
    slowest frame; dropping it would move the percentiles. The capture stays damaged."""
    log = capture(tmp_path, 20, {6: "9030         "})
    [profile] = load(log, rules=False)
    assert (profile.frames, profile.frames_set_aside) == (20, 0)
    assert profile.validity is not None and profile.validity.coverage is Coverage.DAMAGED


def test_damaged_frames_over_one_in_ten_leave_the_profile_damaged(tmp_path: Path) -> None:
    log = capture(tmp_path, 20, {3: "9030         ", 9: "7030         ", 15: "6031         "})
    [profile] = load(log, rules=True)
    assert profile.frames == 20 and profile.frames_set_aside == 0
    assert (
        profile.incomplete
        == "3 of 20 frame(s) disagree with their own total line (first: line 442)"
    )
    assert profile.validity is not None and profile.validity.coverage is Coverage.DAMAGED
    assert all(f.est_saving_us == 0 for f in profile.findings)
    # every frame merged, each frame's total in its place: the 9,030 us frame is layer 2's max
    [conv] = [layer for layer in profile.layers if layer.id == 2]
    assert conv.time_max_us == 9030
    times = list(profile.frame_times_us)
    assert (times[3], times[9], times[15]) == (31023, 29023, 28024)
    assert times[:3] + times[4:9] + times[10:15] + times[16:] == [28023] * 17


def test_more_than_five_damaged_frames_are_merged_whatever_their_share(tmp_path: Path) -> None:
    log = capture(tmp_path, 70, dict.fromkeys(range(5, 65, 10), "6031         "))  # 6 of 70
    [profile] = load(log, rules=False)
    assert (profile.frames, profile.frames_set_aside) == (70, 0)
    assert profile.validity is not None and profile.validity.coverage is Coverage.DAMAGED
    assert profile.frame_times_us.count(28024) == 6 and profile.frame_times_us[5] == 28024


def test_two_in_twenty_are_set_aside_and_a_single_table_is_never(tmp_path: Path) -> None:
    # frame 1: 6,031 us for 6,030 (rows 28,024, total 28,023); frame 20: 6,331 for 6,430
    # (rows 28,324, total 28,423): each within the others' 28,023-28,423
    log = capture(tmp_path, 20, {0: "6031         ", 19: "6331         "}, step=100)
    [profile] = load(log, rules=False)
    assert (profile.frames, profile.frames_set_aside) == (18, 2)
    assert profile.validity is not None and profile.validity.complete
    assert profile.frame_times_us == tuple(VARYING[i % 5] for i in range(1, 19))
    one = capture(tmp_path, 1, {0: "9030         "})
    [profile] = load(one, rules=False)
    assert (profile.frames, profile.frames_set_aside) == (1, 0)
    assert profile.validity is not None and profile.validity.coverage is Coverage.DAMAGED


RESIZE_ROW = (
    "60   Resize             INT8     CPU    (1,128,40,40),(0),(4)                    "
    "(1,128,80,80)          0/0/0                    1873                              "
    "0.0%/0.0%/0.0%       1000         Resize:/model.15/Resize"
)
"""Layer 60 of the sample as printed: a Resize on the CPU, 1,873 us."""


def test_a_first_frame_set_aside_gives_the_layers_nothing(tmp_path: Path) -> None:
    """Frame 1 reads the Resize at 1,973 us with 5,000 DDR cycles (its rows 28,123 us against
    its total line's 28,023): set aside, it must not be the frame the layers' cycles and other
    columns come from (it was: a Target read there made the CPU fallback vanish)."""
    assert RESIZE_ROW in SAMPLE.read_text(encoding="utf-8")
    # (its rows 28,123 us against its total 28,023: both among the others')
    damaged = RESIZE_ROW.replace("0/0/0      ", "5000/0/5000", 1).replace("1873 ", "1973 ", 1)
    log = capture(tmp_path, 20, {}, rows={0: (RESIZE_ROW, damaged)}, step=100)
    [profile] = load(log, rules=True)
    assert (profile.frames, profile.frames_set_aside) == (19, 1)
    [resize] = [layer for layer in profile.layers if layer.id == 60]
    assert (resize.ddr_cycles, resize.time_us) == (0, 1873)
    assert any(f.code == "RKN001" for f in profile.findings)


def test_a_frame_with_a_layer_on_another_target_is_a_damaged_frame(tmp_path: Path) -> None:
    """Frame 6 of 20 reads the Resize (layer 60) on the NPU, every other frame on the CPU: the
    runtime places a model's layers once, at load, so the frame is damaged, neither merged (a
    first frame's Target made the CPU fallback vanish from the model) nor another model's."""
    damaged = RESIZE_ROW.replace("CPU ", "NPU ", 1)
    log = capture(tmp_path, 20, {}, rows={5: (RESIZE_ROW, damaged)}, step=100)
    whole, part = load(log, rules=True)
    assert (whole.frames, part.frames) == (19, 1)
    [resize] = [layer for layer in whole.layers if layer.id == 60]
    assert resize.target.value == "CPU"
    assert any(f.code == "RKN001" for f in whole.findings)
    assert part.validity is not None and part.validity.coverage is Coverage.DAMAGED
    assert "row 60 reads Target NPU for CPU" in part.validity.coverage_reason


def test_a_slow_frame_whose_rows_and_total_agree_is_never_set_aside(tmp_path: Path) -> None:
    """Frame 7 of 10 took 128 ms by its rows (layer 2 at 106,030 us: 128,023 us) and by its
    total line (128,024 us): one us apart, but both far above every other frame's 28,023. It is
    not dropped from the percentiles for a digit: the capture stays damaged (its p90 gate would
    have passed at 28.02 ms)."""
    log = capture(tmp_path, 10, {6: "106030       "}, totals={6: "128024"})
    [profile] = load(log, rules=False)
    assert (profile.frames, profile.frames_set_aside) == (10, 0)
    assert profile.validity is not None and profile.validity.coverage is Coverage.DAMAGED
    assert max(profile.frame_times_us) == 128023


def test_compare_says_a_side_had_frames_set_aside(tmp_path: Path, capsys, monkeypatch) -> None:
    clean_dir, damaged_dir = tmp_path / "clean", tmp_path / "damaged"
    clean_dir.mkdir()
    damaged_dir.mkdir()
    clean = capture(clean_dir, 20, {}, step=100)
    damaged = capture(damaged_dir, 20, {6: "6331         "}, step=100)
    code, out, err = run(capsys, monkeypatch, "compare", clean, damaged)
    assert code == 0, err
    assert (
        "CURRENT: 1 frame(s) set aside (their rows disagree with their own total line): its "
        "figures are its other 19 frames'"
    ) in " ".join(err.split())
