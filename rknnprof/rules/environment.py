"""RKN050 environment: how the numbers were taken (profiling overhead, clocks, driver) and the
time spent outside the per-layer table (input/output copies, cache sync)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rknnprof.model import Finding, Profile, Severity
from rknnprof.rules._util import grade, ms, opt, pct, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import TOOLKIT2, cite, issue, sources

NAME = "environment"
MIN_DRIVER = (0, 9, 2)
"""Drivers older than this are flagged (issue #4; User Guide §8.1.1 recommends at least 0.8.8)."""
ZERO_COPY = ("use the zero-copy API: rknn_create_mem + rknn_set_io_mem with pass_through and the "
             "native layouts, and call rknn_mem_sync one way only (TO_DEVICE for inputs, "
             "FROM_DEVICE for outputs) on cacheable buffers")
ZERO_COPY_SOURCE = sources(cite("guide", "§5.2 (Table 5-2), §5.10, §8.1.2"),
                           cite("runtime-api", "rknn_create_mem, rknn_mem_sync"),
                           issue("airockchip/rknn_model_zoo", 167))


def _version(text: str | None) -> tuple[int, ...] | None:
    match = re.match(r"\s*v?(\d+)\.(\d+)(?:\.(\d+))?", text or "")
    return tuple(int(g) for g in match.groups(default="0")) if match else None


def _finding(message: str, fix: str, saving: float, total: float, estimate: str, source: str,
             layer_ids: tuple[int, ...] = (), untimed: Severity = Severity.INFO) -> Finding:
    """A RKN050 finding; ``untimed`` is its severity when no time is attached."""
    return Finding(code="RKN050", name=NAME,
                   severity=grade(saving, total, cap=Severity.WARNING) if saving else untimed,
                   message=message, fix=fix, layer_ids=layer_ids, est_saving_us=saving,
                   estimate=estimate, source=source)


def _profiling_overhead(profile: Profile) -> Iterator[Finding]:
    if not profile.layers or not profile.measured or profile.benchmark is not None:
        return
    yield _finding(
        "per-layer times come from perf_debug / RKNN_LOG_LEVEL=4, which add debugging code and "
        "disable some parallelism: absolute times are inflated (one RK3568 A/B: 35.7 ms at "
        "level 4 against 19.8 ms at level 0); shares between layers remain comparable",
        "time the whole model with rknn_benchmark (RKNN_LOG_LEVEL unset, several runs averaged) "
        "before and after each change",
        0.0, 0.0, "0: a measurement caveat",
        sources(cite("guide", "§8.1.2, §10.8"), cite("api-header", "RKNN_FLAG_COLLECT_PERF_MASK")))


def _frequencies(profile: Profile, context: RuleContext, total: float) -> Iterator[Finding]:
    freqs = profile.frequencies
    if freqs is None:
        return
    known = [hz for hz in freqs.npu_hz if hz]
    fix = ("fix the clocks before profiling: rknn_model_zoo's scaling_frequency.sh, or "
           "echo performance | tee $(find /sys/ -name *governor)")
    source = sources(cite("guide", "§8.1.1"), cite("zoo-frequency"), cite("benchmark"))
    if not known or None in freqs.ddr_hz or None in freqs.npu_hz:
        unknown = [name for name, values in (("NPU", freqs.npu_hz), ("DDR", freqs.ddr_hz),
                                             ("CPU", freqs.cpu_khz)) if values and None in values]
        if unknown:
            yield _finding(f"the {'/'.join(unknown)} frequency is Unknown in the log: the "
                           "timings cannot be tied to a clock", fix, 0.0, total,
                           "0: unknown clock", source)
    platform = context.platform
    peak = platform.freq_mhz if platform is not None else None
    if not known or not peak:
        return
    mhz = max(known) / 1e6
    if mhz >= peak * opt(context, "RKN050", "min_freq_ratio", 0.95):
        return
    npu_time = sum(la.time_us or 0.0 for la in profile.layers if la.target.value == "NPU")
    saving = npu_time * (1.0 - mhz / peak)
    yield _finding(
        f"the NPU ran at {mhz:g} MHz, below {platform.name}'s {peak:g} MHz: its "
        f"{us(npu_time)} of NPU time would take about {us(npu_time - saving)} at full clock",
        fix, saving, total, "NPU time x (1 - measured / maximum NPU clock)", source)


def _driver(profile: Profile) -> Iterator[Finding]:
    found = _version(profile.versions.driver)
    if found is None or found >= MIN_DRIVER:
        return
    yield _finding(
        f"RKNPU driver {profile.versions.driver} is older than 0.9.2 (runtime "
        f"{profile.versions.runtime or 'version not in the log'}): old drivers lack fixes the "
        "current librknnrt expects (multi-core 'failed to submit' reports were fixed by updating "
        "kernel, runtime and driver together)",
        "update the board's kernel / RKNPU driver to 0.9.2 or later (check "
        "/sys/kernel/debug/rknpu/version) and keep librknnrt at the toolkit's version",
        0.0, 0.0, "0: no time attached",
        sources(cite("guide", "§8.1.1"), issue(TOOLKIT2, 294)),
        untimed=Severity.WARNING)


def _outside_table(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    bench = profile.benchmark
    table = float(profile.total_time_us or 0.0)
    if bench is None or bench.avg_time_ms is None or not profile.layers or not table:
        return
    avg = bench.avg_time_ms * 1000.0
    if avg < table * opt(context, "RKN050", "outside_ratio", 1.2):
        return
    gap = avg - table
    yield _finding(
        f"rknn_benchmark's Avg Time {ms(avg)} is {us(gap)} above the per-layer "
        f"table's {ms(table)}: {pct(gap / avg)} of each run is spent outside the layers "
        "(input/output copies, layout conversion, cache flushes)",
        ZERO_COPY, gap, avg, "Avg Time minus the table's total", ZERO_COPY_SOURCE)


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
        f"input/output handling takes {us(spent)} ({pct(spent / total)} of the frame): "
        + ", ".join(parts), ZERO_COPY, spent, total,
        "upper bound: the Input/OutputOperator time", ZERO_COPY_SOURCE,
        layer_ids=tuple(la.id for la in io))


def check_environment(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        How the numbers were taken, and time outside the layers: (a) per-layer tables are
        measured with perf_debug / RKNN_LOG_LEVEL=4, which inflate absolute times (reported
        once per table when the log has no benchmark run to compare with); (b) NPU/DDR/CPU
        frequencies printed as Unknown, or an NPU clock below 95% of the platform maximum
        (option RKN050.min_freq_ratio); (c) an RKNPU driver older than 0.9.2; (d) an
        rknn_benchmark Avg Time at least 1.2x the table's total (RKN050.outside_ratio);
        (e) Input/OutputOperator taking at least 3% of the frame (RKN050.io_share).

    Why it costs time:
        Profiling adds debugging code and turns off some parallelism (User Guide §10.8), so tables
        overstate time. A lowered clock slows every NPU layer. With the general API
        (rknn_inputs_set / rknn_outputs_get) the runtime copies and converts inputs and outputs
        on the CPU (14.8 ms for a 640x640 yolov5s input, rknn_model_zoo#167) and flushes the
        CPU cache of cacheable buffers in both directions: time the table does not show, or
        shows only in the IO operators.

    Example:
        rknn_benchmark's Avg Time 22.50 ms is 8,100 us above the per-layer table's 14.40 ms:
        36.0% of each run is spent outside the layers

    How to fix:
        Time end to end with rknn_benchmark at the default log level. Fix the clocks
        (scaling_frequency.sh, performance governor). Update the driver. Use the zero-copy API
        (rknn_create_mem + rknn_set_io_mem, pass_through, native layouts with the Table 5-2
        width alignment) and one-way rknn_mem_sync (TO_DEVICE / FROM_DEVICE) on cacheable
        buffers; with RGA/GPU buffers set RKNN_FLAG_DISABLE_FLUSH_INPUT/OUTPUT_MEM_CACHE.

    Estimate:
        (a), (c) and Unknown clocks: 0 (severity info; warning for an old driver). Low clock:
        NPU time x (1 - clock / maximum). (d) Avg Time minus the table total. (e) the IO
        operators' time (upper bound).
    """
    total = total_us(profile)
    yield from _outside_table(profile, context)
    yield from _io_operators(profile, context, total)
    yield from _frequencies(profile, context, total)
    yield from _driver(profile)
    yield from _profiling_overhead(profile)


RULES = (
    Rule("RKN050", NAME, Severity.WARNING,
         "Profiling overhead, clocks, driver version, and time outside the layer table "
         "(zero-copy I/O, one-way cache sync)", check_environment,
         source=sources(cite("guide", "§5.2, §5.10, §8.1.1, §8.1.2, §10.8"),
                 cite("runtime-api", "rknn_create_mem, rknn_mem_sync"),
                 issue("airockchip/rknn_model_zoo", 167), cite("zoo-frequency"),
                 issue(TOOLKIT2, 294))),
)
