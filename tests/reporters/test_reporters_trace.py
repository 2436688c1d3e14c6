"""Trace: Chrome trace-event JSON with one track per NPU core and the CPU."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import replace

from rknnprof.model import Report

from .report_samples import HAND_PROFILE, HAND_REPORT, NO_LAYERS_REPORT, render


def _events(report: Report) -> list[dict]:
    document = json.loads(render("trace", report))
    assert set(document) >= {"traceEvents", "displayTimeUnit"}
    return document["traceEvents"]


def test_tracks_and_slices() -> None:
    events = _events(HAND_REPORT)
    threads = {e["tid"]: e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert threads == {
        0: "frames",
        1: "CPU",
        9: "NPU (core not stated)",
        10: "NPU core 0",
        11: "NPU core 1",
        12: "NPU core 2",
    }
    layers = [e for e in events if e["ph"] == "X" and e["cat"].startswith("layer")]
    assert all(isinstance(e["ts"], (int, float)) and e["dur"] >= 0 for e in layers)
    # 12 layers, layer 7 (33/33/33) on three cores -> 14 slices
    assert len(layers) == 14
    assert sorted(e["tid"] for e in layers if e["args"]["id"] == 7) == [10, 11, 12]
    transpose = next(e for e in layers if e["args"]["id"] == 8)
    assert transpose["tid"] == 1 and transpose["dur"] == 3150
    assert transpose["args"]["op_type"] == "Transpose" and transpose["args"]["bound"] == "cpu"
    assert transpose["args"]["full_name"] == "Transpose:/model.22/dfl/Transpose|a"
    conv = next(e for e in layers if e["args"]["id"] == 2)
    assert conv["args"]["cycles"] == {"ddr": 164250, "npu": 921600, "total": 921600}
    assert conv["args"]["input_shapes"] == "1x3x640x640;16x3x3x3;16"
    assert conv["args"]["data_type"] == "UINT8"


def test_execution_order_and_total() -> None:
    layers = [e for e in _events(HAND_REPORT) if e["ph"] == "X" and e["cat"].startswith("layer")]
    unique = {e["args"]["id"]: e for e in layers}
    assert sum(e["dur"] for e in unique.values()) == 11640
    starts = [unique[i]["ts"] for i in sorted(unique)]
    assert starts == sorted(starts) and starts[0] == 0
    assert unique[12]["ts"] + unique[12]["dur"] == 11640


def test_frames_laid_one_after_another() -> None:
    profile = replace(HAND_PROFILE, frames=3, frame_times_us=(11700.0, 11600.0, 11650.0))
    events = _events(Report((profile,)))
    frames = [e for e in events if e.get("cat") == "frame"]
    # issue #13: each frame slice lasts what that frame measured (11700, 11600, 11650), not the
    # 11640 us the per-layer medians sum to; a slot is the longer of the two, so none overlap
    assert [(f["ts"], f["dur"]) for f in frames] == [(0, 11700), (11700, 11600), (23340, 11650)]
    assert frames[1]["args"]["measured_frame_time_us"] == 11600.0
    assert frames[1]["args"]["sum_of_layer_medians_us"] == 11640
    per_frame = defaultdict(dict)
    for e in events:
        if e["ph"] == "X" and e["cat"].startswith("layer"):
            per_frame[e["args"]["frame"]][e["args"]["id"]] = e["dur"]
    assert [sum(d.values()) for _, d in sorted(per_frame.items())] == [11640] * 3
    layer = next(e for e in events if e["ph"] == "X" and e["cat"].startswith("layer"))
    assert layer["args"]["per_layer"] == "median of 3 frames"


def test_the_metadata_says_merged_frames_repeat_the_medians() -> None:
    import io
    import json

    from rknnprof.reporters.base import RenderOptions
    from rknnprof.reporters.trace import TraceReporter

    out = io.StringIO()
    TraceReporter().render(Report((replace(HAND_PROFILE, frames=3),)), out, RenderOptions())
    assert "per-layer medians over the frames" in json.loads(out.getvalue())["otherData"]["frames"]
    out = io.StringIO()
    TraceReporter().render(Report((HAND_PROFILE,)), out, RenderOptions())
    assert "frames" not in json.loads(out.getvalue())["otherData"]


def test_profiles_without_layers() -> None:
    events = _events(NO_LAYERS_REPORT)
    processes = [e["args"]["name"] for e in events if e["name"] == "process_name"]
    assert len(processes) == 4 and processes[3].startswith("ESTIMATE")
    bench = [e for e in events if e["ph"] == "X" and e["pid"] == 3]
    assert [e["dur"] for e in bench] == [27910, 27550, 28020]
