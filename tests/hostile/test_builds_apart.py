"""One network printed as two builds in one stream (another DataType on its rows: INT8 and
INT4, which read alike but for a digit): two models, never merged into one set of medians; a
frame with one layer on another target among a model's frames is a damaged frame of its own.

The captures repeat the bundled sample's table (89 rows, total line 28,023 us; layer 2,
``Conv:/model.0/conv/Conv``, UINT8 on the NPU at 6,030 us; 87 rows INT8)."""

from __future__ import annotations

import json
from pathlib import Path

from rknnprof.api import analyze, load
from rknnprof.model import Coverage
from tests.hostile.helpers import SAMPLE, distinct, run

LAYER_2 = "6030         "
"""Layer 2's Time(us) cell in the sample, padded as printed."""


def builds(tmp_path: Path, order: str, name: str = "capture.txt") -> str:
    """The sample's table once per letter of ``order`` (each frame its own, :func:`distinct`):
    ``a`` as printed, ``b`` the INT4 build
    (every `` INT8 `` DataType cell reads `` INT4 ``; layer 2, ConvExSwish, at 3,015 us and
    layer 3, ConvExSwish, at 810 + 3,015 = 3,825 us: the frame's total line and its ranking
    stay true)."""
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    head, table = lines[:4], lines[4:118]
    out = list(head)
    for i, build in enumerate(order):
        frame = distinct(table, i)
        if build == "b":
            frame = [line.replace(" INT8     ", " INT4     ") for line in frame]
            [row] = [k for k, line in enumerate(frame) if "Conv:/model.0/conv/Conv" in line]
            [three] = [
                k for k, line in enumerate(frame) if line.endswith("Conv:/model.1/conv/Conv")
            ]
            frame[row] = frame[row].replace(LAYER_2, f"{3015:<13}", 1)
            frame[three] = frame[three].replace(f"{810:<13}", f"{3825:<13}", 1)
        out += frame
    path = tmp_path / name
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return str(path)


def layer_2(profile) -> float | None:
    [layer] = [la for la in profile.layers if la.id == 2]
    return layer.time_us


def test_two_builds_one_after_the_other_are_two_models(tmp_path: Path) -> None:
    """12 frames of the INT8 build, then 12 of the INT4 one: each build's medians are its own
    (the INT4 frames' rows have the INT8 frames' raw shape: a digit tells them apart)."""
    a, b = load(builds(tmp_path, "a" * 12 + "b" * 12), rules=False)
    assert (a.frames, b.frames) == (12, 12)
    assert (layer_2(a), layer_2(b)) == (6030, 3015)
    assert a.frame_times_us[0] == b.frame_times_us[0] == 28023
    assert [la.data_type for la in b.layers].count("INT4") == 87
    assert "INT8" not in {la.data_type for la in b.layers}
    assert [p for p in (a, b) if p.validity and p.validity.coverage is not Coverage.COMPLETE] == []


def test_two_builds_taking_turns_are_two_models(tmp_path: Path) -> None:
    """Two contexts of one app, an INT8 and an INT4 build, printing in turn (a b a b ...)."""
    a, b = load(builds(tmp_path, "ab" * 10), rules=False)
    assert (a.frames, b.frames) == (10, 10)
    assert (layer_2(a), layer_2(b)) == (6030, 3015)


def test_the_summary_names_each_builds_precision(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, err = run(capsys, monkeypatch, "analyze", builds(tmp_path, "aabb"))
    assert code == 0, err
    summaries = [line for line in out.splitlines() if " · total " in line]
    # NPU time by data type, read from the sample: the INT4 build's 87 INT4 rows hold all but
    # layer 2's 3,015 us of its NPU time
    assert summaries[0].endswith(" · INT8/UINT8 on the NPU")
    assert " · INT4 " in summaries[1] and summaries[1].endswith(" of NPU time")


def test_check_and_compare_name_and_pair_each_build(tmp_path: Path, capsys, monkeypatch) -> None:
    """BASE prints the INT8 build first, CURRENT the INT4 one: each build is compared with
    its own (by order, INT8 would have met INT4: layer 2 at 6,030 against 3,015 us)."""
    base_dir, current_dir = tmp_path / "base", tmp_path / "current"
    base_dir.mkdir()
    current_dir.mkdir()
    base = builds(base_dir, "aabb")
    current = builds(current_dir, "bbaa")
    code, out, err = run(capsys, monkeypatch, "compare", base, current, "-f", "json")
    assert code == 0, err
    comparisons = json.loads(out)["comparisons"]
    assert [c["model"] for c in comparisons] == ["INT8/UINT8 build", "INT4+UINT8 build"]
    assert [c["delta_us"] for c in comparisons] == [0, 0]
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max: 26000\n")
    code, out, err = run(capsys, monkeypatch, "check", base, "--budgets", str(budgets))
    assert code == 1, err
    assert "(INT8/UINT8 build)" in out and "(INT4+UINT8 build)" in out


def test_a_frame_with_a_layer_on_another_target_is_damaged(tmp_path: Path) -> None:
    """Frame 6 of 12 reads layer 3 on the CPU: the runtime places a model's layers once, at
    load, so the frame is damaged, neither merged (a frame's Target made the model's layers'
    placement) nor another model."""
    path = Path(builds(tmp_path, "a" * 12))
    lines = path.read_text(encoding="utf-8").split("\n")
    rows = [k for k, line in enumerate(lines) if line.startswith("3    ") and " NPU " in line]
    assert len(rows) == 12
    lines[rows[5]] = lines[rows[5]].replace(" NPU    ", " CPU    ", 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    whole, part = load(path, rules=False)
    assert (whole.frames, part.frames) == (11, 1)
    assert [la.target.value for la in whole.layers if la.id == 3] == ["NPU"]
    assert part.validity is not None and part.validity.coverage is Coverage.DAMAGED
    assert "row 3 reads Target CPU for NPU" in part.validity.coverage_reason


def test_frames_one_row_apart_too_many_to_be_damage_are_said(tmp_path: Path) -> None:
    """Every 4th frame of 16 reads layer 2's FullName with another digit (``model.9``): too
    many frames for a damaged one, so two models, but a warning says they differ in that row
    only (they were two complete models without a word)."""
    path = Path(builds(tmp_path, "a" * 16))
    lines = path.read_text(encoding="utf-8").split("\n")
    rows = [k for k, line in enumerate(lines) if line.endswith("Conv:/model.0/conv/Conv")]
    for k in rows[3::4]:
        lines[k] = lines[k].replace("Conv:/model.0/conv/Conv", "Conv:/model.9/conv/Conv")
    path.write_text("\n".join(lines), encoding="utf-8")
    report = analyze(path, rules=False)
    assert [p.frames for p in report.profiles] == [12, 4]
    [said] = [w.message for w in report.warnings if "in one row only" in w.message]
    assert said.startswith("4 frame(s) of this stream differ from the 12 of the model at line")
    assert "(row 2 reads 'Conv:/model.9/conv/Conv' for 'Conv:/model.0/conv/Conv')" in said


def test_compare_does_not_judge_advice_across_builds(tmp_path: Path, capsys, monkeypatch) -> None:
    """BASE the INT8 build, CURRENT the INT4 one (layer 2 faster): its SiLU convs were never
    swapped, so RKN070 cannot be judged across builds (every layer's data type moved their
    times; the changed rows read as a fix 'partly delivered')."""
    base_dir, current_dir = tmp_path / "base", tmp_path / "current"
    base_dir.mkdir()
    current_dir.mkdir()
    base, current = builds(base_dir, "a"), builds(current_dir, "b")
    code, out, err = run(capsys, monkeypatch, "compare", base, current, "-f", "json")
    assert code == 0, err
    [comparison] = json.loads(out)["comparisons"]
    outcomes = {a["code"]: a for a in comparison["advice"]}
    assert outcomes["RKN070"]["verdict"] == "cannot-tell"
    assert outcomes["RKN070"]["reason"].startswith("not like for like: data type: ")


def test_a_damaged_frame_is_found_past_a_near_twin_model(tmp_path: Path) -> None:
    """A lone frame reading layer 2 as ``model.8`` before eleven frames of the sample, the
    sixth of which reads it ``model.9``: that one is a damaged frame among the eleven; the
    lone frame before them, one row apart from it too, ended the search (it went unmarked)."""
    path = Path(builds(tmp_path, "a" * 12))
    lines = path.read_text(encoding="utf-8").split("\n")
    rows = [k for k, line in enumerate(lines) if line.endswith("Conv:/model.0/conv/Conv")]
    for k, name in ((rows[0], "model.8"), (rows[6], "model.9")):
        lines[k] = lines[k].replace("model.0", name)
    path.write_text("\n".join(lines), encoding="utf-8")
    lone, whole, damaged = load(path, rules=False)
    assert (lone.frames, whole.frames, damaged.frames) == (1, 10, 1)
    assert damaged.validity is not None and damaged.validity.coverage is Coverage.DAMAGED
    assert "row 2 reads 'Conv:/model.9/conv/Conv'" in damaged.validity.coverage_reason
