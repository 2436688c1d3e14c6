"""Small helpers the rule modules share: time shares, severity grading, layer labels, shapes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rknnprof.analysis.figures import frame_total_us, share_basis, time_share
from rknnprof.model import Layer, Profile, Severity, Shape
from rknnprof.rules.base import RuleContext
from rknnprof.units import frame_ms, part_us, percent

if TYPE_CHECKING:
    from rknnprof.platforms import ChannelAlignment

ERROR_SHARE = 0.10
"""A finding whose time at stake is at least 10% of the frame is an ``error``."""
WARNING_SHARE = 0.02
"""At least 2% of the frame: ``warning``; below: ``info``."""


def claim(profile: Profile, clause: str) -> str:
    """``clause`` -- what a change would save or cost (``; INT8 could save up to 938 us``) --
    when the log can support a price; else ``""``: a run that is not a measurement prices
    nothing (``Profile.validity``, RKN051), so its findings say what the log shows, not what a
    change would save."""
    validity = profile.validity
    return clause if validity is None or validity.is_measurement else ""


def opt(context: RuleContext, code: str, key: str, default: Any) -> Any:
    """Threshold ``key`` of rule ``code`` (``context.options["RKN010.min_share"]``), or
    ``default``."""
    return context.options.get(f"{code}.{key}", default)


def total_us(profile: Profile) -> float:
    """The frame time, microseconds (``analysis.figures.frame_total_us``); 0 when unknown."""
    return float(frame_total_us(profile) or 0.0)


def share(layer: Layer, profile: Profile) -> float:
    """The layer's share of the frame, fraction 0..1 (``analysis.figures.time_share``); 0 when
    unknown."""
    return time_share(layer, profile) or 0.0


def grade(
    at_stake_us: float,
    total: float,
    cap: Severity = Severity.ERROR,
    unknown: Severity = Severity.WARNING,
) -> Severity:
    """Severity from the share of the frame at stake: >= 10% error, >= 2% warning, else info;
    never above ``cap``; ``unknown`` when the frame time is not known."""
    if not total:
        level = unknown
    elif at_stake_us / total >= ERROR_SHARE:
        level = Severity.ERROR
    elif at_stake_us / total >= WARNING_SHARE:
        level = Severity.WARNING
    else:
        level = Severity.INFO
    return level if level.rank <= cap.rank else cap


def time_of(layers: Iterable[Layer]) -> float:
    """Sum of the layers' times, microseconds."""
    return float(sum(la.time_us or 0.0 for la in layers))


def pct(fraction: float) -> str:
    """``0.1234`` -> ``12.3%`` (:func:`rknnprof.units.percent`)."""
    return percent(fraction)


def of_frame(fraction: float, profile: Profile) -> str:
    """``12.3% of the frame``, or ``12.3% of the rows shown`` when the profile's frame time is
    only the sum of the rows a fragment shows (``analysis.figures.share_basis``)."""
    return f"{pct(fraction)} {share_basis(profile)}"


def us(value: float) -> str:
    """A part of the frame (a layer, a group, a saving): ``12345.6`` -> ``12,346 us``
    (:func:`rknnprof.units.part_us`)."""
    return part_us(value)


def ms(value_us: float) -> str:
    """A frame-level time: ``28021.4`` -> ``28.02 ms`` (:func:`rknnprof.units.frame_ms`)."""
    return frame_ms(value_us)


def label(layer: Layer) -> str:
    """``#9 Concat (Concat:/model.2/Concat)``: id, op type and FullName when the log has one."""
    name = (layer.full_name or "").strip()
    return f"#{layer.id} {layer.op_type}" + (f" ({name})" if name else "")


def first_few(items: Sequence[str], limit: int = 3) -> str:
    """The first ``limit`` items, then ``+N more``: a list cut short says so."""
    shown = list(items[:limit])
    if len(items) > limit:
        shown.append(f"+{len(items) - limit} more")
    return ", ".join(shown)


def labels(layers: Sequence[Layer], limit: int = 3, times: bool = True) -> str:
    """The ``limit`` slowest layers as labels with their times, then ``+N more``."""
    ranked = sorted(layers, key=lambda la: -(la.time_us or 0.0))
    parts = [
        label(la) + (f" {us(la.time_us)}" if times and la.time_us is not None else "")
        for la in ranked[:limit]
    ]
    if len(ranked) > limit:
        parts.append(f"+{len(ranked) - limit} more")
    return ", ".join(parts)


def out_shape(layer: Layer) -> Shape | None:
    return layer.output_shapes[0] if layer.output_shapes else None


def in_shape(layer: Layer) -> Shape | None:
    return layer.input_shapes[0] if layer.input_shapes else None


def alignment(layer: Layer, context: RuleContext) -> ChannelAlignment | None:
    """The platform's channel-alignment row for the layer's DataType; None without a platform."""
    platform = context.platform
    return platform.alignment(layer.data_type) if platform is not None else None


def padded(channels: int, multiple: int) -> int:
    """``channels`` rounded up to a multiple of ``multiple``: what the NPU lays out and computes."""
    return -(-channels // multiple) * multiple


def misaligned(channels: int, multiple: int | None) -> bool:
    """True when ``channels`` is not a multiple of ``multiple`` (False when that is unknown)."""
    return bool(multiple and channels % multiple != 0)


def feeds(producer: Layer, consumer: Layer) -> bool:
    """True when ``consumer`` takes a tensor shaped like ``producer``'s (first) output.

    The tables print no graph edges; the runtime prints layers in execution order, so a shape
    match between neighbours is the best evidence of an edge the logs give.
    """
    produced = out_shape(producer)
    inputs = consumer.input_shapes
    return produced is not None and inputs is not None and produced in inputs


def following(layers: Sequence[Layer], index: int, window: int) -> Sequence[Layer]:
    """Up to ``window`` layers after ``layers[index]`` (table order)."""
    return layers[index + 1 : index + 1 + window]


def single_core_slot(layer: Layer) -> bool:
    """WorkLoad ``100%/0%/0%``: all the layer's work on core 0 (False without a WorkLoad)."""
    load = layer.workload_pct
    return bool(load and load[0] > 0 and not any(slot > 0 for slot in load[1:]))


def cores_of(profile: Profile) -> frozenset[int]:
    """The NPU cores (0-based WorkLoad slots) any layer of ``profile`` put work on."""
    return frozenset(
        i
        for la in profile.layers
        if la.workload_pct
        for i, s in enumerate(la.workload_pct)
        if s > 0
    )


def multi_core_run(profile: Profile) -> bool:
    """True when some NPU layer's WorkLoad puts work on a second core (a multi-core mask)."""
    return any(la.workload_pct and any(s > 0 for s in la.workload_pct[1:]) for la in profile.layers)


def npu_cores(context: RuleContext, profile: Profile) -> int | None:
    """NPU cores of the profile's SoC; without a platform, the WorkLoad column's slot count
    (3 slots are printed by RK3588 runtimes, User Guide §3.2.3); None when unknown."""
    if context.platform is not None:
        return context.platform.npu_cores
    slots = {len(la.workload_pct) for la in profile.layers if la.workload_pct}
    return max(slots) if slots else None
