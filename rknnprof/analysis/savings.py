"""The savings model every rule uses: evidence in the log -> per-frame latency saved, per layer.

A finding names ONE achievable change. Its ``est_saving_us`` is the per-frame latency that change
saves, and it is the sum of ``saving_by_layer``; no layer's saving exceeds the layer's time.
Throughput (one context per core, idle cores, batching) is never a latency saving: it goes to
``Finding.throughput_gain``.

A rule builds its saving with one helper below, chosen by the evidence it has. Each returns a
:class:`Saving` (the per-layer microseconds, one ``basis`` line naming the evidence, and a
``confidence``); ``Finding(..., **saving.fields())`` fills the four finding fields at once.

* :func:`from_cycles` -- cycles the change removes. Cycles explain only part of a layer's time:
  ``max(DDR, NPU) / (time x NPU clock)`` is 0.26-0.86 time-weighted on the corpus (01 0.46,
  08 0.86), never assume 1. The saving is ``time x min(1, explained) x removed / cycles``,
  computed PER LAYER (``explained`` from that layer's own cycles and time): the cycles removed,
  at the clock, capped by the layer's time. Confidence ``high`` with the log's own NPU clock,
  ``medium`` with the platform's datasheet clock.
* :func:`from_pairs` -- an in-log pair: the same shapes and cycles under another op type
  (corpus 01: #12 ConvExSwish 2306 us against #70 Conv 928 us). Saving = layer time - peer time.
  ``high``. :func:`find_peer` finds the peer.
* :func:`from_speedup` -- a measured speed-up ``s`` per layer: ``time x (1 - 1/s)``. The
  multi-core speed-ups measured in the corpus (01 single-core against 03 three-core, same
  yolov8n rows) are :data:`MULTI_CORE_SPEEDUP`: Add 1.65x, Concat 1.56x, ConvExSwish 1.0x.
* :func:`from_fraction` -- a documented bound (the guide, the model zoo): a fixed fraction of
  each layer's time, e.g. half the FP16 time for INT8 (user guide V2.3.0 §8.3). ``medium`` by
  default.
* :func:`from_removal` -- the change removes the layers outright (a Pad folded into the Conv,
  a Split replaced by two convs): their measured time. ``high`` unless the caller says less.
* :func:`from_rate` -- bytes moved at a rate achieved in this log (:func:`achieved_rate_gbs`),
  e.g. a CPU op moved to the NPU: ``time - bytes / rate``.

Combination across findings (:func:`combined_saving_us`, the profile's "at stake" figure):
remaining time multiplies, ``t x prod(1 - s_i / t)`` per layer, so no layer is claimed twice and
the total never exceeds the time of the layers touched; findings without layers (time outside
the table) add once; the whole is capped by the frame. It is an upper bound: it assumes every
finding's change is made and that they do not interfere.

The noise floor (:func:`noise_floor_us`): a finding saving less than 0.5 % of the frame or less
than 100 us is ``info`` and sinks in the ranking.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypedDict

from rknnprof.analysis.mac import used_cores
from rknnprof.model import BoundBasis, Confidence, Finding, Layer
from rknnprof.model.record import Record, record, replace
from rknnprof.units import part_us

MULTI_CORE_SPEEDUP: Mapping[str, float] = {"Add": 1.65, "Concat": 1.56, "ConvExSwish": 1.0}
"""Latency speed-up of one layer under ``RKNN_NPU_CORE_0_1_2`` against one core, measured in
the corpus: 01 (single core) against 03 (three cores), same yolov8n 1920 rows: Add #8 945 ->
573 us, Concat #9 2002 -> 1283 us, ConvExSwish #7 3921 -> 3973 us (it stays on core 0)."""
MULTI_CORE_BASIS = (
    "measured on a public RK3588 yolov8n profile, 1 core against 3 cores, "
    "same rows: "
    "Add 1.65x, Concat 1.56x, ConvExSwish 1.0x"
)
NOISE_SHARE = 0.005
"""A finding saving less than this share of the frame is noise (``info``)."""
NOISE_US = 100.0
"""A finding saving less than this many microseconds is noise (``info``)."""


class SavingFields(TypedDict):
    """The four :class:`Finding` fields a :class:`Saving` fills."""

    est_saving_us: float
    saving_by_layer: tuple[tuple[int, float], ...]
    basis: str
    confidence: Confidence


@record
class Saving(Record):
    """A per-frame latency saving and the evidence it rests on."""

    by_layer: tuple[tuple[int, float], ...] = ()
    """(``Layer.id``, microseconds) pairs, each in (0, layer time]; zero entries are dropped."""
    basis: str = ""
    """One line naming the evidence (cycles and the share they explain, a pair, a speed-up)."""
    confidence: Confidence = Confidence.LOW
    """``high`` measured in this log, ``medium`` the guide or a measured peer, ``low`` assumed."""

    @property
    def total_us(self) -> float:
        """The saving per frame, microseconds: the sum of ``by_layer``."""
        return float(sum(us for _, us in self.by_layer))

    def fields(self) -> SavingFields:
        """The Finding fields this saving fills: ``Finding(..., **saving.fields())``."""
        return SavingFields(
            est_saving_us=self.total_us,
            saving_by_layer=self.by_layer,
            basis=self.basis,
            confidence=self.confidence,
        )


NONE = Saving(basis="no saving the log can bound", confidence=Confidence.LOW)
"""The saving of a finding that names a change the log cannot price (a caveat, a throughput
gain): 0 us."""


def saving_of(pairs: Iterable[tuple[Layer, float]], basis: str, confidence: Confidence) -> Saving:
    """A :class:`Saving` from (layer, microseconds) pairs: each clamped to [0, layer time],
    repeated layers summed (then clamped), zero entries dropped, table order kept."""
    by_id: dict[int, float] = {}
    times: dict[int, float] = {}
    for layer, value in pairs:
        times[layer.id] = layer.time_us or 0.0
        by_id[layer.id] = by_id.get(layer.id, 0.0) + max(0.0, value)
    rows = tuple((i, min(v, times[i])) for i, v in by_id.items() if min(v, times[i]) > 0)
    return Saving(rows, basis, confidence)


def from_removal(
    layers: Iterable[Layer], basis: str, confidence: Confidence = Confidence.HIGH
) -> Saving:
    """The change removes these layers: each saves its measured time."""
    return saving_of(((la, la.time_us or 0.0) for la in layers), basis, confidence)


def from_fraction(
    layers: Iterable[Layer], fraction: float, basis: str, confidence: Confidence = Confidence.MEDIUM
) -> Saving:
    """A documented bound: each layer saves ``fraction`` (0..1) of its time."""
    share = min(1.0, max(0.0, fraction))
    return saving_of(((la, (la.time_us or 0.0) * share) for la in layers), basis, confidence)


def from_speedup(
    layers: Iterable[Layer],
    speedup: float | Mapping[str, float],
    basis: str,
    confidence: Confidence = Confidence.MEDIUM,
) -> Saving:
    """A measured speed-up ``s`` (one number, or per op type; op types not in the mapping save
    nothing): each layer saves ``time x (1 - 1/s)``; ``s <= 1`` saves nothing."""

    def factor(layer: Layer) -> float:
        s = speedup.get(layer.op_type, 1.0) if isinstance(speedup, Mapping) else speedup
        return 1.0 - 1.0 / s if s > 1.0 else 0.0

    return saving_of(((la, (la.time_us or 0.0) * factor(la)) for la in layers), basis, confidence)


def cycles_explained(layer: Layer, clock_mhz: float | None) -> float | None:
    """``max(DDR, NPU) / (time x clock)``: the share of the layer's time its cycles explain
    (above 1 when the cycles overstate the time); ``None`` without cycles, time or clock."""
    cycles = max(layer.ddr_cycles or 0, layer.npu_cycles or 0)
    if not cycles or not layer.time_us or not clock_mhz:
        return None
    return cycles / (layer.time_us * clock_mhz)


def explained_share(layers: Iterable[Layer], clock_mhz: float | None) -> float | None:
    """The time-weighted :func:`cycles_explained` of the layers with cycles (a profile-level
    figure for messages); ``None`` when none has cycles."""
    cycles = time = 0.0
    for layer in layers:
        if cycles_explained(layer, clock_mhz) is not None:
            cycles += max(layer.ddr_cycles or 0, layer.npu_cycles or 0)
            time += layer.time_us or 0.0
    return cycles / (time * clock_mhz) if time and clock_mhz else None


def from_cycles(
    changes: Iterable[tuple[Layer, float]],
    clock_mhz: float | None,
    basis: str,
    clock_from_log: bool = False,
) -> Saving:
    """Cycles a change removes, per layer: ``changes`` are (layer, total cycles after the change,
    i.e. the new max(DDR, NPU)). Each layer saves ``time x min(1, explained) x (old - new) /
    old`` (module doc); layers without cycles save nothing. ``basis`` names the change; the
    share the cycles explain is appended."""
    pairs: list[tuple[Layer, float]] = []
    shares: list[float] = []
    for layer, after in changes:
        explained = cycles_explained(layer, clock_mhz)
        old = max(layer.ddr_cycles or 0, layer.npu_cycles or 0)
        if explained is None or not old:
            continue
        shares.append(explained)
        removed = max(0.0, old - max(0.0, after)) / old
        pairs.append((layer, (layer.time_us or 0.0) * min(1.0, explained) * removed))
    if shares:
        low, high = min(shares), max(shares)
        span = f"{low:.0%}" if abs(high - low) < 0.005 else f"{low:.0%}-{high:.0%}"
        basis += (
            f"; cycles at {clock_mhz:g} MHz explain {span} of the layer time (per layer),"
            " only that part is claimed"
        )
    confidence = Confidence.HIGH if clock_from_log else Confidence.MEDIUM
    return saving_of(pairs, basis, confidence)


def _shapes(layer: Layer) -> tuple[object, ...]:
    return (layer.input_shapes, layer.output_shapes, layer.data_type)


def find_peer(
    layer: Layer,
    candidates: Iterable[Layer],
    op_types: Iterable[str] | None = None,
    same_cycles: bool = True,
) -> Layer | None:
    """A layer of another op type (in ``op_types`` when given) with the same input and output
    shapes and data type, spread over as many NPU cores (WorkLoad) -- and the same DDR/NPU
    cycles when ``same_cycles`` -- the fastest when several; ``None`` when the log holds none.
    A peer split over 3 cores against a layer on core 0 alone measures the split, not the op
    type (RK3588 yolov8n under RKNN_NPU_CORE_0_1_2: ConvExSwish 100/0/0 1407 us against a
    same-shape, same-cycle Conv 33/33/33 397 us)."""
    wanted = set(op_types) if op_types is not None else None
    peers = [
        c
        for c in candidates
        if c.id != layer.id
        and c.op_type != layer.op_type
        and c.time_us
        and (wanted is None or c.op_type in wanted)
        and _shapes(c) == _shapes(layer)
        and used_cores(c) == used_cores(layer)
        and (
            not same_cycles or (c.ddr_cycles, c.npu_cycles) == (layer.ddr_cycles, layer.npu_cycles)
        )
    ]
    return min(peers, key=lambda c: c.time_us or 0.0) if peers else None


def from_pairs(
    pairs: Iterable[tuple[Layer, Layer]],
    basis: str | None = None,
    confidence: Confidence = Confidence.HIGH,
) -> Saving:
    """In-log pairs (layer, peer with the same shapes and cycles under the op type the change
    gives): each layer saves ``its time - the peer's time`` (0 when the peer is slower).
    The default basis names the first pair."""
    pairs = list(pairs)
    if basis is None and pairs:
        la, peer = pairs[0]
        basis = (
            f"in-log pair: #{la.id} {la.op_type} {part_us(la.time_us)} against #{peer.id} "
            f"{peer.op_type} {part_us(peer.time_us)} with the same shapes and cycles"
        )
    return saving_of(
        ((la, (la.time_us or 0.0) - (peer.time_us or 0.0)) for la, peer in pairs),
        basis or "",
        confidence,
    )


def achieved_rate_gbs(layers: Iterable[Layer]) -> float | None:
    """Bytes per second the layers achieved in the log, GB/s: sum(RW(KB) x 1024) / sum(time);
    ``None`` when no layer has both. Views are left out (a reshape moving nothing of its own:
    RW but ~0 time, or the classification's ``view``, faster than the DDR's peak): one 1 us
    view beside a 120 us copy of the same bytes doubled the rate."""
    nbytes = seconds = 0.0
    for layer in layers:
        if layer.rw_kb and layer.time_us and layer.bound_basis is not BoundBasis.VIEW:
            nbytes += layer.rw_kb * 1024.0
            seconds += layer.time_us * 1e-6
    return nbytes / seconds / 1e9 if seconds else None


def from_rate(
    changes: Iterable[tuple[Layer, float]], rate_gbs: float, basis: str, confidence: Confidence
) -> Saving:
    """Moving each layer's bytes at ``rate_gbs`` instead: ``changes`` are (layer, bytes); each
    saves ``time - bytes / rate``."""
    return saving_of(
        ((la, (la.time_us or 0.0) - nbytes / (rate_gbs * 1e3)) for la, nbytes in changes),
        basis,
        confidence,
    )


def merged(
    savings: Sequence[Saving],
    basis: str | None = None,
    confidence: Confidence | None = None,
    layers: Iterable[Layer] = (),
) -> Saving:
    """Several savings of ONE change added layer by layer (clamped by ``layers``' times when
    given); the basis lines joined and the lowest confidence kept unless given."""
    times = {la.id: la.time_us or 0.0 for la in layers}
    by_id: dict[int, float] = {}
    for saving in savings:
        for i, value in saving.by_layer:
            by_id[i] = by_id.get(i, 0.0) + value
    rows = tuple((i, min(v, times.get(i, v))) for i, v in by_id.items())
    order = [Confidence.LOW, Confidence.MEDIUM, Confidence.HIGH]
    lowest = min((s.confidence for s in savings), key=order.index, default=Confidence.LOW)
    text = basis if basis is not None else "; ".join(s.basis for s in savings if s.basis)
    return Saving(tuple(r for r in rows if r[1] > 0), text, confidence or lowest)


# -- across findings -----------------------------------------------------------------------------
def noise_floor_us(
    frame_us: float | None, share: float = NOISE_SHARE, floor_us: float = NOISE_US
) -> float:
    """Savings below this are noise: the larger of ``share`` of the frame and ``floor_us``."""
    return max(floor_us, share * (frame_us or 0.0))


def normalised(finding: Finding, times: Mapping[int, float]) -> Finding:
    """``finding`` with its saving explained layer by layer and the invariants held:
    ``saving_by_layer`` clamped to each layer's time (``times``: id -> us), ``est_saving_us``
    their sum. A finding with a saving but no ``saving_by_layer`` has it spread over its
    ``layer_ids`` in proportion to their times (a rule not yet on this model); one whose layers
    are not in ``times`` (ranking-only logs, time outside the table) keeps its figure."""
    rows = finding.saving_by_layer
    if not rows and finding.est_saving_us > 0:
        ids = [i for i in dict.fromkeys(finding.layer_ids) if times.get(i)]
        weight = sum(times[i] for i in ids)
        if not ids or not weight:
            return finding
        rows = tuple((i, finding.est_saving_us * times[i] / weight) for i in ids)
    clamped = tuple((i, min(max(0.0, v), times.get(i, v))) for i, v in rows)
    clamped = tuple(r for r in clamped if r[1] > 0)
    if clamped == finding.saving_by_layer and finding.est_saving_us == sum(v for _, v in clamped):
        return finding
    return replace(
        finding, saving_by_layer=clamped, est_saving_us=float(sum(v for _, v in clamped))
    )


def combined_saving_us(
    findings: Iterable[Finding], times: Mapping[int, float], frame_us: float | None
) -> float:
    """What the findings could save together, microseconds -- an upper bound.

    Per layer the remaining time multiplies: ``t x prod(1 - s_i / t)`` over the findings'
    ``saving_by_layer`` entries for it (``times``: id -> us), so the layer saves
    ``t - remaining`` and never more than ``t``. Findings with a saving but no entry for a
    known layer add their ``est_saving_us`` once. The total is capped by ``frame_us`` when
    known.
    """
    remaining: dict[int, float] = {}
    free = 0.0
    for finding in findings:
        rows = [(i, s) for i, s in finding.saving_by_layer if times.get(i)]
        if not rows:
            free += max(0.0, finding.est_saving_us)
            continue
        for i, s in rows:
            t = times[i]
            left = remaining.get(i, t)
            remaining[i] = left * (1.0 - min(max(0.0, s), t) / t)
    total = free + sum(times[i] - left for i, left in remaining.items())
    return min(total, frame_us) if frame_us else total
