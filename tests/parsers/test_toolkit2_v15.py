"""The 1.5 layout ("Performance" banner): corpus 04, 05, 38 and hand-built broken rows."""

from __future__ import annotations

from rknnprof.inputs.lines import Line, read_lines
from rknnprof.model import Target
from rknnprof.parsers import scan
from rknnprof.parsers.events import RankingEvent, TableEvent


def events(path):
    with open(path, "rb") as f:
        return list(scan(read_lines(f)))


def from_text(text: str):
    return list(scan(Line(i, t) for i, t in enumerate(text.splitlines(), 1)))


def test_04_lut_number_tail_and_missing_full_name(corpus):
    table, ranking = events(corpus("04_"))
    assert isinstance(table, TableEvent) and isinstance(ranking, RankingEvent)
    assert table.family == "toolkit2-perf-table-v15"
    first, second = table.layers
    assert (first.op_type, first.target, first.time_us, first.rw_kb) == (
        "InputOperator",
        Target.CPU,
        7,
        147.0,
    )
    assert first.extra == (("ImproveTherical", "0.0%"), ("Task Number", "0"), ("Lut Number", "0"))
    assert (second.ddr_cycles, second.npu_cycles, second.total_cycles) == (94150, 10584, 94150)
    assert second.time_us == 428 and second.mac_usage_pct == 2.47 and second.rw_kb == 543.75
    assert second.workload_pct == (100.0, 0.0, 0.0) and second.full_name is None
    assert dict(second.extra)["Task Number"] == "3"
    assert table.reported_total_time_us == 14147 and table.total_line == 12
    assert table.reported_rw_kb is None  # "Total Memory RW Amount(MB): 0" means not counted
    assert table.elided_rows == 1


def test_05_task_size_regcmd_size_tail(corpus):
    table = next(e for e in events(corpus("05_")) if isinstance(e, TableEvent))
    second = table.layers[1]
    assert [k for k, _ in second.extra] == [
        "ImproveTherical",
        "Task Number",
        "Task Size",
        "Regcmd Size",
    ]
    assert second.workload_pct == (0.0, 0.0, 0.0) and second.full_name == "Conv:conv1"
    assert table.reported_total_time_us == 20274


def test_38_formfeed_doc_edited_columns(corpus):
    table = next(e for e in events(corpus("38_")) if isinstance(e, TableEvent))
    assert [la.id for la in table.layers] == list(range(1, 10))
    assert all(la.time_us is None for la in table.layers)
    six = table.layers[5]
    assert six.op_type == "ConvRelu" and six.workload_pct == (48.1, 51.9, 0.0)
    assert six.extra == (("ImproveTherical", "48.1%"),)
    assert [la.op_type for la in table.layers if la.target is Target.CPU] == [
        "InputOperator",
        "Softmax",
        "OutputOperator",
    ]
    assert table.reported_total_time_us == 591


HEADER = (
    "ID   OpType           DataType Target InputShape                                   "
    "OutputShape            DDR Cycles     NPU Cycles     Total Cycles   Time(us)       "
    "MacUsage(%)    WorkLoad(0/1/2)-ImproveTherical        Task Number    Task Size      "
    "Regcmd Size    RW(KB)         FullName        "
)
HEAD = "41   Conv             INT8     NPU    (1,64,56,56),(64,64,1,1),(64)                (1,64,56,56)           0"
TAIL = (
    "281551         281551         400            1.20           100.0%/0.0%/0.0% - Up:0.0%"
    "               2              1024           512            612.50         Conv:conv41"
)


def test_row_broken_across_lines_is_joined_not_a_new_row():
    (table,) = from_text("\n".join([HEADER, HEAD, TAIL]))
    (layer,) = table.layers
    assert layer.id == 41 and layer.line == 2
    assert (layer.ddr_cycles, layer.npu_cycles, layer.total_cycles, layer.time_us) == (
        0,
        281551,
        281551,
        400,
    )
    assert layer.full_name == "Conv:conv41"
    assert table.skipped == ()


def test_row_broken_after_trailing_blanks_and_an_empty_line():
    head = HEAD + " " * 10
    (table,) = from_text(
        "\n".join([HEADER, head, "", TAIL, "Total Operator Elapsed Time(us): 400"])
    )
    assert [la.time_us for la in table.layers] == [400]
    assert table.reported_total_time_us == 400


def test_stray_continuation_without_a_row_is_skipped():
    (table,) = from_text("\n".join([HEADER, TAIL]))
    assert table.layers == ()
    assert table.skipped[0].line == 2 and "not a row" in table.skipped[0].reason
