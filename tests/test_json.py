"""The JSON contract (docs/json.md): values read from the logs."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest

from rknnprof.api import analyze
from rknnprof.model import Layer, Profile
from rknnprof.reporters import RenderOptions, get_reporter
from rknnprof.rules import potential_saving_us

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
CONTRACT_PROFILE_KEYS = [
    "source",
    "format",
    "measured",
    "platform",
    "versions",
    "frames",
    "total_time_us",
    "reported_total_time_us",
    "layers",
    "findings",
]


def render(report) -> dict:
    out = io.StringIO()
    get_reporter("json").render(report, out, RenderOptions())
    return json.loads(out.getvalue())


def test_contract_36(corpus):
    data = render(analyze(corpus("36_")))
    assert data["schema_version"] == 1 and data["rknnprof_version"] == "0.1.0"
    (p,) = data["profiles"]
    assert list(p)[: len(CONTRACT_PROFILE_KEYS)] == CONTRACT_PROFILE_KEYS
    assert p["format"] == "toolkit2-perf-table" and p["measured"] is True
    assert p["frames"] == 1 and p["total_time_us"] == 20344 and p["reported_total_time_us"] == 20344
    assert p["versions"] == {
        "runtime": None,
        "driver": None,
        "toolkit": None,
        "api": None,
        "lite": None,
        "server": None,
        "model": None,
        "llm_runtime": None,
        "llm_toolkit": None,
        "llm_dtype": None,
    }
    layer = p["layers"][1]
    assert layer["id"] == 2 and layer["target"] == "NPU" and layer["data_type"] == "UINT8"
    assert layer["input_shapes"] == [[1, 3, 640, 640], [16, 3, 3, 3], [16]]
    assert layer["output_shapes"] == [[1, 16, 320, 320]]
    assert (layer["ddr_cycles"], layer["npu_cycles"], layer["total_cycles"]) == (
        164250,
        921600,
        921600,
    )
    assert layer["time_us"] == 1888 and layer["mac_usage_pct"] == 2.29
    assert layer["workload_pct"] == [100.0, 0.0, 0.0] and layer["rw_kb"] == 1202
    assert layer["full_name"] == "Conv:node_conv2d"
    assert (layer["bound"], layer["bound_basis"]) == ("compute", "cycles")
    assert abs(layer["time_share"] - 1888 / 20344) < 1e-6
    assert data["warnings"] == []


def test_every_model_field_is_serialised(corpus):
    (p,) = render(analyze(corpus("07_")))["profiles"]
    assert {f.name for f in dataclasses.fields(Profile)} <= set(p)
    assert {f.name for f in dataclasses.fields(Layer)} == set(p["layers"][0])
    assert p["ranking"][0] == {
        "op_type": "ConvExSwish",
        "calls": 57,
        "cpu_time_us": 0,
        "npu_time_us": 10643,
        "total_time_us": 10643,
        "gpu_time_us": 0,
        "unknown_time_us": 0,
        "share": 0.7351,
    }
    assert p["op_stats"][0]["total_time_us"] == 10643


def test_warnings_listed(corpus):
    data = render(analyze(corpus("11_")))
    assert {
        "path": str(corpus("11_")),
        "line": 6,
        "message": "skipped row: OutputShape: '(1,128,4' is not a shape list",
    } in data["warnings"]
    assert data["profiles"][0]["skipped_rows"][0]["line"] == 6


def test_potential_saving_is_stored_once_and_written(corpus):
    report = analyze(corpus("07_"))
    (profile,) = report.profiles
    # what the terminal report calls "up to ... at stake", stored by the pipeline, not by a reporter
    assert profile.potential_saving_us == potential_saving_us(profile.findings, profile)
    assert 0 < profile.potential_saving_us <= profile.frame_total_us
    (p,) = render(report)["profiles"]
    assert p["potential_saving_us"] == profile.potential_saving_us


def test_no_rules_no_potential_saving(corpus):
    (p,) = render(analyze(corpus("07_"), rules=False))["profiles"]
    assert p["findings"] == [] and p["potential_saving_us"] is None


def test_frame_percentiles_are_analysis_figures_in_the_json():
    """The sample's three inferences total 27905, 27777 and 28003 us (its total lines): p50
    27905, p90 27905 + 0.8 x (28003 - 27905) = 27983.4."""
    report = analyze(SAMPLES / "yolov5s_rk3588_loglevel4_3frames.txt")
    (p,) = render(report)["profiles"]
    assert p["frame_times_us"] == [27905, 27777, 28003]
    assert p["frame_time_p50_us"] == 27905
    assert p["frame_time_p90_us"] == pytest.approx(27983.4)
    (single,) = render(analyze(SAMPLES / "yolov5s_rk3588_perf.txt"))["profiles"]
    assert single["frame_time_p50_us"] is None and single["frame_time_p90_us"] is None
