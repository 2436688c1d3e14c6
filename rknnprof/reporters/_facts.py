"""Presentation facts shared by the human-facing reporters (table, markdown, html).

Nothing here analyses a profile: it only reads what parsers, analysis and rules stored on the
model and phrases it (titles, shortened names, shape text, time by bound). Sums of already
classified times are the only arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rknnprof.model import Bound, Layer, OpTypeStat, Profile, Report, ReportWarning, Shape, Target

if TYPE_CHECKING:
    pass

BOUND_ORDER: tuple[Bound, ...] = (
    Bound.BANDWIDTH,
    Bound.COMPUTE,
    Bound.BALANCED,
    Bound.CPU,
    Bound.UNKNOWN,
)
"""The order bounds are listed in everywhere (summary line, legends, charts)."""

BOUND_LABEL: dict[Bound, str] = {
    Bound.BANDWIDTH: "bandwidth",
    Bound.COMPUTE: "compute",
    Bound.BALANCED: "balanced",
    Bound.CPU: "CPU",
    Bound.UNKNOWN: "unknown",
}


def profile_title(profile: Profile) -> str:
    """``model (path:first-last)`` or just the path with its line span."""
    span = ""
    if profile.source.first_line is not None:
        span = f":{profile.source.first_line}"
        if (
            profile.source.last_line is not None
            and profile.source.last_line != profile.source.first_line
        ):
            span += f"-{profile.source.last_line}"
    where = f"{profile.source.path}{span}"
    return f"{profile.model_name} ({where})" if profile.model_name else where


def fmt_us(value: float | None) -> str:
    """Microseconds as text: ``1,888 us``, ``12.35 ms`` from 10 ms on, ``-`` when unknown."""
    if value is None:
        return "-"
    if abs(value) >= 10_000:
        return f"{value / 1000:,.2f} ms"
    return f"{value:,.0f} us"


def fmt_num(value: float | None) -> str:
    """A number without a unit: integers without decimals, ``-`` when unknown."""
    if value is None:
        return "-"
    if value == int(value):
        return f"{int(value)}"
    return f"{value:.2f}"


def fmt_pct(share: float | None) -> str:
    """A fraction 0..1 as ``27.1%``."""
    return "-" if share is None else f"{share * 100:.1f}%"


def shape_text(shapes: Sequence[Shape] | None, truncated: bool = False, sep: str = ";") -> str:
    """``1x3x640x640;16x3x3x3`` (``;…`` appended when the log cut the list); empty when None."""
    if shapes is None:
        return ""
    text = sep.join("x".join(str(d) for d in shape) for shape in shapes)
    return text + (f"{sep}..." if truncated else "")


def shorten(text: str | None, width: int) -> str:
    """Cut ``text`` to ``width`` characters with ``…`` in the middle (the start names the op, the
    end names the node, both matter)."""
    text = text or ""
    if len(text) <= width:
        return text
    if width < 1:
        return ""
    op_prefix, colon, node = text.partition(":")
    if colon and node and " " not in op_prefix:
        # ``Conv:/model.2/cv2/conv/Conv``: the ONNX op type repeats the op column; drop it first
        text = node
        if len(text) <= width:
            return text
    head = (width - 1) * 3 // 5
    tail = width - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def layer_share(layer: Layer, profile: Profile) -> float | None:
    """``time_share`` from analysis, or time / profile total when analysis did not fill it."""
    if layer.time_share is not None:
        return layer.time_share
    total = profile.total_time_us
    if layer.time_us is None or not total:
        return None
    return layer.time_us / total


def top_layers(profile: Profile, n: int) -> list[Layer]:
    """The ``n`` slowest layers, slowest first (ties by ID)."""
    timed = [la for la in profile.layers if la.time_us is not None]
    return sorted(timed, key=lambda la: (-(la.time_us or 0.0), la.id))[: max(n, 0)]


def time_by_bound(profile: Profile) -> dict[Bound, float]:
    """Microseconds of layer time per bound class, in :data:`BOUND_ORDER`, zeros kept."""
    totals = dict.fromkeys(BOUND_ORDER, 0.0)
    for layer in profile.layers:
        totals[layer.bound] = totals.get(layer.bound, 0.0) + (layer.time_us or 0.0)
    return totals


def time_by_target(profile: Profile) -> dict[Target, float]:
    """Microseconds per target for targets that have any layer."""
    totals: dict[Target, float] = {}
    for layer in profile.layers:
        totals[layer.target] = totals.get(layer.target, 0.0) + (layer.time_us or 0.0)
    return totals


def op_table(profile: Profile) -> tuple[tuple[OpTypeStat, ...], str]:
    """Op-type rows to show and where they come from (``layers`` or ``log ranking``)."""
    if profile.op_stats:
        return profile.op_stats, "aggregated from the layers"
    if profile.ranking:
        return profile.ranking, "the log's ranking table"
    return (), ""


def versions_text(profile: Profile) -> str:
    """``runtime 2.3.2 · driver 0.9.8`` from the versions the log names, or ``""``."""
    v = profile.versions
    parts = [
        f"{label} {value}"
        for label, value in (
            ("runtime", v.runtime),
            ("driver", v.driver),
            ("toolkit", v.toolkit),
            ("api", v.api),
            ("model format", v.model),
        )
        if value
    ]
    return " · ".join(parts)


def kind_note(profile: Profile) -> str:
    """One sentence when the profile is not a measured per-layer table, else ``""``."""
    if not profile.measured:
        return "ESTIMATE: build-time table, not measured on a board"
    if profile.layers:
        return ""
    if profile.benchmark is not None:
        return "benchmark run only: no per-layer table in the log"
    if profile.ranking:
        return "op-type ranking only: no per-layer table in the log"
    return "totals only (perf_debug=False?): no per-layer table in the log"


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile ``q`` (0..100) of ``values``; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def warnings_for(report: Report, profile: Profile) -> list[ReportWarning]:
    """The report's warnings whose path is this profile's source."""
    return [w for w in report.warnings if w.path == profile.source.path]


def summary_parts(profile: Profile) -> list[str]:
    """The one-second summary: platform, frames, total, NPU/CPU split, bound shares."""
    parts = [profile.platform.upper() if profile.platform else "platform unknown"]
    if profile.frames > 1:
        parts.append(f"{profile.frames} frames" + (" (layer medians)" if profile.layers else ""))
    total = profile.total_time_us
    label = "est. total" if not profile.measured else "total"
    if total is not None:
        reported = profile.reported_total_time_us
        log_total = ""
        if profile.layers and reported is not None and fmt_us(reported) != fmt_us(total):
            log_total = f" (log {fmt_us(reported)})"
        parts.append(f"{label} {fmt_us(total)}{log_total}")
    elif profile.benchmark is not None and profile.benchmark.avg_time_ms is not None:
        parts.append(f"avg {fmt_us(profile.benchmark.avg_time_ms * 1000)} per run")
    if profile.layers and total:
        by_target = time_by_target(profile)
        split = [
            f"{target.value} {fmt_pct(by_target[target] / total)}"
            for target in (Target.NPU, Target.CPU, Target.GPU, Target.UNKNOWN)
            if by_target.get(target)
        ]
        if split:
            parts.append(" / ".join(split))
    return parts


def bound_parts(profile: Profile) -> list[str]:
    """``bandwidth-bound 27%`` … for bounds with any time, in :data:`BOUND_ORDER`."""
    total = profile.total_time_us
    if not profile.layers or not total:
        return []
    return [
        f"{BOUND_LABEL[bound]} {fmt_pct(us / total)}"
        for bound, us in time_by_bound(profile).items()
        if us > 0
    ]


def finding_layers_text(ids: Iterable[int], limit: int = 8) -> str:
    """``layers 4, 6`` (cut after ``limit`` with ``+N more``)."""
    ids = list(ids)
    if not ids:
        return ""
    shown = ", ".join(str(i) for i in ids[:limit])
    more = f" +{len(ids) - limit} more" if len(ids) > limit else ""
    return f"layer{'s' if len(ids) > 1 else ''} {shown}{more}"
