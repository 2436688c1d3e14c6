"""``analyze`` streams its report to its destination as it is rendered (``output.stream``): a
long capture's trace (megabytes, three processes' frames) is never held whole, and the bytes,
the styles stripped and the failed-write behaviour are those of writing the whole text."""

from __future__ import annotations

import io
import sys
import tracemalloc

import click
import pytest

from rknnprof.cli import output
from rknnprof.errors import InputError

LINE = '{"name":"Conv","ph":"X","pid":1,"tid":10,"ts":12.5,"dur":3.25,"args":{"µs":1}}\n'
LINES = 40_000
"""About 3.3 MB of text, written one line at a time as the trace reporter writes events."""


def _render(out) -> None:
    for _ in range(LINES):
        out.write(LINE)


def _peak_while(call) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _stdout_file(tmp_path, monkeypatch, name: str = "stdout.txt"):
    path = tmp_path / name
    f = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by the test
    monkeypatch.setattr(sys, "stdout", f)
    return path, f


@pytest.mark.parametrize("to", ["stdout", "file"])
def test_the_report_is_never_held_whole(tmp_path, monkeypatch, to):
    monkeypatch.setattr(output, "_PIECE", 1 << 16)  # pieces far smaller than the report
    whole = LINE.encode() * LINES
    if to == "file":
        path = tmp_path / "run.trace"
        peak = _peak_while(lambda: output.stream(_render, str(path)))
    else:
        path, f = _stdout_file(tmp_path, monkeypatch)
        peak = _peak_while(lambda: output.stream(_render, None, color=False))
        f.close()
    assert path.read_bytes() == whole
    assert peak < len(whole) / 4, (peak, len(whole))


def test_styles_are_stripped_whole_across_pieces(tmp_path, monkeypatch):
    monkeypatch.setattr(output, "_PIECE", 50)  # many pieces, each cut inside a styled line
    text = "".join(f"row {i} \x1b[1;35mbold magenta\x1b[0m end\n" for i in range(200))
    path, f = _stdout_file(tmp_path, monkeypatch)

    def render(out) -> None:
        for start in range(0, len(text), 7):
            out.write(text[start : start + 7])

    output.stream(render, None, color=False)
    f.close()
    assert path.read_text(encoding="utf-8") == click.unstyle(text)
    assert "\x1b" not in path.read_text(encoding="utf-8")


def test_styles_are_kept_when_colour_is_asked_for(tmp_path, monkeypatch):
    text = "\x1b[1mbold\x1b[0m\n"
    path, f = _stdout_file(tmp_path, monkeypatch)
    output.stream(lambda out: out.write(text), None, color=True)
    f.close()
    assert path.read_text(encoding="utf-8") == text


def test_a_failed_render_leaves_the_old_file(tmp_path):
    path = tmp_path / "run.trace"
    path.write_text("the previous report\n")

    def broken(out) -> None:
        out.write(LINE * 100)
        raise RuntimeError("renderer bug")

    with pytest.raises(RuntimeError):
        output.stream(broken, str(path))
    assert path.read_text() == "the previous report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["run.trace"]  # no temporary file left


def test_a_full_stdout_is_one_error(monkeypatch):
    full = open("/dev/full", "w")  # noqa: SIM115 - closed below
    monkeypatch.setattr(sys, "stdout", full)
    try:
        with pytest.raises(InputError, match="No space left on device"):
            output.stream(_render, None, color=False)
    finally:
        monkeypatch.undo()
        try:
            full.close()
        except OSError:
            pass


def test_a_stdout_without_a_descriptor_gets_the_whole_text(monkeypatch):
    captured = io.StringIO()
    monkeypatch.setattr(sys, "stdout", captured)
    output.stream(lambda out: out.write("µ report\n"), None, color=False)
    assert captured.getvalue() == "µ report\n"
