"""Issue 22's sweep: every corpus log cut at every line end and in the middle of every line. A
cut that changes the total a ``total_time_us`` budget reads must never PASS ``check``, or leave
``analyze --fail-on`` green, without a warning.

In process and quick: each cut is parsed; one the parsers or the assembler already warn about is
warned about in every format of ``check`` (tests/test_gate_damage.py holds that for each kind of
damage), so only the cuts they say nothing about are analysed and judged here.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import CORPUS

from rknnprof.api import analyze, parse_stream
from rknnprof.budgets import check, parse_budgets
from rknnprof.cli.gate import gate_findings

BUDGETS = parse_budgets("budgets:\n  - metric: total_time_us\n    max: 1000000000\n")
FILES = sorted(CORPUS.glob("[0-9][0-9]_*.txt")) if CORPUS.is_dir() else []


def cuts(data: bytes) -> list[int]:
    """Byte offsets: the end of every line but the last, and the middle of every line."""
    offsets: set[int] = set()
    start = 0
    for line in data.splitlines(keepends=True):
        offsets.add(start + len(line.rstrip(b"\r\n")) // 2)
        start += len(line)
        offsets.add(start)
    offsets.discard(len(data))
    offsets.discard(0)
    return sorted(offsets)


@pytest.mark.parametrize("path", FILES or [None], ids=[p.name[:2] for p in FILES] or ["absent"])
def test_no_silent_pass_on_a_cut_log(path: Path | None, tmp_path: Path) -> None:
    if path is None:
        pytest.skip(f"corpus folder {CORPUS} is absent (set RKNNPROF_CORPUS)")
    data = path.read_bytes()
    whole = parse_stream(io.BytesIO(data), path.name)
    if not whole.profiles:
        pytest.skip(f"{path.name} holds no profile (exit 3 whole or cut)")
    whole_totals = [p.total_time_us for p in analyze(path, rules=False).profiles]
    silent = []
    judged = 0
    for cut in cuts(data):
        assembly = parse_stream(io.BytesIO(data[:cut]), path.name)
        if not assembly.profiles or assembly.warnings:
            continue  # exit 3, or warned about
        piece = tmp_path / path.name
        piece.write_bytes(data[:cut])
        report = analyze(piece)
        totals = [p.total_time_us for p in report.profiles]
        if totals == whole_totals:
            continue  # the cut lost nothing the budget reads (e.g. after the total line)
        judged += 1
        result = check(BUDGETS, report, None, str(piece))
        passed = any(v.status == "pass" for v in result.verdicts)
        line = data[:cut].count(b"\n") + 1
        if passed and not result.warnings:
            silent.append(f"check: cut in line {line} (byte {cut}): PASS at {totals}")
        if not report.warnings and not gate_findings(report, "error"):
            silent.append(f"analyze --fail-on error: cut in line {line}: green at {totals}")
    assert not silent, f"{path.name} (whole: {whole_totals}):\n" + "\n".join(silent[:10])
