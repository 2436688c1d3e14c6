"""BEFORE's advice held against AFTER: did each fix deliver what its finding promised?

``compare BEFORE AFTER`` takes BEFORE's findings (its rules ran when it was analysed, or they
were saved with its report) and, for each one that promised a saving, measures what AFTER
saved on the same layers. The layers are the aligned pairs of :mod:`~rknnprof.compare.align`:
by FullName first, so a fix that renames a layer's op type (ConvExSwish becoming ConvRelu),
changes its data type (FP16 to INT8) or its target (CPU to NPU) keeps its pair; a layer AFTER
no longer has (a head cut away) saved its whole time.

One verdict per finding (:data:`VERDICTS`):

* ``delivered``: the measured saving is within the estimate's stated uncertainty
  (:data:`UNCERTAINTY`, by the finding's confidence) of the predicted one;
* ``partly``: less than that, and more than the noise: the share delivered is given;
* ``more``: more than predicted, beyond the uncertainty;
* ``not-made``: the finding's layers are unchanged in AFTER (same op type, data type, target
  and cores, time within the noise): the fix was not made, which is no miss of the estimate;
* ``cannot-tell``: the runs are not like for like (input shape, platform, cores, data type,
  a side that is not a measurement or shows part of the model), the layers are not all in
  both logs, or the finding promised frames per second and the logs hold no throughput
  figure on both sides. The reason is given.

A finding whose saving is a throughput gain is judged on the logs' frames per second
(rknn_benchmark), never on latency.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rknnprof.compare.deltas import LayerDelta
from rknnprof.model import Confidence, Finding, Layer, Profile

VERDICTS = ("delivered", "partly", "more", "not-made", "cannot-tell")
"""Every verdict, from the best news to the least informative."""

UNCERTAINTY: dict[Confidence, float] = {
    Confidence.HIGH: 0.25,
    Confidence.MEDIUM: 0.40,
    Confidence.LOW: 0.60,
}
"""The estimate's stated uncertainty, a fraction of the predicted saving, by its confidence:
a measured saving within ``predicted × (1 ± u)`` is delivered. ``high`` rests on this log's
cycles or an in-log pair; ``medium`` on a cited figure of another model; ``low`` on an
assumption (see :class:`~rknnprof.model.Confidence`)."""

NOISE_SHARE = 0.05
"""A layer whose time moved by less than this share (and :data:`NOISE_US`) is unchanged:
run-to-run noise of an unchanged layer at RKNN_LOG_LEVEL=4 is a few per cent."""
NOISE_US = 20.0
"""The absolute noise floor, microseconds: a 40 us layer moving 2 us is no change."""

UNLIKE = (
    "input shape",
    "platform",
    "NPU frequency",
    "frames merged",
    "measured",
    "is not a measurement",
    "shows part of the model",
    "is damaged",
    "align by FullName or shapes",
)
"""``comparability`` lines that make a measured saving meaningless for every finding (a data
type or core change is the fix itself for some rules, so it is judged per finding)."""


@dataclass(frozen=True, slots=True)
class AdviceOutcome:
    """One of BEFORE's findings, checked against AFTER."""

    code: str
    name: str
    verdict: str
    """One of :data:`VERDICTS`."""
    predicted_us: float
    """The finding's ``est_saving_us``: what BEFORE's advice promised per frame, microseconds."""
    measured_us: float | None
    """BEFORE's time of the finding's layers minus AFTER's time of their counterparts (a layer
    AFTER no longer has counts as 0), microseconds; ``None`` when it cannot be told."""
    delivered_share: float | None
    """``measured_us / predicted_us``; ``None`` with no measurement or no prediction."""
    uncertainty: float
    """The stated uncertainty the verdict used (a fraction of ``predicted_us``)."""
    layers: int
    """How many of BEFORE's layers the finding is about."""
    reason: str
    """One line: the layers and their times, or why it cannot be told."""
    predicted_fps_factor: float | None = None
    """For a throughput finding: the promised frames-per-second multiplier."""
    measured_fps_factor: float | None = None
    """AFTER's frames per second over BEFORE's, when both logs print them."""


def check_advice(
    before: Profile,
    after: Profile,
    deltas: Sequence[LayerDelta],
    differences: Iterable[str],
) -> tuple[AdviceOutcome, ...]:
    """Every finding of ``before`` that promised a saving (latency or throughput), judged
    against ``after``; in BEFORE's order (largest promised saving first)."""
    unlike = [_first_clause(d) for d in differences if any(word in d for word in UNLIKE)]
    by_base = {d.base_id: d for d in deltas if d.base_id is not None}
    layers = {la.id: la for la in before.layers}
    after_layers = {la.id: la for la in after.layers}
    outcomes = []
    for finding in before.findings:
        if finding.throughput_gain is not None and not finding.est_saving_us:
            outcomes.append(_throughput(finding, before, after, unlike))
        elif finding.est_saving_us > 0:
            outcomes.append(_latency(finding, layers, after_layers, by_base, unlike))
    return tuple(outcomes)


def _first_clause(difference: str) -> str:
    """``CURRENT shows part of the model`` of ``CURRENT shows part of the model (elided: …):
    its total covers …``: what differs, without the detail the warnings already give."""
    return difference.split(" (", 1)[0].split(": its ", 1)[0]


def _latency(
    finding: Finding,
    layers: dict[int, Layer],
    after_layers: dict[int, Layer],
    by_base: dict[int, LayerDelta],
    unlike: list[str],
) -> AdviceOutcome:
    ids = [i for i, _ in finding.saving_by_layer] or list(finding.layer_ids)
    u = UNCERTAINTY[finding.confidence]

    def outcome(verdict: str, measured: float | None, reason: str) -> AdviceOutcome:
        share = measured / finding.est_saving_us if measured is not None else None
        return AdviceOutcome(
            finding.code, finding.name, verdict, finding.est_saving_us, measured, share, u,
            len(ids), reason,
        )  # fmt: skip

    if unlike:
        return outcome("cannot-tell", None, f"not like for like: {unlike[0]}")
    if not ids:
        return outcome("cannot-tell", None, "the finding names no layer to measure")
    pairs: list[tuple[Layer, LayerDelta]] = []
    for i in ids:
        la, d = layers.get(i), by_base.get(i)
        if la is None or d is None or la.time_us is None:
            return outcome("cannot-tell", None, "some of its layers are not in BEFORE's table")
        if d.status == "not-shown":
            return outcome("cannot-tell", None, "AFTER's table leaves some of its layers out")
        pairs.append((la, d))
    before_us = sum(la.time_us or 0.0 for la, _ in pairs)
    after_us = 0.0
    unchanged = True
    for la, d in pairs:
        counterpart = after_layers.get(d.current_id) if d.current_id is not None else None
        if counterpart is None:  # removed: its whole time saved
            unchanged = False
            continue
        after_us += counterpart.time_us or 0.0
        unchanged = unchanged and _same_layer(la, counterpart)
    measured = before_us - after_us
    where = f"{len(ids)} layer(s): {before_us:,.0f} us in BEFORE, {after_us:,.0f} us in AFTER"
    if unchanged:
        return outcome("not-made", measured, f"{where}; op type, data type, target and cores "
                       "unchanged, time within the noise")  # fmt: skip
    share = measured / finding.est_saving_us
    if abs(share - 1.0) <= u:
        return outcome("delivered", measured, where)
    if share > 1.0:
        return outcome("more", measured, where)
    return outcome("partly", measured, f"{where}: {max(share, 0.0):.0%} of the promise")


def _same_layer(before: Layer, after: Layer) -> bool:
    """The layer is what it was (no fix touched it): same op type, data type, target and
    cores, and its time moved within the noise."""
    if (before.op_type, before.data_type, before.target) != (
        after.op_type,
        after.data_type,
        after.target,
    ):
        return False
    if _cores(before) != _cores(after):
        return False
    b, a = before.time_us or 0.0, after.time_us or 0.0
    return abs(a - b) <= max(NOISE_US, NOISE_SHARE * b)


def _cores(layer: Layer) -> int | None:
    """How many cores did work on the layer (``WorkLoad`` above 0), when the log says."""
    if not layer.workload_pct:
        return None
    return sum(1 for w in layer.workload_pct if w > 0)


def _throughput(
    finding: Finding, before: Profile, after: Profile, unlike: list[str]
) -> AdviceOutcome:
    gain = finding.throughput_gain
    assert gain is not None
    u = UNCERTAINTY[finding.confidence]

    def outcome(verdict: str, factor: float | None, reason: str) -> AdviceOutcome:
        share = (factor - 1.0) / (gain.factor - 1.0) if factor and gain.factor > 1 else None
        return AdviceOutcome(
            finding.code, finding.name, verdict, 0.0, None, share, u,
            len(finding.layer_ids), reason, gain.factor, factor,
        )  # fmt: skip

    fps = [_fps(p) for p in (before, after)]
    if fps[0] is None or fps[1] is None:
        return outcome(
            "cannot-tell",
            None,
            "a throughput finding: both logs need a frames-per-second figure (rknn_benchmark); "
            "latency says nothing of it",
        )
    if unlike:
        return outcome("cannot-tell", None, f"not like for like: {unlike[0]}")
    factor = fps[1] / fps[0]
    where = f"{fps[0]:.1f} FPS in BEFORE, {fps[1]:.1f} in AFTER ({factor:.2f}x)"
    if abs(factor - 1.0) <= NOISE_SHARE:
        return outcome("not-made", factor, f"{where}: within the noise")
    promised = gain.factor - 1.0
    share = (factor - 1.0) / promised if promised > 0 else 0.0
    if abs(share - 1.0) <= u:
        return outcome("delivered", factor, where)
    return outcome("more" if share > 1 else "partly", factor, where)


def _fps(profile: Profile) -> float | None:
    run = profile.benchmark
    if run is None:
        return None
    if run.avg_fps:
        return run.avg_fps
    return 1000.0 / run.avg_time_ms if run.avg_time_ms else None


def unmet_expectations(
    comparisons: Iterable[tuple[Profile, Sequence[AdviceOutcome]]],
    expects: Sequence[tuple[str, float | None]],
) -> list[str]:
    """What ``compare --expect CODE[:SHARE]`` fails on, one line each: for every (AFTER
    profile, BEFORE's outcomes) and every expected rule code, the finding is still in AFTER's
    advice, or BEFORE's finding delivered less than ``SHARE`` of its promise (by default, less
    than its verdict calls delivered), or its delivery cannot be told. A code BEFORE did not
    advise is no failure (nothing was promised)."""
    unmet = []
    for after, outcomes in comparisons:
        for code, share in expects:
            outcome = next((o for o in outcomes if o.code == code), None)
            if outcome is None:
                continue
            still = [f for f in after.findings if f.code == code and f.est_saving_us > 0]
            if still:
                unmet.append(
                    f"{code} {outcome.name}: still in AFTER's advice "
                    f"(saves ~{still[0].est_saving_us:,.0f} us there)"
                )
            elif outcome.verdict == "cannot-tell":
                unmet.append(f"{code} {outcome.name}: cannot tell ({outcome.reason})")
            elif outcome.verdict == "not-made":
                unmet.append(f"{code} {outcome.name}: not made ({outcome.reason})")
            elif share is not None and (outcome.delivered_share or 0.0) < share:
                unmet.append(
                    f"{code} {outcome.name}: delivered {outcome.delivered_share or 0:.0%} of the "
                    f"promised {outcome.predicted_us:,.0f} us (expected at least {share:.0%})"
                )
            elif share is None and outcome.verdict == "partly":
                unmet.append(
                    f"{code} {outcome.name}: partly delivered: {outcome.delivered_share or 0:.0%} "
                    f"of the promised {outcome.predicted_us:,.0f} us"
                )
    return unmet
