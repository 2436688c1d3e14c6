"""The table engine's one token vocabulary (parsers/table/tokens.py) and its one build_layer.

Where two readers need different rules for the same kind of token, both rules are pinned here
with the reader that needs them, so that merging them by accident fails a test.
"""

from __future__ import annotations

from rknnprof.model import Target
from rknnprof.parsers.table import tokens
from rknnprof.parsers.table.layer import build_layer


def test_numbers_keep_their_printed_kind() -> None:
    assert tokens.to_number("808") == 808 and type(tokens.to_number("808")) is int
    assert tokens.to_number("3402.31") == 3402.31
    assert tokens.to_number("-3") == -3 and type(tokens.to_number("-3")) is int
    assert tokens.to_number("+3") == 3 and type(tokens.to_number("+3")) is int


def test_shape_lists_of_both_readers_give_the_same_shapes() -> None:
    printed = "(1,3,640,640),(12,3,2,2),(12),..."
    assert tokens.SHAPES_RE.match(printed) and tokens.is_shape_list(printed)
    assert tokens.parse_shapes(printed) == (((1, 3, 640, 640), (12, 3, 2, 2), (12,)), True)
    assert tokens.parse_shapes("(1, 16, 160, 640)") == (((1, 16, 160, 640),), False)
    assert tokens.parse_shapes("\\") == (None, False)


def test_where_the_readers_rules_differ() -> None:
    # integers: the printed tables have no signs; the CSV and build readers accept one
    assert not tokens.INT_RE.match("-1") and tokens.is_int("-1")
    # shapes: a negative dimension or blanks only in CSV/build cells
    assert not tokens.SHAPES_RE.match("(-1,3)") and tokens.is_shape_list("(-1,3)")
    # data types: any upper-case word in printed rows; only listed ones (any case) elsewhere
    assert tokens.DTYPE_RE.match("QASYMM8") and not tokens.is_data_type("QASYMM8")
    assert not tokens.DTYPE_RE.match("int8") and tokens.is_data_type("int8")
    # elisions: the printed tables take a line of dots of any length
    assert tokens.ELISION_RE.match("..") and not tokens.is_elision("..")
    assert tokens.is_elision(". . .") and not tokens.ELISION_RE.match(". . .")


def test_targets() -> None:
    assert [tokens.is_target(t) for t in ("NPU", "CPU", "GPU", "npu", "DSP")] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert tokens.parse_target("cpu") is Target.CPU
    assert tokens.parse_target("DSP") is Target.UNKNOWN


def test_build_layer_reads_a_2x_row() -> None:
    # 2.x row: 1 ConvExSwish INT8 NPU (1,3,640,640),(16,3,6,6),(16) (1,16,320,320)
    #          164250/921600/921600 1134 6.72 100.0%/0.0%/0.0% 1600 Conv:/model.0/conv/Conv
    values = {
        "id": "1",
        "op_type": "ConvExSwish",
        "data_type": "INT8",
        "target": "NPU",
        "input": "(1,3,640,640),(16,3,6,6),(16)",
        "output": "(1,16,320,320)",
        "cycles": "164250/921600/921600",
        "time": "1134",
        "mac": "6.72",
        "workload": "100.0%/0.0%/0.0%",
        "rw": "1600",
        "full_name": "Conv:/model.0/conv/Conv",
    }
    layer = build_layer(values, 7)
    assert (layer.id, layer.op_type, layer.target, layer.data_type) == (
        1,
        "ConvExSwish",
        Target.NPU,
        "INT8",
    )
    assert layer.input_shapes == ((1, 3, 640, 640), (16, 3, 6, 6), (16,))
    assert (layer.ddr_cycles, layer.npu_cycles, layer.total_cycles) == (164250, 921600, 921600)
    assert layer.time_us == 1134 and layer.mac_usage_pct == 6.72
    assert layer.workload_pct == (100.0, 0.0, 0.0)
    assert layer.rw_kb == 1600 and type(layer.rw_kb) is int
    assert layer.full_name == "Conv:/model.0/conv/Conv" and layer.line == 7


def test_build_layer_rw_as_float_for_csv_and_estimates() -> None:
    values = {
        "id": "3",
        "op_type": "ConvLeakyRelu",
        "rw": "19200",
        "improve": "0.0%",
        "extra:Task Number": "3",
        "extra:Lut Number": "0",
    }
    layer = build_layer(values, 1, rw_float=True)
    assert layer.rw_kb == 19200.0 and type(layer.rw_kb) is float
    assert layer.extra == (("ImproveTherical", "0.0%"), ("Task Number", "3"), ("Lut Number", "0"))
    assert layer.target is Target.UNKNOWN and layer.time_us is None and layer.input_shapes is None
