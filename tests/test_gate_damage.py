"""Issue 22, the gate: a damaged log never passes ``check`` (or ``analyze --fail-on``) without a
word. Every warning the parsers and analysis raise reaches every format of ``check``; a budget
the profile cannot support is INCONCLUSIVE with its reason; ``--fail-on-inconclusive`` fails it.

The damaged logs are written from the grammar (tests/damaged_logs.py); expected figures come from
reading them.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET

import damaged_logs as dl
import pytest

from rknnprof.api import analyze
from rknnprof.budgets import check, failing_statuses, parse_budgets
from rknnprof.cli import main
from rknnprof.model import (
    ConditionKind,
    Coverage,
    Layer,
    Profile,
    Report,
    RunCondition,
    SourceSpan,
    Target,
    Validity,
)

TOTAL_BUDGET = "budgets:\n  - metric: total_time_us\n    max: 1000000000\n"


def run(capsys, monkeypatch, *args):
    """``rknnprof ARGS`` through ``main()``: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["rknnprof", *args])
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


# (name, generator, words of the warning, words of the coverage the verdict gives)
DAMAGED = [
    ("printed-twice", dl.printed_twice, "layer ID 1 repeats", "the table is damaged"),
    ("duplicated-row", dl.duplicated_row, "layer ID 3 repeats", "the table is damaged"),
    (
        "ranking-disagrees",
        dl.ranking_disagrees,
        "disagree with the ranking table",
        "the table is damaged (the ranking table disagrees",
    ),
    ("ids-jump", dl.ids_jump, "layer IDs skip from 30 to 131", "the table is elided"),
    (
        "ranking-cut-after-first-row",
        dl.ranking_cut_after_first_row,
        "the ranking table stops here with no Total row",
        "the table is cut (the ranking table stops at line 6",
    ),
    (
        "toolkit1-cut-before-total",
        lambda: dl.toolkit1(with_total=False),
        "no total line after it",
        "the table is cut (no total line after the table",
    ),
    (
        "csv-10-of-52",
        lambda: dl.csv_rows(10),
        "eval_perf CSV side file has no total line",
        "the table is in a format that cannot tell (the eval_perf CSV side file prints no",
    ),
]


@pytest.fixture
def gate_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rknnprof.yaml").write_text(TOTAL_BUDGET)
    return tmp_path


@pytest.mark.parametrize(("name", "make", "words", "why"), DAMAGED, ids=[d[0] for d in DAMAGED])
def test_damaged_log_reaches_every_check_format(
    name, make, words, why, gate_dir, capsys, monkeypatch
):
    text, _ = make()
    (gate_dir / "run.log").write_text(text)
    summary = gate_dir / "summary.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))

    code, out, err = run(capsys, monkeypatch, "check", "run.log", "-f", "json")
    doc = json.loads(out)
    assert code == 0
    [verdict] = doc["verdicts"]
    assert verdict["status"] == "inconclusive"
    assert verdict["unjudgeable"] is True
    assert f"total_time_us: not judged: {why}" in verdict["message"]
    assert any(words in w for w in doc["warnings"]), doc["warnings"]
    # stderr: the warning line and its GitHub annotation (stdout carries the JSON)
    assert "Warning: run.log:" in err and words in err
    assert any(line.startswith("::warning ") and words in line for line in err.splitlines())
    assert words.replace("_", "\\_") in summary.read_text()  # Markdown-escaped

    code, out, err = run(capsys, monkeypatch, "check", "run.log", "-f", "junit")
    root = ET.fromstring(out)
    assert words in "".join(e.text or "" for e in root.iter("system-err"))

    code, out, err = run(capsys, monkeypatch, "check", "run.log")
    assert words in out  # the table shows it too, not only stderr
    assert "The gate could not judge 1 of 1 budget" in out
    code, out, err = run(capsys, monkeypatch, "check", "run.log", "--allow-incomplete")
    assert "PASS" in out and words in out  # judged on request, still with its warning

    code, out, err = run(capsys, monkeypatch, "analyze", "run.log", "--fail-on", "error")
    assert words in err


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("toolkit1-with-total", lambda: dl.toolkit1(with_total=True)),
        ("clean-table", lambda: ("\n".join(dl.table(dl.TIMES)) + "\n", sum(dl.TIMES))),
        (
            "ranking-with-total-row",
            lambda: (
                "\n".join(dl.ranking(dl.RANKING_ROWS, dl.RANKING_FRAME_US, total_row=True)) + "\n",
                dl.RANKING_FRAME_US,
            ),
        ),
        (
            # a runtime that prints no Total row (corpus 01's 1.6 layout): closed by its rule
            "ranking-without-total-row",
            lambda: (
                "\n".join(
                    [*dl.ranking(dl.RANKING_ROWS, dl.RANKING_FRAME_US, False), dl.RANKING_RULE]
                )
                + "\n",
                dl.RANKING_FRAME_US,
            ),
        ),
    ],
)
def test_whole_logs_pass_without_a_word(name, make, tmp_path):
    text, total = make()
    path = tmp_path / "run.log"
    path.write_text(text)
    report = analyze(path)
    assert report.warnings == ()
    result = check(parse_budgets(TOTAL_BUDGET), report, None, str(path))
    assert [(v.status, v.value) for v in result.verdicts] == [("pass", total)]
    assert result.warnings == ()


def test_whole_csv_side_file_says_once_it_cannot_tell(tmp_path):
    text, total = dl.csv_rows(52)
    path = tmp_path / "eval_perf.csv"
    path.write_text(text)
    report = analyze(path)
    assert [w.message for w in report.warnings if "CSV" in w.message] == [
        "an eval_perf CSV side file has no total line: whether rows are missing cannot be "
        "told, so the profile is marked incomplete (the table eval_perf prints beside it ends "
        "with its total line: use that)"
    ]
    assert report.profiles[0].total_time_us == total
    result = check(parse_budgets(TOTAL_BUDGET), report, None, str(path))
    assert [v.status for v in result.verdicts] == ["inconclusive"]
    allowed = check(parse_budgets(TOTAL_BUDGET), report, None, str(path), allow_incomplete=True)
    assert [(v.status, v.value) for v in allowed.verdicts] == [("pass", total)]


def test_ranking_cut_total_is_the_rows_shown(tmp_path):
    """27,000 us of a 99,004 us frame: the cut ranking's figure is 27 % of the real total."""
    text, shown = dl.ranking_cut_after_first_row()
    path = tmp_path / "rank.log"
    path.write_text(text)
    profile = analyze(path).profiles[0]
    assert profile.total_time_us == shown
    assert profile.incomplete is not None and "TimeRatio adding up to 27.3%" in profile.incomplete


# ---- corpus 03 (rows elided with ``......``) against corpus 01 -------------------------------


def test_elided_corpus_03_is_not_judged_against_01(corpus, tmp_path, monkeypatch, capsys):
    c01, c03 = corpus("01_"), corpus("03_")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b.yaml").write_text(
        "budgets:\n  - metric: total_time_us\n    max: 200000\n    max_increase: 5%\n"
    )
    code, out, err = run(
        capsys, monkeypatch, "check", str(c03), "--budgets", "b.yaml", "--baseline", str(c01),
        "-f", "json",
    )  # fmt: skip
    doc = json.loads(out)
    assert code == 0
    [verdict] = doc["verdicts"]
    assert verdict["status"] == "inconclusive"
    assert "-95.5%" not in verdict["message"]
    assert "the table is elided (the log elides rows (2 elision line(s))" in verdict["message"]
    code, out, err = run(
        capsys, monkeypatch, "check", str(c03), "--budgets", "b.yaml", "--baseline", str(c01),
        "--fail-on-inconclusive",
    )  # fmt: skip
    assert code == 1
    assert "INCONCLUSIVE" in out and "The gate could not judge 1 of 1 budget" in out
    code, out, err = run(capsys, monkeypatch, "analyze", str(c03), "-f", "json")
    assert json.loads(out)["profiles"][0]["incomplete"].startswith("the log elided rows (2 ")


def test_fail_on_inconclusive_annotates_an_error_and_fails_junit(gate_dir, capsys, monkeypatch):
    text, _ = dl.toolkit1(with_total=False)
    (gate_dir / "run.log").write_text(text)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, err = run(capsys, monkeypatch, "check", "run.log", "-q")
    assert code == 0
    assert "::warning title=rknnprof could not judge::The gate could not judge 1 of 1" in out
    assert not any(line.startswith("::error") for line in out.splitlines())
    code, out, err = run(
        capsys, monkeypatch, "check", "run.log", "-q", "--fail-on-inconclusive", "-f", "junit"
    )
    assert code == 1
    root = ET.fromstring(out)
    assert root.get("failures") == "1" and root.find(".//skipped") is None
    assert any(line.startswith("::error ") for line in err.splitlines())
    code, out, err = run(capsys, monkeypatch, "check", "run.log", "-q", "--allow-incomplete")
    assert code == 0 and "PASS" in out


# ---- the verdict read off Profile.validity (set by hand until analysis fills it) -------------


def _profile(validity: Validity | None, **kw) -> Profile:
    layers = (
        Layer(id=1, op_type="InputOperator", time_us=10, target=Target.CPU, full_name="in"),
        Layer(id=2, op_type="ConvRelu", time_us=900, target=Target.NPU, full_name="c"),
        Layer(id=3, op_type="Softmax", time_us=90, target=Target.CPU, full_name="s"),
    )
    return Profile(
        source=SourceSpan("run.txt"),
        format="toolkit2-perf-table",
        layers=layers,
        validity=validity,
        **kw,
    )


BUDGETS = parse_budgets(
    "budgets:\n"
    "  - metric: total_time_us\n    max: 5000\n"
    "  - metric: op_type_time_us\n    op_type: ConvRelu\n    max: 5000\n"
    "  - metric: cpu_fallback_layers\n    max: 1\n"
    "  - metric: findings\n    max: 10\n"
)
DEBUGGER = RunCondition(
    ConditionKind.DEBUGGER, "ioctl breakpoints and tensor dumps inside the run", 12, True
)


def _statuses(profile: Profile, **kw) -> dict[str, str]:
    result = check(BUDGETS, Report((profile,)), None, "run.txt", **kw)
    return {v.budget.metric: v.status for v in result.verdicts}


def test_complete_measurement_is_judged():
    statuses = _statuses(_profile(Validity(Coverage.COMPLETE, "every row, total agrees")))
    assert set(statuses.values()) == {"pass"}


@pytest.mark.parametrize("coverage", [Coverage.CUT, Coverage.ELIDED, Coverage.FRAGMENT])
def test_rows_missing_leave_every_table_budget_unjudged(coverage):
    profile = _profile(Validity(coverage, "12 of 52 rows, no total line"))
    result = check(BUDGETS, Report((profile,)), None, "run.txt")
    assert {v.status for v in result.verdicts} == {"inconclusive"}
    total = result.verdicts[0]
    assert total.unjudgeable and total.value is None
    words = "a fragment" if coverage is Coverage.FRAGMENT else coverage.value
    assert f"the table is {words} (12 of 52 rows, no total line)" in total.message
    assert len(result.unjudged) == 4


def test_not_a_measurement_leaves_times_unjudged_and_counts_judged():
    profile = _profile(Validity(Coverage.COMPLETE, "every row", conditions=(DEBUGGER,)))
    assert _statuses(profile) == {
        "total_time_us": "inconclusive",
        "op_type_time_us": "inconclusive",
        "cpu_fallback_layers": "pass",
        "findings": "pass",
    }
    result = check(BUDGETS, Report((profile,)), None, "run.txt")
    assert "not a measurement (ioctl breakpoints and tensor dumps" in result.verdicts[0].message


def test_a_build_estimate_judges_counts_not_times():
    profile = _profile(Validity(Coverage.ESTIMATE, "build-time estimate"))
    assert _statuses(profile)["total_time_us"] == "inconclusive"
    assert _statuses(profile)["cpu_fallback_layers"] == "pass"


def test_allow_incomplete_judges_anyway():
    profile = _profile(Validity(Coverage.CUT, "cut", conditions=(DEBUGGER,)))
    assert set(_statuses(profile, allow_incomplete=True).values()) == {"pass"}


def test_a_cut_baseline_leaves_max_increase_unjudged():
    budgets = parse_budgets("budgets:\n  - metric: total_time_us\n    max_increase: 5%\n")
    base = _profile(Validity(Coverage.CUT, "no total line"))
    current = _profile(Validity(Coverage.COMPLETE, "every row"))
    result = check(budgets, Report((current,)), Report((base,)), "run.txt", "base.txt")
    [verdict] = result.verdicts
    assert verdict.status == "inconclusive"
    assert "baseline: the table is cut (no total line)" in verdict.message


def test_without_a_verdict_incomplete_and_elided_rows_decide():
    assert set(_statuses(_profile(None)).values()) == {"pass"}
    cut = _statuses(_profile(None, incomplete="no total line after the table (line 9)"))
    assert set(cut.values()) == {"inconclusive"}
    elided = _statuses(_profile(None, elided_rows=2))
    assert elided["total_time_us"] == "inconclusive" and elided["findings"] == "pass"


def test_failing_statuses():
    assert failing_statuses("error") == ("fail",)
    assert failing_statuses("warning") == ("fail", "warn")
    assert failing_statuses("never") == ()
    assert failing_statuses("error", True) == ("fail", "inconclusive")
    assert failing_statuses("never", True) == ("inconclusive",)


def test_baseline_warnings_are_named_as_the_baseline_s(tmp_path):
    text, _ = dl.toolkit1(with_total=False)
    (tmp_path / "base.log").write_text(text)
    clean, _ = dl.toolkit1(with_total=True)
    (tmp_path / "run.log").write_text(clean)
    budgets = parse_budgets("budgets:\n  - metric: total_time_us\n    max_increase: 5%\n")
    result = check(
        budgets, analyze(tmp_path / "run.log"), analyze(tmp_path / "base.log"), "run.log"
    )
    assert any(w.startswith("baseline ") and "no total line" in w for w in result.warnings)
    assert result.verdicts[0].status == "inconclusive"


def test_debugger_capture_times_are_not_judged_counts_are(tmp_path, capsys, monkeypatch):
    """Issue 22's debugger capture (written from its pattern in synthetic_logs): the total
    budget is not judged (the run is not a measurement), the CPU-fallback count is."""
    from synthetic_logs import debugger_capture

    monkeypatch.chdir(tmp_path)
    (tmp_path / "gdb.log").write_text("\n".join(debugger_capture()) + "\n")
    (tmp_path / "rknnprof.yaml").write_text(
        TOTAL_BUDGET + "  - metric: cpu_fallback_layers\n    max: 0\n"
    )
    code, out, err = run(capsys, monkeypatch, "check", "gdb.log", "-f", "json")
    doc = json.loads(out)
    total, fallback = doc["verdicts"]
    assert total["status"] == "inconclusive"
    assert "the run is not a measurement" in total["message"]
    assert fallback["status"] == "pass" and fallback["value"] == 0
    assert code == 0
    code, out, err = run(capsys, monkeypatch, "check", "gdb.log", "--fail-on-inconclusive")
    assert code == 1 and "The gate could not judge 1 of 2 budget(s)" in out


# ---- compare --fail-over: a damaged or stalled run's total is not judged ----------------------

CLEAN_TOTAL = sum(dl.TIMES)  # 2,437 us


def _compare(capsys, monkeypatch, tmp_path, base: str, current: str):
    (tmp_path / "before.log").write_text(base)
    (tmp_path / "after.log").write_text(current)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(
        capsys, monkeypatch, "compare", "before.log", "after.log", "--fail-over", "5", "-f", "json"
    )
    [comp] = json.loads(out)["comparisons"]
    return code, comp, err


@pytest.mark.parametrize(
    ("make", "current_total"),
    [(dl.printed_twice, 2 * CLEAN_TOTAL), (dl.duplicated_row, CLEAN_TOTAL + dl.TIMES[2])],
    ids=["printed-twice", "duplicated-row"],
)
def test_compare_does_not_judge_a_damaged_table(make, current_total, capsys, monkeypatch, tmp_path):
    """A table printed twice (+100 %) and one with a duplicated row whose total line was made
    to match (+28.7 %): neither is a regression of the model; --fail-over says it cannot judge
    (it failed on both, and called the first 'part of the model')."""
    clean = "\n".join(dl.table(dl.TIMES)) + "\n"
    damaged, _ = make()
    code, comp, err = _compare(capsys, monkeypatch, tmp_path, clean, damaged)
    assert comp["base_total_us"] == CLEAN_TOTAL and comp["current_total_us"] == current_total
    assert comp["unjudged"] == ["CURRENT's table is damaged"]
    assert comp["partial_sides"] == []
    assert code == 0
    assert "after.log: --fail-over not judged: CURRENT's table is damaged" in err
    assert "shows part of the model" not in err
    code, comp, err = _compare(capsys, monkeypatch, tmp_path, damaged, clean)
    assert comp["unjudged"] == ["BASE's table is damaged"] and code == 0


def test_compare_does_not_judge_a_stalled_baseline(capsys, monkeypatch, tmp_path):
    """A baseline taken under gdb (its conv 112 ms, the run held up) against a clean run of
    the same model at 30 + 1,200 + 763 us: -98 %, which passed --fail-over without a word of
    the gate's; now it is not judged, and says why."""
    from synthetic_logs import cycles_row, debugger_capture, table_of

    rows = [
        cycles_row(1, "InputOperator", 0, 0, 30, "InputOperator:in", "CPU", ("\\", "(1,64,80,80)")),
        cycles_row(2, "ConvRelu", 410000, 102400, 1200, "Conv:/conv1/Conv"),
        cycles_row(
            3, "OutputOperator", 0, 0, 763, "OutputOperator:out", "CPU", ("(1,64,80,80)", "\\")
        ),
    ]
    clean = "\n".join(table_of(rows, 30 + 1200 + 763)) + "\n"
    stalled = "\n".join(debugger_capture()) + "\n"
    code, comp, err = _compare(capsys, monkeypatch, tmp_path, stalled, clean)
    assert comp["base_total_us"] == 30 + 112000 + 763
    assert comp["unjudged"] == ["BASE is not a measurement"]
    assert code == 0 and "--fail-over not judged: BASE is not a measurement" in err


def test_compare_judges_a_clean_regression(capsys, monkeypatch, tmp_path):
    """Two clean tables, one conv 900 -> 1,170 us (+11.1 % of the frame): judged, exit 1."""
    slower = [*dl.TIMES[:1], round(dl.TIMES[1] * 1.3), *dl.TIMES[2:]]
    code, comp, err = _compare(
        capsys,
        monkeypatch,
        tmp_path,
        "\n".join(dl.table(dl.TIMES)) + "\n",
        "\n".join(dl.table(slower)) + "\n",
    )
    assert comp["unjudged"] == [] and comp["delta_us"] == 270
    assert code == 1 and "more than --fail-over 5%" in err


def test_a_whole_table_under_a_cut_ranking_is_judged(capsys, monkeypatch, tmp_path):
    """The per-layer table and its total line whole (2,437 us), its ranking cut after its
    first row (ConvRelu: four convs, 2,400 us, 98.48 % of the frame): the table is complete
    and judged, with the ranking's cut said; the ranking lacks InputOperator and
    OutputOperator because it is cut, which is no disagreement (it made the table 'damaged'
    and the budget inconclusive)."""
    convs = sum(dl.TIMES[1:-1])
    rows = [("ConvRelu", 4, 0, convs), ("OutputOperator", 1, 25, 0), ("InputOperator", 1, 12, 0)]
    ranking = dl.ranking(rows, CLEAN_TOTAL, total_row=True)
    text = "\n".join([*dl.table(dl.TIMES), *ranking[:6]]) + "\n"
    assert ranking[5].startswith("ConvRelu           4            0            0            2400")
    (tmp_path / "run.log").write_text(text)
    (tmp_path / "rknnprof.yaml").write_text(TOTAL_BUDGET)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, monkeypatch, "check", "run.log", "-f", "json")
    [verdict] = json.loads(out)["verdicts"]
    assert verdict["status"] == "pass" and verdict["value"] == CLEAN_TOTAL
    assert "the ranking table stops here with no Total row" in err
    assert "disagree with the ranking" not in err
    code, out, err = run(capsys, monkeypatch, "analyze", "run.log", "-f", "json")
    validity = json.loads(out)["profiles"][0]["validity"]
    assert validity["coverage"] == "complete"


def _ranking_only(rows: list[tuple[str, int, int, int]], twice: bool = False) -> str:
    """A ranking-only log of ``rows`` whose Total row is the clean run's (99,004 us)."""
    lines = dl.ranking(dl.RANKING_ROWS, dl.RANKING_FRAME_US, total_row=True)
    body = dl.ranking(rows, dl.RANKING_FRAME_US, total_row=False)[5:]
    at = 5 + len(dl.RANKING_ROWS)
    return "\n".join([*lines[:5], *body, *(body if twice else []), *lines[at:]]) + "\n"


@pytest.mark.parametrize(
    ("name", "rows", "twice", "current"),
    [
        ("printed-twice", dl.RANKING_ROWS, True, 2 * dl.RANKING_FRAME_US),
        (
            "a-value-x10",
            [*dl.RANKING_ROWS[:3], ("Conv", 22, 0, 240000), *dl.RANKING_ROWS[4:]],
            False,
            dl.RANKING_FRAME_US + 216000,
        ),
    ],
    ids=["printed-twice", "a-value-x10"],
)
def test_a_damaged_ranking_only_log_is_not_judged(
    name, rows, twice, current, capsys, monkeypatch, tmp_path
):
    """A ranking-only log whose rows are printed twice under one header, or one of whose values
    gained a digit: its own Total row still says 99,004 us and its warnings say the rows do not
    add up to it, yet the verdict was 'complete' and --fail-over failed at +100 % / +218 %."""
    clean = _ranking_only(dl.RANKING_ROWS)
    code, comp, err = _compare(capsys, monkeypatch, tmp_path, clean, _ranking_only(rows, twice))
    assert comp["base_total_us"] == dl.RANKING_FRAME_US
    assert comp["current_total_us"] == current
    assert comp["unjudged"] == ["CURRENT's table is damaged"] and code == 0
    code, out, err = run(capsys, monkeypatch, "analyze", "after.log", "-f", "json")
    validity = json.loads(out)["profiles"][0]["validity"]
    assert validity["coverage"] == "damaged"
    said = "ranked twice" if twice else "the ranking's Total row and its rows disagree"
    assert said in validity["coverage_reason"]


@pytest.mark.parametrize("terminal", [True, False])
def test_check_warnings_once_on_a_terminal(gate_dir, capsys, monkeypatch, terminal):
    """The check table shows the input's warnings; on a terminal stderr repeated them."""
    from rknnprof.cli import output

    monkeypatch.setattr(output, "one_terminal", lambda: terminal)
    text, _ = dl.printed_twice()
    (gate_dir / "run.log").write_text(text)
    code, out, err = run(capsys, monkeypatch, "check", "run.log")
    assert "layer ID 1 repeats" in out
    assert ("layer ID 1 repeats" in err) is not terminal


def test_fallback_warnings_alone_fail_a_budget_they_already_exceed(tmp_path, capsys, monkeypatch):
    """corpus 31's one line (airockchip/rknn-toolkit2 issue 490): no table, but the runtime warns
    that Transpose falls back to the CPU. ``cpu_fallback_layers: max 0`` fails (at least one
    layer does); ``max 1`` cannot be told from one warning and stays inconclusive."""
    log = tmp_path / "fallback.txt"
    log.write_text(
        "W RKNN: [13:52:53.504] Transpose will fallback to CPU, because input shape has exceeded "
        "the max limit, height(256) * width(2560) = 655360, required product no larger than "
        "8192!\n"
    )
    budgets = tmp_path / "b.yaml"
    for most, code, said in (
        (0, 1, "cpu_fallback_layers >= 1: over max 0 (the log warns that Transpose falls back"),
        (1, 0, "cpu_fallback_layers: not judged: the table is absent"),
    ):
        budgets.write_text(f"budgets:\n  - metric: cpu_fallback_layers\n    max: {most}\n")
        result = run(
            capsys, monkeypatch, "check", str(log), "--budgets", str(budgets), "-f", "json"
        )
        assert result[0] == code
        [verdict] = json.loads(result[1])["verdicts"]
        assert verdict["message"].startswith(said)


def test_a_saved_report_edited_to_complete_is_held_to_its_numbers(tmp_path):
    """A saved report whose verdict was edited to 'complete' (and its `incomplete` emptied) over
    rows that sum to 730 us against its total line's 1,030 us (a row lost) passed its budgets:
    the saved verdict was trusted. Its own numbers now say it is not."""
    from dataclasses import replace

    from synthetic_logs import table

    from rknnprof.model import Validity

    lines = table([10, 500, 300, 200, 20])
    lines = [line for line in lines if "Conv:/m/conv3/Conv" not in line]  # 300 us lost
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n")
    [profile] = analyze(path).profiles
    assert profile.validity is not None and not profile.validity.complete
    edited = replace(
        profile, validity=Validity(Coverage.COMPLETE, "5 rows, agreeing"), incomplete=None
    )
    report = replace(analyze(path), profiles=(edited,))
    result = check(parse_budgets(TOTAL_BUDGET), report, None, str(path))
    [verdict] = result.verdicts
    assert verdict.status == "inconclusive"
    assert "its rows sum to 730 us against its total line's 1,030 us" in verdict.message


def _saved_capture(tmp_path, capsys, monkeypatch):
    """The bundled sample's table 5 times, each frame its own (frames 28,023 us; layer 2,
    6,030 us, the largest), saved by ``analyze -f json``: its JSON document."""
    from tests.hostile.helpers import SAMPLE, distinct

    lines = SAMPLE.read_text().split("\n")
    frames = [line for i in range(5) for line in distinct(lines[4:118], i)]
    path = tmp_path / "five.txt"
    path.write_text("\n".join(lines[:4] + frames) + "\n")
    code, out, err = run(capsys, monkeypatch, "analyze", str(path), "-f", "json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        # (the median frame edited alone: it was judged, 0.10 ms under a 5 ms max)
        (
            lambda p: p.update(frame_time_p50_us=100),
            "its frame_time_p50_us 100 us against 28,023 us from its 5 frame times",
        ),
        # (every layer at 1 us, their ranges too: npu_time_us read 87 us)
        (
            lambda p: [la.update(time_us=1, time_min_us=1, time_max_us=1) for la in p["layers"]],
            "a frame of 28,023 us beside layers whose slowest times sum to 89 us",
        ),
        (
            lambda p: p["layers"][1].update(time_us=30),
            "layer #2's time 30 us outside its frames' 6,030-6,030 us",
        ),
    ],
)
def test_a_saved_report_of_merged_frames_is_held_to_its_numbers(
    edit, said, tmp_path, capsys, monkeypatch
):
    document = _saved_capture(tmp_path, capsys, monkeypatch)
    [profile] = document["profiles"]
    assert profile["frames"] == 5 and profile["frame_time_p50_us"] == 28023
    edit(profile)
    saved = tmp_path / "edited.json"
    saved.write_text(json.dumps(document))
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text(
        "budgets:\n  - metric: total_time_us\n    max: 5000\n"
        "  - metric: npu_time_us\n    max: 3000\n"
    )
    code, out, err = run(capsys, monkeypatch, "check", str(saved), "--budgets", str(budgets))
    assert "PASS" not in out.replace("INCONCLUSIVE", ""), out
    assert f"{said} (a saved report edited or damaged)" in " ".join(out.split())


def test_a_saved_report_of_merged_frames_unedited_is_judged(tmp_path, capsys, monkeypatch):
    saved = tmp_path / "five.json"
    saved.write_text(json.dumps(_saved_capture(tmp_path, capsys, monkeypatch)))
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max: 5000\n")
    code, out, err = run(capsys, monkeypatch, "check", str(saved), "--budgets", str(budgets))
    assert code == 1 and "FAIL" in out and "edited" not in out


def test_a_damaged_table_is_not_priced_as_a_clean_frame(tmp_path):
    """The bundled sample with its Resize row (ID 60, 1,873 us on the CPU) printed twice: the
    verdict is damaged, and no finding prices a saving from its rows (RKN001 priced ~1,693 us
    of that Resize, RKN070 ~7,505 us of its SiLU convs, as shares of a doubled frame)."""
    from pathlib import Path

    sample = Path(__file__).parent.parent / "sample_logs" / "yolov5s_rk3588_perf.txt"
    lines = sample.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("60 ") and "Resize" in line)
    path = tmp_path / "doubled.txt"
    path.write_text("\n".join([*lines[: at + 1], lines[at], *lines[at + 1 :]]) + "\n")
    [profile] = analyze(path).profiles
    assert profile.validity is not None and profile.validity.coverage is Coverage.DAMAGED
    assert profile.findings and all(f.est_saving_us == 0 for f in profile.findings)
    priced = [f for f in profile.findings if f.basis.startswith("not priced: the table is damaged")]
    assert {f.code for f in priced} >= {"RKN001", "RKN070"}
    [clean] = analyze(sample).profiles  # (the same log whole: priced)
    assert max(f.est_saving_us for f in clean.findings) > 7000
