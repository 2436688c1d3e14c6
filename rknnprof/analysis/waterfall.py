"""Where one inference's time goes, from the application's own timings beside a table.

Inputs (per inference, microseconds): the table's frame (``Profile.frame_total_us``, split into
NPU layers and the rest), the application's calls (``Profile.app_calls``: ``rknn_inputs_set``,
``rknn_run``, ``rknn_outputs_get``), its whole-inference line (``Profile.app_time_us``), and
rknn_benchmark's ``Avg Time`` (its loop times ``rknn_run`` alone: it stands for ``rknn_run``
when the log prints no ``rknn_run`` line). Steps, in order: ``npu_layers`` / ``cpu_layers`` (or
``all_layers`` for a perf_debug=False ``Total Time(us)``), ``run_overhead`` (``rknn_run`` minus
the frame), ``inputs_set`` / ``outputs_get`` (as timed), ``remainder`` (the application's total
minus the rest: what else its timer spans, which the log does not say).

The contract: the steps add up to ``total_us``, what the application timed (its line, else the
sum of its calls). The table never replaces ``rknn_run``: when the frame is longer than the
time the layers ran in (``rknn_run``; without it, the total less the other calls), perf_debug's
instrumentation inflated it, so the layers are shown as a breakdown of that time, each scaled by
the same factor (``Waterfall.scale``), and a ``table_scaled`` note says so. Only a total line
below the calls it timed (a timer that spans less) makes the total their sum, with a note.

Worked example (tests/data/app_timing/demo_eval_time.txt): table 21,300 us of which 20,100 on
the NPU; inputs 1.9 ms, run 23.6 ms, outputs 2.5 ms, total line 30.0 ms -> NPU 20,100 + CPU
1,200 + overhead 2,300 + inputs 1,900 + outputs 2,500 + remainder 2,000 = 30,000.
"""

from __future__ import annotations

from rknnprof.analysis.figures import frame_total_us
from rknnprof.model import (
    Profile,
    Target,
    Waterfall,
    WaterfallNote,
    WaterfallNoteKind,
    WaterfallStep,
)
from rknnprof.units import frame_ms, part_us

CALLS = ("rknn_inputs_set", "rknn_run", "rknn_outputs_get")
"""The runtime calls an application times, in the order of one inference."""


def _layer_steps(profile: Profile, frame: float) -> list[WaterfallStep]:
    """The table's frame as printed: NPU rows and the rest, or one step for a rowless total."""
    if not (profile.layers or profile.ranking):  # a perf_debug=False total: NPU and CPU as one
        return [
            WaterfallStep(
                "all_layers",
                "the model's layers (total)",
                frame,
                "the log's Total Time(us) (perf_debug=False)",
            )
        ]
    if profile.layers:
        npu, where = profile.time_on(Target.NPU), "rows"
    else:
        npu, where = float(sum(s.npu_time_us for s in profile.ranking)), "ranking's NPUTime"
    npu = min(npu, frame)
    steps = [WaterfallStep("npu_layers", "NPU layers (table)", npu, f"the table's NPU {where}")]
    if frame - npu > 0:
        steps.append(
            WaterfallStep(
                "cpu_layers",
                "CPU and I/O layers",
                frame - npu,
                "the rest of the table's frame (CPU, Input/OutputOperator)",
            )
        )
    return steps


def compute_waterfall(profile: Profile) -> Waterfall | None:
    """The profile's :class:`Waterfall` (module doc), or ``None`` when the log lacks either side."""
    frame = frame_total_us(profile)
    calls = dict(profile.app_calls)
    bench = profile.benchmark
    run, run_what = calls.get("rknn_run"), "rknn_run"
    if run is None and bench is not None and bench.avg_time_ms is not None:
        run, run_what = bench.avg_time_ms * 1000.0, "rknn_benchmark's Avg Time (rknn_run)"
    inputs, outputs = calls.get("rknn_inputs_set"), calls.get("rknn_outputs_get")
    app = profile.app_time_us
    if not frame or (app is None and run is None):
        return None
    steps = _layer_steps(profile, frame)
    notes: list[WaterfallNote] = []
    # the time the layers ran in, as the application saw it
    if run is not None:
        room, room_what = run, run_what
    else:
        assert app is not None
        room = app - (inputs or 0.0) - (outputs or 0.0)
        room_what = "the application's inference time" + (
            " less the calls it timed" if inputs is not None or outputs is not None else ""
        )
    scale = 1.0
    if 0 < room < frame:
        scale = room / frame
        steps = [
            WaterfallStep(
                s.key,
                s.label,
                s.time_us * scale,
                f"{s.basis}, scaled by {scale:.2f} to {room_what}",
            )
            for s in steps
        ]
        notes.append(
            WaterfallNote(
                WaterfallNoteKind.TABLE_SCALED,
                f"the table's {frame_ms(frame)} is longer than the {frame_ms(room)} of {room_what} "
                "(perf_debug's instrumentation inflates layer times): the layers are shown "
                f"as a breakdown of {room_what}, each scaled by {scale:.2f}",
            )
        )
    elif run is not None:
        steps.append(
            WaterfallStep(
                "run_overhead",
                "rknn_run overhead",
                max(run - frame, 0.0),
                f"{run_what} {frame_ms(run)} − the table's {frame_ms(frame)}",
            )
        )
    for key, call, value in (
        ("inputs_set", "rknn_inputs_set", inputs),
        ("outputs_get", "rknn_outputs_get", outputs),
    ):
        if value is not None:
            steps.append(
                WaterfallStep(
                    key, call, float(value), f"the application's {call} line (copy, convert, sync)"
                )
            )
    parts = float(sum(s.time_us for s in steps))
    if app is not None:
        total, total_basis = float(app), "the application's inference time line"
    else:
        timed = [n for n in CALLS if n in calls or (n == "rknn_run" and run is not None)]
        total = parts
        total_basis = "the sum of the calls the application timed (" + ", ".join(timed) + ")"
    remainder = total - parts
    if remainder < -0.5:
        notes.append(
            WaterfallNote(
                WaterfallNoteKind.TIMER_BELOW_CALLS,
                f"the application's {frame_ms(total)} is less than the calls it timed "
                f"({frame_ms(parts)}): its timer spans less than them, so the total is their sum",
            )
        )
        total, total_basis = parts, "the sum of the parts"
    elif remainder > 0.5:
        steps.append(
            WaterfallStep(
                "remainder",
                "rest of the timed span",
                remainder,
                f"{frame_ms(total)} ({total_basis}) − the parts above",
            )
        )
        notes.append(
            WaterfallNote(
                WaterfallNoteKind.TIMER_SPAN_UNKNOWN,
                f"{part_us(remainder)} of the application's {frame_ms(total)} is outside the "
                "calls in the log: what its own timer spans (pre- and post-processing, other "
                "work) is not in the log",
            )
        )
    return Waterfall(
        total_us=total,
        total_basis=total_basis,
        steps=tuple(steps),
        scale=scale,
        notes=tuple(notes),
    )
