"""``-o`` onto things that are not regular files, and stdout/stdin that are closed or full.

A FIFO, a symlink and a character device are written in place and stay what they were (the
atomic temp-file-and-rename replaced each with a regular file; as root, ``-o /dev/null``
destroyed the device node). A write error is one line and exit 2."""

from __future__ import annotations

import json
import os
import select
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.hostile.helpers import SAMPLE, run

CLI = [sys.executable, "-m", "rknnprof"]


def _read_fifo(fifo, received: list[bytes], seconds: float = 20) -> None:
    """Read ``fifo`` until its writer closes it (or ``seconds`` pass: the old code never opened
    it, and a blocking read would hang the suite)."""
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not select.select([fd], [], [], 0.1)[0]:
                continue
            data = os.read(fd, 65536)
            if data:
                received.append(data)
            elif received:
                return  # EOF after the writer's data
            else:
                time.sleep(0.05)  # no writer yet
    finally:
        os.close(fd)


def test_fifo_is_written_in_place(tmp_path, capsys, monkeypatch):
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, received), daemon=True)
    reader.start()
    code, _, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "-f", "json", "-o", str(fifo))
    reader.join(timeout=20)
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(b"".join(received))["profiles"][0]["layers"][1]["time_us"] == 6030
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".rknnprof-")]


def test_symlink_stays_a_symlink(tmp_path, capsys, monkeypatch):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, _, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert (
        json.loads(target.read_text())["profiles"][0]["layers"][1]["full_name"]
        == "Conv:/model.0/conv/Conv"
    )


def test_regular_file_is_still_replaced_whole(tmp_path, capsys, monkeypatch):
    out = tmp_path / "r.json"
    out.write_text("old")
    inode = out.stat().st_ino
    code, _, _ = run(capsys, monkeypatch, "analyze", str(SAMPLE), "-o", str(out))
    assert code == 0
    assert out.stat().st_ino != inode  # a new file renamed over the old one
    assert json.loads(out.read_text())["profiles"]


def _device(tmp_path, name, major, minor):
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    path = tmp_path / name
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
    return path


def test_character_device_stays_a_device(tmp_path, capsys, monkeypatch):
    null = _device(tmp_path, "null", 1, 3)
    code, _, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "-f", "json", "-o", str(null))
    assert code == 0, err
    mode = os.lstat(null).st_mode
    assert stat.S_ISCHR(mode) and os.lstat(null).st_rdev == os.makedev(1, 3)


def test_full_device_is_an_error(tmp_path, capsys, monkeypatch):
    full = _device(tmp_path, "full", 1, 7)
    code, out, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "-f", "json", "-o", str(full))
    assert code == 2
    assert err == f"Error: {full}: cannot write the report: No space left on device\n"
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_directory_is_an_error(tmp_path, capsys, monkeypatch):
    code, _, err = run(
        capsys, monkeypatch, "analyze", str(SAMPLE), "-f", "json", "-o", str(tmp_path)
    )
    assert code == 2
    assert err == f"Error: {tmp_path}: cannot write the report: is a directory\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_full_stdout_is_an_error():
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [*CLI, "analyze", str(SAMPLE)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 2
    assert proc.stderr == "Error: -: cannot write the report: No space left on device\n"


@pytest.mark.parametrize(
    ("closed", "args", "message"),
    [
        (
            1,
            ["analyze", str(SAMPLE)],
            "Error: -: cannot write the report: standard output is closed\n",
        ),
        (0, ["analyze"], "Error: -: cannot read: standard input is closed\n"),
        (0, ["analyze", "-"], "Error: -: cannot read: standard input is closed\n"),
    ],
)
def test_closed_std_stream_is_one_line(closed, args, message):
    proc = subprocess.run(
        [*CLI, *args],
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        pass_fds=(),
        preexec_fn=lambda: os.close(closed),
    )
    assert proc.returncode == 2
    assert proc.stderr == message


def test_closed_stdout_with_o_file_still_works(tmp_path):
    out = tmp_path / "r.json"
    proc = subprocess.run(
        [*CLI, "analyze", str(SAMPLE), "-o", str(out)],
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(1),
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["profiles"]


def test_an_output_onto_an_input_is_refused(tmp_path):
    """``analyze run.txt -o run.txt`` replaced the log by its own report without a word (as
    did compare's -o and check's --save-baseline); the ratchet ``--baseline b.json
    --save-baseline b.json`` stays allowed (the baseline is read first)."""
    import subprocess
    import sys

    from tests.hostile.helpers import SAMPLE

    log = tmp_path / "run.txt"
    log.write_bytes(SAMPLE.read_bytes())
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max_increase: 5%\n", "utf-8")
    base = tmp_path / "base.json"

    def rknnprof(*args):
        return subprocess.run(
            [sys.executable, "-m", "rknnprof", *map(str, args)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )

    for args, option in (
        (("analyze", log, "-o", tmp_path / "." / "run.txt"), "-o"),
        (("compare", SAMPLE, log, "-o", log), "-o"),
        (("check", log, "--budgets", budgets, "--save-baseline", log), "--save-baseline"),
        (("check", log, "--budgets", budgets, "-f", "json", "-o", budgets), "-o"),
    ):
        done = rknnprof(*args)
        assert done.returncode == 2, done.stderr
        assert f"Error: {option} " in done.stderr and "it would be overwritten" in done.stderr
        assert log.read_bytes() == SAMPLE.read_bytes()
    assert rknnprof("check", log, "--budgets", budgets, "--save-baseline", base).returncode == 0
    done = rknnprof("check", log, "--budgets", budgets, "--baseline", base, "--save-baseline", base)
    assert done.returncode == 0, done.stderr


def test_outputs_that_would_clobber_or_mix_are_refused(tmp_path):
    """``analyze - -o run.txt < run.txt`` replaced the log; ``-o x --save-baseline x`` left a
    baseline the next run refused; ``--save-baseline -`` mixed the baseline's JSON into the
    verdict on stdout."""
    import subprocess
    import sys

    from tests.hostile.helpers import SAMPLE

    log = tmp_path / "run.txt"
    log.write_bytes(SAMPLE.read_bytes())
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max: 1000000\n", "utf-8")

    def rknnprof(*args, stdin=None):
        return subprocess.run(
            [sys.executable, "-m", "rknnprof", *map(str, args)],
            stdin=stdin,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )

    with log.open("rb") as fh:
        done = rknnprof("analyze", "-", "-o", log, stdin=fh)
    assert done.returncode == 2 and "is the input stdin's file" in done.stderr
    assert log.read_bytes() == SAMPLE.read_bytes()
    out = tmp_path / "x.json"
    done = rknnprof("check", log, "--budgets", budgets, "-o", out, "--save-baseline", out)
    assert done.returncode == 2 and "both" in done.stderr and not out.exists()
    done = rknnprof("check", log, "--budgets", budgets, "--save-baseline", "-")
    assert done.returncode == 2 and "--save-baseline - would mix" in done.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_a_device_of_binary_data_is_refused_not_read_forever(capsys, monkeypatch):
    """``/dev/zero`` never ends: it was read until killed (a file of NULs is refused at once,
    as the same bytes on stdin end with the input)."""
    code, out, err = run(capsys, monkeypatch, "analyze", "/dev/zero")
    assert (code, out) == (2, "")
    assert err == (
        "Error: /dev/zero: a device that gives binary data, not a log: give a capture file, or "
        "pipe the device's text\n"
    )


@pytest.mark.parametrize(
    ("fmt", "kind"),
    [
        ("json", "JSON"),
        ("html", "HTML"),
        ("markdown", "Markdown"),
        ("csv", "CSV"),
        ("trace", "trace"),
        ("junit", "JUnit"),
    ],
)
def test_a_report_rknnprof_wrote_given_to_analyze_says_so(fmt, kind, tmp_path, capsys, monkeypatch):
    """A JSON report said "no RKNN profile data in 1 line(s)"; an HTML report was diagnosed as
    an NPU task that did not complete (its rule texts quote `failed to submit`)."""
    saved = tmp_path / f"run.{fmt}"
    code, _, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "-f", fmt, "-o", str(saved))
    assert code == 0, err
    code, out, err = run(capsys, monkeypatch, "analyze", str(saved))
    assert (code, out) == (3, "")
    readers = (
        "'rknnprof compare' and 'rknnprof check' read it; analyze reads the log it came from"
        if kind == "JSON"
        else "give the log it came from (compare and check also read its -f json report)"
    )
    assert err == f"Error: {saved}: a report rknnprof wrote ({kind}), not a log: {readers}\n"


def test_compare_given_a_check_report_or_an_html_one_says_what_it_reads(
    tmp_path, capsys, monkeypatch
):
    """A check report read "saved report has no 'profiles' list"; an HTML report told compare
    that "analyze reads the log it came from"."""
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max: 100000\n")
    checked = tmp_path / "check.json"
    run(capsys, monkeypatch, "check", str(SAMPLE), "--budgets", str(budgets), "-f", "json",
        "-o", str(checked))  # fmt: skip
    code, _, err = run(capsys, monkeypatch, "compare", str(SAMPLE), str(checked))
    assert code == 2
    assert err.startswith(
        f"Error: {checked}: a check report, not a saved analysis: give the log, or the report "
        "'rknnprof analyze -f json' wrote of it"
    )
    page = tmp_path / "run.html"
    run(capsys, monkeypatch, "analyze", str(SAMPLE), "-f", "html", "-o", str(page))
    code, _, err = run(capsys, monkeypatch, "compare", str(SAMPLE), str(page))
    assert code == 3 and "give the log it came from (compare and check also read" in err


def test_an_empty_platform_and_stdin_twice_are_usage_errors(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "--platform", "")
    assert code == 2 and "--platform: an empty name: give an SoC (rk3588, rk3576, ...)" in err
    code, _, err = run(capsys, monkeypatch, "analyze", "-", "-")
    assert code == 2 and "standard input ('-') is given twice: it can be read once" in err


def test_a_symbolic_link_to_nothing_is_said_so(tmp_path, capsys, monkeypatch):
    """A link loop read "does not exist", as a typo would."""
    loop_a, loop_b = tmp_path / "a.txt", tmp_path / "b.txt"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    code, _, err = run(capsys, monkeypatch, "analyze", str(loop_a))
    assert code == 2
    assert f"file '{loop_a}' is a symbolic link to nothing (a loop, or its target is gone)" in err


def test_a_folder_given_as_a_log_says_how_to_give_its_logs(tmp_path, capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, "analyze", str(tmp_path))
    assert code == 2
    assert f"is a directory: give the logs in it ({tmp_path}/*.txt)" in err
