"""Presentation facts shared by the human-facing reporters (table, markdown, html).

Nothing here analyses a profile: it only reads what parsers, analysis and rules stored on the
model and phrases it (titles, the summary line, shortened names, shape text, time by bound,
the footer). Sums of already classified times are the only arithmetic. Every wording a user
reads in more than one format lives here, so the terminal, Markdown and HTML reports say the
same thing with the same numbers; the table views (what the layer and op-type tables show)
live in :mod:`rknnprof.reporters._views`.

Reporters import only this module (``from rknnprof.reporters import _facts as F``). The plain
formatters (:mod:`~rknnprof.reporters._text`) and the figures read off the model
(:mod:`~rknnprof.reporters._figures`) live in their own modules and are re-exported here.
"""

from __future__ import annotations

from rknnprof.analysis.figures import FRAME, share_basis
from rknnprof.analysis.validity import unreadable_table
from rknnprof.model import (
    WARNINGS_ONLY_FORMAT,
    Bound,
    BoundBasis,
    ConditionKind,
    Confidence,
    Coverage,
    Finding,
    LlmRun,
    Profile,
    Report,
    ReportWarning,
    Target,
    inputs_text,
)
from rknnprof.platforms import NO_PLATFORM_DATA
from rknnprof.reporters._figures import (
    BOUND_ORDER,
    bound_items,
    cut_short,
    frame_total_us,
    has_layer_times,
    is_benchmark,
    layer_cycles,
    layer_share,
    time_by_bound,
    time_by_target,
    top_layers,
    whole_ranking,
)
from rknnprof.reporters._text import (
    finding_layers_text,
    fmt_cell,
    fmt_pct,
    frame_ms,
    part_us,
    plural,
    shape_text,
    shorten,
    shorten_path,
)

BOUND_LABEL: dict[Bound, str] = {
    Bound.BANDWIDTH: "bandwidth",
    Bound.COMPUTE: "compute",
    Bound.BALANCED: "balanced",
    Bound.CPU: "CPU",
    Bound.UNKNOWN: "unknown",
}


# -- the heading ---------------------------------------------------------------------------------
def span_text(profile: Profile) -> str:
    """``:3-135``, ``:10`` or ``""``: the lines of the input the profile came from."""
    first, last = profile.source.first_line, profile.source.last_line
    if first is None:
        return ""
    return f":{first}" + (f"-{last}" if last is not None and last != first else "")


def stream_text(profile: Profile) -> str:
    """`` · pid 2345 tid 2399`` (``Profile.stream_label``), ``""`` for a log without them."""
    label = profile.stream_label
    return f" · {label}" if label else ""


def profile_title(profile: Profile, width: int | None = None, prefix: str = "") -> str:
    """``prefix`` + ``model (path:first-last)`` or the path with its span, then the logcat
    stream (:func:`stream_text`). With ``width``, the middle of the path is cut so the line
    fits: the file name's end, the span and the stream always show."""

    def build(path: str) -> str:
        where = path + span_text(profile)
        title = f"{profile.model_name} ({where})" if profile.model_name else where
        return prefix + title + stream_text(profile)

    path = profile.source.path
    full = build(path)
    if width is None or len(full) <= width:
        return full
    return build(shorten_path(path, max(len(path) - (len(full) - width), 12)))


def where_text(profile: Profile) -> str:
    """``path:first-last`` without the model name."""
    return profile.source.path + span_text(profile)


# -- what kind of profile ------------------------------------------------------------------------
def kind_note(profile: Profile) -> str:
    """One sentence when the profile is not a measured per-layer table with times, else ``""``."""
    if profile.format == WARNINGS_ONLY_FORMAT:
        return "CPU-fallback warnings only: no per-layer table, no times in the log"
    if not profile.measured:
        return "ESTIMATE: build-time table, not measured on a board"
    if profile.layers:
        return ""
    if profile.llm is not None:
        return llm_summary(profile.llm)
    if is_benchmark(profile):
        return "benchmark runs only: no per-layer table in the log"
    if profile.ranking:
        if cut_short(profile):
            return "op-type ranking only, cut short (no Total row): no per-layer table in the log"
        return "op-type ranking only: no per-layer table in the log"
    if unreadable_table(profile):
        return "no row of the table could be read (see the skipped rows): no layer to judge"
    return "totals only (perf_debug=False?): no per-layer table in the log"


COVERAGE_LABEL: dict[Coverage, str] = {
    Coverage.COMPLETE: "complete",
    Coverage.ELIDED: "rows elided",
    Coverage.FRAGMENT: "a fragment",
    Coverage.CUT: "cut short",
    Coverage.ESTIMATE: "a build-time estimate",
    Coverage.UNKNOWN: "cannot tell if complete",
    Coverage.NO_TABLE: "no table",
    Coverage.DAMAGED: "damaged",
}


def verdict_level(profile: Profile) -> str:
    """``ok``, ``warn`` or ``bad``: how the verdict (``Profile.validity``) is shown;
    ``""`` without one."""
    v = profile.validity
    if v is None:
        return ""
    if not v.is_measurement or v.coverage is Coverage.DAMAGED:
        return "bad"
    concerns = v.stalled_layer_ids or any(c.below_maximum for c in v.conditions)
    return "ok" if v.complete and not concerns else "warn"


def verdict_text(profile: Profile) -> str:
    """One line, shown first by every human report: what the log can support
    (``verdict: NOT A MEASUREMENT: 6 debugger … line(s) inside the run …; nothing is
    priced · table complete``); ``""`` for a profile analysis did not judge."""
    v = profile.validity
    if v is None:
        return ""
    coverage = COVERAGE_LABEL[v.coverage]
    spoiled = [_fact(c.message) for c in v.conditions if c.spoils_timing]
    if spoiled:
        parts = [
            f"NOT A MEASUREMENT ({'; '.join(spoiled)}): nothing is priced",
            f"table {coverage}",
        ]
    else:
        head = coverage if v.complete else coverage.upper()
        parts = [f"{head}: {v.coverage_reason}"]
        if v.coverage is Coverage.DAMAGED:  # (rules price nothing of it: rules/__init__.py)
            parts[0] += ": nothing is priced"
    if v.stalled_layer_ids:
        parts.append(f"{plural(len(v.stalled_layer_ids), 'stalled layer')} not priced")
    for condition in v.conditions:
        if condition.below_maximum:
            parts.append(_fact(condition.message))
        elif condition.kind is ConditionKind.NO_READING:
            parts.append(condition.message)
        elif condition.kind in (
            ConditionKind.VARYING,
            ConditionKind.EVAL_MEM,
            ConditionKind.COLD_RUN,
        ):
            parts.append(_fact(condition.message))
    return "verdict: " + " · ".join(parts)


def _fact(message: str) -> str:
    """What the log shows, without what it means: a ``RunCondition.message`` up to its first
    ``": "``."""
    return message.split(": ", 1)[0]


_LISTED_GENERATIONS = 5


def llm_summary(run: LlmRun) -> str:
    """RKLLM statistics in one line: with one generation its figures; with several the median
    of each figure, said so (not the prefill's when the prompts' lengths differ over 2x: its
    rate and time follow the length), then each generation's own (the first five)."""

    def rate(value: float | None) -> str:
        return f"{value:,.2f} tokens/s" if value is not None else "rate unknown"

    def stages(
        prefill: tuple[int | None, float | None],
        decode: tuple[int | None, float | None],
        ttft: float | None,
    ) -> list[str]:
        parts = []
        if prefill[0] is not None:
            parts.append(f"prefill {prefill[0]} tokens at {rate(prefill[1])}")
        if ttft is not None:
            parts.append(f"first token {ttft:,.0f} ms into rkllm_run")
        if decode[0] is not None:
            parts.append(f"decode {decode[0]} tokens at {rate(decode[1])}")
        return parts

    extras = []
    if run.init_ms is not None:
        extras.append(f"init {run.init_ms:,.0f} ms")
    if run.peak_memory_mb is not None:
        mb = run.peak_memory_mb
        extras.append(
            f"peak memory {mb / 1024:.2f} GB" if mb >= 1024 else f"peak memory {mb:,.0f} MB"
        )
    if run.generations <= 1 or not run.per_generation:
        parts = stages(
            (run.prefill_tokens, run.prefill_tokens_per_s),
            (run.decode_steps, run.decode_tokens_per_s),
            run.ttft_ms,
        )
        body = ", ".join([*parts, *extras])
        return f"RKLLM statistics (1 generation): {body}" if body else "RKLLM statistics"
    medians = []
    prompts = [g.prefill_tokens for g in run.per_generation if g.prefill_tokens]
    if prompts and max(prompts) > 2 * min(prompts):
        # a prefill's rate and time follow its prompt's length: no median of them
        medians.append(f"prompts of {min(prompts)}-{max(prompts)} tokens (prefill per generation)")
    else:
        if run.prefill_tokens_per_s is not None:
            medians.append(f"prefill {rate(run.prefill_tokens_per_s)}")
        if run.ttft_ms is not None:
            medians.append(f"first token {run.ttft_ms:,.0f} ms into rkllm_run")
    if run.decode_tokens_per_s is not None:
        medians.append(f"decode {rate(run.decode_tokens_per_s)}")
    text = f"RKLLM statistics, median of {run.generations} generations: "
    text += ", ".join([*medians, *extras])
    for i, g in enumerate(run.per_generation[:_LISTED_GENERATIONS], start=1):
        own = stages(
            (g.prefill_tokens, g.prefill_tokens_per_s),
            (g.generate_tokens, g.decode_tokens_per_s),
            g.ttft_ms,
        )
        text += f"; generation {i} (line {g.line}): " + ", ".join(own)
    if run.generations > _LISTED_GENERATIONS:
        text += f"; {run.generations - _LISTED_GENERATIONS} more in the JSON"
    return text


# -- the summary ---------------------------------------------------------------------------------
def platform_text(profile: Profile) -> str:
    if not profile.platform:
        return "platform unknown"
    name = profile.platform.upper()
    basis = profile.platform_basis or ""
    if basis.endswith(NO_PLATFORM_DATA):
        return f"{name} {NO_PLATFORM_DATA}"
    return f"{name} (guessed)" if basis.startswith("guess") else name


def benchmark_parts(profile: Profile) -> list[str]:
    """``avg 27.83 ms per run`` · ``35.93 FPS`` · ``3 runs 27.55-28.02 ms`` · ``1 warm-up``."""
    bench = profile.benchmark
    if bench is None:
        return []
    runs, warmups = bench.run_times_ms, bench.warmup_times_ms
    parts = []
    if bench.avg_time_ms is not None:
        parts.append(f"avg {frame_ms(bench.avg_time_ms * 1000)} per run")
    elif runs and profile.reported_total_time_us is not None:
        parts.append(f"median {frame_ms(profile.reported_total_time_us)} per run")
    if bench.avg_fps is not None:
        parts.append(f"{bench.avg_fps:g} FPS")
    if runs:
        parts.append(f"{plural(len(runs), 'run')} {_ms_range(runs)}")
    if warmups and (runs or bench.avg_time_ms is not None):
        parts.append(f"{len(warmups)} warm-up")
    elif warmups:
        parts.append(
            f"{len(warmups)} warm-up runs {_ms_range(warmups)}; the timed runs are not in the log"
        )
    return parts


def _ms_range(runs_ms: tuple[float, ...] | list[float]) -> str:
    """``27.55-28.02 ms``: the fastest and slowest of some runs given in milliseconds."""
    low, high = frame_ms(min(runs_ms) * 1000), frame_ms(max(runs_ms) * 1000)
    return low if low == high else f"{low.removesuffix(' ms')}-{high}"


def _total_part(profile: Profile) -> str:
    total, reported = profile.total_time_us, profile.reported_total_time_us
    if cut_short(profile):
        return f"rows shown sum to {frame_ms(total)}"
    if profile.layers and not has_layer_times(profile):
        if not profile.measured:
            cycles = sum(layer_cycles(la) or 0 for la in profile.layers)
            return f"est. {cycles:,} cycles" if cycles else ""
        return f"total {frame_ms(reported)} (log)" if reported is not None else ""
    if total is None:
        return ""
    label = "est. total" if not profile.measured else "total"
    v = profile.validity
    if (
        v is not None
        and not v.complete
        and (profile.layers and reported is None or not profile.layers and profile.ranking)
    ):
        # no total line, or a ranking cut before its Total row: not the frame's time
        return f"rows shown sum to {frame_ms(total)}"
    if profile.layers and reported is not None and frame_ms(reported) != frame_ms(total):
        if profile.elided_rows and reported > total:
            return f"rows shown {frame_ms(total)} of the log's {frame_ms(reported)} (rows elided)"
        if profile.frames > 1:  # (the sum of per-layer medians is no frame's own time)
            return (
                f"{label} {frame_ms(total)} (per-layer medians; median frame {frame_ms(reported)})"
            )
        return f"{label} {frame_ms(total)} (its total line {frame_ms(reported)})"
    return f"{label} {frame_ms(total)}"


def summary_parts(profile: Profile) -> list[str]:
    """The one-second summary: platform, total (or benchmark runs), NPU/CPU split, input."""
    parts = [platform_text(profile)]
    if is_benchmark(profile):
        return parts + benchmark_parts(profile)
    if not profile.layers and profile.frames > 1:
        parts.append(plural(profile.frames, "generation" if profile.llm else "frame"))
    total = _total_part(profile)
    if total:
        parts.append(total)
    if cut_short(profile):
        parts.append(f"frame ~{frame_ms(frame_total_us(profile))} by TimeRatio")
    if profile.benchmark is not None and profile.benchmark.avg_fps is not None:
        parts.append(f"{profile.benchmark.avg_fps:g} FPS")
    split = target_split(profile)
    if split:
        parts.append(split)
    inputs = input_text(profile)
    if inputs:
        parts.append(inputs)
    types = data_types_text(profile)
    if types:
        parts.append(types)
    return parts


def data_types_text(profile: Profile) -> str:
    """``INT8/UINT8 on the NPU``, or ``INT8 82% / FLOAT16 18% of NPU time`` (by layers when the
    table has no times): the precision the NPU ran at (``Profile.npu_precisions``), which tells
    one network's INT8 and FP16 builds apart."""
    named = profile.npu_precisions
    if not named:
        return ""
    if profile.elided_rows:  # (the rows shown only: an elided table's other rows may differ)
        return f"{', '.join(name for name, _, _ in named)} on the NPU in the rows shown"
    if len(named) == 1:
        return f"{named[0][0]} on the NPU"
    total = sum(time for _, time, _ in named)
    if not total:
        layers = " / ".join(f"{name} ({plural(n, 'layer')})" for name, _, n in named)
        return f"{layers} on the NPU"
    shares = " / ".join(f"{name} {fmt_pct(time / total)}" for name, time, _ in named)
    return f"{shares} of NPU time"


def input_text(profile: Profile) -> str:
    """``input 1x3x640x640`` (``inputs a, b``): the InputOperator rows' shapes, which tell a
    dynamic-shape model's profiles apart; ``""`` without such a row."""
    text = inputs_text(profile.input_shapes)
    if not text:
        return ""
    return f"input{'s' if ', ' in text else ''} {text}"


def target_split(profile: Profile) -> str:
    """``NPU 72.3% / CPU 27.7%`` over the layers; ``""`` when no layer's target is known. When
    the table elides rows, the split of the whole frame by the log's complete ranking table, or
    else said to be the rows shown."""
    if profile.layers and profile.elided_rows and whole_ranking(profile):
        return _ranking_split(profile)
    total = profile.total_time_us
    by_target = time_by_target(profile)
    known = [t for t in (Target.NPU, Target.CPU, Target.GPU) if by_target.get(t)]
    if not profile.layers or not total or not known:
        return ""
    shown = [*known, Target.UNKNOWN] if by_target.get(Target.UNKNOWN) else known
    split = " / ".join(
        f"{'target unknown' if t is Target.UNKNOWN else t.value} {fmt_pct(by_target[t] / total)}"
        for t in shown
    )
    return f"{split} of the rows shown" if profile.elided_rows else split


def _ranking_split(profile: Profile) -> str:
    """``NPU 99.3% / CPU 0.7% by the ranking``: the ranking's time columns over its total."""
    stats = profile.ranking
    total = sum(s.total_time_us for s in stats)
    if not total:
        return ""
    parts = [
        (label, sum(getattr(s, attr) for s in stats))
        for attr, label in (
            ("npu_time_us", "NPU"),
            ("cpu_time_us", "CPU"),
            ("gpu_time_us", "GPU"),
            ("unknown_time_us", "target unknown"),
        )
    ]
    shown = [(label, us) for label, us in parts if us or label in ("NPU", "CPU")]
    return " / ".join(f"{label} {fmt_pct(us / total)}" for label, us in shown) + " by the ranking"


def frames_text(profile: Profile) -> str:
    """``3 frames (per-layer medians) · p50 27.91 ms · p90 28.00 ms``; ``""`` for one frame."""
    if profile.frames <= 1 or not profile.layers:
        return ""
    text = f"{profile.frames} frames (per-layer medians)"
    p50, p90 = profile.frame_time_p50_us, profile.frame_time_p90_us
    if p50 is not None and p90 is not None:
        text += f" · frame p50 {frame_ms(p50)} · p90 {frame_ms(p90)}"
    return text


def bound_head(profile: Profile) -> str:
    """The bound line's head: ``bound:``, or ``bound of the rows shown:`` when the table elides
    rows (the bound needs each layer's cycles: the rows not printed have none)."""
    return "bound of the rows shown:" if profile.elided_rows else "bound:"


def bound_parts(profile: Profile) -> list[str]:
    """``compute 62.6%`` … (see :func:`bound_items`)."""
    return [f"{BOUND_LABEL[b]} {fmt_pct(share)}" for b, share in bound_items(profile)]


def gaps_note(profile: Profile) -> str:
    """What the log does not say that the summary would otherwise show, or ``""``."""
    if not has_layer_times(profile):
        return ""
    no_target = all(la.target is Target.UNKNOWN for la in profile.layers)
    no_bound = all(la.bound is Bound.UNKNOWN for la in profile.layers)
    if no_target and no_bound:
        return "no Target or cycle columns in this log: no NPU/CPU split, no bound"
    if no_target:
        return "no Target column in this log: no NPU/CPU split"
    if no_bound and any(la.bound_basis is BoundBasis.NO_NPU_CYCLES for la in profile.layers):
        return (
            "no layer could be classified (NPU cycles 0: the compiler counted these layers' "
            "bytes, not their work)"
        )
    if no_bound:
        return "no layer could be classified (no cycles, no DDR bandwidth to judge RW against)"
    return ""


CLOCK_SOURCE = {
    "log": "the log's NPU clock",
    "fixed-frequency-script": "assumed: scaling_frequency.sh's",
    "datasheet": "assumed: the datasheet maximum",
}
"""How the details line names where ``Profile.npu_clock`` comes from."""


def clock_text(profile: Profile) -> str:
    """``cycles at 1000 MHz (assumed: scaling_frequency.sh's)``: the clock the layers' cycles
    were turned into time at, when any layer's were (an assumption unless the log printed it);
    ``""`` otherwise."""
    clock = profile.npu_clock
    if clock is None or all(la.cycles_explained is None for la in profile.layers):
        return ""
    return f"cycles at {clock.mhz:g} MHz ({CLOCK_SOURCE.get(clock.basis, clock.basis)})"


def details_text(profile: Profile) -> str:
    """``toolkit2-perf-table · cycles at 1000 MHz (assumed: scaling_frequency.sh's) · runtime
    2.3.2``:
    input family, the NPU clock of the cycles, and versions."""
    parts = (profile.format, clock_text(profile), versions_text(profile))
    return " · ".join(p for p in parts if p)


def versions_text(profile: Profile) -> str:
    """``runtime 2.3.2 · driver 0.9.8`` from the versions the log names, or ``""``."""
    return " · ".join(f"{label} {value}" for label, value in profile.versions.named())


# -- advice --------------------------------------------------------------------------------------
def advice_head(profile: Profile) -> str:
    """``Advice: 6 findings, up to 39.78 ms at stake (an upper bound, no layer counted twice)``:
    ``Profile.potential_saving_us``, the findings combined per layer."""
    head = f"Advice: {plural(len(profile.findings), 'finding')}"
    stake = profile.potential_saving_us
    return head + (
        f", up to {frame_ms(stake)} at stake (an upper bound, no layer counted twice)"
        if stake
        else ""
    )


def evidence_text(finding: Finding) -> str:
    """``evidence (medium): <basis>; throughput: up to 3x the frames per second (<bound>)``:
    what a saving rests on and how well, and a throughput gain kept apart from latency;
    ``""`` when the finding claims neither (a caveat)."""
    parts = []
    if finding.basis and finding.est_saving_us:
        parts.append(f"evidence ({finding.confidence.value}): {finding.basis}")
    gain = finding.throughput_gain
    if gain is not None:
        parts.append(f"throughput: up to {gain.factor:g}x the frames per second ({gain.bound})")
    return "; ".join(parts)


def saving_text(finding: Finding, profile: Profile) -> str:
    """``saves ~2,835 us (24.4%)`` (share of :func:`frame_total_us`; ``(24.4% of the rows
    shown)`` when that is only a fragment's rows, :func:`share_basis`), or ``""``."""
    if not finding.est_saving_us:
        return ""
    frame = frame_total_us(profile)
    of = "" if share_basis(profile) == FRAME else f" {share_basis(profile)}"
    share = f" ({fmt_pct(finding.est_saving_us / frame)}{of})" if frame else ""
    return f"saves ~{part_us(finding.est_saving_us)}{share}"


def biggest_win(profile: Profile) -> str:
    """``biggest win: RKN070 activation-swap saves ~5,689 us (20.3%), advice 1``: the first
    finding of the ranking when it saves time, else ``""``. The line a newcomer reads first;
    ``(low confidence: an assumption)`` before ``advice 1`` when its estimate is one."""
    top = profile.findings[0] if profile.findings else None
    if top is None or not top.est_saving_us:
        return ""
    # (a low-confidence estimate rests on an assumption: the headline says so, as its card does)
    low = " (low confidence: an assumption)" if top.confidence is Confidence.LOW else ""
    return f"biggest win: {top.code} {top.name} {saving_text(top, profile)}{low}, advice 1"


# -- footer --------------------------------------------------------------------------------------
def warnings_for(report: Report, profile: Profile) -> list[ReportWarning]:
    """The report's warnings about this profile's source, without those that only repeat a
    skipped row (the footer lists the row itself)."""
    skipped = {row.line for row in profile.skipped_rows}
    return [
        w
        for w in report.warnings
        if w.path == profile.source.path
        and not (w.line in skipped and w.message.startswith("skipped row"))
    ]


def footer_head(report: Report, profile: Profile) -> str:
    """``1 skipped row · 2 warnings``; the parts that are not zero, ``""`` when both are (a
    clean log gets no footer: "0 skipped rows · 0 warnings" on every report was noise)."""
    counts = [
        (len(profile.skipped_rows), "skipped row"),
        (len(warnings_for(report, profile)), "warning"),
    ]
    return " · ".join(plural(n, word) for n, word in counts if n)


__all__ = [
    "BOUND_LABEL",
    "BOUND_ORDER",
    "advice_head",
    "benchmark_parts",
    "biggest_win",
    "bound_items",
    "bound_head",
    "bound_parts",
    "evidence_text",
    "cut_short",
    "clock_text",
    "details_text",
    "finding_layers_text",
    "fmt_cell",
    "fmt_pct",
    "frame_ms",
    "footer_head",
    "frame_total_us",
    "frames_text",
    "gaps_note",
    "has_layer_times",
    "is_benchmark",
    "kind_note",
    "verdict_level",
    "verdict_text",
    "layer_cycles",
    "layer_share",
    "part_us",
    "platform_text",
    "plural",
    "profile_title",
    "saving_text",
    "shape_text",
    "shorten",
    "shorten_path",
    "span_text",
    "stream_text",
    "summary_parts",
    "data_types_text",
    "target_split",
    "time_by_bound",
    "time_by_target",
    "top_layers",
    "whole_ranking",
    "versions_text",
    "warnings_for",
    "where_text",
]
