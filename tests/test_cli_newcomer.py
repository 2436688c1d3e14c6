"""What a new user meets first (issue #13): a failing gate that says why and a JUnit file that
agrees with the exit code, one ``--fail-on`` vocabulary, one warning prefix, colour variables,
``-q``, completion values, the broken-pipe exit code, ``--rule-option``, and budgets for an op the
model does not run.

The sample log (``sample_logs/yolov5s_rk3588_perf.txt``) is read as a user would: 89 layers, one
Resize on the CPU (#60, 1873 us), 18 layers whose cycles label them bandwidth-bound.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from rknnprof.cli import cli
from rknnprof.rules import RULES
from tests.conftest import SAMPLES, read_all

SAMPLE = str(SAMPLES / "yolov5s_rk3588_perf.txt")
FRAMES3 = str(SAMPLES / "yolov5s_rk3588_loglevel4_3frames.txt")


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def _findings(*extra: str) -> list[dict]:
    report = json.loads(invoke("analyze", SAMPLE, "-f", "json", *extra).stdout)
    return [f for p in report["profiles"] for f in p["findings"]]


# -- defect 1: a failing gate says why, and the JUnit agrees -------------------------------------
def test_fail_on_names_each_finding_that_tripped_it(tmp_path) -> None:
    tripping = [f for f in _findings() if f["severity"] in ("warning", "error")]
    assert tripping  # the sample's CPU Resize alone is a warning
    result = invoke("analyze", SAMPLE, "--fail-on", "warning", "-o", str(tmp_path / "a.xml"))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == len(tripping)
    for line, finding in zip(lines, tripping):
        assert line.startswith(f"Error: {SAMPLE}: {finding['code']} {finding['severity']} ")
        assert "reached --fail-on warning" in line
    root = ET.parse(tmp_path / "a.xml").getroot()
    failed = {
        c.get("name").split()[0] for c in root.iter("testcase") if c.find("failure") is not None
    }
    assert failed == {f["code"] for f in tripping}
    assert root.get("failures") == str(len(failed))


def test_without_a_gate_junit_has_no_failures_and_exit_is_0() -> None:
    result = invoke("analyze", SAMPLE, "-f", "junit")
    assert result.exit_code == 0 and result.stderr == ""
    assert ET.fromstring(result.stdout).get("failures") == "0"


# -- defect 3: one --fail-on vocabulary ---------------------------------------------------------
@pytest.mark.parametrize("word", ["warning", "warn", "WARNING"])
def test_analyze_takes_warning_and_warn(word: str) -> None:
    assert invoke("analyze", SAMPLE, "--fail-on", word, "-q").exit_code == 1


def test_analyze_never_and_error_pass_the_sample() -> None:
    # no finding of the sample is an error: the largest saving is under 10% of the frame
    assert not [f for f in _findings() if f["severity"] == "error"]
    assert invoke("analyze", SAMPLE, "--fail-on", "error").exit_code == 0
    assert invoke("analyze", SAMPLE, "--fail-on", "never").exit_code == 0


@pytest.mark.parametrize("word", ["warning", "warn"])
def test_check_takes_warning_and_warn(tmp_path, word: str) -> None:
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - {metric: total_time_us, max: 1000, level: warn}\n")
    assert invoke("check", SAMPLE, "--budgets", str(budgets)).exit_code == 0
    assert invoke("check", SAMPLE, "--budgets", str(budgets), "--fail-on", word).exit_code == 1


def test_budget_level_warning_is_warn(tmp_path) -> None:
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - {metric: total_time_us, max: 1000, level: warning}\n")
    result = invoke("check", SAMPLE, "--budgets", str(budgets), "-f", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["verdicts"][0]["status"] == "warn"


def test_a_bad_level_is_a_usage_error_listing_the_words() -> None:
    result = invoke("analyze", SAMPLE, "--fail-on", "sometimes")
    assert result.exit_code == 2 and "'info', 'warning', 'error', 'never'" in result.stderr


# -- defect 9: prefixes, colour variables, -q, completion, broken pipe ---------------------------
def test_compare_warnings_use_the_same_prefix_as_analyze() -> None:
    # one frame against three merged frames: not like for like
    result = invoke("compare", SAMPLE, FRAMES3)
    assert "Warning: not like for like: frames merged: 1 vs 3" in result.stderr
    assert "warning:" not in result.stderr


def test_quiet_drops_warnings_but_keeps_errors() -> None:
    result = invoke("compare", SAMPLE, FRAMES3, "-q")
    assert result.exit_code == 0 and result.stderr == ""
    result = invoke("analyze", SAMPLE, "-q", "--fail-on", "warning")
    assert result.stderr.startswith("Error: ")


@pytest.mark.parametrize(
    ("env", "coloured"),
    [
        ({}, False),
        ({"FORCE_COLOR": "1"}, True),
        ({"CLICOLOR_FORCE": "1"}, True),
        ({"FORCE_COLOR": "0"}, False),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    ],
)
def test_colour_variables_are_honoured_when_piped(env: dict[str, str], coloured: bool) -> None:
    out = invoke("analyze", SAMPLE, env=env).stdout  # CliRunner's stdout is not a terminal
    assert ("\x1b[" in out) is coloured


def _complete(args: list[str], incomplete: str) -> list[str]:
    completer = ShellComplete(cli, {}, "rknnprof", "_RKNNPROF_COMPLETE")
    return [item.value for item in completer.get_completions(args, incomplete)]


def test_completion_offers_platforms_rule_codes_and_levels() -> None:
    assert _complete(["analyze", SAMPLE, "--platform"], "rk35") == [
        "rk3562",
        "rk3566",
        "rk3568",
        "rk3576",
        "rk3588",
        "rk3588s",
    ]
    assert "RKN001" in _complete(["analyze", SAMPLE, "--select"], "RKN0")
    assert _complete(["rules"], "RKN01") == ["RKN010", "RKN011"]
    assert _complete(["check", SAMPLE, "--fail-on"], "") == ["warning", "error", "never"]
    assert "RKN010.min_layer_share=" in _complete(["analyze", SAMPLE, "--rule-option"], "RKN010")


def test_a_closed_pipe_is_not_a_failed_gate() -> None:
    # `rknnprof analyze … | head -1`: exit 141 as SIGPIPE would give, never 1, no traceback
    # four copies of the sample as HTML: far more than a pipe buffer holds
    proc = subprocess.Popen(
        [sys.executable, "-m", "rknnprof", "analyze", *[SAMPLE] * 4, "-f", "html"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 141 and b"Traceback" not in err


# -- defect 5: the bandwidth finding against the summary, and --rule-option ----------------------
def test_bandwidth_finding_says_which_of_the_labelled_layers_it_counts() -> None:
    [finding] = [f for f in _findings() if f["code"] == "RKN010"]
    # 18 layers labelled bandwidth-bound; 11 of them are each under 1% of the 28,023 us frame
    assert finding["message"].startswith(
        "7 of the 18 bandwidth-bound layers (not counted: 11 each under 1.0% of the frame "
        "(RKN010.min_layer_share))"
    )


def test_rule_option_changes_the_threshold_it_names() -> None:
    [finding] = [
        f for f in _findings("--rule-option", "RKN010.min_layer_share=0") if f["code"] == "RKN010"
    ]
    assert finding["message"].startswith("18 bandwidth-bound layer(s)")
    assert not [
        f for f in _findings("--rule-option", "rkn010.min_share=0.5") if f["code"] == "RKN010"
    ]


def test_rule_option_rejects_what_no_rule_reads() -> None:
    result = invoke("analyze", SAMPLE, "--rule-option", "RKN010.bogus=1")
    assert result.exit_code == 2 and "unknown rule option 'RKN010.bogus'" in result.stderr
    assert invoke("analyze", SAMPLE, "--rule-option", "RKN010.min_share").exit_code == 2
    assert invoke("analyze", SAMPLE, "--rule-option", "RKN010.min_share=-1").exit_code == 2


def test_a_share_option_takes_a_percentage_and_refuses_the_whole_frame() -> None:
    # the doc says "at least 1% (option RKN010.min_layer_share)": "=1" meant 1 % and silently
    # turned RKN010 off (a share of 1 is the whole frame); "1%" was refused
    assert _findings("--rule-option", "RKN010.min_layer_share=0.5%") == _findings(
        "--rule-option", "RKN010.min_layer_share=0.005"
    )
    result = invoke("analyze", SAMPLE, "--rule-option", "RKN010.min_layer_share=1")
    assert result.exit_code == 2
    assert "a share is a fraction of the frame, under 1 (1 is the whole frame)" in result.stderr
    assert invoke("analyze", SAMPLE, "--rule-option", "RKN050.outside_ratio=1.2").exit_code == 0


def test_every_option_a_rule_doc_names_is_read_by_that_rule() -> None:
    import inspect
    import re

    from rknnprof.cli.options import rule_option_names

    names = rule_option_names()
    assert "RKN010.min_layer_share" in names
    for name in names:
        code, key = name.split(".")
        [rule] = [r for r in RULES if r.code == code]
        module = inspect.getsource(inspect.getmodule(rule.check))
        # opt(context, "RKN010", "min_share", …) or opt(context, CODE, …) with CODE = "RKN060"
        named = {f'"{code}"'} | set(re.findall(rf'^(\w+)(?:, \w+)* = "{code}"', module, re.M))
        read = re.findall(rf'opt\(context, ("\w+"|\w+), "{key}"', module)
        assert named & set(read), f"{name} is named in the doc but never read"


# -- defect 13: an op the model does not run, and budget numbering -------------------------------
def test_check_op_type_absent_from_the_model_passes_at_0_us(tmp_path) -> None:
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - {metric: op_type_time_us, op_type: Softmax, max: 500}\n")
    result = invoke("check", SAMPLE, "--budgets", str(budgets), "-f", "json")
    assert result.exit_code == 0
    [verdict] = json.loads(result.stdout)["verdicts"]
    assert (verdict["status"], verdict["value"]) == ("pass", 0)


def test_budget_errors_count_from_0_like_the_verdict_list(tmp_path) -> None:
    budgets = tmp_path / "b.yaml"
    budgets.write_text(
        "budgets:\n  - {metric: total_time_us, max: 1}\n  - {metric: total_time_us, max: -1}\n"
    )
    result = invoke("check", SAMPLE, "--budgets", str(budgets))
    assert result.exit_code == 2 and "budgets[1].max" in result.stderr  # the second entry


# -- defect 8: compare/check at 80 columns -------------------------------------------------------
def test_compare_at_80_columns_cuts_names_like_analyze(tmp_path) -> None:
    from rknnprof.model import Layer, Profile, Report, SourceSpan
    from rknnprof.saved import report_to_dict

    names = [f"Conv:/model.{i}/m/m.0/cv2/very_long_block_name_{i}/conv/Conv" for i in range(3)]

    def save(name: str, scale: float) -> str:
        layers = tuple(
            Layer(id=i + 1, op_type="Conv", time_us=100 * (i + 1) * scale, full_name=n)
            for i, n in enumerate(names)
        )
        profile = Profile(
            source=SourceSpan(name, 1, 9),
            format="toolkit2-perf-table",
            layers=layers,
            platform="rk3588",
        )
        path = tmp_path / name
        path.write_text(json.dumps(report_to_dict(Report((profile,)))))
        return str(path)

    result = invoke("compare", save("a.json", 1.0), save("b.json", 1.2), env={"COLUMNS": "80"})
    rows = [line for line in result.stdout.splitlines() if "/conv/Conv" in line]
    assert len(rows) == 3  # one line per layer: nothing folded onto a second line
    assert all("…" in row and len(row) <= 80 for row in rows)
    assert not set("│┃┏┡") & set(result.stdout)  # the box style of analyze's tables


@pytest.mark.parametrize(
    ("fail_on", "code", "failures"), [("error", 1, "1"), ("warning", 1, "2"), ("never", 0, "0")]
)
def test_check_junit_agrees_with_the_exit_code(
    tmp_path, fail_on: str, code: int, failures: str
) -> None:
    # the sample's frame is 28,023 us and its one CPU layer is the Resize #60
    budgets = tmp_path / "b.yaml"
    budgets.write_text(
        "budgets:\n  - {metric: total_time_us, max: 25000}\n"
        "  - {metric: cpu_fallback_layers, max: 0, level: warn}\n"
    )
    result = invoke("check", SAMPLE, "--budgets", str(budgets), "-f", "junit", "--fail-on", fail_on)
    assert result.exit_code == code
    assert ET.fromstring(result.stdout).get("failures") == failures


@pytest.mark.parametrize(
    "head",
    [b"RKNN\x00\x00\x00\x06\x00\x00", bytes((i * 97) % 255 + 1 for i in range(300))],
    ids=["NUL bytes (a model file)", "control bytes, no UTF-8"],
)
def test_a_model_file_given_for_a_log_is_named_a_binary_file(tmp_path, head: bytes) -> None:
    """A newcomer passes the .rknn model instead of the log its run printed: one line says it is
    a binary file and what to give instead (exit 3), not "no RKNN profile data in 3 lines"."""
    model = tmp_path / "yolov5s.rknn"
    model.write_bytes(head + b"weights\n" * 40)
    result = invoke("analyze", str(model))
    assert result.exit_code == 3
    assert result.stderr.strip() == (
        f"Error: {model}: a binary file, not a log (control bytes at its start: an .rknn "
        "model?); rknnprof reads the text a run prints: eval_perf(), RKNN_LOG_LEVEL=4, "
        "adb logcat"
    )
    # a text log with a few control characters (a terminal capture) is still a text log
    text = tmp_path / "log.txt"
    text.write_bytes(b"\x1b[0mhello\x08 world\r\n" * 20)
    assert "no RKNN profile data in 20 line(s)" in invoke("analyze", str(text)).stderr


def test_an_eval_memory_report_alone_says_what_it_is(tmp_path) -> None:
    """toolkit2's eval_memory() dump (a public blog's yolov8n): memory, not time; exit 3 names it
    instead of "no RKNN profile data"."""
    dump = tmp_path / "mem.txt"
    dump.write_text(
        "=" * 54 + "\n            Memory Profile Info Dump\n" + "=" * 54 + "\n"
        "NPU model memory detail(bytes):\n    Weight Memory: 8.06 MiB\n"
        "    Internal Tensor Memory: 105.47 MiB\n    Total Memory: 117.25 MiB\n"
    )
    result = invoke("analyze", str(dump))
    assert result.exit_code == 3
    assert result.stderr.strip().endswith(
        ": an eval_memory report only (line 2), no per-layer table"
    )


def test_rules_takes_a_rules_name_and_check_names_its_own_formats(tmp_path) -> None:
    """`rknnprof rules` lists names beside codes, so a name is taken too; `check -o x.csv`
    says which formats check writes (csv is analyze's)."""
    result = invoke("rules", "activation-swap")
    assert result.exit_code == 0 and result.stdout.startswith("# activation-swap (RKN070, ")
    result = CliRunner().invoke(cli, ["check", SAMPLE, "-o", str(tmp_path / "c.csv")])
    assert result.exit_code == 2
    assert "(analyze's csv format, not one of check's: table, json, markdown, html, junit)" in (
        result.stderr
    )


def test_rules_wraps_to_the_terminal_and_not_when_piped() -> None:
    """On an 80-column terminal every line of `rknnprof rules` fits (summaries ran to 165
    characters); piped, each rule stays one line, for grep."""
    import os
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "80"}
    proc = subprocess.run(
        [sys.executable, "-m", "rknnprof", "rules"], stdout=slave, env=env, timeout=60
    )
    os.close(slave)
    lines = read_all(master).decode().replace("\r\n", "\n").splitlines()
    os.close(master)
    assert proc.returncode == 0 and lines[0].startswith("RKN001")
    assert max(len(line) for line in lines) <= 80
    assert len(lines) > len(RULES)  # some summaries wrapped under their column
    piped = invoke("rules").stdout.splitlines()
    assert [line.split()[0] for line in piped] == [rule.code for rule in RULES]


def test_formats_folds_long_detection_text_at_80_columns() -> None:
    """At 80 columns `rknnprof formats` cut cells (`'Cycles(DDR/NPU/Tota…`): the detection
    strings the command exists to show now fold onto the next line instead."""
    import re

    result = invoke("formats", env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    cut = set(re.findall(r"[A-Za-z]…", result.stdout)) - {"x…"}  # (`0x…` is the docs' own)
    assert not cut


def test_a_platform_the_log_contradicts_is_said(tmp_path) -> None:
    """``--platform rk3576`` on a log whose model names rk3588 (and whose WorkLoad shows three
    cores) was taken without a word: RKN030 then spoke of two cores, RKN040 of rebuilding."""
    result = invoke("analyze", SAMPLE, "--platform", "rk3576", "-f", "json")
    assert result.exit_code == 0
    assert (
        "--platform rk3576 overrides the log's own rk3588 (target platform: rk3588): its "
        "figures are judged by rk3576's"
    ) in result.stderr
    assert "overrides" not in invoke("analyze", SAMPLE, "--platform", "rk3588").stderr
    plain = tmp_path / "plain.txt"  # (a log that names no SoC: the option is all there is)
    plain.write_text(
        "\n".join(
            line for line in Path(SAMPLE).read_text().splitlines() if "rk3588" not in line.lower()
        )
    )
    said = invoke("analyze", str(plain), "--platform", "rk3576").stderr
    assert "overrides" not in said
    # (but its WorkLoad column prints 3 slots a row, RK3588's; RK3576 prints 2)
    assert (
        "--platform rk3576 has 2 NPU core(s), but the log's WorkLoad column shows 3 slots a row: "
        "the log looks like another SoC's, and the core advice would not fit it"
    ) in " ".join(said.split())
    assert "NPU core(s), but" not in invoke("analyze", str(plain), "--platform", "rk3588").stderr


def test_metric_without_model_explorer_is_said_to_be_ignored() -> None:
    """``--metric bound`` with the terminal report did nothing, without a word."""
    result = invoke("analyze", SAMPLE, "--metric", "bound", "-f", "json")
    assert result.exit_code == 0
    assert "--metric applies to -f model-explorer only: ignored for -f json" in result.stderr
    quiet = invoke("analyze", SAMPLE, "--metric", "bound", "-f", "model-explorer")
    assert "applies to -f model-explorer only" not in quiet.stderr


def test_the_two_totals_of_merged_frames_are_named() -> None:
    """``total 27.93 ms (log 27.91 ms)`` left a newcomer guessing which the gate judges: the
    sum of the per-layer medians, and the median frame's own total line (the three frames'
    total lines print 27,905, 27,777 and 28,003 us: median 27,905)."""
    result = invoke("analyze", FRAMES3, env={"COLUMNS": "200"})
    assert "total 27.93 ms (per-layer medians; median frame 27.91 ms)" in result.stdout
