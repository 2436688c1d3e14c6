"""Chrome trace-event JSON (``--format trace``, ``-o run.perfetto.json`` or ``-o run.trace``).

Opens in https://ui.perfetto.dev and ``chrome://tracing``: ``{"traceEvents": [...]}`` with
``"X"`` complete events, ``ts``/``dur`` in microseconds, and ``"M"`` metadata events naming the
process (one per profile) and threads (one track per executor).

Tracks (``tid``): ``0`` frames (one slice per frame, the profile total), ``1`` CPU, ``2`` GPU,
``3`` target unknown (toolkit1 tables have no Target column), ``9`` NPU with no core stated
(no WorkLoad column, or 0/0/0), ``10 + n`` NPU core *n*.

Decisions:

* A layer split across cores (WorkLoad ``33.3%/33.3%/33.3%``) is drawn as one slice of the same
  ``ts``/``dur`` on *every* core with a workload above 0; the time axis advances once, so each
  frame spans exactly the profile total (the sum of the layers' times).
* Layers run in table order, back to back: the log gives durations, not start times.
* A merged multi-frame profile keeps only per-layer medians. The frames track draws what was
  measured: each frame slice lasts that frame's own total (``frame_times_us``), so three frames
  of 27,905, 27,777 and 28,003 us look different. The layer tracks repeat the per-layer medians
  in every frame (``args.per_layer``: ``median of N frames``), and the trace metadata
  (``otherData.frames``) says so. A frame's slot is the longer of its measured total and the
  medians' sum, so no slices overlap. At most :data:`MAX_FRAMES` frames are drawn.
* Profiles without layers draw their total (or benchmark runs) on the frames track only.
* Build-time estimates are labelled ``ESTIMATE`` in the process name.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, TextIO

from rknnprof import __version__
from rknnprof.model import Layer, Profile, Report, Target
from rknnprof.reporters import _facts as F
from rknnprof.reporters.base import RenderOptions, Reporter

MAX_FRAMES = 100
"""Most frames drawn per profile (each repeats the per-layer medians)."""
TID_FRAMES, TID_CPU, TID_GPU, TID_UNKNOWN, TID_NPU_ANY, TID_NPU_CORE0 = 0, 1, 2, 3, 9, 10
TRACK_NAMES = {
    TID_FRAMES: "frames",
    TID_CPU: "CPU",
    TID_GPU: "GPU",
    TID_UNKNOWN: "target unknown",
    TID_NPU_ANY: "NPU (core not stated)",
}


def layer_tids(layer: Layer) -> list[int]:
    """The tracks a layer is drawn on (see the module doc)."""
    if layer.target is Target.CPU:
        return [TID_CPU]
    if layer.target is Target.GPU:
        return [TID_GPU]
    if layer.target is Target.NPU:
        cores = [TID_NPU_CORE0 + i for i, w in enumerate(layer.workload_pct or ()) if w > 0]
        return cores or [TID_NPU_ANY]
    return [TID_UNKNOWN]


def layer_args(layer: Layer) -> dict[str, Any]:
    """The ``args`` of a layer slice: what Perfetto shows when the slice is selected."""
    return {
        "id": layer.id,
        "op_type": layer.op_type,
        "full_name": layer.full_name,
        "target": layer.target.value,
        "data_type": layer.data_type,
        "input_shapes": F.shape_text(layer.input_shapes, layer.input_shapes_truncated) or None,
        "output_shapes": F.shape_text(layer.output_shapes, layer.output_shapes_truncated) or None,
        "bound": layer.bound.value,
        "bound_basis": layer.bound_basis.value,
        "cycles": {"ddr": layer.ddr_cycles, "npu": layer.npu_cycles, "total": layer.total_cycles},
        "time_us": layer.time_us,
        "time_share": layer.time_share,
        "mac_usage_pct": layer.mac_usage_pct,
        "workload_pct": list(layer.workload_pct) if layer.workload_pct is not None else None,
        "rw_kb": layer.rw_kb,
    }


def _meta(name: str, pid: int, tid: int | None, value: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"name": name, "ph": "M", "pid": pid, "args": {}}
    if tid is not None:
        event["tid"] = tid
    event["args"]["name" if name.endswith("_name") else "sort_index"] = value
    return event


def _slice(
    name: str, cat: str, pid: int, tid: int, ts: float, dur: float, args: dict[str, Any]
) -> dict[str, Any]:
    """An ``"X"`` (complete) event: ``ts`` and ``dur`` in microseconds."""
    return {
        "name": name,
        "cat": cat,
        "ph": "X",
        "pid": pid,
        "tid": tid,
        "ts": ts,
        "dur": dur,
        "args": args,
    }


def profile_events(profile: Profile, pid: int) -> Iterator[dict[str, Any]]:
    """Metadata plus slices for one profile (process ``pid``), one event at a time: a long
    capture draws up to :data:`MAX_FRAMES` frames of every layer, which as a list of dicts
    was the largest thing in memory."""
    label = F.profile_title(profile)
    if not profile.measured:
        label = f"ESTIMATE (not measured): {label}"
    yield _meta("process_name", pid, None, label)
    yield _meta("process_sort_index", pid, None, pid)
    used: set[int] = {TID_FRAMES}
    for layer in profile.layers:
        used.update(layer_tids(layer))
    for tid in sorted(used):
        name = TRACK_NAMES.get(tid, f"NPU core {tid - TID_NPU_CORE0}")
        yield _meta("thread_name", pid, tid, name)
        yield _meta("thread_sort_index", pid, tid, tid)
    yield from _slices(profile, pid)


def _slices(profile: Profile, pid: int) -> Iterator[dict[str, Any]]:
    total = profile.total_time_us or 0.0
    if profile.layers:
        frames = min(max(profile.frames, 1), MAX_FRAMES)
        start = 0.0
        merged = profile.frames > 1
        tracks = [(layer, layer_tids(layer)) for layer in profile.layers]
        for frame in range(frames):
            measured = (
                profile.frame_times_us[frame] if frame < len(profile.frame_times_us) else None
            )
            frame_args: dict[str, Any] = {"frame": frame, "layers": len(profile.layers)}
            if merged:
                frame_args["sum_of_layer_medians_us"] = total
            if measured is not None:
                frame_args["measured_frame_time_us"] = measured
            yield _slice(
                f"frame {frame}",
                "frame",
                pid,
                TID_FRAMES,
                start,
                measured if measured is not None else total,
                frame_args,
            )
            ts = start
            for layer, tids in tracks:
                dur = layer.time_us or 0.0
                args = layer_args(layer)
                if merged:
                    args["frame"] = frame
                    args["per_layer"] = f"median of {profile.frames} frames"
                for tid in tids:
                    yield _slice(
                        layer.op_type, f"layer,{layer.bound.value}", pid, tid, ts, dur, args
                    )
                ts += dur
            start += max(total, measured or 0.0)
    else:
        runs = profile.benchmark.run_times_ms if profile.benchmark else ()
        durations = [ms * 1000 for ms in runs] or ([total] if total else [])
        start = 0.0
        for frame, dur in enumerate(durations[:MAX_FRAMES]):
            yield _slice(
                f"frame {frame}",
                "frame",
                pid,
                TID_FRAMES,
                start,
                dur,
                {"note": F.kind_note(profile)},
            )
            start += dur


class TraceReporter(Reporter):
    name = "trace"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        other: dict[str, Any] = {
            "generator": f"rknnprof {__version__}",
            "note": "layers laid back to back in table order; per-layer medians for merged frames",
            "warnings": [w.message for w in report.warnings],
        }
        merged = [p for p in report.profiles if p.frames > 1 and p.layers]
        if merged:
            other["frames"] = (
                "frame slices last each frame's measured total; the layer slices in every frame "
                "are the per-layer medians over the frames (the log's frames are merged), not "
                "that frame's own layer times"
            )
        # one event per line: still valid JSON, small, and readable in a diff
        out.write('{"displayTimeUnit":"ms","otherData":')
        out.write(json.dumps(other, ensure_ascii=False, allow_nan=False))
        out.write(',"traceEvents":[\n')
        encode = json.JSONEncoder(
            ensure_ascii=False, allow_nan=False, separators=(",", ":")
        ).encode  # the C encoder
        separator = ""
        for index, profile in enumerate(report.profiles):
            for event in profile_events(profile, index + 1):
                out.write(separator)
                out.write(encode(event))
                separator = ",\n"
        out.write("\n]}\n")
