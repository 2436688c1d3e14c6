"""Where one inference's time goes, from the application's own timings beside a table.

Inputs (all per inference, microseconds): the table's frame (``Profile.frame_total_us``, split
into NPU layers and the rest), the application's calls (``Profile.app_calls``: ``rknn_inputs_set``,
``rknn_run``, ``rknn_outputs_get``), its whole-inference line (``Profile.app_time_us``), and
rknn_benchmark's ``Avg Time`` (its loop times ``rknn_run`` alone, so it stands for ``rknn_run``
when the log prints no ``rknn_run`` line). Steps, in order:

* ``npu_layers`` / ``cpu_layers``: the table's layers on the NPU, and the rest of the frame (CPU
  layers, InputOperator/OutputOperator, rows an elided table leaves out); ``all_layers`` instead
  for a perf_debug=False ``Total Time(us)`` without rows (NPU and CPU not told apart);
* ``run_overhead``: ``rknn_run`` minus the table's frame (job submission, waiting for the
  NPU's interrupt, the runtime's own work); 0 when ``rknn_run`` is below the frame, which the
  note explains (perf_debug inflates layer times);
* ``inputs_set`` / ``outputs_get``: those calls as timed (copies, layout and type conversion,
  cache syncs of the general API);
* ``remainder``: the application's total minus all of the above (pre- and post-processing or
  whatever else its timer spans).

The total is the application's whole-inference line, else the sum of the calls it timed. When
the parts exceed that line, the remainder is 0, the total is the parts' sum and the note says so,
so the steps always add up to ``total_us``. Without a table time, or with nothing the
application timed, there is no waterfall.

The NPU part of a table without rows is its ranking's NPUTime column (corpus 43). Worked
example (tests/data/app_timing/demo_eval_time.txt): table 21,300 us of which 20,100 on the NPU;
``rknn_inputs_set use 1.9 ms``, ``rknn_run use 23.6 ms``, ``rknn_outputs_get use 2.5 ms``,
``Total inference time: 30.0 ms`` -> NPU 20,100 + CPU 1,200 + overhead 2,300 + inputs
1,900 + outputs 2,500 + remainder 2,000 = 30,000.
"""

from __future__ import annotations

from dataclasses import dataclass

from rknnprof.analysis.figures import frame_total_us
from rknnprof.model import Profile, Target
from rknnprof.units import frame_ms


@dataclass(frozen=True, slots=True)
class WaterfallStep:
    """One part of an inference's time: ``key`` is ``npu_layers``, ``cpu_layers``,
    ``run_overhead``, ``inputs_set``, ``outputs_get`` or ``remainder``; ``label`` says it for
    people; ``time_us`` is microseconds per inference; ``basis`` where the number comes from."""

    key: str
    label: str
    time_us: float
    basis: str


@dataclass(frozen=True, slots=True)
class Waterfall:
    """Where one inference's time goes, as the application measured it around the runtime's
    calls; the steps add up to ``total_us`` (``total_basis`` says where that comes from)."""

    total_us: float
    """The application's time for one inference, microseconds (its line, else its calls' sum)."""
    total_basis: str
    steps: tuple[WaterfallStep, ...]
    note: str = ""
    """What does not fit (the table above ``rknn_run``: perf_debug), empty when nothing."""

    @property
    def outside_us(self) -> float:
        """The time outside the table's layers, microseconds (every step but the layers)."""
        return float(sum(s.time_us for s in self.steps if not s.key.endswith("_layers")))


def waterfall_of(profile: Profile) -> Waterfall | None:
    """The profile's waterfall with labels and bases (what reporters and rules show), or ``None``
    when analysis stored none (``Profile.waterfall_us``: the same steps' keys and times)."""
    if not profile.waterfall_us:
        return None
    return compute_waterfall(profile)


def waterfall_pairs(profile: Profile) -> tuple[tuple[str, float], ...]:
    """``Profile.waterfall_us`` as analysis stores it: (step key, us) pairs of
    :func:`compute_waterfall`, empty when there is none."""
    fall = compute_waterfall(profile)
    return tuple((s.key, s.time_us) for s in fall.steps) if fall else ()


def compute_waterfall(profile: Profile) -> Waterfall | None:
    """The profile's :class:`Waterfall` (module doc), or ``None`` when the log lacks either side."""
    frame = frame_total_us(profile)
    calls = dict(profile.app_calls)
    bench = profile.benchmark
    run, run_what = calls.get("rknn_run"), "rknn_run"
    if run is None and bench is not None and bench.avg_time_ms is not None:
        run, run_what = bench.avg_time_ms * 1000.0, "rknn_benchmark's Avg Time (rknn_run)"
    inputs, outputs = calls.get("rknn_inputs_set"), calls.get("rknn_outputs_get")
    if not frame or (profile.app_time_us is None and run is None):
        return None
    if profile.layers or profile.ranking:
        npu_time = (
            profile.time_on(Target.NPU)
            if profile.layers
            else float(sum(s.npu_time_us for s in profile.ranking))
        )
        npu = min(npu_time, frame)
        where = "rows" if profile.layers else "ranking's NPUTime"
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
    else:  # a perf_debug=False total: the model's time, NPU and CPU not told apart
        steps = [
            WaterfallStep(
                "all_layers",
                "the model's layers (total)",
                frame,
                "the log's Total Time(us) (perf_debug=False)",
            )
        ]
    notes = []
    if run is not None:
        overhead = max(run - frame, 0.0)
        if run < frame:
            notes.append(
                f"{run_what} {frame_ms(run)} is below the table's {frame_ms(frame)}: "
                "the table was taken with perf_debug, which inflates layer times"
            )
        steps.append(
            WaterfallStep(
                "run_overhead",
                "rknn_run overhead",
                overhead,
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
    if profile.app_time_us is not None:
        total, total_basis = float(profile.app_time_us), "the application's inference time line"
    else:
        timed = [
            name
            for name in ("rknn_inputs_set", "rknn_run", "rknn_outputs_get")
            if name in calls or (name == "rknn_run" and run is not None)
        ]
        total, total_basis = (
            parts,
            "the sum of the calls the application timed (" + ", ".join(timed) + ")",
        )
    remainder = total - parts
    if remainder < -0.5:
        notes.append(
            f"the application's {frame_ms(total)} is less than its parts "
            f"({frame_ms(parts)}): its timer spans less than the calls it timed"
        )
        total, total_basis, remainder = parts, "the sum of the parts", 0.0
    if remainder > 0.5:
        steps.append(
            WaterfallStep(
                "remainder",
                "rest of the timed span",
                remainder,
                f"{frame_ms(total)} ({total_basis}) − the parts above",
            )
        )
    return Waterfall(
        total_us=total, total_basis=total_basis, steps=tuple(steps), note="; ".join(notes)
    )
