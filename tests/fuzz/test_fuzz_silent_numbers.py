"""Property: damage to ONE line of a complete table never changes the numbers silently.

On the complete corpus tables (every row, its total line and its ranking table: 01, 07, 36), a
single-line edit — the line dropped, duplicated, cut at any byte, a digit turned into a letter
or dropped, two cells swapped, tabs for blanks — must leave the key numbers (per layer: ID, op
type, time, target; the reported total; the ranking's calls, CPU/NPU/total time and ratio) as
they were, or add a warning the clean log does not have, or raise a one-line RknnprofError.

Known blind spots, on purpose outside the key numbers: a digit lost in a DDR or NPU cycle count
that is not the row's maximum, and a digit lost in RW(KB) (no total checks them exactly).
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz.fuzz_support import fuzz_settings, run_pipeline
from rknnprof.errors import RknnprofError
from rknnprof.model import Report
from tests.conftest import CORPUS

COMPLETE = ("01_", "07_", "36_")


def key_numbers(report: Report) -> tuple:
    return tuple(
        (
            p.format,
            tuple((la.id, la.op_type, la.time_us, la.target) for la in p.layers),
            p.reported_total_time_us,
            tuple(
                (
                    s.op_type,
                    s.calls,
                    s.cpu_time_us,
                    s.npu_time_us,
                    s.total_time_us,
                    None if s.share is None else round(100 * s.share, 1),
                )
                for s in p.ranking
            ),
        )
        for p in report.profiles
    )


def warnings_of(report: Report) -> set[tuple[int | None, str]]:
    return {(w.line, w.message) for w in report.warnings}


@cache
def baseline(prefix: str) -> tuple[list[str], tuple, set]:
    path = next(iter(sorted(CORPUS.glob(f"{prefix}*"))), None)
    if path is None:
        pytest.skip(f"no corpus file {prefix}*")
    lines = path.read_text(encoding="utf-8").split("\n")
    report = run_pipeline("\n".join(lines).encode())
    assert isinstance(report, Report)
    return lines, key_numbers(report), warnings_of(report)


def edits(line: str) -> st.SearchStrategy[list[str]]:
    """Single-line edits: the replacement lines for ``line``."""
    digits = [i for i, c in enumerate(line) if c.isdigit()]
    options = [
        st.just([]),
        st.just([line, line]),
        st.just([line.replace(" ", "\t")]),
        st.integers(0, max(len(line) - 1, 0)).map(lambda k: [line[:k]]),
    ]
    if digits:
        at = st.sampled_from(digits)
        options += [
            at.map(lambda i: [line[:i] + "x" + line[i + 1 :]]),
            at.map(lambda i: [line[:i] + line[i + 1 :]]),
        ]
    cells = line.split()
    if len(cells) > 1:

        def swap(a: int) -> list[str]:
            c = cells[:]
            c[a], c[a + 1] = c[a + 1], c[a]
            return ["  ".join(c)]

        options.append(st.integers(0, len(cells) - 2).map(swap))
    return st.one_of(options)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus folder is absent")
@fuzz_settings(200)
@given(st.data())
def test_one_damaged_line_changes_no_number_silently(data: st.DataObject) -> None:
    prefix = data.draw(st.sampled_from(COMPLETE), label="log")
    lines, numbers, warned = baseline(prefix)
    i = data.draw(st.integers(0, len(lines) - 1), label="line index")
    replacement = data.draw(edits(lines[i]), label="replacement")
    result = run_pipeline("\n".join(lines[:i] + replacement + lines[i + 1 :]).encode())
    if isinstance(result, RknnprofError):
        return
    if key_numbers(result) != numbers:
        new = warnings_of(result) - warned
        assert new, f"line {i + 1} -> {replacement!r} changed the numbers without a warning"
