"""A progress bar for long file inputs: a rich bar on stderr while a big file is read, cleared
when reading ends; nothing when stderr is not a terminal, under ``-q``, or for small files.

:class:`FileProgress` wraps the binary file :func:`~rknnprof.inputs.lines.read_lines` reads and
counts the bytes of each read (``read1`` / ``read``, one call per 64 KB), so the bar costs one
addition and one clock reading per read and one redraw per :data:`REDRAW_SECONDS`; rich's own
refresh thread is not started. What is left is rich's import, once. Lines and
their numbers are untouched: the bar only watches the reads.
"""

from __future__ import annotations

import os
import time
from typing import IO, TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

MIN_BYTES = 32 * 1024 * 1024
"""Files smaller than this get no bar: they are read in about a second or less."""
REDRAW_SECONDS = 0.25
"""Least time between two redraws of the bar."""


def shown(label: str) -> str:
    """A file name as the bar shows it: a character that is not printable (a control, a bidi
    override) as an escape (``\\x1b``, ``\\u202e``), as the report shows log text."""
    if label.isprintable():
        return label
    return "".join(
        c if c.isprintable() else (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        for c in label
    )


class FileProgress:
    """A binary file, read through, with a progress bar of the bytes read so far (see the module
    docstring). Use as a context manager: the bar is removed on exit."""

    def __init__(self, raw: BinaryIO, label: str, stream: IO[str]) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

        self.raw = raw
        self.size = os.fstat(raw.fileno()).st_size
        self.progress: Progress = Progress(
            TextColumn("{task.description}", markup=False),  # a file name, not rich markup
            BarColumn(),
            DownloadColumn(),
            console=Console(file=stream),
            transient=True,
            auto_refresh=False,
        )
        self.task: TaskID = self.progress.add_task(shown(label), total=self.size)
        self.done = 0
        self.next_redraw = 0.0  # time.monotonic() of the next redraw

    @staticmethod
    def wanted(raw: BinaryIO, stream: IO[str], quiet: bool) -> bool:
        """Whether a bar is worth showing for ``raw``: a regular file of at least
        :data:`MIN_BYTES`, stderr a terminal, no ``-q``."""
        if quiet or stream is None or not stream.isatty():  # (None: stderr closed, 2>&-)
            return False
        try:
            return os.fstat(raw.fileno()).st_size >= MIN_BYTES
        except (OSError, ValueError, AttributeError):
            return False

    def __enter__(self) -> FileProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def _count(self, data: bytes) -> bytes:
        self.done += len(data)
        now = time.monotonic()
        if now >= self.next_redraw:
            self.next_redraw = now + REDRAW_SECONDS
            self.progress.update(self.task, completed=self.done)
            self.progress.refresh()
        return data

    def read1(self, size: int = -1) -> bytes:
        return self._count(self.raw.read1(size))  # type: ignore[attr-defined]  # raw is an open(..., 'rb') file: it has read1

    def read(self, size: int = -1) -> bytes:
        return self._count(self.raw.read(size))
