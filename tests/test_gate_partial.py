"""A partial table against a ``max``: the rows a cut, elided or fragmentary table shows are real,
and the rows it leaves out can only add to a sum, so a sum already over its max fails (a fragment
whose exSoftmax13 alone took 14,254 us was "not judged" against a max of 3,000). Under its max,
it stays inconclusive; a damaged table (rows doubled) or a run that is not a measurement never
fails on what it shows.

The logs are written from the grammar (tests/damaged_logs.py); the figures are read off them:
the cut table's four rows are InputOperator 12 us, ConvRelu 900, 700 and 500 us (2,112 us)."""

from __future__ import annotations

from pathlib import Path

import damaged_logs as dl
import pytest
from synthetic_logs import debugger_capture, table_of

from rknnprof.api import analyze
from rknnprof.budgets import check, parse_budgets


def _cut_log(tmp_path: Path) -> str:
    path = tmp_path / "cut.txt"
    path.write_text("\n".join(table_of(dl._rows(dl.TIMES)[:4], None)) + "\n", encoding="utf-8")
    return str(path)


def _verdict(log: str, budget: str):
    config = parse_budgets(f"budgets:\n  - {budget}\n")
    [verdict] = check(config, analyze(log), None, log).verdicts
    return verdict


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        (
            "{metric: total_time_us, max: 2000}",
            "total_time_us >= 2.11 ms: over max 2.00 ms (what the log shows already reaches "
            "that: the table is cut (no total line after the table (line 10): the log may be "
            "cut), and the rows it leaves out can only add)",
        ),
        ("{metric: op_type_time_us, op_type: ConvRelu, max: 1500}", "op_type_time_us >= 2,100 us"),
        ("{metric: layer_time_us, match: 'Conv:/m/conv2/*', max: 800}", "layer_time_us >= 900 us"),
        ("{metric: npu_time_us, max: 2000}", "npu_time_us >= 2,100 us"),
    ],
)
def test_a_sum_the_rows_shown_already_exceed_fails(
    tmp_path: Path, budget: str, message: str
) -> None:
    verdict = _verdict(_cut_log(tmp_path), budget)
    assert verdict.status == "fail", verdict
    assert verdict.message.startswith(message), verdict.message
    assert not verdict.unjudgeable


def test_a_warning_level_budget_warns(tmp_path: Path) -> None:
    budget = "{metric: total_time_us, max: 2000, level: warning}"
    assert _verdict(_cut_log(tmp_path), budget).status == "warn"


@pytest.mark.parametrize(
    "budget",
    [
        "{metric: total_time_us, max: 3000}",  # 2,112 us shown: the rest may pass it or not
        "{metric: cpu_fallback_layers, max: 0}",  # none shown (InputOperator is I/O)
        "{metric: total_time_us, min: 5000}",  # a min is never proven by a part
        "{metric: findings, max: 0}",  # not a sum of rows
    ],
)
def test_under_its_max_a_partial_table_stays_inconclusive(tmp_path: Path, budget: str) -> None:
    verdict = _verdict(_cut_log(tmp_path), budget)
    assert verdict.status == "inconclusive" and verdict.unjudgeable, verdict


def test_a_damaged_table_never_fails_on_what_it_shows(tmp_path: Path) -> None:
    text, total = dl.printed_twice()  # its rows twice: 4,874 us, no frame's time
    path = tmp_path / "twice.txt"
    path.write_text(text, encoding="utf-8")
    verdict = _verdict(str(path), "{metric: total_time_us, max: 3000}")
    assert total == 4874 and verdict.status == "inconclusive", verdict


def test_a_cut_run_under_a_debugger_never_fails_on_what_it_shows(tmp_path: Path) -> None:
    lines = [line for line in debugger_capture() if "Total Operator Elapsed" not in line]
    path = tmp_path / "gdb.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verdict = _verdict(str(path), "{metric: total_time_us, max: 1000}")
    assert verdict.status == "inconclusive" and "not a measurement" in verdict.message, verdict


def test_rows_pasted_twice_without_a_header_are_damage_not_a_sum(tmp_path: Path) -> None:
    """Rows 1-6 pasted twice without their header (IDs go back from 6 to 1): no sum of them is
    a lower bound of a frame (it read as a fragment whose 4,874 us 'already reached' a max)."""
    rows = dl._rows(dl.TIMES)
    path = tmp_path / "twice.txt"
    path.write_text("\n".join(rows + rows) + "\n", encoding="utf-8")
    [profile] = analyze(str(path)).profiles
    assert profile.validity is not None and profile.validity.coverage.value == "damaged"
    verdict = _verdict(str(path), "{metric: total_time_us, max: 3000}")
    assert verdict.status == "inconclusive", verdict


def test_a_ranking_that_cannot_be_the_elided_tables_is_damage(tmp_path: Path) -> None:
    """An elided table (rows 1-2 and 5-6, total line 2,437 us) followed by a ranking of another
    model that ranks no ConvRelu: the ranking is not the table's, and a max on an op type the
    ranking gives 23,000 us does not fail (it read 'op_type_time_us >= 23,583 us')."""
    rows = dl._rows(dl.TIMES)
    table = table_of([*rows[:2], "......", *rows[4:]], sum(dl.TIMES))
    other = dl.ranking(dl.RANKING_ROWS, dl.RANKING_FRAME_US, total_row=True)
    path = tmp_path / "elided.txt"
    path.write_text("\n".join([*table, *other]) + "\n", encoding="utf-8")
    [profile] = analyze(str(path)).profiles
    assert profile.validity is not None
    assert profile.validity.coverage.value == "damaged", profile.validity
    assert "InputOperator: the rows shown take 12 us, the ranking 4 us" in (
        profile.validity.coverage_reason
    )
    verdict = _verdict(str(path), "{metric: op_type_time_us, op_type: Resize, max: 3000}")
    assert verdict.status == "inconclusive", verdict


def test_a_baseline_that_cannot_judge_an_increase_leaves_the_max_judged(tmp_path: Path) -> None:
    """A whole run of 2,437 us against a cut baseline: the increase is not judged, but a max of
    2,000 us is broken by this run alone (the whole verdict was inconclusive: exit 0)."""
    whole = tmp_path / "whole.txt"
    whole.write_text("\n".join(table_of(dl._rows(dl.TIMES), sum(dl.TIMES))) + "\n")
    config = parse_budgets(
        "budgets:\n  - metric: total_time_us\n    max: 2000\n    max_increase: 5%\n"
    )
    [verdict] = check(config, analyze(str(whole)), analyze(_cut_log(tmp_path))).verdicts
    assert verdict.status == "fail", verdict
    assert verdict.message.startswith("total_time_us = 2.44 ms: over max 2.00 ms; ")
    assert "max_increase not judged: baseline: the table is cut" in verdict.message


def test_an_elided_table_whose_rows_pass_its_own_total_is_damage(tmp_path: Path) -> None:
    """Rows 1-2 and 5-6 shown (12 + 900 + 300 + 25 = 1,237 us) under a total line of 1,000
    us: the rows left out could only add, so rows and total contradict each other. It read
    'elided' and failed a max of 1,200 on 'what the log shows'."""
    rows = dl._rows(dl.TIMES)
    path = tmp_path / "elided.txt"
    path.write_text("\n".join(table_of([*rows[:2], "......", *rows[4:]], 1000)) + "\n")
    [profile] = analyze(str(path)).profiles
    assert profile.validity is not None and profile.validity.coverage.value == "damaged"
    verdict = _verdict(str(path), "{metric: npu_time_us, max: 1200}")
    assert verdict.status == "inconclusive", verdict


def test_a_debugger_stop_where_the_elided_rows_stood_is_inside_the_run(tmp_path: Path) -> None:
    """A gdb stop printed right after the elision line: the rows after it read as a fragment of
    their own, and the elided part before it, with no total line (it went with the fragment),
    carried no debugger condition and failed a max on what it showed (hostile round). A table
    not seen to end was still running at the stop: not a measurement."""
    rows = dl._rows(dl.TIMES)
    stop = 'Thread 1 "app" received signal SIGINT, Interrupt.'
    lines = table_of([*rows[:3], "...", stop, *rows[4:]], sum(dl.TIMES))
    path = tmp_path / "stopped.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for profile in analyze(str(path)).profiles:
        assert profile.validity is not None and not profile.validity.is_measurement, profile
    config = parse_budgets("budgets:\n  - {metric: total_time_us, max: 1000}\n")
    for verdict in check(config, analyze(str(path)), None, str(path)).verdicts:
        assert verdict.status == "inconclusive", verdict


SAMPLE = Path(__file__).resolve().parent.parent / "sample_logs" / "yolov5s_rk3588_perf.txt"


def _elided_sample(tmp_path: Path) -> str:
    """The bundled table with its rows 27-56 (file lines 31-60) replaced by one ``......``
    line, its total line (``Time(us): 28023``) kept."""
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    assert lines[99] == "Total Operator Elapsed Per Frame Time(us): 28023"
    path = tmp_path / "elided.txt"
    path.write_text("\n".join([*lines[:30], "......", *lines[60:]]), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("budget", "status", "said"),
    [
        (
            "{metric: total_time_us, max: 100000}",
            "pass",
            "total_time_us = 28.02 ms (the table's total line: the log elides rows, the runtime "
            "summed them all): max 100.00 ms",
        ),
        (
            "{metric: total_time_us, max: 25000}",
            "fail",
            "total_time_us = 28.02 ms (the table's total line: the log elides rows, the runtime "
            "summed them all): over max 25.00 ms",
        ),
        ("{metric: npu_time_us, max: 100000}", "inconclusive", "npu_time_us: not judged"),
    ],
)
def test_an_elided_tables_total_line_answers_a_total_time_budget(
    tmp_path: Path, budget: str, status: str, said: str
) -> None:
    """The runtime's total line sums every row, those the paste left out too: a budget on the
    frame's total is judged on it (it was inconclusive); a sum over the rows is not."""
    verdict = _verdict(_elided_sample(tmp_path), budget)
    assert verdict.status == status
    assert verdict.message.startswith(said), verdict.message


def test_an_elided_tables_total_line_answers_an_increase(tmp_path: Path) -> None:
    """Against the whole table (28,023 us too): +0 us, judged."""
    log = _elided_sample(tmp_path)
    config = parse_budgets("budgets:\n  - {metric: total_time_us, max_increase: 0.05}\n")
    [verdict] = check(config, analyze(log), analyze(SAMPLE), log).verdicts
    assert verdict.status == "pass", verdict.message
    assert "+0 us" in verdict.message and "vs baseline 28.02 ms" in verdict.message


def _untimed_sample(tmp_path: Path) -> str:
    """The bundled table (without the ranking after it) printed under a ``Time(ms)`` header
    (no Time(us) column): its 89 rows carry no time, its total line 28,023 us."""
    text = "\n".join(SAMPLE.read_text(encoding="utf-8").split("\n")[:102]) + "\n"
    assert text.count(" Time(us) ") == 1 and "Ranking" not in text
    path = tmp_path / "untimed.txt"
    path.write_text(text.replace(" Time(us) ", " Time(ms) "), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "budget",
    [
        "{metric: npu_time_us, max: 100}",
        "{metric: cpu_time_us, max: 0}",
        "{metric: op_type_time_us, op_type: ConvExSwish, max: 100}",
        "{metric: layer_time_us, match: 'Conv:*', max: 100}",
    ],
)
def test_rows_without_times_are_no_sum_of_zero(tmp_path: Path, budget: str) -> None:
    """They passed at 0 us: the rows' times are unknown, not 0."""
    log = _untimed_sample(tmp_path)
    [profile] = analyze(log).profiles
    assert len(profile.layers) == 89 and all(la.time_us is None for la in profile.layers)
    verdict = _verdict(log, budget)
    assert verdict.status == "inconclusive", verdict.message
    assert "no Time(us) column" in verdict.message


def test_an_op_type_one_letter_off_is_no_zero(tmp_path: Path) -> None:
    """``ConvExSwsh`` passed at 0 us on a model of 57 ConvExSwish layers (a typo keeps a gate
    green); an op type the model does not run passes at 0 us, and says so."""
    typo = _verdict(str(SAMPLE), "{metric: op_type_time_us, op_type: ConvExSwsh, max: 5}")
    assert typo.status == "inconclusive"
    assert "runs no op type spelt 'ConvExSwsh', but ConvExSwish" in typo.message
    absent = _verdict(str(SAMPLE), "{metric: op_type_time_us, op_type: Transpose, max: 5}")
    assert absent.status == "pass"
    assert absent.message == "op_type_time_us = 0 us: the model runs no Transpose layer; max 5 us"
