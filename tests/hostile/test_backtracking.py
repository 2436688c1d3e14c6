"""No regular expression of the reader takes more than linear time on a line: each hostile line
below (60,000 characters, under the reader's 65,536-character cap) took from 10 s to minutes to
read before its pattern was made linear (a lazy tag followed by an unbounded blank run, two
``\\s*`` around an optional ``=`` or ``:``, an optional ``uid:`` that gave back what it had read,
a run of path characters before a model's per-SoC folder);
now each file takes tens of milliseconds. The bound is 30x that, so a slow machine passes and a
quadratic pattern does not.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rknnprof.api import analyze
from rknnprof.errors import NoProfileDataError

N = 60_000
BOUND_S = 2.0
LINES = {
    "brief tag, blanks": "E/" + " " * N + "x",
    "time layout, blanks": "2022-07-06 15:37:03.100 E/" + " " * N + "x",
    "a tag then '( ' and blanks": "E/x( " + " " * N + "x",
    "thread layout, blanks": "E( " + " " * N + "x",
    "process layout, many '  ('": "E( 12) " + "  (" * (N // 3) + "x",
    "long-layout header, blanks": "[ 03-05 10:31:02.123  1234: 1250 I/" + " " * N + "x",
    "threadtime, blanks where the tag ends": "03-05 10:31:02.123  1234  1250 I " + " " * N + "x",
    "older Android Studio copy, blanks": "2022-07-06 15:37:03.100 1-1 E/" + " " * N + "x",
    "benchmark average, blanks": "Avg Time " + " " * N + "x",
    "an application's call time, blanks": "rknn_run use " + " " * N + "x",
    "an application's average run, tabs": "average run " + "\t" * N + "x",
    "a long word before 'will fallback to CPU'": "W RKNN: " + "a" * N + "! will fallback to CPU",
    "path characters before '.rknn'": "a/" * (N // 2) + " x.rknn",
    "per-SoC folders before '.rknn'": "/RK3588/a" * (N // 9) + ".rknx x.rknn",
    "the board's platform, blanks": "I Get hardware info: target_platform =" + " " * N + "x",
    "no lowering, blanks": "No lowering found for:" + " " * N + "x",
}


@pytest.mark.parametrize("line", LINES.values(), ids=LINES.keys())
def test_a_long_hostile_line_is_read_in_linear_time(tmp_path: Path, line: str) -> None:
    path = tmp_path / "hostile.txt"
    path.write_text(line + "\n" + line + "\n", encoding="utf-8")
    read(path)  # (imports and compiles patterns: not timed)
    start = time.perf_counter()
    read(path)
    assert time.perf_counter() - start < BOUND_S


def read(path: Path) -> None:
    """The whole pipeline on ``path``; a log with no profile data is refused (exit 3), read."""
    try:
        analyze(str(path))
    except NoProfileDataError:
        pass


def _catalogue_lines() -> dict[str, str]:
    """For every needle of the failures catalogue: the needle repeated to 60,000 characters,
    and the needle followed by one 60,000-character word (``rknn_`` 13,000 times took 4 s a
    line to fail ``rknn_\\w+, context config invalid`` from each start)."""
    from rknnprof.parsers.failure_catalogue import CATALOGUE

    lines = {}
    for entry in CATALOGUE:
        for needle in entry.needles:
            lines[f"{entry.id}: {needle!r} repeated"] = needle * (N // max(len(needle), 1))
            lines[f"{entry.id}: {needle!r} then a long word"] = needle + "rknn_" * (N // 5)
    return lines


CATALOGUE_LINES = _catalogue_lines()


@pytest.mark.parametrize("line", CATALOGUE_LINES.values(), ids=CATALOGUE_LINES.keys())
def test_a_catalogue_pattern_fails_in_linear_time(line: str) -> None:
    from rknnprof.parsers.failure_catalogue import match

    match(line)  # (compiles the patterns: not timed)
    start = time.perf_counter()
    match(line)
    match(line + " rknn_run, context config invalid")
    assert time.perf_counter() - start < BOUND_S / 4
