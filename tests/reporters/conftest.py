"""Fixtures for reporter tests: hand-built reports and golden-file helpers.

Regenerate golden files with ``pytest tests/reporters --update-golden`` (the option lives in
this conftest, so name the folder) or ``RKNNPROF_UPDATE_GOLDEN=1 pytest``; then READ the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rknnprof.model import Report

from .report_samples import HAND_REPORT, NO_LAYERS_REPORT

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/data/golden/* from the current reporters instead of comparing",
    )


def _updating(config: pytest.Config) -> bool:
    try:
        flag = bool(config.getoption("--update-golden"))
    except ValueError:  # option not registered: pytest was started outside tests/reporters
        flag = False
    return flag or os.environ.get("RKNNPROF_UPDATE_GOLDEN") == "1"


@pytest.fixture
def hand_report() -> Report:
    return HAND_REPORT


@pytest.fixture
def no_layers_report() -> Report:
    return NO_LAYERS_REPORT


@pytest.fixture
def check_golden(request: pytest.FixtureRequest):
    """``check_golden(text, "hand.table.txt")``: compare with (or with --update-golden, write)
    the golden file; lines compared with trailing blanks stripped."""
    update = _updating(request.config)

    def check(text: str, filename: str) -> None:
        path = GOLDEN / filename
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="")
            return
        if not path.exists():
            pytest.fail(f"golden file {path} is missing; run pytest --update-golden and read it")
        expected = [line.rstrip() for line in path.read_text(encoding="utf-8").splitlines()]
        actual = [line.rstrip() for line in text.splitlines()]
        assert actual == expected, f"{filename} differs from the golden file (--update-golden)"

    return check
