"""What a log can support: one verdict per profile on its coverage and the conditions of its run.

Computed once, in analysis (``Profile.validity``), from the log alone; the rules, the gate,
compare and every reporter read it and never judge the log again. A profile whose table is not
:attr:`Coverage.COMPLETE`, or whose run was not a clean measurement, is read exactly and then
said to be so: it is never priced as a clean frame, and never passes a budget without a word.
"""

from __future__ import annotations

from enum import StrEnum

from rknnprof.model.record import Record, record


class Coverage(StrEnum):
    """How much of one inference the profile's table covers."""

    COMPLETE = "complete"
    """Every row, and the frame agrees with its own total line."""
    ELIDED = "elided"
    """The log says rows were left out (``......``, ``...``, a document's gap)."""
    FRAGMENT = "fragment"
    """No header, or no total to hold the rows to."""
    CUT = "cut"
    """The table stops mid-way (rows or the total line missing at the end)."""
    ESTIMATE = "estimate"
    """A build-time estimated table: no measured time."""
    UNKNOWN = "cannot-tell"
    """A format that carries no total (the eval_perf CSV side file): cannot tell."""
    NO_TABLE = "no-table"
    """No table at all: the profile holds the log's CPU-fallback warnings only."""
    DAMAGED = "damaged"
    """Rows that contradict each other or the total line: an ID printed twice (a table
    printed twice under one header, a duplicated row), rows that do not add up to their own
    total line, a ranking that disagrees with the layers."""


ROW_SUM_TOLERANCE_US = 0.5
"""How far a frame's rows may sum from its own total line, microseconds: rounding only (the
runtime's total line is the sum of the Time(us) column it prints). One frame or many, the
same."""


class ConditionKind(StrEnum):
    """What kind of fact about the run a :class:`RunCondition` is."""

    INSTRUMENTED = "instrumented"
    """perf_debug / RKNN_LOG_LEVEL=4: per-layer timing adds its own overhead."""
    DEBUGGER = "debugger"
    """Debugger, ioctl-trace, mem-sync trace or tensor-dump lines inside the run."""
    CLOCK = "clock"
    """A clock line (NPU, DDR, CPU) the log prints, held against the SoC's maximum."""
    NO_READING = "clock-no-reading"
    """A clock line whose figure no clock of the SoC can have (0 MHz, above its maximum): not
    used to turn cycles into time."""
    EVAL_MEM = "eval-mem"
    """eval_mem was on during the measured run."""
    VARYING = "varying-frames"
    """Frames that vary more than the noise."""
    STALLED = "stalled-layers"
    """Layers whose time is tens of times what their cycles at the clock explain."""
    COLD_RUN = "cold-run"
    """A benchmark of one timed run and no warm-up: a first run's one-time costs included."""


@record
class RunCondition(Record):
    """One fact about how the run was measured, with the line that shows it."""

    kind: ConditionKind
    message: str
    """One line a user can act on, ``<what the log shows>: <what it means>`` where it means
    something, e.g. ``DDR at 528 MHz, below RK3588's maximum of 2,112 MHz: the clocks were not
    fixed, …`` (reports that must be short show the part before the first ``": "``)."""
    line: int | None = None
    """1-based line of the input that shows it, when one does."""
    spoils_timing: bool = False
    """True when the run's times are not a measurement of the model (a debugger, trace or
    dumps inside the run): nothing is priced from them. Stalled layers do not spoil the rest of
    the table: each is left unpriced (``Validity.stalled_layer_ids``)."""
    below_maximum: bool = False
    """For a clock: True when it ran under 95 % of the SoC's maximum (not fixed at the top:
    times are longer than the board can do)."""


@record
class Validity(Record):
    """The verdict on what one profile's log can support."""

    coverage: Coverage
    coverage_reason: str
    """One line: why the coverage is what it is (``12 of 52 rows, no total line``)."""
    conditions: tuple[RunCondition, ...] = ()
    stalled_layer_ids: tuple[int, ...] = ()
    """IDs of layers whose time is far above max(DDR, NPU cycles) / clock (stalled, not slow)."""

    @property
    def complete(self) -> bool:
        """True when the table covers the whole inference and agrees with its total."""
        return self.coverage is Coverage.COMPLETE

    @property
    def is_measurement(self) -> bool:
        """False when a condition of the run spoils its times (nothing is priced)."""
        return not any(c.spoils_timing for c in self.conditions)
