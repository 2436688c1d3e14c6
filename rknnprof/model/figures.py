"""Figures analysis derives for a whole profile and stores on it, so that rules and reporters
only read them: the waterfall of one inference's time and the roofline's roofs."""

from __future__ import annotations

from enum import StrEnum

from rknnprof.model.record import Record, record


@record
class WaterfallStep(Record):
    """One part of an inference's time: ``key`` is ``npu_layers``, ``cpu_layers``,
    ``all_layers``, ``run_overhead``, ``inputs_set``, ``outputs_get`` or ``remainder``; ``label``
    says it for people; ``basis`` where the number comes from."""

    key: str
    label: str
    time_us: float
    """Microseconds per inference."""
    basis: str


class WaterfallNoteKind(StrEnum):
    """What a waterfall note says (a reader tests the kind, never the text)."""

    TABLE_SCALED = "table_scaled"
    """The instrumented table is longer than the time the application gave the layers
    (``rknn_run``): the layers are shown as a breakdown of that time, scaled."""
    TIMER_BELOW_CALLS = "timer_below_calls"
    """The application's total line is below the calls it timed: the total is their sum."""
    TIMER_SPAN_UNKNOWN = "timer_span_unknown"
    """The application's timer spans more than the calls in the log (the remainder), and what
    it spans is not in the log."""


@record
class WaterfallNote(Record):
    """Something the waterfall's numbers do not say by themselves."""

    kind: WaterfallNoteKind
    text: str


@record
class Waterfall(Record):
    """Where one inference's time goes, as the application measured it around the runtime's
    calls; the steps add up to ``total_us`` (see ``analysis.waterfall``)."""

    total_us: float
    """The application's time for one inference, microseconds (its line, else its calls' sum)."""
    total_basis: str
    steps: tuple[WaterfallStep, ...]
    scale: float = 1.0
    """The factor the table's layer times were multiplied by (below 1 when the table is
    longer than ``rknn_run``: a breakdown of ``rknn_run``), 1 when shown as printed."""
    notes: tuple[WaterfallNote, ...] = ()

    @property
    def outside_us(self) -> float:
        """The time outside the table's layers, microseconds (every step but the layers)."""
        return float(sum(s.time_us for s in self.steps if not s.key.endswith("_layers")))

    def has(self, kind: WaterfallNoteKind) -> bool:
        """Whether a note of ``kind`` is attached."""
        return any(note.kind is kind for note in self.notes)


@record
class Roof(Record):
    """One roof of the roofline: ``kind`` ``compute`` (``value`` MACs/s: MACs/cycle x NPU clock x
    ``cores``) or ``bandwidth`` (``value`` bytes/s, ``cores`` None); ``label`` for a legend."""

    kind: str
    label: str
    value: float
    data_type: str | None = None
    """The log DataType a compute roof is for; None for a bandwidth roof."""
    cores: int | None = None
    """NPU cores a compute roof counts (the cores its layers used); None for bandwidth."""
