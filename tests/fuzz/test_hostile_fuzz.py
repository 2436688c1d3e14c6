"""The hostile-input fuzzer's short, seeded run (the long one is ``tests/fuzz/run_long.py``):
every input kept under ``regressions/`` (crashes the long run found), a few mutants of the
corpus, and the adversarial-name corpus, each through every format of ``analyze``,
``compare`` and ``check`` with the checks of :func:`tests.fuzz.hostile.check`."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests.fuzz import hostile as H

REGRESSIONS = sorted((Path(__file__).parent / "regressions").glob("*.log"))
SHORT_MUTANTS = int(os.environ.get("RKNNPROF_HOSTILE_MUTANTS", "12"))
SAMPLE_LINES = H.SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
SMALL_LOG = "".join(SAMPLE_LINES[:12]) + "Total Operator Elapsed Per Frame Time(us): 6849\n"
"""The sample's header and its first three rows (9 + 6030 + 810 us) with their total."""


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("hostile")
    (work / "base.txt").write_text(SMALL_LOG)
    (work / "budgets.yaml").write_text(H.BUDGETS)
    return work


def _problems(work: Path, data: bytes, index: int) -> list[str]:
    log = work / "input.txt"
    log.write_bytes(data)
    bad = H.run_input(str(log), str(work / "base.txt"), str(work / "budgets.yaml"), index)
    return [f"{' '.join(o.argv[:1] + o.argv[2:4])}: {p}" for o in bad for p in o.problems]


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_regression_fixture(path, work):
    assert _problems(work, path.read_bytes(), 0) == []


def test_seeded_mutants(work):
    seeds = H.seed_logs(None)
    found = {}
    for index in range(SHORT_MUTANTS):
        data = H.mutate(seeds, random.Random(index))
        if problems := _problems(work, data, index):
            found[index] = problems
    assert found == {}


@pytest.mark.parametrize(
    "index", range(len(H.NAMES)), ids=[f"name{i}" for i in range(len(H.NAMES))]
)
def test_adversarial_name(index, work):
    name = H.NAMES[index]
    assert _problems(work, H.log_with_name(name, SMALL_LOG), index) == []


@pytest.mark.parametrize("index", range(0, len(H.NAMES), 3))
def test_adversarial_name_in_a_saved_report(index, work):
    saved = work / "saved.json"
    saved.write_text(H.saved_report_with_name(H.NAMES[index]))
    problems = []
    for fmt in H.COMPARE_FORMATS:
        outcome = H.run_main(["compare", str(saved), str(saved), "-f", fmt, "--no-summary"])
        problems += H.check(outcome, fmt)
    for fmt in H.CHECK_FORMATS:
        outcome = H.run_main(
            [
                "check",
                str(saved),
                "--budgets",
                str(work / "budgets.yaml"),
                "-f",
                fmt,
                "--no-summary",
            ]
        )
        problems += H.check(outcome, fmt)
    assert problems == []


def test_a_ten_megabyte_name(work):
    assert _problems(work, H.log_with_name(H.HUGE_NAME, SMALL_LOG), 0) == []
