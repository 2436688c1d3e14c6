"""Reading a live pipe (``adb logcat | rknnprof analyze -``): Ctrl-C handling.

:class:`InterruptibleInput` wraps the binary input. The first SIGINT stops reading *cleanly*:
  the line iterator just ends, so open blocks are closed and the report is printed for what was
  read (like ``ping``'s summary). A second SIGINT exits 130 at once. The handler only raises
  while the reader is blocked in a read; at any other moment it sets a flag that the iterator
  checks after each line, so no parser is ever interrupted half-way through a line.

Used by ``analyze`` when it reads ``-`` (stdin), with the progress line of
:class:`rknnprof.api.Progress` (which watches parsed events, so it lives after the parsers).
"""

from __future__ import annotations

import atexit
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, BinaryIO

from rknnprof.errors import EXIT_INTERRUPTED


class _StopReading(Exception):
    """Raised by the SIGINT handler inside a blocking read."""


def _exit_interrupted(signum: int, frame: object) -> None:
    """SIGINT after a first Ctrl-C stopped the reading: exit 130 at once."""
    raise SystemExit(EXIT_INTERRUPTED)


class InterruptibleInput:
    """A binary line source whose iteration ends on the first Ctrl-C.

    ``interrupted`` tells afterwards whether reading stopped early.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._in_read = False
        self.interrupted = False
        self._previous_handler: Callable[[int, FrameType | None], Any] | int | None = None

    # -- signal handling -----------------------------------------------------------------
    def _on_sigint(self, signum: int, frame: object) -> None:
        if self.interrupted:
            raise SystemExit(EXIT_INTERRUPTED)  # second Ctrl-C: give up at once
        self.interrupted = True
        if self._in_read:
            raise _StopReading

    @contextmanager
    def armed(self) -> Iterator[InterruptibleInput]:
        """Install the two-stage Ctrl-C handler for the duration of the block (main thread only;
        elsewhere the default behaviour stays). The handler stays armed while the report is
        printed, so a second Ctrl-C still exits 130; it is restored on leaving -- unless a first
        Ctrl-C stopped the reading: then the next one exits 130 at once, also while the report
        is analysed and printed after the block."""
        try:
            self._previous_handler = signal.signal(signal.SIGINT, self._on_sigint)
        except ValueError:  # not the main thread
            self._previous_handler = None
        try:
            yield self
        finally:
            if self._previous_handler is None:
                pass
            elif self.interrupted:
                signal.signal(signal.SIGINT, _exit_interrupted)
                # at exit the report is out: a late Ctrl-C must not kill the interpreter while it
                # shuts down (which resets a Python handler to the default, death by SIGINT)
                atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)
            else:
                signal.signal(signal.SIGINT, self._previous_handler)

    # -- reading ---------------------------------------------------------------------------
    def _guarded(self, call: Callable[[int], bytes], size: int) -> bytes:
        if self.interrupted:
            return b""
        self._in_read = True
        try:
            return call(size)
        except _StopReading:
            return b""
        finally:
            self._in_read = False

    def readline(self, size: int = -1) -> bytes:
        return self._guarded(self._raw.readline, size)

    def read(self, size: int = -1) -> bytes:
        return self._guarded(self._raw.read, size)

    def read1(self, size: int = -1) -> bytes:
        reader = getattr(self._raw, "read1", self._raw.read)
        return self._guarded(reader, size)

    def __iter__(self) -> Iterator[bytes]:
        while True:
            line = self.readline()
            if not line:
                return
            yield line

    def close(self) -> None:
        self._raw.close()
