"""Cut or damaged logs are not judged as complete: a table without its total line, a frame that
disagrees with its own total line, a partial last frame (expected values from the sample log:
layer 2 is 6030 us, the frames' total line says 28003 us, the table has 89 rows)."""

from __future__ import annotations

import json

import pytest

from rknnprof.api import analyze
from tests.hostile.helpers import SAMPLE, run

THREE_FRAMES = SAMPLE.parent / "yolov5s_rk3588_loglevel4_3frames.txt"
BUDGET = "budgets:\n  - metric: total_time_us\n    max: 28000\n"
"""The whole sample (28023 us) fails it; its first 45 rows alone would pass."""


def _cut_after_rows(tmp_path, rows: int) -> str:
    """The single-frame sample cut after ``rows`` table rows (no total line, no ranking)."""
    lines = SAMPLE.read_text().splitlines(keepends=True)
    header = next(i for i, line in enumerate(lines) if "ID   OpType" in line)
    path = tmp_path / "cut.txt"
    path.write_text("".join(lines[: header + 2 + rows]))
    return str(path)


def test_a_table_without_its_total_line_is_incomplete(tmp_path, capsys, monkeypatch):
    path = _cut_after_rows(tmp_path, 45)
    code, out, err = run(capsys, monkeypatch, "analyze", path, "-f", "json")
    profile = json.loads(out)["profiles"][0]
    assert len(profile["layers"]) == 45
    # header on line 8, its rule on 9, rows 10..54
    assert profile["incomplete"].startswith("no total line after the table (line 54)")
    assert f"Warning: {path}:54: the table has no total line after it" in err


def test_check_calls_an_incomplete_profile_inconclusive(tmp_path, capsys, monkeypatch):
    path = _cut_after_rows(tmp_path, 45)
    budgets = tmp_path / "b.yaml"
    budgets.write_text(BUDGET)
    code, out, _ = run(capsys, monkeypatch, "check", path, "--budgets", str(budgets), "-f", "json")
    verdict = json.loads(out)["verdicts"][0]
    assert code == 0 and verdict["status"] == "inconclusive"
    assert "not judged: the table is cut (no total line after the table" in verdict["message"]
    # told otherwise, the cut table is judged (its 45 rows fit the budget: it passes)
    code, out, _ = run(
        capsys,
        monkeypatch,
        "check",
        path,
        "--budgets",
        str(budgets),
        "-f",
        "json",
        "--allow-incomplete",
    )
    assert json.loads(out)["verdicts"][0]["status"] == "pass"


def test_the_whole_log_is_complete_and_fails_the_budget(tmp_path, capsys, monkeypatch):
    budgets = tmp_path / "b.yaml"
    budgets.write_text(BUDGET)
    code, out, _ = run(
        capsys, monkeypatch, "check", str(SAMPLE), "--budgets", str(budgets), "-f", "json"
    )
    assert code == 1 and json.loads(out)["verdicts"][0]["status"] == "fail"
    assert analyze([str(SAMPLE)]).profiles[0].incomplete is None


def test_a_damaged_row_in_one_merged_frame_is_named(tmp_path, capsys, monkeypatch):
    text = THREE_FRAMES.read_text()
    lines = text.splitlines(keepends=True)
    headers = [i for i, line in enumerate(lines) if "ID   OpType" in line]
    k = headers[1] + 3  # frame 2, layer 2 (the header, its rule, layer 1, then layer 2)
    parts = lines[k].split()
    time = parts[next(i for i, t in enumerate(parts) if t.count("/") == 2) + 1]
    lines[k] = lines[k].replace(f" {time} ", " 99999 ", 1)
    path = tmp_path / "damaged.txt"
    path.write_text("".join(lines))
    report = analyze([str(path)])
    assert report.profiles[0].frames == 3
    assert report.profiles[0].incomplete.startswith("1 of 3 frame(s) disagree")
    frame_notes = [w for w in report.warnings if "this frame's rows sum to" in w.message]
    assert len(frame_notes) == 1 and "its total line says" in frame_notes[0].message


def _two_frames_and_the_partial_one_dropped(path) -> None:
    """The two whole frames make the profile; the third, after 30 of its 89 rows, is dropped."""
    report = analyze([str(path)])
    assert len(report.profiles) == 1
    assert report.profiles[0].frames == 2 and report.profiles[0].incomplete is None
    assert any(
        "a partial last frame (30 of 89 rows, no total line) was dropped: 2 complete" in w.message
        for w in report.warnings
    )


def test_a_partial_last_frame_is_dropped(tmp_path):
    text = THREE_FRAMES.read_text()
    lines = text.splitlines(keepends=True)
    headers = [i for i, line in enumerate(lines) if "ID   OpType" in line]
    path = tmp_path / "partial.txt"
    path.write_text("".join(lines[: headers[2] + 2 + 30]))  # frame 3 cut after 30 rows
    _two_frames_and_the_partial_one_dropped(path)


@pytest.mark.parametrize(("at", "where"), [(0, "first "), (1, "")])
def test_a_frame_the_next_one_broke_off_is_dropped_too(tmp_path, at, where):
    """A table cut after 30 rows by the next frame's title, before the model's whole frames or
    between them: dropped with a warning as a last one is. First in the file it was a model of
    its own that a baseline was paired with by order, and a gate passed (-23.7%) while the
    whole frames after it had regressed."""
    lines = THREE_FRAMES.read_text().splitlines(keepends=True)
    titles = [i for i, line in enumerate(lines) if "Network Layer Information Table" in line]
    headers = [i for i, line in enumerate(lines) if "ID   OpType" in line]
    start = titles[at] - 1  # the rule above the title
    cut = lines[:start] + lines[start : headers[at] + 2 + 30] + lines[titles[at + 1] - 1 :]
    path = tmp_path / "cut.txt"
    path.write_text("".join(cut))
    report = analyze([str(path)])
    assert len(report.profiles) == 1 and report.profiles[0].frames == 2
    assert any(
        f"a partial {where}frame (30 of 89 rows, no total line) was dropped: 2 complete"
        in w.message
        for w in report.warnings
    )


@pytest.mark.parametrize(
    ("tail", "kept"),
    [
        ("Add:/model.6/m/m.1/Add", "Add:"),  # inside the FullName: ``... 600  Add:``
        ("/0.0%/0.0%     600          Add:/model.6/m/m.1/Add", "/0."),  # ``... 100.0%/0.``
    ],
)
def test_a_partial_last_frame_cut_inside_a_row_is_dropped(tmp_path, tail, kept):
    """The input ends inside the 30th row: the row is read with the cells it has (a cut cell
    may be taken for the FullName), and the frame is still the model's partial last frame."""
    lines = THREE_FRAMES.read_text().splitlines(keepends=True)
    headers = [i for i, line in enumerate(lines) if "ID   OpType" in line]
    last = lines[headers[2] + 2 + 29].rstrip()
    assert last.endswith(tail)
    path = tmp_path / "partial.txt"
    path.write_text("".join(lines[: headers[2] + 2 + 29]) + last[: -len(tail)] + kept)
    _two_frames_and_the_partial_one_dropped(path)


def test_a_row_cut_inside_its_cycles_is_counted_by_the_drop_warning(tmp_path):
    """The input ends inside row 30's cycles cell (``... (1,128,40,40)  0/0``): the row is
    unreadable, the frame is dropped with 29 rows read, and the one warning about the dropped
    frame counts the cut row instead of a second warning beside it."""
    lines = THREE_FRAMES.read_text().splitlines(keepends=True)
    headers = [i for i, line in enumerate(lines) if "ID   OpType" in line]
    last = lines[headers[2] + 2 + 29]
    cut = last[: last.index("0/0/0") + 3]
    path = tmp_path / "cut.txt"
    path.write_text("".join(lines[: headers[2] + 2 + 29]) + cut)
    report = analyze([str(path)])
    (profile,) = report.profiles
    assert profile.frames == 2 and profile.skipped_rows == ()
    messages = [w.message for w in report.warnings]
    assert messages == [
        "a partial last frame (29 of 89 rows, no total line, 1 unreadable row) was dropped: 2 "
        "complete frame(s) kept"
    ]


def test_a_last_ranking_cut_short_leaves_the_frames_complete(tmp_path):
    """The log ends inside the third frame's ranking (``ConvSigmoid 3 0`` of line 339, after
    its table and total line, 28003 us): the three frames' tables are whole and the profile
    keeps the first frame's ranking; the cut row is warned about, the verdict stays complete."""
    lines = THREE_FRAMES.read_text().splitlines(keepends=True)
    assert "ConvSigmoid" in lines[338] and "28003" in lines[326]
    path = tmp_path / "cut.txt"
    path.write_text("".join(lines[:338]) + lines[338][:60])
    report = analyze([str(path)])
    (profile,) = report.profiles
    assert profile.frames == 3 and profile.validity.coverage.value == "complete"
    assert any(w.line == 339 and w.message.startswith("skipped row") for w in report.warnings)


def test_a_partial_first_frame_is_dropped(tmp_path):
    """A capture started while the first frame was printed: its first lines are rows 31-89 of
    the table, without the header (read in the assumed 2.x layout), then its total line and
    ranking, then two whole frames. The tail is the model's partial first frame: dropped, with
    one warning instead of the layout note."""
    lines = THREE_FRAMES.read_text().splitlines(keepends=True)
    headers = [i for i, line in enumerate(lines) if "ID   OpType" in line]
    start = headers[0] + 2 + 30  # row 31 of the first frame
    assert lines[start].split("] ", 1)[1].startswith("31 ")
    path = tmp_path / "started.txt"
    path.write_text("".join(lines[start:]))
    report = analyze([str(path)])
    (profile,) = report.profiles
    assert profile.frames == 2 and profile.validity.coverage.value == "complete"
    messages = [w.message for w in report.warnings]
    assert (
        "a partial first frame (59 of 89 rows, without the table's header) was dropped: 2 "
        "complete frame(s) kept"
    ) in messages
    assert not any(m.startswith("rows without a table header") for m in messages)
