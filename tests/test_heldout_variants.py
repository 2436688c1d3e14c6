"""The variants of the held-back corpus samples (02, 12, 17, 18, 23, 26, 32, 42), as described
by corpus/FORMATS.md, on synthetic logs we wrote (tests/data/variants/make_variants.py).

Every expected number is a literal fixed when the log was written (row count, each tricky
row's time/target/op type/full name, the sum, which equals the log's own total line), never
read back from the parser.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rknnprof.api import analyze, load
from rknnprof.cli import cli
from rknnprof.model import Target

DATA = Path(__file__).parent / "data" / "variants"
CUSTOM = "cstInstanceNormalization_1_256_64_64"


def one(name: str):
    report = analyze(str(DATA / name))
    (profile,) = report.profiles
    return profile, [w.message for w in report.warnings]


def layer(profile, layer_id: int):
    return next(la for la in profile.layers if la.id == layer_id)


# name -> (layers, sum of Time(us) == total line, RW total, CPU row ids, CPU time)
EXPECTED = {
    "v02_2x17_three-core.txt": (7, 10325, 46918, (1, 7), 28),
    "v12_android-demo_gather-cpu.txt": (6, 4972, 9050, (1, 3, 6), 2617),
    "v17_2x19_total-row.txt": (6, 1779, 3855, (1, 6), 67),
    "v18_2x17_empty-mac_custom-op.txt": (7, 21415, 16005, (1, 3, 5, 7), 16379),
    "v23_logcat-threadtime_server-tag.txt": (4, 797, 1475, (1, 4), 20),
    "v26_python-eval_perf_resize-cpu.txt": (8, 41710, 176528.5, (1, 3, 5, 6, 8), 23970),
    "v32_bare-fallback-warning.txt": (4, 7915, 6656, (1, 2, 4), 6385),
    "v42_v15_python_broken-rows.txt": (12, 10787, 17.9105 * 1024, (1, 11, 12), 2314),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts_and_sums(name):
    n_layers, total, rw_kb, cpu_ids, cpu_us = EXPECTED[name]
    profile, _ = one(name)
    assert len(profile.layers) == n_layers
    assert [la.id for la in profile.layers] == list(range(1, n_layers + 1))
    assert profile.total_time_us == total
    assert profile.reported_total_time_us == total
    assert profile.reported_rw_kb == pytest.approx(rw_kb)
    assert tuple(la.id for la in profile.layers if la.target is Target.CPU) == cpu_ids
    assert sum(la.time_us for la in profile.layers if la.target is Target.CPU) == cpu_us
    assert not profile.skipped_rows


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - {"v42_v15_python_broken-rows.txt"}))
def test_consistent_logs_give_no_warnings(name):
    _, warnings = one(name)
    assert warnings == []


def test_02_three_cores_ddr_cycles_and_backslash_mac():
    profile, _ = one("v02_2x17_three-core.txt")
    conv = layer(profile, 2)
    assert conv.workload_pct == (33.3, 33.3, 33.3)
    assert conv.mac_usage_pct == 0.77  # the same number printed per core slot, not a breakdown
    add = layer(profile, 4)
    assert (add.op_type, add.ddr_cycles, add.npu_cycles, add.total_cycles) == (
        "Add",
        467541,
        0,
        467541,
    )
    assert add.mac_usage_pct is None  # "\"
    assert add.full_name == "Add:node_add"  # padded to 16 in the log
    assert layer(profile, 5).full_name == "Concat:/Concat"
    assert layer(profile, 5).input_shapes_truncated
    assert [s.op_type for s in profile.ranking] == [
        "ConvExSwish",
        "Concat",
        "Add",
        "MaxPool",
        "OutputOperator",
        "InputOperator",
    ]


def test_12_android_demo_gather_on_cpu_and_sdk_version():
    profile, _ = one("v12_android-demo_gather-cpu.txt")
    gather = layer(profile, 3)
    assert (gather.op_type, gather.target, gather.time_us) == ("Gather", Target.CPU, 2574)
    assert (gather.ddr_cycles, gather.npu_cycles, gather.total_cycles) == (0, 0, 0)
    assert profile.versions.runtime == "2.0.0b0" and profile.versions.driver == "0.7.2"
    gather_rank = next(s for s in profile.ranking if s.op_type == "Gather")
    assert (gather_rank.cpu_time_us, gather_rank.npu_time_us) == (2574, 0)


def test_17_nineteen_wide_empty_mac_and_total_row():
    profile, _ = one("v17_2x19_total-row.txt")
    concat = layer(profile, 3)
    assert (concat.ddr_cycles, concat.npu_cycles, concat.mac_usage_pct, concat.rw_kb) == (
        0,
        0,
        None,
        800,
    )
    assert concat.workload_pct == (100.0, 0.0, 0.0)
    sdpa = layer(profile, 5)
    assert (sdpa.op_type, sdpa.data_type, sdpa.full_name) == (
        "exSDPAttention",
        "FLOAT16",
        "exSDPAttention:node_matmul_1#1_2sdpa",
    )
    assert layer(profile, 1).mac_usage_pct is None
    assert sum(s.total_time_us for s in profile.ranking) == 1779  # Total row kept apart


def test_18_custom_op_overflows_op_type_column():
    profile, _ = one("v18_2x17_empty-mac_custom-op.txt")
    custom = layer(profile, 5)
    assert (custom.op_type, custom.target, custom.time_us, custom.data_type) == (
        CUSTOM,
        Target.CPU,
        13467,
        "FLOAT16",
    )
    assert custom.input_shapes == ((1, 256, 64, 64), (256,), (256,))
    assert custom.full_name == f"{CUSTOM}:/model/block/InstanceNormalization"
    assert custom.rw_kb == 2050
    pad = layer(profile, 3)
    assert (pad.op_type, pad.target, pad.time_us, pad.mac_usage_pct) == (
        "Pad",
        Target.CPU,
        2831,
        None,
    )
    conv = layer(profile, 4)
    assert (conv.mac_usage_pct, conv.total_cycles) == (99.0, 4718592)
    assert profile.ranking[0].op_type == CUSTOM and profile.ranking[0].cpu_time_us == 13467


def test_23_logcat_server_tag_trailing_blanks():
    profile, _ = one("v23_logcat-threadtime_server-tag.txt")
    assert profile.pid_tid == (2051, 2060)
    assert profile.versions.runtime == "2.0.0b0" and profile.versions.driver == "0.9.2"
    assert layer(profile, 3).full_name == "Conv:conv2_1/dw"
    assert layer(profile, 4).full_name == "OutputOperator:prob"


def test_26_python_eval_perf_preamble_empty_full_name_resize_on_cpu():
    profile, _ = one("v26_python-eval_perf_resize-cpu.txt")
    assert profile.frequencies is not None
    assert profile.frequencies.cpu_khz == (1800000, 2400000, 2400000)
    assert profile.frequencies.npu_hz == (1000000000,)
    assert profile.frequencies.ddr_hz == (None,)
    conv = layer(profile, 2)
    assert (conv.op_type, conv.full_name, conv.rw_kb, conv.mac_usage_pct) == (
        "Conv",
        None,
        33280,
        0.67,
    )
    resizes = [la for la in profile.layers if la.op_type == "Resize"]
    assert [(la.id, la.target, la.time_us) for la in resizes] == [
        (3, Target.CPU, 17883),
        (5, Target.CPU, 3904),
        (6, Target.CPU, 1903),
    ]
    resize_rank = next(s for s in profile.ranking if s.op_type == "Resize")
    assert (resize_rank.calls, resize_rank.cpu_time_us) == (3, 23690)


def test_32_bare_fallback_warning():
    profile, _ = one("v32_bare-fallback-warning.txt")
    (warning,) = profile.fallback_warnings
    assert warning[0] == "Transpose"
    assert warning[1].startswith("input shape has exceeded the max limit, height(256)")
    assert warning[1].endswith("no larger than 8192!")
    assert layer(profile, 2).target is Target.CPU


def test_42_v15_python_broken_rows_and_overflowing_shapes():
    profile, warnings = one("v42_v15_python_broken-rows.txt")
    assert profile.format == "toolkit2-perf-table-v15"
    assert profile.versions.api == "1.5.0" and profile.versions.runtime == "1.5.0"
    wide = layer(profile, 4)
    assert wide.input_shapes == ((1, 64, 80, 80),) * 4 and wide.output_shapes == ((1, 256, 80, 80),)
    assert layer(profile, 9).input_shapes_truncated
    assert (layer(profile, 9).time_us, layer(profile, 9).ddr_cycles) == (1150, 640000)
    broken = layer(profile, 7)  # cut after its DDR Cycles "0"; next line starts "281551"
    assert (broken.ddr_cycles, broken.npu_cycles, broken.total_cycles, broken.time_us) == (
        0,
        281551,
        281551,
        590,
    )
    assert broken.full_name == "Conv:Conv_10"
    cut = layer(profile, 10)  # cut after its padded Total Cycles, then an empty line
    assert (cut.total_cycles, cut.time_us, cut.mac_usage_pct, cut.rw_kb, cut.full_name) == (
        1228800,
        1523,
        1.02,
        3098,
        "Conv:Conv_13",
    )
    assert dict(cut.extra)["Regcmd Size"] == "1024"
    assert dict(cut.extra)["Task Size"] == "2240"
    assert layer(profile, 11).op_type == "exSoftmax13"
    assert sum(s.total_time_us for s in profile.ranking) == 10787
    # the only warnings are the two joined rows (no sum or ranking mismatch)
    assert sorted(warnings) == [
        "row 10 continues on this line (the row was wrapped: read whole)",
        "row 7 continues on this line (the row was wrapped: read whole)",
    ]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cli_json_agrees(name, monkeypatch):
    n_layers, total, _, cpu_ids, _ = EXPECTED[name]
    result = CliRunner().invoke(cli, ["analyze", "-f", "json", str(DATA / name)])
    assert result.exit_code == 0, result.output
    (profile,) = json.loads(result.stdout)["profiles"]
    assert len(profile["layers"]) == n_layers
    assert sum(la["time_us"] for la in profile["layers"]) == total
    assert [la["id"] for la in profile["layers"] if la["target"] == "CPU"] == list(cpu_ids)


def test_load_returns_the_same_profiles():
    (profile,) = load(str(DATA / "v18_2x17_empty-mac_custom-op.txt"))
    assert layer(profile, 5).op_type == CUSTOM


def test_ranking_alone_in_runtime_log_with_wide_op_type_and_collapsed_blanks():
    report = analyze(str(DATA / "vr_ranking_runtime-log_wide-optype.txt"))
    assert [w.message for w in report.warnings] == []
    for profile in report.profiles:
        assert not profile.layers
        assert [
            (s.op_type, s.calls, s.cpu_time_us, s.npu_time_us, s.total_time_us)
            for s in profile.ranking
        ] == [
            ("Gather", 2, 0, 5100, 5100),
            ("Transpose", 3, 1260, 640, 1900),
            ("ConvTransposeSigmoid", 4, 0, 900, 900),
            ("BatchNormalization", 5, 0, 450, 450),
            ("OutputOperator", 1, 30, 0, 30),
        ]
        assert profile.ranking[1].share == pytest.approx(0.2267)
