"""The documents say what the code does (issue #25, docs drift): ``rknnprof formats``, docs/ci.md's
formats and exit codes, the README's HTML size figure, the severities ``rknnprof rules`` lists,
and the README saying near its top that the sample logs are synthetic and that the HTML tests
need Chromium."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from rknnprof import errors
from rknnprof.cli import cli
from rknnprof.model import Severity
from rknnprof.reporters.registry import FORMATS
from rknnprof.rules import RULES
from tests.conftest import CORPUS, REPO, SAMPLES

README = (REPO / "README.md").read_text(encoding="utf-8")
CI_DOC = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
ORDER = [Severity.INFO, Severity.WARNING, Severity.ERROR]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_formats_says_analyze_junit_has_one_case_per_rule() -> None:
    what = FORMATS["analyze"]["junit"].description
    assert "per rule" in what and "per finding" not in what
    rows = [line for line in invoke("formats").stdout.splitlines() if "│" in line]
    # the analyze junit row, its description column read down its wrapped lines
    start = next(i for i, line in enumerate(rows) if "analyze" in line and "junit" in line)
    cell = " ".join(rows[i].split("│")[-2].strip() for i in range(start, start + 4))
    assert "one test case per rule" in cell


def test_ci_doc_names_every_compare_and_check_format() -> None:
    compare = re.search(r"^Formats: (.*?)\n\n", CI_DOC, re.S | re.M).group(1)
    for name in FORMATS["compare"]:
        assert f"`{name}`" in compare, name
    outputs = CI_DOC.split("### Outputs for CI", 1)[1].split("\n* With", 1)[0]
    for name in FORMATS["check"]:
        assert f"-f {name}" in outputs, name


def test_ci_doc_exit_codes_are_every_code_rknnprof_exits_with() -> None:
    table = CI_DOC.split("## Exit codes", 1)[1]
    listed = {int(m) for m in re.findall(r"^\| (\d+) \|", table, re.M)}
    codes = {v for k, v in vars(errors).items() if k.startswith("EXIT_")}
    assert codes == {0, 1, 2, 3, 130, 141}  # what errors.py defines
    assert listed == codes


def test_ci_doc_shows_the_annotations_of_every_gate() -> None:
    assert "`analyze --fail-on LEVEL`" in CI_DOC and "`compare --fail-over PCT`" in CI_DOC
    assert "title=rknnprof compare --fail-over::" in CI_DOC


def test_rules_lists_rkn010_at_the_severity_it_reports() -> None:
    row = next(line for line in invoke("rules").stdout.splitlines() if line.startswith("RKN010"))
    assert row.split()[1] == "info"


@pytest.mark.parametrize(
    "log",
    [
        *sorted(SAMPLES.glob("*.txt")),
        *(sorted(CORPUS.glob("*.txt")) if CORPUS.is_dir() else []),
    ],
    ids=lambda p: p.name[:40],
)
def test_no_finding_is_above_the_severity_rules_lists(log) -> None:
    from rknnprof.api import analyze
    from rknnprof.errors import RknnprofError

    try:
        report = analyze([str(log)])
    except RknnprofError:
        pytest.skip(f"{log.name}: no profile")
    listed = {rule.code: rule.severity for rule in RULES}
    for profile in report.profiles:
        for finding in profile.findings:
            assert ORDER.index(finding.severity) <= ORDER.index(listed[finding.code]), finding


def test_readme_html_size_is_what_a_168_layer_report_weighs() -> None:
    log = CORPUS / "36_toolkit2-2.3.2-perfdetail_yolo26n_rk3588_core0_exSDPAttention.txt"
    if not log.is_file():
        pytest.skip(f"corpus log {log.name} is absent (set RKNNPROF_CORPUS)")
    kb, layers = map(int, re.search(r"~(\d+) KB for a (\d+)-layer model", README).groups())
    result = invoke("analyze", str(log), "-f", "html", "-q")
    import json

    count = json.loads(invoke("analyze", str(log), "-f", "json", "-q").stdout)["profiles"]
    assert sum(len(p["layers"]) for p in count) == layers
    size = len(result.stdout.encode()) / 1000
    assert abs(size - kb) / kb < 0.15, f"README says ~{kb} KB, the report is {size:.0f} KB"


def test_readme_says_near_the_top_that_the_samples_are_synthetic() -> None:
    top = README.split("## What you get", 1)[0]
    assert "sample_logs/" in top and "synthetic" in top


def test_readme_says_the_html_tests_need_chromium() -> None:
    top = README.split("## What you get", 1)[0]
    assert "Chromium" in top and "apt-get install chromium" in top


def test_readme_example_is_what_analyze_prints_now() -> None:
    """The README's "What you get" block is the report of its command at 100 columns, up to its
    closing ``…`` (regenerate it from the command when the report changes)."""
    command = "rknnprof analyze sample_logs/yolov5s_rk3588_perf.txt --top 5"
    shown = README.split(f"$ {command}\n", 1)[1].split("\n …\n", 1)[0]
    sample = str(SAMPLES / "yolov5s_rk3588_perf.txt")
    result = CliRunner().invoke(
        cli, ["analyze", sample, "--top", "5"], catch_exceptions=False, env={"COLUMNS": "100"}
    )
    assert result.exit_code == 0
    printed = result.stdout.replace(sample, command.split()[2])
    assert printed.startswith(shown + "\n"), "README example differs from the report"
