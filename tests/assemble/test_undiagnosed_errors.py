"""An error line no catalogue entry explains, beside a table: it was told only when the log held
no profile (exit 3); beside one it was dropped without a word. A public build log prints
``E RKNN: Unkown op target: 0`` above its placement table (the runtime's spelling)."""

from __future__ import annotations

from pathlib import Path

from rknnprof.api import analyze

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "yolov5s_rk3588_perf.txt"


def _with_line(tmp_path: Path, line: str) -> Path:
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    path = tmp_path / "log.txt"
    path.write_text("\n".join([*lines[:3], line, *lines[3:]]), encoding="utf-8")
    return path


def test_an_undiagnosed_error_beside_a_table_is_said(tmp_path: Path) -> None:
    report = analyze(_with_line(tmp_path, "E RKNN: Unkown op target: 0"), rules=False)
    [said] = [w for w in report.warnings if "does not diagnose" in w.message]
    assert said.line == 4
    assert said.message == (
        "the log reports an error rknnprof does not diagnose: `Unkown op target: 0`; read it "
        "before trusting the table beside it"
    )
    assert len(report.profiles) == 1


def test_a_catalogue_line_is_no_undiagnosed_error(tmp_path: Path) -> None:
    """The core-mask fallback is a catalogue entry (RKN080 tells it): no second word."""
    line = "E RKNN: Not support core mask: 3, fallback to single core auto mode"
    report = analyze(_with_line(tmp_path, line), rules=False)
    assert not [w for w in report.warnings if "does not diagnose" in w.message]
