"""What :func:`rknnprof.parsers.scan` knows of each stream, shared with the bulk path's skipper
(:mod:`rknnprof.parsers.fastpath.skipper`), which checks a frame against it before scan takes
it, and the frames scan records for the skipper to learn from (:class:`Recording`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.parsers.events import RankingEvent, TableEvent
from rknnprof.parsers.ranking import RankingBlock
from rknnprof.parsers.table.block import TableBlock

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from rknnprof.inputs.records import Line
    from rknnprof.parsers.base import Block
    from rknnprof.parsers.events import Event, Stream
    from rknnprof.parsers.fastpath.repeat import Carried

    Learn = Callable[[list[Line], TableEvent, RankingEvent, RankingBlock, Carried], None]


class ScanState:
    """What :func:`rknnprof.parsers.scan` knows of each stream (shared with the skipper)."""

    def __init__(self) -> None:
        self.open_blocks: dict[Stream, Block] = {}
        self.aside: dict[Stream, Block] = {}
        """Blocks opened on lines the stream's open block passed over (``Block.passes_over``);
        a stream has one only while it has an open block."""
        self.carried: dict[tuple[Stream, type[Block]], object] = {}
        """The last ``hand_over`` per stream and block class."""
        self.opened_nothing: set[tuple[str, str | None, str | None]] = set()
        """(text, level, tag) of lines no parser opened a block on (scan passes over them)."""
        self.recording: dict[Stream, Recording] = {}
        """Streams whose frame scan is recording for the skipper."""


class Recording:
    """One frame of a stream being recorded for the skipper: the lines from the title of a
    table that took over the stream's last table to the end of the ranking after it. Scan
    appends the stream's lines to ``lines`` and tells it of each block it closes (``closed``)."""

    def __init__(self, learn: Learn, carried: Carried, first: Line) -> None:
        self.learn = learn
        """What learns from the frame (``FrameSkipper.learn``)."""
        self.carried = carried
        self.lines = [first]
        self.table: TableEvent | None = None
        self.done = False

    def closed(self, block: Block, events: Sequence[Event]) -> None:
        if self.table is None:
            table = events[0] if len(events) == 1 else None
            if (
                isinstance(block, TableBlock)
                and isinstance(table, TableEvent)
                and block.repeated_frame
            ):
                self.table = table
            else:
                self.done = True
            return
        self.done = True
        ranking = events[0] if len(events) == 1 else None
        if isinstance(block, RankingBlock) and isinstance(ranking, RankingEvent):
            # (the last line ended the ranking: the next frame's; lines it passed over before
            # it are not the frame's either)
            lines = [line for line in self.lines[:-1] if line.number <= ranking.last_line]
            self.learn(lines, self.table, ranking, block, self.carried)
