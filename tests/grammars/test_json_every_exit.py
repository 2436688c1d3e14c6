"""Every exit path writes its document: ``analyze -f json`` prints one complete JSON report on
every exit code (0, 1 and the exit 3 of an input without a profile) for every corpus log, every
failure fixture and every held-out failure log; the other machine formats write theirs on exit
3 too; the terminal format prints no report there, only the one-line diagnosis on stderr."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_failures_heldout import HELD_OUT

from rknnprof.cli import cli
from tests.conftest import corpus_params

TESTS = Path(__file__).resolve().parent.parent
GRAMMARS = TESTS / "data" / "grammars"
CORPUS = Path(os.environ.get("RKNNPROF_CORPUS", TESTS.parent.parent / "shared" / "corpus"))
TOP_KEYS = ["schema_version", "rknnprof_version", "profiles", "warnings", "failures", "no_profile"]
FAILURE_KEYS = [
    "id",
    "line",
    "text",
    "diagnosis",
    "cause",
    "fix",
    "source",
    "confidence",
    "severity",
    "context",
]


def _corpus_logs() -> list[object]:
    return corpus_params()


def _analyze(path: Path, *args: str):
    return CliRunner().invoke(cli, ["analyze", *args, str(path)])


def _check_document(result) -> dict:
    assert result.exit_code in (0, 1, 3), result.output
    report = json.loads(result.stdout)
    assert list(report) == TOP_KEYS
    for failure in report["failures"]:
        assert list(failure) == FAILURE_KEYS
    if result.exit_code == 3:
        assert report["profiles"] == [] and report["no_profile"]
        assert report["no_profile"] in result.stderr
    else:
        assert report["profiles"] and report["no_profile"] is None
    return report


@pytest.mark.parametrize("path", _corpus_logs(), ids=lambda p: p.name[:3])
def test_every_corpus_log_gets_a_json_document(path):
    _check_document(_analyze(path, "-f", "json"))


def test_the_corpus_is_there():
    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is absent (set RKNNPROF_CORPUS)")
    assert len(_corpus_logs()) >= 30


@pytest.mark.parametrize("path", sorted(GRAMMARS.glob("*.txt")), ids=lambda p: p.stem)
def test_every_fixture_gets_a_json_document(path):
    _check_document(_analyze(path, "-f", "json"))


@pytest.mark.parametrize("case", HELD_OUT, ids=[c.entry for c in HELD_OUT])
def test_every_held_out_failure_gets_a_json_document(tmp_path, case):
    log = tmp_path / "log.txt"
    log.write_text(case.log, encoding="utf-8")
    report = _check_document(_analyze(log, "-f", "json"))
    assert report["failures"][0]["id"] == case.entry


def test_an_unrecognised_error_is_a_failure_of_id_unknown(tmp_path):
    log = tmp_path / "log.txt"
    log.write_text(
        "--> Init runtime environment\n"
        "E RKNN: [11:32:15.981] REGTASK: The bit width of field value exceeds the limit, "
        "target: v2, offset: 0x1014, shift = 0, limit: 0x7, value: 0x32\n"
        "E Catch exception when init runtime!\n"
        "Exception: RKNN init failed. error code: RKNN_ERR_FAIL\n",
        encoding="utf-8",
    )
    result = _analyze(log, "-f", "json")
    report = _check_document(result)
    [failure] = report["failures"]
    # the runtime's own line (line 2), not the exception it caused (line 4)
    assert failure["id"] == "unknown" and failure["line"] == 2
    assert failure["text"].startswith("REGTASK: The bit width of field value exceeds")
    assert "Exception: RKNN init failed. error code: RKNN_ERR_FAIL" in failure["context"]
    assert failure["confidence"] == "low" and failure["source"] == ""
    [line] = result.stderr.strip().splitlines()
    assert line.index("does not know") < line.index("REGTASK")


@pytest.mark.parametrize("fmt", ["markdown", "csv", "html", "trace", "model-explorer", "junit"])
def test_other_machine_formats_write_their_document_on_exit_3(fmt):
    result = _analyze(GRAMMARS / "failure_rv1106_unsupported_op.txt", "-f", fmt)
    assert result.exit_code == 3 and result.stdout.strip()
    if fmt in ("trace", "model-explorer"):
        json.loads(result.stdout)


def test_markdown_and_junit_carry_the_failures_on_exit_3():
    path = GRAMMARS / "failure_rv1106_unsupported_op.txt"
    markdown = _analyze(path, "-f", "markdown").stdout
    assert "## Failures" in markdown
    assert "- line 3: the runtime has no CPU kernel for the GridSample op" in markdown
    junit = _analyze(path, "-f", "junit").stdout
    assert 'tests="2" failures="2"' in junit
    assert 'name="line 3: unsupported-cpu-op"' in junit and 'type="cpu-fallback-failed"' in junit


def test_the_terminal_prints_only_the_diagnosis_on_exit_3():
    result = _analyze(GRAMMARS / "failure_rv1106_unsupported_op.txt")
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.count("\n") == 1
