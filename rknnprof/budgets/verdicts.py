"""Verdicts: every budget judged for every model of a run, against an optional baseline.

``pass``, ``warn`` (a warn-level budget broken), ``fail`` (an error-level budget broken: exit 1),
``inconclusive`` (the metric or the baseline is missing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from rknnprof.budgets.config import Budget, BudgetConfig, fmt_number
from rknnprof.budgets.metrics import is_cpu_fallback, metric_value
from rknnprof.model import Profile, Report, Target
from rknnprof.units import frame_ms

if TYPE_CHECKING:
    from rknnprof.compare import CompareResult


@dataclass(frozen=True, slots=True)
class Verdict:
    """One budget judged for one model."""

    budget: Budget
    model: str
    """Model label: its name, else the input path."""
    status: str
    """``pass``, ``warn``, ``fail`` or ``inconclusive``."""
    message: str
    value: float | None = None
    baseline_value: float | None = None
    layers: tuple[str, ...] = ()
    """Layers the message is about (introduced CPU fallbacks)."""
    source_path: str | None = None
    source_line: int | None = None
    """Where in the input to point an annotation (the first named layer's row)."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    path: str
    budgets_path: str
    baseline_path: str | None
    verdicts: tuple[Verdict, ...]
    warnings: tuple[str, ...] = ()
    comparison: CompareResult | None = field(default=None, compare=False)

    def count(self, status: str) -> int:
        return sum(1 for v in self.verdicts if v.status == status)

    @property
    def failed(self) -> bool:
        return any(v.status == "fail" for v in self.verdicts)

    @property
    def overall(self) -> str:
        for status in ("fail", "warn", "inconclusive"):
            if self.count(status):
                return status
        return "pass"


def check(
    config: BudgetConfig,
    report: Report,
    baseline: Report | None,
    path: str = "",
    baseline_path: str | None = None,
    baseline_note: str | None = None,
    allow_incomplete: bool = False,
) -> CheckResult:
    """Judge every budget for every model of ``report``. A profile marked incomplete (a cut
    log, frames that disagree with their total line) leaves every budget inconclusive, unless
    ``allow_incomplete``: its figures may be too low to pass or too high to fail."""
    from rknnprof.compare import compare_reports, pair_profiles

    warnings: list[str] = [baseline_note] if baseline_note else []
    base_of: dict[int, Profile] = {}
    comparison = None
    if baseline is not None:
        pairs, notes = pair_profiles(baseline.profiles, report.profiles)
        warnings += notes
        base_of = {id(cur): base for base, cur in pairs}
        if pairs:
            comparison = compare_reports(baseline, report, baseline_path or "baseline", path)
            warnings += [w for w in comparison.warnings if w not in warnings]
    verdicts = []
    for k, profile in enumerate(report.profiles):
        label = profile.model_name or profile.source.path
        if len(report.profiles) > 1 and not profile.model_name:
            label = f"{label}#{k + 1}"
        base = base_of.get(id(profile))
        no_base = "no baseline" if baseline is None else "no matching model in the baseline"
        if profile.incomplete and not allow_incomplete:
            verdicts += [
                Verdict(
                    status="inconclusive",
                    budget=b,
                    model=label,
                    source_path=profile.source.path,
                    message=f"{b.metric}: the profile is incomplete "
                    f"({profile.incomplete}); --allow-incomplete judges "
                    "it anyway",
                )
                for b in config.budgets
            ]
            continue
        verdicts += [judge(b, profile, base, label, no_base) for b in config.budgets]
    return CheckResult(
        path, config.path, baseline_path, tuple(verdicts), tuple(warnings), comparison
    )


FRAME_METRICS = frozenset({"total_time_us", "frame_time_p50_us", "frame_time_p90_us"})
"""Metrics that are a whole frame's time: shown in ms (``28.02 ms``), the README's rule for a
frame; other ``_us`` metrics and every change are parts, in us (``+450 us``)."""


def _amount(metric: str, value: float) -> str:
    """``value`` of ``metric`` with its unit: a frame in ms, a part in us, a count bare."""
    if metric in FRAME_METRICS:
        return frame_ms(value)
    return fmt_number(value) + (" us" if metric.endswith("_us") else "")


def judge(
    budget: Budget,
    profile: Profile,
    base: Profile | None,
    label: str,
    no_base: str = "no baseline given",
) -> Verdict:
    """One budget for one model."""
    unit = " us" if budget.metric.endswith("_us") else ""
    amount = partial(_amount, budget.metric)
    value, why = metric_value(budget, profile)
    verdict = partial(Verdict, budget=budget, model=label, source_path=profile.source.path)
    if value is None:
        return verdict(status="inconclusive", message=f"{budget.metric}: {why}")
    shown = f"{budget.metric} = {amount(value)}"
    problems: list[str] = []
    notes: list[str] = []
    inconclusive = ""
    base_value = None
    if budget.max is not None:
        if value > budget.max:
            problems.append(f"over max {amount(budget.max)}")
        else:
            notes.append(f"max {amount(budget.max)}")
    if budget.min is not None:
        if value < budget.min:
            problems.append(f"under min {amount(budget.min)}")
        else:
            notes.append(f"min {amount(budget.min)}")
    if budget.max_increase is not None:
        if base is None:
            inconclusive = no_base
        else:
            base_value, base_why = metric_value(budget, base)
            if base_value is None:
                inconclusive = f"baseline: {base_why}"
            else:
                delta = value - base_value
                change = f"{fmt_number(delta, True)}{unit}"
                if base_value:
                    change += f" ({delta / base_value * 100:+.1f}%)"
                change += f" vs baseline {amount(base_value)}"
                allowed = f"allowed +{fmt_number(budget.max_increase * 100)}%"
                if delta > base_value * budget.max_increase:
                    if delta <= budget.min_delta:
                        notes.append(
                            f"{change}: within noise floor min_delta "
                            f"{fmt_number(budget.min_delta)}{unit}"
                        )
                    else:
                        problems.append(f"{change}, {allowed}")
                else:
                    notes.append(f"{change}, {allowed}")
    layers: tuple[str, ...] = ()
    line = None
    if budget.metric == "cpu_fallback_layers" and base is not None:
        introduced = introduced_fallbacks(base, profile)
        if introduced:
            layers = tuple(name for name, _ in introduced)
            line = introduced[0][1]
            problems.append(f"CPU fallback introduced: {', '.join(layers)}")
    if problems:
        status = "fail" if budget.level == "error" else "warn"
        return verdict(
            status=status,
            message=f"{shown}: {'; '.join(problems)}",
            value=value,
            baseline_value=base_value,
            layers=layers,
            source_line=line,
        )
    if inconclusive:
        parts = [*notes, f"max_increase not judged: {inconclusive}"]
        return verdict(
            status="inconclusive",
            message=f"{shown}: {'; '.join(parts)}",
            value=value,
            baseline_value=base_value,
        )
    return verdict(
        status="pass",
        message=f"{shown}: {'; '.join(notes)}" if notes else shown,
        value=value,
        baseline_value=base_value,
    )


def introduced_fallbacks(base: Profile, current: Profile) -> list[tuple[str, int | None]]:
    """(layer name, input line) of CURRENT's CPU layers (not I/O) that ran elsewhere in BASE
    or are new."""
    from rknnprof.compare import align

    found = []
    for i, j, _ in align(base.layers, current.layers):
        if j is None:
            continue
        cur = current.layers[j]
        if not is_cpu_fallback(cur):
            continue
        if i is None or base.layers[i].target is not Target.CPU:
            found.append((j, cur.full_name or f"{cur.op_type}#{cur.id}", cur.line))
    return [(name, line) for _, name, line in sorted(found)]
