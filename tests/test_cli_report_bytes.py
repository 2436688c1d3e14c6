"""``analyze`` writes its report as the UTF-8 bytes it was rendered into, not as a decoded str
(a long capture's trace is megabytes): the bytes a pipe, a file and a non-UTF-8 stdout get must
stay those the text gives (``µ`` as ``c2 b5``; ``\\xb5`` on an ASCII stdout, as before)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.hostile.helpers import log_with_name

CLI = [sys.executable, "-m", "rknnprof"]
NAME = "Conv:/model.0/conv_µs/Conv"


def _stdout(args: list[str], **env: str) -> bytes:
    proc = subprocess.run([*CLI, *args], capture_output=True, timeout=60, env={**os.environ, **env})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("fmt", ["json", "trace", "table"])
def test_pipe_and_file_get_the_same_utf8_bytes(tmp_path, fmt):
    log = log_with_name(tmp_path, NAME)
    piped = _stdout(["analyze", log, "-f", fmt, "-q"])
    assert "conv_µs".encode() in piped
    out = tmp_path / f"report.{fmt}"
    _stdout(["analyze", log, "-f", fmt, "-q", "-o", str(out)])
    assert out.read_bytes() == piped


def test_an_ascii_stdout_gets_escapes_not_utf8(tmp_path):
    log = log_with_name(tmp_path, NAME)
    data = _stdout(["analyze", log, "-f", "json", "-q"], PYTHONIOENCODING="ascii")
    assert b"conv_\\xb5s" in data
    assert "conv_µs".encode() not in data
    utf8 = _stdout(["analyze", log, "-f", "json", "-q"])
    layer = json.loads(utf8)["profiles"][0]["layers"][1]
    assert layer["full_name"] == NAME
    assert layer["time_us"] == 6030


def test_a_file_name_that_is_not_utf8_is_escaped_in_a_file_as_on_stdout(tmp_path):
    log = tmp_path / os.fsdecode(b"log_\xff.txt")
    log.write_bytes(open(log_with_name(tmp_path, NAME), "rb").read())
    piped = _stdout(["analyze", str(log), "-f", "json", "-q"])
    assert b'"path": "' + os.fsencode(str(tmp_path)) + b'/log_\\udcff.txt"' in piped
    out = tmp_path / "report.json"
    _stdout(["analyze", str(log), "-f", "json", "-q", "-o", str(out)])
    assert out.read_bytes() == piped
    assert json.loads(piped)["profiles"][0]["source"]["path"] == str(log)
