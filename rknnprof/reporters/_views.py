"""What the layer table and the op-type table show, for every human-facing reporter.

A view is a title, an optional one-line note and columns of plain text cells; each reporter only
draws it (rich table, Markdown pipe table, HTML). Columns the log leaves empty (no names, no
shapes, every bound unknown) are left out, so a doc-edited or toolkit1 table does not show
blank columns.

The layer table ranks by what the log gives:

* ``time``: the slowest layers by measured (or estimated) time, with share and bound;
* ``cycles``: build-time estimates without time, ranked by estimated cycles (max of DDR/NPU),
  labelled ESTIMATE;
* ``order``: no time and no cycles (a doc example with the Time column removed): the layers in
  table order, with target, data type and workload.
"""

from __future__ import annotations

from dataclasses import field

from rknnprof.model import Bound, Layer, OpTypeStat, Profile
from rknnprof.model.record import Record, record
from rknnprof.reporters import _facts as F


@record(slots=False)
class Column(Record):
    """One column: ``key`` tells a reporter how to draw it (``name`` is cut to fit, ``bar`` is
    drawn from the view's shares, ``bound`` is coloured); ``head`` has no unit suffix when
    ``unit`` is set (the reporter appends it: ``Time us`` / ``Time (us)``)."""

    key: str
    head: str
    cells: tuple[str, ...]
    right: bool = False
    unit: str = ""


@record(slots=False)
class TableView(Record):
    """A table as the reporters draw it: title, columns, and the rows' cells and bars."""

    title: str
    columns: tuple[Column, ...]
    shares: tuple[float, ...] = ()
    """Bar lengths per row, fraction 0..1 (the ``bar`` column)."""
    note: str = ""
    """One line under the title, or ``""``."""
    layers: tuple[Layer, ...] = ()
    """The layer table's rows (for colours and links)."""
    cpu_rows: tuple[bool, ...] = field(default=())
    """The op-type table's rows with CPU time (highlighted)."""
    stats: tuple[OpTypeStat, ...] = ()
    """The op-type table's rows (for charts)."""

    def column(self, key: str) -> Column | None:
        return next((c for c in self.columns if c.key == key), None)


WEAK_MARK = "?"
"""Appended to a weak bound label (``compute?``): ``Layer.bound_weak``."""
WEAK_NOTE = (
    "? = weak label: cycles explain under half its time (the rest: a fused SiLU, fixed costs)"
)


def bound_text(layer: Layer) -> str:
    """``compute``, or ``compute?`` when the label is weak (``Layer.bound_weak``)."""
    return layer.bound.value + (WEAK_MARK if layer.bound_weak else "")


def _layer_columns(layers: list[Layer], with_bound: bool) -> list[Column]:
    names = tuple(la.full_name or "" for la in layers)
    outputs = tuple(F.shape_text(la.output_shapes, la.output_shapes_truncated) for la in layers)
    columns = [
        Column("id", "ID", tuple(str(la.id) for la in layers), right=True),
        Column("op", "Op type", tuple(la.op_type for la in layers)),
    ]
    if any(names):
        columns.append(Column("name", "Name", names))
    if any(outputs):
        columns.append(Column("output", "Output", outputs))
    if with_bound and any(la.bound is not Bound.UNKNOWN for la in layers):
        columns.append(Column("bound", "Bound", tuple(bound_text(la) for la in layers)))
    return columns


def _with_share(columns: list[Column], share_text: tuple[str, ...]) -> list[Column]:
    """Insert Share and the bar before the Bound column (or at the end)."""
    at = next((i for i, c in enumerate(columns) if c.key == "bound"), len(columns))
    extra = [Column("share", "Share", share_text, right=True), Column("bar", "", ())]
    return columns[:at] + extra + columns[at:]


def layer_table(profile: Profile, top: int) -> TableView | None:
    """The layer table for ``profile`` (see the module doc), or None without layers."""
    count = len(profile.layers)
    if not count:
        return None
    if F.has_layer_times(profile):
        layers = F.top_layers(profile, top)
        shares = tuple(F.layer_share(la, profile) or 0.0 for la in layers)
        what = "ESTIMATED time" if not profile.measured else "time"
        columns = _layer_columns(layers, with_bound=True)
        at = next((i for i, c in enumerate(columns) if c.key == "bound"), len(columns))
        time = Column(
            "time",
            "est." if not profile.measured else "Time",
            tuple(F.fmt_cell(la.time_us) for la in layers),
            right=True,
            unit="us",
        )
        columns.insert(at, time)
        columns = _with_share(columns, tuple(F.fmt_pct(s) for s in shares))
        title = f"Top {len(layers)} of {count} layers by {what}"
        note = WEAK_NOTE if any(la.bound_weak for la in layers) else ""
        return TableView(title, tuple(columns), shares, note, layers=tuple(layers))
    cycled = [la for la in profile.layers if F.layer_cycles(la) is not None]
    if any(F.layer_cycles(la) for la in cycled) and not profile.measured:
        layers = sorted(cycled, key=lambda la: (-(F.layer_cycles(la) or 0), la.id))[:top]
        total = sum(F.layer_cycles(la) or 0 for la in cycled)
        shares = tuple((F.layer_cycles(la) or 0) / total if total else 0.0 for la in layers)
        columns = _layer_columns(layers, with_bound=True)
        at = next((i for i, c in enumerate(columns) if c.key == "bound"), len(columns))
        columns[at:at] = [
            Column("ddr", "DDR cyc", tuple(F.fmt_cell(la.ddr_cycles) for la in layers), True),
            Column("npu", "NPU cyc", tuple(F.fmt_cell(la.npu_cycles) for la in layers), True),
        ]
        columns = _with_share(columns, tuple(F.fmt_pct(s) for s in shares))
        title = f"Top {len(layers)} of {count} layers by ESTIMATED cycles"
        note = "ESTIMATE: compiler cycles (max of DDR and NPU), no time; share of the cycles"
        return TableView(title, tuple(columns), shares, note, tuple(layers))
    layers = list(profile.layers[:top])
    columns = _layer_columns(layers, with_bound=False)
    columns[2:2] = [
        Column("target", "Target", tuple(la.target.value for la in layers)),
        Column("type", "Type", tuple(la.data_type or "" for la in layers)),
    ]
    if any(la.workload_pct for la in layers):
        columns.append(
            Column(
                "workload",
                "WorkLoad",
                tuple("/".join(f"{w:g}%" for w in la.workload_pct or ()) for la in layers),
            )
        )
    shown = len(layers)
    title = f"All {count} layers" if shown == count else f"First {shown} of {count} layers"
    note = (
        "every cycle count and time in the table is 0: nothing to rank by (table order)"
        if cycled
        else "per-layer times not in the log (Time column removed)"
        if profile.measured
        else f"no per-layer times: {PLACEMENT_ONLY}"
    )
    return TableView(title, tuple(columns), (), note, tuple(layers))


PLACEMENT_ONLY = (
    "a build-time table of where each op runs; time them on the board with "
    "eval_perf(perf_debug=True) or RKNN_LOG_LEVEL=4"
)
"""What a build-time table without cycles holds, and how to get times."""

_TIME_COLUMNS = (
    ("npu_time_us", "NPU"),
    ("cpu_time_us", "CPU"),
    ("gpu_time_us", "GPU"),
    ("unknown_time_us", "Other"),
)


def op_table(profile: Profile) -> TableView | None:
    """Time per op type: aggregated from the layers, or the log's own ranking table (also when
    the layer table elides rows and the ranking, complete, covers the whole frame). None when
    there is no time to show (estimates, tables without a Time column)."""
    if profile.layers and profile.elided_rows and F.whole_ranking(profile):
        stats, origin = profile.ranking, "the log's ranking table; the layer table elides rows"
    elif profile.layers:
        stats, origin = profile.op_stats, "aggregated from the layers"
        if profile.elided_rows:
            origin = "aggregated from the printed layers; the log elides some"
    else:
        stats, origin = profile.ranking, "the log's ranking table"
        if F.cut_short(profile):
            origin += f", cut short after {F.plural(len(stats), 'row')}"
    if not stats or not any(s.total_time_us for s in stats):
        return None
    frame = F.frame_total_us(profile) or sum(s.total_time_us for s in stats) or 1.0
    # (a printed 0.00% of an op type with time is under the ratio's rounding: its own share)
    shares = tuple(s.share if s.share else s.total_time_us / frame for s in stats)
    used = [(attr, head) for attr, head in _TIME_COLUMNS if any(getattr(s, attr) for s in stats)]
    known = [item for item in used if item[0] != "unknown_time_us"]
    if not known:
        times = [("total_time_us", "Time")]  # the log does not say where anything ran
        note = ""  # the summary's gaps note says so
    else:
        # NPU and CPU always (a 0 CPU column says "nothing on the CPU"), GPU and Other if used
        times = [("npu_time_us", "NPU"), ("cpu_time_us", "CPU")]
        times += [item for item in used if item[0] in ("gpu_time_us", "unknown_time_us")]
        note = "Other: layers whose target the log does not say" if len(used) > len(known) else ""
    columns = [
        Column("op", "Op type", tuple(s.op_type for s in stats)),
        Column("calls", "Calls", tuple(str(s.calls) for s in stats), right=True),
        *(
            Column(attr, head, tuple(F.fmt_cell(getattr(s, attr)) for s in stats), True, "us")
            for attr, head in times
        ),
        Column("share", "Share", tuple(F.fmt_pct(s) for s in shares), right=True),
        Column("bar", "", ()),
    ]
    return TableView(
        f"Time by op type ({origin})",
        tuple(columns),
        shares,
        note,
        cpu_rows=tuple(bool(s.cpu_time_us) for s in stats),
        stats=tuple(stats),
    )


def waterfall_table(profile: Profile) -> TableView | None:
    """Where an inference's time goes (``analysis.waterfall``): one row per part, with its share
    of the application's total and where the number comes from; None without a waterfall."""
    fall = profile.waterfall
    if fall is None or not fall.total_us:
        return None
    steps = fall.steps
    shares = tuple(s.time_us / fall.total_us for s in steps)
    columns = (
        Column("part", "Part", tuple(s.label for s in steps)),
        Column("time", "Time", tuple(F.fmt_cell(s.time_us) for s in steps), True, "us"),
        Column("share", "Share", tuple(F.fmt_pct(s) for s in shares), right=True),
        Column("bar", "", ()),
        Column("basis", "From", tuple(s.basis for s in steps)),
    )
    title = (
        f"Where an inference's {F.frame_ms(fall.total_us)} goes ({fall.total_basis}; "
        f"{F.part_us(fall.outside_us)} outside the layers)"
    )
    return TableView(title, columns, shares, "; ".join(note.text for note in fall.notes))
