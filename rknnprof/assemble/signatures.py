"""What frames of one model share (:class:`FrameSignature`): the key the assembler merges a
stream's frames by, so frames with equal signatures in one stream are one model's."""

from __future__ import annotations

from typing import NamedTuple

from rknnprof.parsers.events import (
    InputShapes,
    Placements,
    RankingEvent,
    RowNames,
    TableEvent,
)


class FrameSignature(NamedTuple):
    """What frames of one model share: equal signatures (in one stream) are one model."""

    kind: str
    """``layers`` (a table with rows), ``ranking`` (a ranking table only) or ``totals``."""
    family: str | None = None
    """The table's family (``layers``, ``totals``)."""
    measured: bool | None = None
    """Whether the table's times were measured (``layers``)."""
    rows: RowNames = ()
    """Each row's (op type, full name) (``layers``)."""
    op_types: tuple[str, ...] = ()
    """The ranking's op types, sorted (``ranking``)."""
    inputs: InputShapes = ()
    """The input rows' shapes (``layers``): a dynamic-shape model's frames at each input
    shape are a model of their own."""
    placements: Placements = ()
    """Each row's (DataType, Target) (``layers``): one network built as INT8 and as FP16, or
    with a layer on the CPU, is two models."""


def frame_signature(
    table: TableEvent | None, ranking: RankingEvent | None
) -> FrameSignature | None:
    """What frames of one model share (None: the frame has nothing to merge)."""
    if table is not None and table.layers:
        return FrameSignature(
            "layers",
            table.family,
            table.measured,
            table.signature,
            inputs=table.input_shapes,
            placements=table.placements,
        )
    if ranking is not None and (ranking.stats or ranking.total is not None):
        # (as a set: the runtime sorts the ranking by time, so two op types of close times
        # swap places from frame to frame, and one model read as two)
        return FrameSignature("ranking", op_types=tuple(sorted(s.op_type for s in ranking.stats)))
    if table is not None and table.reported_total_time_us is not None:
        return FrameSignature("totals", table.family)
    return None
