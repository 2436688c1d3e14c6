"""Reading a live pipe (``adb logcat | rknnprof analyze -``): Ctrl-C handling and progress.

* :class:`InterruptibleInput` wraps the binary input. The first SIGINT stops reading *cleanly*:
  the line iterator just ends, so open blocks are closed and the report is printed for what was
  read (like ``ping``'s summary). A second SIGINT exits 130 at once. The handler only raises
  while the reader is blocked in a read; at any other moment it sets a flag that the iterator
  checks after each line, so no parser is ever interrupted half-way through a line.
* :class:`Progress` keeps one live line on stderr — ``frames: N  last frame: X us`` — and only
  when stderr is a terminal (never in pipes, files or CI logs).

Both are used by ``analyze`` when it reads ``-`` (stdin); see ``ECOSYSTEM.md`` §1.8 and §4.6.
"""

from __future__ import annotations

import atexit
import signal
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, BinaryIO

from rknnprof.errors import EXIT_INTERRUPTED
from rknnprof.units import frame_ms

if TYPE_CHECKING:
    from rknnprof.parsers.events import Event


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
        self._previous_handler: object = None

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
                signal.signal(signal.SIGINT, self._previous_handler)  # type: ignore[arg-type]

    # -- reading ---------------------------------------------------------------------------
    def _guarded(self, call, *args):  # noqa: ANN001, ANN202 - thin wrapper
        if self.interrupted:
            return b""
        self._in_read = True
        try:
            return call(*args)
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


def _quiet() -> bool:
    """True under ``rknnprof … -q`` (the click context's flag; False outside the CLI)."""
    import click

    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get("rknnprof.quiet"))


class Progress:
    """``frames: N  last frame: X us`` on one rewritten stderr line, only on a terminal."""

    def __init__(self, stream: IO[str] | None = None, enabled: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = (self.stream.isatty() and not _quiet()) if enabled is None else enabled
        self.frames = 0
        self.last_frame_us: float | None = None
        self._shown = False

    def count(self, events: Iterable[Event]) -> Iterator[Event]:
        """Pass ``events`` through, updating the line for every measured table (a frame)."""
        from rknnprof.parsers.events import TableEvent

        for event in events:
            if isinstance(event, TableEvent) and event.measured and event.layers:
                self.frames += 1
                times = [x for x in event.row_times if x is not None]
                self.last_frame_us = event.reported_total_time_us or (sum(times) if times else None)
                self._show()
            yield event

    def _show(self) -> None:
        if not self.enabled:
            return
        last = frame_ms(self.last_frame_us)
        self.stream.write(f"\r\x1b[2Kframes: {self.frames}  last frame: {last}")
        self.stream.flush()
        self._shown = True

    def finish(self) -> None:
        """End the live line so the report starts on a fresh line."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False
