"""rknnprof benchmarks: every figure of the README's Performance table, each as a ratio to a floor
measured in the same run (absolute times on a shared machine are noise).

    python benchmarks/run.py              # startup, throughput (60 MB), memory (60 MB, 10/100 MB)
    python benchmarks/run.py --full       # adds the 1 GB capture (throughput, memory)
    python benchmarks/run.py --repeat 9   # more runs per figure (medians are reported)
    python benchmarks/run.py --only throughput --keep /tmp/rknnprof-bench
    python benchmarks/run.py --quick      # tiny inputs, one run each: checks the harness only

Run it from the repository root (``python -m rknnprof`` must import this checkout).

Figures, floors and targets (issues #12 and #24): see ``TARGETS``. The captures come from
``generate.py``: 108-layer tables, one per inference, as ``adb logcat -v threadtime`` lines
(with noise from other tags), as the runtime's own ``D RKNN: [hh:mm:ss.mmm]`` lines, or as
three processes printing their tables at once, their lines interleaved (one context per NPU
core).

How it measures:

* **CPU time** (user + system, from ``wait4``) of each child process. A figure's floor and its
  command run alternately, ``--repeat`` times each after one warm-up run of each, so load that
  comes and goes on the machine falls on both; the ratio is median / median. The min-max spread
  of the command's runs is printed: re-run when it is wide. Wall-time medians are printed too.
* Children run with ``PYTHONDONTWRITEBYTECODE`` removed from their environment, so the warm-up
  run writes the bytecode caches and startup is measured as for an installed package.
* Peak memory is the child's peak RSS (``ru_maxrss``), one run per case.

``--quick`` runs every figure once on inputs of a few hundred kB and prints no verdicts: the
test suite runs it so that the harness keeps working (no timing is asserted in tests).
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
LAYERS = 108
"""Rows of the benchmark model's table (the real RK3588 table of issue #12 has 108)."""
IMPORT_FLOOR = [PY, "-c", "import click, rich.console"]

TARGETS = {  # figure -> (upper bound of the ratio, lower bound of MB/s or None)
    "startup: rknnprof --help": (1.1, None),
    "startup: analyze 108-layer table": (1.8, None),
    "startup: analyze -f json 108-layer": (1.5, None),
    "throughput: logcat -f json": (8.0, 150.0),
    "throughput: D RKNN: lines -f json": (8.0, None),
    "throughput: logcat on stdin": (8.0, None),
    "throughput: 3 processes -f json": (8.0, 150.0),
    "throughput: 1 GB logcat -f json": (8.0, None),
    "memory: -f trace / -f json": (1.3, None),
    "memory: -f trace / -f json, 3 processes": (1.3, None),
    "memory: 1 GB / 100 MB, -f json": (1.15, None),
    "memory: 1 GB / 100 MB, -f trace": (1.15, None),
}


class Run:
    """CPU seconds, wall seconds and peak RSS (KiB) of one child process."""

    def __init__(
        self, cmd: list[str], stdin: Path | None = None, env: dict[str, str] | None = None
    ) -> None:
        start = time.perf_counter()
        source = open(stdin, "rb") if stdin is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            proc = subprocess.Popen(
                cmd,
                stdin=source,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env=ENV if env is None else env,
            )
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            if stdin is not None:
                source.close()  # type: ignore[union-attr]
        self.wall = time.perf_counter() - start
        self.cpu = usage.ru_utime + usage.ru_stime
        self.peak_kib = usage.ru_maxrss
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            raise SystemExit(f"benchmark command failed ({code}): {' '.join(cmd)}\n{err[-2000:]}")


class Paired:
    """A floor and a command run alternately ``repeat`` times each, after one warm-up each."""

    def __init__(
        self,
        floor: list[str],
        cmd: list[str],
        repeat: int,
        stdin: Path | None = None,
        floor_env: dict[str, str] | None = None,
    ) -> None:
        Run(floor, env=floor_env)
        Run(cmd, stdin)
        self.floor: list[Run] = []
        self.runs: list[Run] = []
        for _ in range(repeat):
            self.floor.append(Run(floor, env=floor_env))
            self.runs.append(Run(cmd, stdin))

    @staticmethod
    def median(runs: list[Run]) -> tuple[float, float]:
        return statistics.median(r.cpu for r in runs), statistics.median(r.wall for r in runs)

    @property
    def ratio(self) -> float:
        return self.median(self.runs)[0] / self.median(self.floor)[0]

    @property
    def spread(self) -> str:
        """min-max of the command's CPU times, as a share of their median."""
        cpus = [r.cpu for r in self.runs]
        return f"spread {100 * (max(cpus) - min(cpus)) / statistics.median(cpus):.0f}%"


class Table:
    """Prints figures as they come; remembers verdicts for the summary."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.missed: list[str] = []

    def floor(self, label: str, runs: list[Run]) -> None:
        cpu, wall = Paired.median(runs)
        print(f"{'  floor: ' + label:<44} {ms(cpu, wall):>26}", flush=True)

    def figure(
        self, name: str, value: str, ratio: float, rate: float | None = None, note: str = ""
    ) -> None:
        bound, min_rate = TARGETS.get(name, (None, None))
        target = (
            ""
            if bound is None
            else f"<= {bound}" + (f", >= {min_rate:.0f} MB/s" if min_rate else "")
        )
        ok = bound is None or ratio <= bound and (min_rate is None or (rate or 0) >= min_rate)
        verdict = "" if self.quick or bound is None else "ok" if ok else "MISSED"
        if not ok and not self.quick:
            self.missed.append(name)
        print(
            f"{name:<44} {value:>26}   ratio {ratio:6.2f}   {target:<20} {verdict} {note}",
            flush=True,
        )


def ms(cpu: float, wall: float) -> str:
    return f"{cpu * 1000:.0f} ms ({wall * 1000:.0f} wall)"


def capture(path: Path, size_mb: float, layout: str = "threadtime") -> Path:
    """A generated capture of ``size_mb`` MB at ``path`` (kept if already there). ``layout``:
    ``threadtime``, ``rknn`` or ``three`` (3 processes printing at once, lines interleaved)."""
    if not path.exists():
        if layout == "three":
            generate.interleaved_capture(path, size_mb, LAYERS, streams=3)
        else:
            generate.logcat_capture(path, size_mb, LAYERS, layout=layout)
    return path


def startup(out: Table, tmp: Path, repeat: int) -> None:
    log = tmp / f"table{LAYERS}.txt"
    log.write_text("\n".join(generate.table(LAYERS)) + "\n")
    cases = [
        ("startup: rknnprof --help", [*RKNNPROF, "--help"]),
        (f"startup: analyze {LAYERS}-layer table", [*RKNNPROF, "analyze", str(log), "-f", "table"]),
        (
            f"startup: analyze -f json {LAYERS}-layer",
            [*RKNNPROF, "analyze", str(log), "-f", "json"],
        ),
    ]
    for name, cmd in cases:
        pair = Paired(IMPORT_FLOOR, cmd, repeat)
        out.floor('python -c "import click, rich.console"', pair.floor)
        out.figure(name, ms(*pair.median(pair.runs)), pair.ratio, note=pair.spread)


def throughput(
    out: Table, logcat: Path, rknn: Path, three: Path, big: Path | None, repeat: int
) -> None:
    cases = [
        ("throughput: logcat -f json", logcat, False),
        ("throughput: D RKNN: lines -f json", rknn, False),
        ("throughput: logcat on stdin", logcat, True),
        ("throughput: 3 processes -f json", three, False),
    ]
    if big is not None:
        cases.append(("throughput: 1 GB logcat -f json", big, False))
    for name, path, on_stdin in cases:
        size_mb = path.stat().st_size / 1e6
        loop = [PY, "-c", f"for _ in open({str(path)!r}, 'rb'): pass"]
        cmd = [*RKNNPROF, "analyze", "-" if on_stdin else str(path), "-f", "json"]
        pair = Paired(loop, cmd, repeat, stdin=path if on_stdin else None)
        out.floor(f"line loop over {path.name} ({size_mb:.0f} MB)", pair.floor)
        cpu, wall = pair.median(pair.runs)
        rate = size_mb / cpu
        out.figure(name, f"{rate:.0f} MB/s, {ms(cpu, wall)}", pair.ratio, rate, pair.spread)


NO_FASTPATH = {**ENV, "RKNNPROF_NO_FASTPATH": "1"}


def fastpath(out: Table, three: Path, repeat: int) -> None:
    """The 3-process capture with the fast path on, against the same command with it off
    (``RKNNPROF_NO_FASTPATH=1``). No target: on must be faster; the reports are the same,
    which the tests check."""
    cmd = [*RKNNPROF, "analyze", str(three), "-f", "json"]
    pair = Paired(cmd, cmd, repeat, floor_env=NO_FASTPATH)
    out.floor(f"the same, RKNNPROF_NO_FASTPATH=1 ({three.name})", pair.floor)
    out.figure("fast path on / off, 3 processes", ms(*pair.median(pair.runs)), pair.ratio)


def peak_mib(path: Path, fmt: str) -> float:
    return Run([*RKNNPROF, "analyze", str(path), "-f", fmt]).peak_kib / 1024


def memory(
    out: Table, tmp: Path, logcat: Path, three: Path, sizes: tuple[float, float, float | None]
) -> None:
    small, medium, big = sizes
    for figure, path in (
        ("memory: -f trace / -f json", logcat),
        ("memory: -f trace / -f json, 3 processes", three),
    ):
        json_peak, trace_peak = peak_mib(path, "json"), peak_mib(path, "trace")
        label = "  floor: peak RSS, -f json of " + path.name
        print(f"{label:<44} {json_peak:>22.0f} MiB", flush=True)
        out.figure(figure, f"{trace_peak:.0f} MiB", trace_peak / json_peak)
    paths = {mb: capture(tmp / f"capture{mb:g}.log", mb) for mb in (small, medium)}
    if big is not None:
        paths[big] = capture(tmp / f"capture{big:g}.log", big)
    for fmt in ("json", "trace"):
        peaks = {mb: peak_mib(path, fmt) for mb, path in paths.items()}
        out.figure(
            f"memory: {medium:g} MB / {small:g} MB, -f {fmt}",
            f"{peaks[medium]:.0f} MiB",
            peaks[medium] / peaks[small],
        )
        if big is not None:
            out.figure(
                f"memory: 1 GB / 100 MB, -f {fmt}",
                f"{peaks[big]:.0f} MiB",
                peaks[big] / peaks[medium],
            )


def main() -> None:
    parser = argparse.ArgumentParser(description="rknnprof benchmarks")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--full", action="store_true", help="include the 1 GB capture")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="tiny inputs, one run each, no verdicts (checks the harness)",
    )
    parser.add_argument("--size-mb", type=float, default=60.0, help="throughput capture size")
    parser.add_argument(
        "--only",
        choices=("startup", "throughput", "fastpath", "memory"),
        action="append",
        help="run only these parts (repeatable)",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="keep the generated captures in DIR and reuse them next time",
    )
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.size_mb, args.full = 1, 0.3, False
    sizes = (0.1, 0.3, None) if args.quick else (10.0, 100.0, 1000.0 if args.full else None)
    parts = set(args.only or ("startup", "throughput", "fastpath", "memory"))
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="rknnprof-bench-"))
    tmp.mkdir(parents=True, exist_ok=True)
    out = Table(args.quick)
    try:
        if "startup" in parts:
            startup(out, tmp, args.repeat)
        mb = f"{args.size_mb:g}"
        logcat = capture(tmp / f"logcat{mb}.log", args.size_mb)
        three = capture(tmp / f"three{mb}.log", args.size_mb, "three")
        big = capture(tmp / f"capture{sizes[2]:g}.log", sizes[2]) if sizes[2] else None
        if "throughput" in parts:
            rknn = capture(tmp / f"rknn{mb}.log", args.size_mb, "rknn")
            throughput(out, logcat, rknn, three, big, max(3, args.repeat) if not args.quick else 1)
        if "fastpath" in parts:
            fastpath(out, three, max(3, args.repeat) if not args.quick else 1)
        if "memory" in parts:
            memory(out, tmp, logcat, three, sizes)
    finally:
        if args.keep is None:
            for path in tmp.iterdir():
                path.unlink()
            tmp.rmdir()
    if out.missed:
        print(f"missed: {', '.join(out.missed)}")


if __name__ == "__main__":
    main()
