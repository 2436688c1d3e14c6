"""The output-format registry, exhaustively (in the spirit of pip-audit's format test): every
format of every command is reachable by ``--format NAME`` and by an ``-o`` suffix and renders;
every suffix maps to one format; an ``-o`` suffix a command has no format for is exit 2.

The inputs are the bundled sample log (compare: against itself; check: one budget the 28.02 ms
frame passes), so each format is driven end to end through the real CLI."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from rknnprof.cli import cli
from rknnprof.reporters.registry import _ALL, COMMANDS, FORMATS, for_suffix, suffix_map

LOG = str(Path(__file__).resolve().parents[2] / "sample_logs" / "yolov5s_rk3588_perf.txt")
BUDGETS = "budgets:\n  - {metric: total_time_us, max: 30000, level: error}\n"
"""The sample's frame is 28,023 us (``Total Operator Elapsed Per Frame Time(us): 28023``): this
budget passes."""

CASES = [(f.command, f.name) for f in _ALL]


def _args(command: str, tmp_path: Path) -> list[str]:
    if command == "analyze":
        return ["analyze", LOG]
    if command == "compare":
        return ["compare", LOG, LOG, "--no-summary"]
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text(BUDGETS)
    return ["check", LOG, "--budgets", str(budgets), "--no-summary"]


def _run(args: list[str]):
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_every_command_has_a_table_and_machine_formats():
    assert set(FORMATS) == set(COMMANDS) == {"analyze", "compare", "check"}
    for command in COMMANDS:
        assert {"table", "json", "markdown", "html"} <= set(FORMATS[command]), command
    assert "junit" in FORMATS["check"] and "junit" in FORMATS["analyze"]


def test_each_suffix_maps_to_one_format_per_command():
    for command in COMMANDS:
        declared = [s for f in FORMATS[command].values() for s in f.suffixes]
        assert len(declared) == len(set(declared)), f"{command}: a suffix names two formats"
        assert all(s.startswith(".") and s == s.lower() for s in declared), command
        for name, fmt in FORMATS[command].items():
            assert fmt.suffixes, f"{command} {name}: no -o suffix reaches it"
            for suffix in fmt.suffixes:
                assert for_suffix(f"out/report{suffix}", command) == name
                assert for_suffix(f"REPORT{suffix.upper()}", command) == name
        assert set(suffix_map(command).values()) == set(FORMATS[command])


def test_format_choices_are_the_registry():
    for command in COMMANDS:
        params = {p.name: p for p in cli.commands[command].params}
        assert list(params["fmt"].type.choices) == list(FORMATS[command]), command


@pytest.mark.parametrize(("command", "name"), CASES, ids=[f"{c}-{n}" for c, n in CASES])
def test_reachable_by_name_and_by_suffix(command, name, tmp_path):
    """``-f NAME -o file`` and ``-o file.SUFFIX`` (every suffix) write the same report."""
    fmt = FORMATS[command][name]
    assert callable(fmt.renderer())
    by_name = tmp_path / "by_name.out"
    result = _run([*_args(command, tmp_path), "-f", name, "-o", str(by_name)])
    assert result.exit_code == 0, result.output
    text = by_name.read_text(encoding="utf-8")
    assert text.strip()
    for suffix in fmt.suffixes:
        target = tmp_path / f"by_suffix{suffix}"
        result = _run([*_args(command, tmp_path), "-o", str(target)])
        assert result.exit_code == 0, (suffix, result.output)
        assert target.read_text(encoding="utf-8") == text, suffix
    _looks_like(name, text)


def _looks_like(name: str, text: str) -> None:
    """Each format is what its name says (a table where HTML was asked for is the bug)."""
    if name in ("json", "trace"):
        json.loads(text)
    elif name in ("junit",):
        assert ET.fromstring(text).tag in ("testsuites", "testsuite")
    elif name == "html":
        assert text.lstrip().lower().startswith("<!doctype html>") and "</html>" in text
    elif name == "markdown":
        assert text.startswith("#") or "|---" in text
    elif name == "csv":
        assert "," in text.splitlines()[0]


# ---- issue 13 defect 2: compare and check no longer write a table under any name ------------


@pytest.mark.parametrize(
    ("command", "suffix"),
    [
        ("compare", ".pdf"),
        ("compare", ".json5"),
        ("compare", ".trace"),
        ("compare", ""),
        ("check", ".csv"),
        ("check", ".pdf"),
        ("check", ".trace"),
        ("analyze", ".pdf"),
    ],
)
def test_unknown_suffix_is_a_usage_error(command, suffix, tmp_path):
    target = tmp_path / f"out{suffix}"
    result = CliRunner().invoke(cli, [*_args(command, tmp_path), "-o", str(target)])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and "cannot tell the format" in errors[0], result.output
    assert not target.exists()


@pytest.mark.parametrize("command", ["compare", "check"])
def test_html_is_a_page_not_the_table(command, tmp_path):
    target = tmp_path / "out.html"
    result = _run([*_args(command, tmp_path), "-o", str(target)])
    assert result.exit_code == 0, result.output
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "┃" not in page and "│" not in page
    if command == "compare":  # the log against itself: its "Per Frame Time(us): 28023" both sides
        assert "total 28.02 ms → 28.02 ms (+0 us, +0.0%)" in page
    else:
        assert 'rknnprof check: <span class="pass">pass</span>' in page
        assert "total_time_us" in page


def test_check_junit_from_the_xml_suffix(tmp_path):
    target = tmp_path / "check.xml"
    result = _run([*_args("check", tmp_path), "-o", str(target)])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert root.get("failures") in ("0", None)


def test_check_html_on_stdout_keeps_annotations_on_stderr(tmp_path, monkeypatch):
    """A failed budget under GitHub Actions: the ::error line must not land inside the page."""
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text("budgets:\n  - {metric: total_time_us, max: 1000, level: error}\n")
    result = CliRunner().invoke(cli, ["check", LOG, "--budgets", str(budgets), "-f", "html"])
    assert result.exit_code == 1  # 28,023 us > 1,000 us
    assert result.stdout.startswith("<!DOCTYPE html>") and "::error" not in result.stdout
    assert "::error " in result.stderr


def test_formats_command_lists_every_output_format():
    """``rknnprof formats`` reads the registry: each command's formats, suffixes, description."""
    result = CliRunner().invoke(cli, ["formats"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    outputs = result.output[result.output.index("Outputs") :]
    rows = [line for line in outputs.splitlines() if line.startswith("│")]
    cells = [[c.strip() for c in row.strip("│").split("│")] for row in rows]
    listed = [(c[0], c[1], c[2]) for c in cells if c[0]]
    assert listed == [(f.command, f.name, " ".join(f.suffixes)) for f in _ALL]
    assert "one test case per budget" in outputs  # check's junit, from its description


def test_gate_html_escapes_log_text():
    """A layer name from a log is text in the page, never markup."""
    import io

    from rknnprof.compare import compare_reports
    from rknnprof.model import Layer, Profile, Report, SourceSpan
    from rknnprof.reporters import RenderOptions, renderer

    name = '<img src=x onerror="alert(1)">'

    def run(t):
        layer = Layer(id=1, op_type="Conv<b>", time_us=t, full_name=name)
        return Report(
            (
                Profile(
                    source=SourceSpan("a&b.txt", 1, 2),
                    format="toolkit2-perf-table",
                    layers=(layer,),
                ),
            )
        )

    out = io.StringIO()
    renderer("compare", "html")(
        compare_reports(run(100), run(150), "a&b.txt", "<c>"), out, RenderOptions()
    )
    page = out.getvalue()
    assert "<img" not in page and "<b>" not in page and "<c>" not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page and "a&amp;b.txt" in page
