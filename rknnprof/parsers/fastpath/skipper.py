"""The bulk path for repeated frames: once a frame of a stream (per-layer table + ranking table)
has been read exactly as a repeat of the frame before it, the next frames of that stream are
found in the raw bytes and read a whole frame at a time, in C-level operations over lists.

The :class:`FrameSkipper` is a :class:`~rknnprof.inputs.claims.Skipper`: the reader asks it where
the next frame may start (``find``: one ``bytes.find`` of the table's title) and whether it
claims the frame there (``claim``). It claims a frame only when the exact path would read it
as it read the template frame (the last frame it read as a repeat), every difference checked:

* **Slots.** The template is the stream's lines from the table's title to the end of its
  ranking table; the candidate's lines of the same stream (logcat ``pid tid``; other streams'
  lines are left to the reader) fill the same slots. A line's *raw shape* (its bytes, digits
  replaced by ``0``, prefix included) decides what the reader and the blocks do with it (no
  test depends on a digit's value: ``repeat.py``), so a raw shape is checked once, through the
  reader's own reading of one such line, and remembered.
* **Fixed slots** (title, rules, headers, the RW total): the message bytes are the template's.
* **Rows**: the raw shape of a line the exact path read as a repeated row (``Carried.lines``),
  the template row's op type and full name; the Time(us) slices converted at once
  (:mod:`~rknnprof.parsers.fastpath.rows`). **The total line**: the template's but its figure.
* **Ranking rows**: raw shapes a ranking block reads as complete rows, each op type once, and
  the ranking block's checks at its close (CPU + GPU + NPU against TotalTime, TimeRatio against
  TotalTime, the Total row against the column sums) pass with a margin
  (:mod:`~rknnprof.parsers.fastpath.ranking`).
* **The stream's state**: the block open on the stream refuses the title (as it would) and the
  stream's table block would take over the same template (``Carried``).

The frame becomes a :class:`BulkFrame`: the table's event (its layers built on first use, by
reading the frame's lines exactly) and the ranking block left open on the stream
(:class:`BulkRanking`). Anything else (a line that does not fit, an unknown shape, a value near
a tolerance, a frame longer than the data read so far at the end of input) is read line by line.

Read in bulk: the 2.x per-layer table (``Network Layer Information Table``) with its total line
and ranking (with or without its Total row), as logcat threadtime lines, ``D RKNN: [..]`` lines
or plain text, UTF-8, ``\n`` line ends; several streams interleaved line by line a window at a
time (:mod:`~rknnprof.parsers.fastpath.streams`). Other layouts (1.5 ``Performance`` tables,
rankings alone, CR line ends, UTF-16) are read line by line: the same report, more slowly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from io import BytesIO
from itertools import compress, islice, repeat
from operator import eq, getitem
from typing import TYPE_CHECKING

from rknnprof.inputs.claims import NEED_MORE, Claim, Claimed, ReadLine, Reads
from rknnprof.inputs.records import Line
from rknnprof.parsers.events import RankingEvent, Stream, TableEvent
from rknnprof.parsers.fastpath.frame import BulkFrame, frame_of
from rknnprof.parsers.fastpath.others import OtherLines
from rknnprof.parsers.fastpath.ranking import BulkRanking
from rknnprof.parsers.fastpath.repeat import Carried
from rknnprof.parsers.fastpath.scan_state import Recording, ScanState
from rknnprof.parsers.fastpath.streams import Window, window_claim
from rknnprof.parsers.fastpath.template import (
    SHAPE,
    Template,
    learn_prefix,
    template_of,
    with_newline,
)
from rknnprof.parsers.ranking import RankingBlock
from rknnprof.parsers.table.block import TableBlock

if TYPE_CHECKING:
    from rknnprof.inputs._prefixes import OtherLayouts
    from rknnprof.inputs.records import ReadStats

SWITCH = "RKNNPROF_NO_FASTPATH"
"""The environment variable that turns the bulk path off (any value but empty or ``0``)."""


def enabled() -> bool:
    """Whether the bulk path is on: :data:`SWITCH` is unset, empty or ``0``. The report is the
    same either way; off, every line is read by the exact path (slower, for troubleshooting)."""
    return os.environ.get(SWITCH, "") in ("", "0")


MAX_FRAME_BYTES = 8 << 20
"""A frame is looked for in at most this much data after its title."""
MAX_TEMPLATES = 64
"""Streams whose frames are remembered at once (more: the oldest are forgotten)."""


class FrameSkipper:
    """The :class:`~rknnprof.inputs.claims.Skipper` of repeated frames (see the module doc)."""

    def __init__(self) -> None:
        from rknnprof.inputs.lines import ReadStats, line_reader

        self.state = ScanState()
        self.templates: dict[Stream, Template] = {}
        self._anchors: tuple[bytes, ...] = ()
        self._many = False
        """Several logcat streams have templates: claims read windows (``streams``)."""
        self.version = 0
        """Counts the templates learnt (see ``Skipper.version``)."""
        self.scratch: ReadLine = with_newline(line_reader(ReadStats()))
        """The reader's reading of one raw line (newline included), for checks: its counts go
        to a ReadStats of its own (the lines a claim does not take are read again by the
        reader)."""
        self.others = OtherLines(self.state, self.scratch)
        self.window = Window()
        self.shapes: dict[object, Template] = {}
        """The template whose raw shapes others read alike share (``streams``)."""
        self._ascii: tuple[bytes, bool] = (b"", True)
        """The last buffer claimed in, and whether it is all ASCII (checked once a buffer)."""

    # -- learning (called by scan) -----------------------------------------------------------
    def learn(
        self,
        lines: list[Line],
        table: TableEvent,
        ranking: RankingEvent,
        block: RankingBlock,
        carried: Carried,
    ) -> None:
        """The exact path read a frame (``lines``: its stream's lines) as a repeat of the frame
        before it: remember it as the stream's template, if it is one the bulk path reads."""
        template = template_of(lines, table, ranking, block, carried)
        if template is not None:
            if len(self.templates) >= MAX_TEMPLATES and table.stream not in self.templates:
                del self.templates[next(iter(self.templates))]
            self.templates[table.stream] = template
            self._anchors = tuple({t.anchor for t in self.templates.values()})
            self._many = len(self.templates) > 1 and all(
                t.stream is not None for t in self.templates.values()
            )
            self.version += 1
            self.window.cool_until = 0

    def recording(self, stream: Stream, handed: object, first: Line) -> Recording | None:
        """A recording of the frame of ``stream`` whose title ``first`` opened a block that
        took over ``handed`` (scan feeds it), when the skipper would learn from it: a table
        that takes over the stream's last table, not the template's."""
        if not isinstance(handed, Carried):
            return None
        template = self.templates.get(stream)
        if template is not None and template.carried is handed:
            return None
        return Recording(self.learn, handed, first)

    def checked(self, items: Iterable[Line | Claim]) -> Iterator[Line | Claim]:
        """``items`` (the reader's), with each frame read in bulk whose stream's state, when
        scan reaches it, is not the one its template was read in (the block open on the
        stream refuses the title, the table takes over the template's) replaced by its lines,
        read exactly. Lazy: scan has consumed every item before one is checked."""
        for item in items:
            if item.__class__ is BulkFrame and not self._state_fits(item.template):
                yield from item.lines()
            else:
                yield item

    # -- Skipper -----------------------------------------------------------------------------
    def reads(self, read: Callable[[int], bytes], stats: ReadStats, other: OtherLayouts) -> Reads:
        from rknnprof.parsers.fastpath.reads import SkippingSource

        return SkippingSource(read, self, stats, other)

    def find(self, data: bytes, start: int) -> int:
        if self.window.ahead:  # the last window's frames took lines past it: claim the next
            return start
        best = -1
        for anchor in self._anchors:
            at = data.find(anchor, start)
            if at >= 0 and (best < 0 or at < best):
                best = at
        if best < 0:
            return -1
        return data.rfind(b"\n", start, best) + 1 or start

    def claim(
        self, data: bytes, start: int, number: int, final: bool, read_line: ReadLine
    ) -> Claimed | str | None:
        if self.window.ahead or self._many:
            return window_claim(self, data, start, number, final)
        line_end = data.find(b"\n", start)
        if line_end < 0:
            return None if final else NEED_MORE
        template = self._title_of(data[start : line_end + 1], number)
        if template is None or not self._state_fits(template):
            return None
        ascii_data = self.ascii_buffer(data)
        try:
            return _claim(
                template,
                data,
                start,
                line_end,
                number,
                final,
                ascii_data,
                self.scratch,
                self.others,
            )
        except Exception:  # noqa: BLE001 - a frame the bulk path cannot read is read line by line
            return None

    def ascii_buffer(self, data: bytes) -> bool:
        """Whether ``data`` (the reader's buffer) is all ASCII: checked once a buffer."""
        if data is not self._ascii[0]:
            self._ascii = (data, data.isascii())
        return self._ascii[1]

    def _title_of(self, raw: bytes, number: int) -> Template | None:
        """The template whose stream's title ``raw`` (newline included) is, if any. With one
        template whose prefix is learnt, a line of its title's bytes after a prefix of the
        same shape (with the stream's ``pid tid``) is that title without reading it (digits of
        a stamp are read as digits); else the reader's reading of the line decides."""
        if len(self.templates) == 1:
            t = next(iter(self.templates.values()))
            p = t.prefix
            if (
                p >= 0
                and raw[p:] == t.title_raw
                and raw[:p].translate(SHAPE) == t.prefix_shape
                and (t.ids is None or raw.startswith(t.ids_text, t.ids.start))
            ):
                return t
        first = self.scratch(raw, number)
        if first is None:
            return None
        template = self.templates.get(first.stream)
        return template if template is not None and first.text == template.lines[0].text else None

    def _state_fits(self, template: Template) -> bool:
        stream = template.stream
        if self.state.carried.get((stream, TableBlock)) is not template.carried:
            return False
        if stream in self.state.aside:  # a line passed over is being read: line by line
            return False
        block = self.state.open_blocks.get(stream)
        if block is None:  # the title goes to the parsers, as in the template's frame
            return True
        if isinstance(block, BulkRanking) and block.real is None:
            if template.title_refused is None:  # a BulkRanking's answer depends on the text
                template.title_refused = block.refuses(template.lines[0].text)
            return template.title_refused
        return isinstance(block, (BulkRanking, RankingBlock)) and block.refuses(
            template.lines[0].text
        )


def _claim(
    t: Template,
    data: bytes,
    start: int,
    line_end: int,
    number: int,
    final: bool,
    ascii_data: bool,
    read_line: ReadLine,
    other_lines: OtherLines,
) -> Claimed | str | None:
    """``ascii_data``: ``data`` is all ASCII; ``read_line``: the reader's reading of a raw line
    (newline included), for checks; ``other_lines``: what the claim hands back of other
    streams' lines inside the frame."""
    slots = len(t.lines)
    # the stream's next title bounds the lines to look at (another stream's title may come
    # first: its tables interleave with this one's); a frame is not much shorter than the last
    # one claimed (were it, the lines looked at hold more than the frame: still right)
    search, limit = max(line_end, start + t.frame_bytes * 3 // 4), start + MAX_FRAME_BYTES
    while True:
        nxt = data.find(t.anchor, search, limit)
        if nxt < 0:
            if not final and len(data) - start < MAX_FRAME_BYTES:
                return NEED_MORE
            return None
        stop = data.rfind(b"\n", line_end, nxt) + 1
        if t.ids is None or data.startswith(t.ids_text, stop + t.ids.start):
            break
        search = nxt + 1
    # the run's lines, newlines kept (BytesIO shares ``data``; its lines are found by memchr)
    reader = BytesIO(data)
    reader.seek(start)
    lines = reader.readlines(stop - start)
    if t.prefix < 0 and not learn_prefix(t, lines[0], t.lines[0]):
        return None
    ids = t.ids
    mark: list[bool] = []  # which lines are the stream's (threadtime; else every line)
    if ids is None:
        index: Sequence[int] = range(slots)
        if len(lines) < slots:
            return None
    else:
        # the stream's lines: where the line holds the stream's "pid tid" (in C: no loop here;
        # a slice and ``eq`` cost less than ``bytes.startswith``, which parses its arguments)
        mark = list(map(eq, map(getitem, lines, repeat(ids)), repeat(t.ids_text)))
        index = list(islice(compress(range(len(lines)), mark), slots))
        if len(index) < slots:
            return None
    mine = list(islice(compress(lines, mark), slots)) if mark else lines[:slots]
    count = index[-1] + 1  # physical lines in the run
    if not ascii_data and not all(map(bytes.isascii, mine)):  # (other streams' may not be)
        return None
    frame = frame_of(t, mine, number, index, read_line)
    if frame is None:
        return None
    kept: tuple[tuple[int, bytes], ...] = ()
    if count > slots:  # (ids known): the few other lines, found in C
        others, at = [], -1
        try:
            while True:
                at = mark.index(False, at + 1, count)
                others.append(at)
        except ValueError:  # no more
            pass
        handed = other_lines.hand_back(
            t, list(map(lines.__getitem__, others)), list(map(number.__add__, others))
        )
        if handed is None:
            return None
        kept = handed
    end = stop - sum(map(len, lines[count:]))  # the lines after the run
    t.frame_bytes = end - start
    return Claimed(end, count, (frame,), kept)
