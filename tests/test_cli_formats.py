from __future__ import annotations

from click.testing import CliRunner

from rknnprof.cli import cli
from rknnprof.parsers import PARSERS


def test_formats_lists_every_registered_family_in_order() -> None:
    result = CliRunner().invoke(cli, ["formats"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    positions = [result.output.index(parser.family) for parser in PARSERS]
    assert positions == sorted(positions)
    for family in (
        "toolkit1-perf-table",
        "toolkit2-eval_perf-csv",
        "toolkit2-build-estimate",
        "eval_perf-totals",
        "benchmark",
        "fallback-warning",
        "npu-load",
        "memory-table",
        "error-report",
        "toolkit2-perf-table",
    ):
        assert family in result.output
    assert "\x1b[" not in result.output  # no colour when not on a terminal


def test_every_family_documents_detection_and_fields() -> None:
    for parser in PARSERS:
        assert parser.family and parser.detection and parser.fields, type(parser).__name__
    assert len({p.family for p in PARSERS}) == len(PARSERS)
