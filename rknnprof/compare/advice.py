"""BASE's advice held against CURRENT: did each fix deliver what its finding promised?

``compare BASE CURRENT`` takes BASE's findings (its rules ran when it was analysed, or they
were saved with its report) and, for each one that promised a saving, measures what CURRENT
saved on the same layers. The layers are the aligned pairs of :mod:`~rknnprof.compare.align`:
by FullName first, so a fix that renames a layer's op type (ConvExSwish becoming ConvRelu),
changes its data type (FP16 to INT8) or its target (CPU to NPU) keeps its pair; a layer CURRENT
no longer has (a head cut away) saved its whole time.

One verdict per finding (:data:`VERDICTS`):

* ``delivered``: the measured saving is within the estimate's stated uncertainty
  (:data:`UNCERTAINTY`, by the finding's confidence) of the predicted one;
* ``partly``: less than that, and more than the noise: the share delivered is given;
* ``more``: more than predicted, beyond the uncertainty;
* ``not-made``: the finding's layers are unchanged in CURRENT (same op type, data type, target,
  cores and shapes; for a fix that shows only in the time,
  :attr:`~rknnprof.rules.Rule.fix_shows_in_rows` false, also the time not fallen beyond the
  noise): the fix was not made, which is no miss
  of the estimate; a time that moved is said (slower, or faster from another cause: a
  rebuild, another runtime). For a fix that shows in the rows it is told from them even when
  the times are not like for like (frames merged, another platform), unless a side is
  damaged, the runs are other models or another input (:data:`UNREAD`);
* ``cannot-tell``: the runs are not like for like (input shape, platform, cores, data type,
  a side that is not a measurement or shows part of the model), the layers are not all in
  both logs, or the finding promised frames per second and the logs hold no throughput
  figure on both sides. The reason is given.

A finding whose saving is a throughput gain is judged on the logs' frames per second
(rknn_benchmark), never on latency. A finding whose fix changes a run condition itself (RKN071:
the input shape, :attr:`~rknnprof.rules.Rule.fix_changes`) is judged on the whole frame when
that condition is what differs: every layer changes shape, so none aligns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rknnprof.compare.deltas import LayerDelta
from rknnprof.model import Confidence, Finding, Layer, Profile
from rknnprof.model.record import Record, record
from rknnprof.rules import by_code

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
    "layer shapes:",
    "per-layer table:",
)
"""``comparability`` lines that make a measured saving meaningless for every finding (a data
type or core change is the fix itself for some rules, so it is judged per finding)."""

UNREAD = ("is damaged", "align by FullName or shapes", "input shape")
"""``comparability`` lines after which not even the rows tell a fix was not made (rows that
contradict themselves, other models, another input: other layers)."""

FRAME_CONFOUNDERS = ("NPU cores used:", "data type:")
"""``comparability`` lines that also rule out judging a finding on the whole frame: they move
every layer's time, not only the fix's."""


@record
class AdviceOutcome(Record):
    """One of BASE's findings, checked against CURRENT."""

    code: str
    name: str
    verdict: str
    """One of :data:`VERDICTS`."""
    predicted_us: float
    """The finding's ``est_saving_us``: what BASE's advice promised per frame, microseconds."""
    measured_us: float | None
    """BASE's time of the finding's layers minus CURRENT's time of their counterparts (a layer
    CURRENT no longer has counts as 0), microseconds; ``None`` when it cannot be told."""
    delivered_share: float | None
    """``measured_us / predicted_us``; ``None`` with no measurement or no prediction."""
    uncertainty: float
    """The stated uncertainty the verdict used (a fraction of ``predicted_us``)."""
    layers: int
    """How many of BASE's layers the finding is about."""
    reason: str
    """One line: the layers and their times, or why it cannot be told."""
    predicted_fps_factor: float | None = None
    """For a throughput finding: the promised frames-per-second multiplier."""
    measured_fps_factor: float | None = None
    """CURRENT's frames per second over BASE's, when both logs print them."""


def check_advice(
    before: Profile,
    after: Profile,
    deltas: Sequence[LayerDelta],
    differences: Iterable[str],
) -> tuple[AdviceOutcome, ...]:
    """Every finding of ``before`` that promised a saving (latency or throughput), judged
    against ``after``; in BASE's order (largest promised saving first)."""
    differences = list(differences)
    unlike = [_first_clause(d) for d in differences if any(word in d for word in UNLIKE)]
    by_base = {d.base_id: d for d in deltas if d.base_id is not None}
    layers = {la.id: la for la in before.layers}
    after_layers = {la.id: la for la in after.layers}
    outcomes = []
    retyped = [_first_clause(d) for d in differences if d.startswith("data type:")]
    for finding in before.findings:
        rule = by_code(finding.code)
        changed = rule.fix_changes if rule is not None else ""
        fix_retypes = rule is not None and rule.fix_changes_data_type
        if retyped and not fix_retypes and finding.est_saving_us > 0:
            # (another build's data types move every layer's time: no fix of this one)
            outcomes.append(_not_like(finding, retyped[0]))
        elif finding.throughput_gain is not None and not finding.est_saving_us:
            outcomes.append(_throughput(finding, before, after, unlike))
        elif finding.est_saving_us > 0 and changed and _differs(changed, differences):
            outcomes.append(_frame(finding, before, after, changed, unlike, differences))
        elif finding.est_saving_us > 0:
            visible = rule is None or rule.fix_shows_in_rows
            outcomes.append(_latency(finding, layers, after_layers, by_base, unlike, visible))
    return tuple(outcomes)


def _not_like(finding: Finding, why: str) -> AdviceOutcome:
    """A finding that cannot be judged: the runs are not like for like (``why``)."""
    return AdviceOutcome(
        finding.code, finding.name, "cannot-tell", finding.est_saving_us, None, None,
        UNCERTAINTY[finding.confidence], len(finding.saving_by_layer) or len(finding.layer_ids),
        f"not like for like: {why}",
    )  # fmt: skip


def _first_clause(difference: str) -> str:
    """What differs, without the detail the warnings already give: ``CURRENT shows part of the
    model`` of ``CURRENT shows part of the model (elided: …): its total covers …``; a
    ``what: BASE vs CURRENT`` line whole."""
    head = difference.split(": its ", 1)[0]
    before_detail = head.split(" (", 1)[0]
    return head if before_detail.endswith(":") else before_detail


def _differs(condition: str, differences: Sequence[str]) -> bool:
    """True when ``condition`` (``input shape``) is one of the comparability lines."""
    return any(d.startswith(condition + ":") for d in differences)


def _frame(
    finding: Finding,
    before: Profile,
    after: Profile,
    changed: str,
    unlike: list[str],
    differences: Sequence[str],
) -> AdviceOutcome:
    """A finding whose fix changes ``changed`` (the input shape), judged on the whole frame:
    BASE's frame minus CURRENT's. The other like-for-like conditions still hold (a partial
    side, another platform or clock, a non-measurement make it ``cannot-tell``), and so do the
    ones that move every layer (:data:`FRAME_CONFOUNDERS`)."""
    u = UNCERTAINTY[finding.confidence]
    layers = len(finding.saving_by_layer) or len(finding.layer_ids)

    def outcome(verdict: str, measured: float | None, reason: str) -> AdviceOutcome:
        share = measured / finding.est_saving_us if measured is not None else None
        return AdviceOutcome(
            finding.code, finding.name, verdict, finding.est_saving_us, measured, share, u,
            layers, reason,
        )  # fmt: skip

    others = [
        line
        for line in unlike
        if not line.startswith(changed + ":") and "align by FullName or shapes" not in line
    ] + [_first_clause(d) for d in differences if d.startswith(FRAME_CONFOUNDERS)]
    if others:
        return outcome("cannot-tell", None, f"not like for like: {others[0]}")
    totals = (
        before.frame_total_us or before.total_time_us,
        after.frame_total_us or after.total_time_us,
    )
    if not totals[0] or not totals[1]:
        return outcome("cannot-tell", None, "a log gives no frame total")
    measured = totals[0] - totals[1]
    where = (
        f"the whole frame ({changed} is the fix): {totals[0]:,.0f} us in BASE, "
        f"{totals[1]:,.0f} us in CURRENT"
    )
    share = measured / finding.est_saving_us
    if abs(share - 1.0) <= u:
        return outcome("delivered", measured, where)
    return outcome("more" if share > 1.0 else "partly", measured, where)


def _latency(
    finding: Finding,
    layers: dict[int, Layer],
    after_layers: dict[int, Layer],
    by_base: dict[int, LayerDelta],
    unlike: list[str],
    visible: bool,
) -> AdviceOutcome:
    """``visible``: the fix shows in the layers' rows (``Rule.fix_shows_in_rows``)."""
    ids = [i for i, _ in finding.saving_by_layer] or list(finding.layer_ids)
    u = UNCERTAINTY[finding.confidence]

    def outcome(verdict: str, measured: float | None, reason: str) -> AdviceOutcome:
        share = measured / finding.est_saving_us if measured is not None else None
        return AdviceOutcome(
            finding.code, finding.name, verdict, finding.est_saving_us, measured, share, u,
            len(ids), reason,
        )  # fmt: skip

    if unlike and not (visible and ids and not any(w in u for u in unlike for w in UNREAD)):
        return outcome("cannot-tell", None, f"not like for like: {unlike[0]}")
    if not ids:
        return outcome("cannot-tell", None, "the finding names no layer to measure")
    pairs: list[tuple[Layer, LayerDelta]] = []
    for i in ids:
        la, d = layers.get(i), by_base.get(i)
        if la is None or d is None or la.time_us is None or d.status == "not-shown":
            unpaired = (
                f"not like for like: {unlike[0]}"
                if unlike
                else "CURRENT's table leaves some of its layers out"
                if d is not None and la is not None and la.time_us is not None
                else "some of its layers are not in BASE's table"
            )
            return outcome("cannot-tell", None, unpaired)
        pairs.append((la, d))
    if unlike:  # (the rows still tell a fix that shows in them was not made)
        kept = [
            after_layers.get(d.current_id) if d.current_id is not None else None for _, d in pairs
        ]
        if all(
            after is not None and _same_layer(la, after, time_too=False)
            for (la, _), after in zip(pairs, kept)
        ):
            return outcome(
                "not-made",
                None,
                f"{len(ids)} layer(s): op type, data type, target, cores and shapes unchanged "
                f"(times not compared, not like for like: {unlike[0]})",
            )
        return outcome("cannot-tell", None, f"not like for like: {unlike[0]}")
    before_us = sum(la.time_us or 0.0 for la, _ in pairs)
    after_us = 0.0
    unchanged = True
    for la, d in pairs:
        counterpart = after_layers.get(d.current_id) if d.current_id is not None else None
        if counterpart is None:  # removed: its whole time saved
            unchanged = False
            continue
        after_us += counterpart.time_us or 0.0
        unchanged = unchanged and _same_layer(la, counterpart, time_too=not visible)
    measured = before_us - after_us
    where = f"{len(ids)} layer(s): {before_us:,.0f} us in BASE, {after_us:,.0f} us in CURRENT"
    if unchanged:
        if abs(measured) <= max(NOISE_US, NOISE_SHARE * before_us):
            moved = "time within the noise"
        elif measured < 0:
            moved = f"{-measured:,.0f} us slower, not from a fix"
        else:
            moved = f"{measured:,.0f} us faster, from another cause than this fix"
        return outcome("not-made", measured, f"{where}; op type, data type, target, cores "
                       f"and shapes unchanged, {moved}")  # fmt: skip
    share = measured / finding.est_saving_us
    if abs(share - 1.0) <= u:
        return outcome("delivered", measured, where)
    if share > 1.0:
        return outcome("more", measured, where)
    return outcome("partly", measured, f"{where}: {max(share, 0.0):.0%} of the promise")


def _same_layer(before: Layer, after: Layer, *, time_too: bool) -> bool:
    """The layer is what it was (no fix touched it): same op type, data type, target, cores
    and shapes; with ``time_too`` (a fix only the time shows) its time did not fall beyond the
    noise either (a layer that got slower was not fixed: a regression read as a fix 'partly
    delivered' at -27%; one that got faster with its row unchanged, from a rebuild, was no
    fix of a data type 'partly delivered' at 3%)."""
    if (before.op_type, before.data_type, before.target) != (
        after.op_type,
        after.data_type,
        after.target,
    ):
        return False
    if _cores(before) != _cores(after):
        return False
    if (before.input_shapes, before.output_shapes) != (after.input_shapes, after.output_shapes):
        return False  # (a pruned conv: RKN011's fix shows in its shapes alone)
    if not time_too:
        return True
    b, a = before.time_us or 0.0, after.time_us or 0.0
    return b - a <= max(NOISE_US, NOISE_SHARE * b)


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
    where = f"{fps[0]:.1f} FPS in BASE, {fps[1]:.1f} in CURRENT ({factor:.2f}x)"
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
    comparisons: Iterable[tuple[Mapping[str, float], Sequence[AdviceOutcome]]],
    expects: Sequence[tuple[str, float | None]],
) -> list[str]:
    """What ``compare --expect CODE[:SHARE]`` fails on, one line each: for every (CURRENT's own
    findings that still promise a saving, ``code -> est_saving_us``; BASE's outcomes) and
    every expected rule code, the finding is still in CURRENT's advice, or BASE's finding
    delivered less than ``SHARE`` of its promise (by default, less than its verdict calls
    delivered), or its delivery cannot be told. A code BASE did not advise is no failure
    (nothing was promised)."""
    return [
        line
        for still, outcomes in comparisons
        for code, share in expects
        if (line := unmet_expectation(code, share, still, outcomes)) is not None
    ]


def unmet_expectation(
    code: str,
    share: float | None,
    still: Mapping[str, float],
    outcomes: Sequence[AdviceOutcome],
) -> str | None:
    """Why ``--expect CODE[:SHARE]`` fails for one comparison, or ``None`` when it is met (or
    BASE did not advise ``code``)."""
    outcome = next((o for o in outcomes if o.code == code), None)
    if outcome is None:
        return None
    if code in still:
        return (
            f"{code} {outcome.name}: still in CURRENT's advice (saves ~{still[code]:,.0f} us there)"
        )
    if outcome.verdict == "cannot-tell":
        return f"{code} {outcome.name}: cannot tell ({outcome.reason})"
    if outcome.verdict == "not-made":
        return f"{code} {outcome.name}: not made ({outcome.reason})"
    delivered = outcome.delivered_share or 0.0
    if share is not None and delivered < share:
        return (
            f"{code} {outcome.name}: delivered {delivered:.0%} of the promised "
            f"{outcome.predicted_us:,.0f} us (expected at least {share:.0%})"
        )
    if share is None and outcome.verdict == "partly":
        return (
            f"{code} {outcome.name}: partly delivered: {delivered:.0%} of the promised "
            f"{outcome.predicted_us:,.0f} us"
        )
    return None
