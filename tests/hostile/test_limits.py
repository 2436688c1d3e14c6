"""The documented resource limits (docs/errors.md): rows per table, unreadable rows per table,
profiles per input; each gives a warning when it is hit (checked with the limits lowered)."""

from __future__ import annotations

from rknnprof.api import analyze
from rknnprof.assemble import assembler
from rknnprof.parsers.table import rows
from tests.hostile.helpers import SAMPLE


def test_rows_per_table_are_capped(monkeypatch):
    monkeypatch.setattr(rows, "MAX_ROWS_PER_TABLE", 5)
    report = analyze([str(SAMPLE)])
    assert len(report.profiles[0].layers) == 5
    assert any(
        w.message == "more than 5 rows in one table: the rest are not read" and w.line == 15
        for w in report.warnings
    )  # rows start on line 10: the sixth is line 15


def test_profiles_per_input_are_capped(monkeypatch, tmp_path):
    monkeypatch.setattr(assembler, "MAX_PROFILES", 2)
    text = SAMPLE.read_text()
    # three different models: the sample with its first op type renamed twice
    path = tmp_path / "three.txt"
    path.write_text(
        text + text.replace("InputOperator", "InputOp2") + text.replace("InputOperator", "InputOp3")
    )
    report = analyze([str(path)])
    assert len(report.profiles) == 2
    assert any(w.message.startswith("more than 2 distinct tables") for w in report.warnings)


def test_unreadable_rows_per_table_are_capped(monkeypatch, tmp_path):
    monkeypatch.setattr(rows, "MAX_SKIPPED_PER_TABLE", 3)
    lines = SAMPLE.read_text().splitlines(keepends=True)
    bad = "7    Conv   INT8   NPU   (1,2)   (1,2)   x/y/z   12   1   1   1   n\n"
    path = tmp_path / "bad.txt"
    path.write_text("".join(lines[:12]) + bad * 10 + "".join(lines[12:]))
    report = analyze([str(path)])
    assert len(report.profiles[0].skipped_rows) == 3
    assert any("more than 3 unreadable rows in one table" in w.message for w in report.warnings)
