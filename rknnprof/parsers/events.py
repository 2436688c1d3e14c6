"""What blocks emit. The assembler (frames -> profiles) is the only consumer.

Every event carries ``line`` (1-based line of its first input line) and ``stream`` (the logcat
(pid, tid) it came from, or None). Events are small immutable records; a table is one event.
``TableEvent`` and ``RankingEvent`` are frozen dataclasses (the table's derives two fields after
``__init__``; the bulk path is checked against the exact one by their equality). The others are
passed once to the assembler and never replaced or serialised: they are ``NamedTuple`` records,
which Python makes at import for under half of what a frozen dataclass costs (``dataclasses``
compiles the methods it generates for each class at every start; the saving is in
benchmarks/README.md).
"""

# No ``from __future__ import annotations`` here: ``NamedTuple`` compiles every annotation it is
# given as a string (a ``ForwardRef`` each), which costs more at import than the types.
from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from rknnprof.model import (
    BenchmarkRun,
    Frequencies,
    KnownFailure,
    Layer,
    OpTypeStat,
    Shape,
    SkippedRow,
    Versions,
)
from rknnprof.model.record import Record, record

Stream = tuple[int, int] | None


RowNames = tuple[tuple[str, str | None], ...]
"""(op type, full name) of each row of a table, in order."""
Placements = tuple[tuple[str | None, str], ...]
"""(DataType, Target) of each row of a table, in order: one network built as INT8 and as FP16,
or with a layer moved to the CPU, is two models."""
InputShapes = tuple[tuple[int, tuple[Shape, ...] | None], ...]
"""(row index, output shapes) of each ``InputOperator`` row of a table: the shapes the model
ran at (a dynamic-shape model prints another set per input shape)."""
INPUT_OPERATOR = "InputOperator"


class MissingHeader(StrEnum):
    """What a table without its header line had instead (its note says it in words)."""

    TITLE_ONLY = "title-only"
    """A perf table title whose header never came."""
    ORPHAN_ROWS = "orphan-rows"
    """Rows that look like a table's, without any header line: not read."""
    ASSUMED_LAYOUT = "assumed-layout"
    """Rows read without their header, the column layout assumed from the rows' shape."""


@record
class TableEvent(Record):
    """One per-layer table (one inference, or one build-time estimate).

    Frame merging reads only :attr:`row_times` and :attr:`signature` of every frame after a
    model's first: a table that repeats the previous table of its stream gives them without
    building its layers (``parsers/fastpath/repeat.py``)."""

    family: str
    line: int
    last_line: int
    layers: Sequence[Layer]
    """The rows, in order. For a table that repeats the previous table of its stream, a lazy
    sequence equal to the tuple of its layers, built when first read."""
    measured: bool = True
    """False for build-time estimated tables."""
    reported_total_time_us: float | None = None
    reported_rw_kb: float | None = None
    skipped: tuple[SkippedRow, ...] = ()
    notes: tuple[tuple[int, str], ...] = ()
    """(line, message) warnings found while reading the table (inconsistencies, assumptions)."""
    missing_header: MissingHeader | None = None
    """What the table had instead of a header line; None when it had one."""
    stream: Stream = None
    total_line: int | None = None
    """1-based line of the ``Total Operator Elapsed ... Time(us)`` line, when present."""
    elided_rows: int = 0
    """Number of elision lines (``...``, ``......``) inside the table: rows are missing."""
    row_times: tuple[float | None, ...] = None  # type: ignore[assignment]  # set in __post_init__
    """Each row's Time(us) (``Layer.time_us``; None: the row has none). Taken from ``layers``
    when not given."""
    signature: RowNames = None  # type: ignore[assignment]  # set in __post_init__
    """Each row's (op type, full name): with :attr:`input_shapes`, what frames of one model
    share. Taken from ``layers`` when not given."""
    input_shapes: InputShapes = None  # type: ignore[assignment]  # set in __post_init__
    """The input rows' shapes (:data:`InputShapes`): frames of one model at another input shape
    are another profile. Taken from ``layers`` when not given."""
    placements: Placements = None  # type: ignore[assignment]  # set in __post_init__
    """Each row's (DataType, Target) (:data:`Placements`): frames of one network built with
    other data types or targets are another profile. Taken from ``layers`` when not given."""

    def __post_init__(self) -> None:
        if self.row_times is None:
            object.__setattr__(self, "row_times", times_of(self.layers))
        if self.signature is None:
            object.__setattr__(self, "signature", names_of(self.layers))
        if self.input_shapes is None:
            object.__setattr__(self, "input_shapes", inputs_of(self.layers))
        if self.placements is None:
            object.__setattr__(self, "placements", placements_of(self.layers))


def times_of(layers: Sequence[Layer]) -> tuple[float | None, ...]:
    """:attr:`TableEvent.row_times` of a table with these layers."""
    return tuple(la.time_us for la in layers)


def names_of(layers: Sequence[Layer]) -> RowNames:
    """:attr:`TableEvent.signature` of a table with these layers."""
    return tuple((la.op_type, la.full_name) for la in layers)


def placements_of(layers: Sequence[Layer]) -> Placements:
    """:attr:`TableEvent.placements` of a table with these layers."""
    return tuple((la.data_type, la.target.value) for la in layers)


def inputs_of(layers: Sequence[Layer]) -> InputShapes:
    """:attr:`TableEvent.input_shapes` of a table with these layers."""
    return tuple(
        (i, la.output_shapes) for i, la in enumerate(layers) if la.op_type == INPUT_OPERATOR
    )


@record
class RankingEvent(Record):
    """An "Operator Time Consuming Ranking Table" (belongs to the table just before it, if any)."""

    line: int
    last_line: int
    stats: Sequence[OpTypeStat]
    """The op-type rows, in order (for a frame read in bulk, a lazy sequence equal to their
    tuple, read on first use: ``parsers/fastpath/ranking.py``)."""
    total: OpTypeStat | None = None
    """The ``Total`` row, where printed."""
    stream: Stream = None
    skipped: tuple[SkippedRow, ...] = ()
    """Rows that looked like ranking rows but could not be read (cut pastes)."""
    notes: tuple[tuple[int, str], ...] = ()
    """(line, message) assumptions made while reading (elided columns, derived CPU time)."""
    cut: bool = False
    """The rows stop with neither a ``Total`` row nor the closing rule after them: the input
    may end inside the table."""


class TotalsEvent(NamedTuple):
    """perf_debug=False output: ``Total Time(us): N`` / ``FPS: x`` (no per-layer table)."""

    family: str
    line: int
    total_time_us: float | None
    fps: float | None = None
    stream: Stream = None


class InfoEvent(NamedTuple):
    """Runtime / driver / model information lines; any field may be None."""

    line: int
    versions: Versions = Versions()
    platform: str | None = None
    """Lower-case SoC from ``target platform: rk3588`` and similar."""
    platform_evidence: str | None = None
    """The text that named the platform, for ``platform_basis``."""
    stream: Stream = None


class FrequencyEvent(NamedTuple):
    line: int
    frequencies: Frequencies
    stream: Stream = None


class FallbackWarningEvent(NamedTuple):
    """``<Op> will fallback to CPU, because …`` (kind ``cpu``) or ``Failed to config layer:
    '<name>' using 3Core fallback to single core mode`` (kind ``multicore``)."""

    line: int
    kind: str
    subject: str
    """Op type (cpu) or layer FullName (multicore)."""
    reason: str
    """The text after ``because`` (cpu), or ``using 3Core fallback to single core mode``
    (multicore)."""
    stream: Stream = None
    details: tuple[str, ...] = ()
    """Detail lines that follow a multicore record (``core_num 3 ori_Ih 4 …``), as printed."""
    last_line: int | None = None
    """1-based line of the record's last detail line (None for a one-line warning)."""


class BenchmarkEvent(NamedTuple):
    line: int
    last_line: int
    run: BenchmarkRun
    model_name: str | None = None
    stream: Stream = None
    notes: tuple[tuple[int, str], ...] = ()
    """(line, message) warnings: a limit hit while reading the run."""


class RunLineEvent(NamedTuple):
    """A line about how the run was taken (``parsers/run_lines.py``): a clock reading
    (``Get DDR frequency: 528MHz``), a debugger, trace or tensor-dump line, eval_mem."""

    line: int
    kind: str
    """``clock``, ``debugger``, ``trace``, ``dump`` or ``eval-mem``."""
    text: str
    """The line as read, cut to 200 characters."""
    stream: Stream = None
    domain: str | None = None
    """``NPU``, ``DDR`` or ``CPU`` for a clock."""
    mhz: float | None = None
    """The clock, MHz, for a clock."""


class NpuLoadEvent(NamedTuple):
    """Driver ``NPU load:  Core0: 52%, Core1: 0%, …``."""

    line: int
    load_pct: tuple[float, ...]
    stream: Stream = None
    impossible: tuple[str, ...] = ()
    """Each core's reading above 100% as the line prints it (``Core2: 429496%``): no load."""


class AppTimeEvent(NamedTuple):
    """The application's own timing of one inference, printed beside the table
    (``Total inference time (in milliseconds, 4 decimal places): 151.6830 ms``), or of one
    runtime call in it (``rknn_run use 20.5 ms``)."""

    line: int
    time_us: float
    """Microseconds."""
    stream: Stream = None
    call: str | None = None
    """``rknn_inputs_set``, ``rknn_run`` or ``rknn_outputs_get`` for a call's time; ``None`` for
    the whole inference."""
    run: str = "single"
    """What was timed: ``single`` (one run), ``average`` (the application's own average over a
    loop of runs: ``loop count = 10 , average run  41.76 ms``, ``rknn_run ave time: 1.8ms, …``)
    or ``first`` (the demos' first, cold run, ``once run use …``: warm-up included, never what a
    frame is taken to cost)."""


class NoteEvent(NamedTuple):
    """Something recognised that holds no profile data: a table that must not be read as a
    layer table (RKNN_LOG_LEVEL=3 SRAM allocation table, build-time tensor memory table), or an
    error the log reports (``E eval_perf: …``, a Python traceback, ``rknn_init … failed``).
    ``analyze`` uses notes to say what it found when it exits 3 (no profile data)."""

    family: str
    """The recognising parser's family, e.g. ``runtime-sram-table``."""
    line: int
    last_line: int
    kind: str
    """``table`` (a non-profile table was skipped), ``error`` (the log reports a failure) or
    ``app-error`` (a traceback of the application's own code that names no NPU)."""
    message: str
    """One line for the user, e.g. ``RKNN_LOG_LEVEL=3 SRAM allocation table (31 rows, …)``; for
    an error, its telling line."""
    stream: Stream = None
    message_line: int | None = None
    """The 1-based line of ``message`` (an error's telling line); None: ``line``."""
    context: tuple[str, ...] = ()
    """An error's other lines (the exception it caused, the runtime's other messages)."""


class LlmStatsEvent(NamedTuple):
    """One RKLLM stage table (``I rkllm:  Stage  Total Time (ms)  Tokens …``) and the init-time
    and memory lines around it; times in ms, memory in MB (None: not printed)."""

    line: int
    last_line: int
    prefill_ms: float | None = None
    prefill_tokens: int | None = None
    generate_ms: float | None = None
    generate_tokens: int | None = None
    init_ms: float | None = None
    peak_memory_mb: float | None = None
    stream: Stream = None
    prefill_tokens_per_s: float | None = None
    """The Prefill row's Tokens per Second column as printed (None: not printed)."""
    generate_tokens_per_s: float | None = None
    """The Generate row's Tokens per Second column as printed (None: not printed)."""
    fragment: bool = False
    """The rows came without their header row (a pasted fragment)."""


class CommandEvent(NamedTuple):
    """A shell prompt's command (``parsers/shell_commands.py``): ``user@host:~$ sudo …``."""

    line: int
    as_root: bool
    """``sudo``, a ``root@`` prompt or a ``#`` one."""
    stream: Stream = None


class FailureEvent(NamedTuple):
    """A line of the failures catalogue (``parsers/failure_catalogue.py``)."""

    failure: KnownFailure
    stream: Stream = None

    @property
    def line(self) -> int:
        return self.failure.line


Event = (
    TableEvent
    | RankingEvent
    | TotalsEvent
    | InfoEvent
    | FrequencyEvent
    | FallbackWarningEvent
    | BenchmarkEvent
    | NpuLoadEvent
    | RunLineEvent
    | AppTimeEvent
    | NoteEvent
    | FailureEvent
    | LlmStatsEvent
    | CommandEvent
)
