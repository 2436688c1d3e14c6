"""The template of the bulk path (:mod:`rknnprof.parsers.fastpath.skipper`): one stream's repeated
frame as the exact path read it, its slots, and what the first frame read in bulk teaches of
its raw lines (prefix, fixed messages, raw shapes). The bulk path's raw lines keep their
newline (``io.BytesIO.readlines`` finds them by ``memchr``, where ``bytes.split`` compares byte
by byte)."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from rknnprof.inputs.records import Line
from rknnprof.model.record import MutableRecord, record
from rknnprof.parsers.events import RankingEvent, Stream, TableEvent
from rknnprof.parsers.fastpath.repeat import Carried, RepeatedLayers
from rknnprof.parsers.ranking import RankingBlock
from rknnprof.parsers.ranking_lines import row_keys
from rknnprof.parsers.table.columns import TITLE

if TYPE_CHECKING:
    from rknnprof.inputs.claims import ReadLine

MAX_SHAPES = 4096
"""Raw shapes remembered per template (rows, ranking rows) before a memo starts over."""
SHAPE = bytes.maketrans(b"123456789", b"000000000")
"""A line's raw shape: every ASCII digit replaced by ``0`` (``repeat.py``'s row shapes)."""
_SUM_KEYS = frozenset({"cpu", "npu", "total"})

RowPlace = tuple[slice, slice, slice, slice | None]
"""Where a row line of one raw shape has its kind (its op type, DataType and Target, printed one
after the other), its full name, its time and its output shapes (slices; None: no
OutputShape)."""


class Integers(dict[bytes, int]):
    """``int`` of a token of digits, remembered (bounded)."""

    def __missing__(self, token: bytes) -> int:
        if len(self) >= 65536:
            self.clear()
        value = self[token] = int(token)
        return value


@record(frozen=False)
class Template(MutableRecord):
    """One stream's repeated frame, as the exact path read it (slots: see the module doc)."""

    stream: Stream
    carried: Carried
    lines: list[Line]
    """The frame's lines of this stream, title first."""
    table: TableEvent
    rows: range
    """Slots of the table rows."""
    total: int
    """Slot of the total-time line."""
    table_last: int
    """Slot of the table's last line."""
    ranks: range
    """Slots of the ranking's op-type rows."""
    rank_total: int | None
    """Slot of the ranking's Total row (None: the runtime prints none, before 2.3)."""
    columns: tuple[str, ...]
    """The ranking's column keys."""
    rank_closed: bool
    """The ranking's block ended closed (a rule after its last row): it passes over no line
    (``RankingBlock.passes_over``), nor does the block a frame read in bulk leaves open."""
    rank_slots: list[int] = field(default_factory=list)
    """The ranking's op-type rows and its Total row."""
    total_keys: list[str] = field(default_factory=list)
    """The Total row's column keys (``ranking.row_keys``)."""
    fixed: list[int] = field(default_factory=list)
    """Every other slot."""
    checked: list[int] = field(default_factory=list)
    """The fixed slots and the total line's: their prefixes are checked by shape."""
    checked_shape: bytes = b""
    """The prefix shape once per ``checked`` slot: their prefixes, joined, have it."""
    # learnt from the first frame claimed (raw bytes):
    prefix: int = -1
    """Bytes before the message on the stream's lines (-1: not learnt yet)."""
    ids: slice | None = None
    """Where a threadtime line's ``pid tid`` sits (None: the stream is not logcat's)."""
    ids_text: bytes = b""
    pid_text: bytes = b""
    """The stream's pid as printed: a line without it is not the stream's."""
    prefix_shape: bytes = b""
    fixed_raw: list[bytes] = field(default_factory=list)
    """The fixed slots' raw messages (after the prefix)."""
    frame_bytes: int = 0
    """Bytes of the last frame claimed."""
    integers: Integers = field(default_factory=lambda: Integers())
    """Time tokens -> their values (the same few per row come back frame after frame)."""
    total_head: bytes = b""
    total_tail: bytes = b""
    rows_seen: dict[bytes, RowPlace] = field(default_factory=dict)
    """Raw shape of a row line -> where its kind, full name and time are."""
    inputs_raw: list[tuple[int, bytes]] | None = None
    """(row slot, the output shapes' bytes) of each input row, as a frame whose input rows
    have the template's shapes prints them (None: not learnt yet)."""
    ranks_seen: set[bytes] = field(default_factory=set)
    """Raw shapes of complete ranking rows."""
    names: list[bytes] = field(default_factory=list)
    """Each template row's full name."""
    kinds_raw: list[bytes] | None = None
    """Each template row's kind (op type, DataType and Target) as a frame's rows print it
    (None: not learnt yet)."""
    title_raw: bytes = b""
    """The title line's bytes after the prefix, as the first frame claimed has them."""
    title_refused: bool | None = None
    """Whether the ranking block a frame read in bulk leaves open refuses the title."""

    @property
    def anchor(self) -> bytes:
        return TITLE.encode()


def template_of(
    lines: list[Line],
    table: TableEvent,
    ranking: RankingEvent,
    block: RankingBlock,
    carried: Carried,
) -> Template | None:
    """The template of a frame read exactly, or None when the bulk path cannot read its like."""
    if (
        table.notes
        or table.skipped
        or table.elided_rows
        or not table.measured
        or table.reported_total_time_us is None
        or table.total_line is None
        or not isinstance(table.layers, RepeatedLayers)
        or ranking.notes
        or ranking.skipped
        or not ranking.stats
        or block.columns is None
        or block.prefix_len
        or not _SUM_KEYS <= set(block.columns)
        or "ratio" not in block.columns
        or ranking.total is not None
        and ranking.total.total_time_us <= 0
        or len(lines) < 4
    ):
        return None
    slot = {line.number: i for i, line in enumerate(lines)}
    if (
        len(slot) != len(lines)
        or lines[0].number != table.line
        or lines[-1].number != ranking.last_line
    ):
        return None
    try:
        rows = [slot[n] for n in table.layers.row_lines()]
        ranks = [slot[n] for n in block.lines]
        total, table_last = slot[table.total_line], slot[table.last_line]
        rank_first = slot[ranking.line]
        rank_total = None if block.total_line is None else slot[block.total_line]
    except KeyError:
        return None
    row_range = range(rows[0], rows[-1] + 1)
    rank_range = range(ranks[0], ranks[-1] + 1)
    if (
        rows != list(row_range)
        or ranks != list(rank_range)
        or rank_total is not None
        and rank_total < rank_range.stop
        or rank_first != table_last + 1
        or not rank_first < ranks[0]
        or not rows[-1] < total <= table_last
    ):
        return None  # (lines between the ranking's rows and its Total row are fixed slots)
    special = {*row_range, *rank_range, total, rank_total}
    template = Template(
        stream=table.stream,
        carried=carried,
        lines=lines,
        table=table,
        rows=row_range,
        total=total,
        table_last=table_last,
        ranks=rank_range,
        rank_total=rank_total,
        columns=tuple(block.columns),
        rank_closed=block.closed,
        fixed=[i for i in range(len(lines)) if i not in special],
    )
    template.checked = [*template.fixed, total]
    template.rank_slots = [*rank_range] if rank_total is None else [*rank_range, rank_total]
    template.total_keys = row_keys("Total", template.columns)
    template.names = [(name or "").encode() for _, name in carried.names]
    if not all(template.names):
        return None  # a row without a FullName: its plan has no name slice
    return template


def learn_prefix(template: Template, raw: bytes, first: Line) -> bool:
    """The prefix length, ``pid tid`` place and prefix shape, from the title's raw line."""
    text = first.text.encode()
    stripped = raw.rstrip()
    if not text or not stripped.endswith(text):
        return False
    prefix = len(stripped) - len(text)
    template.prefix = prefix
    template.title_raw = raw[prefix:]
    template.prefix_shape = raw[:prefix].translate(SHAPE)
    template.checked_shape = template.prefix_shape * len(template.checked)
    template.ids = None
    if first.stream is not None:
        from rknnprof.inputs._prefixes import THREADTIME_CHUNK

        m = THREADTIME_CHUNK.match(raw.decode("ascii", "replace"))
        if m is None or not m.group(1):
            return False
        template.ids = slice(*m.span(1))
        template.ids_text = raw[template.ids]
        template.pid_text = template.ids_text.split()[0]
    return True


def same_line(line: Line | None, raw: bytes, like: Line, prefix: int) -> bool:
    """``line`` (the reader's reading of ``raw``) is one of the stream's, with the message
    ``raw`` holds after the prefix."""
    return (
        line is not None
        and line.stream == like.stream
        and line.level == like.level
        and line.tag == like.tag
        and raw[prefix:].rstrip() == line.text.encode()
    )


def with_newline(read_line: ReadLine) -> ReadLine:
    """``read_line`` (the reader's reading of a raw line without its newline) for the bulk
    path's raw lines, which keep theirs."""

    def read(raw: bytes, number: int) -> Line | None:
        return read_line(raw[:-1] if raw.endswith(b"\n") else raw, number)

    return read
