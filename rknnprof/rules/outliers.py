"""Single-frame outliers: layer times that one frame alone shows, and the time the log supports
for them instead.

RKN050 reports them as a measurement caveat (re-measure); every rule that prices a change from a
layer's time counts an outlier at its *supported* time (:func:`priced`), so a one-off stall is
never sold as a saving, and says so in its message (:func:`note`); RKN073 shows its share at
those times. Two kinds, both only in a measured single-frame table:

* a **slow sibling**: a layer at least 2x (and 100 us above) the fastest layer with the same op
  type, shapes, data type and cycles; its supported time is that sibling's measured time, and
  its bound the sibling's (the same cycles and bytes at the sibling's time classify alike: a
  Concat that moves its bytes at the DDR's rate once it runs at its twin's time gains nothing
  from more cores);
* a **slow pace**: an NPU layer whose time per max(DDR, NPU) cycle is at least
  :data:`SLOW_PACE` x the table's median (and 1% of the frame above it); its supported time is
  its cycles at the median pace.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rknnprof.analysis import stats
from rknnprof.model import Layer, Profile, Target
from rknnprof.model.record import Record, record, replace
from rknnprof.rules._util import total_us, us

SLOW_PACE = 4.0
"""A layer whose time per cycle is at least this many times the table's median is a
re-measure case (time per cycle is 0.9-4.5 ns as a median on the corpus, no corpus layer
reaches 6x it and 1% of the frame above it)."""
MIN_PACED = 8
"""Layers with cycles the median needs before any layer is judged against it."""
STALLED = "stalled"
"""``Outlier.because`` of a stalled layer (RKN051): priced at 0 us."""


@record
class Outlier(Record):
    """One layer whose single-frame time the log does not support."""

    layer: Layer
    supported_us: float
    """The time the log supports for it, microseconds: its sibling's, or its cycles at the
    table's median pace."""
    because: str
    """``#38's`` (the sibling whose time stands in), ``the median pace's`` or :data:`STALLED`."""
    twin: Layer | None = None
    """The same-shape sibling whose time (and bound) stands in; None for the median pace."""


def _single_frame(profile: Profile) -> bool:
    return profile.frames == 1 and profile.measured and bool(total_us(profile))


def siblings(profile: Profile) -> list[tuple[Layer, Layer]]:
    """(slow, fast) layers with the same op type, shapes, data type and cycles whose times
    differ at least 2x (and 100 us) in a single-frame table, slowest gap first."""
    if not _single_frame(profile):
        return []
    groups: dict[tuple[object, ...], list[Layer]] = {}
    for layer in profile.layers:
        if (
            layer.time_us
            and not layer.is_io
            and layer.target is not Target.CPU
            and layer.input_shapes
            and layer.output_shapes
        ):
            key = (
                layer.op_type,
                layer.input_shapes,
                layer.output_shapes,
                layer.data_type,
                layer.ddr_cycles,
                layer.npu_cycles,
            )
            groups.setdefault(key, []).append(layer)
    pairs = []
    for group in groups.values():
        fast = min(group, key=lambda la: la.time_us or 0.0)
        t_fast = fast.time_us or 0.0
        pairs += [
            (slow, fast)
            for slow in group
            if (t_slow := slow.time_us or 0.0) >= 2.0 * t_fast and t_slow - t_fast >= 100.0
        ]  # (every layer of the group that far above the fastest, not the slowest alone)
    return sorted(pairs, key=lambda p: -((p[0].time_us or 0.0) - (p[1].time_us or 0.0)))


def slow_for_cycles(profile: Profile) -> list[tuple[Layer, float]]:
    """(layer, times the median pace) for NPU layers (50 us or more, with NPU cycles) whose
    time per max(DDR, NPU) cycle is at least :data:`SLOW_PACE` x the table's median and whose
    time above the median pace is at least 1% of the frame, in a single-frame table. An unseen
    RK3588 yolov8n table: #4 ConvExSwish 12,009 us for 698,639 cycles, 8.2x the median pace of
    its 66 convs."""
    if not _single_frame(profile):
        return []
    total = total_us(profile)
    paced = [
        (layer, (layer.time_us or 0.0) / max(layer.ddr_cycles or 0, layer.npu_cycles or 0))
        for layer in profile.layers
        if layer.target is Target.NPU and layer.npu_cycles and (layer.time_us or 0) >= 50
    ]
    if len(paced) < MIN_PACED:
        return []
    median = stats.median(pace for _, pace in paced)
    return sorted(
        (
            (layer, pace / median)
            for layer, pace in paced
            if pace >= SLOW_PACE * median
            and (layer.time_us or 0.0) - median * (layer.time_us or 0.0) / pace >= 0.01 * total
        ),
        key=lambda item: -(item[0].time_us or 0.0),
    )


def outliers(profile: Profile) -> dict[int, Outlier]:
    """Every layer whose time a saving may not be priced at, by ``Layer.id``, with the time
    the log supports for it: RKN050's single-frame outliers (a sibling's measured time wins
    over the median pace) and the verdict's stalled layers (``Validity.stalled_layer_ids``,
    RKN051: 0 us, their time is a wait)."""
    found = {
        layer.id: Outlier(layer, (layer.time_us or 0.0) / ratio, "the median pace's")
        for layer, ratio in slow_for_cycles(profile)
    }
    for slow, fast in siblings(profile):
        found[slow.id] = Outlier(slow, fast.time_us or 0.0, f"#{fast.id}'s", fast)
    stalled = set(profile.validity.stalled_layer_ids) if profile.validity else set()
    for layer in profile.layers:
        if layer.id in stalled:
            found[layer.id] = Outlier(layer, 0.0, STALLED)
    return found


def at_supported(layer: Layer, flagged: Mapping[int, Outlier]) -> Layer:
    """``layer`` at the supported time when it is a flagged outlier (its share of the frame
    follows the time; a slow sibling takes its twin's bound too); else ``layer`` itself."""
    found = flagged.get(layer.id)
    if found is None:
        return layer
    twin = found.twin or layer
    return replace(
        layer,
        time_us=found.supported_us,
        time_share=None,
        bound=twin.bound,
        bound_basis=twin.bound_basis,
    )


def supported(layers: Iterable[Layer], flagged: Mapping[int, Outlier]) -> list[Layer]:
    """``layers`` with each flagged outlier's time replaced by its supported time: what a
    saving may be computed from."""
    return [at_supported(la, flagged) for la in layers]


def priced(profile: Profile, layers: Iterable[Layer]) -> tuple[list[Layer], str]:
    """What a saving is priced from: ``layers`` with each single-frame outlier of ``profile``
    at its supported time (:func:`supported`), and the note naming those outliers for the
    finding's message (:func:`note`; empty when none is among them). The one call every rule
    that prices a change from layer times makes; its selection and the times it prints stay
    the log's (a stalled layer is priced at 0 us)."""
    flagged = outliers(profile)
    chosen = list(layers)
    return supported(chosen, flagged), note(chosen, flagged)


def note(layers: Iterable[Layer], flagged: Mapping[int, Outlier]) -> str:
    """``; single-frame outlier(s) counted at the time the log supports: #26 at 3,526 us (#38's),
    not its one-frame 8,445 us (re-measure, RKN050)`` for the flagged layers among ``layers``,
    the largest gap first, then ``; stalled layer(s) #3 not priced (RKN051)``; empty when none
    is among them."""
    chosen = [flagged[la.id] for la in layers if la.id in flagged]
    stalled = [o for o in chosen if o.because == STALLED]
    hit = sorted(
        (o for o in chosen if o.because != STALLED),
        key=lambda o: o.supported_us - (o.layer.time_us or 0.0),
    )
    text = ""
    if hit:
        shown = ", ".join(
            f"#{o.layer.id} at {us(o.supported_us)} ({o.because}), not its one-frame "
            f"{us(o.layer.time_us or 0.0)}"
            for o in hit[:3]
        )
        more = f", +{len(hit) - 3} more" if len(hit) > 3 else ""
        text = (
            f"; single-frame outlier(s) counted at the time the log supports: {shown}{more} "
            "(re-measure, RKN050)"
        )
    if stalled:
        ids = ", ".join(f"#{o.layer.id}" for o in stalled)
        text += f"; stalled layer(s) {ids} not priced (RKN051)"
    return text
