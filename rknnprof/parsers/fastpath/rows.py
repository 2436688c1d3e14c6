"""The per-layer table half of the bulk path (:mod:`rknnprof.parsers.fastpath.skipper`): the
checks a frame's fixed lines, rows and total line pass to be read in bulk, and what the first frame
claimed teaches of them (their raw messages, each row shape's places); the ranking half is
:mod:`~rknnprof.parsers.fastpath.ranking`."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import getitem
from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.fastpath.repeat import LinePlan, row_times, shape_key
from rknnprof.parsers.fastpath.template import MAX_SHAPES, SHAPE, RowPlace, Template, same_line
from rknnprof.parsers.table.columns import TOTAL_TIME_RE, total_figure
from rknnprof.parsers.table.rows import repeated_row_plan
from rknnprof.parsers.table.tokens import MAX_DIGITS, NumberOutOfRange, parse_shapes

if TYPE_CHECKING:
    from rknnprof.inputs.claims import ReadLine

_TOTAL_TIME = LazyPattern(TOTAL_TIME_RE.pattern.encode())


def learn_fixed(
    t: Template, mine: list[bytes], number: int, index: Sequence[int], read_line: ReadLine
) -> bool:
    """The raw messages of the fixed slots, and the total line's, read once through the
    reader's own reading of the line."""
    p = t.prefix
    for slot in (*t.fixed, t.total):
        raw = mine[slot]
        line = read_line(raw, number + index[slot])
        if not same_line(line, raw, t.lines[0], p) or (
            slot != t.total and line.text != t.lines[slot].text  # type: ignore[union-attr]
        ):
            return False
    raw = mine[t.total]
    m, like = _TOTAL_TIME.search(raw, p), TOTAL_TIME_RE.search(t.lines[t.total].text)
    if (
        m is None
        or like is None
        or raw[p : m.start(1)] != like.string[: like.start(1)].encode()
        or raw[m.end(1) :].rstrip() != like.string[like.end(1) :].encode()
    ):
        return False
    t.total_head, t.total_tail = raw[p : m.start(1)], raw[m.end(1) :]
    t.fixed_raw = [mine[slot][p:] for slot in t.fixed]
    return True


def table_times(
    t: Template, mine: list[bytes], number: int, index: Sequence[int], read_line: ReadLine
) -> tuple[float | None, ...] | None:
    """The rows' times, when every row repeats the template's row (see the module doc)."""
    rows = mine[t.rows.start : t.rows.stop]
    keys = list(map(bytes.translate, rows, repeat(SHAPE)))
    seen = t.rows_seen
    plans: list[RowPlace | None]
    try:
        plans = list(map(seen.__getitem__, keys))
    except KeyError:  # a raw shape not seen yet (no search for None in the usual case)
        plans = list(map(seen.get, keys))
        for i, plan in enumerate(plans):
            if plan is None:
                plan = _row_plan(t, rows[i], number + index[t.rows.start + i], read_line)
                if plan is None:
                    return None
                if len(seen) >= MAX_SHAPES:
                    seen.clear()
                seen[keys[i]] = plans[i] = plan
    if t.inputs_raw is None and not _learn_inputs(t, rows, plans):  # type: ignore[arg-type]  # no None left
        return None
    for i, shapes in t.inputs_raw:  # type: ignore[union-attr]  # learnt above
        if rows[i][plans[i][3]] != shapes:  # type: ignore[index]  # a row of the template's has its output
            return None  # another input shape (a dynamic-shape model): the exact path says
    kind_slices, name_slices, time_slices, _ = zip(*plans)
    # each row's full name and kind (op type, DataType, Target) are the template row's: the
    # same bytes where the shape puts them
    if list(map(getitem, rows, name_slices)) != t.names:
        return None
    kinds: list[bytes] = list(map(getitem, rows, kind_slices))  # type: ignore[arg-type]  # slices
    if kinds != t.kinds_raw and (t.kinds_raw is not None or not _learn_kinds(t, kinds)):
        return None
    tokens: list[bytes] = list(map(getitem, rows, time_slices))  # type: ignore[arg-type]  # slices
    if b"".join(tokens).isdigit():
        return tuple(map(t.integers.__getitem__, tokens))
    try:
        return row_times([tok.decode() for tok in tokens])
    except (NumberOutOfRange, ValueError):
        return None


def _learn_inputs(t: Template, rows: list[bytes], plans: list[RowPlace]) -> bool:
    """The bytes of the input rows' output shapes, when this frame's parse to the template's."""
    learnt = []
    for i, shapes in t.carried.inputs:
        span = plans[i][3]
        if span is None or parse_shapes(rows[i][span].decode())[0] != shapes:
            return False
        learnt.append((i, rows[i][span]))
    t.inputs_raw = learnt
    return True


def _learn_kinds(t: Template, kinds: list[bytes]) -> bool:
    """The rows' kinds as printed, when this frame's are the template's (op type, DataType,
    Target: the tokens each kind holds)."""
    expected = [
        [op, *(() if dtype is None else (dtype,)), target]
        for (op, _), (dtype, target) in zip(t.carried.names, t.carried.placements)
    ]
    if [kind.decode().split() for kind in kinds] != expected:
        return False
    t.kinds_raw = kinds
    return True


def _row_plan(t: Template, raw: bytes, number: int, read_line: ReadLine) -> RowPlace | None:
    """Where a row of this raw shape has its kind, full name and time, when the exact path has
    read a line of its message shape as a repeated row."""
    line = read_line(raw, number)
    if line is None or not same_line(line, raw, t.lines[0], t.prefix):
        return None
    placed = t.carried.lines.get(shape_key(line.text)) or repeated_row_plan(line.text, t.carried)
    if placed is None or placed.full_name is None or placed.time is None:
        return None
    p = t.prefix

    name, time = placed.full_name, placed.time
    kind = _kind_of(placed)
    if kind is None:
        return None
    out = placed.output
    return (
        slice(kind.start + p, kind.stop + p),
        slice(name.start + p, name.stop + p),
        slice(time.start + p, time.stop + p),
        None if out is None else slice(out.start + p, out.stop + p),
    )


def _kind_of(placed: LinePlan) -> slice | None:
    """Where the row's op type, DataType and Target are, printed one after the other (None:
    another layout, which the bulk path does not read)."""
    parts = [placed.op_type, placed.data_type, placed.target]
    keys = placed.plan.keys
    at = keys.index("op_type")
    wanted = [key for key, part in zip(("op_type", "data_type", "target"), parts) if part]
    if list(keys[at : at + len(wanted)]) != wanted:
        return None
    last = placed.target or placed.data_type or placed.op_type
    return slice(placed.op_type.start, last.stop)


def total_of(t: Template, raw: bytes) -> float | None:
    """The total line's figure, when the line is the template's but for it. When the figure
    ends the template's line, a line of the template's bytes then digits has that figure:
    the pattern finds its words where the template's are and takes every digit after them."""
    if t.total_tail == b"\n" and raw.startswith(t.total_head, t.prefix):
        figure = raw[t.prefix + len(t.total_head) : -1]
        if figure.isdigit() and len(figure) <= MAX_DIGITS:
            return int(figure)
    m = _TOTAL_TIME.search(raw, t.prefix)
    if m is None or raw[t.prefix : m.start(1)] != t.total_head or raw[m.end(1) :] != t.total_tail:
        return None
    try:
        return total_figure(m.group(1).decode())
    except NumberOutOfRange:
        return None
