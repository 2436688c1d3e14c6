"""Property: the CLI turns any input into a report (exit 0) or ONE ``Error: …`` line on stderr
with exit 3 (no profile data) — never a traceback, never another exit code. Runs in-process:
click's CliRunner for the ``analyze`` command, and ``rknnprof.cli.main`` (the console script)
for a few examples."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st

from fuzz.fuzz_support import apply, fuzz_settings, mutations, seed_logs, write_temp
from rknnprof import cli
from rknnprof.errors import EXIT_NO_DATA, EXIT_OK, EXIT_USAGE
from rknnprof.inputs.compressed import compression_of
from tests.conftest import CORPUS

CORPUS_LINES = [seed.split(b"\n") for seed in seed_logs(CORPUS)] if CORPUS.is_dir() else []


def check_cli_outcome(code: int, stdout: str, stderr: str) -> None:
    assert "Traceback" not in stdout + stderr
    assert code in (EXIT_OK, EXIT_NO_DATA), (code, stderr[-500:])
    errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
    others = [
        line for line in stderr.splitlines() if line and not line.startswith(("Error:", "Warning:"))
    ]
    assert not others, others[:3]
    if code == EXIT_OK:
        assert not errors
        json.loads(stdout)
    else:  # the JSON report all the same: no profile, the exit-3 message on stderr
        report = json.loads(stdout)
        assert report["profiles"] == [] and report["no_profile"] in stderr
        assert len(errors) == 1 and stderr.rstrip("\n").endswith(errors[0])


def run_cli(data: bytes) -> None:
    path = write_temp(data, "cli.log")
    result = CliRunner().invoke(cli.cli, ["analyze", "-f", "json", str(path)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    if compression_of(data[:16]) is not None and result.exit_code == EXIT_USAGE:
        # compressed-looking bytes: an archive, or data that does not decompress (exit 2)
        assert "Traceback" not in result.stdout + result.stderr
        assert result.stdout == ""
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"Error: {path}: ")
        return
    check_cli_outcome(result.exit_code, result.stdout, result.stderr)


@fuzz_settings(60)
@given(st.binary(max_size=2000))
@example(b"")
@example(b"\x00\x01\x02binary\xff")
@example(b"PK\x03\x04")
@example(b"\x1f\x8b\x08\x00garbage")
def test_cli_arbitrary_bytes(data: bytes) -> None:
    run_cli(data)


@pytest.mark.skipif(not CORPUS_LINES, reason="corpus folder is absent")
@fuzz_settings(80)
@given(st.data())
def test_cli_mutated_corpus(data: st.DataObject) -> None:
    lines = data.draw(st.sampled_from(CORPUS_LINES), label="log")
    ops = data.draw(st.lists(mutations(CORPUS_LINES), min_size=1, max_size=5), label="mutations")
    run_cli(b"\n".join(apply(lines, ops)))


@pytest.mark.skipif(not CORPUS_LINES, reason="corpus folder is absent")
@fuzz_settings(15)
@given(st.data())
def test_console_script_main(data: st.DataObject) -> None:
    """``rknnprof.cli.main`` (what ``rknnprof`` runs): SystemExit with 0/3, one Error line."""
    lines = data.draw(st.sampled_from(CORPUS_LINES), label="log")
    ops = data.draw(st.lists(mutations(CORPUS_LINES), max_size=4), label="mutations")
    path = write_temp(b"\n".join(apply(lines, ops)), "main.log")
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["rknnprof", "analyze", "-f", "json", str(path)]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = argv
    check_cli_outcome(code, out.getvalue(), err.getvalue())
