"""Bytes in, clean message lines out. (Minimal placeholder: the full version handles BOM,
UTF-16, CR, ANSI, the ``D RKNN: [..]`` and every ``adb logcat -v`` prefix.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO, NamedTuple


class Line(NamedTuple):
    number: int
    """1-based physical line number in the input."""
    text: str
    """The message: logcat / runtime prefixes stripped, trailing newline removed."""
    stream: tuple[int, int] | None = None
    """logcat (pid, tid) when the prefix gives them."""
    level: str | None = None
    """Log level letter (V/D/I/W/E/F) when a prefix gives one."""
    tag: str | None = None
    """logcat tag or runtime component (``RKNN``, ``RKNNAPI``) when a prefix gives one."""


def read_lines(stream: BinaryIO) -> Iterator[Line]:
    """Yield clean lines from a binary stream, incrementally (works on a live pipe)."""
    for number, raw in enumerate(stream, start=1):
        text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        yield Line(number, text)
