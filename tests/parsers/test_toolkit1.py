from __future__ import annotations

from parser_helpers import corpus_lines, lines_of, of_type, run

from rknnprof.model import Target
from rknnprof.parsers.events import TableEvent
from rknnprof.parsers.toolkit1 import Toolkit1TableParser

HEADER = "Layer ID    Name                                         Operator            Uid       Time(us)"


def table(text: str) -> TableEvent:
    events = of_type(run(Toolkit1TableParser(), lines_of(text)), TableEvent)
    assert len(events) == 1
    return events[0]


def test_wrapped_names_are_joined_and_ids_may_skip() -> None:
    event = table(
        f"""{HEADER}
0           MobilenetV1/MobilenetV1/Conv2d_0/Relu6_1     TENSOR_TRANS        60        361
            _RKNN_mark_perm_60_0                                                       
2           short_name                                   CONVOLUTION         1         920
Total Time(us): 1281
FPS: 780.64
========================================================================
unrelated"""  # noqa: W291 (the log's trailing spaces are part of the input)
    )
    assert [la.id for la in event.layers] == [0, 2]
    assert (
        event.layers[0].full_name == "MobilenetV1/MobilenetV1/Conv2d_0/Relu6_1_RKNN_mark_perm_60_0"
    )
    assert event.layers[1].full_name == "short_name"
    assert [la.op_type for la in event.layers] == ["TENSOR_TRANS", "CONVOLUTION"]
    assert all(la.target is Target.UNKNOWN and la.ddr_cycles is None for la in event.layers)
    assert event.layers[0].extra == (("Uid", "60"),)
    assert event.reported_total_time_us == 1281
    assert event.last_line == 7
    assert event.family == "toolkit1-perf-table"


def test_indentation_lost_continuation_still_joined_when_name_filled_40_chars() -> None:
    event = table(
        f"""{HEADER}
3 MobilenetV1/MobilenetV1/Conv2d_1_depthwi  DEPTH_WISE_CONV  3  896
se/Relu6_3_2"""
    )
    assert event.layers[0].full_name == "MobilenetV1/MobilenetV1/Conv2d_1_depthwise/Relu6_3_2"
    assert event.layers[0].time_us == 896


def test_markdown_indented_table_and_blank_lines() -> None:
    event = table(
        f"""    {HEADER}

    7           a/b     CONVOLUTION         1         12

                _tail
    9           c       POOLING             2         3"""
    )
    assert [(la.id, la.full_name, la.time_us) for la in event.layers] == [
        (7, "a/b_tail", 12.0),
        (9, "c", 3.0),
    ]


def test_cut_row_is_skipped_not_dropped() -> None:
    event = table(
        f"{HEADER}\n0           a     CONVOLUTION         1         12\n5           MobilenetV1/Mob"
    )
    assert len(event.layers) == 1
    assert [s.line for s in event.skipped] == [3]


def test_no_header_no_block() -> None:
    assert run(Toolkit1TableParser(), lines_of("0  a  CONVOLUTION  1  12")) == []


def test_corpus_09_layers_read_by_hand(corpus) -> None:
    events = of_type(run(Toolkit1TableParser(), corpus_lines(corpus("09_"))), TableEvent)
    assert len(events) == 1
    layers = events[0].layers
    # Read from the log: ids 0,2,3,4,5 (1 is missing), times 361,920,896,1106,430.
    assert [la.id for la in layers] == [0, 2, 3, 4, 5]
    assert [la.time_us for la in layers] == [361, 920, 896, 1106, 430]
    assert [la.op_type for la in layers] == [
        "TENSOR_TRANS",
        "CONVOLUTION",
        "DEPTH_WISE_CONV",
        "CONVOLUTION",
        "DEPTH_WISE_CONV",
    ]
    assert layers[2].full_name == "MobilenetV1/MobilenetV1/Conv2d_1_depthwise/Relu6_3_2"
    assert layers[3].full_name == "MobilenetV1/MobilenetV1/Conv2d_1_pointwise/Relu6_5_2"
    assert events[0].line == 9
    assert events[0].reported_total_time_us is None
