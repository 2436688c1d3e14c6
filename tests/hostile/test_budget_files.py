"""Hostile budgets files: each is one ``file:line: …`` error and exit 2, within a second, in
bounded memory (they used to give tracebacks, take 30 s and 1.5 GB, or silently mean
something else)."""

from __future__ import annotations

import os
import time

import pytest

from rknnprof.budgets import parse_budgets
from rknnprof.errors import ConfigError
from tests.hostile.helpers import SAMPLE, run

HEAD = "budgets:\n  - metric: total_time_us\n"
LAUGHS = (
    "a: &a ['lol','lol','lol','lol','lol','lol','lol','lol','lol']\n"
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},"
        f"*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},"
        f"*{chr(97 + i)}]\n"
        for i in range(8)
    )
    + "version: *i\n"
    + HEAD
    + "    max: 1\n"
)


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        (HEAD + "    max: !!python/object/apply:os.system ['true']\n", 3, "tags are not allowed"),
        (HEAD + "    max: !custom 5\n", 3, "tags are not allowed"),
        ("budgets:\n  - metric: [total_time_us]\n    max: 1\n", 2, "unknown metric a list"),
        ("budgets:\n  - metric: {a: 1}\n    max: 1\n", 2, "unknown metric a mapping"),
        ("budgets:\n  - metric: !!set {total_time_us}\n    max: 1\n", 2, "tags are not allowed"),
        (HEAD + "    max: " + "9" * 400 + "\n", 3, "number too large (400 digits)"),
        (HEAD + "    max: 1e400\n", 3, "expected a number >= 0, got inf"),
        # (a float's artefacts were printed as the max: 99,999,999,999,999,991,433,150,857,216)
        (HEAD + "    max: " + "9" * 29 + "\n", 3, "is beyond any run's figure (at most 1e15)"),
        (HEAD + "    max: .inf\n", 3, "expected a number >= 0, got inf"),
        (HEAD + "    max: .nan\n", 3, "expected a number >= 0, got nan"),
        ("? [a, b]\n: 1\n" + HEAD + "    max: 1\n", 1, "keys must be names, got a list"),
        ("budgets:\n" + "  " + "[" * 100 + "]" * 100 + "\n", 2, "nested deeper than 16 levels"),
        ("a: &a [*a]\n" + HEAD + "    max: 1\n", 1, "anchors (&name) are not allowed"),
        (LAUGHS, 1, "anchors (&name) are not allowed"),
        (HEAD + "    max: 1:30\n", 3, "expected a number >= 0, got '1:30'"),
        (HEAD + "    max: 1_000\n", 3, "expected a number >= 0, got '1_000'"),
        (
            HEAD + "    max: 0x10\n    level: yes\n",
            4,
            "expected error or warn (or warning), got 'yes'",
        ),
        ("version: true\n" + HEAD + "    max: 1\n", 1, "only version 1 is known, got True"),
        ("version: 1.0\n" + HEAD + "    max: 1\n", 1, "only version 1 is known, got 1.0"),
        (HEAD + "    max_increase: [1]\n", 3, "got a list"),
    ],
)
def test_hostile_budget_text(text, line, what):
    start = time.monotonic()
    with pytest.raises(ConfigError) as info:
        parse_budgets(text, "b.yaml")
    assert time.monotonic() - start < 1.0
    assert info.value.line == line, str(info.value)
    assert what in info.value.message, str(info.value)
    assert len(str(info.value)) < 300


def test_yaml_12_numbers_still_read():
    config = parse_budgets(HEAD + "    max: 0x10\n  - metric: cpu_time_us\n    max: 1.5e3\n")
    assert [b.max for b in config.budgets] == [16.0, 1500.0]


def _check(capsys, monkeypatch, budgets_path):
    return run(capsys, monkeypatch, "check", str(SAMPLE), "--budgets", str(budgets_path))


def test_twelve_megabyte_file_is_refused_at_once(tmp_path, capsys, monkeypatch):
    big = tmp_path / "big.yaml"
    big.write_text(HEAD + "    max: 1\n" + "# padding\n" * 1_200_000)
    start = time.monotonic()
    code, _, err = _check(capsys, monkeypatch, big)
    assert time.monotonic() - start < 1.0
    assert code == 2
    assert err == f"Error: {big}: cannot read budgets file: larger than 256 KB\n"


def test_budgets_fifo_is_refused(tmp_path, capsys, monkeypatch):
    fifo = tmp_path / "b.yaml"
    os.mkfifo(fifo)
    # opening a FIFO for reading blocks until a writer comes: keep one open for the test
    fd = os.open(fifo, os.O_RDWR)
    try:
        code, _, err = _check(capsys, monkeypatch, fifo)
    finally:
        os.close(fd)
    assert code == 2
    assert err == f"Error: {fifo}: cannot read budgets file: not a regular file\n"


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_baseline_that_is_not_a_file_is_an_error(kind, tmp_path, capsys, monkeypatch):
    if kind == "directory":
        baseline = tmp_path / "base"
        baseline.mkdir()
    elif kind == "fifo":
        baseline = tmp_path / "base.json"
        os.mkfifo(baseline)
    else:
        baseline = "/dev/zero"
    budgets = tmp_path / "b.yaml"  # the file's own baseline: (--baseline is checked by click)
    budgets.write_text(
        f"baseline: {baseline}\nbudgets:\n  - metric: total_time_us\n    max_increase: 5%\n"
    )
    start = time.monotonic()
    code, _, err = run(capsys, monkeypatch, "check", str(SAMPLE), "--budgets", str(budgets))
    assert time.monotonic() - start < 5
    assert code == 2
    assert err == f"Error: {baseline}: baseline is not a regular file\n"
