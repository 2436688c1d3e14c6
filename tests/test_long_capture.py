"""Issue #3, done-when: a long ``adb logcat -v threadtime`` capture of two interleaved processes
running different models (corpus 36 and corpus 07), with noise from other tags.

* two profiles, with the layer counts of the source tables and ``frames`` counted;
* per-layer medians equal to the source times (the jitter added is symmetric), min/max kept;
* peak memory does not grow with the number of frames (100 against 1,000 frames);
* a slow writer feeding ``rknnprof analyze -`` gives the same report as reading the file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
NOISE = "I ActivityManager: Start proc 4321:com.example/u0a123 for service"


JITTERED_A = (("63", "151"), ("2", "10"), ("3", "4"))
JITTERED_B = (("3", "74"), ("4", "6"), ("8", "5"))
"""Pairs of layers (IDs) of corpus 36 and corpus 07 whose times :func:`_jittered` moves."""


def _jittered(lines: list[str], frame: int, pairs: tuple[tuple[str, str], ...]) -> list[str]:
    """Frame ``frame`` (under 1,023) of a table: the first layer of each pair slower by d us, the
    second faster by d, d in -1..1 for the first pair, -5..5 and -15..15 for the others, each
    frame a combination of its own (the frame's total is unchanged, the per-layer medians are the
    source times; a frame equal to an earlier one in every row is a copy, counted once)."""
    shifts = (frame % 3 - 1, frame // 3 % 11 - 5, frame // 33 % 31 - 15)
    moved = {}
    for (slower, faster), d in zip(pairs, shifts):
        moved[slower], moved[faster] = d, -d
    out = []
    for line in lines:
        head = line.split(" ", 1)[0]
        if moved.get(head):
            cells = line.split()
            time_cell = cells[7]
            new = str(int(time_cell) + moved[head])
            line = line.replace(
                f"  {time_cell} ", f"  {new}{' ' * (len(time_cell) - len(new))} ", 1
            )
        out.append(line)
    return out


def write_capture(path: Path, frames: int, table_a: list[str], table_b: list[str]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write("--------- beginning of main\n")
        for frame in range(frames):
            a = _jittered(table_a, frame, JITTERED_A)
            b = _jittered(table_b, frame, JITTERED_B)
            for i in range(max(len(a), len(b))):
                stamp = f"11-30 10:00:{frame % 60:02d}.{i % 1000:03d}"
                if i < len(a):
                    f.write(f"{stamp}  1111  1112 D RKNN    : {a[i]}\n")
                if i % 40 == 0:
                    f.write(f"{stamp}   561   602 {NOISE}\n")
                if i < len(b):
                    f.write(f"{stamp}  2222  2223 D RKNN    : {b[i]}\n")


@pytest.fixture
def tables(corpus):
    def body(prefix: str) -> list[str]:
        lines = corpus(prefix).read_text(encoding="utf-8").splitlines()
        return [line for line in lines if line.strip()]

    return body("36_"), body("07_")


def start_analyze(args: list[str], **kwargs) -> subprocess.Popen:
    """``rknnprof analyze -f json ARGS`` started in a subprocess, stdout piped."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-m", "rknnprof", "analyze", "-f", "json", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        **kwargs,
    )


def analyze_file(path: Path) -> tuple[dict, int]:
    """The JSON report of ``path`` and the peak RSS of the run, KiB."""
    proc = start_analyze([str(path)])
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return json.loads(out), usage.ru_maxrss


def test_thousand_frames_two_processes(tmp_path, tables):
    table_a, table_b = tables
    small, big = tmp_path / "100.log", tmp_path / "1000.log"
    write_capture(small, 100, table_a, table_b)
    write_capture(big, 1000, table_a, table_b)
    report, peak_big = analyze_file(big)
    _, peak_small = analyze_file(small)

    by_stream = {tuple(p["pid_tid"]): p for p in report["profiles"]}
    assert set(by_stream) == {(1111, 1112), (2222, 2223)}
    a, b = by_stream[(1111, 1112)], by_stream[(2222, 2223)]
    assert (len(a["layers"]), a["frames"], a["total_time_us"]) == (168, 1000, 20344)
    assert (len(b["layers"]), b["frames"], b["total_time_us"]) == (93, 1000, 14478)
    layer63 = next(la for la in a["layers"] if la["id"] == 63)
    assert (layer63["time_us"], layer63["time_min_us"], layer63["time_max_us"]) == (
        1338,
        1337,
        1339,
    )
    layer2 = next(la for la in b["layers"] if la["id"] == 2)
    assert layer2["time_us"] == 810  # read from corpus 07, row 2
    # ten times the frames, (almost) the same memory: the statistics are per layer
    assert peak_big <= peak_small * 1.2 + 4096, (peak_small, peak_big)


def test_slow_writer_gives_the_same_report(tmp_path, tables):
    table_a, table_b = tables
    path = tmp_path / "capture.log"
    write_capture(path, 12, table_a, table_b)
    from_file, _ = analyze_file(path)

    proc = start_analyze(["-"], stdin=subprocess.PIPE)
    with open(path, "rb") as f:
        lines = f.readlines()
    for start in range(0, len(lines), 400):  # a few hundred lines at a time, with pauses
        proc.stdin.write(b"".join(lines[start : start + 400]))
        proc.stdin.flush()
        time.sleep(0.01)
    proc.stdin.close()
    from_pipe = json.loads(proc.stdout.read())
    assert proc.wait() == 0
    for report in (from_file, from_pipe):
        for profile in report["profiles"]:
            profile.pop("source")
    assert from_pipe == from_file
