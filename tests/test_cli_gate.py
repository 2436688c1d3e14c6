"""`rknnprof compare` and `rknnprof check` end to end through ``cli.main`` (exit codes, stdout
vs stderr, JUnit, GitHub annotations and step summary, baselines)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET

import pytest

from rknnprof.cli import main
from rknnprof.model import Layer, Profile, Report, SourceSpan, Target
from rknnprof.saved import load_saved_report, report_to_dict


def L(id, op, t, name, target=Target.NPU, line=None):
    return Layer(
        id=id, op_type=op, time_us=t, full_name=name, target=target, data_type="INT8", line=line
    )


def P(*layers, path="run.txt"):
    return Profile(
        source=SourceSpan(path, 1, 9),
        format="toolkit2-perf-table",
        layers=tuple(layers),
        platform="rk3588",
    )


BASE = P(
    L(1, "InputOperator", 10, "InputOperator:images", Target.CPU),
    L(2, "ConvExSwish", 1000, "Conv:/model.0/conv/Conv"),
    L(3, "Softmax", 200, "Softmax:/model.22/Softmax"),
    L(4, "OutputOperator", 20, "OutputOperator:out", Target.CPU),
)
CURRENT = P(
    L(1, "InputOperator", 10, "InputOperator:images", Target.CPU),
    L(2, "ConvExSwish", 1100, "Conv:/model.0/conv/Conv"),
    L(3, "Softmax", 500, "Softmax:/model.22/Softmax", Target.CPU, line=7),
    L(4, "OutputOperator", 20, "OutputOperator:out", Target.CPU),
)
# totals 1230 -> 1630: +400 us, +32.5 %


def save(path, *profiles):
    path.write_text(json.dumps(report_to_dict(Report(tuple(profiles)))))
    return str(path)


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return {
        "base": save(tmp_path / "base.json", BASE),
        "cur": save(tmp_path / "cur.json", CURRENT),
        "dir": tmp_path,
    }


def run(capsys, monkeypatch, *args):
    """Run ``rknnprof ARGS`` through ``main()``: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["rknnprof", *args])
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def budgets(tmp_path, text, name="rknnprof.yaml"):
    (tmp_path / name).write_text(text)
    return str(tmp_path / name)


# ---- compare -----------------------------------------------------------------------------------


def test_compare_json(files, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "compare", files["base"], files["cur"], "-f", "json")
    assert code == 0 and err == ""
    comp = json.loads(out)["comparisons"][0]
    assert (comp["base_total_us"], comp["current_total_us"], comp["delta_us"]) == (1230, 1630, 400)
    assert [(d["name"], d["delta_us"]) for d in comp["layers"][:2]] == [
        ("Softmax:/model.22/Softmax", 300),
        ("Conv:/model.0/conv/Conv", 100),
    ]
    assert comp["target_changes"] == ["Softmax:/model.22/Softmax"]


def test_compare_self_is_zero(files, capsys, monkeypatch):
    code, out, _ = run(
        capsys,
        monkeypatch,
        "compare",
        files["base"],
        files["base"],
        "-f",
        "json",
        "--fail-over",
        "0",
    )
    assert code == 0
    comp = json.loads(out)["comparisons"][0]
    assert comp["delta_us"] == 0 and all(d["delta_us"] == 0 for d in comp["layers"])


def test_compare_fail_over(files, capsys, monkeypatch):
    code, _, err = run(
        capsys, monkeypatch, "compare", files["base"], files["cur"], "--fail-over", "30"
    )
    assert code == 1 and "+32.5%" in err
    code, out, _ = run(
        capsys, monkeypatch, "compare", files["base"], files["cur"], "--fail-over", "35"
    )
    assert code == 0 and "+400 us" in out


def test_compare_warns_when_not_like_for_like(files, capsys, monkeypatch, tmp_path):
    other = Profile(
        source=SourceSpan("x"), format="toolkit2-perf-table", layers=BASE.layers, platform="rk3566"
    )
    path = save(tmp_path / "other.json", other)
    code, out, err = run(capsys, monkeypatch, "compare", path, files["cur"], "-f", "markdown")
    assert code == 0
    assert "Warning: not like for like: platform: rk3566 vs rk3588" in err
    assert "platform: rk3566 vs rk3588" in out  # and in the report itself


def test_compare_output_file_picks_format(files, capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "compare", files["base"], files["cur"], "-o", "d.csv")
    assert code == 0 and out == ""
    assert (files["dir"] / "d.csv").read_text().startswith("model,name,op_type,status")


def test_compare_corrupt_json_is_one_line_error(files, capsys, monkeypatch):
    (files["dir"] / "bad.json").write_text('{"schema_version": 1, "profiles": [')
    code, out, err = run(capsys, monkeypatch, "compare", "bad.json", files["cur"])
    assert code == 2 and out == ""
    assert err.startswith("Error: bad.json:1: not a valid JSON report") and err.count("\n") == 1
    (files["dir"] / "v9.json").write_text('{"schema_version": 9, "profiles": []}')
    code, _, err = run(capsys, monkeypatch, "compare", "v9.json", files["cur"])
    assert code == 2 and "unsupported schema_version 9" in err


# ---- check -------------------------------------------------------------------------------------

GATE = """\
budgets:
  - {metric: total_time_us, max: 5000, level: error}
  - {metric: total_time_us, max_increase: 10%, min_delta: 100, level: error}
  - {metric: cpu_fallback_layers, max: 0, level: error}
  - {metric: layer_time_us, match: "Conv:*", max_increase: 5%, level: warn}
"""


def test_check_fails_and_names_fallback(files, capsys, monkeypatch):
    path = budgets(files["dir"], GATE)
    code, out, err = run(
        capsys,
        monkeypatch,
        "check",
        files["cur"],
        "--budgets",
        path,
        "--baseline",
        files["base"],
        "-f",
        "json",
    )
    assert code == 1
    data = json.loads(out)
    assert [v["status"] for v in data["verdicts"]] == ["pass", "fail", "fail", "warn"]
    assert "CPU fallback introduced: Softmax:/model.22/Softmax" in data["verdicts"][2]["message"]
    assert data["overall"] == "fail"


def test_check_passes_against_itself(files, capsys, monkeypatch):
    path = budgets(files["dir"], GATE.replace("max: 0", "max: 5"))
    code, out, _ = run(
        capsys, monkeypatch, "check", files["cur"], "--budgets", path, "--baseline", files["cur"]
    )
    assert code == 0 and "PASS" in out


def test_check_warn_only_exits_zero_unless_fail_on_warn(files, capsys, monkeypatch):
    path = budgets(files["dir"], "budgets:\n  - {metric: total_time_us, max: 1, level: warn}\n")
    assert run(capsys, monkeypatch, "check", files["cur"], "--budgets", path)[0] == 0
    assert (
        run(capsys, monkeypatch, "check", files["cur"], "--budgets", path, "--fail-on", "warn")[0]
        == 1
    )


def test_check_missing_baseline_is_inconclusive(files, capsys, monkeypatch):
    path = budgets(
        files["dir"],
        "baseline: nowhere.json\nbudgets:\n  - {metric: total_time_us, max_increase: 5%}\n",
    )
    code, out, err = run(
        capsys, monkeypatch, "check", files["cur"], "--budgets", path, "-f", "json"
    )
    assert code == 0
    assert json.loads(out)["verdicts"][0]["status"] == "inconclusive"
    assert "nowhere.json not found" in err


def test_check_bad_budgets_exit_2(files, capsys, monkeypatch):
    path = budgets(
        files["dir"], "budgets:\n  - metric: total_time_us\n    max: 5\n    level: sometimes\n"
    )
    code, out, err = run(capsys, monkeypatch, "check", files["cur"], "--budgets", path)
    assert code == 2 and out == ""
    assert err == (
        f"Error: {path}:4: budgets[0].level: expected error or warn (or warning), got 'sometimes'\n"
    )


def test_check_discovers_rknnprof_yaml(files, capsys, monkeypatch):
    budgets(files["dir"], "budgets:\n  - {metric: total_time_us, max: 1}\n")
    assert run(capsys, monkeypatch, "check", files["cur"])[0] == 1
    (files["dir"] / "rknnprof.yaml").unlink()
    code, _, err = run(capsys, monkeypatch, "check", files["cur"])
    assert code == 2 and "no --budgets" in err


def test_check_junit_is_valid_xml(files, capsys, monkeypatch):
    path = budgets(files["dir"], GATE + "  - {metric: frame_time_p50_us, max: 1}\n")
    code, out, _ = run(
        capsys,
        monkeypatch,
        "check",
        files["cur"],
        "--budgets",
        path,
        "--baseline",
        files["base"],
        "-f",
        "junit",
    )
    assert code == 1
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("5", "2", None)
    assert root.find("testsuite").get("skipped") == "1"  # junit-10.xsd: on suites only
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 5
    assert cases[2].find("failure") is not None
    assert "Softmax:/model.22/Softmax" in cases[2].find("failure").get("message")
    assert cases[4].find("skipped") is not None
    assert cases[0].find("failure") is None


def test_github_annotations_and_summary(files, capsys, monkeypatch):
    path = budgets(files["dir"], GATE)
    summary = files["dir"] / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, err = run(
        capsys, monkeypatch, "check", files["cur"], "--budgets", path, "--baseline", files["base"]
    )
    assert code == 1
    errors = [x for x in out.splitlines() if x.startswith("::error ")]
    warnings = [x for x in out.splitlines() if x.startswith("::warning ")]
    assert len(errors) == 2 and len(warnings) == 1
    fallback = next(x for x in errors if "Softmax" in x)
    # ':' and ',' are escaped in properties; the layer's row is the annotation's line
    assert fallback.startswith(
        "::error file=run.txt,line=7,title=rknnprof budget cpu_fallback_layers max 0::"
    )
    # a whole-run budget names the log (no line); it named nothing before
    whole = next(x for x in errors if "Softmax" not in x)
    assert whole.startswith("::error file=run.txt,title=rknnprof budget ")
    text = summary.read_text()
    assert text.startswith("earlier step\n## rknnprof check: ❌ fail")
    assert "| ❌ fail |" in text and "<details>" in text
    # the job fails (exit 1): the summary says the gate it applied, never "the gate passes"
    heading = text.splitlines()[1]
    assert "gate passes" not in heading and "--fail-on never" not in heading, heading
    # JSON on stdout stays clean: annotations go to stderr then
    code, out, err = run(
        capsys,
        monkeypatch,
        "check",
        files["cur"],
        "--budgets",
        path,
        "--baseline",
        files["base"],
        "-f",
        "json",
        "--no-summary",
    )
    json.loads(out)
    assert "::error " in err


def test_a_warn_budget_that_fails_the_gate_is_an_error(files, capsys, monkeypatch):
    """Under --fail-on warning a warn-level budget fails the gate (exit 1): its annotation is
    ``::error`` (it was a ``::warning``, the failing budget without an error)."""
    path = budgets(files["dir"], "budgets:\n  - {metric: total_time_us, max: 1, level: warn}\n")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, _ = run(
        capsys, monkeypatch, "check", files["cur"], "--budgets", path, "--fail-on", "warning"
    )
    assert code == 1
    assert [
        x.split(" ", 1)[0] for x in out.splitlines() if x.startswith("::") and "budget" in x
    ] == ["::error"]
    code, out, _ = run(capsys, monkeypatch, "check", files["cur"], "--budgets", path)
    assert code == 0
    assert [
        x.split(" ", 1)[0] for x in out.splitlines() if x.startswith("::") and "budget" in x
    ] == ["::warning"]


def test_fail_on_inconclusive_says_the_gate_fails(files, capsys, monkeypatch):
    """Under --fail-on-inconclusive an inconclusive gate exits 1: the verdict line says so (it
    read 'INCONCLUSIVE' only)."""
    path = budgets(files["dir"], "budgets:\n  - {metric: total_time_us, max_increase: 5%}\n")
    code, out, _ = run(
        capsys, monkeypatch, "check", files["cur"], "--budgets", path, "--fail-on-inconclusive"
    )
    assert code == 1
    assert (
        "INCONCLUSIVE: 0 pass, 0 warn, 0 fail, 1 inconclusive (the gate fails: --fail-on-inconclusive)"
        in " ".join(out.split())
    )


def test_the_verdict_line_and_json_say_what_fail_on_does(files, capsys, monkeypatch):
    """A warn verdict under --fail-on warning exits 1 and a failed one under --fail-on never
    exits 0: the headline said WARN / FAIL with no word, and the JSON had no field for it."""
    import json

    path = budgets(files["dir"], "budgets:\n  - {metric: total_time_us, max: 1, level: warn}\n")
    code, out, _ = run(
        capsys, monkeypatch, "check", files["cur"], "--budgets", path, "--fail-on", "warning"
    )
    assert code == 1
    assert out.rstrip().endswith(
        "WARN: 0 pass, 1 warn, 0 fail, 0 inconclusive (the gate fails: --fail-on warning)"
    )
    code, out, _ = run(
        capsys, monkeypatch, "check", files["cur"], "--budgets", path, "--fail-on", "warning",
        "-f", "json",
    )  # fmt: skip
    assert code == 1
    report = json.loads(out)
    assert report["overall"] == "warn" and report["gate_fails"] is True
    path = budgets(files["dir"], "budgets:\n  - {metric: total_time_us, max: 1}\n")
    code, out, _ = run(
        capsys, monkeypatch, "check", files["cur"], "--budgets", path, "--fail-on", "never",
        "-f", "markdown",
    )  # fmt: skip
    assert code == 0
    assert "1 fail, 0 inconclusive (the gate passes: --fail-on never)" in out
    assert out.startswith("## rknnprof check: ❌ fail (the gate passes: --fail-on never)")


def test_annotations_are_capped(files, capsys, monkeypatch):
    many = "budgets:\n" + "".join(f"  - {{metric: total_time_us, max: {k}}}\n" for k in range(12))
    path = budgets(files["dir"], many)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    _, out, _ = run(capsys, monkeypatch, "check", files["cur"], "--budgets", path)
    assert sum(x.startswith("::error ") for x in out.splitlines()) == 10
    assert "::notice title=rknnprof::2 more errors not annotated" in out


def test_no_annotations_outside_actions(files, capsys, monkeypatch):
    path = budgets(files["dir"], GATE)
    _, out, err = run(capsys, monkeypatch, "check", files["cur"], "--budgets", path)
    assert "::error" not in out + err


def test_save_baseline_round_trip(files, capsys, monkeypatch):
    path = budgets(files["dir"], "budgets:\n  - {metric: total_time_us, max_increase: 5%}\n")
    code, _, _ = run(
        capsys,
        monkeypatch,
        "check",
        files["cur"],
        "--budgets",
        path,
        "--save-baseline",
        "new-base.json",
    )
    assert code == 0
    saved = load_saved_report(files["dir"] / "new-base.json")
    assert saved.profiles == (CURRENT,)
    code, out, _ = run(
        capsys,
        monkeypatch,
        "check",
        files["cur"],
        "--budgets",
        path,
        "--baseline",
        "new-base.json",
        "-f",
        "json",
    )
    assert json.loads(out)["verdicts"][0]["status"] == "pass"


# ---- real corpus logs (need the parsers: skipped until rknnprof.api exists) -------------------


def edited_07(tmp_path, corpus_07):
    """Corpus 07 with three hand edits (widths kept): layer 2 Conv 810 -> 910 us (+100),
    layer 3 ConvExSwish 1814 -> 1714 us (-100), layer 9 Add 120 -> 420 us (+300) and NPU -> CPU.
    Base total 14478 (the log's own total = sum of Time(us)); edited total 14778 (+300). The
    ranking table after it is dropped: the edited layers would disagree with it, and the gate
    rightly leaves a damaged table's budgets inconclusive (issue 22)."""
    lines = corpus_07.read_text(encoding="utf-8").splitlines(keepends=True)
    edits = {
        "2    Conv ": [("     810          ", "     910          ")],
        "3    ConvExSwish ": [("     1814         ", "     1714         ")],
        "9    Add ": [
            ("INT8     NPU ", "INT8     CPU "),
            ("     120          ", "     420          "),
            ("100.0%/0.0%/0.0%     800", "0.0%/0.0%/0.0%       800"),
        ],
    }
    done = 0
    for k, line in enumerate(lines):
        for prefix, subs in edits.items():
            if line.startswith(prefix):
                for old, new in subs:
                    assert line.count(old) == 1, (prefix, old)
                    line = line.replace(old, new)
                lines[k] = line
                done += 1
        if line.startswith("Total Operator Elapsed Per Frame Time(us): 14478"):
            lines[k] = line.replace("14478", "14778")
    assert done == 3
    title = next(k for k, line in enumerate(lines) if "Operator Time Consuming Ranking" in line)
    lines = lines[: title - 1]  # from the rule above the ranking's title
    out = tmp_path / "07_edited.txt"
    out.write_text("".join(lines), encoding="utf-8")
    return str(out)


@pytest.fixture
def real_logs(tmp_path, monkeypatch):
    from conftest import corpus_file

    monkeypatch.chdir(tmp_path)
    base = corpus_file("07_")
    return str(base), edited_07(tmp_path, base)


def test_compare_real_log_hand_deltas(real_logs, capsys, monkeypatch):
    base, cur = real_logs
    code, out, _ = run(capsys, monkeypatch, "compare", base, cur, "-f", "json")
    assert code == 0
    comp = json.loads(out)["comparisons"][0]
    assert (comp["base_total_us"], comp["current_total_us"]) == (14478, 14778)
    assert comp["delta_us"] == 300
    assert comp["delta_pct"] == pytest.approx(300 / 14478 * 100)
    layers = {d["name"]: d for d in comp["layers"]}
    assert len(layers) == 93 and not comp["added"] and not comp["removed"]
    assert layers["Conv:/model.0/convsp/Conv"]["delta_us"] == 100
    assert layers["Conv:/model.0/conv/conv/Conv"]["delta_us"] == -100
    add = layers["Add:/model.2/m/m.0/Add"]
    assert (add["delta_us"], add["base_target"], add["current_target"]) == (300, "NPU", "CPU")
    assert add["delta_pct"] == pytest.approx(250.0)
    assert comp["layers"][0]["name"] == "Add:/model.2/m/m.0/Add"
    assert comp["target_changes"] == ["Add:/model.2/m/m.0/Add"]
    assert sum(1 for d in comp["layers"] if d["delta_us"] != 0) == 3
    ops = {o["op_type"]: o for o in comp["op_types"]}
    assert ops["Add"]["delta_us"] == 300 and ops["Conv"]["delta_us"] == 100


def test_compare_real_log_with_itself(real_logs, capsys, monkeypatch):
    base, _ = real_logs
    code, out, err = run(
        capsys, monkeypatch, "compare", base, base, "-f", "json", "--fail-over", "0"
    )
    assert code == 0 and "not like for like" not in err
    comp = json.loads(out)["comparisons"][0]
    assert comp["delta_us"] == 0 and all(d["delta_us"] == 0 for d in comp["layers"])


def test_compare_different_models(real_logs, capsys, monkeypatch):
    from conftest import corpus_file

    code, out, err = run(
        capsys, monkeypatch, "compare", real_logs[0], str(corpus_file("36_")), "-f", "json"
    )
    assert code == 0
    assert "of 168 align by FullName or shapes (different models?)" in err
    comp = json.loads(out)["comparisons"][0]
    # 07 yolov5n: 14478 us over 93 rows; 36 yolo26n: 20344 us over 168 rows
    assert (comp["base_total_us"], comp["current_total_us"], comp["delta_us"]) == (
        14478,
        20344,
        5866,
    )
    matched = sum(1 for d in comp["layers"] if d["status"] == "matched")
    assert matched + len(comp["removed"]) == 93 and matched + len(comp["added"]) == 168


def test_compare_ranking_only_logs(real_logs, capsys, monkeypatch):
    from conftest import corpus_file

    code, out, _ = run(
        capsys,
        monkeypatch,
        "compare",
        str(corpus_file("27_")),
        str(corpus_file("28_")),
        "-f",
        "json",
    )
    assert code == 0
    comp = json.loads(out)["comparisons"][0]
    assert (comp["base_total_us"], comp["current_total_us"]) == (183003, 13578)
    ops = {o["op_type"]: o for o in comp["op_types"]}
    assert ops["Resize"]["delta_us"] == 372 - 23583
    assert (ops["Resize"]["base_calls"], ops["Resize"]["current_calls"]) == (3, 2)
    assert ops["BatchNormalization"]["base_calls"] == 0
    assert ops["Transpose"]["current_time_us"] == 0


def test_check_real_log_against_baseline(real_logs, capsys, monkeypatch, tmp_path):
    base, cur = real_logs
    path = budgets(
        tmp_path,
        """\
budgets:
  - {metric: total_time_us, max_increase: 5%}                  # +2.07 %: pass
  - {metric: total_time_us, max_increase: 1%, min_delta: 500}  # +300 us under the floor: pass
  - {metric: total_time_us, max_increase: 1%, level: warn}     # warn
  - {metric: npu_time_us, max: 14250}                          # 14370 + 100 - 100 - 120: pass
  - {metric: cpu_time_us, max: 527}                            # 108 + 420 = 528: fail
  - {metric: cpu_fallback_layers, max: 0}                      # Add moved to the CPU: fail
  - {metric: frame_time_p50_us, max: 1}                        # one frame: inconclusive
""",
    )
    code, out, _ = run(
        capsys, monkeypatch, "check", cur, "--budgets", path, "--baseline", base, "-f", "json"
    )
    assert code == 1
    verdicts = json.loads(out)["verdicts"]
    assert [v["status"] for v in verdicts] == [
        "pass",
        "pass",
        "warn",
        "pass",
        "fail",
        "fail",
        "inconclusive",
    ]
    assert verdicts[4]["value"] == 528
    assert "CPU fallback introduced: Add:/model.2/m/m.0/Add" in verdicts[5]["message"]
    # the unedited log passes its own cpu_fallback budget (only Input/OutputOperator on CPU)
    code, out, _ = run(
        capsys, monkeypatch, "check", base, "--budgets", path, "--baseline", base, "-f", "json"
    )
    assert json.loads(out)["verdicts"][5]["status"] == "pass"


def test_real_log_report_round_trip(real_logs, tmp_path):
    from rknnprof.api import analyze
    from rknnprof.cli.output import save_report

    report = analyze([real_logs[0]])
    save_report(report, str(tmp_path / "r.json"))
    loaded = load_saved_report(tmp_path / "r.json")
    assert loaded.profiles == report.profiles
    assert len(loaded.profiles[0].layers) == 93


def test_analyze_junit_reporter_findings_as_cases():
    import io

    from rknnprof.model import Finding, Severity
    from rknnprof.reporters import for_suffix, get_reporter
    from rknnprof.reporters.base import RenderOptions
    from rknnprof.rules import RULES

    profile = Profile(
        source=SourceSpan("log.txt"),
        format="f",
        findings=(
            Finding(
                "RKN001",
                "cpu-fallback",
                Severity.ERROR,
                "3 layers <on> CPU & \x01slow",
                "fix it",
                (38, 44),
            ),
            Finding("RKN020", "align", Severity.WARNING, "channels not aligned", "pad"),
        ),
    )
    out = io.StringIO()
    assert for_suffix("x.xml") == "junit"
    get_reporter("junit").render(Report((profile, BASE)), out, RenderOptions(fail_on="error"))
    root = ET.fromstring(out.getvalue())
    rules = len(RULES)
    assert (root.get("tests"), root.get("failures")) == (str(2 * rules), "1")
    suites = root.findall("testsuite")
    assert len(suites) == 2
    [failed] = [c for c in suites[0].findall("testcase") if c.find("failure") is not None]
    assert failed.get("name") == "RKN001 cpu-fallback" and failed.get("classname") == "log_txt#1"
    failure = failed.find("failure")
    # (XML escaping for <, > and &; the control character shown as an escape, as on a terminal)
    assert failure.get("message") == "3 layers <on> CPU & \\x01slow"
    assert failure.get("type") == "RKN001"
    # the warning passes, its message kept; the second model has every rule passing
    [align] = [c for c in suites[0].findall("testcase") if c.get("name").startswith("RKN020 ")]
    assert "channels not aligned" in align.find("system-out").text
    assert not suites[1].findall("testcase/failure")


def test_table_shows_brackets_literally(files, capsys, monkeypatch):
    # rich markup must not swallow "[warning]" in labels or "[0]" in layer names
    path = budgets(files["dir"], "budgets:\n  - {metric: findings, severity: warning, max: 0}\n")
    _, out, _ = run(capsys, monkeypatch, "check", files["cur"], "--budgets", path)
    assert "findings[warning] max 0" in out
    odd = P(L(1, "Conv", 5, "Conv:/blocks[0]/conv"))
    a = save(files["dir"] / "a.json", odd)
    b = save(files["dir"] / "b.json", P(L(1, "Conv", 6, "Conv:/blocks[0]/conv")))
    _, out, _ = run(capsys, monkeypatch, "compare", a, b)
    assert "Conv:/blocks[0]/conv" in out


def test_check_frame_percentiles_on_repeated_tables(real_logs, capsys, monkeypatch, tmp_path):
    """Corpus 07's table three times (one per inference), layer 2 at 810, 910 and 1010 us:
    frame totals 14478, 14578, 14678 -> p50 14578, p90 14578 + 0.8 * 100 = 14658."""
    from conftest import corpus_file

    text = corpus_file("07_").read_text(encoding="utf-8")
    row = next(x for x in text.splitlines() if x.startswith("2    Conv "))
    frames = []
    for t, total in (("810", "14478"), ("910", "14578"), ("1010", "14678")):
        new_row = row.replace("     810          ", f"     {t:<13}")
        assert len(new_row) == len(row)
        frames.append(
            text.replace(row, new_row).replace(
                "Elapsed Per Frame Time(us): 14478", f"Elapsed Per Frame Time(us): {total}"
            )
        )
    log = tmp_path / "frames.txt"
    log.write_text("\n".join(frames), encoding="utf-8")
    path = budgets(
        tmp_path,
        "budgets:\n  - {metric: frame_time_p50_us, max: 14578}\n"
        "  - {metric: frame_time_p90_us, max: 14657}\n"
        "  - {metric: total_time_us, max: 14578}\n",
    )
    code, out, _ = run(capsys, monkeypatch, "check", str(log), "--budgets", path, "-f", "json")
    verdicts = json.loads(out)["verdicts"]
    assert [v["value"] for v in verdicts] == [14578, pytest.approx(14658), 14578]
    assert [v["status"] for v in verdicts] == ["pass", "fail", "pass"]
    assert code == 1


def test_compare_appends_step_summary(files, capsys, monkeypatch):
    summary = files["dir"] / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, _ = run(capsys, monkeypatch, "compare", files["base"], files["cur"], "-f", "json")
    assert code == 0 and json.loads(out)
    text = summary.read_text()
    assert text.startswith("## rknnprof compare") and "| `Softmax:/model.22/Softmax` |" in text
    run(capsys, monkeypatch, "compare", files["base"], files["cur"], "--no-summary")
    assert summary.read_text() == text


def test_a_cpu_fallback_budget_names_the_layers_it_counted(tmp_path, capsys, monkeypatch):
    """The bundled sample runs one layer on the CPU besides its I/O: row 60, Resize
    ``Resize:/model.15/Resize`` (Target CPU). A max of 0 fails and says which layer, without a
    baseline (the message read only ``cpu_fallback_layers = 1: over max 0``)."""
    from pathlib import Path

    sample = Path(__file__).resolve().parents[1] / "sample_logs" / "yolov5s_rk3588_perf.txt"
    path = budgets(tmp_path, "budgets:\n  - metric: cpu_fallback_layers\n    max: 0\n")
    code, out, _ = run(capsys, monkeypatch, "check", str(sample), "--budgets", path, "-f", "json")
    assert code == 1
    [verdict] = json.loads(out)["verdicts"]
    assert verdict["message"] == "cpu_fallback_layers = 1: over max 0 (Resize:/model.15/Resize)"


def test_the_budget_column_gives_a_time_its_unit(tmp_path, capsys, monkeypatch):
    """The check table showed 'max 30,000' (us, no unit) beside results in ms; the JSON label,
    JUnit's test name, stays as it was."""
    from pathlib import Path

    from tests.hostile.helpers import run

    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "yolov5s_rk3588_perf.txt"
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max: 30000\n")
    code, out, _ = run(capsys, monkeypatch, "check", str(sample), "--budgets", str(budgets))
    assert code == 0 and "total_time_us max 30,000 us" in out
    code, out, _ = run(
        capsys, monkeypatch, "check", str(sample), "--budgets", str(budgets), "-f", "json"
    )
    [verdict] = json.loads(out)["verdicts"]
    assert verdict["budget"]["label"] == "total_time_us max 30,000"
