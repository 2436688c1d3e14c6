"""The verdict on what a profile's log can support (``Profile.validity``), computed once here.

* **coverage** (:func:`coverage_of`): how much of one inference the table holds, from what
  parsing and assembly recorded on the profile (the format, ``measured``, ``headerless``,
  ``elided_rows``, ``incomplete``, the skipped rows, the ranking's TimeRatio column) and from
  the table checked against itself (:mod:`rknnprof.analysis.consistency`: IDs that repeat or
  jump, rows that disagree with their own total line or with the ranking);
* **conditions of the run** (:func:`conditions_of`): the per-layer instrumentation, the clocks
  the log prints held against the SoC's maximum, debugger / trace / dump lines inside the run,
  eval_mem, frames that vary more than the noise, and stalled layers;
* **stalled layers** (:func:`stalled_layers`): a layer whose time is tens of times what its
  cycles at the NPU clock explain was held up, not slow.

Rules, the gate, compare and every reporter read the verdict; none judges the log again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rknnprof.analysis.clock import plausible_clock
from rknnprof.analysis.consistency import (
    check_ranking,
    elided_ranking_gap,
    id_problems,
    ranking_cut,
    total_disagreement,
)
from rknnprof.analysis.optypes import ranking_cut_short
from rknnprof.assemble.inferences import RANKING_RATIO_SLACK, RANKING_ROW_ROUNDING
from rknnprof.model import (
    WARNINGS_ONLY_FORMAT,
    ConditionKind,
    Coverage,
    Layer,
    Profile,
    RunCondition,
    Validity,
)
from rknnprof.parsers.ranking import TIME_TOLERANCE_US

if TYPE_CHECKING:
    from rknnprof.platforms import Platform

STALL_RATIO = 50.0
"""A layer whose cycles at the clock explain under 1/50 of its time was stalled, not slow (the
issue's debugger capture: a 1x1 conv at 549x). Clean public tables reach 16x (corpus 11, a
224 us conv of 14,400 cycles), hand-written fixtures 35x: "tens of times" starts well above.
"""
BYTES_ONLY_STALL_RATIO = 1000.0
"""...or a thousand times, for a layer whose cycles count only its bytes (NPU cycles under
1/:data:`BYTES_ONLY_SHARE` of its DDR cycles). The slowest such rows of public logs: 387x (an
exSoftmax13 of a DFL head, yolov10#115) and 105x (a Transpose beside it)."""
BYTES_ONLY_SHARE = 100
IMPOSSIBLE_SHARE = 10.0
"""A layer whose cycles at the NPU clock take ten times its time (on one core; as many times
more as the cores its WorkLoad spreads it over) ran faster than the NPU can: a value damaged.
Clean public tables reach 2x (corpus 08's FP16 side file: its clock is not the log's)."""
MIN_STALL_US = 200.0
"""...and whose unexplained time is at least this, microseconds: a small op's fixed cost (task
submission, tens of microseconds) is not a stall."""
VARYING_SPREAD = 0.10
"""Frames vary more than the noise when their p90 exceeds their median by more than 10 %."""
MIN_CLOCK_RATIO = 0.95
"""A clock under 95 % of the SoC's maximum was not fixed at the top (the same ratio as RKN050's
``min_freq_ratio``)."""
CSV_FAMILY = "toolkit2-eval_perf-csv"
TOOLKIT1_FAMILY = "toolkit1-perf-table"
TOTALS_FAMILIES = frozenset({"eval_perf-totals", "benchmark", "rkllm-runtime"})
"""Formats without rows: a whole-run figure is all they claim."""


def compute_validity(
    profile: Profile, platform: Platform | None = None, clock_mhz: float | None = None
) -> Validity:
    """The verdict on an analysed ``profile`` (layers classified, ``op_stats`` aggregated);
    ``clock_mhz`` is the NPU clock cycles are turned into time with (None: stalls unknown)."""
    coverage, reason = coverage_of(profile)
    stalled = stalled_layers(profile, clock_mhz)
    return Validity(
        coverage=coverage,
        coverage_reason=reason,
        conditions=tuple(conditions_of(profile, platform, stalled)),
        stalled_layer_ids=tuple(layer.id for layer in stalled),
    )


def coverage_of(profile: Profile) -> tuple[Coverage, str]:
    """(coverage, one line saying why) of the profile's table."""
    rows = len(profile.layers)
    if profile.format == WARNINGS_ONLY_FORMAT:
        return Coverage.NO_TABLE, "the log holds CPU-fallback warnings, no times"
    if not profile.measured:
        cycles = [la.npu_cycles for la in profile.layers if la.npu_cycles is not None]
        what = (
            "compiler cycles, no measured time"
            if any(cycles)
            else "op placement only (every cycle count 0), no time"
            if cycles
            else "op placement only, no cycles or time"
        )
        # (the verdict line puts the coverage first: "A BUILD-TIME ESTIMATE: 3 rows of …")
        return Coverage.ESTIMATE, f"{rows} rows of {what}"
    doubled = _doubled(profile)
    if doubled is not None and (profile.format == CSV_FAMILY or profile.headerless):
        return Coverage.DAMAGED, doubled  # (rows doubled: no sum of them is a lower bound)
    if profile.format == CSV_FAMILY:
        return Coverage.UNKNOWN, (
            f"the eval_perf CSV side file prints no total line: cannot tell whether its {rows} "
            "rows are all of the model"
        )
    if profile.headerless:
        return Coverage.FRAGMENT, (
            f"{rows} rows without the table's header"
            + ("" if profile.reported_total_time_us is not None else " and without a total line")
            + ": a fragment of a table"
        )
    damage = _damage(profile)
    if damage is not None:
        return Coverage.DAMAGED, damage
    gap = _gap(profile)
    if gap is not None:
        return Coverage.ELIDED, gap
    cut = _cut(profile)
    if cut is not None:
        return Coverage.CUT, cut
    if unreadable_table(profile):
        first = profile.skipped_rows[0]
        return Coverage.DAMAGED, (
            f"none of the table's rows could be read ({len(profile.skipped_rows)} skipped, "
            f"the first at line {first.line}: {first.reason})"
        )
    if profile.format in TOTALS_FAMILIES or not (profile.layers or profile.ranking):
        return Coverage.COMPLETE, "a whole-run figure, no per-layer table"
    if profile.layers and profile.reported_total_time_us is None:
        return Coverage.FRAGMENT, f"{rows} rows and no total line to hold them to"
    if profile.layers and all(layer.time_us is None for layer in profile.layers):
        return Coverage.COMPLETE, (
            f"{rows} rows without per-layer times (the table's total line says "
            f"{profile.reported_total_time_us:,.0f} us)"
        )
    if profile.layers and profile.reported_total_line is None:
        return Coverage.COMPLETE, (
            f"{rows} rows, agreeing with the ranking's Total row (the table's total line is "
            f"missing){_set_aside(profile)}"
        )
    if profile.layers:
        return Coverage.COMPLETE, (
            f"{rows} rows, agreeing with the table's own total line{_set_aside(profile)}"
        )
    return Coverage.COMPLETE, f"{len(profile.ranking)} op types, their TimeRatio adding up"


def unreadable_table(profile: Profile) -> bool:
    """A per-layer table whose every row was skipped (a header of one SDK over rows of
    another, cells no layout prints): no layer, and no whole-run figure either."""
    return (
        not profile.layers
        and not profile.ranking
        and bool(profile.skipped_rows)
        and profile.format not in TOTALS_FAMILIES
    )


def _set_aside(profile: Profile) -> str:
    """What of a capture's frames was left out of the merge, or counted once, for the
    coverage's reason."""
    aside, repeated = profile.frames_set_aside, profile.frames_repeated
    said = (
        f" in {profile.frames:,} of {profile.frames + aside:,} frames ({aside} set aside: "
        "rows that disagree with their own total)"
        if aside
        else ""
    )
    if repeated:
        said += f" ({repeated:,} frame(s) printed again, counted once)"
    return said


def _doubled(profile: Profile) -> str | None:
    """Why the rows hold a row twice (an ID that repeats or goes back), or None."""
    repeats = [message for kind, _, message in id_problems(profile) if kind in ("repeat", "back")]
    if not repeats:
        return None
    more = f" (and {len(repeats) - 1} more)" if len(repeats) > 1 else ""
    return f"{repeats[0]}{more}: a row duplicated or a table printed twice under one header"


def _damage(profile: Profile) -> str | None:
    """Why the rows contradict themselves or the total line, or None."""
    if (doubled := _doubled(profile)) is not None:
        return doubled
    # (merged frames: each frame was held to its own total line as it was read, and one that
    # disagreed is in ``incomplete`` below; the sum of per-layer medians is no frame's sum when
    # frames differ in which layer is slow)
    disagreement = total_disagreement(profile) if profile.frames <= 1 else None
    if disagreement is not None:
        total, reported = disagreement
        return (
            f"the rows sum to {total:,.0f} us but the log's total line says {reported:,.0f} us: "
            "rows damaged, missing or duplicated"
        )
    if not profile.layers and profile.ranking:
        counts = Counter(s.op_type for s in profile.ranking)
        twice = [op for op, n in counts.items() if n > 1]
        if twice:
            more = f" (and {len(twice) - 1} more)" if len(twice) > 1 else ""
            return (
                f"op type {twice[0]} is ranked twice{more}: a ranking printed twice or a row "
                "duplicated (its rows sum to more than its frame)"
            )
    if profile.incomplete is not None and "disagree" in profile.incomplete:
        return profile.incomplete
    if not profile.layers and profile.ranking:
        if (apart := _ranking_row_apart(profile)) is not None:
            return apart
        shares = [s.share for s in profile.ranking]
        most = 1 + RANKING_RATIO_SLACK + RANKING_ROW_ROUNDING * len(shares)
        if all(x is not None for x in shares) and sum(shares) > most:  # type: ignore[arg-type]  # checked
            return (
                f"the ranking's TimeRatio column adds up to {sum(shares):.1%} "  # type: ignore[arg-type]  # checked
                "of one frame: a value damaged"
            )
    if (faster := _faster_than_cycles(profile)) is not None:
        return faster
    if (over := _over_a_whole(profile)) is not None:
        return over
    timed = [la.time_us for la in profile.layers if la.time_us is not None]
    if timed and not any(timed) and not profile.reported_total_time_us:
        line = " and so does the total line" if profile.reported_total_time_us == 0 else ""
        return f"every row reads 0 us{line}: no time was measured"
    if check_ranking(profile, profile.op_stats):
        return "the ranking table disagrees with the layers above it"
    if (gap := elided_ranking_gap(profile)) is not None:
        return f"the ranking table cannot be the elided table's above it ({gap})"
    return None


def _faster_than_cycles(profile: Profile) -> str | None:
    """Why a layer ran faster than its own cycles allow at the NPU clock (beyond
    :data:`IMPOSSIBLE_SHARE`), or None."""
    for layer in profile.layers:
        share, time = layer.cycles_explained, layer.time_us
        # (DDR cycles alone count the bytes the compiler would move: a Reshape that is a view
        # moves none of them, in a microsecond)
        bytes_only = (layer.npu_cycles or 0) * BYTES_ONLY_SHARE < (layer.ddr_cycles or 0)
        if share is None or not time or bytes_only:
            continue
        cores = max(1, sum(1 for load in layer.workload_pct or () if load > 0))
        # (a time printed to the microsecond may have been half a microsecond longer)
        if share * time / (time + 0.5) > IMPOSSIBLE_SHARE * cores:
            cycles = max(layer.ddr_cycles or 0, layer.npu_cycles or 0)
            return (
                f"layer #{layer.id} {layer.op_type}: {cycles:,} cycles in {time:,.0f} us, "
                f"{share:,.0f}x faster than its cycles at the NPU clock allow: a value damaged"
            )
    return None


SHARE_ROUNDING = 0.5
"""How far a printed share (WorkLoad, MacUsage) may pass 100 % by its rounding: 0.1 % a core,
three cores (``33.3%/33.3%/33.4%``), with room."""


def _over_a_whole(profile: Profile) -> str | None:
    """Why a layer's shares pass 100 %: its WorkLoad cores add up to more than the layer, or a
    MacUsage above the MACs there are (clean public tables: WorkLoad 99.9 or 100, MacUsage 84 at
    most); else None."""
    for layer in profile.layers:
        load = sum(layer.workload_pct or ())
        if load > 100 + SHARE_ROUNDING:
            return (
                f"layer #{layer.id} {layer.op_type}: its WorkLoad adds up to {load:.1f}% of the "
                "layer: a value damaged"
            )
        mac = layer.mac_usage_pct
        if mac is not None and mac > 100 + SHARE_ROUNDING:
            return (
                f"layer #{layer.id} {layer.op_type}: MacUsage {mac:g}%, above every MAC there "
                "is: a value damaged"
            )
    return None


def _ranking_row_apart(profile: Profile) -> str | None:
    """Why a ranking row's CPU, GPU and NPU times do not make its TotalTime (beyond the
    rounding of a printed 2e+06), or None."""
    for s in profile.ranking:
        parts = s.cpu_time_us + s.gpu_time_us + s.npu_time_us
        # (the parser's tolerance, and a 2e+06's six printed digits)
        if abs(parts - s.total_time_us) > max(TIME_TOLERANCE_US, 1e-5 * s.total_time_us):
            return (
                f"ranking row {s.op_type}: CPU + GPU + NPU time is {parts:,.0f} us but its "
                f"TotalTime says {s.total_time_us:,.0f} us: a value damaged"
            )
    return None


def _gap(profile: Profile) -> str | None:
    """Why rows are known to be left out (elision lines, IDs that jump), or None."""
    if profile.elided_rows:
        total = profile.reported_total_time_us
        of = f", of a total line of {total:,.0f} us" if total is not None else ""
        return (
            f"the log elides rows ({profile.elided_rows} elision line(s)): "
            f"{len(profile.layers)} rows shown{of}"
        )
    skips = [message for kind, _, message in id_problems(profile) if kind == "skip"]
    if skips:
        more = f" (and {len(skips) - 1} more)" if len(skips) > 1 else ""
        return f"{skips[0]}{more}: rows are missing"
    return None


def _cut(profile: Profile) -> str | None:
    """Why the table stops mid-way, or None."""
    if profile.incomplete is not None:
        return profile.incomplete
    if profile.format == TOOLKIT1_FAMILY and profile.reported_total_time_us is None:
        return (
            f"{len(profile.layers)} rows and no `Total Time(us):` line after them: the log is cut"
        )
    bench = profile.benchmark
    if (
        bench is not None
        and bench.warmup_times_ms
        and not bench.run_times_ms
        and bench.avg_time_ms is None
        and bench.avg_fps is None
    ):
        return (
            f"the log ends after {len(bench.warmup_times_ms)} warm-up run(s), before the timed "
            "runs: the figures are the warm-up's"
        )
    if not profile.layers and ranking_cut_short(profile.ranking):
        return (
            f"the ranking's TimeRatio column adds up to well under 100 % over its "
            f"{len(profile.ranking)} row(s): the ranking is cut"
        )
    last = profile.source.last_line
    if profile.skipped_rows and last is not None and profile.skipped_rows[-1].line >= last:
        if profile.frames > 1 and profile.ranking_line is not None:
            # the last frame's ranking, cut by the end of the log: the profile keeps the first
            # frame's (a last frame cut inside its table is dropped when frames are merged)
            return None
        if ranking_cut(profile):
            return None  # the ranking after the table's total line is cut: the table is whole
        return f"its last row is cut short (line {profile.skipped_rows[-1].line})"
    return None


def stalled_layers(profile: Profile, clock_mhz: float | None) -> list[Layer]:
    """Layers whose time is tens of times what their cycles at the clock explain (and at least
    :data:`MIN_STALL_US` more): stalled, not slow. A row of DDR cycles alone
    (``53032/0/53032``: a Transpose, a Reshape, an exSoftmax13 on the NPU) counts the bytes the
    compiler moves, not the work, and such layers are often slow for real (the DFL head of a
    detector, 14 ms of exSoftmax13 over 36,800 DDR cycles: 387x): it is held to
    :data:`BYTES_ONLY_STALL_RATIO` instead. Reads ``Layer.cycles_explained`` where set, else
    computes it at ``clock_mhz``."""
    from rknnprof.analysis.savings import cycles_explained

    stalled = []
    for layer in profile.layers:
        share = layer.cycles_explained
        if share is None:
            share = cycles_explained(layer, clock_mhz)
        # (DDR cycles alone, or next to none of NPU: the compiler counted the bytes, not the work)
        bytes_only = (layer.npu_cycles or 0) * BYTES_ONLY_SHARE < (layer.ddr_cycles or 0)
        ratio = BYTES_ONLY_STALL_RATIO if bytes_only else STALL_RATIO
        if share is None or not layer.time_us or share >= 1.0 / ratio:
            continue
        if layer.time_us * (1.0 - share) >= MIN_STALL_US:
            stalled.append(layer)
    return stalled


def conditions_of(
    profile: Profile, platform: Platform | None, stalled: list[Layer]
) -> Iterator[RunCondition]:
    """The conditions of the run the log shows, in the order a user should read them."""
    yield from _inside_run(profile)
    if stalled:
        shown = ", ".join(f"#{layer.id} {layer.op_type}" for layer in stalled[:3])
        more = f" and {len(stalled) - 3} more" if len(stalled) > 3 else ""
        yield RunCondition(
            ConditionKind.STALLED,
            f"{len(stalled)} layer(s) take over {STALL_RATIO:.0f}x what their cycles at the "
            f"clock explain ({shown}{more}): stalled, not slow; their times are not priced",
            line=stalled[0].line,
            spoils_timing=False,
        )
    if profile.layers and profile.measured and profile.format != CSV_FAMILY:
        yield RunCondition(
            ConditionKind.INSTRUMENTED,
            "per-layer times come from perf_debug / RKNN_LOG_LEVEL=4, which inflate absolute "
            "times; shares between layers stay comparable",
        )
    yield from _frequency_lists(profile, platform)
    yield from _clock_lines(profile, platform)
    yield from _eval_mem(profile)
    yield from _cold_run(profile)
    spread = _frame_spread(profile)
    if spread is not None and spread > VARYING_SPREAD:
        yield RunCondition(
            ConditionKind.VARYING,
            f"{profile.frames} frames vary more than the noise: their p90 is "
            f"{spread * 100:.0f} % above their median",
        )


INSIDE_RUN_WORDS = {"debugger": "debugger", "trace": "trace", "dump": "tensor-dump"}


def _inside_run(profile: Profile) -> Iterator[RunCondition]:
    """Debugger, trace and dump lines inside the run: one condition that spoils its times."""
    found = [run for run in profile.run_lines if run.kind in INSIDE_RUN_WORDS]
    if not found:
        return
    count = sum(run.count for run in found)
    kinds = " / ".join(dict.fromkeys(INSIDE_RUN_WORDS[run.kind] for run in found))
    first = min(found, key=lambda run: run.line)
    yield RunCondition(
        ConditionKind.DEBUGGER,
        f"{count:,} {kinds} line(s) inside the run, the first at line {first.line}: the run "
        "was held up by them, its times are not a measurement of the model",
        line=first.line,
        spoils_timing=True,
    )


def _clock_lines(profile: Profile, platform: Platform | None) -> Iterator[RunCondition]:
    """Each clock line the log printed (``Get DDR frequency: 528MHz``), held against the SoC's
    maximum."""
    for run in profile.run_lines:
        if run.kind != "clock" or run.mhz is None or run.domain is None:
            continue
        peak = {"NPU": _npu_max(platform), "DDR": _ddr_max(platform)}.get(run.domain)
        yield clock_condition(run.domain, run.mhz, peak, platform, run.line)


def _eval_mem(profile: Profile) -> Iterator[RunCondition]:
    for run in profile.run_lines:
        if run.kind == "eval-mem":
            yield RunCondition(
                ConditionKind.EVAL_MEM,
                f"eval_mem was on (line {run.line}): the runtime tracked memory during the run",
                line=run.line,
            )
            return


def _cold_run(profile: Profile) -> Iterator[RunCondition]:
    """A demo timed once, with no warm-up and no average: its one run is the first one."""
    bench = profile.benchmark
    if bench is None or len(bench.run_times_ms) != 1 or bench.warmup_times_ms:
        return
    if bench.avg_time_ms is not None:
        return
    yield RunCondition(
        ConditionKind.COLD_RUN,
        "one timed run, no warm-up: a first run includes one-time costs (allocations, cold "
        "caches); time ten or more runs after a warm-up (rknn_benchmark's loop count)",
    )


def _frame_spread(profile: Profile) -> float | None:
    p50, p90 = profile.frame_time_p50_us, profile.frame_time_p90_us
    if profile.frames < 2 or not p50 or p90 is None:
        return None
    return p90 / p50 - 1.0


def _frequency_lists(profile: Profile, platform: Platform | None) -> Iterator[RunCondition]:
    """The eval_perf frequency lists held against the SoC's maxima."""
    freqs = profile.frequencies
    if freqs is None:
        return
    readings = (
        ("NPU", [hz / 1e6 for hz in freqs.npu_hz if hz], _npu_max(platform)),
        ("DDR", [hz / 1e6 for hz in freqs.ddr_hz if hz], _ddr_max(platform)),
        ("CPU", [khz / 1e3 for khz in freqs.cpu_khz if khz], None),
    )
    for domain, values, peak in readings:
        if values:
            yield clock_condition(domain, max(values), peak, platform, None)


def _npu_max(platform: Platform | None) -> float | None:
    return platform.freq_mhz if platform is not None else None


def _ddr_max(platform: Platform | None) -> float | None:
    return platform.ddr_max_freq_mhz if platform is not None else None


def clock_condition(
    domain: str, mhz: float, peak: float | None, platform: Platform | None, line: int | None
) -> RunCondition:
    """One clock the log printed, held against the SoC's maximum when the platform data has
    one."""
    shown = f"{domain} at {mhz:,.0f} MHz"
    if not plausible_clock(mhz, peak):
        return RunCondition(
            ConditionKind.NO_READING,
            f"{shown}: no reading of a clock"
            + (
                f" ({platform.name.upper()}'s maximum is {peak:,.0f} MHz)"
                if peak and platform
                else ""
            )
            + ", not used",
            line=line,
        )
    if peak is None or platform is None:
        return RunCondition(
            ConditionKind.CLOCK, f"{shown} (no maximum known for this SoC)", line=line
        )
    name = platform.name.upper()
    if mhz >= peak * MIN_CLOCK_RATIO:
        return RunCondition(
            ConditionKind.CLOCK, f"{shown}, {name}'s maximum is {peak:,.0f} MHz", line=line
        )
    return RunCondition(
        ConditionKind.CLOCK,
        f"{shown}, below {name}'s maximum of {peak:,.0f} MHz: the clocks were not fixed, "
        "times are longer than at full clock",
        line=line,
        below_maximum=True,
    )
