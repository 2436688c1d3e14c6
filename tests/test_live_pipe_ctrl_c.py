"""Ctrl-C on a live ``adb logcat | rknnprof analyze -``: a real corpus table (07, yolov5n on
RK3588, 93 rows) written three times by a slow writer, then a partial fourth frame cut mid-row;
SIGINT once the three frames are read. The report covers the three complete frames, the partial
one is dropped with a warning, the exit code is the run's own (0, docs/errors.md), and no
traceback is printed."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import corpus_file, read_all
from synthetic_logs import threadtime

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and a pty")

# layer 2 (Conv:/model.0/convsp/Conv) prints 810 us and the total line 14478 us in the log;
# frames 2 and 3 move layer 2 by +20 / -20 us and their total lines with it
SHIFTS = (0, 20, -20)


def _frames(lines: list[str]) -> list[str]:
    table = lines[: lines.index("Total Memory Read/Write Per Frame Size(KB): 30114.03") + 2]
    out: list[str] = ["--------- beginning of main"]
    for n, shift in enumerate(SHIFTS):
        frame = []
        for line in table:
            if line.startswith("2    Conv "):
                line = line.replace(" 810          1.78", f" {810 + shift}          1.78")
            elif line.startswith("Total Operator Elapsed Per Frame Time(us): "):
                line = f"Total Operator Elapsed Per Frame Time(us): {14478 + shift}"
            frame.append(line)
        out += threadtime(frame, 2345, 2399, start_ms=n * 1000)
    # the fourth inference: title, header and rows 1-40, then row 41 cut mid-line
    partial = table[: table.index(next(x for x in table if x.startswith("41   ")))]
    out += threadtime(partial, 2345, 2399, start_ms=5000)
    return out


def test_ctrl_c_keeps_the_complete_frames_and_drops_the_partial_one() -> None:
    lines = _frames(corpus_file("07_").read_text().splitlines())
    cut_row = "11-30 10:00:05.200  2345  2399 D RKNN    : 41   ConvExSwish        INT8     NPU"

    master, slave = pty.openpty()  # stderr on a terminal: the progress line tells what was read
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rknnprof", "analyze", "-f", "json", "--color", "never", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=env,
        cwd=REPO,
    )
    os.close(slave)
    err: list[bytes] = []
    reader = threading.Thread(target=read_all, args=(master, err), daemon=True)
    reader.start()
    assert proc.stdin is not None
    for line in lines:  # a slow writer: one line at a time, as adb prints them
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()
        time.sleep(0.002)
    proc.stdin.write(cut_row.encode())  # no newline: the pipe stays open mid-row
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while b"frames: 3" not in b"".join(err) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # the partial frame's rows read too
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    reader.join(timeout=5)
    os.close(master)
    text = b"".join(err).decode(errors="replace")

    assert proc.returncode == 0, text
    assert "Traceback" not in text
    assert "interrupted (Ctrl-C)" in text
    assert (
        "a partial last frame (40 of 93 rows, no total line, 1 unreadable row) was dropped: 3 "
        "complete frame(s) kept"
    ) in text
    assert "skipped row" not in text  # the cut row 41: counted by the drop's warning
    [profile] = json.loads(out)["profiles"]
    assert profile["frames"] == 3 and profile["pid_tid"] == [2345, 2399]
    assert len(profile["layers"]) == 93 and profile["incomplete"] is None
    conv = profile["layers"][1]
    assert conv["full_name"] == "Conv:/model.0/convsp/Conv"
    assert (conv["time_us"], conv["time_min_us"], conv["time_max_us"]) == (810, 790, 830)
    assert profile["layers"][2]["time_us"] == 1814  # layer 3 as printed, every frame
    assert profile["reported_total_time_us"] == 14478
    assert profile["frame_times_us"] == [14478, 14498, 14458]
