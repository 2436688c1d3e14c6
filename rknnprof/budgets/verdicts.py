"""Verdicts: every budget judged for every model of a run, against an optional baseline.

``pass``, ``warn`` (a warn-level budget broken), ``fail`` (an error-level budget broken: exit 1),
``inconclusive`` (the metric or the baseline is missing, or the profile cannot support a verdict:
its table is not complete or its run is not a measurement, :func:`unjudgeable`).

Every warning the parsers and analysis raised about the run (and its baseline) is carried in
:attr:`CheckResult.warnings`, so no format of ``check`` passes a damaged log without a word.
"""

from __future__ import annotations

from dataclasses import field
from functools import partial
from typing import TYPE_CHECKING

from rknnprof.budgets.config import Budget, BudgetConfig, fmt_number
from rknnprof.budgets.metrics import is_cpu_fallback, metric_value
from rknnprof.model import (
    Coverage,
    Profile,
    Report,
    ReportWarning,
    Target,
    inputs_text,
    is_multicore_fallback,
)
from rknnprof.model.record import Record, record, replace
from rknnprof.units import frame_ms, signed_percent_beside

if TYPE_CHECKING:
    from rknnprof.compare import CompareResult


@record
class Verdict(Record):
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
    unjudgeable: bool = False
    """Inconclusive because the profile cannot support a verdict (:func:`unjudgeable`)."""


@record
class CheckResult(Record):
    """What ``check`` found for one run against one budgets file: a verdict per budget."""

    path: str
    budgets_path: str
    baseline_path: str | None
    verdicts: tuple[Verdict, ...]
    warnings: tuple[str, ...] = ()
    comparison: CompareResult | None = field(default=None, compare=False)

    @property
    def unjudged(self) -> tuple[Verdict, ...]:
        """Verdicts left inconclusive because the profile cannot support one (cut, elided,
        not a measurement), as opposed to a missing metric or baseline."""
        return tuple(v for v in self.verdicts if v.status == "inconclusive" and v.unjudgeable)

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


def failing_statuses(fail_on: str, fail_on_inconclusive: bool = False) -> tuple[str, ...]:
    """The verdict statuses that make ``check`` exit 1 (and JUnit failures): ``fail``; also
    ``warn`` under ``--fail-on warning``; none under ``never``; plus ``inconclusive`` with
    ``--fail-on-inconclusive``."""
    statuses = {"never": (), "warning": ("fail", "warn"), "info": ("fail", "warn")}.get(
        fail_on, ("fail",)
    )
    return (*statuses, "inconclusive") if fail_on_inconclusive else statuses


TIME_METRICS = frozenset(
    (
        "total_time_us",
        "npu_time_us",
        "cpu_time_us",
        "layer_time_us",
        "op_type_time_us",
        "frame_time_p50_us",
        "frame_time_p90_us",
    )
)
"""Metrics read off the table's times: a run that is not a measurement cannot judge them."""
LLM_METRICS = frozenset(
    ("decode_tokens_per_s", "prefill_tokens_per_s", "llm_init_ms", "peak_memory_mb")
)
"""RKLLM figures: read from the stage table, not from a per-layer table's coverage."""
ROWS_IN_DOUBT = frozenset(
    (
        Coverage.ELIDED,
        Coverage.FRAGMENT,
        Coverage.CUT,
        Coverage.UNKNOWN,
        Coverage.DAMAGED,
        Coverage.NO_TABLE,
    )
)
"""Coverages where rows may be missing or doubled: counts (findings, CPU layers) are in doubt
too. A build-time estimate holds every row: its counts are judged."""


COVERAGE_WORDS = {
    Coverage.FRAGMENT: "a fragment",
    Coverage.ESTIMATE: "a build-time estimate",
    Coverage.UNKNOWN: "in a format that cannot tell",
    Coverage.NO_TABLE: "absent",
}
"""How a verdict names a coverage (``the table is …``) where its value does not read."""


def unjudgeable(budget: Budget, profile: Profile) -> str | None:
    """Why ``budget`` cannot be judged on ``profile``, or ``None`` when it can.

    From ``Profile.validity`` (analysis' verdict): a time budget needs a complete table from a
    run that is a measurement; a count (findings, CPU layers) needs every row. ``incomplete``
    (a cut table, frames that disagree with their total) leaves every budget unjudged; without
    a verdict (a profile built by code, a report saved before it existed) elided rows leave
    every budget but ``findings`` unjudged."""
    validity = profile.validity
    reasons = []
    answered = answered_by_total_line(budget, profile)
    if validity is not None and budget.metric not in LLM_METRICS:
        timed = budget.metric in TIME_METRICS
        if not answered and (
            (timed and not validity.complete) or validity.coverage in ROWS_IN_DOUBT
        ):
            words = COVERAGE_WORDS.get(validity.coverage, validity.coverage.value)
            reasons.append(f"the table is {words} ({validity.coverage_reason})")
        if timed and not validity.is_measurement:
            spoilers = [c.message for c in validity.conditions if c.spoils_timing]
            reasons.append(f"the run is not a measurement ({'; '.join(spoilers)})")
    if not reasons and profile.incomplete and not answered:
        reasons.append(f"the profile is incomplete ({profile.incomplete})")
    if not reasons and validity is not None and validity.complete and profile.frames <= 1:
        from rknnprof.analysis.consistency import total_disagreement

        # (a saved report's verdict is read as saved: one edited to 'complete' over rows that
        # do not add up to its own total line is held to its numbers; merged frames' medians
        # need not add up to their median total, as analysis' verdict knows)
        if (apart := total_disagreement(profile)) is not None:
            reasons.append(
                f"its verdict says complete, but its rows sum to {apart[0]:,.0f} us against its "
                f"total line's {apart[1]:,.0f} us (a saved report edited or damaged)"
            )
    if not reasons and profile.frames != 1:
        from rknnprof.analysis.consistency import merged_disagreement

        # (a saved report of merged frames is held to its own numbers too)
        if (contradiction := merged_disagreement(profile)) is not None:
            reasons.append(f"{contradiction} (a saved report edited or damaged)")
    if (
        not reasons
        and validity is None
        and profile.elided_rows
        and budget.metric not in (*LLM_METRICS, "findings")
    ):
        reasons.append(f"the log elided rows ({profile.elided_rows} elision line(s) in the table)")
    return "; ".join(reasons) or None


def answered_by_total_line(budget: Budget, profile: Profile) -> bool:
    """Whether ``budget`` is the frame's total time and the own total line of a table whose
    rows the log elides (``...`` lines) gives it: the runtime prints the sum of every row, those
    left out too (a run that is a measurement). Such a budget is judged on that line. (Layer
    IDs that skip, with no elision line, leave it unjudged: rows lost beside a total line that
    may not be the runtime's.)"""
    v = profile.validity
    return (
        budget.metric == "total_time_us"
        and v is not None
        and v.coverage is Coverage.ELIDED
        and profile.elided_rows > 0
        and profile.reported_total_time_us is not None
        and v.is_measurement
    )


def warning_lines(report: Report, side: str = "") -> list[str]:
    """The report's warnings as ``path:line: message`` lines (``side`` prefixes a baseline's)."""

    def line(w: ReportWarning) -> str:
        where = f"{w.path}:{w.line}" if w.line is not None else w.path
        return f"{side}{where}: {w.message}"

    return [line(w) for w in report.warnings]


def check(
    config: BudgetConfig,
    report: Report,
    baseline: Report | None,
    path: str = "",
    baseline_path: str | None = None,
    baseline_note: str | None = None,
    allow_incomplete: bool = False,
) -> CheckResult:
    """Judge every budget for every model of ``report``. A budget the profile cannot support
    (:func:`unjudgeable`: a cut, elided or fragmentary table, a run that is not a measurement)
    is inconclusive with the reason, unless ``allow_incomplete``: its figures may be too low to
    pass or too high to fail. The warnings of both reports come first in the result's."""
    from rknnprof.compare import compare_reports, pair_profiles
    from rknnprof.compare.pairing import precision_of

    warnings: list[str] = warning_lines(report)
    if baseline is not None:
        warnings += warning_lines(baseline, "baseline ")
    if baseline_note:
        warnings.append(baseline_note)
    bases_of: dict[int, list[Profile]] = {}
    comparison = None
    if baseline is not None:
        pairs, notes = pair_profiles(baseline.profiles, report.profiles)
        warnings += notes
        for base, cur in pairs:  # (a run of the model in several baseline threads: each)
            bases_of.setdefault(id(cur), []).append(base)
        if pairs:
            comparison = compare_reports(baseline, report, baseline_path or "baseline", path)
            warnings += [w for w in comparison.warnings if w not in warnings]
    verdicts = []
    # (what tells the profiles apart, once: a dynamic-shape model's inputs, a network's builds)
    several_inputs = len({p.input_shapes for p in report.profiles}) > 1
    precisions = [precision_of(p) for p in report.profiles]
    several_builds = len(set(precisions)) > 1
    for k, profile in enumerate(report.profiles):
        label = profile.model_name or profile.source.path
        if len(report.profiles) > 1 and not profile.model_name:
            label = f"{label}#{k + 1}"
        if len(report.profiles) > 1 and profile.stream_label:
            label = f"{label} ({profile.stream_label})"
        if several_inputs and profile.input_shapes:
            # (a dynamic-shape model's profiles: one per input shape)
            label = f"{label} (input {inputs_text(profile.input_shapes)})"
        precision = precisions[k]
        if several_builds and precision:
            label = f"{label} ({precision} build)"  # (one network's INT8 and FP16 builds)
        bases: list[Profile | None] = list(bases_of.get(id(profile), [])) or [None]
        no_base = "no baseline" if baseline is None else "no matching model in the baseline"
        for b in config.budgets:
            # (an increase is judged against every baseline run of the model, each named: the
            # last one paired was the only one, and which it was hung on print order)
            several = b.max_increase is not None and len(bases) > 1
            for against in bases if several else bases[:1]:
                named = f"{label} vs baseline {_run_of(against)}" if several and against else label
                verdicts.append(_verdict(b, profile, against, named, no_base, allow_incomplete))
    return CheckResult(
        path, config.path, baseline_path, tuple(verdicts), tuple(warnings), comparison
    )


def _verdict(
    b: Budget,
    profile: Profile,
    base: Profile | None,
    label: str,
    no_base: str,
    allow_incomplete: bool,
) -> Verdict:
    """One budget's verdict on ``profile`` (against ``base``), or inconclusive with why."""
    why = None if allow_incomplete else unjudgeable(b, profile)
    if why is None and base is not None and b.max_increase is not None:
        base_why = None if allow_incomplete else unjudgeable(b, base)
        if base_why is None and not allow_incomplete:
            base_why = _other_input(base, profile)
        if base_why:  # (the increase is not judged; a max or min of this run still is)
            verdict = judge(b, profile, None, label, f"baseline: {base_why}")
            return replace(verdict, unjudgeable=verdict.status == "inconclusive")
    if why is None:
        return judge(b, profile, base, label, no_base)
    if (over := _warned_over(b, profile, label) or _shown_over(b, profile, label)) is not None:
        return over
    return Verdict(
        status="inconclusive",
        budget=b,
        model=label,
        source_path=profile.source.path,
        message=f"{b.metric}: not judged: {why}; --allow-incomplete judges it anyway",
        unjudgeable=True,
    )


def _warned_over(b: Budget, profile: Profile, label: str) -> Verdict | None:
    """``cpu_fallback_layers`` over its max on a log without a table whose CPU-fallback
    warnings alone name more ops than the max allows (at least that many layers fall back),
    else None: a count too low to pass can still be high enough to fail."""
    if b.metric != "cpu_fallback_layers" or b.max is None or profile.layers:
        return None
    warned = list(
        dict.fromkeys(op for op, why in profile.fallback_warnings if not is_multicore_fallback(why))
    )
    if len(warned) <= b.max:
        return None
    ops = ", ".join(warned[:3]) + (f" +{len(warned) - 3} more" if len(warned) > 3 else "")
    return _at_least(
        b,
        profile,
        label,
        float(len(warned)),
        f"the log warns that {ops} {'falls' if len(warned) == 1 else 'fall'} back to the CPU; "
        "no per-layer table to count them all",
    )


def _at_least(b: Budget, profile: Profile, label: str, value: float, why: str) -> Verdict:
    """A ``max`` broken by a value that is only a lower bound (``metric >= value``), with why
    it is one: fail, or warn at the warning level."""
    assert b.max is not None
    amount = partial(_amount, b.metric)
    return Verdict(
        status="fail" if b.level == "error" else "warn",
        budget=b,
        model=label,
        source_path=profile.source.path,
        message=f"{b.metric} >= {amount(value)}: over max {amount(b.max)} ({why})",
        value=value,
        source_line=profile.source.first_line,
    )


LOWER_BOUND_METRICS = frozenset(
    (
        "total_time_us",
        "npu_time_us",
        "cpu_time_us",
        "layer_time_us",
        "op_type_time_us",
        "cpu_fallback_layers",
    )
)
"""Sums (and counts) over rows: what a table that only misses rows shows of them can only
grow with the rows it leaves out."""
ROWS_LEFT_OUT = frozenset((Coverage.ELIDED, Coverage.FRAGMENT, Coverage.CUT, Coverage.UNKNOWN))
"""Coverages whose rows are all real but some may be missing (not doubled: not damaged)."""


def _shown_over(b: Budget, profile: Profile, label: str) -> Verdict | None:
    """A ``max`` that what a partial table shows already exceeds, else None: on a table that
    only leaves rows out (:data:`ROWS_LEFT_OUT`), from a run that is a measurement with no layer
    stalled, a sum of its rows (:data:`LOWER_BOUND_METRICS`) is at least what it shows, so a
    figure too low to pass can still be high enough to fail (a fragment's exSoftmax13 of
    14,254 us against a max of 3,000 was "not judged")."""
    v = profile.validity
    if (
        b.max is None
        or b.metric not in LOWER_BOUND_METRICS
        or v is None
        or v.coverage not in ROWS_LEFT_OUT
        or not v.is_measurement
        or v.stalled_layer_ids
    ):
        return None
    # the rows shown, never the ranking below them (the whole frame's, or another run's)
    value, _ = metric_value(b, replace(profile, ranking=()))
    if value is None or value <= b.max:
        return None
    words = COVERAGE_WORDS.get(v.coverage, v.coverage.value)
    return _at_least(
        b,
        profile,
        label,
        value,
        f"what the log shows already reaches that: the table is {words} ({v.coverage_reason}), "
        "and the rows it leaves out can only add",
    )


MEDIAN_METRICS = frozenset({"npu_time_us", "cpu_time_us"})
"""Whole-frame metrics read off the layers' times: medians over the frames when merged."""


def _medians_apart(budget: Budget, profile: Profile) -> str | None:
    """A note when ``budget`` reads per-layer medians of frames whose total lines are 1 % or
    more above the medians' sum (frames slow in a different layer each: the medians hide it),
    or None."""
    frame, layers = profile.frame_time_p50_us, profile.total_time_us
    if budget.metric not in MEDIAN_METRICS or profile.frames < 2 or not frame or not layers:
        return None
    if frame - layers < 0.01 * frame:  # (frames no slower than the medians say)
        return None
    return (
        f"per-layer medians over {profile.frames} frames: they sum to {frame_ms(layers)}, the "
        f"median frame takes {frame_ms(frame)} (frames are slow in different layers)"
    )


def _run_of(profile: Profile) -> str:
    """``pid 100 tid 102``, else ``line N``: which of a model's runs a profile is."""
    return profile.stream_label or f"line {profile.source.first_line}"


def _other_input(base: Profile, profile: Profile) -> str | None:
    """Why a baseline at another input shape cannot judge an increase, or None."""
    if (
        not base.input_shapes
        or not profile.input_shapes
        or base.input_shapes == profile.input_shapes
    ):
        return None
    here = inputs_text(profile.input_shapes)
    return f"another input shape ({inputs_text(base.input_shapes)}, this run {here})"


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
    if answered_by_total_line(budget, profile):
        shown += " (the table's total line: the log elides rows, the runtime summed them all)"
    problems: list[str] = []
    notes: list[str] = []
    if why:  # (a figure with a word: an op type the model does not run, at 0 us)
        notes.append(why)
    if (spikes := _medians_apart(budget, profile)) is not None:
        notes.append(spikes)

    inconclusive = ""
    base_value = None
    layers: tuple[str, ...] = ()
    line = None
    if budget.max is not None:
        if value > budget.max:
            problems.append(f"over max {amount(budget.max)}{_cpu_layers(budget, profile)}")
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
                    change += f" ({signed_percent_beside(delta / base_value, budget.max_increase)})"
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
    if budget.metric == "cpu_fallback_layers" and base is not None:
        introduced, untold = introduced_fallbacks(base, profile)
        if introduced:
            layers = tuple(name for name, _ in introduced)
            line = introduced[0][1]
            problems.append(f"CPU fallback introduced: {', '.join(layers)}")
        if untold:
            notes.append(f"whether {untold} CPU layer(s) are new cannot be told: {base_gap(base)}")
    if problems:
        status = "fail" if budget.level == "error" else "warn"
        if inconclusive:  # (a max broken; the increase could not be judged: say so too)
            problems.append(f"max_increase not judged: {inconclusive}")
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


def _cpu_layers(budget: Budget, profile: Profile) -> str:
    """`` (Resize:/model.15/Resize, …)``: the CPU layers a ``cpu_fallback_layers`` count is
    made of, so a reviewer sees which without running ``analyze``; else ``""``."""
    if budget.metric != "cpu_fallback_layers":
        return ""
    names = [
        la.full_name or f"{la.op_type}#{la.id}" for la in profile.layers if is_cpu_fallback(la)
    ]
    if not names:
        return ""
    more = f" +{len(names) - 3} more" if len(names) > 3 else ""
    return f" ({', '.join(names[:3])}{more})"


def introduced_fallbacks(
    base: Profile, current: Profile
) -> tuple[list[tuple[str, int | None]], int]:
    """(layer name, input line) of CURRENT's CPU layers (not I/O) that ran elsewhere in BASE
    or are new; and how many have no counterpart in a BASE that may leave them out (rows
    elided or cut, a ranking or a benchmark alone: :func:`base_gap`), which cannot be told
    new (an elided baseline's Resize read as 'introduced' and failed a clean run)."""
    from rknnprof.compare import align

    gap = base_gap(base) is not None
    # (a baseline's ranking tells an op type that ran on the NPU alone: no CPU time)
    npu_only = {s.op_type for s in base.ranking if s.cpu_time_us == 0 and s.npu_time_us > 0}
    found, untold = [], 0
    for i, j, _ in align(base.layers, current.layers):
        if j is None:
            continue
        cur = current.layers[j]
        if not is_cpu_fallback(cur):
            continue
        if i is None and gap and cur.op_type not in npu_only:
            untold += 1
        elif i is None or base.layers[i].target is not Target.CPU:
            found.append((j, cur.full_name or f"{cur.op_type}#{cur.id}", cur.line))
    return [(name, line) for _, name, line in sorted(found)], untold


def base_gap(base: Profile) -> str | None:
    """Why the baseline may not show every layer (no per-layer table, rows left out), or None."""
    from rknnprof.compare.conditions import rows_left_out

    if not base.layers:
        return "the baseline has no per-layer table"
    left_out = rows_left_out(base)
    return f"the baseline's table may leave layers out ({left_out})" if left_out else None
