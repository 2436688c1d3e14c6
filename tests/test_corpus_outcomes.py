"""Done-when check for issue #3: every corpus file through ``rknnprof analyze -f json``.

Each file either gives profile data with the right numbers or exits 3 with one line naming what
it found. Expected values were read from the logs by hand (row counts, the log's own total
lines, sums of the Time(us) column with awk), never from the parser's output.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from corpus_expectations import EXIT_3, PROFILES

from rknnprof.cli import cli


def analyze(path):
    return CliRunner().invoke(cli, ["analyze", "-f", "json", str(path)])


@pytest.mark.parametrize(("prefix", "expect"), sorted(PROFILES.items()), ids=sorted(PROFILES))
def test_profile_numbers(corpus, prefix: str, expect: dict) -> None:
    result = analyze(corpus(prefix))
    assert result.exit_code == 0, result.stderr
    profiles = json.loads(result.stdout)["profiles"]
    assert len(profiles) == expect.get("profiles", 1)
    profile = profiles[0]
    assert profile["format"] == expect["format"]
    assert profile["measured"] is expect.get("measured", True)
    assert len(profile["layers"]) == expect["layers"]
    for key in ("total_time_us", "reported_total_time_us", "frames"):
        if key in expect:
            assert profile[key] == expect[key], key
    if "ids" in expect:
        assert [la["id"] for la in profile["layers"]] == expect["ids"]
    if "benchmark" in expect:
        for key, value in expect["benchmark"].items():
            assert profile["benchmark"][key] == value, key


@pytest.mark.parametrize(("prefix", "words"), sorted(EXIT_3.items()), ids=sorted(EXIT_3))
def test_no_profile_data_names_what_it_found(corpus, prefix: str, words: str) -> None:
    path = corpus(prefix)
    result = analyze(path)
    assert result.exit_code == 3
    # the JSON report all the same: no profile, the exit-3 message, the failures if any
    report = json.loads(result.stdout)
    assert report["profiles"] == [] and report["no_profile"] in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: {path}: ") and words in line


def test_every_corpus_file_has_an_expectation(corpus) -> None:
    folder = corpus("01_").parent
    prefixes = {p.name[:3] for p in folder.glob("[0-9]*.txt")}
    assert prefixes == set(PROFILES) | set(EXIT_3)
