"""``adb logcat | rknnprof analyze -``: a real subprocess fed through a pipe, then SIGINT."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import read_all
from synthetic_logs import table, threadtime

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

FRAMES = [[10, 100, 200, 5], [12, 110, 190, 5], [11, 90, 210, 6]]


def _capture() -> bytes:
    lines = ["--------- beginning of main"]
    for n, times in enumerate(FRAMES):
        lines += threadtime(table(times, "yolo"), 2345, 2399, start_ms=n * 100)
        if n == 0:
            lines.append(  # (logd squashed lines of the process that prints the tables)
                "11-30 10:00:00.500  2345  2399 I chatty  : uid=10099(u0_a99) "
                "rknn_demo identical 3 lines"
            )
    # a partial last line: the pipe is cut mid-row
    return ("\n".join(lines) + "\n11-30 10:00:09.000  2345  2399 D RKNN    : 2    Conv").encode()


def _start() -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-m", "rknnprof", "analyze", "-f", "json", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=REPO,
    )


def _feed_and_wait(proc: subprocess.Popen) -> None:
    assert proc.stdin is not None
    proc.stdin.write(_capture())
    proc.stdin.flush()  # the pipe stays open: the reader is now blocked waiting for more
    time.sleep(1.5)  # interpreter start-up and the first lines parsed


def test_first_ctrl_c_prints_the_report_for_what_was_read() -> None:
    proc = _start()
    _feed_and_wait(proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err.decode()
    [profile] = json.loads(out)["profiles"]
    assert profile["frames"] == 3 and profile["pid_tid"] == [2345, 2399]
    # medians per layer: (100, 110, 90) -> 100 and (200, 190, 210) -> 200
    assert [la["time_us"] for la in profile["layers"]] == [11, 100, 200, 5]
    assert profile["layers"][1]["time_min_us"] == 90 and profile["layers"][1]["time_max_us"] == 110
    text = err.decode()
    assert "interrupted (Ctrl-C)" in text and "chatty" in text
    assert "frames:" not in text  # stderr is a pipe here: no progress line
    assert "Traceback" not in text


def test_eof_prints_the_report() -> None:
    proc = _start()
    out, err = proc.communicate(_capture(), timeout=30)
    assert proc.returncode == 0, err.decode()
    [profile] = json.loads(out)["profiles"]
    assert profile["frames"] == 3
    assert "interrupted" not in err.decode()


def test_second_ctrl_c_exits_130() -> None:
    proc = _start()
    _feed_and_wait(proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    if proc.returncode == 0:
        pytest.skip("the report was done before the second signal arrived (fast machine)")
    assert proc.returncode == 130, err.decode()
    assert "Traceback" not in err.decode()


def test_progress_line_on_a_terminal_stderr() -> None:
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rknnprof", "analyze", "-f", "json", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=env,
        cwd=REPO,
    )
    os.close(slave)
    out, _ = proc.communicate(_capture(), timeout=30)
    err = read_all(master).decode(errors="replace")
    os.close(master)
    assert proc.returncode == 0
    # the last frame is the third: 11 + 90 + 210 + 6 = 317 us
    assert "frames: 3  last frame: 0.32 ms" in err
