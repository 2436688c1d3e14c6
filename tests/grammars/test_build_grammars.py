"""Compile-time tables are never measurements (issue: the logs people post).

Fixtures (written from the grammar, values by construction):

* ``build_statistics_v15.txt`` -- a 1.5-layout table inside ``RKNNModelBuildPass: [Statistics]``:
  4 rows, Time(us) 0 on every row, no total line. Cycles: conv1 54199/112896/112896, conv2
  59082/6272/59082.
* ``build_placement_232.txt`` -- the 2.3.2 short build header ``ID OpType DataType Target
  InputShape OutputShape FullName``: 5 rows, Gather (id 2) and Softmax (id 3) on the CPU besides
  the Input/Output operators, Conv (id 1) on the NPU.
"""

from __future__ import annotations

import pytest
from grammar_transports import VARIANTS, fixture, profiles, run


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_zero_time_build_statistics_are_an_estimate(tmp_path, variant, via_stdin):
    (profile,) = profiles(VARIANTS[variant](fixture("build_statistics_v15.txt")), tmp_path,
                          via_stdin)
    assert profile["measured"] is False
    assert profile["total_time_us"] is None and profile["reported_total_time_us"] is None
    assert [la["time_us"] for la in profile["layers"]] == [None] * 4
    conv1 = profile["layers"][1]
    assert (conv1["op_type"], conv1["ddr_cycles"], conv1["npu_cycles"]) == ("ConvRelu", 54199,
                                                                            112896)
    assert not [f for f in profile["findings"] if f["code"] == "RKN050"]  # no perf_debug caveat


def test_zero_time_build_statistics_say_no_total(tmp_path):
    result = run(["analyze"], fixture("build_statistics_v15.txt").encode(), tmp_path, False)
    assert result.exit_code == 0, result.output
    assert "total 0 us" not in result.stdout
    assert "ESTIMATE" in result.stdout
    assert "build-time statistics" in result.stderr


def test_a_measured_table_with_some_zero_times_stays_measured(tmp_path):
    text = fixture("build_statistics_v15.txt").replace(
        "112896         0   ", "112896         35  ", 1)
    (profile,) = profiles(text.encode(), tmp_path)
    assert profile["measured"] is True
    assert [la["time_us"] for la in profile["layers"]] == [0, 35, 0, 0]


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_short_build_header_is_a_placement_profile(tmp_path, variant, via_stdin):
    (profile,) = profiles(VARIANTS[variant](fixture("build_placement_232.txt")), tmp_path,
                          via_stdin)
    assert profile["measured"] is False
    targets = {la["id"]: (la["op_type"], la["target"]) for la in profile["layers"]}
    assert targets == {0: ("InputOperator", "CPU"), 1: ("Conv", "NPU"), 2: ("Gather", "CPU"),
                       3: ("Softmax", "CPU"), 4: ("OutputOperator", "CPU")}
    assert all(la["time_us"] is None and la["total_cycles"] is None for la in profile["layers"])
    rkn001 = [f for f in profile["findings"] if f["code"] == "RKN001"]
    assert sorted(i for f in rkn001 for i in f["layer_ids"]) == [2, 3]
    assert all(f["est_saving_us"] == 0 for f in rkn001)
    assert all("time not in the log" in f["message"] for f in rkn001)
