"""The saved-report reader fuzzed like the log readers (tests/fuzz/saved_reports.py): every
mutant through compare, check and check --baseline, with no traceback, an exit code of the
documented ones, and no inf or nan written. The long run (run_long.py --saved N) takes more."""

from __future__ import annotations

import random

import pytest

from tests.fuzz import hostile as H
from tests.fuzz import saved_reports as S

MUTANTS = 48
"""Mutants in the suite (a few seconds); the long run takes thousands."""


@pytest.fixture(scope="module")
def seed():
    return S.seed_report()


@pytest.fixture(scope="module")
def files(tmp_path_factory, seed):
    """A work folder, the budgets, and the seed as a valid saved report: the other side of
    every run (read back, not analysed again, so a mutant costs milliseconds)."""
    import json

    work = tmp_path_factory.mktemp("saved-fuzz")
    budgets = work / "budgets.yaml"
    budgets.write_text(H.BUDGETS, encoding="utf-8")
    valid = work / "valid.json"
    valid.write_text(json.dumps(seed), encoding="utf-8")
    return work, str(budgets), str(valid)


@pytest.mark.parametrize("block", range(4))
def test_mutated_saved_reports_never_crash(seed, files, block):
    work, budgets, valid = files
    found = []
    for index in range(block * MUTANTS // 4, (block + 1) * MUTANTS // 4):
        data = S.mutate(seed, random.Random(7_000_003 * (index + 1)))
        mutant = work / f"mutant-{index}.json"
        mutant.write_bytes(data)
        found.extend(
            (index, outcome.argv[:2], outcome.problems, outcome.stderr[-300:])
            for outcome in S.run_mutant(str(mutant), valid, budgets, index)
        )
    assert not found, found[:3]


def test_the_mutants_reach_the_reader_past_its_json_decoder(seed, files):
    """Most mutants are valid JSON, so the schema reader and the commands see them (the fuzzer
    is not only testing the decoder's error)."""
    import json

    valid = 0
    for index in range(MUTANTS):
        data = S.mutate(seed, random.Random(7_000_003 * (index + 1)))
        try:
            json.loads(data)
            valid += 1
        except (ValueError, RecursionError):
            pass
    assert valid > MUTANTS // 2
