"""The data model every stage shares: frozen dataclasses, units in each field's docstring.

Data flows one way: parsers build :class:`Layer` and :class:`Profile`, ``analysis`` returns new
copies with ``bound`` / ``time_share`` filled (``dataclasses.replace``), ``rules`` produce
:class:`Finding`, reporters only read. This module imports no other part of rknnprof (every
stage imports it); ``rknnprof.to_frame`` (:mod:`rknnprof.analysis.dataframe`) gives the
DataFrame view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

Shape = tuple[int, ...]
"""A tensor shape as the log prints it, e.g. ``(1, 3, 640, 640)``."""


def tidy_number(x: float) -> float:
    """``x`` as the model stores a printed number: integral values become ``int``, so JSON
    prints ``1134``, not ``1134.0``."""
    return int(x) if float(x).is_integer() else x


class Target(StrEnum):
    """Where the runtime ran a layer (the ``Target`` column)."""

    NPU = "NPU"
    CPU = "CPU"
    GPU = "GPU"
    UNKNOWN = "unknown"


class Bound(StrEnum):
    """What limits a layer. See ``analysis.classify`` for the thresholds."""

    COMPUTE = "compute"
    BANDWIDTH = "bandwidth"
    BALANCED = "balanced"
    CPU = "cpu"
    UNKNOWN = "unknown"


class BoundBasis(StrEnum):
    """What decided :class:`Bound`: DDR vs NPU cycles, RW(KB)/Time vs the DDR rate achieved on
    the platform, the Target column (CPU), NPU cycles 0 beside DDR cycles (the runtime did not
    compute the op's NPU cycles: ``unknown``), a rate no DDR reaches (a view), or nothing
    usable."""

    CYCLES = "cycles"
    NO_NPU_CYCLES = "no-npu-cycles"
    RW_RATE = "rw-rate"
    VIEW = "view"
    """RW(KB)/Time above the DDR's theoretical peak (or RW in Time 0): the op moved no data of its
    own (a Reshape relabelling a tensor); ``bound`` stays ``unknown``."""
    TARGET = "target"
    NONE = "none"


class Confidence(StrEnum):
    """How well the log supports a finding's saving: ``high`` measured in this log (cycles with
    the share of time they explain, an in-log pair of layers), ``medium`` from the SDK guide or a
    measured peer (model zoo figures, another corpus log), ``low`` an assumption, which the
    finding's message says it is."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class Severity(StrEnum):
    """How much a finding matters. Ordered: ``info < warning < error``."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return ("info", "warning", "error").index(self.value)


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """Where a profile came from."""

    path: str
    """File path as given on the command line, or ``<stdin>``."""
    first_line: int | None = None
    """1-based line number of the first line that belongs to the profile."""
    last_line: int | None = None
    """1-based line number of the last line that belongs to the profile."""


@dataclass(frozen=True, slots=True)
class Layer:
    """One row of a per-layer table (after frame merging: the per-layer median)."""

    id: int
    """The table's ID column (1-based in toolkit2, 0-based and possibly skipping in toolkit1)."""
    op_type: str
    """RKNN op type as printed (``ConvExSwish``, ``exSDPAttention``, ``CONVOLUTION`` in 1.x)."""
    target: Target = Target.UNKNOWN
    """NPU / CPU / GPU; ``unknown`` where the format has no Target column (toolkit1)."""
    data_type: str | None = None
    """``INT8``, ``UINT8``, ``FLOAT16``… (the op's input data type)."""
    input_shapes: tuple[Shape, ...] | None = None
    """Input tensor shapes (data, weight, bias…); ``None`` where the log prints ``\\``.
    A trailing ``,...`` in the log (more inputs elided) is recorded in
    ``input_shapes_truncated``."""
    input_shapes_truncated: bool = False
    """True when the log cut the input shape list with ``,...``."""
    output_shapes: tuple[Shape, ...] | None = None
    """Output tensor shapes; ``None`` where the log prints ``\\``."""
    output_shapes_truncated: bool = False
    """True when the log cut the output shape list with ``,...`` (multi-output ops)."""
    ddr_cycles: int | None = None
    """DDR cycles (count). ``0`` is a value; ``None`` means the format has no cycles."""
    npu_cycles: int | None = None
    """NPU cycles (count)."""
    total_cycles: int | None = None
    """Total cycles as printed; equals max(DDR, NPU) in every known runtime."""
    time_us: float | None = None
    """Elapsed time of the layer, microseconds (median over frames when merged)."""
    time_min_us: float | None = None
    """Smallest time over merged frames, microseconds (``None`` for a single frame)."""
    time_max_us: float | None = None
    """Largest time over merged frames, microseconds (``None`` for a single frame)."""
    mac_usage_pct: float | None = None
    """MAC utilisation, percent (first core slot); ``None`` for ``\\`` or an empty cell."""
    workload_pct: tuple[float, ...] | None = None
    """Share of the layer's work per NPU core, percent (``100.0/0.0/0.0``)."""
    rw_kb: float | None = None
    """Memory read + written by the layer, KB as the log gives them."""
    arith_intensity: float | None = None
    """Filled by analysis: MACs per byte of ``rw_kb`` (a conv with shapes), for a roofline."""
    achieved_macs_per_s: float | None = None
    """Filled by analysis: MACs per second of ``time_us`` (a conv with shapes), for a roofline."""
    full_name: str | None = None
    """``<OnnxOpType>:<node name>``; ``None`` when empty in the log."""
    sparse_ratio: str | None = None
    """Sparse-inference column as printed (``50%(IC)``, ``75%``, ``0%``); ``None`` if absent."""
    extra: tuple[tuple[str, str], ...] = ()
    """Columns without a field of their own, as (header, value) text pairs
    (``Task Number``, ``Lut Number``, ``Regcmd Size``, ``ImproveTherical``…)."""
    line: int | None = None
    """1-based line of the row in the input (first frame)."""
    bound: Bound = Bound.UNKNOWN
    """Filled by analysis."""
    bound_basis: BoundBasis = BoundBasis.NONE
    """Filled by analysis: what decided ``bound``."""
    time_share: float | None = None
    """Filled by analysis: ``time_us`` / profile total, a fraction 0..1."""
    fallback: str | None = None
    """The log's fallback warning that names this layer: ``cpu: <reason>`` (a ``<Op> will
    fallback to CPU, because <reason>`` warning whose op is this CPU layer's op type) or
    ``multicore: <reason>`` (a ``Failed to config layer: '<FullName>' …`` record naming this
    layer); ``None`` when none. Filled by the assembler; the warnings themselves, including
    those naming no layer of the table, stay in ``Profile.fallback_warnings``."""

    @property
    def is_io(self) -> bool:
        """InputOperator / OutputOperator: on the CPU by design, never a fallback."""
        return self.op_type in ("InputOperator", "OutputOperator")


@dataclass(frozen=True, slots=True)
class SkippedRow:
    """A table line that looked like a row but could not be parsed; kept, never dropped."""

    line: int
    """1-based line in the input."""
    text: str
    """The line as read (prefixes stripped), cut to 200 characters."""
    reason: str
    """Why it was skipped, e.g. ``fewer fields than the header (9 < 12)``."""


@dataclass(frozen=True, slots=True)
class OpTypeStat:
    """One op type's share of the time: from the log's ranking table or aggregated from layers."""

    op_type: str
    calls: int
    """Number of layers of this op type (``CallNumber``)."""
    cpu_time_us: float
    """Time on the CPU, microseconds."""
    npu_time_us: float
    """Time on the NPU, microseconds."""
    total_time_us: float
    """cpu + gpu + npu (+ unknown-target) time, microseconds."""
    gpu_time_us: float = 0.0
    """Time on the GPU, microseconds (always 0 in known logs)."""
    unknown_time_us: float = 0
    """Time of layers whose target the log does not say (toolkit1 tables have no Target
    column), microseconds; 0 in ranking tables."""
    share: float | None = None
    """total_time_us / profile total, fraction 0..1 (the ranking table's ``TimeRatio`` / 100)."""


@dataclass(frozen=True, slots=True)
class Versions:
    """Software versions the log names; ``None`` where it does not say."""

    runtime: str | None = None
    """librknnrt version, e.g. ``2.3.2`` (hash and date dropped)."""
    driver: str | None = None
    """RKNPU kernel driver version, e.g. ``0.9.8``."""
    toolkit: str | None = None
    """rknn-toolkit(2) / compiler version that built the model."""
    api: str | None = None
    """Toolkit API version (``D RKNNAPI: API:`` lines, toolkit2 1.x)."""
    model: str | None = None
    """RKNN model format version (``RKNN Model Information, version: 6``)."""


@dataclass(frozen=True, slots=True)
class Frequencies:
    """The eval_perf frequency lists. CPU in kHz, NPU and DDR in Hz (User Guide); ``None``
    entries stand for ``Unknown``."""

    cpu_khz: tuple[int | None, ...] = ()
    npu_hz: tuple[int | None, ...] = ()
    ddr_hz: tuple[int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class BenchmarkRun:
    """rknn_benchmark / rknn_common_test output."""

    run_times_ms: tuple[float, ...] = ()
    """``Elapse Time`` of each timed run (after warm-up), milliseconds."""
    warmup_times_ms: tuple[float, ...] = ()
    """``Elapse Time`` of each warm-up run, milliseconds."""
    avg_time_ms: float | None = None
    """``Avg Time`` as printed, milliseconds."""
    avg_fps: float | None = None
    """``Avg FPS`` as printed, frames per second."""


@dataclass(frozen=True, slots=True)
class ThroughputGain:
    """A throughput (frames per second) gain that is not a latency saving: more contexts, idle
    NPU cores, batching."""

    factor: float
    """Achievable FPS multiplier, e.g. ``2.7`` for 2.7x the frames per second."""
    bound: str
    """What bounds ``factor``, in one line (e.g. ``3 cores, capped by the 27% of the frame on
    the CPU``)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One piece of advice from a rule."""

    code: str
    """``RKNnnn``."""
    name: str
    """Rule name, e.g. ``cpu-fallback``."""
    severity: Severity
    message: str
    """One line: what was found, with numbers."""
    fix: str
    """One or two lines: what to change."""
    layer_ids: tuple[int, ...] = ()
    """IDs of the layers the finding is about (``Layer.id``)."""
    est_saving_us: float = 0.0
    """Estimated time saved per frame if fixed, microseconds (see the rule's doc for how)."""
    estimate: str = ""
    """How ``est_saving_us`` was estimated, in one sentence."""
    source: str = ""
    """Where the advice comes from (SDK guide section, issue URL)."""
    saving_by_layer: tuple[tuple[int, float], ...] = ()
    """``est_saving_us`` explained layer by layer: (``Layer.id``, microseconds) pairs whose
    values sum to ``est_saving_us``; empty for findings whose saving is not layer time (time
    outside the table) or is zero."""
    basis: str = ""
    """One line naming the evidence the saving rests on (the cycles and the share of the time
    they explain, an in-log pair, a measured speed-up, a cited bound)."""
    confidence: Confidence = Confidence.LOW
    """How well the log supports ``est_saving_us`` (see :class:`Confidence`)."""
    throughput_gain: ThroughputGain | None = None
    """A throughput gain the change would bring, kept apart from the latency saving."""


@dataclass(frozen=True, slots=True)
class LlmRun:
    """RKLLM runtime statistics (rknn-llm, ``RKLLM_LOG_LEVEL=1``): the stage table printed
    after each generation, merged over the generations of one log (medians)."""

    generations: int = 1
    """How many stage tables were merged."""
    prefill_ms: float | None = None
    """``Prefill`` row Total Time, milliseconds (time to the first token)."""
    prefill_tokens: int | None = None
    """``Prefill`` row Tokens: prompt tokens."""
    prefill_tokens_per_s: float | None = None
    """prefill_tokens / prefill time, tokens per second."""
    generate_ms: float | None = None
    """``Generate`` row Total Time, milliseconds."""
    generate_tokens: int | None = None
    """``Generate`` row Tokens: generated tokens (the first comes out of the prefill)."""
    decode_steps: int | None = None
    """generate_tokens - 1: the decode steps the Generate time covers."""
    decode_tokens_per_s: float | None = None
    """decode_steps / generate time, tokens per second; None without a decode step."""
    init_ms: float | None = None
    """Model init time, milliseconds (v1.1 ``Init`` row, v1.2+ ``Model init time (ms)``)."""
    peak_memory_mb: float | None = None
    """Peak memory, MB (v1.2 ``Peak Memory Usage (GB)`` x 1024, 1.3.0 ``(MB)``; v1.1
    ``Memory Usage (GB)``)."""


@dataclass(frozen=True, slots=True)
class KnownFailure:
    """An error or warning line of the failures catalogue (``parsers/failure_catalogue.py``)
    found in the log: what failed, why, and what to change."""

    id: str
    """The catalogue entry, e.g. ``unsupported-cpu-op`` (``docs/errors.md`` lists them)."""
    line: int
    """1-based line of the (first) matching line."""
    text: str
    """That line as read (prefixes stripped), cut to 200 characters."""
    diagnosis: str
    """One line: what failed, with the values the line gives (op, core mask, version)."""
    cause: str
    fix: str
    source: str
    """A public page showing the line and its cause or fix."""


@dataclass(frozen=True, slots=True)
class Profile:
    """One model's profile from one log: a per-layer table (merged over frames) or only totals."""

    source: SourceSpan
    format: str
    """Input family, e.g. ``toolkit2-perf-table`` (see ``rknnprof formats``)."""
    measured: bool = True
    """False for build-time *estimated* tables: never mixed with measured time."""
    layers: tuple[Layer, ...] = ()
    frames: int = 1
    """How many tables (inferences) were merged into this profile."""
    reported_total_time_us: float | None = None
    """The log's own total line (``Total Operator Elapsed Per Frame Time(us)``,
    ``Total Time(us)``), microseconds; median over frames."""
    reported_rw_kb: float | None = None
    """``Total Memory Read/Write Per Frame Size(KB)`` (KB) or the 1.5 ``RW Amount(MB)`` × 1024."""
    frame_times_us: tuple[float, ...] = ()
    """Per-frame total time, microseconds, in order (for p50/p90); empty for one frame."""
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
    waterfall_us: tuple[tuple[str, float], ...] = ()
    """Filled by analysis: (part, us) of an inference, summing to the app's (analysis.waterfall)."""
    fallback_warnings: tuple[tuple[str, str], ...] = ()
    """CPU-fallback and multi-core-fallback warnings: (op type or layer name, reason) pairs."""
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
    incomplete: str | None = None
    """Why the figures may not cover the whole run, or None: a printed table without the total
    line the runtime always ends it with (the log was cut), or frames that disagree with their
    own total line (rows damaged). ``check`` judges such a profile inconclusive unless
    ``--allow-incomplete``."""
    frame_total_us: float | None = None
    """Filled by analysis: the time of one frame that every share (``time_share``, "% of the
    frame") is a fraction of, microseconds. The layers' sum, except where rows are missing:
    the log's own total line for an elided table, the total the TimeRatio column implies for a
    ranking cut short (see ``analysis.figures``)."""
    frame_time_p50_us: float | None = None
    """Filled by analysis: median of ``frame_times_us`` (linear interpolation), microseconds;
    None for a single frame."""
    frame_time_p90_us: float | None = None
    """Filled by analysis: 90th percentile of ``frame_times_us``, microseconds; None for a
    single frame."""
    potential_saving_us: float | None = None
    """Filled right after the rules ran: what ``findings`` could save together, per frame,
    microseconds, no layer's time counted twice (``rules.potential_saving_us``); None when the
    rules did not run."""
    llm: LlmRun | None = None
    """RKLLM runtime statistics: set for the ``rkllm-runtime`` family (no layers), else None."""
    failures: tuple[KnownFailure, ...] = ()
    """Known failures (catalogue lines) the log of this profile reports, in log order, one per
    catalogue entry; the rules turn each into an RKN080 finding."""

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

    def time_on(self, target: Target) -> float:
        """Sum of the times of layers on ``target``, microseconds."""
        return float(sum(la.time_us or 0.0 for la in self.layers if la.target is target))


@dataclass(frozen=True, slots=True)
class ReportWarning:
    """Something the user should know about the input (inconsistency, assumption, skip)."""

    path: str
    line: int | None
    message: str


@dataclass(frozen=True, slots=True)
class Report:
    """Everything one ``analyze`` run produced."""

    profiles: tuple[Profile, ...]
    warnings: tuple[ReportWarning, ...] = ()
    failures: tuple[KnownFailure, ...] = ()
    """Known failures of the inputs that held no profile (the diagnosis of an exit 3)."""
