from __future__ import annotations

from parser_helpers import corpus_lines, lines_of, of_type, run

from rknnprof.model import Target
from rknnprof.parsers.eval_perf_csv import EvalPerfCsvParser
from rknnprof.parsers.events import TableEvent

ROW3 = (
    '3,ConvLeakyRelu,FLOAT16,NPU,"(1,1,160,640),(16,1,3,3),(16)","(1,16,160,640)",589106,28800,'
    "589106,1435,2.01,100.0%/0.0%/0.0%,-,Up:0.0%,3,0,3402.31,Conv:Conv_0"
)


def tables(text: str) -> list[TableEvent]:
    return of_type(run(EvalPerfCsvParser(), lines_of(text)), TableEvent)


def test_row_fields() -> None:
    [event] = tables(ROW3)
    [layer] = event.layers
    assert layer.id == 3 and layer.op_type == "ConvLeakyRelu" and layer.data_type == "FLOAT16"
    assert layer.target is Target.NPU
    assert layer.input_shapes == ((1, 1, 160, 640), (16, 1, 3, 3), (16,))
    assert layer.output_shapes == ((1, 16, 160, 640),)
    assert (layer.ddr_cycles, layer.npu_cycles, layer.total_cycles) == (589106, 28800, 589106)
    assert layer.time_us == 1435 and layer.mac_usage_pct == 2.01
    assert layer.workload_pct == (100.0, 0.0, 0.0)
    assert layer.rw_kb == 3402.31 and layer.full_name == "Conv:Conv_0"
    assert dict(layer.extra) == {"ImproveTherical": "0.0%", "Task Number": "3", "Lut Number": "0"}
    assert event.family == "toolkit2-eval_perf-csv"


def test_three_tail_columns_and_na_shapes() -> None:
    [event] = tables(
        '1,InputOperator,UINT8,CPU,\\,"(1,3,224,224)",0,0,0,7,\\,0.0%/0.0%/0.0%,-,Up:0.0%,0,0,0,147.00,'
        "InputOperator:data"
    )
    [layer] = event.layers
    assert layer.input_shapes is None and layer.mac_usage_pct is None
    assert dict(layer.extra)["Regcmd Size"] == "0"
    assert "Lut Number" not in dict(layer.extra)


def test_header_with_sparse_ratio_column() -> None:
    [event] = tables(
        "ID,OpType,DataType,Target,InputShape,OutputShape,DDR Cycles,NPU Cycles,Total Cycles,"
        "Time(us),MacUsage(%),WorkLoad(0/1/2),-,ImproveTherical,Task Number,SparseRatio,RW(KB),FullName\n"
        '5,Conv,INT8,NPU,"(1,8,8,8)","(1,8,8,8)",1,2,2,10,1.00,100.0%/0.0%/0.0%,-,Up:0.0%,1,50%(IC),'
        "12.00,Conv:c"
    )
    assert event.layers[0].sparse_ratio == "50%(IC)"
    assert event.line == 1 and event.layers[0].line == 2


def test_cut_last_row_is_skipped() -> None:
    [event] = tables(ROW3 + '\n4,ConvLeakyRelu,FLOAT16,NPU,"(1,16')
    assert len(event.layers) == 1 and [s.line for s in event.skipped] == [2]


def test_other_csv_is_not_opened() -> None:
    assert tables("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r") == []


def test_corpus_08(corpus) -> None:
    [event] = of_type(run(EvalPerfCsvParser(), corpus_lines(corpus("08_"))), TableEvent)
    layers = event.layers
    # awk -F, '{s+=$(NF-8)} END{print NR, s}' -> 52 rows, 163836 us
    assert len(layers) == 52 and [la.id for la in layers] == list(range(1, 53))
    assert sum(la.time_us for la in layers) == 163836
    # three CPU rows: two InputOperators and the OutputOperator
    assert [la.id for la in layers if la.target is Target.CPU] == [1, 2, 52]
    # awk: RW column sums to 778730.72 KB
    assert round(sum(la.rw_kb for la in layers), 2) == 778730.72
    # Lut Number is 1 only on the Tanh row (50)
    assert [la.id for la in layers if dict(la.extra)["Lut Number"] != "0"] == [50]
    assert layers[-1].full_name == "OutputOperator:output" and layers[-1].output_shapes is None
    assert event.skipped == ()
