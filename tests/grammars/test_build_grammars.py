"""Compile-time tables are never measurements (issue: the logs people post).

Fixtures (written from the grammar, values by construction):

* ``build_statistics_v15.txt`` -- a 1.5-layout table inside ``RKNNModelBuildPass: [Statistics]``:
  4 rows, Time(us) 0 on every row, no total line. Cycles: conv1 54199/112896/112896, conv2
  59082/6272/59082.
* ``build_placement_232.txt`` -- the 2.3.2 short build header ``ID OpType DataType Target
  InputShape OutputShape FullName``: 5 rows, Gather (id 2) and Softmax (id 3) on the CPU besides
  the Input/Output operators, Conv (id 1) on the NPU.
* ``build_verbose_headerless_rows.txt`` -- rows 5-8 of a 2.x build-verbose table pasted without
  its header: after the ``a/b/c`` cycles only RW(KB) (112, 150, 300, 150) and FullName, where a
  measured row has Time(us), MacUsage and WorkLoad. Conv (id 5) cycles 20110/46080/46080.
"""

from __future__ import annotations

import pytest
from grammar_transports import VARIANTS, fixture, profiles, run


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_zero_time_build_statistics_are_an_estimate(tmp_path, variant, via_stdin):
    (profile,) = profiles(
        VARIANTS[variant](fixture("build_statistics_v15.txt")), tmp_path, via_stdin
    )
    assert profile["measured"] is False
    assert profile["total_time_us"] is None and profile["reported_total_time_us"] is None
    assert [la["time_us"] for la in profile["layers"]] == [None] * 4
    conv1 = profile["layers"][1]
    assert (conv1["op_type"], conv1["ddr_cycles"], conv1["npu_cycles"]) == (
        "ConvRelu",
        54199,
        112896,
    )
    assert not [f for f in profile["findings"] if f["code"] == "RKN050"]  # no perf_debug caveat


def test_zero_time_build_statistics_say_no_total(tmp_path):
    result = run(["analyze"], fixture("build_statistics_v15.txt").encode(), tmp_path, False)
    assert result.exit_code == 0, result.output
    assert "total 0 us" not in result.stdout
    assert "ESTIMATE" in result.stdout
    assert "build-time statistics" in result.stderr


def test_a_measured_table_with_some_zero_times_stays_measured(tmp_path):
    text = fixture("build_statistics_v15.txt").replace(
        "112896         0   ", "112896         35  ", 1
    )
    (profile,) = profiles(text.encode(), tmp_path)
    assert profile["measured"] is True
    assert [la["time_us"] for la in profile["layers"]] == [0, 35, 0, 0]


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_short_build_header_is_a_placement_profile(tmp_path, variant, via_stdin):
    (profile,) = profiles(
        VARIANTS[variant](fixture("build_placement_232.txt")), tmp_path, via_stdin
    )
    assert profile["measured"] is False
    targets = {la["id"]: (la["op_type"], la["target"]) for la in profile["layers"]}
    assert targets == {
        0: ("InputOperator", "CPU"),
        1: ("Conv", "NPU"),
        2: ("Gather", "CPU"),
        3: ("Softmax", "CPU"),
        4: ("OutputOperator", "CPU"),
    }
    assert all(la["time_us"] is None and la["total_cycles"] is None for la in profile["layers"])
    rkn001 = [f for f in profile["findings"] if f["code"] == "RKN001"]
    assert sorted(i for f in rkn001 for i in f["layer_ids"]) == [2, 3]
    assert all(f["est_saving_us"] == 0 for f in rkn001)
    assert all("time not in the log" in f["message"] for f in rkn001)


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_headerless_build_rows_are_an_estimate_not_times(tmp_path, variant, via_stdin):
    data = VARIANTS[variant](fixture("build_verbose_headerless_rows.txt"))
    (profile,) = profiles(data, tmp_path, via_stdin)
    assert profile["measured"] is False and profile["format"] == "toolkit2-build-estimate"
    assert profile["total_time_us"] is None
    layers = profile["layers"]
    assert [la["id"] for la in layers] == [5, 6, 7, 8]
    assert [la["time_us"] for la in layers] == [None] * 4  # 112 etc. are RW(KB), not Time(us)
    assert [la["rw_kb"] for la in layers] == [112, 150, 300, 150]
    conv = layers[0]
    assert (conv["ddr_cycles"], conv["npu_cycles"], conv["total_cycles"]) == (20110, 46080, 46080)
    assert conv["full_name"] == "Conv:/backbone/conv2/Conv"
    assert all(not f["est_saving_us"] for f in profile["findings"])


def test_headerless_build_rows_say_so(tmp_path):
    result = run(
        ["analyze"], fixture("build_verbose_headerless_rows.txt").encode(), tmp_path, False
    )
    assert result.exit_code == 0, result.output
    assert ":1: rows without a table header: only RW(KB) and FullName follow" in result.stderr


def test_build_rows_after_headerless_measured_rows_are_not_times(tmp_path):
    measured = (
        "4    Conv    INT8    NPU    (1,8,40,40),(16,8,3,3),(16)    (1,16,40,40)    "
        "9000/11520/11520    95    4.10/0.00/0.00    100.0%/0.0%/0.0%    80    Conv:/c4\n"
    )
    text = measured + fixture("build_verbose_headerless_rows.txt")
    runtime, build = profiles(text.encode(), tmp_path)
    assert runtime["measured"] is True and [la["id"] for la in runtime["layers"]] == [4]
    assert runtime["layers"][0]["time_us"] == 95 and runtime["layers"][0]["rw_kb"] == 80
    assert build["measured"] is False and [la["id"] for la in build["layers"]] == [5, 6, 7, 8]
    assert all(la["time_us"] is None for la in build["layers"])
