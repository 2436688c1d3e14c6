"""rknnprof benchmarks: startup, throughput and peak memory, each as a ratio to a floor
measured in the same run (absolute times on a shared machine are noise).

    python benchmarks/run.py            # startup + throughput (100 MB) + memory (10/100 MB)
    python benchmarks/run.py --full     # adds the 1 GB capture to the memory figures
    python benchmarks/run.py --repeat 7 # more runs per figure (medians are reported)
    python benchmarks/run.py --only throughput

Run it from the repository root (``python -m rknnprof`` must import this checkout).

Targets (issue #8 "Performance"): ``--help`` within 1.5x of ``python -c "import click,
rich.console"``; ``analyze`` of a 100-layer log within 3x of that floor; throughput at least
50 MB/s and at most 25x a plain Python loop that only reads the lines; peak RSS of the 1 GB
capture at most 1.2x that of the 100 MB capture.

How it measures:

* **CPU time** (user + system, from ``wait4``) of each child process, median of ``--repeat``
  runs after one warm-up run. On a shared machine, wall time also counts the time the child
  waited for a core; CPU time does not. The wall-time median is printed beside it.
* Children run with ``PYTHONDONTWRITEBYTECODE`` removed from their environment, so the warm-up
  run writes the bytecode caches and startup is measured as for an installed package (pip
  compiles the ``.pyc`` files at install time), not as compiling every module from source.
* Peak memory is the child's peak RSS (``ru_maxrss``), one run per capture size.
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
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


class Run:
    """CPU seconds, wall seconds and peak RSS (KiB) of one child process."""

    def __init__(self, cmd: list[str]) -> None:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        _, status, usage = os.wait4(proc.pid, 0)
        self.wall = time.perf_counter() - start
        self.cpu = usage.ru_utime + usage.ru_stime
        self.peak_kib = usage.ru_maxrss
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            raise SystemExit(f"benchmark command failed ({code}): {' '.join(cmd)}\n{err[-2000:]}")


def median_run(cmd: list[str], repeat: int) -> tuple[float, float]:
    """(median CPU seconds, median wall seconds) over ``repeat`` runs after a warm-up run (page
    cache, bytecode cache)."""
    Run(cmd)
    runs = [Run(cmd) for _ in range(repeat)]
    return statistics.median(r.cpu for r in runs), statistics.median(r.wall for r in runs)


def report(name: str, value: str, ratio: float, target: str, ok: bool | None) -> None:
    verdict = "" if ok is None else "ok" if ok else "MISSED"
    print(f"{name:<40} {value:>24}   ratio {ratio:6.2f}   target {target:<10} {verdict}",
          flush=True)


def ms(cpu: float, wall: float) -> str:
    return f"{cpu * 1000:.0f} ms ({wall * 1000:.0f} wall)"


def capture(path: Path, size_mb: float) -> Path:
    """A generated logcat capture of ``size_mb`` MB at ``path`` (kept if already there)."""
    if not path.exists():
        generate.logcat_capture(path, size_mb)
    return path


def startup(tmp: Path, repeat: int) -> None:
    floor = median_run([PY, "-c", "import click, rich.console"], repeat)
    helptime = median_run([*RKNNPROF, "--help"], repeat)
    ratio = helptime[0] / floor[0]
    label = 'floor: python -c "import click, rich.console"'
    print(f"{label:<40} {ms(*floor):>24}")
    report("startup: rknnprof --help", ms(*helptime), ratio, "<= 1.5", ratio <= 1.5)
    log = tmp / "table100.txt"
    log.write_text("\n".join(generate.table(100)) + "\n")
    t = median_run([*RKNNPROF, "analyze", str(log), "-f", "table"], repeat)
    ratio = t[0] / floor[0]
    report("startup: analyze 100-layer log", ms(*t), ratio, "<= 3", ratio <= 3)


def throughput(big: Path, repeat: int) -> None:
    size_mb = big.stat().st_size / 1e6
    n = max(3, repeat // 2)
    loop = median_run([PY, "-c", f"for _ in open({str(big)!r}, 'rb'): pass"], n)
    t = median_run([*RKNNPROF, "analyze", str(big), "-f", "json"], n)
    print(f"{f'floor: line loop over {size_mb:.0f} MB':<40} {ms(*loop):>24}")
    rate, ratio = size_mb / t[0], t[0] / loop[0]
    report(f"throughput: analyze {size_mb:.0f} MB logcat", f"{rate:.1f} MB/s, {ms(*t)}", ratio,
           "<= 25", ratio <= 25 and rate >= 50)


def memory(tmp: Path, big: Path, big_mb: float, full: bool) -> None:
    sizes = [10.0, 100.0] + ([1000.0] if full else [])
    peaks: dict[float, int] = {}
    for mb in sizes:
        path = big if mb == big_mb else capture(tmp / f"capture{int(mb)}.log", mb)
        peaks[mb] = Run([*RKNNPROF, "analyze", str(path), "-f", "json"]).peak_kib
        ratio = peaks[mb] / peaks[sizes[0]]
        report(f"memory: peak RSS, {mb:.0f} MB capture", f"{peaks[mb] / 1024:.0f} MiB", ratio,
               "vs 10 MB", None)
    if 1000.0 in peaks:
        ratio = peaks[1000.0] / peaks[100.0]
        report("memory: 1 GB peak / 100 MB peak", "", ratio, "<= 1.2", ratio <= 1.2)


def main() -> None:
    parser = argparse.ArgumentParser(description="rknnprof benchmarks")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--full", action="store_true", help="include the 1 GB capture")
    parser.add_argument("--size-mb", type=float, default=100.0, help="throughput capture size")
    parser.add_argument("--only", choices=("startup", "throughput", "memory"), action="append",
                        help="run only these parts (repeatable)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep the generated captures in DIR and reuse them next time")
    args = parser.parse_args()
    parts = set(args.only or ("startup", "throughput", "memory"))
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="rknnprof-bench-"))
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        if "startup" in parts:
            startup(tmp, args.repeat)
        big = tmp / f"capture{int(args.size_mb)}.log"
        if parts & {"throughput", "memory"}:
            capture(big, args.size_mb)
        if "throughput" in parts:
            throughput(big, args.repeat)
        if "memory" in parts:
            memory(tmp, big, args.size_mb, args.full)
    finally:
        if args.keep is None:
            for path in tmp.iterdir():
                path.unlink()
            tmp.rmdir()


if __name__ == "__main__":
    main()
