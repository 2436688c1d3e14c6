"""RKN050 environment: how the numbers were taken (profiling overhead, clocks, driver) and the
time spent outside the per-layer table (input/output copies, cache sync)."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.savings import Saving, SavingFields, from_fraction, from_removal
from rknnprof.model import Confidence, Finding, Profile, Severity, Target, Waterfall
from rknnprof.platforms.drivers import driver_too_old, fixed_by, min_driver_text, version_tuple
from rknnprof.rules._util import (
    claim,
    grade,
    label,
    ms,
    npu_cores,
    of_frame,
    opt,
    pct,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import SLOW_PACE, priced, siblings, slow_for_cycles
from rknnprof.rules.sources import TOOLKIT2, cite, issue, sources

NAME = "environment"
ZERO_COPY = (
    "use the zero-copy API: rknn_create_mem + rknn_set_io_mem with pass_through and the "
    "native layouts, and call rknn_mem_sync one way only (TO_DEVICE for inputs, "
    "FROM_DEVICE for outputs) on cacheable buffers"
)
ZERO_COPY_SOURCE = sources(
    cite("guide", "§5.2 (Table 5-2), §5.10, §8.1.2"),
    cite("runtime-api", "rknn_create_mem, rknn_mem_sync"),
    issue("airockchip/rknn_model_zoo", 167),
)


def _finding(
    message: str,
    fix: str,
    saving: float | Saving,
    total: float,
    estimate: str,
    source: str,
    layer_ids: tuple[int, ...] = (),
    untimed: Severity = Severity.INFO,
    basis: str = "a measurement caveat: no saving",
    confidence: Confidence = Confidence.LOW,
) -> Finding:
    """A RKN050 finding; ``untimed`` is its severity when no time is attached. ``saving`` is a
    figure outside the table (with its ``basis`` and ``confidence``) or a per-layer
    :class:`Saving`."""
    if isinstance(saving, Saving):
        fields = saving.fields()
    else:
        fields = SavingFields(
            est_saving_us=saving, saving_by_layer=(), basis=basis, confidence=confidence
        )
    amount = float(fields["est_saving_us"])
    return Finding(
        code="RKN050",
        name=NAME,
        severity=grade(amount, total, cap=Severity.WARNING) if amount else untimed,
        message=message,
        fix=fix,
        layer_ids=layer_ids,
        estimate=estimate,
        source=source,
        **fields,
    )


FIX_CLOCKS = (
    "fix the clocks before profiling: rknn_model_zoo's scaling_frequency.sh, or "
    "echo performance | tee $(find /sys/ -name '*governor')"
)


def _profiling_overhead(profile: Profile) -> Iterator[Finding]:
    """The perf_debug / log-level inflation, and (in the same finding) a log without the
    frequency lists eval_perf prints: nothing says the clocks were fixed."""
    if not profile.layers or not profile.measured or profile.benchmark is not None:
        return
    # a clock line (``Get DDR frequency: 528MHz``) shows a clock as well as the list does
    unclocked = profile.frequencies is None and not any(
        run.kind == "clock" for run in profile.run_lines
    )
    # the one A/B measurement known is an RK3568's; other SoCs get the caveat without it
    measured = (
        " (on an RK3568: 35.7 ms at level 4 against 19.8 ms at level 0)"
        if (profile.platform or "") in ("rk3566", "rk3568")
        else ""
    )
    message = (
        "per-layer times come from perf_debug / RKNN_LOG_LEVEL=4, which add debugging "
        "code and turn off some parallel mechanisms (the guide): absolute times are "
        f"inflated{measured}, shares between layers stay comparable"
    )
    fix = (
        "time the whole model with rknn_benchmark (RKNN_LOG_LEVEL unset, several runs "
        "averaged) before and after each change"
    )
    if unclocked:
        message += (
            "; and the log has no CPU/NPU/DDR frequency list, so nothing shows the "
            "clocks were fixed (unfixed, the same model's time fluctuates: the guide's "
            "first step)"
        )
        fix = f"{FIX_CLOCKS}, then {fix}"
    yield _finding(
        message,
        fix,
        0.0,
        0.0,
        "0: a measurement caveat",
        sources(
            cite("guide", "§8.1.1, §8.1.2, §10.8"),
            cite("api-header", "RKNN_FLAG_COLLECT_PERF_MASK"),
            cite("zoo-frequency"),
        ),
    )


def _outliers(profile: Profile, total: float) -> Iterator[Finding]:
    pairs = siblings(profile)
    if not pairs:
        return
    excess = sum((slow.time_us or 0.0) - (fast.time_us or 0.0) for slow, fast in pairs)
    shown = "; ".join(
        f"{label(slow)} {us(slow.time_us or 0)} against {us(fast.time_us or 0)} for "
        f"#{fast.id} ({(slow.time_us or 0) / (fast.time_us or 1):.1f}x)"
        for slow, fast in pairs[:3]
    )
    more = f"; +{len(pairs) - 3} more pair(s)" if len(pairs) > 3 else ""
    yield _finding(
        f"one frame only, and {len(pairs)} layer(s) take at least twice the time of a sibling "
        f"with the same op type, shapes and cycles: {shown}{more}; {us(excess)} "
        f"({of_frame(excess / total, profile)}) in the slower ones. A single table cannot tell a "
        "slow layer from a noisy measurement",
        f"re-measure: {FIX_CLOCKS}, then capture several inferences (RKNN_LOG_LEVEL=4 prints one "
        "table per rknn_run; rknnprof merges them into per-layer medians)",
        0.0,
        0.0,
        "0: a measurement caveat",
        sources(cite("guide", "§8.1.1")),
        # (each layer once: several slow layers may share their fastest sibling)
        layer_ids=tuple(dict.fromkeys(i for slow, fast in pairs for i in (slow.id, fast.id))),
        basis="same-shape, same-cycle siblings in this table differ 2x or more",
    )


def _paced_outliers(profile: Profile) -> Iterator[Finding]:
    slow = slow_for_cycles(profile)
    if not slow:
        return
    shown = "; ".join(
        f"{label(layer)} {us(layer.time_us or 0)} for "
        f"{max(layer.ddr_cycles or 0, layer.npu_cycles or 0):,} cycles ({ratio:.1f}x)"
        for layer, ratio in slow[:3]
    )
    more = f"; +{len(slow) - 3} more" if len(slow) > 3 else ""
    yield _finding(
        f"one frame only, and {len(slow)} layer(s) take at least {SLOW_PACE:.0f}x this table's "
        f"median time per cycle: {shown}{more}. The cycles follow from the shapes, the time is "
        "measured: a time far above what the cycles explain may be a one-off stall; re-measure "
        "before acting on it",
        f"re-measure: {FIX_CLOCKS}, then capture several inferences (RKNN_LOG_LEVEL=4 prints one "
        "table per rknn_run; rknnprof merges them into per-layer medians)",
        0.0,
        0.0,
        "0: a measurement caveat",
        sources(cite("guide", "§8.1.1")),
        layer_ids=tuple(layer.id for layer, _ in slow),
        basis="time per cycle against this table's median",
    )


def _frequencies(profile: Profile, context: RuleContext, total: float) -> Iterator[Finding]:
    freqs = profile.frequencies
    if freqs is None:
        return
    known = [hz for hz in freqs.npu_hz if hz]
    fix = FIX_CLOCKS
    source = sources(cite("guide", "§8.1.1"), cite("zoo-frequency"), cite("benchmark"))
    if not known or None in freqs.ddr_hz or None in freqs.npu_hz:
        unknown = [
            name
            for name, values in (
                ("NPU", freqs.npu_hz),
                ("DDR", freqs.ddr_hz),
                ("CPU", freqs.cpu_khz),
            )
            if values and None in values
        ]
        if unknown:
            yield _finding(
                f"the {'/'.join(unknown)} frequency is Unknown in the log: the "
                "timings cannot be tied to a clock",
                fix,
                0.0,
                total,
                "0: unknown clock",
                source,
            )
    platform = context.platform
    peak = platform.freq_mhz if platform is not None else None
    if platform is None or not known or not peak:
        return
    mhz = max(known) / 1e6
    if mhz >= peak * opt(context, "RKN050", "min_freq_ratio", 0.95):
        return
    npu = [la for la in profile.layers if la.target is Target.NPU]
    at, caveat = priced(profile, npu)
    npu_time = time_of(at)
    saving = from_fraction(
        at,
        1.0 - mhz / peak,
        f"NPU time scaled by the clock ({mhz:g} of {peak:g} MHz); assumed "
        "linear, which the guide says it is not",
        Confidence.LOW,
    )
    yield _finding(
        f"the NPU ran at {mhz:g} MHz, below {platform.name}'s {peak:g} MHz"
        + claim(
            profile,
            f": its {us(npu_time)} of NPU time would take about "
            f"{us(npu_time - saving.total_us)} at full clock if time scaled with the clock (an "
            f"assumption: the guide says it does not, quite){caveat}",
        ),
        fix,
        saving,
        total,
        "NPU time x (1 - measured / maximum NPU clock)",
        source,
        layer_ids=tuple(la.id for la in npu),
    )


VERSION_PATHS = {
    "rv1106_rv1103": "/proc/rknpu/version",
    "rv1106b_rv1103b": "/proc/rknpu/version",
    "rv1126b": "/proc/rknpu/version",
}
"""Where each SoC family's RKNPU driver prints its version (RKNN2 SDK V2.5.0 guide §5.2.1.1,
V2.3.0 User Guide §8.1.1): ``/proc/rknpu/version`` on RV1106/RV1103 and RV1126B,
:data:`DEBUGFS_VERSION` on RK3566/RK3568/RK3588/RK3562/RK3576."""
DEBUGFS_VERSION = "/sys/kernel/debug/rknpu/version"


def version_path(context: RuleContext) -> str:
    """The driver version node of the profile's SoC (both, named, when the SoC is unknown)."""
    platform = context.platform
    if platform is None:
        return f"{DEBUGFS_VERSION} on RK35xx, /proc/rknpu/version on RV1106/RV1103/RV1126B"
    return VERSION_PATHS.get(platform.family or platform.name, DEBUGFS_VERSION)


def _driver(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    fixed = fixed_by(profile.versions.driver)
    if fixed is not None:
        # (a run that failed to submit is that bug's; one that ran was not hit by it)
        failed = any(f.id == "submit-failed" for f in profile.failures)
        ran = "" if failed else "; this run completed, so its model is not one it fails"
        yield _finding(
            f"RKNPU driver {profile.versions.driver} fails NPU tasks ('failed to submit') that "
            f"drivers before and after it run: a public report on RK3588 found every model's "
            f"first conv failing under it, fixed by {fixed}{ran}",
            f"update the board's kernel / RKNPU driver to {fixed} or later (check "
            f"{version_path(context)})",
            0.0,
            0.0,
            "0: no time attached",
            sources(issue("radxa/kernel", 312), issue(TOOLKIT2, 38)),
            untimed=Severity.WARNING if failed else Severity.INFO,
        )
        return
    if not driver_too_old(profile.versions.driver):
        return
    cores = npu_cores(context, profile)
    why = (
        "multi-core 'failed to submit' reports were fixed by updating kernel, runtime and "
        "driver together"
        if cores and cores > 1
        else "the guide ties some operator optimisations to the driver version"
    )
    runtime = version_tuple(profile.versions.runtime)
    toolkit = profile.versions.toolkit
    least = min_driver_text()
    if runtime is not None and runtime < OLD_RUNTIME:  # (a runtime of the driver's own time)
        said = (
            f"RKNPU driver {profile.versions.driver} and runtime {profile.versions.runtime} are "
            f"both of an SDK before 1.5: the fixes later releases carry are in neither ({why})"
        )
        fix = (
            f"update the board's SDK together, the kernel with its RKNPU driver ({least} or "
            f"later; check {version_path(context)}) and the runtime library, to a current release"
        )
    else:
        said = (
            f"RKNPU driver {profile.versions.driver} is older than {least} (runtime "
            f"{profile.versions.runtime or 'version not in the log'}), the version the RKNN "
            f"SDK guide recommends and librknnrt 2.x asks for ({why})"
        )
        fix = (
            f"update the board's kernel / RKNPU driver to {least} or later (check "
            f"{version_path(context)})"
        )
    if toolkit:
        fix += f", and keep the board's runtime library at the toolkit's version ({toolkit})"
    yield _finding(
        said,
        fix,
        0.0,
        0.0,
        "0: no time attached",
        sources(cite("guide", "§8.1.1"), issue(TOOLKIT2, 95), issue(TOOLKIT2, 294)),
        untimed=Severity.WARNING,
    )


OLD_RUNTIME = (1, 5)
"""Runtimes older than this are of the driver's own time (librknnrt 1.4.x, 2022): the
driver's age is the SDK's, updated with it."""

WATERFALL_FIX = (
    ZERO_COPY + "; do resize and colour conversion on the RGA (librga) instead of "
    "the CPU; when the driver's NPU load stays low, run frames from more threads "
    "(one rknn context each, rknn_dup_context)"
)


def _outside_table(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """The application's own time (or rknn_benchmark's Avg Time) against the table's total;
    when the application also timed its calls, the parts of it (``analysis.waterfall``)."""
    table = float(profile.reported_total_time_us or profile.total_time_us or 0.0)
    bench = profile.benchmark
    fall = profile.waterfall
    if fall is not None and profile.app_calls:
        yield from _waterfall_finding(fall, context)
        return
    # the application's own timer may span its pre- and post-processing too (the log cannot
    # tell), and the message says so; rknn_benchmark times the API alone
    if profile.app_time_us:
        whole, what, spans = (
            float(profile.app_time_us),
            (f"the application's own inference time {ms(profile.app_time_us)}"),
            ", or in whatever else the application's timer spans (pre- and post-processing)",
        )
    elif bench is not None and bench.avg_time_ms is not None and profile.layers:
        whole, what, spans = (
            bench.avg_time_ms * 1000.0,
            (f"rknn_benchmark's Avg Time {ms(bench.avg_time_ms * 1000.0)}"),
            "",
        )
    else:
        return
    if not table or whole < table * opt(context, "RKN050", "outside_ratio", 1.1):
        return
    gap = whole - table
    yield _finding(
        f"{what} is {us(gap)} above the per-layer table's {ms(table)}: {pct(gap / whole)} of "
        "each inference is spent outside the layers: in the general API's input/output copies "
        f"and layout conversion and in cache flushes{spans}",
        ZERO_COPY,
        gap,
        whole,
        "up to the time outside the table",
        ZERO_COPY_SOURCE,
        basis=(
            f"{what} minus the table's total, both in this log; zero-copy and one-way sync "
            "remove the copies and flushes, which may not be all of it"
        ),
        confidence=Confidence.MEDIUM,
    )


def _waterfall_finding(fall: Waterfall, context: RuleContext) -> Iterator[Finding]:
    """Time outside the layers, itemised by the waterfall; the saving is that measured time."""
    outside = fall.outside_us
    layers = fall.total_us - outside
    if not layers or fall.total_us < layers * opt(context, "RKN050", "outside_ratio", 1.1):
        return
    parts = ", ".join(
        f"{step.label} {us(step.time_us)}"
        for step in fall.steps
        if not step.key.endswith("_layers") and step.time_us > 0
    )
    yield _finding(
        f"{us(outside)} of each {ms(fall.total_us)} inference ({pct(outside / fall.total_us)}) "
        f"is spent outside the table's layers: {parts}",
        WATERFALL_FIX,
        outside,
        fall.total_us,
        "up to the time outside the layers",
        ZERO_COPY_SOURCE,
        basis=(
            f"{fall.total_basis} ({ms(fall.total_us)}) minus the table's {ms(layers)}, both "
            "in this log; zero-copy, one-way sync and RGA remove copies, flushes and CPU "
            "pre-processing, which may not be all of it"
        ),
        confidence=Confidence.MEDIUM,
    )


def _io_operators(profile: Profile, context: RuleContext, total: float) -> Iterator[Finding]:
    io = [la for la in profile.layers if la.is_io]
    spent = time_of(io)
    if not io or not total or spent / total < opt(context, "RKN050", "io_share", 0.03):
        return
    parts = []
    for op in ("InputOperator", "OutputOperator"):
        group = [la for la in io if la.op_type == op]
        if group:
            types = "/".join(sorted({la.data_type or "?" for la in group}))
            parts.append(f"{len(group)} {op} {us(time_of(group))} ({types})")
    yield _finding(
        f"input/output handling takes {us(spent)} ({of_frame(spent / total, profile)}): "
        + ", ".join(parts),
        ZERO_COPY,
        from_removal(
            io,
            "upper bound: the Input/OutputOperator time; zero-copy removes the "
            "copies, not necessarily all of it",
            Confidence.LOW,
        ),
        total,
        "upper bound: the Input/OutputOperator time",
        ZERO_COPY_SOURCE,
        layer_ids=tuple(la.id for la in io),
    )


def check_environment(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        How the numbers were taken, and time outside the layers: (a) per-layer tables are
        measured with perf_debug / RKNN_LOG_LEVEL=4, which inflate absolute times (reported
        once per table when the log has no benchmark run to compare with), and, in the same
        finding, a log with no frequency list (nothing says the clocks were fixed); (b)
        NPU/DDR/CPU frequencies printed as Unknown, or an NPU clock below 95% of the platform
        maximum (option RKN050.min_freq_ratio); (c) an RKNPU driver older than 0.8.8, or
        0.9.3, whose 'failed to submit' 0.9.6 fixed (the fix names the SoC's own version
        node: /proc/rknpu/version on RV1106/RV1103/RV1126B, /sys/kernel/debug/rknpu/version
        on RK35xx; the multi-core rationale only on multi-core SoCs); (d) the
        application's own inference time (a ``Total inference time …: N ms`` line) or an
        rknn_benchmark Avg Time at least 1.1x the table's total (RKN050.outside_ratio); when
        the application also timed rknn_inputs_set / rknn_run / rknn_outputs_get, the finding
        names each part of that time (the waterfall: run overhead, copies, the rest); (e)
        Input/OutputOperator taking at least 3% of the frame (RKN050.io_share); (f) in a
        single-frame table, layers taking at least twice (and 100 us more than) a sibling with
        the same op type, printed shapes and cycles, or at least 4x the table's median time
        per cycle (and 1% of the frame above it): re-measure. Every rule that prices a change
        from layer times (this one's clock finding too; RKN073 for its share) counts these
        layers at the time the log supports (the sibling's, or their cycles at the median
        pace), not the one-frame time, and names them in its message.

    Why it costs time:
        Profiling adds debugging code and turns off some parallelism (User Guide §10.8), so tables
        overstate time. A lowered clock slows every NPU layer. With the general API
        (rknn_inputs_set / rknn_outputs_get) the runtime copies and converts inputs and outputs
        on the CPU (14.8 ms for a 640x640 yolov5s input, rknn_model_zoo#167) and flushes the
        CPU cache of cacheable buffers in both directions: time the table does not show, or
        shows only in the IO operators.

    Example:
        the application's own inference time 151.68 ms is 20,482 us above the per-layer
        table's 131.20 ms: 13.5% of each inference is spent outside the layers (a user's
        public RK3588 report, SDK 2.3.0)

    How to fix:
        Time end to end with rknn_benchmark at the default log level. Fix the clocks
        (scaling_frequency.sh, performance governor). Update the driver. Use the zero-copy API
        (rknn_create_mem + rknn_set_io_mem, pass_through, native layouts with the Table 5-2
        width alignment) and one-way rknn_mem_sync (TO_DEVICE / FROM_DEVICE) on cacheable
        buffers; with RGA/GPU buffers set RKNN_FLAG_DISABLE_FLUSH_INPUT/OUTPUT_MEM_CACHE.

    Estimate:
        (a), (c), (f) and Unknown clocks: 0 (severity info; warning for an old driver). Low
        clock: NPU time x (1 - clock / maximum), confidence low (time is not linear in the
        clock). (d) the application's time (or Avg Time) minus the table total, confidence
        medium: the copies and flushes are most of it, not provably all. (e) the IO
        operators' time (upper bound, low).
    """
    total = total_us(profile)
    yield from _outside_table(profile, context)
    yield from _io_operators(profile, context, total)
    yield from _frequencies(profile, context, total)
    yield from _driver(profile, context)
    yield from _profiling_overhead(profile)
    yield from _outliers(profile, total)
    yield from _paced_outliers(profile)


RULES = (
    Rule(
        "RKN050",
        NAME,
        Severity.WARNING,
        "Profiling overhead, clocks, driver version, and time outside the layer table "
        "(zero-copy I/O, one-way cache sync)",
        check_environment,
        source=sources(
            cite("guide", "§5.2, §5.10, §8.1.1, §8.1.2, §10.8"),
            cite("runtime-api", "rknn_create_mem, rknn_mem_sync"),
            issue("airockchip/rknn_model_zoo", 167),
            cite("zoo-frequency"),
            issue(TOOLKIT2, 294),
        ),
        basis=(
            "measurement caveats: 0; a lowered clock: NPU time x (1 - clock / maximum); "
            "time outside the table: the application's time minus the table total"
        ),
        confidence=(
            "low for the clock (time is not linear in it); medium for time outside "
            "the table; caveats claim 0"
        ),
        fix_shows_in_rows=False,  # a clock, zero-copy I/O: the layers' rows stay as they were
    ),
)
