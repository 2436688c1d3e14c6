"""rknnprof/saved.py: a saved JSON report read back into equal model objects; tolerant of extra
and missing optional fields, strict about types and schema_version."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rknnprof.errors import EXIT_USAGE, InputError
from rknnprof.model import (
    Bound,
    BoundBasis,
    Finding,
    Frequencies,
    Layer,
    OpTypeStat,
    Profile,
    Report,
    ReportWarning,
    Severity,
    SourceSpan,
    Target,
    Versions,
)
from rknnprof.saved import (
    is_saved_report,
    load_saved_report,
    looks_like_saved_report,
    report_from_dict,
    report_to_dict,
)

LAYER = Layer(
    id=2,
    op_type="ConvExSwish",
    target=Target.NPU,
    data_type="UINT8",
    input_shapes=((1, 3, 640, 640), (16, 3, 3, 3), (16,)),
    output_shapes=((1, 16, 320, 320),),
    ddr_cycles=164250,
    npu_cycles=921600,
    total_cycles=921600,
    time_us=1888.0,
    mac_usage_pct=2.29,
    workload_pct=(100.0, 0.0, 0.0),
    rw_kb=1202.0,
    full_name="Conv:node_conv2d",
    extra=(("Task Number", "3"),),
    line=7,
    bound=Bound.COMPUTE,
    bound_basis=BoundBasis.CYCLES,
    time_share=0.0928,
)
PROFILE = Profile(
    source=SourceSpan("log.txt", 1, 180),
    format="toolkit2-perf-table",
    layers=(LAYER,),
    frames=3,
    reported_total_time_us=1888.0,
    frame_times_us=(1880.0, 1888.0, 1900.0),
    ranking=(OpTypeStat("ConvExSwish", 1, 0.0, 1888.0, 1888.0, share=1.0),),
    platform="rk3588",
    versions=Versions(runtime="2.3.2", driver="0.9.8"),
    frequencies=Frequencies(cpu_khz=(1800000,), npu_hz=(1000000000,), ddr_hz=(None,)),
    fallback_warnings=(("Softmax", "not supported"),),
    findings=(Finding("RKN001", "cpu-fallback", Severity.ERROR, "m", "f", (2,), 21000.0),),
    pid_tid=(123, 456),
)
REPORT = Report((PROFILE,), (ReportWarning("log.txt", 57, "totals differ"),))


def test_round_trip_is_equal(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report_to_dict(REPORT)))
    assert is_saved_report(path)
    assert load_saved_report(path) == REPORT


def test_contract_field_names():
    data = report_to_dict(REPORT)
    assert data["schema_version"] == 1
    p = data["profiles"][0]
    assert p["total_time_us"] == 1888.0 and p["versions"]["runtime"] == "2.3.2"
    la = p["layers"][0]
    assert la["input_shapes"] == [[1, 3, 640, 640], [16, 3, 3, 3], [16]]
    assert (la["target"], la["bound"], la["bound_basis"]) == ("NPU", "compute", "cycles")


def test_extra_fields_ignored_missing_optional_defaulted():
    data = {
        "schema_version": 1,
        "rknnprof_version": "9.9",
        "future": {"x": 1},
        "profiles": [
            {
                "source": {"path": "a.txt"},
                "format": "f",
                "total_time_us": 5,
                "new_field": [1, 2],
                "layers": [
                    {
                        "id": 1,
                        "op_type": "Add",
                        "time_us": 5,
                        "extra": {"Task Number": "2"},
                        "whatever": True,
                    }
                ],
            }
        ],
    }
    report = report_from_dict(data)
    layer = report.profiles[0].layers[0]
    assert (layer.time_us, layer.target, layer.extra) == (
        5.0,
        Target.UNKNOWN,
        (("Task Number", "2"),),
    )
    assert report.profiles[0].frames == 1 and report.warnings == ()


@pytest.mark.parametrize(
    "data, what",
    [
        ({"schema_version": 2, "profiles": []}, "unsupported schema_version 2"),
        ({"profiles": []}, "unsupported schema_version None"),
        ({"schema_version": 1}, "no 'profiles' list"),
        ({"schema_version": 1, "profiles": [{"format": "f"}]}, "profiles[0].source: missing"),
        (
            {
                "schema_version": 1,
                "profiles": [
                    {
                        "source": {"path": "a"},
                        "format": "f",
                        "layers": [{"id": "x", "op_type": "Add"}],
                    }
                ],
            },
            "profiles[0].layers[0].id: expected int, got a string",
        ),
        (
            {
                "schema_version": 1,
                "profiles": [
                    {
                        "source": {"path": "a"},
                        "format": "f",
                        "layers": [{"id": 1, "op_type": "Add", "target": "TPU"}],
                    }
                ],
            },
            "profiles[0].layers[0].target: 'TPU' is not one of NPU, CPU, GPU, unknown",
        ),
        ([1, 2], "top level is not an object"),
    ],
)
def test_bad_reports(data, what):
    with pytest.raises(InputError) as e:
        report_from_dict(data, "r.json")
    assert what in str(e.value) and str(e.value).startswith("r.json: ")
    assert e.value.exit_code == EXIT_USAGE


def test_corrupt_file_is_one_line(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"schema_version": 1,\n "profiles": [}')
    with pytest.raises(InputError) as e:
        load_saved_report(path)
    assert str(e.value).startswith(f"{path}:2: not a valid JSON report")


def test_detection_by_content(tmp_path):
    assert looks_like_saved_report('\ufeff  {"schema_version": 1}')
    assert not looks_like_saved_report("ID   OpType  DataType ...")
    assert not looks_like_saved_report('{"results": []}')
    log = tmp_path / "x.json"
    log.write_text("D RKNN: [10:00:00.000] Total Time(us): 5\n")
    assert not is_saved_report(log) and not is_saved_report("-")


def test_saving_by_layer_is_an_object_keyed_by_layer_id():
    finding = Finding(
        "RKN011",
        "low-mac-usage",
        Severity.WARNING,
        "m",
        "f",
        (2, 60),
        7150.5,
        saving_by_layer=((2, 5307.5), (60, 1843.0)),
    )
    report = Report((replace(PROFILE, findings=(finding,)),))
    data = json.loads(json.dumps(report_to_dict(report)))
    assert data["profiles"][0]["findings"][0]["saving_by_layer"] == {"2": 5307.5, "60": 1843.0}
    assert report_from_dict(data) == report


def test_saving_by_layer_key_must_be_a_layer_id():
    data = report_to_dict(REPORT)
    data["profiles"][0]["findings"][0]["saving_by_layer"] = {"conv": 3.0}
    with pytest.raises(InputError) as e:
        report_from_dict(data, "r.json")
    assert "profiles[0].findings[0].saving_by_layer: key 'conv' is not a layer id" in str(e.value)
