"""Memory and time stay bounded on a pathological line (20 MB without a newline) and on a long
stream of frames. In-process, with streams that generate their bytes on the fly (nothing the
size of the input is ever built); ``tracemalloc`` measures what the parser allocates.

The full-size figures (100 MB line, 1 GB capture, 1 GB pipe; peak RSS of the CLI) come from
``benchmarks/memory_limits.py``.
"""

from __future__ import annotations

import gc
import io
import time
import tracemalloc

from rknnprof.api import parse_stream
from rknnprof.inputs.lines import MAX_LINE_CHARS


class GeneratedStream(io.RawIOBase):
    """A read-only binary stream: ``head``, then ``body`` repeated up to ``size`` bytes, then
    ``tail``; produced chunk by chunk."""

    def __init__(self, head: bytes, body: bytes, size: int, tail: bytes) -> None:
        self.parts = [head] if head else []
        self.body, self.left, self.tail = body, size, tail
        self.offset = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]  # untyped test double of RawIOBase.readinto
        want = len(buffer)
        if self.parts:
            data = self.parts.pop(0)
        elif self.left > 0:
            n = min(want, self.left)
            reps = (self.offset + n) // len(self.body) + 1
            data = (self.body * reps)[self.offset : self.offset + n]
            self.offset = (self.offset + n) % len(self.body)
            self.left -= len(data)
        elif self.tail:
            data, self.tail = self.tail, b""
        else:
            return 0
        data = data[:want]
        buffer[: len(data)] = data
        return len(data)


TABLE = (
    b"ID   OpType             DataType Target InputShape       OutputShape      "
    b"Cycles(DDR/NPU/Total)    Time(us)     MacUsage(%)          WorkLoad(0/1/2)      RW(KB)       "
    b"FullName\n"
    b"1    InputOperator      UINT8    CPU    \\                (1,3,640,640)    0/0/0    12     "
    b"    0.0%/0.0%/0.0%       0            InputOperator:images\n"
    b"2    Conv               UINT8    NPU    (1,3,640,640)    (1,12,320,320)   "
    b"164162/409600/409600     810          1.78/0.00/0.00       100.0%/0.0%/0.0%     1201  "
    b"       Conv:/model.0/conv/Conv\n"
    b"Total Operator Elapsed Per Frame Time(us): 822\n"
)


def measure(stream: io.RawIOBase) -> tuple[object, float, int]:
    tracemalloc.start()
    start = time.perf_counter()
    try:
        assembly = parse_stream(io.BufferedReader(stream), "gen.log")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return assembly, time.perf_counter() - start, peak


def test_twenty_megabyte_line_without_newline():
    size = 20_000_000
    row_like = b"1    Conv  INT8  NPU  (1,3,4,4)  1/2/2  " * 8
    stream = GeneratedStream(TABLE, row_like, size, b"\n" + TABLE)
    assembly, seconds, peak = measure(stream)
    assert peak < 16 * MAX_LINE_CHARS * 4, f"peak {peak / 1e6:.1f} MB"  # ~4 MB: a few capped lines
    assert seconds < 20, seconds
    (profile,) = assembly.profiles  # the tables before and after the line, merged
    assert profile.frames == 2 and [la.time_us for la in profile.layers] == [12, 810]
    # the over-long line is one row-like line: reported, not read
    assert any("row without a header line" in w.message for w in assembly.warnings)


def test_long_line_of_blanks_and_no_newline_at_all():
    stream = GeneratedStream(b"", b" " * 4096, 10_000_000, b"")
    assembly, seconds, peak = measure(stream)
    assert assembly.profiles == [] and assembly.lines == 1
    assert peak < 4_000_000 and seconds < 20


def test_many_frames_use_flat_memory():
    """Frames of the same table merge into per-layer counters: what stays allocated grows only
    by the per-frame total kept for p50/p90 (one float, ~40 bytes), not by the frames' rows."""

    def retained(frames: int) -> int:
        stream = GeneratedStream(b"", TABLE, len(TABLE) * frames, b"")
        tracemalloc.start()
        try:
            assembly = parse_stream(io.BufferedReader(stream), "gen.log")
            gc.collect()
            current, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        (profile,) = assembly.profiles
        assert profile.frames == frames and len(profile.frame_times_us) == frames
        return current

    small, large = retained(200), retained(2200)
    assert large - small < 2000 * 64, (small, large)
