"""Hand-made SVG/CSS charts for the HTML report (no chart library, no network).

Each function returns an HTML fragment; every piece of log text goes through ``_escape.html``.
Colours come from CSS classes ``b-<bound>`` so dark mode and print styles live in the CSS.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from rknnprof.model import Layer, Profile, Roof, Target, Waterfall
from rknnprof.reporters import _facts as F
from rknnprof.reporters._escape import html as escape
from rknnprof.reporters._views import TableView

TIMELINE_W, TIMELINE_H, MARK_H = 1000.0, 160.0, 8.0
SCATTER = 420.0
PAD = 44.0


def _num(value: float) -> str:
    """Compact SVG coordinate text (two decimals, no trailing zeros)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def layer_tip(layer: Layer, profile: Profile) -> str:
    """Tooltip text: ``#8 Transpose · CPU · 3,150 us (27.1%) · cpu · <full name>``."""
    parts = [f"#{layer.id} {layer.op_type}", layer.target.value, F.part_us(layer.time_us)]
    parts[-1] += f" ({F.fmt_pct(F.layer_share(layer, profile))})"
    parts.append(
        f"{layer.bound.value}-bound"
        if layer.bound.value in ("compute", "bandwidth")
        else layer.bound.value
    )
    if layer.ddr_cycles is not None:
        parts.append(f"cycles DDR {layer.ddr_cycles:,} / NPU {layer.npu_cycles or 0:,}")
    if layer.full_name:
        parts.append(layer.full_name)
    return " · ".join(parts)


def timeline_svg(
    profile: Profile, row_prefix: str, value: Callable[[Layer], float | None] | None = None
) -> str:
    """Bars of layer time (or of ``value(layer)``, e.g. estimated cycles) in execution order
    (one ``rect.layer-bar`` per layer), coloured by bound; CPU layers get a red mark under the
    baseline. Stretches to the page width."""
    layers = profile.layers
    if value is None:

        def value(layer: Layer) -> float | None:
            return layer.time_us

    n = max(len(layers), 1)
    slot = TIMELINE_W / n
    gap = slot * 0.15 if slot > 3 else 0.0
    largest = max((value(la) or 0.0 for la in layers), default=0.0) or 1.0
    base = TIMELINE_H
    parts = [
        f'<svg class="timeline" viewBox="0 0 {_num(TIMELINE_W)} {_num(TIMELINE_H + MARK_H + 2)}" '
        f'preserveAspectRatio="none" role="img" aria-label="layer time in execution order">',
        f'<line class="axis" x1="0" y1="{_num(base)}" x2="{_num(TIMELINE_W)}" y2="{_num(base)}"/>',
    ]
    for i, layer in enumerate(layers):
        h = (value(layer) or 0.0) / largest * (TIMELINE_H - 4)
        x = i * slot
        tip = escape(layer_tip(layer, profile))
        parts.append(
            f'<rect class="layer-bar b-{layer.bound.value}" x="{_num(x)}" y="{_num(base - h)}" '
            f'width="{_num(slot - gap)}" height="{_num(h)}" data-row="{row_prefix}{layer.id}">'
            f"<title>{tip}</title></rect>"
        )
        if layer.target is Target.CPU:
            parts.append(
                f'<rect class="cpu-mark" x="{_num(x)}" y="{_num(base + 2)}" '
                f'width="{_num(max(slot - gap, 1.5))}" height="{_num(MARK_H)}"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def _decades(low: float, high: float) -> tuple[int, int]:
    return math.floor(math.log10(low)), math.ceil(math.log10(high))


def scatter_svg(profile: Profile, row_prefix: str) -> tuple[str, str]:
    """DDR cycles (x) against NPU cycles (y) on log axes with the y = x diagonal; points above
    the diagonal are compute-heavy, below bandwidth-heavy. Returns (svg, note about the rows
    that cannot be drawn: 0/0/0 or no cycles; one zero side is pinned to the axis floor)."""
    with_cycles = [
        la for la in profile.layers if la.ddr_cycles is not None and la.npu_cycles is not None
    ]
    zero = [la for la in with_cycles if not la.ddr_cycles and not la.npu_cycles]
    points = [la for la in with_cycles if la.ddr_cycles or la.npu_cycles]
    missing = len(profile.layers) - len(with_cycles)
    notes = []
    if zero:
        notes.append(
            f"{len(zero)} layer{'s' if len(zero) != 1 else ''} with 0/0/0 cycles "
            "(newer runtimes, CPU layers) cannot be plotted"
        )
    if missing:
        notes.append(f"{missing} layer{'s' if missing != 1 else ''} without cycle columns")
    pinned = [la for la in points if not la.ddr_cycles or not la.npu_cycles]
    if pinned:
        notes.append(f"{len(pinned)} with one side 0 drawn hollow on the axis floor")
    if not points:
        return "", "; ".join(notes) or "no cycles in this profile"
    values = [v for la in points for v in (la.ddr_cycles, la.npu_cycles) if v]
    lo, hi = _decades(min(values), max(values))
    if hi <= lo:
        hi = lo + 1
    span = SCATTER - 2 * PAD

    def pos(value: int, flip: bool) -> float:
        frac = (math.log10(value) - lo) / (hi - lo) if value > 0 else 0.0
        return SCATTER - PAD - frac * span if flip else PAD + frac * span

    parts = [
        f'<svg class="scatter" viewBox="0 0 {_num(SCATTER)} {_num(SCATTER)}" role="img" '
        f'aria-label="DDR against NPU cycles, log axes">',
        f'<line class="axis" x1="{PAD}" y1="{SCATTER - PAD}" x2="{SCATTER - PAD}" '
        f'y2="{SCATTER - PAD}"/>',
        f'<line class="axis" x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{SCATTER - PAD}"/>',
        f'<line class="diag" x1="{PAD}" y1="{SCATTER - PAD}" x2="{SCATTER - PAD}" y2="{PAD}"/>',
    ]
    for decade in range(lo, hi + 1):
        x = pos(10**decade, False)
        y = pos(10**decade, True)
        label = f"1e{decade}"
        parts.append(
            f'<text x="{_num(x)}" y="{_num(SCATTER - PAD + 14)}" '
            f'text-anchor="middle">{label}</text>'
        )
        parts.append(
            f'<text x="{_num(PAD - 4)}" y="{_num(y + 4)}" text-anchor="end">{label}</text>'
        )
    parts.append(
        f'<text x="{SCATTER / 2}" y="{SCATTER - 8}" text-anchor="middle">DDR cycles →</text>'
    )
    parts.append(
        f'<text x="12" y="{SCATTER / 2}" transform="rotate(-90 12 {SCATTER / 2})" '
        f'text-anchor="middle">NPU cycles →</text>'
    )
    parts.append(
        f'<text x="{SCATTER - PAD - 4}" y="{PAD + 12}" text-anchor="end">compute-heavy</text>'
    )
    parts.append(
        f'<text x="{SCATTER - PAD - 4}" y="{SCATTER - PAD - 6}" text-anchor="end">'
        "bandwidth-heavy</text>"
    )
    for layer in points:
        x = pos(layer.ddr_cycles or 0, False)
        y = pos(layer.npu_cycles or 0, True)
        hollow = " pinned" if not (layer.ddr_cycles and layer.npu_cycles) else ""
        parts.append(
            f'<circle class="pt b-{layer.bound.value}{hollow}" '
            f'cx="{_num(x)}" cy="{_num(y)}" r="3.5"'
            f' data-row="{row_prefix}{layer.id}"><title>{escape(layer_tip(layer, profile))}'
            "</title></circle>"
        )
    parts.append("</svg>")
    return f'<div class="chart">{"".join(parts)}</div>', "; ".join(notes)


def bound_stack(profile: Profile) -> str:
    """A 100 % stacked bar of time per bound (in :data:`F.BOUND_ORDER`, so colours sit in
    the same place in every report), with a legend; ``""`` when there is nothing to tell
    (no layer times, or every layer unknown: see ``F.bound_items``)."""
    known = dict(F.bound_items(profile))
    shares = [(b, known[b]) for b in F.BOUND_ORDER if b in known]
    if not shares:
        return ""
    bar = "".join(
        f'<div class="b-{b.value}" style="width:{s * 100:.2f}%" title="{escape(F.BOUND_LABEL[b])} '
        f'{F.fmt_pct(s)}"></div>'
        for b, s in shares
    )
    legend = "".join(
        f'<span><i class="b-{b.value}"></i>{escape(F.BOUND_LABEL[b])} {F.fmt_pct(s)}</span>'
        for b, s in shares
    )
    return (
        f'<div class="stack" aria-label="time by bound">{bar}</div>'
        f'<div class="legend">{legend}</div>'
        + (
            '<p class="note">time by bound of the rows shown (the table elides rows)</p>'
            if profile.elided_rows
            else ""
        )
    )


def bound_legend(profile: Profile) -> str:
    """The colour legend of the bound classes present in the profile."""
    present = [
        b
        for b, us in F.time_by_bound(profile).items()
        if us > 0 or any(la.bound is b for la in profile.layers)
    ]
    items = "".join(
        f'<span><i class="b-{b.value}"></i>{escape(F.BOUND_LABEL[b])}</span>' for b in present
    )
    if any(la.target is Target.CPU for la in profile.layers):
        items += '<span><i class="cpu-key"></i>CPU layer</span>'
    return f'<div class="legend">{items}</div>'


OP_TIME_CLASSES = (
    ("npu", "NPU", "npu_time_us"),
    ("cpu", "CPU", "cpu_time_us"),
    ("gpu", "GPU", "gpu_time_us"),
    ("other", "target unknown", "unknown_time_us"),
)
"""(CSS class, label, OpTypeStat field) of the op-type bar segments, in stacking order."""


def ops_bars(view: TableView) -> str:
    """One row per op type of the op-type view: name, a stacked bar (NPU, CPU, GPU, target
    unknown) scaled to the largest, time and share (the view's share, e.g. the log's TimeRatio)."""
    ops = view.stats
    largest = max((s.total_time_us for s in ops), default=0.0) or 1.0
    rows = []
    for stat, share in zip(ops, view.shares, strict=True):
        parts = [(cls, label, getattr(stat, attr)) for cls, label, attr in OP_TIME_CLASSES]
        segments = "".join(
            f'<span class="{cls}" style="width:{us / largest * 100:.2f}%"></span>'
            for cls, _, us in parts
            if us
        )
        where = ", ".join(f"{label} {F.part_us(us)}" for _, label, us in parts if us)
        tip = f"{stat.op_type}: {stat.calls} calls" + (f", {where}" if where else "")
        rows.append(
            f'<div class="row" title="{escape(tip)}"><span class="name">{escape(stat.op_type)} '
            f'<span class="note">×{stat.calls}</span></span><span class="bar">{segments}</span>'
            f'<span class="val">{F.part_us(stat.total_time_us)} · {F.fmt_pct(share)}</span></div>'
        )
    used = {cls for cls, _, attr in OP_TIME_CLASSES if any(getattr(s, attr) for s in ops)}
    if used - {"other"}:
        used |= {"npu", "cpu"}  # NPU and CPU always, once any target is known
    legend = "".join(
        f'<span><i class="sw {cls}"></i>{label}</span>'
        for cls, label, _ in OP_TIME_CLASSES
        if cls in used
    )
    return f'<div class="ops">{"".join(rows)}</div><div class="legend">{legend}</div>'


WATERFALL_W, WATERFALL_ROW = 640.0, 24.0
_STEP_CLASS = {"npu_layers": "b-compute", "cpu_layers": "b-cpu"}


def waterfall_card(fall: Waterfall) -> str:
    """A waterfall of one inference's time (``analysis.waterfall``): one row per part, each bar
    starting where the previous one ended, so the last ends at the application's total; the
    parts outside the layers in the ``balanced`` colour. Text and hover from ``_escape.html``."""
    total = fall.total_us or 1.0
    label_w, bar_w = 230.0, WATERFALL_W - 230.0 - 80.0
    height = WATERFALL_ROW * (len(fall.steps) + 1) + 8
    parts = [
        f'<svg class="waterfall" viewBox="0 0 {_num(WATERFALL_W)} {_num(height)}" role="img" '
        f'aria-label="where an inference\'s time goes">'
    ]
    start = 0.0
    rows = [*fall.steps, None]
    for i, step in enumerate(rows):
        y = 4 + i * WATERFALL_ROW
        if step is None:
            name, value, begin, cls = "application total", fall.total_us, 0.0, "b-unknown"
            tip = f"application total {F.frame_ms(fall.total_us)} · {fall.total_basis}"
        else:
            name, value, begin = step.label, step.time_us, start
            cls = _STEP_CLASS.get(step.key, "b-balanced")
            tip = (
                f"{step.label} · {F.part_us(step.time_us)} ({F.fmt_pct(value / total)}) · "
                f"{step.basis}"
            )
            start += value
        x = label_w + begin / total * bar_w
        w = max(value / total * bar_w, 1.0)
        parts.append(
            f'<text x="{_num(label_w - 8)}" y="{_num(y + 17)}" text-anchor="end">'
            f"{escape(name)}</text>"
            f'<rect class="{cls}" x="{_num(x)}" y="{_num(y + 4)}" width="{_num(w)}" '
            f'height="{_num(WATERFALL_ROW - 8)}"><title>{escape(tip)}</title></rect>'
            f'<text x="{_num(x + w + 6)}" y="{_num(y + 17)}">{escape(F.part_us(value))}</text>'
        )
    parts.append("</svg>")
    note = "".join(f'<p class="note">{escape(n.text)}</p>' for n in fall.notes)
    head = (
        f"Where an inference's {F.frame_ms(fall.total_us)} goes: "
        f"{F.part_us(fall.outside_us)} outside the layers"
    )
    return (
        f'<div class="card"><h3>{escape(head)}</h3><div class="chart">{"".join(parts)}</div>'
        f'<p class="note">Total: {escape(fall.total_basis)}. Hover a bar for where its '
        f"number comes from.</p>{note}</div>"
    )


ROOF_W, ROOF_H = 640.0, 420.0


def roofline_svg(profile: Profile, roofs: tuple[Roof, ...], row_prefix: str) -> tuple[str, str]:
    """Achieved MACs/s (y) against MACs per byte (x) of every conv layer, log axes, under the
    compute roofs (horizontal) and bandwidth roofs (``intensity x bytes/s``, capped by the
    highest compute roof); points coloured by bound. Returns (svg, note); ``("", note)`` when no
    layer has both figures."""
    points = [la for la in profile.layers if la.arith_intensity and la.achieved_macs_per_s]
    if not points:
        return "", "no conv layer with shapes, RW and time to place on a roofline"
    compute = [r for r in roofs if r.kind == "compute"]
    bandwidth = [r for r in roofs if r.kind == "bandwidth"]
    top = max((r.value for r in compute), default=None)
    xs = [la.arith_intensity or 1.0 for la in points]
    ys = [la.achieved_macs_per_s or 1.0 for la in points]
    if top:
        ys.append(top)
        xs += [top / r.value for r in bandwidth]  # the ridge points
    x_lo, x_hi = _decades(min(xs), max(xs))
    y_lo, y_hi = _decades(min(ys), max(ys))
    x_hi, y_hi = max(x_hi, x_lo + 1), max(y_hi, y_lo + 1)
    left, right, top_pad, bottom = 58.0, 16.0, 14.0, 40.0

    def px(x: float) -> float:
        return left + (math.log10(x) - x_lo) / (x_hi - x_lo) * (ROOF_W - left - right)

    def py(y: float) -> float:
        span = ROOF_H - top_pad - bottom
        return ROOF_H - bottom - (math.log10(y) - y_lo) / (y_hi - y_lo) * span

    parts = [
        f'<svg class="roofline" viewBox="0 0 {_num(ROOF_W)} {_num(ROOF_H)}" role="img" '
        'aria-label="roofline: achieved MACs per second against MACs per byte, log axes">',
        f'<line class="axis" x1="{left}" y1="{ROOF_H - bottom}" x2="{ROOF_W - right}" '
        f'y2="{ROOF_H - bottom}"/>',
        f'<line class="axis" x1="{left}" y1="{top_pad}" x2="{left}" y2="{ROOF_H - bottom}"/>',
    ]
    # x ticks a line below the axis, y ticks centred on theirs: the corner's two never meet
    parts.extend(
        f'<text x="{_num(px(10.0**d))}" y="{_num(ROOF_H - bottom + 19)}" '
        f'text-anchor="middle">1e{d}</text>'
        for d in range(x_lo, x_hi + 1)
    )
    parts.extend(
        f'<text x="{_num(left - 6)}" y="{_num(py(10.0**d) + 3.5)}" text-anchor="end">1e{d}</text>'
        for d in range(y_lo, y_hi + 1)
    )
    parts.append(
        f'<text x="{_num((left + ROOF_W) / 2)}" y="{_num(ROOF_H - 6)}" '
        'text-anchor="middle">MACs per byte of RW →</text>'
    )
    mid = _num(ROOF_H / 2)
    parts.append(
        f'<text x="12" y="{mid}" transform="rotate(-90 12 {mid})" '
        'text-anchor="middle">achieved MACs/s →</text>'
    )
    x_min, x_max = 10.0**x_lo, 10.0**x_hi
    # the roofs are named in a legend under the chart, not on it: labels drawn beside the lines
    # met each other and the points wherever the roofs ran close (RK3588's three DDR roofs)
    legend: list[str] = []
    for roof in compute:
        y = py(roof.value)
        parts.append(
            f'<line class="roof compute-roof" x1="{left}" y1="{_num(y)}" '
            f'x2="{_num(ROOF_W - right)}" y2="{_num(y)}"><title>{escape(roof.label)} = '
            f"{roof.value:.3g} MACs/s</title></line>"
        )
        legend.append(_roof_key("roof compute-roof", roof.label))
    for i, roof in enumerate(bandwidth):
        # y = x * bytes/s, from the left edge to where it meets the compute roof (or the edge)
        x_end = min(top / roof.value, x_max) if top else x_max
        x0 = max(x_min, 10.0**y_lo / roof.value)
        if x0 >= x_end:
            continue
        parts.append(
            f'<line class="roof bw-roof bw{i}" x1="{_num(px(x0))}" '
            f'y1="{_num(py(x0 * roof.value))}" x2="{_num(px(x_end))}" '
            f'y2="{_num(py(x_end * roof.value))}"><title>'
            f"{escape(roof.label)}</title></line>"
        )
        legend.append(_roof_key(f"roof bw-roof bw{i}", roof.label))
    for layer in points:
        tip = (
            f"{layer_tip(layer, profile)} · {layer.arith_intensity:.3g} MACs/byte · "
            f"{layer.achieved_macs_per_s:.3g} MACs/s"
        )
        parts.append(
            f'<circle class="pt b-{layer.bound.value}" '
            f'cx="{_num(px(layer.arith_intensity or 1))}" '
            f'cy="{_num(py(layer.achieved_macs_per_s or 1))}" r="3.5" '
            f'data-row="{row_prefix}{layer.id}"><title>{escape(tip)}</title></circle>'
        )
    parts.append("</svg>")
    chart = f'<div class="chart">{"".join(parts)}</div>'
    if legend:
        chart += f'<div class="legend roof-legend">{"".join(legend)}</div>'
    skipped = sum(1 for la in profile.layers if la.target is Target.NPU) - len(points)
    note = (
        f"{len(points)} conv layers; {skipped} other NPU layers have no MAC count from their shapes"
        if skipped
        else f"{len(points)} conv layers"
    )
    if not compute:
        note += "; compute roof unknown (platform or its MACs/cycle not known)"
    return chart, note


def _roof_key(line_class: str, label: str) -> str:
    """One legend entry: a short stretch of the roof's line (its colour and dashes), its name."""
    return (
        f'<span><svg class="key" viewBox="0 0 28 10" aria-hidden="true"><line class="{line_class}"'
        f' x1="0" y1="5" x2="28" y2="5"/></svg>{escape(label)}</span>'
    )
