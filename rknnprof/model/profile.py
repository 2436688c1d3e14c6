"""One model's profile from one log, and one run's report."""

from __future__ import annotations

from dataclasses import field

from rknnprof.model.advice import Finding
from rknnprof.model.enums import Target
from rknnprof.model.figures import Roof, Waterfall
from rknnprof.model.layers import Layer, OpTypeStat, Shape, SkippedRow, SourceSpan
from rknnprof.model.record import Record, record
from rknnprof.model.run import (
    BenchmarkRun,
    Frequencies,
    KnownFailure,
    LlmRun,
    NpuClock,
    RunLine,
    Versions,
)
from rknnprof.model.validity import Validity

WARNINGS_ONLY_FORMAT = "fallback-warnings"
"""``Profile.format`` of the profile made of a log's CPU-fallback warnings alone (no table)."""


@record
class Profile(Record):
    """One model's profile from one log: a per-layer table (merged over frames) or only totals."""

    source: SourceSpan
    format: str
    """Input family, e.g. ``toolkit2-perf-table`` (see ``rknnprof formats``)."""
    measured: bool = True
    """False for build-time *estimated* tables: never mixed with measured time."""
    layers: tuple[Layer, ...] = ()
    frames: int = 1
    """How many tables (inferences) were merged into this profile."""
    frames_set_aside: int = 0
    """Frames of this model read but left out of the merge (medians, ``frame_times_us``,
    percentiles): each one's rows disagree with its own total line (a damaged row), and they are
    few among frames that agree (``assemble.inferences.SET_ASIDE_SHARE``); more, and they are
    merged and the profile is damaged (``incomplete``)."""
    frames_repeated: int = 0
    """Frames of this model that repeat an earlier frame to the microsecond in every row and
    its total (``assemble.inferences.MIN_COPY_ROWS``): the same inference printed twice, or a
    capture holding its output twice; counted once, not in ``frames``."""
    reported_total_time_us: float | None = None
    """The log's own total line (``Total Operator Elapsed Per Frame Time(us)``,
    ``Total Time(us)``), microseconds; median over frames."""
    reported_rw_kb: float | None = None
    """``Total Memory Read/Write Per Frame Size(KB)`` (KB) or the 1.5 ``RW Amount(MB)`` × 1024."""
    frame_times_us: tuple[float, ...] = ()
    """Per-frame total time, microseconds, in order; empty for one frame. At most the first
    ``assemble.inferences.MAX_FRAME_TIMES`` (10,000) frames: ``frames`` and the percentiles
    count every frame."""
    ranking: tuple[OpTypeStat, ...] = ()
    """The log's own "Operator Time Consuming Ranking Table", as printed."""
    op_stats: tuple[OpTypeStat, ...] = ()
    """Filled by analysis: op types aggregated from ``layers`` (or the ranking when no layers)."""
    platform: str | None = None
    """Lower-case SoC name (``rk3588``), or ``None``."""
    platform_basis: str | None = None
    """Why ``platform`` is what it is, e.g. ``log: target platform: rk3588`` or ``--platform``."""
    versions: Versions = field(default_factory=Versions)
    frequencies: Frequencies | None = None
    model_name: str | None = None
    """A name for the model when the log gives one (benchmark ``model:`` path, file name)."""
    benchmark: BenchmarkRun | None = None
    npu_load_pct: tuple[float, ...] = ()
    """Last driver ``NPU load:`` reading, percent per core."""
    app_time_us: float | None = None
    """The application's own time for one inference printed beside the table (``Total
    inference time (in milliseconds…): 151.6830 ms``), microseconds, median over its lines;
    ``None`` when none. It includes what the table does not: input/output copies, syncs."""
    app_calls: tuple[tuple[str, float], ...] = ()
    """(call, us): the rknn_inputs_set / rknn_run / rknn_outputs_get timings printed, medians."""
    waterfall: Waterfall | None = None
    """Filled by analysis: where one inference's time goes, as the application timed it
    (``analysis.waterfall``); None without a table time or an application timing."""
    roofs: tuple[Roof, ...] = ()
    """Filled by analysis: the roofline's compute roofs (per data type and core count of the
    layers placed on it) and bandwidth roofs (``analysis.roofline``); empty without a platform
    or conv layers with shapes."""
    fallback_warnings: tuple[tuple[str, str], ...] = ()
    """CPU-fallback and multi-core-fallback warnings: (op type or layer name, reason) pairs; a
    multi-core one's reason is the runtime's own words (:func:`is_multicore_fallback`)."""
    skipped_rows: tuple[SkippedRow, ...] = ()
    findings: tuple[Finding, ...] = ()
    """Filled by rules, sorted by ``est_saving_us`` descending."""
    pid_tid: tuple[int, int] | None = None
    """logcat (pid, tid) the rows came from, when the input was logcat."""
    reported_total_line: int | None = None
    """1-based line of the log's total line (first frame), for warnings that cite it."""
    elided_rows: int = 0
    """Elision lines (``...``, ``......``) inside the table: some layers are missing, so sums
    and op-type aggregates cover only the printed rows."""
    ranking_line: int | None = None
    """1-based line where the log's ranking table (``ranking``) begins, for warnings."""
    ranking_cut: bool = False
    """The ranking table stops with no Total row, its TimeRatio adding up to well under 100 %
    or no rule closing it (the log cut inside it): the op types it lacks are the cut's."""
    incomplete: str | None = None
    """Why the figures may not cover the whole run, or None: a printed table without the total
    line the runtime always ends it with (the log was cut), frames that disagree with their
    own total line (rows damaged), rows the log elided, a ranking table cut short, or a format
    that carries no total (the eval_perf CSV side file). ``check`` judges such a profile
    inconclusive unless ``--allow-incomplete``."""
    frame_total_us: float | None = None
    """Filled by analysis: the time of one frame that every share (``time_share``, "% of the
    frame") is a fraction of, microseconds. The layers' sum, except where rows are missing:
    the log's own total line for an elided table, the total the TimeRatio column implies for a
    ranking cut short (see ``analysis.figures``)."""
    frame_time_p50_us: float | None = None
    """Median of every frame's total (linear interpolation), microseconds; None for a single
    frame. Set by assemble from a counter of all frames (past the cap of ``frame_times_us``);
    analysis computes it from ``frame_times_us`` for a profile without it (built by hand)."""
    frame_time_p90_us: float | None = None
    """90th percentile of every frame's total, microseconds; None for a single frame. Set as
    ``frame_time_p50_us`` is."""
    potential_saving_us: float | None = None
    """Filled right after the rules ran: what ``findings`` could save together, per frame,
    microseconds, no layer's time counted twice (``rules.potential_saving_us``); None when the
    rules did not run."""
    llm: LlmRun | None = None
    """RKLLM runtime statistics: set for the ``rkllm-runtime`` family (no layers), else None."""
    failures: tuple[KnownFailure, ...] = ()
    """Known failures (catalogue lines) the log of this profile reports, in log order, one per
    catalogue entry; the rules turn each into an RKN080 finding."""
    headerless: bool = False
    """True when the rows were read without their table's header (a pasted fragment): the
    column layout was assumed from the rows' shape, and nothing says where the table began."""
    run_lines: tuple[RunLine, ...] = ()
    """Lines of the log about how the run was taken (clock readings, debugger / trace / dump
    lines, eval_mem) of this profile's process, one per kind, domain and value, in log order;
    debugger, trace and dump lines only when one came before the end of the table (inside the
    run). Filled by assemble; analysis reads them into ``validity``."""
    validity: Validity | None = None
    """Filled by analysis: what the log can support (coverage, conditions of the run, stalled
    layers); see :mod:`rknnprof.model.validity`. ``None`` before analysis."""
    npu_clock: NpuClock | None = None
    """Filled by analysis: the NPU clock every cycles->time figure of this profile uses
    (``Layer.cycles_explained``, the MAC model, the savings) and where it comes from; ``None``
    when neither the log nor the platform gives one."""

    @property
    def total_time_us(self) -> float | None:
        """The table's total, microseconds: the sum of the layers' times, else the log's total
        line, else the sum of the ranking's rows; None when the log gives no time. (Shares are
        of ``frame_total_us``, which differs where rows are missing.)"""
        times = [layer.time_us for layer in self.layers if layer.time_us is not None]
        if times:
            return float(sum(times))
        if self.reported_total_time_us is not None:
            return self.reported_total_time_us
        ranked = sum(s.total_time_us for s in self.ranking)
        return float(ranked) if ranked else None

    @property
    def stream_label(self) -> str:
        """``pid 2345 tid 2399``: the logcat process and thread the rows came from (the pid
        alone for a layout without the thread); ``""`` without them."""
        if self.pid_tid is None or self.pid_tid[0] <= 0:
            return ""
        pid, tid = self.pid_tid
        return f"pid {pid}" + (f" tid {tid}" if tid > 0 else "")

    @property
    def input_shapes(self) -> tuple[tuple[Shape, ...], ...]:
        """The InputOperator rows' output shapes, in row order, one per ID (a row printed twice
        is not a second input): the shapes the model ran at (frames at other ones are another
        profile)."""
        by_id = {
            la.id: la.output_shapes
            for la in self.layers
            if la.op_type == "InputOperator" and la.output_shapes
        }
        return tuple(by_id.values())

    @property
    def untimed(self) -> bool:
        """Rows without a single Time(us) and no ranking to give the op types' times (a table
        printed without its Time(us) column, or under another header): a sum of layer times is
        unknown, not 0."""
        return (
            bool(self.layers)
            and not self.ranking
            and all(layer.time_us is None for layer in self.layers)
        )

    @property
    def npu_precisions(self) -> tuple[tuple[str, float, int], ...]:
        """(data types, time in microseconds, layers) of the NPU layers by precision, most time
        first (then most layers): ``INT8/UINT8`` (8-bit integers together), ``FLOAT16``. One
        network built as INT8 and as FP16 is two profiles, told apart by this."""
        by_type: dict[str, list[float]] = {}  # data type -> [time, layers]
        for la in self.layers:
            if la.target is Target.NPU and la.data_type:
                figures = by_type.setdefault(la.data_type, [0.0, 0])
                figures[0] += la.time_us or 0.0
                figures[1] += 1
        groups: dict[str, list[tuple[str, float, int]]] = {}
        for dtype, (time, n) in by_type.items():
            groups.setdefault(_PRECISION.get(dtype, dtype), []).append((dtype, time, int(n)))
        named = []
        for members in groups.values():
            members.sort(key=lambda m: (-m[1], -m[2]))  # (most time first: INT8/UINT8)
            named.append(
                (
                    "/".join(dtype for dtype, _, _ in members),
                    float(sum(time for _, time, _ in members)),
                    sum(n for _, _, n in members),
                )
            )
        return tuple(sorted(named, key=lambda g: (-g[1], -g[2])))

    def time_on(self, target: Target) -> float:
        """Sum of the times of layers on ``target``, microseconds."""
        return float(sum(la.time_us or 0.0 for la in self.layers if la.target is target))


_PRECISION = {"UINT8": "INT8", "UINT16": "INT16", "FP16": "FLOAT16", "FP32": "FLOAT32"}
"""Data types of one precision (``INT8`` and ``UINT8``: 8-bit integers), named together."""


def is_multicore_fallback(reason: str) -> bool:
    """Whether a fallback warning's reason is the runtime's multi-core one (``using 3Core
    fallback to single core mode``: the layer runs on one core, not on the CPU), by its whole
    wording: a CPU fallback's reason that mentions a single core is still a CPU fallback."""
    words = reason.split()
    return (
        len(words) == 7
        and words[0] == "using"
        and words[2:] == ["fallback", "to", "single", "core", "mode"]
    )


def inputs_text(input_shapes: tuple[tuple[Shape, ...], ...]) -> str:
    """``1x3x640x640`` (several joined by ``, ``): :attr:`Profile.input_shapes` as the reports
    name a profile by its input; ``""`` without a shape."""
    return ", ".join(text for one in input_shapes for s in one if (text := "x".join(map(str, s))))


@record
class ReportWarning(Record):
    """Something the user should know about the input (inconsistency, assumption, skip)."""

    path: str
    line: int | None
    message: str


@record
class Report(Record):
    """Everything one ``analyze`` run produced."""

    profiles: tuple[Profile, ...]
    warnings: tuple[ReportWarning, ...] = ()
    failures: tuple[KnownFailure, ...] = ()
    """Known failures of the inputs that held no profile (the diagnosis of an exit 3)."""
    no_profile: str | None = None
    """Set when no input held a profile (exit 3): what the inputs held instead, the line
    printed on stderr."""
