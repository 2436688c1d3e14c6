"""The rule registry: an explicit tuple, in code order. Add a rule by adding its module here.

Topics: ``fallback`` (RKN001), ``quantize`` (RKN002), ``bandwidth`` (RKN010), ``mac_usage``
(RKN011), ``operators`` (RKN020), ``padding`` (RKN021), ``graph`` (RKN022-024), ``cores``
(RKN030), ``sparse`` (RKN040), ``environment`` (RKN050), ``measurement`` (RKN051),
``decoding`` (RKN060), ``postprocess`` (RKN061), ``activations`` (RKN070), ``resolution``
(RKN071), ``normalisation`` (RKN072), ``concat`` (RKN073).

Ranking and severity (the same for every rule):

* The verdict on the measurement (RKN051, :data:`LEADING`) comes first; no finding is priced
  from a run that is not a measurement or from a stalled layer (``Profile.validity``).
* Findings are sorted by ``est_saving_us``, largest first (ties: the more severe first, then the
  measurement caveats of :data:`CAVEATS` last, then by code). Every saving follows
  ``analysis.savings``: per-frame latency of one change, explained layer by layer.
* A finding saving less than the noise floor (0.5 % of the frame, at least 100 us) is ``info``.
* A finding's severity comes from the share of the frame at stake, ``est_saving_us`` / frame
  time: at least 10% is ``error``, at least 2% ``warning``, less ``info``
  (``_util.ERROR_SHARE`` / ``WARNING_SHARE``). A rule's catalogue severity is the highest it
  raises; rules whose advice rests on a heuristic or on retraining cap lower. Findings whose
  time the log does not give (a warning line without a row, an Unknown clock) take a fixed
  level named in the rule's doc.
* :func:`potential_saving_us` combines findings per layer (remaining time multiplies), so no
  layer is claimed twice: an upper bound.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rknnprof.analysis.savings import NONE, combined_saving_us, noise_floor_us, normalised
from rknnprof.errors import ConfigError
from rknnprof.model import Coverage, Finding, Profile, Severity
from rknnprof.model.record import replace
from rknnprof.rules import (
    activations,
    bandwidth,
    concat,
    cores,
    decoding,
    environment,
    failures,
    fallback,
    graph,
    llm,
    mac_usage,
    measurement,
    normalisation,
    operators,
    padding,
    postprocess,
    quantize,
    resolution,
    sparse,
)
from rknnprof.rules._util import total_us
from rknnprof.rules.base import CODE_PATTERN, Rule, RuleContext

RULES: tuple[Rule, ...] = (
    *fallback.RULES,
    *quantize.RULES,
    *bandwidth.RULES,
    *mac_usage.RULES,
    *operators.RULES,
    *padding.RULES,
    *graph.RULES,
    *cores.RULES,
    *sparse.RULES,
    *environment.RULES,
    *measurement.RULES,
    *decoding.RULES,
    *postprocess.RULES,
    *activations.RULES,
    *resolution.RULES,
    *normalisation.RULES,
    *concat.RULES,
    *failures.RULES,
    *llm.RULES,
)

CAVEATS = frozenset({"RKN050"})
"""Rules whose findings qualify the measurement (perf_debug inflation, clocks, re-measure): among
findings of equal saving and severity they come after the advice they qualify, so a change
the log cannot price (RKN073, RKN071's orientation) is not read after "re-measure"."""

LEADING = frozenset({measurement.CODE})
"""Rules whose findings come first whatever their saving: the verdict on the measurement
(``Profile.validity``) is read before the advice it qualifies."""

__all__ = [
    "CAVEATS",
    "LEADING",
    "CODE_PATTERN",
    "RULES",
    "Rule",
    "RuleContext",
    "by_code",
    "potential_saving_us",
    "run_rules",
    "select_rules",
]


def by_code(code: str) -> Rule | None:
    code = code.upper()
    return next((rule for rule in RULES if rule.code == code), None)


def _prefixes(values: Iterable[str] | None, option: str) -> list[str]:
    """Split ``["RKN0,RKN01", "RKN3"]`` into upper-case prefixes; reject ones matching no rule."""
    prefixes = [p.strip().upper() for v in values or () for p in v.split(",") if p.strip()]
    for prefix in prefixes:
        if prefix != "ALL" and not any(rule.code.startswith(prefix) for rule in RULES):
            raise ConfigError(
                f"{option} {prefix}: no rule code starts with it (see `rknnprof rules`)"
            )
    return prefixes


def _longest(code: str, prefixes: Sequence[str]) -> int:
    """Length of the longest prefix matching ``code`` (``ALL`` counts as 0), or -1 for none."""
    lengths = [0 if p == "ALL" else len(p) for p in prefixes if p == "ALL" or code.startswith(p)]
    return max(lengths, default=-1)


def select_rules(
    select: Iterable[str] | None = None, ignore: Iterable[str] | None = None
) -> tuple[Rule, ...]:
    """The rules left after ``--select`` / ``--ignore`` code prefixes, flake8 style.

    No ``select`` means every rule is selected. A rule is dropped when an ignore prefix matches
    it at least as specifically as the longest matching select prefix
    (``--select RKN0 --ignore RKN02`` drops RKN020-029; ``--select RKN021 --ignore RKN02`` keeps
    RKN021). Values may be comma-separated; ``ALL`` matches everything. A prefix that matches no
    rule is a :class:`ConfigError` (exit 2).
    """
    chosen = _prefixes(select, "--select") or ["ALL"]
    dropped = _prefixes(ignore, "--ignore")
    kept = []
    for rule in RULES:
        sel, ign = _longest(rule.code, chosen), _longest(rule.code, dropped)
        if sel >= 0 and sel > ign:
            kept.append(rule)
    return tuple(kept)


def run_rules(
    profile: Profile,
    context: RuleContext | None = None,
    rules: Iterable[Rule] | None = None,
) -> tuple[Finding, ...]:
    """Every rule's findings for ``profile`` (``rules`` defaults to all, e.g. pass
    :func:`select_rules`'s result), sorted by estimated saving, largest first (ties: the more
    severe first, then the measurement caveats (:data:`CAVEATS`) last, then by code).

    Each finding is held to the savings model (``analysis.savings.normalised``: its
    ``saving_by_layer`` clamped to the layers' times and summing to ``est_saving_us``); one
    whose saving is under the noise floor (``noise_floor_us``: 0.5 % of the frame, at least
    100 us) is ``info``; no finding's severity exceeds its rule's catalogue severity."""
    context = context or RuleContext()
    chosen = RULES if rules is None else tuple(rules)
    times = _layer_times(profile)
    floor = noise_floor_us(_frame_us(profile))
    findings = []
    for rule in chosen:
        for finding in rule.check(profile, context):
            finding = _priced_as_the_log_supports(normalised(finding, times), profile)
            if 0 < finding.est_saving_us < floor and finding.severity is not Severity.INFO:
                finding = replace(finding, severity=Severity.INFO)
            if finding.severity.rank > rule.severity.rank:
                finding = replace(finding, severity=rule.severity)
            findings.append(finding)
    findings.sort(
        key=lambda f: (
            f.code not in LEADING,
            -f.est_saving_us,
            -f.severity.rank,
            f.code in CAVEATS,
            f.code,
        )
    )
    return tuple(findings)


def _priced_as_the_log_supports(finding: Finding, profile: Profile) -> Finding:
    """``finding`` priced only from what the verdict (``Profile.validity``) lets the log
    support: nothing from a run that is not a measurement (a debugger, trace or dumps inside
    it) or from a damaged table (no saving, no throughput gain), nothing from a stalled
    layer."""
    validity = profile.validity
    if validity is None or not (finding.est_saving_us or finding.throughput_gain):
        return finding
    if not validity.is_measurement:
        return _unpriced(finding, "the run is not a measurement (see RKN051)")
    if validity.coverage is Coverage.DAMAGED:  # (rows doubled, lost or edited: no frame)
        return _unpriced(finding, f"the table is damaged ({validity.coverage_reason})")
    stalled = set(validity.stalled_layer_ids)
    if not stalled or not any(i in stalled for i, _ in finding.saving_by_layer):  # (or none)
        return finding
    kept = tuple((i, v) for i, v in finding.saving_by_layer if i not in stalled)
    return replace(
        finding,
        saving_by_layer=kept,
        est_saving_us=float(sum(v for _, v in kept)),
        basis=f"{finding.basis}; stalled layers not priced (see RKN051)",
    )


def _unpriced(finding: Finding, why: str) -> Finding:
    """``finding`` with no saving (nor a throughput gain), its basis saying why
    (``not priced: …``)."""
    return replace(
        finding,
        throughput_gain=None,
        est_saving_us=NONE.total_us,
        saving_by_layer=NONE.by_layer,
        basis=f"not priced: {why}",
        confidence=NONE.confidence,
    )


def _layer_times(profile: Profile) -> dict[int, float]:
    return {layer.id: layer.time_us or 0.0 for layer in profile.layers}


def _frame_us(profile: Profile) -> float:
    """The frame the savings are capped by: the table's frame time, or a benchmark's average
    run when that is longer (time outside the table is part of the frame)."""
    frame = total_us(profile)
    if profile.benchmark is not None and profile.benchmark.avg_time_ms:
        frame = max(frame, profile.benchmark.avg_time_ms * 1000.0)
    return frame


def potential_saving_us(findings: Iterable[Finding], profile: Profile) -> float:
    """What the given findings could save together, microseconds: an upper bound that claims no
    layer's time twice (``analysis.savings.combined_saving_us``: per layer the remaining time
    multiplies, t x prod(1 - s_i/t); findings without layers add once; capped by the frame,
    the larger of the table's total and a benchmark's average run)."""
    times = _layer_times(profile)
    explained = [normalised(finding, times) for finding in findings]
    return combined_saving_us(explained, times, _frame_us(profile) or None)
