"""Per-layer tables pasted as Markdown pipe tables (issue: the logs people post).

``markdown_pipe_table.txt``: a 12-column pipe table, a blank line after row 1, ``| 3 4 |`` (rows
3 and 4 merged into one ID cell by a PDF conversion, row 4's own ID cell empty on the next
line), row 5 with ``...`` cells (not readable: skipped, line 8), row 6. Times 17, 192, 110, 40,
(33), 9 us: the five readable rows sum to 368 us.

``markdown_squeezed_header.txt``: the header squeezed into one cell, then five 5-cell rows
(17 + 192 + 1210 + 77 + 6 = 1502 us), Resize (id 3) on the CPU.
"""

from __future__ import annotations

import pytest
from grammar_transports import VARIANTS, fixture, profiles, run


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_pipe_table_reads_every_exact_row(tmp_path, variant, via_stdin):
    (profile,) = profiles(
        VARIANTS[variant](fixture("markdown_pipe_table.txt")), tmp_path, via_stdin
    )
    assert profile["format"] == "markdown-pipe-table"
    rows = [(la["id"], la["op_type"], la["target"], la["time_us"]) for la in profile["layers"]]
    assert rows == [
        (1, "InputOperator", "CPU", 17),
        (2, "ConvRelu", "NPU", 192),
        (3, "Conv", "NPU", 110),
        (4, "Conv", "NPU", 40),
        (6, "OutputOperator", "CPU", 9),
    ]
    assert profile["total_time_us"] == 368
    conv2 = profile["layers"][2]
    assert (conv2["ddr_cycles"], conv2["npu_cycles"], conv2["rw_kb"]) == (59082, 6272, 588)
    assert conv2["full_name"] == "Conv:conv2" and conv2["mac_usage_pct"] == 5.70
    [skip] = profile["skipped_rows"]
    assert skip["line"] == 8 and "`...`" in skip["reason"]


def test_pipe_table_warns_with_the_lines(tmp_path):
    result = run(
        ["analyze", "-f", "json"], fixture("markdown_pipe_table.txt").encode(), tmp_path, False
    )
    assert result.exit_code == 0
    assert ":7: row 4: its ID was merged into the cell of line 6" in result.stderr
    assert ":8: skipped row: elided cells" in result.stderr


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_squeezed_header(tmp_path, variant, via_stdin):
    (profile,) = profiles(
        VARIANTS[variant](fixture("markdown_squeezed_header.txt")), tmp_path, via_stdin
    )
    rows = [
        (la["id"], la["op_type"], la["data_type"], la["target"], la["time_us"])
        for la in profile["layers"]
    ]
    assert rows == [
        (1, "InputOperator", "UINT8", "CPU", 17),
        (2, "ConvRelu", "UINT8", "NPU", 192),
        (3, "Resize", "INT8", "CPU", 1210),
        (4, "ConvSigmoid", "INT8", "NPU", 77),
        (5, "OutputOperator", "INT8", "CPU", 6),
    ]
    assert profile["total_time_us"] == 1502 and profile["skipped_rows"] == []
    assert [f["layer_ids"] for f in profile["findings"] if f["code"] == "RKN001"] == [[3]]


def test_a_prose_pipe_table_is_not_a_profile(tmp_path):
    text = "| model | FPS |\n|---|---|\n| yolov5s | 48.4 |\n"
    result = run(["analyze"], text.encode(), tmp_path, False)
    assert result.exit_code == 3


def test_an_empty_row_where_ids_jump_is_an_elision(tmp_path):
    """A PDF-to-Markdown conversion turns the guide's ``....`` row into ``|  |  |  |``: between
    rows 4 and 55 it marks rows 5-54 elided (not a damaged row); an empty row right after the
    header, or between rows 55 and 56, is nothing. The title is the table's caption row."""
    text = (
        "| Network Layer Information Table |  |  |  |  |\n"  # the caption row: no table of
        "| --- | --- | --- | --- | --- |\n"  # its own ("title without a header")
        "| ID OpType DataType Target Time(us) |  |  |  |  |\n"
        "|  |  |  |  |  |\n"
        "| 1 | InputOperator | UINT8 | CPU | 17 |\n"
        "| 4 | Conv | INT8 | NPU | 292 |\n"
        "|  |  |  |  |  |\n"
        "| 55 | Conv | INT8 | NPU | 374 |\n"
        "|  |  |  |  |  |\n"
        "| 56 | OutputOperator | INT8 | CPU | 11 |\n"
        "Total Operator Elapsed Per Frame Time(us): 12631\n"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 0
    assert ":7: elided rows (an empty row where rows 5-54 would be)" in result.stderr
    assert "title without a header" not in result.stderr
    (profile,) = profiles(text.encode(), tmp_path, False)
    assert [la["id"] for la in profile["layers"]] == [1, 4, 55, 56]
    assert profile["elided_rows"] == 1 and profile["skipped_rows"] == []
    assert profile["validity"]["coverage"] == "elided"


@pytest.mark.parametrize("marker", ["| ... |", "|  |", "|"])
def test_a_one_cell_elision_row_keeps_the_table_going(tmp_path, marker):
    """``| ... |`` (the docs' own elision marker), ``|  |`` or a lone ``|`` between rows 4 and
    55 mark rows 5-54 elided; they used to end the table, the rows after them and the total
    line read apart (a 2-row fragment, then a totals-only profile)."""
    text = (
        "| ID OpType DataType Target Time(us) |  |  |  |  |\n"
        "| 1 | InputOperator | UINT8 | CPU | 17 |\n"
        "| 4 | Conv | INT8 | NPU | 292 |\n"
        f"{marker}\n"
        "| 55 | Conv | INT8 | NPU | 374 |\n"
        "| 56 | OutputOperator | INT8 | CPU | 11 |\n"
        "Total Operator Elapsed Per Frame Time(us): 12631\n"
    )
    (profile,) = profiles(text.encode(), tmp_path, False)
    assert [la["id"] for la in profile["layers"]] == [1, 4, 55, 56]
    assert profile["elided_rows"] == 1 and profile["reported_total_time_us"] == 12631


def test_a_pipe_table_without_a_time_column_is_read_for_its_placement(tmp_path):
    """A Markdown extraction of the guide's multi-core example keeps ID, OpType, DataType,
    Target and WorkLoad but no Time(us) (its total sits in a cell): the 9 rows are read (the CPU
    Softmax is flagged), and the verdict says the rows have no times instead of "agreeing with
    the table's own total line" (it was read as a totals-only run)."""
    rows = [
        ("1", "InputOperator", "UINT8", "CPU"),
        ("2", "Conv", "UINT8", "NPU"),
        ("3", "Softmax", "INT8", "CPU"),
        ("4", "OutputOperator", "FLOAT16", "CPU"),
    ]
    text = "| ID | OpType | DataType |  | Target WorkLoad(0/1/2)-ImproveTherical |\n"
    text += "| --- | --- | --- | --- | --- |\n"
    text += "".join(
        f"| {i} | {op} | {dt} | {t} | 100.0%/0.0%/0.0% - Up:0.0% |\n" for i, op, dt, t in rows
    )
    text += "| Total Operator Elapsed Time(us): 591 Total Memory RW Amount(MB): 0 |  |  |  |  |\n"
    (profile,) = profiles(text.encode(), tmp_path, False)
    assert [(la["id"], la["op_type"], la["target"]) for la in profile["layers"]] == [
        (1, "InputOperator", "CPU"),
        (2, "Conv", "NPU"),
        (3, "Softmax", "CPU"),
        (4, "OutputOperator", "CPU"),
    ]
    assert profile["validity"]["coverage_reason"] == (
        "4 rows without per-layer times (the table's total line says 591 us)"
    )
    assert [f["layer_ids"] for f in profile["findings"] if f["code"] == "RKN001"] == [[3]]
