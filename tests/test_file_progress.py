"""The progress bar of long file inputs (``rknnprof.inputs.progress``): drawn on a terminal
stderr and cleared at the end, absent when piped or under ``-q``, and the parse is the same."""

from __future__ import annotations

import io
from pathlib import Path

from rknnprof import api
from rknnprof.inputs import progress

REPO = Path(__file__).resolve().parent.parent


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _log(tmp_path: Path) -> Path:
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    import generate

    path = tmp_path / "capture.log"
    generate.logcat_capture(path, 0.3, layers=20)
    return path


def test_bar_on_a_terminal_is_cleared_and_changes_nothing(tmp_path, monkeypatch):
    path = _log(tmp_path)
    expected = api.parse_path(str(path))
    monkeypatch.setattr(progress, "MIN_BYTES", 1)
    monkeypatch.setattr(progress, "REDRAW_SECONDS", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert api.parse_path(str(path)) == expected
    drawn = terminal.getvalue()
    size_kb = path.stat().st_size / 1000  # rich prints decimal kB
    assert "capture.log" in drawn and f"/{size_kb:.1f} kB" in drawn  # name and size on the bar
    assert drawn.endswith("\x1b[2K")  # the bar's line erased at the end


def test_no_bar_when_piped_quiet_or_small(tmp_path, monkeypatch):
    path = _log(tmp_path)
    with open(path, "rb") as f:
        assert not progress.FileProgress.wanted(f, _Terminal(), quiet=False)  # < MIN_BYTES
        monkeypatch.setattr(progress, "MIN_BYTES", 1)
        assert progress.FileProgress.wanted(f, _Terminal(), quiet=False)
        assert not progress.FileProgress.wanted(f, _Terminal(), quiet=True)
        assert not progress.FileProgress.wanted(f, io.StringIO(), quiet=False)


def test_a_file_name_is_shown_as_typed(tmp_path, monkeypatch):
    """The bar shows the file's name: never read as rich markup, its control and bidi
    characters as escapes (a file name may hold any of them)."""
    name = "[bold red]run\x1b]0;pwn\x07\u202egol.txt"
    path = tmp_path / name
    path.write_bytes(_log(tmp_path).read_bytes())
    monkeypatch.setattr(progress, "MIN_BYTES", 1)
    monkeypatch.setattr(progress, "REDRAW_SECONDS", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    api.parse_path(str(path))
    drawn = terminal.getvalue()
    assert "[bold red]run\\x1b]0;pwn\\x07\\u202egol.txt" in drawn
    assert "\x1b]" not in drawn and "\x07" not in drawn and "\u202e" not in drawn
