"""Hostile input, round three: the classes an attack on ea3a39b still found.

Each test names the class it holds: huge numbers in budgets, read errors after the open, saved
reports with numbers a float cannot hold, FIFOs where a regular file belongs, and ``-o`` over a
read-only file. (Signals and closed streams run the console script: test_signals.py and
test_closed_streams.py.)
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.helpers import SAMPLE, run

LOG = str(SAMPLE)


def _budgets(tmp_path: Path, body: str) -> str:
    path = tmp_path / "budgets.yaml"
    path.write_text("budgets:\n" + body, encoding="utf-8")
    return str(path)


# -- 1. huge numbers in budgets ------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["table", "json", "junit", "markdown"])
def test_a_400_digit_quoted_percentage_is_refused_in_one_line(tmp_path, capsys, monkeypatch, fmt):
    budgets = _budgets(tmp_path, f'  - metric: total_time_us\n    max_increase: "{"9" * 400}%"\n')
    code, out, err = run(
        capsys, monkeypatch, "check", LOG, "--budgets", budgets, "--baseline", LOG, "-f", fmt
    )
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "max_increase: number too large (400 digits)" in err


def test_a_sensible_quoted_percentage_still_reads(tmp_path, capsys, monkeypatch):
    budgets = _budgets(tmp_path, '  - metric: total_time_us\n    max_increase: "12.5%"\n')
    code, out, err = run(capsys, monkeypatch, "check", LOG, "--budgets", budgets, "--baseline", LOG)
    assert code == 0, err
    assert "allowed +12.5%" in out


# -- 2. read errors after the open ---------------------------------------------------------------

_UNREADABLE = [
    p for p in ("/proc/self/mem", "/proc/self/pagemap") if os.path.exists(p)
]  # open() succeeds, read() fails: EIO, EINVAL


@pytest.mark.skipif(not _UNREADABLE, reason="no /proc: no file that opens and cannot be read")
@pytest.mark.parametrize("path", _UNREADABLE)
@pytest.mark.parametrize(
    "command",
    [
        ["analyze", "{p}"],
        ["compare", "{p}", LOG],
        ["compare", LOG, "{p}"],
        ["check", "{p}", "--budgets", "{b}"],
        ["check", LOG, "--budgets", "{b}", "--baseline", "{p}"],
    ],
    ids=["analyze", "compare-base", "compare-current", "check", "check-baseline"],
)
def test_a_read_error_after_the_open_is_one_line_and_exit_2(
    tmp_path, capsys, monkeypatch, path, command
):
    budgets = _budgets(tmp_path, "  - metric: total_time_us\n    max: 1000000\n")
    args = [a.format(p=path, b=budgets) for a in command]
    code, out, err = run(capsys, monkeypatch, *args)
    assert code == 2, err
    assert "Traceback" not in err
    assert err.strip().splitlines() == [err.strip()]
    assert f"{path}: cannot read: " in err
    assert ("Input/output error" in err) or ("Invalid argument" in err)


# -- 3. saved reports with numbers a float cannot hold -------------------------------------------


@pytest.fixture(scope="module")
def saved_report(tmp_path_factory) -> str:
    from rknnprof.api import analyze
    from rknnprof.schema import report_to_dict

    path = tmp_path_factory.mktemp("saved") / "report.json"
    path.write_text(json.dumps(report_to_dict(analyze([LOG])), indent=1), encoding="utf-8")
    return str(path)


def _with_time(saved: str, tmp_path: Path, number: str) -> str:
    """The saved report with its first layer's ``time_us`` written as ``number`` (JSON text)."""
    text = Path(saved).read_text(encoding="utf-8")
    head, sep, tail = text.partition('"time_us": ')
    assert sep
    value_end = next(i for i, c in enumerate(tail) if c in ",\n}")
    path = tmp_path / "mutant.json"
    path.write_text(head + sep + number + tail[value_end:], encoding="utf-8")
    return str(path)


_OUT_OF_RANGE = ["1e400", "-1e400", "9" * 4000, "1e300", "-" + "9" * 25]


@pytest.mark.parametrize(
    "number", _OUT_OF_RANGE, ids=["1e400", "-1e400", "4000-digits", "1e300", "-25-digits"]
)
@pytest.mark.parametrize(
    "command",
    [
        ["compare", "{m}", LOG],
        ["compare", LOG, "{m}", "-f", "csv"],
        ["check", "{m}", "--budgets", "{b}"],
        ["check", LOG, "--budgets", "{b}", "--baseline", "{m}", "-f", "json"],
    ],
    ids=["compare", "compare-csv", "check", "check-baseline"],
)
def test_a_number_no_float_holds_is_refused_in_one_line(
    tmp_path, capsys, monkeypatch, saved_report, number, command
):
    mutant = _with_time(saved_report, tmp_path, number)
    budgets = _budgets(tmp_path, "  - metric: total_time_us\n    max: 1000000\n")
    code, out, err = run(capsys, monkeypatch, *[a.format(m=mutant, b=budgets) for a in command])
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "not a valid JSON report: number " in err and "is out of range" in err
    for word in ("inf", "nan"):  # nothing half-written
        assert word not in out.lower()


def test_a_report_larger_than_the_limit_is_refused_before_it_is_read(tmp_path, capsys, monkeypatch):
    from rknnprof import saved

    monkeypatch.setattr(saved, "MAX_REPORT_BYTES", 4096)
    big = tmp_path / "big.json"
    big.write_text('{"schema_version": 1, "pad": "' + "x" * 8192 + '"}', encoding="utf-8")
    code, out, err = run(capsys, monkeypatch, "compare", str(big), LOG)
    assert code == 2
    assert err.strip() == f"Error: {big}: saved report larger than 4,096 bytes"


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="no /proc: no VmHWM to read")
def test_the_size_limit_bounds_memory(tmp_path):
    """A saved report past the limit costs what the limit allows, not what the file holds: a
    200 MB report took 504 MB before its error on ea3a39b."""
    big = tmp_path / "huge.json"
    with big.open("w", encoding="utf-8") as f:
        f.write('{"schema_version": 1, "profiles": [')
        row = '{"x": "' + "y" * 1000 + '"},'
        for _ in range(200_000):  # about 200 MB
            f.write(row)
        f.write("{}]}")
    code = (
        "import re, sys\n"
        "from rknnprof.cli import main\n"
        f"sys.argv = ['rknnprof', 'compare', {str(big)!r}, {LOG!r}]\n"
        "try:\n    main()\nexcept SystemExit as e:\n    rc = e.code\n"
        # VmHWM: this address space's peak (ru_maxrss keeps the forking parent's across exec)
        "hwm = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1)\n"
        "print(rc, hwm)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    rc, rss_kb = done.stdout.split()
    assert rc == "2", done.stderr
    assert "larger than 64 MB" in done.stderr
    assert int(rss_kb) < 100 * 1024, f"peak RSS {int(rss_kb) // 1024} MB for a refused report"


# -- 5. FIFOs --------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_budgets_naming_a_fifo_are_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "budgets.yaml"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "rknnprof", "check", LOG, "--budgets", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"Error: {fifo}: cannot read budgets file: not a regular file"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_step_summary_fifo_without_a_reader_is_a_warning_not_a_hang(tmp_path):
    fifo = tmp_path / "summary"
    os.mkfifo(fifo)
    budgets = _budgets(tmp_path, "  - metric: total_time_us\n    max: 1000000\n")
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(fifo), "GITHUB_ACTIONS": "true"}
    done = subprocess.run(
        [sys.executable, "-m", "rknnprof", "check", LOG, "--budgets", budgets],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert f"Warning: cannot write $GITHUB_STEP_SUMMARY ({fifo}): a FIFO with no reader" in (
        done.stderr
    )


# -- 7. -o over a read-only file -------------------------------------------------------------


def test_o_refuses_a_read_only_file_even_as_root(tmp_path, capsys, monkeypatch):
    target = tmp_path / "kept.json"
    target.write_text("evidence\n", encoding="utf-8")
    target.chmod(0o444)
    code, out, err = run(capsys, monkeypatch, "analyze", LOG, "-o", str(target))
    assert code == 2
    assert err.strip() == f"Error: {target}: cannot write the report: the file is read-only"
    assert target.read_text(encoding="utf-8") == "evidence\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444


def test_o_refuses_a_symlink_to_a_read_only_file(tmp_path, capsys, monkeypatch):
    target = tmp_path / "kept.json"
    target.write_text("evidence\n", encoding="utf-8")
    target.chmod(0o444)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, out, err = run(capsys, monkeypatch, "analyze", LOG, "-o", str(link))
    assert code == 2 and "the file is read-only" in err
    assert target.read_text(encoding="utf-8") == "evidence\n"


def test_o_keeps_the_mode_of_the_file_it_replaces(tmp_path, capsys, monkeypatch):
    target = tmp_path / "private.json"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o600)
    code, out, err = run(capsys, monkeypatch, "analyze", LOG, "-f", "json", "-o", str(target))
    assert code == 0, err
    assert json.loads(target.read_text(encoding="utf-8"))["schema_version"] == 1
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
