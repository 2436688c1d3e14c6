"""rknnprof benchmarks: startup, throughput and peak memory, each as a ratio to a floor
measured in the same run (absolute times on a shared machine are noise).

    python benchmarks/run.py            # startup + throughput (100 MB) + memory (10/100 MB)
    python benchmarks/run.py --full     # adds the 1 GB capture to the memory figures
    python benchmarks/run.py --repeat 7 # more runs per figure (medians are reported)

Targets (issue "Performance"): ``--help`` within 1.5x of ``python -c "import click,
rich.console"``; ``analyze`` of a 100-layer log within 3x of that floor; throughput at least
50 MB/s and at most 25x a plain Python loop that only reads the lines; peak RSS of the 1 GB
capture at most 1.2x that of the 100 MB capture.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402

PY = sys.executable
RKNNPROF = [PY, "-m", "rknnprof"]


def run(cmd: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one run of ``cmd`` (output discarded)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"benchmark command failed ({code}): {' '.join(cmd)}\n{err[-2000:]}")
    return elapsed, usage.ru_maxrss


def median_time(cmd: list[str], repeat: int) -> float:
    run(cmd)  # warm the page cache and the bytecode cache
    return statistics.median(run(cmd)[0] for _ in range(repeat))


def report(name: str, value: str, ratio: float, target: str, ok: bool) -> None:
    print(f"{name:<44} {value:>14}   ratio {ratio:6.2f}   target {target:<10} {'ok' if ok else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser(description="rknnprof benchmarks")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--full", action="store_true", help="include the 1 GB capture")
    parser.add_argument("--size-mb", type=float, default=100.0, help="throughput capture size")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="rknnprof-bench-"))

    floor = median_time([PY, "-c", "import click, rich.console"], args.repeat)
    helptime = median_time([*RKNNPROF, "--help"], args.repeat)
    report("startup: rknnprof --help", f"{helptime * 1000:.0f} ms", helptime / floor, "<= 1.5", helptime / floor <= 1.5)
    log = tmp / "table100.txt"
    log.write_text("\n".join(generate.table(100)) + "\n")
    t = median_time([*RKNNPROF, "analyze", str(log), "-f", "table"], args.repeat)
    report("startup: analyze 100-layer log", f"{t * 1000:.0f} ms", t / floor, "<= 3", t / floor <= 3)

    big = tmp / "capture.log"
    generate.logcat_capture(big, args.size_mb)
    size_mb = big.stat().st_size / 1e6
    loop = median_time([PY, "-c", f"for _ in open({str(big)!r}, 'rb'): pass"], max(3, args.repeat // 2))
    t = median_time([*RKNNPROF, "analyze", str(big), "-f", "json"], max(3, args.repeat // 2))
    rate = size_mb / t
    report(f"throughput: analyze {size_mb:.0f} MB logcat", f"{rate:.1f} MB/s", t / loop, "<= 25", t / loop <= 25 and rate >= 50)

    sizes = [10.0, 100.0] + ([1000.0] if args.full else [])
    peaks: dict[float, int] = {}
    for mb in sizes:
        path = big if mb == args.size_mb else tmp / f"capture{int(mb)}.log"
        if not path.exists():
            generate.logcat_capture(path, mb)
        peaks[mb] = run([*RKNNPROF, "analyze", str(path), "-f", "json"])[1]
        ratio = peaks[mb] / peaks[sizes[0]]
        report(f"memory: peak RSS, {mb:.0f} MB capture", f"{peaks[mb] / 1024:.0f} MiB", ratio, "vs 10 MB", True)
        if mb != args.size_mb:
            path.unlink()
    if 1000.0 in peaks:
        ratio = peaks[1000.0] / peaks[100.0]
        report("memory: 1 GB peak / 100 MB peak", "", ratio, "<= 1.2", ratio <= 1.2)
    big.unlink()


if __name__ == "__main__":
    main()
