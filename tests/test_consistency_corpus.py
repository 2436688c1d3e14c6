"""Each consistency check fires, with the exact line number, on a hand-edited copy of a corpus
table (07: yolov5n, runtime 2.3.2, 93 rows, total 14478 us, ranking with a Total row; 04: the
1.5 layout). The clean copy has no warnings at all, so every warning here comes from the edit.

Line numbers below are 07's own (``cat -n``): line 4 header, 6-98 rows (ID = line - 5), 100 the
total line, 104 the ranking title, 106 its header, 108-116 ranking rows (111 is
``Conv 1 0 0 810 810 5.59%``),
118 its Total row.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from rknnprof.api import analyze
from rknnprof.cli import cli
from tests.conftest import corpus_file


def edited(tmp_path: Path, prefix: str, edit: Callable[[list[str]], list[str]]) -> Path:
    lines = corpus_file(prefix).read_text(encoding="utf-8").split("\n")
    path = tmp_path / f"{prefix}edited.txt"
    path.write_text("\n".join(edit(lines)), encoding="utf-8")
    return path


def replace_on(line_no: int, old: str, new: str) -> Callable[[list[str]], list[str]]:
    def edit(lines: list[str]) -> list[str]:
        assert old in lines[line_no - 1], (line_no, old, lines[line_no - 1][:120])
        lines = lines[:]
        lines[line_no - 1] = lines[line_no - 1].replace(old, new, 1)
        return lines

    return edit


def warnings(path: Path) -> list[tuple[int | None, str]]:
    return [(w.line, w.message) for w in analyze(path).warnings]


def test_clean_copy_has_no_warnings(tmp_path):
    assert warnings(edited(tmp_path, "07_", lambda ls: ls)) == []


def test_total_cycles_not_max_of_ddr_and_npu(tmp_path):
    path = edited(tmp_path, "07_", replace_on(7, "164162/409600/409600", "164162/409600/409999"))
    assert warnings(path) == [
        (7, "1 row(s) where Total cycles != max(DDR, NPU), first: ID 2 (164162/409600/409999)")
    ]


def test_sum_of_layer_times_against_the_total_line(tmp_path):
    path = edited(tmp_path, "07_", replace_on(100, "14478", "14500"))
    assert warnings(path) == [
        (100, "sum of layer times is 14,478 us but the log's total line says 14,500 us")
    ]


def test_ids_that_skip(tmp_path):
    path = edited(tmp_path, "07_", lambda ls: ls[:8] + ls[9:])  # row ID 4 (line 9) deleted
    got = warnings(path)
    assert (9, "layer IDs skip from 3 to 5") in got
    assert any(
        line == 99 and "sum of layer times is 13,825 us" in m for line, m in got
    )  # 14478-653


def test_ids_that_repeat(tmp_path):
    path = edited(tmp_path, "07_", lambda ls: ls[:8] + ls[7:])  # row ID 3 (line 8) twice
    got = warnings(path)
    assert (9, "layer ID 3 repeats") in got
    # the ID after the repeat is consecutive again: no "skip" warning for it
    assert not any("skip" in m for _, m in got)


def test_row_with_fewer_fields_than_the_header(tmp_path):
    def cut_after_time(lines):
        lines = lines[:]
        lines[6] = lines[6][: lines[6].index(" 810 ") + 4]  # row ID 2 ends after Time(us)
        return lines

    got = warnings(edited(tmp_path, "07_", cut_after_time))
    assert got == [
        (
            7,
            "row 2 has fewer fields than the header: no WorkLoad(0/1/2), RW(KB) "
            "(kept with those values unknown)",
        )
    ]


def test_op_type_aggregation_against_the_ranking(tmp_path):
    path = edited(
        tmp_path, "07_", replace_on(111, "Conv               1 ", "Conv               2 ")
    )
    assert warnings(path) == [
        (
            104,
            "op-type totals disagree with the ranking table: Conv calls 1 from layers vs 2 ranked",
        )
    ]


def test_ranking_row_cpu_gpu_npu_against_its_total(tmp_path):
    path = edited(tmp_path, "07_", replace_on(111, "810          810", "811          810"))
    got = warnings(path)
    assert (
        111,
        "ranking row Conv: CPU + GPU + NPU time is 811 us but TotalTime says 810 us",
    ) in got
    assert (118, "ranking Total row: NPUTime 14370 us but the rows above sum to 14371 us") in got


def test_ranking_ratio_against_its_time(tmp_path):
    path = edited(tmp_path, "07_", replace_on(111, "5.59%", "55.9%"))
    assert warnings(path) == [
        (111, "ranking row Conv: TimeRatio 55.90% does not match its TotalTime (5.59% of 14478 us)")
    ]


def test_unparseable_row_is_kept_as_skipped_row_and_shown(tmp_path):
    path = edited(tmp_path, "07_", replace_on(8, "1814", "18l4"))
    result = CliRunner().invoke(cli, ["analyze", "-f", "json", str(path)])
    assert result.exit_code == 0, result.stderr
    (profile,) = json.loads(result.stdout)["profiles"]
    assert profile["skipped_rows"] == [
        {
            "line": 8,
            "reason": "Time(us): '18l4' is not a time",
            "text": profile["skipped_rows"][0]["text"],
        }
    ]
    assert profile["skipped_rows"][0]["text"].startswith("3    ConvExSwish")
    assert len(profile["layers"]) == 92
    assert f"Warning: {path}:8: skipped row: Time(us): '18l4' is not a time" in result.stderr
    assert f"Warning: {path}:100: sum of layer times is 12,664 us" in result.stderr  # 14478-1814


def test_damaged_last_row_does_not_end_the_table(tmp_path):
    """Before: a last row whose ID was damaged ended the table silently, and the total line
    became a second profile."""
    path = edited(tmp_path, "07_", replace_on(98, "93   OutputOperator", "x3   OutputOperator"))
    report = analyze(path)
    (profile,) = report.profiles
    assert len(profile.layers) == 92 and profile.reported_total_time_us == 14478
    assert [(s.line, s.reason) for s in profile.skipped_rows] == [
        (98, "ID: 'x3' is not an integer ID")
    ]


def test_damaged_ranking_row_does_not_end_the_ranking(tmp_path):
    path = edited(
        tmp_path, "07_", replace_on(108, "ConvExSwish        57 ", "ConvExSwish        x7 ")
    )
    (profile,) = analyze(path).profiles
    assert len(profile.ranking) == 8  # 9 rows, the damaged one skipped
    assert [(s.line, s.reason) for s in profile.skipped_rows] == [(108, "'x7' is not a number")]


def test_rows_without_their_header_are_reported(tmp_path):
    """04 (1.5 layout) with its header line (6) deleted: rows 1 and 2 (now lines 6 and 7) can
    not be read without columns; each is named instead of vanishing."""
    path = edited(tmp_path, "04_", lambda ls: ls[:5] + ls[6:])
    got = warnings(path)
    assert (6, "2 table rows (lines 6-7) without a header line: columns unknown, not read") in got
    assert not any(message.startswith("skipped row") for _, message in got)  # one warning


ASSUMED = (
    "ranking rows without a header line: assumed the columns OpType CallNumber CPUTime(us) "
    "GPUTime(us) NPUTime(us) TotalTime(us) TimeRatio(%)"
)


@pytest.mark.parametrize(
    ("line", "bad", "notes"),
    [
        (106, "OpTyp", [(106, "ranking header cut short: 'OpTyp'"), (108, ASSUMED)]),
        (106, "", [(108, ASSUMED)]),
        (107, "-", []),  # a rule cut to one dash
    ],
)
def test_cut_ranking_header_or_rule_keeps_the_ranking(tmp_path, line, bad, notes):
    path = edited(tmp_path, "07_", lambda ls: ls[: line - 1] + [bad] + ls[line:])
    report = analyze(path)
    (profile,) = report.profiles
    assert len(profile.ranking) == 9
    assert [(w.line, w.message) for w in report.warnings] == notes


def test_unreadable_ranking_header_reports_the_rows(tmp_path):
    path = edited(tmp_path, "07_", lambda ls: ls[:105] + ["x"] + ls[106:])
    got = warnings(path)
    assert (
        108,
        "9 ranking rows (lines 108-116) without a header line: columns unknown, not read",
    ) in got


def test_capped_warnings_are_counted(tmp_path):
    """Past 20 warnings per table the rest were dropped silently; now one more warning counts
    them (30 rows with a letter in their Time(us): 30 skipped rows + 1 sum mismatch)."""

    def damage(lines):
        lines = lines[:]
        for i in range(7, 37):  # rows ID 2..31 (lines 8..37), 0-based index 7..36
            cells = lines[i].split()
            lines[i] = lines[i].replace(f" {cells[7]} ", f" {cells[7]}x ", 1)
        return lines

    report = analyze(edited(tmp_path, "07_", damage))
    (profile,) = report.profiles
    assert len(profile.layers) == 63 and len(profile.skipped_rows) == 30
    messages = [w.message for w in report.warnings]
    assert sum(m.startswith("skipped row") for m in messages) == 20
    assert "10 more warning(s) about the table starting here not shown (first 20 above)" in messages
