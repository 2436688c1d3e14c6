"""A frame read in bulk (:mod:`rknnprof.parsers.fastpath.skipper`): the checks that a stream's lines
are a frame the exact path would read as the template's repeat (:func:`frame_of`), and what
such a frame becomes (:class:`BulkFrame`: the table's event, its layers read exactly on first
use, and the ranking block it leaves open)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import getitem
from typing import TYPE_CHECKING

from rknnprof.inputs.claims import Claim, ReadLine
from rknnprof.inputs.records import Line
from rknnprof.parsers.events import TableEvent
from rknnprof.parsers.fastpath.ranking import BulkRanking, ranking_total
from rknnprof.parsers.fastpath.repeat import ReplayedLayers
from rknnprof.parsers.fastpath.rows import learn_fixed, table_times, total_of
from rknnprof.parsers.fastpath.template import SHAPE, Template, learn_prefix
from rknnprof.parsers.table.block import TableBlock

if TYPE_CHECKING:
    from rknnprof.model import Layer


class BulkFrame(Claim):
    """A frame read in bulk: the table's event, and the ranking block left open."""

    __slots__ = ("frame", "number", "ranking", "stream", "table", "template")

    def __init__(
        self, number: int, t: Template, table: TableEvent, ranking: BulkRanking, frame: _Frame
    ) -> None:
        self.number = number
        self.template = t
        self.stream = t.stream
        self.table = table
        self.ranking = ranking
        self.frame = frame

    def lines(self) -> list[Line]:
        """The frame's lines, read exactly (when the stream's state does not fit the template
        where the frame is read: see :meth:`FrameSkipper.checked`)."""
        return self.frame.lines(range(len(self.template.lines)))


def frame_of(
    t: Template, mine: list[bytes], number: int, index: Sequence[int], read_line: ReadLine
) -> BulkFrame | None:
    """The frame whose stream's lines are ``mine`` (ASCII, title first, one per slot; line
    ``number + index[i]`` each), when the exact path would read it as the template's repeat
    (see the module doc); else None."""
    if t.prefix < 0 and not learn_prefix(t, mine[0], t.lines[0]):
        return None
    p = t.prefix
    if not t.fixed_raw and not learn_fixed(t, mine, number, index, read_line):
        return None
    # the fixed lines' messages are the template's, their prefixes of its shape (the rows' and
    # ranking rows' prefixes are in their remembered raw shapes)
    checked = list(map(mine.__getitem__, t.checked))  # (the fixed lines, then the total line)
    heads = b"".join(map(getitem, checked, repeat(slice(None, p))))  # type: ignore[arg-type]  # slices
    if (
        heads.translate(SHAPE) != t.checked_shape
        or list(map(getitem, checked[:-1], repeat(slice(p, None)))) != t.fixed_raw
    ):
        return None
    times = table_times(t, mine, number, index, read_line)
    if times is None:
        return None
    total = total_of(t, mine[t.total])
    ranking = ranking_total(t, mine, number, index, read_line)
    if total is None or ranking is None:
        return None
    first = number + index[0]
    frame = _Frame(t, mine, number, index, read_line)
    table = TableEvent(
        family=t.table.family,
        line=first,
        last_line=number + index[t.table_last],
        layers=ReplayedLayers(
            times, t.carried.names, t.carried.inputs, t.carried.placements, frame.layers
        ),
        measured=True,
        reported_total_time_us=total,
        reported_rw_kb=t.table.reported_rw_kb,
        stream=t.stream,
        total_line=number + index[t.total],
        row_times=times,
        signature=t.carried.names,
        input_shapes=t.carried.inputs,
        placements=t.carried.placements,
    )
    block = BulkRanking(
        t, ranking[0], number + index[t.table_last + 1], number + index[-1], frame.ranking_lines
    )
    return BulkFrame(first, t, table, block, frame)


class _Frame:
    """The raw lines of a frame read in bulk, read exactly when its layers or its ranking
    stats are first asked for."""

    __slots__ = ("index", "number", "raw", "read_line", "template")

    def __init__(
        self, t: Template, raw: list[bytes], number: int, index: Sequence[int], read_line: ReadLine
    ) -> None:
        self.template, self.raw, self.number, self.index = t, raw, number, index
        self.read_line = read_line

    def lines(self, slots: range) -> list[Line]:
        out = []
        for i in slots:
            line = self.read_line(self.raw[i], self.number + self.index[i])
            assert line is not None  # every slot was read as a line when claimed
            out.append(line)
        return out

    def layers(self) -> tuple[Layer, ...]:
        """The table's layers: its lines fed to a table block, as the exact path does."""
        t = self.template
        lines = self.lines(range(t.table_last + 1))
        block = TableBlock(lines[0], t.table.family)
        block.take_over(t.carried)
        for line in lines[1:]:
            fed = block.feed(line)
            assert fed
        return tuple(block.close()[0].layers)

    def ranking_lines(self) -> list[Line]:
        return self.lines(range(self.template.table_last + 1, len(self.template.lines)))
