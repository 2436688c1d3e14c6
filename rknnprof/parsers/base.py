"""The parser contract: streaming, line by line, one family per module.

``lines.read_lines`` yields clean :class:`~rknnprof.inputs.lines.Line` records (prefixes stripped).
``parsers.scan`` offers each line to the open :class:`Block` of its stream (logcat pid/tid, or
one stream for plain text); when no block is open it asks each registered
:class:`BlockParser` in ``PARSERS`` order whether the line *opens* one of its blocks. A block
consumes lines until it sees one that is not its own (``feed`` returns False: the line is
offered again to the parsers), then ``close()`` returns :mod:`~rknnprof.parsers.events`. A block
may instead pass over a line that is not its own (``passes_over``): the line is read as if the
block were not there, in a block of its own beside it, and the block goes on with its next line.
A block may pass what it learnt to the next block of its class on its stream (``hand_over`` /
``take_over``); that is a speed-up only, never a change in what is found.
The next stage, :mod:`rknnprof.assemble`, turns the event stream into
:class:`~rknnprof.model.Profile` objects: tables and their ranking/total lines into frames,
frames of the same model merged.

A family module defines one ``BlockParser`` subclass and nothing else public. Keep ``opens``
cheap: it runs on every line outside a block (a ``in`` test on a literal before any regex).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event


MAX_PASSED_OVER = 16
"""Lines in a row a block passes over (``Block.passes_over``) before it ends where it was."""


def passed_over(lines: list[int], where: str) -> str:
    """The note a block keeps, at the first of ``lines``, on the lines it passed over and went
    on after (``where``: ``table``, ``ranking``)."""
    if len(lines) == 1:
        return (
            f"other output inside the {where} (1 line): read on its own; the {where} goes on "
            "after it"
        )
    return (
        f"other output inside the {where} ({len(lines)} lines, to line {lines[-1]}): read on "
        f"their own; the {where} goes on after them"
    )


class Block(ABC):
    """The state of one block being read (one table, one warning record, one info line)."""

    @abstractmethod
    def feed(self, line: Line) -> bool:
        """Take ``line`` if it belongs to this block and return True; return False to end the
        block without consuming the line."""

    def passes_over(self, line: Line) -> bool:
        """Asked after ``feed`` refused ``line``: True to stay open while ``scan`` reads the line
        as if this block were not there (in a block of its own beside this one, closed when
        this block takes a line again). The block then takes the line that resumes it, or
        refuses it and ends where it was. The default ends the block."""
        return False

    @abstractmethod
    def close(self) -> Sequence[Event]:
        """The block is over (a foreign line, or end of input): return what it found."""

    def hand_over(self) -> object | None:
        """After ``close``: what the next block of the same class on the same stream may reuse
        (``take_over``), or None. The table block hands over its table, so that the next frame
        of the same model is read on a fast path (``parsers/fastpath/repeat.py``)."""
        return None

    def damaged(self, line: Line, reason: str) -> None:  # noqa: B027 - optional hook
        """``line`` could not be read: a number in it is beyond the token bounds
        (:class:`~rknnprof.parsers.table.tokens.NumberOutOfRange`). A block that keeps
        skipped rows records it; the default drops the line."""

    def take_over(self, carried: object) -> None:  # noqa: B027 - optional hook
        """Called by ``scan`` right after this block opened, with the last ``hand_over`` of a
        block of the same class on the same stream. Must not change what the block finds."""


class BlockParser(ABC):
    """One input family."""

    family: ClassVar[str]
    """Stable name, e.g. ``toolkit2-perf-table``; shown by ``rknnprof formats`` and in JSON."""
    detection: ClassVar[str]
    """One sentence for ``rknnprof formats``: how the family is recognised."""
    fields: ClassVar[str]
    """One sentence for ``rknnprof formats``: what it yields."""

    @abstractmethod
    def opens(self, line: Line) -> Block | None:
        """Return a new block if ``line`` starts one of this family (the line is consumed by the
        new block), else None. Whether it returns a block must depend on the line's ``text``,
        ``level`` and ``tag`` only (not its number or stream): ``scan`` remembers lines that open
        nothing and does not offer the same line again."""
