from __future__ import annotations

from parser_helpers import corpus_lines, lines_of, of_type, run

from rknnprof.model import Target
from rknnprof.parsers.build_table import BuildTableParser
from rknnprof.parsers.events import TableEvent

HEADER = (
    "ID   OpType             DataType Target InputShape                               "
    "OutputShape            Cycles(DDR/NPU/Total)    RW(KB)       FullName"
)
RULE = "-" * 193


def tables(text: str) -> list[TableEvent]:
    return of_type(run(BuildTableParser(), lines_of(text)), TableEvent)


def test_header_layout_rows_are_estimates() -> None:
    [event] = tables(
        f"""{RULE}
{HEADER}
{RULE}
0    InputOperator      INT8     CPU    \\                                        (1,3,640,640)          0/0/0                    1200         InputOperator:images
1    ConvRelu           INT8     NPU    (1,3,640,640),(16,3,3,3),(16)            (1,16,320,320)         164250/921600/921600     1202         Conv:Conv_0
{RULE}
unrelated line"""
    )
    assert event.measured is False and event.family == "toolkit2-build-estimate"
    assert [la.id for la in event.layers] == [0, 1]
    conv = event.layers[1]
    assert (conv.ddr_cycles, conv.npu_cycles, conv.total_cycles) == (164250, 921600, 921600)
    assert conv.time_us is None and conv.rw_kb == 1202 and conv.full_name == "Conv:Conv_0"
    assert event.layers[0].target is Target.CPU and event.layers[0].input_shapes is None
    assert (event.line, event.last_line) == (2, 6)


def test_measured_header_is_not_opened() -> None:
    measured = (
        "ID   OpType  DataType Target InputShape  OutputShape  Cycles(DDR/NPU/Total)  Time(us)  "
        "MacUsage(%)  WorkLoad(0/1/2)  RW(KB)  FullName"
    )
    assert tables(measured) == []


def test_sparse_ratio_column_from_header() -> None:
    [event] = tables(
        "ID   OpType    DataType Target InputShape     OutputShape   Cycles(DDR/NPU/Total)  "
        "SparseRatio  RW(KB)  FullName\n"
        "3    Conv      INT8     NPU    (1,8,8,8),(8,8,1,1)  (1,8,8,8)   10/20/20   50%(OC)   16   Conv:c\n"
        "4    Conv      INT8     NPU    (1,8,8,8),(8,8,1,1)  (1,8,8,8)   10/20/20   0%   16   Conv:d"
    )
    assert [la.sparse_ratio for la in event.layers] == ["50%(OC)", "0%"]
    assert all(la.extra == () for la in event.layers)


def test_empty_full_name_and_long_op_type_overflow() -> None:
    [event] = tables(
        f"{HEADER}\n"
        "7    cstInstanceNormalization_1_256_64_64 FLOAT16  CPU    (1,256,64,64)  (1,256,64,64)  0/0/0  4096\n"
    )
    [layer] = event.layers
    assert layer.op_type == "cstInstanceNormalization_1_256_64_64" and layer.full_name is None


def test_older_three_cycle_layout_without_header() -> None:
    [event] = tables(
        "12   ConvRelu         INT8     NPU    (1,128,80,80),(64,128,1,1),(64)          (1,64,80,80)           "
        "52317        51200        52317        3/0          808          Conv:Conv_31    "
    )
    [layer] = event.layers
    assert (layer.ddr_cycles, layer.npu_cycles, layer.total_cycles) == (52317, 51200, 52317)
    assert layer.extra == (("Tasks", "3/0"),) and layer.rw_kb == 808
    assert event.measured is False


def test_measured_1_5_row_is_not_taken_for_the_older_layout() -> None:
    row = (
        "1    InputOperator    UINT8    CPU    \\                                            (1,3,224,224)          "
        "0              0              0              7              \\              0.0%/0.0%/0.0% - Up:0.0%               "
        "0              0              147.00         InputOperator:data"
    )
    assert tables(row) == []


def test_corpus_14_rows_read_by_hand(corpus) -> None:
    [event] = of_type(run(BuildTableParser(), corpus_lines(corpus("14_"))), TableEvent)
    assert event.measured is False
    # Rows 12-17 complete; row 18 is cut after its OutputShape.
    assert [la.id for la in event.layers] == [12, 13, 14, 15, 16, 17]
    assert [la.rw_kb for la in event.layers] == [808, 404, 836, 404, 836, 800]
    assert [la.total_cycles for la in event.layers] == [52317, 51200, 230400, 51200, 230400, 69266]
    assert event.layers[5].full_name == "Concat:Concat_33"
    assert event.layers[2].input_shapes_truncated is True
    assert [s.line for s in event.skipped] == [7]


def test_corpus_15_header_only(corpus) -> None:
    [event] = of_type(run(BuildTableParser(), corpus_lines(corpus("15_"))), TableEvent)
    assert event.measured is False and event.layers == ()
    assert event.line == 9  # the header line
    assert [s.line for s in event.skipped] == [11]  # `0    InputOperat` (cut)
