"""Ctrl-C at any point of a run, from the interpreter's start to its exit, through the console
script a user runs: exit 130 (or the signal's own status before Python handles it), at most
the word ``Aborted.``, and never a traceback from rknnprof's code.

Python itself, and the script pip writes (``import re, sys`` before it imports rknnprof), can
still be interrupted before any code of ours runs; such a traceback names no module of ours,
and the test tells them apart by that.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.helpers import SAMPLE

SCRIPT = Path(sys.executable).parent / "rknnprof"
PACKAGE = str(Path(__file__).resolve().parents[2] / "rknnprof") + os.sep

pytestmark = pytest.mark.skipif(
    not SCRIPT.exists() or os.name != "posix",
    reason="needs the installed console script beside the interpreter, on POSIX",
)


PYTHON_NOTICES = (
    "Failed checking if argv[0] is an import path entry",
    "Exception ignored in: <function _get_module_lock.<locals>.cb",
    "'import warnings' failed; traceback:",
    "Error processing line ",
)
"""What CPython prints when the signal lands in its own code where no handler of ours can see
it: while it computes ``sys.path[0]``, runs a ``.pth`` file of site-packages (an editable
install's finder), or imports ``warnings`` for ``PYTHONWARNINGS`` (set here), before any code
of ours, or in the import system's weak-reference callback that drops a
module's lock. It prints the interrupted traceback, goes on,
and the run ends with exit 0."""


def _ours(stderr: str) -> bool:
    """Whether a traceback in ``stderr`` passes through rknnprof's code (installed or not)."""
    return "Traceback" in stderr and (PACKAGE in stderr or "site-packages/rknnprof/" in stderr)


def _bare_start_up(code: int, stderr: str) -> bool:
    """CPython's report of a signal that lands in its start-up where no Python frame is on the
    stack yet (before the console script's first line): the exception's name alone, exit 1.
    Code of ours prints ``Aborted.`` and exits 130, or shows a traceback with frames."""
    return code == 1 and stderr.strip() == "KeyboardInterrupt"


def _run_once(command: list[str], delay: float) -> tuple[int, str]:
    child = subprocess.Popen(
        [str(SCRIPT), *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    time.sleep(delay)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    return child.returncode, err.decode("utf-8", "replace")


def _full_run_seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([str(SCRIPT), *command], capture_output=True, timeout=60, check=False)
    return time.perf_counter() - start


@pytest.mark.parametrize(
    "command",
    [["analyze", str(SAMPLE), "-f", "json"], ["rules"], ["formats"]],
    ids=["analyze", "rules", "formats"],
)
def test_ctrl_c_at_random_points_never_shows_our_traceback(command):
    rng = random.Random(20261201)
    span = _full_run_seconds(command) * 1.3  # from the start to past the exit
    for _ in range(12):
        delay = rng.uniform(0, span)
        code, err = _run_once(command, delay)
        assert not _ours(err), f"Ctrl-C after {delay:.3f} s:\n{err}"
        assert (
            code in (0, 130, -signal.SIGINT) or "Traceback" in err or _bare_start_up(code, err)
        ), (delay, code, err)
        if code == 0 and not any(n in err for n in PYTHON_NOTICES):  # done before the signal
            assert "Traceback" not in err and "Exception ignored" not in err, err
        if code == 130:
            assert err.strip().endswith("Aborted."), err


def test_ctrl_c_while_the_commands_import_is_aborted_with_exit_130(monkeypatch):
    """In process: a KeyboardInterrupt raised by the import of the commands, or wrapped in a
    RuntimeError by a class body's ``__set_name__`` (Python 3.11), exits 130 with one line."""
    import builtins

    from rknnprof import cli

    real_import = builtins.__import__
    for raised in (KeyboardInterrupt(), RuntimeError("Error calling __set_name__")):
        if isinstance(raised, RuntimeError):
            raised.__cause__ = KeyboardInterrupt()

        def interrupted(name, *args, _raised=raised, **kwargs):
            if name == "rknnprof.cli.runner":  # what main imports, commands with it
                raise _raised
            return real_import(name, *args, **kwargs)

        monkeypatch.setattr(builtins, "__import__", interrupted)
        with pytest.raises(SystemExit) as exit_:
            cli.main()
        assert exit_.value.code == 130
        monkeypatch.setattr(builtins, "__import__", real_import)


@pytest.mark.parametrize(("entry", "module"), [("main", "gc"), ("console", "signal")])
def test_ctrl_c_on_the_first_line_is_aborted_with_exit_130(monkeypatch, capfd, entry, module):
    """In process: a KeyboardInterrupt on the very first statement of ``main`` (its ``import
    gc``) or of ``console`` (its ``import signal``), before any other guard is set: exit 130
    and ``Aborted.``, no traceback (CI once met it 29 ms into ``rknnprof rules``)."""
    import builtins
    import sys

    from rknnprof import cli

    real_import = builtins.__import__

    def interrupted(name, *args, **kwargs):
        if name == module:
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    hook = sys.unraisablehook
    monkeypatch.setattr(builtins, "__import__", interrupted)
    try:
        with pytest.raises(SystemExit) as exit_:
            getattr(cli, entry)()
    finally:
        monkeypatch.setattr(builtins, "__import__", real_import)
        sys.unraisablehook = hook
    assert exit_.value.code == 130
    assert capfd.readouterr().err == "Aborted.\n"
