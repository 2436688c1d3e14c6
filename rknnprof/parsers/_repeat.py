"""The fast path for repeated frames: a table that repeats the previous table of its stream.

At ``RKNN_LOG_LEVEL=4`` the runtime prints the same per-layer table for every inference; a day
of logcat holds tens of thousands of them. Building a :class:`~rknnprof.model.Layer` per row
of every frame costs more than reading the bytes, and frame merging only needs each row's
time. So while a table's rows repeat the previous table of its stream (same header, and row
by row the same op type and full name), :class:`RepeatedRows` keeps each row's tokens, and the
table's ``TableEvent`` gets :class:`RepeatedLayers`: its layers, built only if someone looks at
them, and its ``times`` without building anything. The first row that does not repeat -- or
anything unusual in the table (a skipped row, a note, an elision, a row count that differs) --
turns the rows kept so far into layers, and the table is read as usual.

Exactness: a row is taken only through a :class:`RowPlan`, which says which token goes to which
column. A plan is made by :func:`~rknnprof.parsers._table.parse_tokens` itself, on the first
row of its *shape*, and kept only if it gives back exactly that row's values. The shape is the
row with every ASCII digit replaced by ``0``: every test ``parse_tokens`` makes on a token
(integer, number, shape list, cycles, percentages, data type, NPU/CPU/GPU, ``%``, ``:``)
gives the same answer for any digit in place of another, so rows of one shape split into
tokens the same way and assign them to the same columns.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from rknnprof.parsers import _table as t

if TYPE_CHECKING:
    from rknnprof.model import Layer
    from rknnprof.parsers.events import TableEvent

PLAIN_KEYS = frozenset({
    "id", "op_type", "data_type", "target", "input", "output", "cycles", "ddr", "npu", "total",
    "time", "mac", "workload", "rw", "sparse", "full_name",
})
"""Columns whose value is one token as printed (``full_name``: the rest of the row). Headers
with other columns (1.5 ``WorkLoad ... Up:``, extra columns) never take the fast path."""
MAX_PLANS = 4096
"""Row shapes remembered per model before the memo is emptied (a model has one per layer)."""
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")


def shape_key(body: str) -> bytes:
    """The row with every ASCII digit replaced by ``0`` (see the module docstring)."""
    return body.encode("utf-8", "surrogatepass").translate(_DIGITS_TO_ZERO)


@dataclass(frozen=True, slots=True)
class RowPlan:
    """Where each column's value sits in a complete row of one shape."""

    keys: tuple[str, ...]
    """Column keys, one per token in order; ``full_name``, if present, takes the rest."""
    op_type: int
    """Token index of the OpType."""
    time: int | None
    """Token index of Time(us), None when the header has none."""
    full_name: int | None
    """Token index where FullName starts, None when the header has none."""

    def values(self, tokens: list[str]) -> dict[str, str]:
        """The ``parse_tokens`` values of a row of this shape."""
        values = dict(zip(self.keys, tokens))
        if self.full_name is not None:
            values["full_name"] = " ".join(tokens[self.full_name:])
        return values


def make_plan(tokens: list[str], columns: tuple[t.Column, ...]) -> RowPlan | None:
    """The plan of a complete row, or None when the row is not one (or not a plain one)."""
    parse = t.parse_tokens(tokens, columns)
    if parse.error or parse.missing or not parse.values.keys() <= PLAIN_KEYS:
        return None
    keys = tuple(c.key for c in columns if c.key in parse.values)
    if len(set(keys)) != len(keys) or "op_type" not in keys:
        return None
    plan = RowPlan(
        keys=keys,
        op_type=keys.index("op_type"),
        time=keys.index("time") if "time" in keys else None,
        full_name=keys.index("full_name") if "full_name" in keys else None,
    )
    if plan.full_name not in (None, len(keys) - 1) or plan.values(tokens) != parse.values:
        return None
    return plan


@dataclass(slots=True)
class Carried:
    """What a table hands to the next table of its stream (see ``Block.hand_over``)."""

    template: TableEvent
    columns: tuple[t.Column, ...]
    prefix_len: int
    plans: dict[bytes, RowPlan | None]
    """Row shape -> plan, shared along the stream's run of tables."""


class RepeatedRows:
    """The rows of a table that, so far, repeat ``carried.template`` row for row."""

    def __init__(self, carried: Carried) -> None:
        self.carried = carried
        self.template = carried.template.layers
        self.rows: list[tuple[int, list[str], RowPlan]] = []

    def take(self, number: int, body: str) -> bool:
        """Keep the row ``body`` (line ``number``) if it repeats the template's next row."""
        index = len(self.rows)
        if index >= len(self.template):
            return False
        plans = self.carried.plans
        key = shape_key(body)
        plan = plans.get(key, False)
        tokens = body.split()
        if plan is False:
            if len(plans) >= MAX_PLANS:
                plans.clear()
            plan = plans[key] = make_plan(tokens, self.carried.columns)
        if plan is None:
            return False
        layer = self.template[index]
        if tokens[plan.op_type] != layer.op_type:
            return False
        name = " ".join(tokens[plan.full_name:]) if plan.full_name is not None else None
        if (name or None) != layer.full_name:
            return False
        self.rows.append((number, tokens, plan))
        return True

    def complete(self) -> bool:
        """Every row of the template was repeated."""
        return len(self.rows) == len(self.template)

    def layers(self) -> list[Layer]:
        """The rows kept so far as layers, exactly as the usual path builds them."""
        return [t.build_layer(plan.values(tokens), number) for number, tokens, plan in self.rows]

    def lazy(self) -> RepeatedLayers:
        """All the rows, for the table's event (call when :meth:`complete`)."""
        return RepeatedLayers(self.template, self.rows)


class RepeatedLayers(Sequence["Layer"]):
    """The layers of a table that repeats ``template`` row for row, built on first use.

    Behaves as the tuple of layers the usual path would have built (equal to it, same length,
    order and items). :attr:`times` and :attr:`template` let frame merging do without them."""

    __slots__ = ("_built", "_rows", "template", "times")

    def __init__(self, template: Sequence[Layer], rows: list[tuple[int, list[str], RowPlan]]):
        self.template = template
        """The repeated table's layers: the same op types and full names, row for row."""
        self.times: tuple[float | None, ...] = tuple(
            t._number(tokens[plan.time]) if plan.time is not None else None
            for _, tokens, plan in rows)
        """Time(us) of each row (``Layer.time_us`` of the built layers)."""
        self._rows: list[tuple[int, list[str], RowPlan]] | None = rows
        self._built: tuple[Layer, ...] | None = None

    def built(self) -> tuple[Layer, ...]:
        if self._built is None:
            assert self._rows is not None
            self._built = tuple(t.build_layer(plan.values(tokens), number)
                                for number, tokens, plan in self._rows)
            self._rows = None
        return self._built

    def __len__(self) -> int:
        return len(self.times)

    @overload
    def __getitem__(self, index: int) -> Layer: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Layer, ...]: ...
    def __getitem__(self, index: int | slice) -> Layer | tuple[Layer, ...]:
        return self.built()[index]

    def __iter__(self) -> Iterator[Layer]:
        return iter(self.built())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RepeatedLayers):
            other = other.built()
        return isinstance(other, tuple) and self.built() == other

    def __hash__(self) -> int:
        return hash(self.built())

    def __repr__(self) -> str:
        return repr(self.built())
