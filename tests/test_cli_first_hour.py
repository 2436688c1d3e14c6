"""A newcomer's first hour, round three (issue #25): the bare command, colour in every command,
CI annotations for every gate, and the output of ``compare`` / ``check`` read at 80 columns.

The sample logs are synthetic (``sample_logs/generate.py``); what a test expects is read from
them: ``yolov5s_rk3588_perf.txt`` is one frame of 89 layers totalling 28,023 us, its three
findings at warning are RKN070, RKN001 and RKN030; the 3-frame log is the same model at a
slightly lower total.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from rknnprof.cli import cli
from tests.conftest import SAMPLES

SAMPLE = str(SAMPLES / "yolov5s_rk3588_perf.txt")
FRAMES3 = str(SAMPLES / "yolov5s_rk3588_loglevel4_3frames.txt")
RELATIVE = "sample_logs/yolov5s_rk3588_perf.txt"
"""The sample as a CI job names it: relative to the workspace, so annotations link to it."""


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def _budgets(tmp_path, body: str = "  - metric: total_time_us\n    max: 1000\n") -> str:
    path = tmp_path / "rknnprof.yaml"
    path.write_text("budgets:\n" + body)
    return str(path)


# -- the bare command ----------------------------------------------------------------------------
def test_bare_rknnprof_prints_its_help_and_exits_0() -> None:
    # the console script (main), as a user's shell runs it
    proc = subprocess.run(
        [sys.executable, "-m", "rknnprof"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert "\\x0a" not in proc.stdout and "Error" not in proc.stdout
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Usage: rknnprof")
    assert any(line.strip().startswith("analyze ") for line in lines)  # the command list
    assert len(lines) > 10  # the help over many lines, not one escaped line


def test_bare_rknnprof_under_the_test_runner_is_the_same_help() -> None:
    bare, helped = invoke(), invoke("--help")
    assert bare.exit_code == 0 and bare.stdout == helped.stdout


# -- colour: the same rule in every command ------------------------------------------------------
@pytest.mark.parametrize(
    ("env", "args", "coloured"),
    [
        ({}, (), False),
        ({"FORCE_COLOR": "1"}, (), True),
        ({"CLICOLOR_FORCE": "1"}, (), True),
        ({}, ("--color", "always"), True),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, (), False),
        ({"FORCE_COLOR": "1"}, ("--color", "never"), False),
    ],
)
def test_compare_and_check_colour_follow_the_readme_rule_when_piped(
    tmp_path, env: dict[str, str], args: tuple[str, ...], coloured: bool
) -> None:
    compared = invoke("compare", SAMPLE, FRAMES3, "-q", *args, env=env)
    checked = invoke("check", SAMPLE, "--budgets", _budgets(tmp_path), "-q", *args, env=env)
    assert compared.exit_code == 0 and checked.exit_code == 1  # 28,023 us is over max 1,000
    assert ("\x1b[" in compared.stdout) is coloured
    assert ("\x1b[" in checked.stdout) is coloured


# -- CI annotations for every gate ---------------------------------------------------------------
def test_analyze_fail_on_annotates_each_finding_in_github_actions(monkeypatch) -> None:
    monkeypatch.chdir(SAMPLES.parent)
    result = invoke(
        "analyze", RELATIVE, "--fail-on", "warning", "-q", env={"GITHUB_ACTIONS": "true"}
    )
    assert result.exit_code == 1
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    # the sample's findings at warning: RKN070 activation-swap, RKN001 cpu-fallback, RKN030
    codes = [line.split("title=rknnprof ", 1)[1].split(" ", 1)[0] for line in errors]
    assert sorted(codes) == ["RKN001", "RKN030", "RKN070"]
    for line in errors:
        # the log's path and the profile's first line (the table starts on line 6)
        assert line.startswith(f"::error file={RELATIVE},line=6,title=rknnprof RKN")
        assert "reached --fail-on warning" in line
    assert "%25" in errors[0]  # "75.8% of the frame": '%' escaped as GitHub requires


def test_analyze_annotations_leave_a_json_stdout_parseable() -> None:
    import json

    result = invoke(
        "analyze", SAMPLE, "-f", "json", "--fail-on", "warning", env={"GITHUB_ACTIONS": "true"}
    )
    assert result.exit_code == 1
    json.loads(result.stdout)
    assert result.stderr.count("::error ") == 3


def test_no_annotation_outside_github_actions() -> None:
    result = invoke("analyze", SAMPLE, "--fail-on", "warning")
    assert result.exit_code == 1 and "::error" not in result.stdout + result.stderr


def test_compare_fail_over_annotates_in_github_actions(monkeypatch) -> None:
    # FRAMES3 -> SAMPLE: the total grew by a fraction of a percent, over --fail-over 0
    monkeypatch.chdir(SAMPLES.parent)
    result = invoke(
        "compare", FRAMES3, RELATIVE, "--fail-over", "0", "-q", env={"GITHUB_ACTIONS": "true"}
    )
    assert result.exit_code == 1
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1
    assert errors[0].startswith(f"::error file={RELATIVE},title=rknnprof compare --fail-over::")
    assert "total time grew +" in errors[0] and "(more than --fail-over 0%25)" in errors[0]
    assert result.stderr.startswith("Error: ")


# -- one style for every error line --------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("analyze", "no/such/log.txt"), "Error: file 'no/such/log.txt' does not exist (see"),
        (("analyze", SAMPLE, "--top", "0"), "Error: --top: 0 is not in the range x>=1 (see"),
        (("analyze", SAMPLE, "--bogus"), "Error: no such option '--bogus' (see"),
        (("compare", SAMPLE), "Error: missing argument 'CURRENT' (see"),
        (("analyze", SAMPLE, "-f", "nope"), "Error: -f / --format: 'nope' is not one of"),
    ],
)
def test_usage_errors_read_like_every_other_error(capsys, monkeypatch, args, expected) -> None:
    # rknnprof's own errors: "Error: <what>: <why>", lower case, no closing full stop
    from tests.hostile.helpers import run

    code, out, err = run(capsys, monkeypatch, *args)
    assert code == 2 and out == ""
    assert err.startswith(expected), err
    assert err.count("\n") == 1 and ". (see" not in err and "Invalid value" not in err


def test_own_and_usage_errors_share_the_style(capsys, monkeypatch, tmp_path) -> None:
    from tests.hostile.helpers import run

    bad = tmp_path / "bad.yaml"
    bad.write_text("budgets: [{metric: total_time_us, level: sometimes, max: 1}]\n")
    code, _, own = run(capsys, monkeypatch, "check", SAMPLE, "--budgets", str(bad))
    assert code == 2 and own.startswith(f"Error: {bad}:1: budgets[0].level: expected")
    code, _, usage = run(capsys, monkeypatch, "analyze", SAMPLE, "--top", "x")
    assert code == 2 and usage.startswith("Error: --top: 'x' is not a valid integer")


# -- one meaning per suffix ----------------------------------------------------------------------
@pytest.mark.parametrize("command", ["compare", "check"])
def test_a_model_explorer_suffix_is_refused_where_it_means_nothing(
    capsys, monkeypatch, tmp_path, command
) -> None:
    from tests.hostile.helpers import run

    target = tmp_path / "x.me.json"
    args = [SAMPLE, SAMPLE] if command == "compare" else [SAMPLE, "--budgets", _budgets(tmp_path)]
    code, out, err = run(capsys, monkeypatch, command, *args, "-o", str(target))
    assert code == 2 and not target.exists()
    assert err.startswith(f"Error: -o: cannot tell the format from '{target}'")
    assert "(analyze's model-explorer format, not one of " in err
    # analyze writes Model Explorer node data there, and compare plain .json stays JSON
    assert invoke("analyze", SAMPLE, "-o", str(target)).exit_code == 0
    assert '"results"' in target.read_text()
    assert invoke("compare", SAMPLE, SAMPLE, "-q", "-o", str(tmp_path / "c.json")).exit_code == 0


# -- a run judged against itself: no +0 us rows ---------------------------------------------------
def test_check_against_an_unchanged_baseline_says_no_layer_changed(tmp_path, monkeypatch) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    budgets = _budgets(tmp_path, "  - metric: total_time_us\n    max_increase: 5%\n")
    result = invoke("check", SAMPLE, "--budgets", budgets, "--baseline", SAMPLE, "-f", "markdown")
    assert result.exit_code == 0
    for text in (result.stdout, summary.read_text()):
        assert "no layer changed" in text
        layer_rows = [line for line in text.splitlines() if line.startswith("| `")]
        assert layer_rows == []  # no row of a layer that did not change (op types stay)


def test_compare_lists_only_layers_that_changed(tmp_path) -> None:
    same = invoke("compare", SAMPLE, SAMPLE, "-q")
    assert "Largest layer changes: no layer changed" in same.stdout
    html = invoke("compare", SAMPLE, SAMPLE, "-q", "-f", "html").stdout
    assert "no layer changed" in html and "Largest layer changes (top" not in html
    # against the 3-frame run every listed layer moved: none at +0 us
    moved = invoke("compare", SAMPLE, FRAMES3, "-q", "-f", "markdown").stdout
    layer_rows = moved.split("| Layer |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    assert layer_rows and all("| +0 |" not in row for row in layer_rows)


# -- units and the Budget column at 80 columns ---------------------------------------------------
def test_compare_column_heads_carry_their_unit() -> None:
    out = invoke("compare", SAMPLE, FRAMES3, "-q").stdout
    heads = [line.split() for line in out.splitlines() if line.startswith(("Layer ", "Op type "))]
    assert len(heads) == 2
    for head in heads:
        assert "Base" not in head or head[head.index("Base") + 1] == "us"
        assert head[head.index("Current") + 1] == "us"


def test_check_frame_totals_are_in_ms_and_parts_in_us(tmp_path) -> None:
    budgets = _budgets(
        tmp_path,
        "  - metric: total_time_us\n    max: 40000\n"
        "  - metric: layer_time_us\n    match: 'Conv:/model.0/conv/*'\n    max: 7000\n",
    )
    result = invoke("check", SAMPLE, "--budgets", budgets, "-f", "json")
    messages = [v["message"] for v in __import__("json").loads(result.stdout)["verdicts"]]
    # the frame: 28,023 us (its total line) as the README's rule writes a frame
    assert messages[0] == "total_time_us = 28.02 ms: max 40.00 ms"
    # a part of the frame: the first conv, 6,030 us
    assert messages[1] == "layer_time_us = 6,030 us: max 7,000 us"


def test_check_budget_column_keeps_the_whole_glob_at_80_columns(tmp_path) -> None:
    glob = "Conv:/model.2/m/m.0/cv2/conv/*"
    budgets = _budgets(tmp_path, f"  - metric: layer_time_us\n    match: '{glob}'\n    max: 7000\n")
    out = invoke("check", SAMPLE, "--budgets", budgets).stdout
    lines = out.splitlines()[1:]  # under the heading line (it cuts long paths to fit)
    assert max(len(line) for line in lines) <= 80
    # the Budget column read down its lines gives the label back whole
    start = next(i for i, line in enumerate(lines) if line.startswith("PASS"))
    width = lines[start].index("layer_time_us =") if "layer_time_us =" in lines[start] else 44
    cell = "".join(line[9:width].strip() for line in lines[start : start + 3])
    assert glob in cell and "…" not in "\n".join(lines)
