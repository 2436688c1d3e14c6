"""The records the reader yields: :class:`Line` (one physical line, prefix facts kept) and
:class:`ReadStats` (what the reader saw besides the lines).

Their own module so that the reader (:mod:`~rknnprof.inputs.lines`) and the prefix grammar
(:mod:`~rknnprof.inputs._prefixes`), which both build them, import it and not each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

KEEP_EXAMPLES = 100
"""How many truncated-line numbers / chatty lines ReadStats remembers (counts are exact)."""


class Line(NamedTuple):
    number: int
    """1-based physical line number in the input (``\\n``, ``\\r\\n`` or a lone ``\\r`` end one)."""
    text: str
    """The message: logcat / runtime prefixes stripped, trailing whitespace and newline removed."""
    stream: tuple[int, int] | None = None
    """logcat (pid, tid) when the prefix gives them; (pid, 0) when it gives only a pid."""
    level: str | None = None
    """Log level letter (V/D/I/W/E/F, ``?`` for unknown) when a prefix gives one."""
    tag: str | None = None
    """logcat tag or runtime component (``RKNN``, ``RKNNAPI``, ``eval_perf``) from a prefix."""


@dataclass
class ReadStats:
    """What :func:`read_lines` saw besides the lines (filled while iterating)."""

    encoding: str = "utf-8"
    """Codec used: ``utf-8``, ``utf-16-le`` or ``utf-16-be``."""
    bom: bool = False
    compressed: str | None = None
    """The compression the input's first bytes show (``inputs/compressed.py``): then no line
    is read."""
    binary: bool = False
    """The input's first bytes hold NULs or many control bytes and are no UTF-16 text: a model
    or another binary file, not a log (its lines are still read)."""
    lines: int = 0
    """Physical lines read (including dropped ones)."""
    logcat_format: str | None = None
    """First ``adb logcat -v`` layout recognised (``threadtime``, ``brief``, ``long``...)."""
    dividers: int = 0
    truncated_count: int = 0
    truncated: list[int] = field(default_factory=list)
    """Line numbers of over-long lines that were cut (first KEEP_EXAMPLES)."""
    chatty_count: int = 0
    chatty: list[tuple[int, str]] = field(default_factory=list)
    """(line number, message) of dropped logd ``chatty`` lines (first KEEP_EXAMPLES)."""
    chatty_pids: dict[int | None, tuple[int, int]] = field(default_factory=dict)
    """Per process whose lines logd squashed (None: a layout without pids): (runs, first
    line); at most KEEP_PIDS processes."""

    def add_chatty(self, number: int, message: str, pid: int | None) -> None:
        """One logd ``chatty`` note, dropped: counted, kept as an example (the first
        KEEP_EXAMPLES), and counted for the process whose lines it squashed."""
        self.chatty_count += 1
        if len(self.chatty) < KEEP_EXAMPLES:
            self.chatty.append((number, message))
        runs, first = self.chatty_pids.get(pid, (0, number))
        if runs or len(self.chatty_pids) < KEEP_PIDS:
            self.chatty_pids[pid] = (runs + 1, first)

    last_line: int = 0
    """``Line.number`` of the last Line yielded (0: none); set when reading ends or the reader
    is closed (``close()`` after an interruption)."""
    unterminated: bool = False
    """The input ended without a newline (a file or a pipe cut inside its last line)."""


KEEP_PIDS = 256
"""Processes ``ReadStats.chatty_pids`` keeps."""

__all__ = ["KEEP_EXAMPLES", "KEEP_PIDS", "Line", "ReadStats"]
