"""Peak memory of ``rknnprof analyze FILE -f json`` on hostile and huge inputs (issue #7).

    python benchmarks/memory_limits.py                  # 100 MB line, 1 GB capture, 1 GB pipe
    python benchmarks/memory_limits.py --capture-mb 200 --line-mb 20   # quicker

Cases:

* ``long-line``: a real table, then one line of ``--line-mb`` MB with no newline (row-like
  text), then the same table again. Lines are capped at ``rknnprof.inputs.lines.MAX_LINE_CHARS``, so
  memory must not follow the line's length.
* ``capture``: ``generate.logcat_capture`` (adb logcat -v threadtime, RKNN_LOG_LEVEL=4, one
  100-layer table per inference) of ``--capture-mb`` MB. Frames merge into per-layer medians,
  so memory must not follow the number of frames.
* ``pipe``: the same capture streamed on stdin (``analyze -``) from this process, never on disk:
  what an endless ``adb logcat | rknnprof analyze -`` does.

Peak RSS comes from ``os.wait4`` (``ru_maxrss``, KiB on Linux) of the child alone. Target:
below ``--limit-mb`` (200 MB) in every case. Exit status 1 when a case is over the limit or the
command failed. The lead's ``benchmarks/run.py`` measures throughput and startup; this file is
only about bounds.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402

CMD = [sys.executable, "-m", "rknnprof", "analyze", "-f", "json"]
ENV = {**os.environ, "PYTHONPATH": str(HERE.parent) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def write_long_line(path: Path, size_mb: float) -> None:
    """A table, a line of ``size_mb`` MB without a newline, the table again."""
    table = "\n".join(generate.table(60)) + "\n"
    piece = "1    Conv  INT8  NPU  (1,3,640,640),(16,3,3,3),(16)  164250/921600/921600  " * 64
    chunk = piece.encode()
    left = int(size_mb * 1_000_000)
    with open(path, "wb") as f:
        f.write(table.encode())
        while left > 0:
            f.write(chunk[:left])
            left -= len(chunk)
        f.write(b"\n")
        f.write(table.encode())


def measure(cmd: list[str], feed: Path | None = None, feed_mb: float = 0) -> dict:
    """Run ``cmd``; stdout discarded, stderr to a file; peak RSS of the child (MB)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE if feed_mb else subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=ENV,
        )
        if feed_mb:
            _stream_capture(proc.stdin, feed_mb)  # type: ignore[arg-type]
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.perf_counter() - start
        err.seek(0)
        stderr = err.read().decode(errors="replace").splitlines()
    return {
        "rss_mb": usage.ru_maxrss / 1024,
        "seconds": elapsed,
        "exit": proc.returncode,
        "stderr_lines": len(stderr),
        "last_stderr": stderr[-1][:160] if stderr else "",
    }


def _stream_capture(pipe, size_mb: float) -> None:
    """Write a threadtime capture of ``size_mb`` MB into ``pipe`` (generated on the fly)."""
    with tempfile.TemporaryDirectory() as tmp:
        frame_file = Path(tmp) / "frames.log"
        generate.logcat_capture(frame_file, 2)  # ~2 MB of frames, repeated
        block = frame_file.read_bytes()
    sent, limit = 0, int(size_mb * 1_000_000)
    try:
        while sent < limit:
            pipe.write(block)
            sent += len(block)
    except BrokenPipeError:
        pass
    finally:
        pipe.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--line-mb", type=float, default=100)
    parser.add_argument("--capture-mb", type=float, default=1000)
    parser.add_argument("--limit-mb", type=float, default=200)
    parser.add_argument("--dir", type=Path, default=None, help="where to write the inputs")
    parser.add_argument(
        "--skip", action="append", default=[], choices=["long-line", "capture", "pipe"]
    )
    args = parser.parse_args()

    work = Path(args.dir or tempfile.mkdtemp(prefix="rknnprof-mem-"))
    work.mkdir(parents=True, exist_ok=True)
    results: list[tuple[str, dict]] = []
    baseline = measure([sys.executable, "-c", "import click, rich.console"])
    print(f"floor (python + click + rich): {baseline['rss_mb']:.1f} MB", flush=True)
    if "long-line" not in args.skip:
        path = work / "long_line.log"
        write_long_line(path, args.line_mb)
        results.append((f"long-line {args.line_mb:g} MB", measure([*CMD, str(path)])))
        path.unlink()
    if "capture" not in args.skip:
        path = work / "capture.log"
        frames = generate.logcat_capture(path, args.capture_mb)
        results.append(
            (f"capture {args.capture_mb:g} MB ({frames} frames)", measure([*CMD, str(path)]))
        )
        path.unlink()
    if "pipe" not in args.skip:
        results.append(
            (f"pipe {args.capture_mb:g} MB on stdin", measure([*CMD, "-"], feed_mb=args.capture_mb))
        )
    failed = False
    for name, r in results:
        over = r["rss_mb"] > args.limit_mb or r["exit"] not in (0,)
        failed |= over
        print(
            f"{name:<40} peak RSS {r['rss_mb']:7.1f} MB  {r['seconds']:7.1f} s  exit {r['exit']}"
            f"  {'OVER' if over else 'ok'}  ({r['stderr_lines']} stderr lines; last: "
            f"{r['last_stderr']!r})",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
