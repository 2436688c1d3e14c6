"""Every command when the reader of its stdout or its stderr has gone away (``| head -1``, a
closed ``2>`` pipe): exit 141 as SIGPIPE would, whenever a write met the closed pipe, and
nothing else said; the command's own code when it wrote nothing there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.helpers import SAMPLE

LOG = str(SAMPLE)
EXIT_BROKEN_PIPE = 141


@pytest.fixture(scope="module")
def budgets(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("b") / "budgets.yaml"
    path.write_text("budgets:\n  - metric: total_time_us\n    max: 1000000\n", encoding="utf-8")
    return str(path)


COMMANDS = {
    "bare": [],
    "help": ["--help"],
    "version": ["--version"],
    "formats": ["formats"],
    "rules": ["rules"],
    "rule": ["rules", "RKN001"],
    "analyze": ["analyze", LOG],
    "analyze-json": ["analyze", LOG, "-f", "json"],
    "analyze-help": ["analyze", "--help"],
    "compare": ["compare", LOG, LOG],
    "check": ["check", LOG, "--budgets", "{b}"],
}


def _closed(stream: str, args: list[str]) -> tuple[int, bytes]:
    """Run ``rknnprof ARGS`` with ``stream`` a pipe whose reader is gone before the first
    write; the other stream's bytes."""
    child = subprocess.Popen(
        [sys.executable, "-m", "rknnprof", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    getattr(child, stream).close()
    other = (child.stderr if stream == "stdout" else child.stdout).read()
    return child.wait(timeout=120), other


@pytest.mark.parametrize("name", [n for n in COMMANDS if n != "bare"])
def test_stdout_gone_exits_141_quietly(name, budgets):
    code, err = _closed("stdout", [a.format(b=budgets) for a in COMMANDS[name]])
    assert code == EXIT_BROKEN_PIPE, err
    assert err == b"", err


@pytest.mark.parametrize("name", list(COMMANDS))
def test_stderr_gone_exits_141_or_the_commands_own_code(name, budgets):
    args = [a.format(b=budgets) for a in COMMANDS[name]]
    with_stderr = subprocess.run(
        [sys.executable, "-m", "rknnprof", *args], capture_output=True, timeout=120
    )
    code, out = _closed("stderr", args)
    if with_stderr.stderr:  # it writes to stderr: that write meets the closed pipe
        assert code == EXIT_BROKEN_PIPE
    else:
        assert code == with_stderr.returncode
        assert out == with_stderr.stdout


def test_an_error_with_stderr_gone_still_exits_141_not_1(tmp_path):
    code, out = _closed("stderr", ["analyze", str(tmp_path / "missing.txt")])
    assert code == EXIT_BROKEN_PIPE and out == b""


@pytest.mark.parametrize("name", ["formats", "rules"])
def test_a_reader_that_reads_one_line_then_goes(name):
    """The shell's ``rknnprof formats | head -1``: the report is larger than the pipe's buffer
    only when long, so either every write fit (exit 0) or one met the closed pipe (141); never
    1 with nothing said, as on ea3a39b."""
    done = subprocess.run(
        f"{sys.executable} -m rknnprof {name} | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip() in ("0", str(EXIT_BROKEN_PIPE)), done
    assert done.stderr == ""


def test_the_script_entry_point_is_the_console_function():
    """The script ignores Ctrl-C only once it is done (``console``); ``main`` stays callable
    in process."""
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert 'rknnprof = "rknnprof.cli:console"' in text


def _no_stderr(args: list[str], stdin: bytes | None = None) -> tuple[int, bytes]:
    """Run ``rknnprof ARGS`` with no stderr at all (``2>&-``: fd 2 closed, ``sys.stderr`` None)."""
    child = subprocess.run(
        [sys.executable, "-m", "rknnprof", *args],
        input=stdin,
        stdout=subprocess.PIPE,
        preexec_fn=lambda: os.close(2),  # noqa: PLW1509 - the child starts without fd 2
        check=False,
        timeout=120,
    )
    return child.returncode, child.stdout


@pytest.mark.parametrize("name", ["analyze", "analyze-json", "compare", "check", "rules"])
def test_without_stderr_a_command_exits_with_its_own_code(name, budgets):
    """``2>&-`` made every command exit 1, the gate-failed code, with nothing written: the
    progress bar asked a missing stderr whether it is a terminal."""
    code, out = _no_stderr([a.format(b=budgets) for a in COMMANDS[name]])
    assert code == 0 and out


def test_without_stderr_stdin_is_read_and_a_failed_gate_still_fails(tmp_path):
    code, out = _no_stderr(["analyze", "-", "-f", "json"], stdin=SAMPLE.read_bytes())
    assert code == 0 and out.startswith(b"{")
    budget = tmp_path / "b.yaml"
    budget.write_text("budgets:\n  - metric: total_time_us\n    max: 1000\n", encoding="utf-8")
    code, out = _no_stderr(["check", LOG, "--budgets", str(budget)])
    assert code == 1 and b"FAIL" in out


def test_a_full_stderr_keeps_the_exit_codes(tmp_path):
    """``2>/dev/full``: a usage error exited 1 (the gate-failed code), as did a failed input
    read: writing its one line failed. The line is lost, the code is the documented one."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    codes = {}
    for name, args in (("usage", ["analyze", "/no/such/log"]), ("no-data", ["analyze", "-"])):
        with open("/dev/full", "w") as full:
            codes[name] = subprocess.run(
                [sys.executable, "-m", "rknnprof", *args],
                input=b"nothing to read\n",
                stdout=subprocess.DEVNULL,
                stderr=full,
                check=False,
                timeout=120,
            ).returncode
    assert codes == {"usage": 2, "no-data": 3}
