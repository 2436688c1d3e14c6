"""The benchmark harness keeps working: ``benchmarks/run.py --quick`` runs every figure once on
tiny inputs. No timing is asserted here (timings belong to the benchmark run itself)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_quick_run_reports_every_figure(tmp_path):
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "run.py"), "--quick", "--keep", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    figures = [line for line in done.stdout.splitlines() if " ratio " in line]
    names = [line.split("  ")[0] for line in figures]
    assert names == [
        "startup: rknnprof --help",
        "startup: analyze 108-layer table",
        "startup: analyze -f json 108-layer",
        "throughput: logcat -f json",
        "throughput: D RKNN: lines -f json",
        "throughput: logcat on stdin",
        "throughput: 3 processes -f json",
        "fast path on / off, 3 processes",
        "memory: -f trace / -f json",
        "memory: -f trace / -f json, 3 processes",
        "memory: 0.3 MB / 0.1 MB, -f json",
        "memory: 0.3 MB / 0.1 MB, -f trace",
    ]
    assert "MISSED" not in done.stdout and " ok" not in done.stdout  # --quick gives no verdicts
