"""Like for like: the run conditions that differ between BASE and CURRENT (platform, versions,
NPU and DDR frequency, cores used, model input shapes, data types, frames merged, measured vs
estimated, the layers' own shapes under one input shape), and whether either side's table
leaves rows out (then what it lacks is "not shown", never "removed" or "added")."""

from __future__ import annotations

from rknnprof.model import Coverage, Profile, Target

PARTIAL_COVERAGES = frozenset(
    (Coverage.ELIDED, Coverage.CUT, Coverage.FRAGMENT, Coverage.UNKNOWN, Coverage.NO_TABLE)
)
"""Coverages of a table that may leave rows of the model out."""


def rows_left_out(profile: Profile) -> str | None:
    """Why the profile's table may leave layers out (elided, cut, a fragment, a format that
    cannot tell), or None: from ``Profile.validity`` when it has one (a damaged table is said
    to be damaged, not partial: a table printed twice disagrees with its total line by having
    too many rows), else ``incomplete`` and elided rows."""
    validity = profile.validity
    if validity is not None:
        if validity.coverage in PARTIAL_COVERAGES:
            return f"{validity.coverage.value}: {validity.coverage_reason}"
        return None
    if profile.elided_rows:
        return f"the log elided rows ({profile.elided_rows} elision line(s))"
    if profile.incomplete:
        return profile.incomplete
    return None


def whole_frame_total(profile: Profile) -> bool:
    """The table elides rows (``......``) but prints its total line: the frame's time is that
    line's, whatever rows are shown (a compare of the rows shown said -37.5% where the log's
    total said +6.9%)."""
    validity = profile.validity
    elided = validity.coverage is Coverage.ELIDED if validity is not None else profile.elided_rows
    return bool(elided) and profile.reported_total_time_us is not None


def input_shapes(profile: Profile) -> str | None:
    """``(1,3,1920,1920)``: the model's input shapes, the output shapes of its InputOperator
    rows; None when the log shows none (a middle row's input is not the model's)."""
    shapes = [shape for outputs in profile.input_shapes for shape in outputs]
    if not shapes:
        return None
    return " ".join("(" + ",".join(str(d) for d in shape) + ")" for shape in shapes)


def _printed_inputs(profile: Profile) -> str | None:
    """A benchmark's input tensors as it printed them (``images [1,640,640,3]``), or None."""
    bench = profile.benchmark
    return ", ".join(bench.inputs) if bench is not None and bench.inputs else None


def data_types(profile: Profile) -> str | None:
    """``INT8`` or ``FLOAT16+INT8``: the data types of the layers run on the NPU (all layers
    when no target is known); None when the table has no DataType column, or leaves rows out
    (the rows shown may lack a type the model has)."""
    if rows_left_out(profile) is not None:
        return None
    npu = [la for la in profile.layers if la.target is Target.NPU] or list(profile.layers)
    types = sorted({la.data_type for la in npu if la.data_type})
    return "+".join(types) if types else None


def cores_used(profile: Profile) -> str | None:
    """``core0``, ``core0+1+2``…: the NPU cores with a non-zero workload in any layer."""
    cores: set[int] = set()
    seen = False
    for la in profile.layers:
        if la.workload_pct is not None:
            seen = True
            cores.update(k for k, share in enumerate(la.workload_pct) if share > 0)
    if not seen or not cores:
        return None
    return "core" + "+".join(str(k) for k in sorted(cores))


def _mhz(profile: Profile, domain: str) -> str | None:
    """The NPU or DDR clock the log names: its eval_perf frequency list, else its clock lines
    (``Get DDR frequency: 528MHz``); None when it names none."""
    freqs = profile.frequencies
    hz = (freqs.npu_hz if domain == "NPU" else freqs.ddr_hz) if freqs else ()
    known = [f / 1e6 for f in hz if f]
    if not known:
        known = [
            run.mhz
            for run in profile.run_lines
            if run.kind == "clock" and run.domain == domain and run.mhz
        ]
    return "/".join(f"{mhz:g} MHz" for mhz in dict.fromkeys(known)) if known else None


MIN_MEDIAN_FRAMES = 3
"""Frames from which per-layer medians no longer hang on one frame (a warm-up, a stall)."""


FRAMES_HINT = (
    f" (a frame's times against medians: capture {MIN_MEDIAN_FRAMES} or more frames on both sides)"
)


def _table_kind(profile: Profile) -> str:
    """Whether the run has a per-layer table, or what it is without one (an uninstrumented
    run's total, a benchmark, a ranking, an RKLLM run): a timed table against an untimed run
    is named as such, not as 'only 0 of 89 layers align'."""
    if profile.layers:
        return "timed layer by layer"
    if profile.llm is not None:
        return "none (an RKLLM run)"
    if profile.ranking:
        return "none (a ranking by op type)"
    return "none (an uninstrumented run: its total only)"


def _frames_apart(base: int, current: int) -> tuple[int | None, int | None]:
    """The two frame counts when they make the runs unlike (one side's figures hang on fewer
    than :data:`MIN_MEDIAN_FRAMES` frames and the other's on a different count: a single
    frame against medians); else ``(None, None)``, no difference (27 against 28 frames are
    medians on both sides)."""
    if base != current and min(base, current) < MIN_MEDIAN_FRAMES:
        return base, current
    return None, None


RESHAPED_SHARE = 0.25
"""From this share of the layers aligned by FullName with other output shapes, under one input
shape, the runs are of other models (yolov5s against yolov5n: the same graph, every layer's
channels changed); a fix that reshapes a few layers (channels padded to the NPU's alignment)
stays under it."""


def reshaped_layers(base: Profile, current: Profile, pairs: list[tuple[int, int]]) -> str | None:
    """``layer shapes: …`` when, under the same (or an unknown) input shape, at least
    :data:`RESHAPED_SHARE` of the layers aligned by FullName (``pairs``: BASE id, CURRENT id)
    have other output shapes; else None."""
    inputs = input_shapes(base), input_shapes(current)
    if None not in inputs and inputs[0] != inputs[1]:
        return None  # the input shape line says it, and a resolution fix is judged on it
    before = {la.id: la.output_shapes for la in base.layers}
    after = {la.id: la.output_shapes for la in current.layers}
    known = [(before.get(b), after.get(c)) for b, c in pairs if before.get(b) and after.get(c)]
    moved = sum(1 for b, c in known if b != c)
    if not known or moved < len(known) * RESHAPED_SHARE:
        return None
    return (
        f"layer shapes: {moved} of {len(known)} layers aligned by FullName have other output "
        "shapes under the same input (another width of the model?)"
    )


def comparability(base: Profile, current: Profile) -> list[str]:
    """What differs between the runs' conditions, one ``what: base vs current`` line each.
    A value unknown on either side is not called a difference."""
    checks: list[tuple[str, object, object]] = [
        (
            "measured",
            "measured" if base.measured else "estimated",
            "measured" if current.measured else "estimated",
        ),
        ("platform", base.platform, current.platform),
        ("runtime version", base.versions.runtime, current.versions.runtime),
        ("rkllm runtime version", base.versions.llm_runtime, current.versions.llm_runtime),
        ("driver version", base.versions.driver, current.versions.driver),
        ("NPU frequency", _mhz(base, "NPU"), _mhz(current, "NPU")),
        ("DDR frequency", _mhz(base, "DDR"), _mhz(current, "DDR")),
        ("NPU cores used", cores_used(base), cores_used(current)),
        ("input shape", input_shapes(base), input_shapes(current)),
        ("input tensors", _printed_inputs(base), _printed_inputs(current)),
        ("data type", data_types(base), data_types(current)),
        (
            "per-layer table",
            *(
                (_table_kind(base), _table_kind(current))
                if bool(base.layers) != bool(current.layers)
                else (None, None)
            ),
        ),
        (
            "frames merged",
            *(
                _frames_apart(base.frames, current.frames)
                if base.layers and current.layers
                else (None, None)  # (a benchmark's runs are no merged frames)
            ),
        ),
    ]
    lines = [
        f"{what}: {b} vs {c}" + (FRAMES_HINT if what == "frames merged" else "")
        for what, b, c in checks
        if b is not None and c is not None and b != c
    ]
    for side, profile in (("BASE", base), ("CURRENT", current)):
        validity = profile.validity
        if validity is not None and validity.coverage is Coverage.DAMAGED:
            lines.append(f"{side}'s table is damaged ({validity.coverage_reason})")
        if validity is not None and not validity.is_measurement:
            spoilers = "; ".join(c.message for c in validity.conditions if c.spoils_timing)
            lines.append(f"{side} is not a measurement ({spoilers})")
        if (why := rows_left_out(profile)) is not None:
            total = (
                "its total is the log's own total line"
                if whole_frame_total(profile)
                else "its total covers the rows shown only"
            )
            lines.append(
                f"{side} shows part of the model ({why}): {total}, and the layers it lacks are "
                "counted as not shown"
            )
    return lines
