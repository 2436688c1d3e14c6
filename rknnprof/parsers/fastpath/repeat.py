"""The fast path for repeated frames: a table that repeats the previous table of its stream.

At ``RKNN_LOG_LEVEL=4`` the runtime prints the same per-layer table for every inference; a day
of logcat holds tens of thousands of them. Building a :class:`~rknnprof.model.Layer` per row
of every frame costs more than reading the bytes, and frame merging only needs each row's
time. So while a table's rows repeat the previous table of its stream (same header, row by
row the same op type, full name, data type and target, input rows at the same shapes),
:class:`RepeatedRows` keeps each row's text, and the table's ``TableEvent`` gets
:class:`RepeatedLayers`: its layers, built only if someone looks at them, while the event's
``row_times``, ``signature``, ``input_shapes`` and ``placements`` are there without building
anything (nothing outside this package sees the difference). The first row that does not
repeat -- or anything unusual in the table (a skipped row, a note, an elision, a row count that
differs) -- turns the rows kept so far into layers, and the table is read as usual.

Two memos, shared along a stream's run of tables (:class:`Carried`), keep the per-row work to a
few string operations: row shape -> :class:`RowPlan`, and line shape -> :class:`LinePlan` (the
plan placed in the line) for lines already read as repeated rows, which then skip the table
block's tests. A repeated row is checked against the template's (op type, full name, data type,
target) by slices of the line itself, and kept as its line; its time stays text until the table
is complete and all its times are converted at once (:func:`row_times`).

Exactness: a row is taken only through a :class:`RowPlan`, which says which token goes to which
column. A plan is made by :func:`~rknnprof.parsers.table.columns.parse_tokens` itself, on the
first row of its *shape*, and kept only if it gives back exactly that row's values. The shape is the
row with every ASCII digit replaced by ``0``: every test ``parse_tokens`` makes on a token
(integer, number, shape list, cycles, percentages, data type, NPU/CPU/GPU, ``%``, ``:``)
gives the same answer for any digit in place of another, so rows of one shape split into
tokens the same way and assign them to the same columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, NamedTuple

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model.enums import Target
from rknnprof.model.record import MutableRecord, Record, record
from rknnprof.parsers.fastpath.lazy import Lazy
from rknnprof.parsers.table.columns import ROW_REQUIRED, Column, parse_tokens
from rknnprof.parsers.table.layer import build_layer
from rknnprof.parsers.table.tokens import MAX_DIGITS, parse_shapes, parse_target, to_number

if TYPE_CHECKING:
    from rknnprof.model import Layer, Shape
    from rknnprof.parsers.events import InputShapes, Placements, RowNames, TableEvent

PLAIN_KEYS = ROW_REQUIRED | {"mac", "workload", "rw", "sparse", "full_name"}
"""Columns whose value is one token as printed (``full_name``: the rest of the row). Headers
with other columns (1.5 ``WorkLoad ... Up:``, extra columns) never take the fast path."""
MAX_PLANS = 4096
"""Row shapes remembered per model before the memo is emptied (a model has one per layer)."""
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_TOKEN = LazyPattern(r"\S+")


TOO_MANY_DIGITS = b"0" * (MAX_DIGITS + 1)


def shape_key(body: str) -> bytes:
    """The row with every ASCII digit replaced by ``0`` (see the module docstring)."""
    return body.encode("utf-8", "surrogatepass").translate(_DIGITS_TO_ZERO)


@record
class RowPlan(Record):
    """Where each column's value sits in a complete row of one shape. Rows of one shape have
    their tokens at the same character positions (a digit replaces a digit), so the op type,
    time and full name are slices of the row text."""

    keys: tuple[str, ...]
    """Column keys, one per token in order; ``full_name``, if present, takes the rest."""
    op_type: slice
    time: slice | None
    """None when the header has no Time(us)."""
    full_name: slice | None
    """None when the header has no FullName."""
    output: slice | None
    """The OutputShape token (None when the row has none): an input row's shapes."""
    data_type: slice | None
    """The DataType token (None when the header has none)."""
    target: slice | None
    """The Target token (None when the header has none)."""
    name_index: int | None
    """Token index where FullName starts."""
    name_spaced: bool
    """The FullName text has blanks other than single spaces (then it is re-joined)."""

    def values(self, tokens: list[str]) -> dict[str, str]:
        """The ``parse_tokens`` values of a row of this shape."""
        values = dict(zip(self.keys, tokens))
        if self.name_index is not None:
            values["full_name"] = " ".join(tokens[self.name_index :])
        return values

    def name(self, body: str) -> str | None:
        """The FullName value of the row ``body`` (None when empty or absent)."""
        if self.full_name is None:
            return None
        name = body[self.full_name]
        return (" ".join(name.split()) if self.name_spaced else name) or None


def make_plan(
    body: str,
    columns: tuple[Column, ...],
    may_be_empty: frozenset[str],
) -> RowPlan | None:
    """The plan of a complete row, or None when the row is not one, or not a plain one: a value
    for every column but those in ``may_be_empty`` (else the table block notes a short row)."""
    tokens = body.split()
    parse = parse_tokens(tokens, columns)
    if parse.error or parse.missing or not parse.values.keys() <= PLAIN_KEYS:
        return None
    if any(c.key not in parse.values and c.key not in may_be_empty for c in columns):
        return None
    keys = tuple(c.key for c in columns if c.key in parse.values)
    if len(set(keys)) != len(keys) or "op_type" not in keys:
        return None
    spans = [slice(*m.span()) for m in _TOKEN.finditer(body)]
    if [body[span] for span in spans] != tokens:
        return None
    name_index = keys.index("full_name") if "full_name" in keys else None
    if name_index is not None and name_index != len(keys) - 1:
        return None
    full_name = None if name_index is None else slice(spans[name_index].start, spans[-1].stop)
    plan = RowPlan(
        keys=keys,
        op_type=spans[keys.index("op_type")],
        time=spans[keys.index("time")] if "time" in keys else None,
        full_name=full_name,
        output=spans[keys.index("output")] if "output" in keys else None,
        data_type=spans[keys.index("data_type")] if "data_type" in keys else None,
        target=spans[keys.index("target")] if "target" in keys else None,
        name_index=name_index,
        name_spaced=full_name is not None and " ".join(body[full_name].split()) != body[full_name],
    )
    name = parse.values.get("full_name") or None
    if plan.values(tokens) != parse.values or plan.name(body) != name:
        return None
    return plan


def plan_of(
    carried: Carried,
    key: bytes,
    body: str,
    may_be_empty: frozenset[str],
) -> RowPlan | None:
    """The plan of row ``body`` (its shape ``key``), made once per shape (``carried.plans``)."""
    plans = carried.plans
    try:
        return plans[key]
    except KeyError:  # a new row shape: once per layer of a model
        if len(plans) >= MAX_PLANS:
            plans.clear()
        plan = plans[key] = make_plan(body, carried.columns, may_be_empty)
        return plan


class LinePlan(NamedTuple):
    """A :class:`RowPlan` placed in a line whose row starts at ``start``: its slices are
    positions in the line, so a repeated row is checked without cutting the row out of it."""

    start: int
    plan: RowPlan
    op_type: slice
    time: slice | None
    full_name: slice | None
    """None when the plan has no FullName or a re-joined one (``plan.name`` then reads it)."""
    output: slice | None
    data_type: slice | None
    target: slice | None

    @classmethod
    def place(cls, plan: RowPlan, start: int) -> LinePlan:
        def shift(span: slice | None) -> slice | None:
            return None if span is None else slice(span.start + start, span.stop + start)

        name = None if plan.name_spaced else shift(plan.full_name)
        return cls(
            start,
            plan,
            shift(plan.op_type),  # type: ignore[arg-type]  # plan.op_type is a slice, so shift() gives one
            shift(plan.time),
            name,
            shift(plan.output),
            shift(plan.data_type),
            shift(plan.target),
        )

    def placement(self, text: str) -> tuple[str | None, str]:
        """The row's (DataType, Target) in ``text``, as its layer will have them
        (``build_layer``)."""
        dtype, target = self.data_type, self.target
        return (
            (text[dtype] or None) if dtype is not None else None,
            parse_target(text[target]).value if target is not None else Target.UNKNOWN.value,
        )


def row_times(tokens: Sequence[str | None]) -> tuple[float | None, ...]:
    """``to_number`` of each Time(us) token (None stays None); all-integer times, the
    usual case, in one go."""
    if None not in tokens and "".join(tokens).isdecimal():  # type: ignore[arg-type]  # None not in tokens: all str
        return tuple(map(int, tokens))  # type: ignore[arg-type]  # None not in tokens: all str
    return tuple(None if tok is None else to_number(tok) for tok in tokens)


@record(frozen=False)
class Carried(MutableRecord):
    """What a table hands to the next table of its stream (see ``Block.hand_over``)."""

    template: TableEvent
    columns: tuple[Column, ...]
    prefix_len: int
    plans: dict[bytes, RowPlan | None]
    """Row shape -> plan, shared along the stream's run of tables."""
    names: RowNames = ()
    """(op type, full name) of each template row: the frames' model signature, made once."""
    placements: Placements = ()
    """(DataType, Target) of each template row: a row placed otherwise is no repeat."""
    inputs: InputShapes = ()
    """The template's input rows' shapes: a row at another input shape is no repeat."""
    lines: dict[bytes, LinePlan] = field(default_factory=dict)
    """Line shape -> plan placed in the line, for lines the table block has read as repeated
    rows: every test it makes on a line before it reaches the row (rule, total, title, header,
    elision, pasted prefix) gives the same answer for every line of the shape."""


class RepeatedRows:
    """The rows of a table that, so far, repeat ``carried.template`` row for row."""

    def __init__(self, carried: Carried, may_be_empty: frozenset[str]) -> None:
        self.carried = carried
        self.may_be_empty = may_be_empty
        """Columns a row may leave empty and still be complete (``rows.MAY_BE_EMPTY``)."""
        self.names = carried.names
        """(op type, full name) of each template row."""
        self.placements = carried.placements
        """(DataType, Target) of each template row."""
        self.inputs = dict(carried.inputs)
        """Row index -> output shapes, of the template's input rows."""
        self.rows: list[tuple[int, str, LinePlan]] = []
        """(line number, line text, plan placed in the line) of each row taken."""
        self.times: list[str | None] = []
        """Time(us) token of each row taken (None: no Time column)."""

    def take_line(self, number: int, text: str) -> bool:
        """Keep the line ``text`` without the table block's tests when a line of its shape was
        read as a repeated row before (``Carried.lines``) and it repeats the template's next
        row. False: let the table block read it as usual."""
        key = text.encode("utf-8", "surrogatepass").translate(_DIGITS_TO_ZERO)  # shape_key()
        if TOO_MANY_DIGITS in key:
            return False
        known = self.carried.lines.get(key)
        if known is None or len(key) != len(text):
            return False
        return self._keep(number, text, known)

    def take(self, number: int, body: str, text: str) -> bool:
        """Keep the row ``body`` (line ``number``, the end of line ``text``) if it repeats the
        template's next row."""
        key = shape_key(body)
        if len(key) != len(body) or TOO_MANY_DIGITS in key:
            return False  # not ASCII (character and byte positions differ), or a number the
            # token bounds refuse: the table block reads it, and skips it with its reason
        plan = plan_of(self.carried, key, body, self.may_be_empty)
        if plan is None:
            return False
        placed = LinePlan.place(plan, len(text) - len(body))
        if not self._keep(number, text, placed):
            return False
        lines = self.carried.lines
        if len(lines) >= MAX_PLANS:
            lines.clear()
        lines[shape_key(text)] = placed
        return True

    def _keep(self, number: int, text: str, placed: LinePlan) -> bool:
        index = len(self.rows)
        if index >= len(self.names):
            return False
        op_type, full_name = self.names[index]
        if text[placed.op_type] != op_type:
            return False
        name = (
            text[placed.full_name]
            if placed.full_name is not None
            else placed.plan.name(text[placed.start :])
        )
        if name != full_name or placed.placement(text) != self.placements[index]:
            return False  # (another data type or target: another build of the network)
        if index in self.inputs and _output_shapes(text, placed) != self.inputs[index]:
            return False  # the model at another input shape (a dynamic-shape model)
        self.rows.append((number, text, placed))
        self.times.append(text[placed.time] if placed.time is not None else None)
        return True

    def complete(self) -> bool:
        """Every row of the template was repeated."""
        return len(self.rows) == len(self.names)

    def layers(self) -> list[Layer]:
        """The rows kept so far as layers, exactly as the usual path builds them."""
        return _build(self.rows)

    def lazy(self) -> RepeatedLayers:
        """All the rows, for the table's event (call when :meth:`complete`)."""
        carried = self.carried
        return RepeatedLayers(
            self.rows, row_times(self.times), self.names, carried.inputs, carried.placements
        )


def _build(rows: list[tuple[int, str, LinePlan]]) -> list[Layer]:
    return [
        build_layer(placed.plan.values(text[placed.start :].split()), number)
        for number, text, placed in rows
    ]


def _output_shapes(text: str, placed: LinePlan) -> tuple[Shape, ...] | None:
    """The output shapes of the row in ``text``, as its layer will have them (``build_layer``)."""
    span = placed.output
    return None if span is None else parse_shapes(text[span])[0]


class RepeatedLayers(Lazy["Layer"]):
    """The layers of a table that repeats the previous table of its stream row for row, built on
    first use (:class:`~rknnprof.parsers.fastpath.lazy.Lazy`: it behaves as the tuple of layers the
    usual path would have built). Its :attr:`times` and :attr:`names` become the table event's
    ``row_times`` and ``signature``, which frame merging reads instead of the layers."""

    __slots__ = ("_rows", "inputs", "names", "placements", "times")

    def __init__(
        self,
        rows: list[tuple[int, str, LinePlan]] | None,
        times: tuple[float | None, ...],
        names: RowNames,
        inputs: InputShapes,
        placements: Placements,
    ) -> None:
        super().__init__()
        self.names = names
        """(op type, full name) of each row."""
        self.inputs = inputs
        """The input rows' shapes."""
        self.placements = placements
        """(DataType, Target) of each row."""
        self.times = times
        """Time(us) of each row (``Layer.time_us`` of the built layers)."""
        self._rows = rows
        """The rows kept, until the layers are built."""

    def row_lines(self) -> tuple[int, ...]:
        """The input line of each row."""
        if self._rows is not None:
            return tuple(number for number, _, _ in self._rows)
        return tuple(-1 if layer.line is None else layer.line for layer in self.built())

    def _make(self) -> tuple[Layer, ...]:
        assert self._rows is not None
        rows, self._rows = self._rows, None
        return tuple(_build(rows))

    def __len__(self) -> int:
        return len(self.times)


class ReplayedLayers(RepeatedLayers):
    """The layers of a frame read in bulk: built on first use by reading its lines exactly."""

    __slots__ = ("_replay",)

    def __init__(
        self,
        times: tuple[float | None, ...],
        names: RowNames,
        inputs: InputShapes,
        placements: Placements,
        replay: Callable[[], tuple[Layer, ...]],
    ) -> None:
        super().__init__(None, times, names, inputs, placements)
        self._replay = replay

    def _make(self) -> tuple[Layer, ...]:
        return self._replay()
