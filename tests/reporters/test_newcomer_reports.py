"""Markdown that GitHub shows as written, and JUnit that CI schemas accept (issue #13 defects 11
and 12)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from rknnprof.cli import cli
from rknnprof.reporters.markdown import bar, no_autolink
from tests.conftest import SAMPLES, corpus_file

SAMPLE = str(SAMPLES / "yolov5s_rk3588_perf.txt")


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


# -- Markdown --------------------------------------------------------------------------------
def test_layer_ids_and_upstream_issues_are_not_autolinked() -> None:
    assert no_autolink("largest #88 Concat (#514)") == "largest #&#8203;88 Concat (#&#8203;514)"
    # a qualified reference names its repository and may stay a link; ids inside names too
    assert no_autolink("airockchip/rknn-toolkit2#514") == "airockchip/rknn-toolkit2#514"
    assert no_autolink("node_matmul_1#1_2sdpa") == "node_matmul_1#1_2sdpa"


def test_markdown_report_has_no_bare_issue_references() -> None:
    from markdown_it import MarkdownIt

    text = _run("analyze", str(corpus_file("36_")), "-f", "markdown")
    html = MarkdownIt("commonmark").enable("table").render(text)
    visible = re.sub(r"<code>.*?</code>|<[^>]+>", " ", html)
    # corpus 36's advice names layers by id (#63 exSDPAttention): GitHub would link #63
    assert "#\u200b63" in visible
    assert re.findall(r"(?<![\w/])#\d", visible) == []


def test_bars_tell_0_percent_from_1_percent() -> None:
    largest = 0.215  # the sample's #2 ConvExSwish, 6030 of 28023 us
    assert bar(0.0003, largest) == ""  # prints as 0.0%
    assert bar(0.010, largest) == "▌"  # 1.0%: 10 cells x 8 x 0.010 / 0.215 = 3.7 -> 4 eighths
    assert bar(0.0006, largest) == "▏"  # 0.1%: at least one eighth
    assert bar(largest, largest) == "█" * 10


# -- JUnit against junit-10.xsd (the schema pytest and Jenkins validate with) -----------------
SCHEMA = {
    # element: (required attributes, allowed attributes, allowed children)
    "testsuites": (set(), {"name", "time", "tests", "failures", "errors"}, {"testsuite"}),
    "testsuite": (
        {"name", "tests", "failures", "errors"},
        {
            "name",
            "tests",
            "failures",
            "errors",
            "group",
            "time",
            "skipped",
            "timestamp",
            "hostname",
            "id",
            "package",
            "file",
            "log",
            "url",
            "version",
        },
        {"testsuite", "properties", "testcase", "system-out", "system-err"},
    ),
    "testcase": (
        {"name"},
        {"name", "time", "classname", "group"},
        {"skipped", "errors", "failure", "system-out", "system-err"},
    ),
    "failure": (set(), {"type", "message"}, set()),
    "skipped": (set(), {"type", "message"}, set()),
    "system-out": (set(), set(), set()),
}
"""Read off junit-10.xsd: what each element may carry."""
TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]{0,3})?")


def schema_errors(root: ET.Element) -> list[str]:
    errors = []
    for element in root.iter():
        required, allowed, children = SCHEMA[element.tag]
        attrs = set(element.attrib)
        errors += [f"{element.tag} lacks {a}" for a in required - attrs]
        errors += [f"{element.tag} may not carry {a}" for a in attrs - allowed]
        errors += [f"{element.tag} may not hold {c.tag}" for c in element if c.tag not in children]
        if element.tag in ("testsuites", "testsuite") and "time" in attrs:
            if not TIME.fullmatch(element.get("time")):
                errors.append(f"{element.tag} time {element.get('time')!r}")
    return errors


def _check_junit(tmp_path) -> ET.Element:
    budgets = tmp_path / "b.yaml"
    budgets.write_text(
        "budgets:\n  - {metric: total_time_us, max: 1}\n"
        "  - {metric: total_time_us, max_increase: 5%}\n"
        "  - {metric: cpu_fallback_layers, max: 5, level: warn}\n"
    )
    return ET.fromstring(_run("check", SAMPLE, "--budgets", str(budgets), "-f", "junit"))


@pytest.mark.parametrize("command", ["analyze", "check"])
def test_junit_is_valid_against_junit_10_xsd(tmp_path, command: str) -> None:
    if command == "analyze":
        root = ET.fromstring(_run("analyze", SAMPLE, "-f", "junit", "--fail-on", "warning"))
    else:
        root = _check_junit(tmp_path)
        # the relative budget has no baseline: skipped, counted on its suite only
        assert root.find("testsuite").get("skipped") == "1"
    assert schema_errors(root) == []


def test_junit_classnames_have_no_dot_for_jenkins_to_split(tmp_path) -> None:
    for root in (ET.fromstring(_run("analyze", SAMPLE, "-f", "junit")), _check_junit(tmp_path)):
        names = {case.get("classname") for case in root.iter("testcase")}
        assert names and not [n for n in names if "." in n], names


def test_junit_test_names_do_not_change_with_the_run() -> None:
    # one frame against three frames of the same model: different findings and layer lists,
    # the same test cases (one per rule)
    one = ET.fromstring(_run("analyze", SAMPLE, "-f", "junit"))
    three = ET.fromstring(
        _run("analyze", str(SAMPLES / "yolov5s_rk3588_loglevel4_3frames.txt"), "-f", "junit")
    )
    names = [[c.get("name") for c in root.iter("testcase")] for root in (one, three)]
    assert names[0] == names[1] and "RKN001 cpu-fallback" in names[0]
    assert not [n for n in names[0] if re.search(r"\d+,\d+|layers", n)]
