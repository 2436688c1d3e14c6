"""What a per-layer table holds: its rows (:class:`Layer`), the rows it could not read, the
op-type totals, and where in the input it stood."""

from __future__ import annotations

from rknnprof.model.enums import Bound, BoundBasis, Target
from rknnprof.model.record import Record, record

Shape = tuple[int, ...]
"""A tensor shape as the log prints it, e.g. ``(1, 3, 640, 640)``."""


@record
class SourceSpan(Record):
    """Where a profile came from."""

    path: str
    """File path as given on the command line, or ``<stdin>``."""
    first_line: int | None = None
    """1-based line number of the first line that belongs to the profile."""
    last_line: int | None = None
    """1-based line number of the last line that belongs to the profile."""


@record
class Layer(Record):
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
    compute_roof_macs_per_s: float | None = None
    """Filled by analysis: the compute roof of this layer, MACs/s: MACs/cycle of its data type x
    the NPU clock x the cores its WorkLoad shows it used; None without a platform, clock or
    ``achieved_macs_per_s``."""
    full_name: str | None = None
    """``<OnnxOpType>:<node name>``; ``None`` when empty in the log."""
    onnx_nodes: tuple[str, ...] = ()
    """Filled by analysis: the ONNX node names ``full_name`` stands for, in order
    (``analysis.onnx_names``); empty without a FullName."""
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
    cycles_explained: float | None = None
    """Filled by analysis: max(DDR, NPU cycles) / (time x NPU clock), the share of the layer's
    time its cycles account for (above 1 when the cycles overstate the time); ``None`` without
    cycles, time or clock. Under 0.5 a cycle-based bound is weak; tens of times under 1 the
    layer was stalled, not slow."""
    bound_weak: bool = False
    """Filled by analysis: True when ``bound`` was decided by the cycles (``bound_basis``
    ``cycles``) and those cycles explain under half the layer's time (``cycles_explained`` <
    0.5): the label says what the cycles point at, not what the time was spent on. Reports mark
    such a label (``compute?``)."""
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


@record
class SkippedRow(Record):
    """A table line that looked like a row but could not be parsed; kept, never dropped."""

    line: int
    """1-based line in the input."""
    text: str
    """The line as read (prefixes stripped), cut to 200 characters."""
    reason: str
    """Why it was skipped, e.g. ``fewer fields than the header (9 < 12)``."""


@record
class OpTypeStat(Record):
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
