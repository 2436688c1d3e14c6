"""Exhaustive, not random: for every corpus file with a per-layer table, delete each single line
in turn, and cut the file after each line in turn. Never a crash; either the rows that remain
are all still there (with a warning when a row of a complete table went missing), or a one-line
RknnprofError (exit 3 when nothing is left). A row that can no longer be read (its header line
was the one deleted, in a layout whose columns cannot be guessed) must be reported: as a skipped
row on its own line, or inside the span of the one warning that names rows without a header.
In-process parser API, so the whole sweep is fast.
"""

from __future__ import annotations

import io
import re
from functools import cache

import pytest

from rknnprof.analysis import analyze_profile
from rknnprof.api import parse_stream
from rknnprof.errors import RknnprofError
from tests.conftest import corpus_file

ORPHAN_SPAN = re.compile(r"\(lines (\d+)-(\d+)\)")
TABLE_FILES = ("01_", "03_", "04_", "05_", "07_", "36_", "37_", "38_", "10_", "11_")
COMPLETE = ("01_", "07_", "36_")
"""Tables with every row, their total line and ranking: a lost row must be warned about."""


def parse(lines: list[str]) -> tuple[set[tuple], list[str], set[int]] | RknnprofError:
    """(rows as (id, op type, time), warnings, lines of skipped rows) from parser + analysis."""
    try:
        assembly = parse_stream(io.BytesIO("\n".join(lines).encode()), "x.log")
        rows: set[tuple] = set()
        warnings = [w.message for w in assembly.warnings]
        skipped = {w.line for w in assembly.warnings if w.message.startswith("skipped row")}
        for w in assembly.warnings:  # rows without their header: one warning names them all
            if w.line is not None and "without a header line: columns unknown" in w.message:
                span = ORPHAN_SPAN.search(w.message)
                first, last = map(int, span.groups()) if span else (w.line, w.line)
                skipped |= set(range(first, last + 1))
        for profile in assembly.profiles:
            analysed, notes = analyze_profile(profile)
            warnings += [n.message for n in notes]
            rows |= {(la.id, la.op_type, la.time_us) for la in analysed.layers}
        return rows, warnings, skipped
    except RknnprofError as e:  # pragma: no cover - the parser raises none today
        return e


@cache
def original(prefix: str) -> tuple[list[str], dict[int, tuple], list[str]]:
    lines = corpus_file(prefix).read_text(encoding="utf-8").split("\n")
    assembly = parse_stream(io.BytesIO("\n".join(lines).encode()), "x.log")
    by_line = {
        la.line: (la.id, la.op_type, la.time_us) for p in assembly.profiles for la in p.layers
    }
    assert by_line, f"{prefix}: no rows parsed"
    result = parse(lines)
    assert not isinstance(result, RknnprofError)
    return lines, by_line, result[1]


@pytest.mark.parametrize("prefix", TABLE_FILES)
def test_deleting_any_single_line(prefix: str) -> None:
    lines, by_line, base_warnings = original(prefix)
    for i in range(len(lines)):
        result = parse(lines[:i] + lines[i + 1 :])
        if isinstance(result, RknnprofError):
            continue
        rows, warnings, skipped = result
        lost = [(line, row) for line, row in by_line.items() if line != i + 1 and row not in rows]
        unreported = [
            row for line, row in lost if (line - 1 if line > i + 1 else line) not in skipped
        ]
        assert not unreported, (
            f"{prefix} without line {i + 1}: other rows vanished {unreported[:3]}"
        )
        if prefix in COMPLETE and (i + 1) in by_line:
            assert warnings != base_warnings, f"{prefix}: row line {i + 1} deleted silently"


@pytest.mark.parametrize("prefix", TABLE_FILES)
def test_truncating_after_any_line(prefix: str) -> None:
    lines, by_line, _ = original(prefix)
    for n in range(len(lines) + 1):
        result = parse(lines[:n])
        if isinstance(result, RknnprofError):
            continue
        rows, _warnings, skipped = result
        lost = [(line, row) for line, row in by_line.items() if line <= n and row not in rows]
        unreported = [row for line, row in lost if line not in skipped]
        assert not unreported, f"{prefix} cut after line {n}: rows vanished {unreported[:3]}"


@pytest.mark.parametrize("prefix", TABLE_FILES)
def test_truncating_inside_the_last_kept_line(prefix: str) -> None:
    """Cut in the middle of a row (half of its bytes): never a crash."""
    lines, _, _ = original(prefix)
    for n in range(len(lines)):
        cut = lines[:n] + [lines[n][: len(lines[n]) // 2]]
        parse(cut)
