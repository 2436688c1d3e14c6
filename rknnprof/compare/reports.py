"""Two analysed reports compared: their models paired (:mod:`~rknnprof.compare.pairing`), every
pair compared. Reading a side (a log or a saved JSON report) is
:func:`rknnprof.api.load_report`'s job, not the comparison's."""

from __future__ import annotations

from rknnprof.compare.advice import AdviceOutcome, check_advice
from rknnprof.compare.conditions import (
    comparability,
    reshaped_layers,
    rows_left_out,
    whole_frame_total,
)
from rknnprof.compare.deltas import (
    LayerDelta,
    OpTypeDelta,
    by_abs_delta,
    layer_deltas,
    op_type_deltas,
    pct_change,
)
from rknnprof.compare.pairing import (
    SAME_MODEL_SHARE,
    model_key,
    pair_profiles,
    precision_of,
    printed_tensors,
)
from rknnprof.errors import InputError
from rknnprof.model import Coverage, Profile, Report, inputs_text
from rknnprof.model.record import Record, record, replace


@record
class ProfileComparison(Record):
    """One model compared between BASE and CURRENT."""

    base_source: str
    current_source: str
    model: str | None
    base_total_us: float | None
    """Per-frame total of BASE, microseconds."""
    current_total_us: float | None
    delta_us: float | None
    """CURRENT − BASE total, microseconds."""
    delta_pct: float | None
    """delta_us / BASE total × 100."""
    differences: tuple[str, ...]
    """Why the two runs may not be like for like, e.g. ``NPU frequency: 1000 MHz vs 800 MHz``."""
    layers: tuple[LayerDelta, ...]
    """Sorted by |delta_us|, largest first."""
    op_types: tuple[OpTypeDelta, ...]
    """Sorted by |delta_us|, largest first."""
    partial_sides: tuple[str, ...] = ()
    """``BASE`` and/or ``CURRENT`` when that run's table leaves rows out (elided, cut): its
    total covers the rows shown, so the total change is not like for like."""
    unjudged: tuple[str, ...] = ()
    """Why the total change is not judged (``--fail-over``, faster/slower), one phrase per
    side and cause: ``CURRENT shows part of the model``, ``BASE's table is damaged``,
    ``CURRENT is not a measurement``; empty when it is judged."""
    llm_rates: tuple[tuple[str, float | None, float | None], ...] = ()
    """RKLLM profiles: (figure, BASE, CURRENT) for ``decode_tokens_per_s``,
    ``prefill_tokens_per_s``, ``init_ms``, ``peak_memory_mb``; empty for other profiles."""
    advice: tuple[AdviceOutcome, ...] = ()
    """BASE's findings that promised a saving, each checked against CURRENT:
    :mod:`rknnprof.compare.advice`."""
    still_advised: tuple[tuple[str, float], ...] = ()
    """CURRENT's own findings that still promise a saving: (rule code, ``est_saving_us`` of its
    first such finding, microseconds), for ``--expect``."""

    @property
    def added(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.status == "added")

    @property
    def removed(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.status == "removed")

    @property
    def not_shown(self) -> tuple[LayerDelta, ...]:
        """Layers only in one run whose other run's log leaves rows out (elided, cut)."""
        return tuple(d for d in self.layers if d.status == "not-shown")

    @property
    def target_changes(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.target_changed)

    @property
    def data_type_changes(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.data_type_changed)

    @property
    def op_type_changes(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.op_type_changed)


@record
class CompareResult(Record):
    """Everything ``rknnprof compare`` found."""

    base_path: str
    current_path: str
    comparisons: tuple[ProfileComparison, ...]
    warnings: tuple[str, ...] = ()
    """Like-for-like differences and unpaired models, one line each."""

    def slowed_by_more_than(self, pct: float) -> list[ProfileComparison]:
        """Comparisons whose total grew by more than ``pct`` percent (a side that shows part
        of the model, whose table is damaged or that is no measurement gives no total change
        to judge: ``unjudged``)."""
        return [
            c
            for c in self.comparisons
            if c.delta_pct is not None and c.delta_pct > pct and not c.unjudged
        ]


# ---- comparing -------------------------------------------------------------------------------


def compare_reports(
    base: Report, current: Report, base_path: str = "BASE", current_path: str = "CURRENT"
) -> CompareResult:
    """Pair the models of the two reports and compare each pair."""
    pairs, notes = pair_profiles(base.profiles, current.profiles)
    # (a dynamic-shape model's profiles: each pair named by its input)
    several = max(len(base.profiles), len(current.profiles)) > 1
    shapes = {p.input_shapes for p in (*base.profiles, *current.profiles)}
    comparisons = tuple(
        _by_input(compare_profiles(b, c), c)
        if several and len(shapes) > 1
        else compare_profiles(b, c)
        for b, c in pairs
    )
    # (and one network's builds at other data types: each pair named by its build)
    if several and len({precision_of(p) for p in (*base.profiles, *current.profiles)}) > 1:
        comparisons = tuple(_by_precision(comp, c) for comp, (_, c) in zip(comparisons, pairs))
    # (one model run by several threads or contexts on a side: each pair named by its run)
    shared = [id(p) for pair in pairs for p in pair]
    # (and several unnamed models: each by its run, so a --fail-over error says which grew)
    comparisons = tuple(
        # (one CURRENT run against several of BASE's: named by BASE's)
        _by_run(comp, b, "against BASE's ")
        if shared.count(id(c)) > 1
        else _by_run(comp, c)
        if shared.count(id(b)) > 1 or comp.model is None and len(pairs) > 1
        else comp
        for comp, (b, c) in zip(comparisons, pairs)
    )
    labels = [comp.model for comp in comparisons]
    comparisons = tuple(  # (benchmarks of models with the same input: their outputs tell them)
        replace(comp, model=f"tensors {tensors}")
        if comp.model and labels.count(comp.model) > 1 and (tensors := printed_tensors(c))
        else comp
        for comp, (_, c) in zip(comparisons, pairs)
    )
    warnings = [*notes]
    for comp, pair in zip(comparisons, pairs):
        label = f"{comp.model}: " if comp.model and len(comparisons) > 1 else ""
        warnings += [f"{label}not like for like: {d}" for d in comp.differences]
        warnings += [
            f"{label}{side}: {p.frames_set_aside} frame(s) set aside (their rows disagree with "
            f"their own total line): its figures are its other {p.frames:,} frames'"
            for side, p in zip(("BASE", "CURRENT"), pair)
            if p.frames_set_aside
        ]
    if not comparisons:
        why = next((n for n in notes if n.startswith("the models cannot be paired")), None)
        raise InputError(
            f"nothing to compare: {why or 'no model appears in both inputs'}", current_path
        )
    return CompareResult(base_path, current_path, comparisons, tuple(warnings))


def _by_input(comp: ProfileComparison, current: Profile) -> ProfileComparison:
    """``comp`` named by its input too: one of a dynamic-shape model's pairs."""
    if not current.input_shapes:
        return comp
    shapes = inputs_text(current.input_shapes)
    name = f"{comp.model} (input {shapes})" if comp.model else f"input {shapes}"
    return replace(comp, model=name)


def _by_precision(comp: ProfileComparison, current: Profile) -> ProfileComparison:
    """``comp`` named by the data types of ``current``'s build too (``INT8/UINT8 build``)."""
    precision = precision_of(current)
    if precision is None:
        return comp
    name = f"{comp.model} ({precision} build)" if comp.model else f"{precision} build"
    return replace(comp, model=name)


def _by_run(comp: ProfileComparison, profile: Profile, whose: str = "") -> ProfileComparison:
    """``comp`` named by the run (thread, context) of ``profile``, one of several of a model
    (``whose``: ``against BASE's `` when ``profile`` is BASE's)."""
    run = whose + (profile.stream_label or f"line {profile.source.first_line}")
    return replace(comp, model=f"{comp.model} ({run})" if comp.model else run)


def compare_profiles(base: Profile, current: Profile) -> ProfileComparison:
    """Compare one model's two runs."""
    b_total, c_total = profile_total(base), profile_total(current)
    delta = c_total - b_total if b_total is not None and c_total is not None else None
    base_partial, current_partial = (
        rows_left_out(base) is not None,
        rows_left_out(current) is not None,
    )
    layers = layer_deltas(base.layers, current.layers, base_partial, current_partial)
    partial_sides = tuple(
        side
        for side, partial, profile in (
            ("BASE", base_partial, base),
            ("CURRENT", current_partial, current),
        )
        if partial and not whole_frame_total(profile)
    )
    differences = comparability(base, current)
    # (a side that leaves rows out can align only the rows it shows)
    shown = [
        len(p.layers) for p, part in ((base, base_partial), (current, current_partial)) if part
    ]
    most = min(shown) if shown else max(len(base.layers), len(current.layers))
    strong = sum(1 for d in layers if d.matched_by in ("full_name", "signature"))
    if base.layers and current.layers and strong < most * SAME_MODEL_SHARE:
        differences.append(
            f"layers: only {strong} of {most} align by FullName or shapes (different models?)"
        )
        # other models: op types in the same order pair none of their layers
        layers = layer_deltas(
            base.layers, current.layers, base_partial, current_partial, by_order=False
        )
    named = [
        (d.base_id, d.current_id)
        for d in layers
        if d.matched_by == "full_name" and d.base_id is not None and d.current_id is not None
    ]
    if (reshaped := reshaped_layers(base, current, named)) is not None:
        differences.append(reshaped)
    if (prompts := other_prompts(base, current)) is not None:
        differences.append(prompts)
    if (steps := few_decode(base, current)) is not None:
        differences.append(steps)
    untimed = [side for side, p in (("BASE", base), ("CURRENT", current)) if p.untimed]
    if untimed:
        logs = (
            "the BASE and CURRENT logs print"
            if len(untimed) == 2
            else f"the {untimed[0]} log prints"
        )
        differences.append(
            f"times: {logs} no Time(us) for the rows: layer and op type times not compared"
        )
    return ProfileComparison(
        base_source=base.source.path,
        current_source=current.source.path,
        model=model_key(current) or model_key(base),
        base_total_us=b_total,
        current_total_us=c_total,
        delta_us=delta,
        delta_pct=pct_change(delta, b_total),
        differences=tuple(differences),
        layers=tuple(by_abs_delta(layers)),
        op_types=tuple(by_abs_delta(op_type_deltas(base, current))),
        partial_sides=partial_sides,
        unjudged=unjudged_sides(base, current, partial_sides)
        + tuple(
            "the runs are of other models (their layers barely align)"
            for d in differences
            if d.startswith("layers: only")
        ),
        llm_rates=llm_rates(base, current),
        advice=check_advice(base, current, layers, differences),
        still_advised=tuple(still_advised(current).items()),
    )


def unjudged_sides(base: Profile, current: Profile, partial: tuple[str, ...]) -> tuple[str, ...]:
    """Why the total change of ``base`` -> ``current`` is not judged (``partial``: the sides
    that show part of the model): a damaged table's total is not the model's (a table printed
    twice sums to twice its frame), a run stalled by a debugger is no measurement, and a side
    with no time per frame (an RKLLM run, a build-time estimate) or a zero one gives no change
    (it passed --fail-over without a word)."""
    out = []
    sides = (("BASE", base), ("CURRENT", current))
    untimed = [side for side, profile in sides if profile_total(profile) is None]
    if untimed:
        what = "neither run gives a" if len(untimed) == 2 else f"{untimed[0]} gives no"
        llm = " (RKLLM: its rates are compared, not gated)" if base.llm or current.llm else ""
        out.append(f"{what} time per frame{llm}")
    elif not profile_total(base):
        out.append("BASE's time per frame is 0")
    for side, profile in sides:
        validity = profile.validity
        if side in partial:
            out.append(f"{side} shows part of the model")
        if validity is not None and validity.coverage is Coverage.DAMAGED:
            out.append(f"{side}'s table is damaged")
        if validity is not None and not validity.is_measurement:
            out.append(f"{side} is not a measurement")
    return tuple(out)


def still_advised(profile: Profile) -> dict[str, float]:
    """Rule code -> the promised saving of the profile's first finding of that rule that
    promises one, microseconds."""
    found: dict[str, float] = {}
    for finding in profile.findings:
        if finding.est_saving_us > 0:
            found.setdefault(finding.code, finding.est_saving_us)
    return found


LLM_FIGURES = ("decode_tokens_per_s", "prefill_tokens_per_s", "init_ms", "peak_memory_mb")


PROMPT_SLACK = 0.1
"""Prompts whose lengths differ by more than this share are not like for like: a prefill's
rate follows its prompt's length (13 tokens at 70.5 tokens/s, 321 at 145.8, one run)."""


def llm_rates(
    base: Profile, current: Profile
) -> tuple[tuple[str, float | None, float | None], ...]:
    """The RKLLM figures of two runs side by side (empty unless both are RKLLM profiles); the
    prefill rate only when both ran prompts of one length (:func:`other_prompts`), the decode
    rate only when both decoded enough steps to judge one (:func:`few_decode`)."""
    if base.llm is None or current.llm is None:
        return ()
    apart = other_prompts(base, current) is not None
    few = few_decode(base, current) is not None
    return tuple(
        (name, getattr(base.llm, name), getattr(current.llm, name))
        for name in LLM_FIGURES
        if not (apart and name.startswith("prefill"))
        and not (few and name == "decode_tokens_per_s")
        and (getattr(base.llm, name) is not None or getattr(current.llm, name) is not None)
    )


def other_prompts(base: Profile, current: Profile) -> str | None:
    """``prompts: 321 vs 196 tokens (…)`` when two RKLLM runs' prompts differ in length by more
    than :data:`PROMPT_SLACK` (or vary within a run), else None."""
    if base.llm is None or current.llm is None:
        return None
    b, c = base.llm.prefill_tokens, current.llm.prefill_tokens
    if b is None and c is None:
        return None
    if b and c and abs(b - c) <= PROMPT_SLACK * max(b, c):
        return None
    return (
        f"prompts: {_prompts(base)} vs {_prompts(current)} tokens (a prefill's rate follows its "
        "prompt's length: prefill not compared)"
    )


def few_decode(base: Profile, current: Profile) -> str | None:
    """``decode: 1 vs 87 steps (…)`` when either RKLLM run decoded too few steps to judge a
    decode rate by (:func:`rknnprof.assemble.llm.few_decode_steps`, RKN090's limit), else None."""
    from rknnprof.assemble.llm import few_decode_steps

    if base.llm is None or current.llm is None:
        return None
    if few_decode_steps(base.llm) is None and few_decode_steps(current.llm) is None:
        return None
    b, c = base.llm.decode_steps, current.llm.decode_steps
    return (
        f"decode: {'?' if b is None else b} vs {'?' if c is None else c} steps (too few to judge "
        "a decode rate: decode not compared)"
    )


def _prompts(profile: Profile) -> str:
    """``321``, or ``13-321`` for a run whose prompts differ more than twofold."""
    from rknnprof.assemble.llm import prompts_vary

    assert profile.llm is not None
    varied = prompts_vary(profile.llm.per_generation)
    return f"{varied[0]}-{varied[1]}" if varied else f"{profile.llm.prefill_tokens or '?'}"


def profile_total(profile: Profile) -> float | None:
    """Per-frame total, microseconds: the model's ``total_time_us`` (the layers' sum, the log's
    total line, or the ranking's rows), the same figure as the JSON's; for a table with rows
    elided, the log's own total line (:func:`whole_frame_total`); for several frames, the
    median frame's (``frame_time_p50_us``): the sum of per-layer medians is no frame's time
    when frames differ in which layer is slow (5 frames of 6,520 us summed to 5,020)."""
    if whole_frame_total(profile):
        return profile.reported_total_time_us
    if profile.frames > 1 and profile.frame_time_p50_us is not None:
        return profile.frame_time_p50_us
    return profile.total_time_us
