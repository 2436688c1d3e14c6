"""Other output inside a per-layer table: another thread's print, a runtime info line, a failure
line, a debugger's stop. The table goes on after it when its next line continues it (the next
row ID, the rule after the rows, a total line); the line itself is read on its own.

``interrupted_table.txt``: a 5-row table (5, 144, 288, 60, 4 us; total line 501 us) with
``Thread-2: frame 17 queued`` after row 2 (line 8) and the runtime's ``librknnrt version:
2.3.2`` info line after row 4 (line 11), then its ranking (ConvRelu 2 calls 432 us, Add 1 call
60 us, InputOperator 5 us, OutputOperator 4 us; Total 501 us).
"""

from __future__ import annotations

import json

import pytest
from grammar_transports import VARIANTS, fixture, profiles, run

ROWS = [(1, 5), (2, 144), (3, 288), (4, 60), (5, 4)]
"""(ID, Time(us)) of the fixture's rows, as printed."""


def _rows(profile: dict) -> list[tuple[int, float]]:
    return [(la["id"], la["time_us"]) for la in profile["layers"]]


def _with(text: str, after_row: int, extra: list[str]) -> str:
    """``text`` with ``extra`` lines after the row whose ID is ``after_row``."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{after_row}    "))
    return "\n".join([*lines[: at + 1], *extra, *lines[at + 1 :]]) + "\n"


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_table_goes_on_after_other_output(tmp_path, variant, via_stdin):
    (profile,) = profiles(VARIANTS[variant](fixture("interrupted_table.txt")), tmp_path, via_stdin)
    assert _rows(profile) == ROWS
    assert profile["reported_total_time_us"] == 501
    assert profile["validity"]["coverage"] == "complete"
    assert profile["versions"]["runtime"] == "2.3.2"  # the info line was read on its own
    assert [(r["op_type"], r["calls"], r["npu_time_us"]) for r in profile["ranking"]][0] == (
        "ConvRelu",
        2,
        432,
    )


def test_the_warnings_name_the_lines(tmp_path):
    result = run(
        ["analyze", "-f", "json"], fixture("interrupted_table.txt").encode(), tmp_path, False
    )
    assert result.exit_code == 0
    assert ":8: other output inside the table (1 line): read on its own" in result.stderr
    assert ":11: other output inside the table (1 line)" in result.stderr
    assert "no total line" not in result.stderr and "without a table header" not in result.stderr


def test_a_failure_line_inside_is_a_failure_and_the_table_whole(tmp_path):
    text = _with(
        fixture("interrupted_table.txt"),
        3,
        ["E RKNN: failed to submit!, op id: 4, op name: Add:/add, flags: 0x5, task start: 0"],
    )
    (profile,) = profiles(text.encode(), tmp_path)
    assert _rows(profile) == ROWS
    assert [(f["id"], f["line"]) for f in profile["failures"]] == [("submit-failed", 10)]


def test_a_debugger_stop_inside_makes_the_run_no_measurement(tmp_path):
    """A gdb stop printed among the rows (``in ioctl () from``: its ``()`` is no shape list)
    is read as the debugger line it is: the whole table is one run, stalled by a debugger."""
    stop = [
        'Thread 1 "rknn_demo" hit Breakpoint 1, 0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6',
        "(gdb) continue",
        "Continuing.",
    ]
    text = _with(fixture("interrupted_table.txt"), 3, stop)
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert _rows(profile) == ROWS
    assert profile["validity"]["coverage"] == "complete"
    assert profile["validity"]["conditions"][0]["kind"] == "debugger"
    assert profile["validity"]["conditions"][0]["line"] == 10
    assert ":10: other output inside the table (3 lines, to line 12)" in result.stderr
    assert "skipped row" not in result.stderr


@pytest.mark.parametrize(
    ("stop", "counted"),
    [
        # Ctrl-C under gdb: the signal, then where it stopped (a line that starts with a number)
        (
            [
                'Thread 1 "rknn_demo" received signal SIGINT, Interrupt.',
                "0x0000007fb7d2c0 in ioctl () from /lib/aarch64-linux-gnu/libc.so.6",
                "(gdb) c",
            ],
            3,
        ),
        # a breakpoint in the application's code: gdb prints the source line it stopped at
        # (read as the stop's, not counted)
        (
            [
                'Thread 1 "demo" hit Breakpoint 2, rknn_outputs_get (ctx=1) at rknn_api.cc:100',
                "100\t  return 0;",
                "(gdb) c",
            ],
            2,
        ),
        # a breakpoint whose commands print one backtrace frame and continue, silently
        (["#0  0x0000007fb7d2c0 in ioctl () from /lib/aarch64-linux-gnu/libc.so.6"], 1),
    ],
    ids=["signal", "source-line", "backtrace"],
)
def test_a_debugger_stop_whose_lines_start_with_a_number_keeps_the_table_whole(
    tmp_path, stop, counted
):
    """gdb's stop lines that start with a digit (its location ``0x… in ioctl ()``, a source
    line ``100<TAB>…``) are the debugger's, not damaged rows: the table goes on after them and
    the run is no measurement."""
    text = _with(fixture("interrupted_table.txt"), 3, stop)
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert _rows(profile) == ROWS
    assert profile["validity"]["coverage"] == "complete"
    [debugger] = [c for c in profile["validity"]["conditions"] if c["kind"] == "debugger"]
    assert debugger["line"] == 10
    assert f"{counted} debugger line(s)" in debugger["message"]


def test_a_row_that_does_not_continue_ends_the_table_where_it_was(tmp_path):
    """After other output, a row with another ID than the next is no continuation: the table
    ended at row 2 (cut: no total line), and the rows after it are read as before."""
    text = fixture("interrupted_table.txt").replace("\n3    ConvRelu", "\n7    ConvRelu")
    first, second = profiles(text.encode(), tmp_path)
    assert _rows(first) == ROWS[:2]
    assert first["validity"]["coverage"] == "cut"
    assert [la["id"] for la in second["layers"]] == [7, 4, 5]


def test_a_long_interruption_ends_the_table(tmp_path):
    """Sixteen lines of other output are passed over; a seventeenth ends the table at row 2."""

    def ids(extra: int) -> list[list[int]]:
        text = _with(
            fixture("interrupted_table.txt"), 2, [f"frame {i} queued" for i in range(extra)]
        )
        return [[la["id"] for la in p["layers"]] for p in profiles(text.encode(), tmp_path)]

    assert ids(15) == [[1, 2, 3, 4, 5]]  # 15 + the fixture's own line 8
    assert ids(16)[0] == [1, 2]


RANKING = [("ConvRelu", 2, 432), ("Add", 1, 60), ("InputOperator", 1, 0), ("OutputOperator", 1, 0)]
"""The fixture's ranking as printed: (op type, calls, NPU us)."""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_ranking_goes_on_after_other_output(tmp_path, variant):
    text = fixture("interrupted_table.txt").replace(
        "\nAdd                1", "\nThread-2: frame 18 queued\nAdd                1"
    )
    result = run(["analyze", "-f", "json"], VARIANTS[variant](text), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert [(r["op_type"], r["calls"], r["npu_time_us"]) for r in profile["ranking"]] == RANKING
    assert ":24: other output inside the ranking (1 line): read on its own" in result.stderr
    assert "not read" not in result.stderr and "not ranked" not in result.stderr


def test_a_row_ranked_again_after_other_output_ends_the_ranking(tmp_path):
    """After other output, the row of an op type already ranked is no continuation (two
    frames' rankings run together): the ranking ends at its last row, as it would have."""
    text = fixture("interrupted_table.txt").replace(
        "\nAdd                1", "\nThread-2: frame 18 queued\nConvRelu           2"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile, *_) = json.loads(result.stdout)["profiles"]
    assert [r["op_type"] for r in profile["ranking"]] == ["ConvRelu"]
    assert "other output inside the ranking" not in result.stderr


def _clean() -> str:
    """The fixture without its two foreign lines (lines 8 and 11)."""
    lines = fixture("interrupted_table.txt").splitlines()
    return "\n".join(lines[:7] + lines[8:10] + lines[11:]) + "\n"


@pytest.mark.parametrize(
    "extra",
    ["17 frames queued", "NPU core 1 idle", "app: got output tensor (1,64,80,80)"],
    ids=["a-number-first", "npu", "a-shape"],
)
@pytest.mark.parametrize("where", ["Total Operator", "Total Memory"])
def test_other_output_after_the_rows_keeps_the_total_lines(tmp_path, extra, where):
    """After the rule that closes the rows no line is a row, so a line that would read as a
    damaged row among them (a number first, NPU, a shape) is other output there: the total
    lines after it are the table's (it was cut there: no total line, a second profile of 0
    layers). The same between the two total lines (the RW total was lost)."""
    lines = _clean().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(where))
    text = "\n".join([*lines[:at], extra, *lines[at:]]) + "\n"
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert _rows(profile) == ROWS
    assert (profile["reported_total_time_us"], profile["reported_rw_kb"]) == (501, 1800)
    assert profile["validity"]["coverage"] == "complete"
    assert f":{at + 1}: other output inside the table (1 line)" in result.stderr


@pytest.mark.parametrize(
    "failure",
    [
        "E RKNN: failed to submit!, op id: 3, op name: Conv:/c2/Conv, cycles 0/0/0",
        "E RKNN: NPU failed to submit!, op id: 3, op name: Conv:/c2/Conv",
    ],
    ids=["a-cycles-cell", "npu"],
)
def test_a_failure_line_that_looks_like_a_damaged_row_is_a_failure(tmp_path, failure):
    """A failure line among the rows that names the NPU or holds a cycles-like cell was kept
    as a damaged row: the failure was lost."""
    (profile,) = profiles(_with(_clean(), 2, [failure]).encode(), tmp_path)
    assert _rows(profile) == ROWS
    assert [(f["id"], f["line"]) for f in profile["failures"]] == [("submit-failed", 8)]
    assert profile["skipped_rows"] == []


def test_the_table_goes_on_after_a_damaged_row_and_other_output(tmp_path):
    """Row 3's time damaged (``28x8``: a skipped row), then other output, then row 4: row 4
    continues the last row read (3), not the last row kept (2)."""
    lines = _clean().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("3    "))
    lines[at] = lines[at].replace("288          ", "28x8         ")
    text = "\n".join([*lines[: at + 1], "Thread-2: frame 17 queued", *lines[at + 1 :]]) + "\n"
    (profile,) = profiles(text.encode(), tmp_path)
    assert _rows(profile) == [(1, 5), (2, 144), (4, 60), (5, 4)]
    assert [row["line"] for row in profile["skipped_rows"]] == [at + 1]
    assert profile["reported_total_time_us"] == 501


def test_the_ranking_goes_on_to_its_total_row_after_its_rule(tmp_path):
    """The runtime closes the ranking's rows with a rule, then prints its Total row: other
    output between the two is passed over and the Total row read (it was 'a ranking row
    without a header line, not read')."""
    total_row = "\nTotal" + " " * 16
    text = _clean().replace(total_row, "\nThread-2: frame 18 queued" + total_row, 1)
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert [(r["op_type"], r["calls"], r["npu_time_us"]) for r in profile["ranking"]] == RANKING
    assert "without a header line" not in result.stderr
    assert "stops here with no Total row" not in result.stderr
    line = text.splitlines().index("Thread-2: frame 18 queued") + 1
    assert f":{line}: other output inside the ranking (1 line)" in result.stderr


def test_a_debugger_stop_inside_the_ranking_is_a_debugger_line(tmp_path):
    """``Thread 1 "x" hit Breakpoint 1, … in ioctl () from …`` between two ranking rows was
    taken for a damaged ranking row (its second word is a number), so the run still counted
    as a measurement."""
    stop = 'Thread 1 "x" hit Breakpoint 1, 0x0000007f8a1b2c3d in ioctl () from /lib/libc.so.6'
    text = _clean().replace("\nAdd                1", f"\n{stop}\nAdd                1", 1)
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert [(r["op_type"], r["calls"], r["npu_time_us"]) for r in profile["ranking"]] == RANKING
    assert profile["validity"]["conditions"][0]["kind"] == "debugger"
    assert "skipped row" not in result.stderr


def test_a_print_that_starts_with_a_number_inside_the_ranking(tmp_path):
    """``3 frames dropped`` between two ranking rows ended the ranking, and its other rows were
    'ranking rows without a header line, not read'; a per-layer row there still ends it."""
    text = _clean().replace("\nAdd                1", "\n3 frames dropped\nAdd                1", 1)
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert [(r["op_type"], r["calls"], r["npu_time_us"]) for r in profile["ranking"]] == RANKING
    assert ":22: other output inside the ranking (1 line)" in result.stderr


@pytest.mark.parametrize(
    "tail", [["Frame 1 done"], ["avg 15.3 ms"], ["Inference 1 done", "rknn_destroy", "Bye"]]
)
def test_a_print_after_the_whole_ranking_is_no_ranking_row(tmp_path, tail):
    """A short print after the ranking's Total row and rule (``Frame 1 done``) was a skipped
    ranking row on the profile's last line: 'its last row is cut short', so a single-frame run
    read as cut and its gates went unjudged (a +30 % regression passed --fail-over)."""
    text = _clean() + "\n".join(tail) + "\n"
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert profile["validity"]["coverage"] == "complete"
    assert profile["skipped_rows"] == [] and "skipped row" not in result.stderr
    assert [(r["op_type"], r["calls"], r["npu_time_us"]) for r in profile["ranking"]] == RANKING


def test_a_short_print_between_ranking_rows_is_passed_over(tmp_path):
    """``Frame 12 done`` (a value after a word, words after it) between two ranking rows was a
    skipped ranking row; it is read as prose between the rows (no row, no warning)."""
    text = _clean().replace("\\nAdd                1", "\\nFrame 12 done\\nAdd                1", 1)
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert [(r["op_type"], r["calls"], r["npu_time_us"]) for r in profile["ranking"]] == RANKING
    assert "skipped row" not in result.stderr


@pytest.mark.parametrize("after", ["OpType", "-----"], ids=["the-header", "its-rule"])
def test_a_print_before_the_first_ranking_row_keeps_the_ranking(tmp_path, after):
    """``rknn_run done`` right after the ranking's header (or the rule under it) ended the
    block: every row became 'a ranking row without a header line, not read'."""
    lines = _clean().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("OpType"))
    at = header + 1 if after == "OpType" else header + 2
    text = "\n".join([*lines[:at], "rknn_run done", *lines[at:]]) + "\n"
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    (profile,) = json.loads(result.stdout)["profiles"]
    assert [(r["op_type"], r["calls"], r["npu_time_us"]) for r in profile["ranking"]] == RANKING
    assert "without a header line" not in result.stderr
