"""Per-layer and per-op-type deltas: CURRENT − BASE in microseconds, percentages of BASE."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from rknnprof.compare.align import align
from rknnprof.model import Layer, Profile, Target
from rknnprof.model.record import Record, record


@record
class LayerDelta(Record):
    """One aligned layer (or one only on one side)."""

    name: str
    """FullName, or ``<OpType>#<id>`` when the log gives none."""
    op_type: str
    status: str
    """``matched``, ``added`` (only in CURRENT), ``removed`` (only in BASE) or ``not-shown``
    (only on one side, and the other side's log leaves rows out: elided, cut)."""
    matched_by: str | None
    """``full_name``, ``signature`` or ``order``; ``None`` for added/removed."""
    base_id: int | None
    current_id: int | None
    base_time_us: float | None
    """Layer time in BASE, microseconds."""
    current_time_us: float | None
    """Layer time in CURRENT, microseconds."""
    delta_us: float
    """CURRENT − BASE, microseconds (a removed or added layer's missing side counts as 0; a
    layer not shown on one side has no change to tell: 0)."""
    delta_pct: float | None
    """delta_us / BASE time × 100; ``None`` when BASE is missing or 0."""
    base_target: str | None
    current_target: str | None
    base_data_type: str | None
    current_data_type: str | None
    base_op_type: str | None = None
    """The op type in BASE (``ConvExSwish``), when the layer is there."""
    current_op_type: str | None = None
    """The op type in CURRENT (``ConvRelu`` after an activation swap), when it is there."""

    @property
    def op_type_changed(self) -> bool:
        """A matched layer printed as another op type (an activation swap renames a conv)."""
        return self.status == "matched" and self.base_op_type != self.current_op_type

    @property
    def target_changed(self) -> bool:
        return self.status == "matched" and self.base_target != self.current_target

    @property
    def moved_to_cpu(self) -> bool:
        """A matched layer that ran off the CPU in BASE and on the CPU in CURRENT."""
        return self.target_changed and self.current_target == Target.CPU.value

    @property
    def data_type_changed(self) -> bool:
        return self.status == "matched" and self.base_data_type != self.current_data_type

    @property
    def changed(self) -> bool:
        """Anything that differs: added, removed, a time change of at least 0.5 us (what
        ``+1 us`` shows), a new target, data type or op type. A list of changes holds these
        alone."""
        return (
            self.status != "matched"
            or abs(self.delta_us) >= 0.5
            or self.target_changed
            or self.data_type_changed
            or self.op_type_changed
        )


@record
class OpTypeDelta(Record):
    """One op type's time in both runs."""

    op_type: str
    base_calls: int
    current_calls: int
    base_time_us: float
    """Microseconds."""
    current_time_us: float
    """Microseconds."""
    delta_us: float
    delta_pct: float | None


def layer_deltas(
    base: Sequence[Layer],
    current: Sequence[Layer],
    base_partial: bool = False,
    current_partial: bool = False,
    by_order: bool = True,
) -> list[LayerDelta]:
    """Every aligned layer (``by_order``: see :func:`~rknnprof.compare.align.align`). A layer
    only in one run is ``not-shown`` when the other run's table leaves rows out
    (``base_partial`` / ``current_partial``): absent from the log is not absent from the
    model."""
    out = []
    for i, j, how in align(base, current, by_order):
        b = base[i] if i is not None else None
        c = current[j] if j is not None else None
        ref = c or b
        assert ref is not None
        b_time = b.time_us if b else None
        c_time = c.time_us if c else None
        if b and c:
            status = "matched"
        elif c:
            status = "not-shown" if base_partial else "added"
        else:
            status = "not-shown" if current_partial else "removed"
        # (no change to tell: a layer not shown on one side, or a time neither log printed)
        untold = status == "not-shown" or (status == "matched" and None in (b_time, c_time))
        delta = 0.0 if untold else (c_time or 0.0) - (b_time or 0.0)
        out.append(
            LayerDelta(
                name=ref.full_name or f"{ref.op_type}#{ref.id}",
                op_type=ref.op_type,
                status=status,
                matched_by=how,
                base_id=b.id if b else None,
                current_id=c.id if c else None,
                base_time_us=b_time,
                current_time_us=c_time,
                delta_us=delta,
                delta_pct=pct_change(delta, b_time) if b and c and not untold else None,
                base_target=b.target.value if b else None,
                current_target=c.target.value if c else None,
                base_data_type=b.data_type if b else None,
                current_data_type=c.data_type if c else None,
                base_op_type=b.op_type if b else None,
                current_op_type=c.op_type if c else None,
            )
        )
    return out


def op_type_times(profile: Profile) -> dict[str, tuple[int, float]]:
    """op type -> (calls, total microseconds), from the layers, else (no layer with a time) the
    op stats / ranking."""
    out: dict[str, tuple[int, float]] = {}
    if any(la.time_us is not None for la in profile.layers) or not profile.ranking:
        for la in profile.layers:
            calls, time = out.get(la.op_type, (0, 0.0))
            out[la.op_type] = (calls + 1, time + (la.time_us or 0.0))
        return out
    for s in profile.op_stats or profile.ranking:
        out[s.op_type] = (s.calls, s.total_time_us)
    return out


def op_type_deltas(base: Profile, current: Profile) -> list[OpTypeDelta]:
    """Each op type's time in both runs; none when either run's rows carry no time."""
    if base.untimed or current.untimed:
        return []
    b, c = op_type_times(base), op_type_times(current)
    out = []
    for op in [*b, *(k for k in c if k not in b)]:
        b_calls, b_time = b.get(op, (0, 0.0))
        c_calls, c_time = c.get(op, (0, 0.0))
        out.append(
            OpTypeDelta(
                op,
                b_calls,
                c_calls,
                b_time,
                c_time,
                c_time - b_time,
                pct_change(c_time - b_time, b_time) if op in b else None,
            )
        )
    return out


def pct_change(delta: float | None, base: float | None) -> float | None:
    """``delta`` as a percentage of ``base``; ``None`` when either is missing or ``base`` is 0."""
    if delta is None or not base:
        return None
    return delta / base * 100.0


Delta = TypeVar("Delta", LayerDelta, OpTypeDelta)


def by_abs_delta(items: Iterable[Delta]) -> list[Delta]:
    """``items`` sorted by the absolute ``delta_us``, largest first."""
    return sorted(items, key=lambda d: -abs(d.delta_us))
