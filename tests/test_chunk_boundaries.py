"""Tables cut by read boundaries: a repeated-frame capture (threadtime, interleaved noise from
another process, 5 % of lines) read in pieces of any size gives the same profiles as read whole.
Reads of 7 bytes cut every table row several times; 4093 and 65531 bytes cut frames at changing
places, so the repeated-frame path meets cuts in its title, rows, totals and ranking lines."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from rknnprof.api import parse_stream

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402


class _Pieces(io.RawIOBase):
    """A stream whose reads return at most ``size`` bytes."""

    def __init__(self, data: bytes, size: int) -> None:
        self.data, self.size, self.pos = data, size, 0

    def readable(self) -> bool:
        return True

    def read1(self, n: int = -1) -> bytes:
        n = self.size if n < 0 else min(n, self.size)
        piece = self.data[self.pos : self.pos + n]
        self.pos += len(piece)
        return piece

    read = read1


@pytest.fixture(scope="module")
def capture(tmp_path_factory) -> tuple[bytes, int]:
    path = tmp_path_factory.mktemp("chunks") / "capture.log"
    frames = generate.logcat_capture(path, 0.25, layers=20, seed=5)
    return path.read_bytes(), frames


@pytest.mark.parametrize("size", [7, 4093, 65531])
@pytest.mark.parametrize("line_end", [b"\n", b"\r\n"])
def test_reads_of_any_size_give_the_same_profiles(capture, size, line_end) -> None:
    data, frames = capture
    data = data.replace(b"\n", line_end)
    if size == 7:
        data = data[: len(data) // 8]  # 7-byte reads are slow: a few frames are enough
        frames = data.count(b"Network Layer Information Table")
        data = data[: data.rindex(b"Network Layer Information Table")]  # end between frames
        data = data[: data.rindex(b"\n") + 1]
        frames -= 1
    whole = parse_stream(io.BytesIO(data), "capture.log")
    cut = parse_stream(_Pieces(data, size), "capture.log")  # type: ignore[arg-type]  # _Pieces has the reads parse_stream uses
    assert [p.frames for p in whole.profiles] == [frames]  # every table written is one frame
    assert len(whole.profiles[0].layers) == 20
    assert cut.profiles == whole.profiles
    assert cut.warnings == whole.warnings
