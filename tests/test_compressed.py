"""Compressed logs (``inputs/compressed.py``): gzip, bzip2 and xz files are read as the text
they hold, told by their first bytes; a compressed file cut short is read up to the cut and said
to be so, a damaged one is an error; zstd files, zip archives and compressed data on stdin get
one line saying how to unpack them (exit 2)."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

from rknnprof.inputs import progress
from tests.hostile.helpers import run

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "sample_logs" / "yolov5s_rk3588_perf.txt"


def _report(capsys, monkeypatch, path: Path) -> dict:
    code, out, err = run(capsys, monkeypatch, "analyze", str(path), "-f", "json")
    assert code == 0, err
    return json.loads(out.replace(json.dumps(str(path))[1:-1], "LOG"))


def _capture(tmp_path: Path) -> bytes:
    """A logcat capture of several frames of a 20-layer model (the benchmarks' generator)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import generate

    path = tmp_path / "capture.log"
    generate.logcat_capture(path, 0.2, layers=20)
    return path.read_bytes()


@pytest.mark.parametrize(
    ("suffix", "compress"),
    [(".gz", gzip.compress), (".bz2", bz2.compress), (".xz", lzma.compress)],
)
def test_a_compressed_log_reads_as_its_text(suffix, compress, tmp_path, capsys, monkeypatch):
    text = SAMPLE.read_bytes()
    plain, packed = tmp_path / "log.txt", tmp_path / f"log{suffix}"
    plain.write_bytes(text)
    packed.write_bytes(compress(text))
    report = _report(capsys, monkeypatch, packed)
    assert report == _report(capsys, monkeypatch, plain)
    assert report["profiles"][0]["layers"][1]["time_us"] == 6030  # read from the log: ID 2
    assert report["warnings"] == []


def test_the_first_bytes_decide_not_the_name(tmp_path, capsys, monkeypatch):
    named = tmp_path / "plain-text.gz"  # not gzip: read as text, even starting "BZh"
    named.write_bytes(b"BZh9 board log\n" + SAMPLE.read_bytes())
    hidden = tmp_path / "capture.txt"  # gzip under a text name
    hidden.write_bytes(gzip.compress(SAMPLE.read_bytes()))
    assert _report(capsys, monkeypatch, named)["profiles"][0]["layers"][1]["time_us"] == 6030
    assert _report(capsys, monkeypatch, hidden)["profiles"][0]["frames"] == 1


def test_a_capture_cut_in_its_gzip_keeps_the_frames_before_the_cut(tmp_path, capsys, monkeypatch):
    text = _capture(tmp_path)
    whole = tmp_path / "whole.log"
    whole.write_bytes(text)
    frames = _report(capsys, monkeypatch, whole)["profiles"][0]["frames"]
    packed = gzip.compress(text)
    cut = tmp_path / "cut.log.gz"  # an interrupted download: 60 % of the compressed bytes
    cut.write_bytes(packed[: len(packed) * 6 // 10])
    code, out, err = run(capsys, monkeypatch, "analyze", str(cut), "-f", "json")
    assert code == 0, err
    report = json.loads(out)
    given = len(zlib.decompressobj(31).decompress(packed[: len(packed) * 6 // 10]))
    messages = [w["message"] for w in report["warnings"]]
    assert f"the gzip data ends before its end marker after {given:,} bytes of text" in err
    assert any(m.startswith("the gzip data ends before its end marker") for m in messages)
    kept = report["profiles"][0]["frames"]
    assert 0 < kept < frames  # the frames before the cut, not all of them


def test_damaged_data_is_an_error(tmp_path, capsys, monkeypatch):
    """Damaged data decompresses into garbled text before zlib or the checksum notices: where
    the damage began is not known, so nothing of it is reported as a log."""
    packed = bytearray(gzip.compress(_capture(tmp_path)))
    middle = len(packed) // 2
    packed[middle : middle + 64] = bytes(64)  # zeros over the deflate stream
    damaged = tmp_path / "damaged.log.gz"
    damaged.write_bytes(bytes(packed))
    code, out, err = run(capsys, monkeypatch, "analyze", str(damaged))
    assert code == 2
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"Error: {damaged}: the gzip data is damaged (")
    assert line.endswith(" bytes of text: get the file again")


def _zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("log.txt", SAMPLE.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("name", "write", "message"),
    [
        (
            "log.zip",
            _zip,
            "a zip archive: extract the log first (unzip FILE), or pipe it "
            "(unzip -p FILE LOG | rknnprof analyze -)",
        ),
        (
            "log.zst",
            lambda p: p.write_bytes(b"\x28\xb5\x2f\xfd" + bytes(20)),
            "zstd-compressed: decompress it first (zstd -d FILE), or pipe it "
            "(zstdcat FILE | rknnprof analyze -)",
        ),
        (
            "twice.gz",
            lambda p: p.write_bytes(gzip.compress(gzip.compress(SAMPLE.read_bytes()))),
            "gzip-compressed input: decompress it into the pipe (zcat FILE | rknnprof analyze -)",
        ),
    ],
)
def test_what_is_not_read_gets_one_line(name, write, message, tmp_path, capsys, monkeypatch):
    path = tmp_path / name
    write(path)
    code, out, err = run(capsys, monkeypatch, "analyze", str(path))
    assert code == 2
    assert err == f"Error: {path}: {message}\n"
    assert out == ""


def test_compressed_stdin_gets_one_line(capsys, monkeypatch):
    class _Stdin:
        buffer = io.BytesIO(gzip.compress(SAMPLE.read_bytes()))

        def isatty(self) -> bool:
            return False

    monkeypatch.setattr(sys, "stdin", _Stdin())
    code, _, err = run(capsys, monkeypatch, "analyze", "-")
    assert code == 2
    assert err == (
        "Error: <stdin>: gzip-compressed input: decompress it into the pipe "
        "(zcat FILE | rknnprof analyze -)\n"
    )


def test_the_progress_bar_counts_the_compressed_bytes(tmp_path, monkeypatch):
    """The bar's total is the file's size: it counts the compressed bytes read."""
    from rknnprof import api
    from tests.test_file_progress import _Terminal

    packed = tmp_path / "capture.log.gz"
    packed.write_bytes(gzip.compress(_capture(tmp_path)))
    monkeypatch.setattr(progress, "MIN_BYTES", 1)
    monkeypatch.setattr(progress, "REDRAW_SECONDS", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert api.parse_path(str(packed)).profiles
    size_kb = packed.stat().st_size / 1000
    assert f"{size_kb:.1f}/{size_kb:.1f} kB" in terminal.getvalue()


@pytest.mark.parametrize("size", [1, 2, 3, 7, 65536])
def test_the_reader_tells_compressed_data_however_it_arrives(size):
    """On a pipe the reader sees the first bytes as they come: it reads on while they could
    still begin a compressed format, so a byte-at-a-time pipe gets the same answer."""
    from rknnprof.inputs.lines import ReadStats, read_lines
    from tests.test_lines import Trickle

    for data, kind in (
        (gzip.compress(b"x\n"), "gzip"),
        (bz2.compress(b"x\n"), "bzip2"),
        (lzma.compress(b"x\n"), "xz"),
    ):
        stats = ReadStats()
        assert list(read_lines(Trickle(data, size), stats)) == []
        assert stats.compressed == kind
    for text in (b"BZh9 board log\n", b"PK hello\n", b"(\xb5/ x\n"):
        stats = ReadStats()
        assert [line.number for line in read_lines(Trickle(text, size), stats)] == [1]
        assert stats.compressed is None


def test_a_compressed_saved_report_is_read_as_one(tmp_path, capsys, monkeypatch):
    """``compare`` and ``check`` take a saved JSON report gzip'd as they take it plain."""
    saved = tmp_path / "run.json"
    code, _, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "-f", "json", "-o", str(saved))
    assert code == 0, err
    packed = tmp_path / "run.json.gz"
    packed.write_bytes(gzip.compress(saved.read_bytes()))
    code, out, err = run(capsys, monkeypatch, "compare", str(packed), str(saved), "-f", "json")
    assert code == 0, err
    (comparison,) = json.loads(out)["comparisons"]
    assert comparison["base_total_us"] == comparison["current_total_us"] == 28023
