"""The 1.6/2.x table: expected values read from the corpus logs (awk on the Time(us) column etc.)."""

from __future__ import annotations

from rknnprof.inputs.lines import Line, read_lines
from rknnprof.model import Target
from rknnprof.parsers import scan
from rknnprof.parsers.events import RankingEvent, TableEvent


def events(path):
    with open(path, "rb") as f:
        return list(scan(read_lines(f)))


def only_table(path) -> TableEvent:
    tables = [e for e in events(path) if isinstance(e, TableEvent)]
    assert len(tables) == 1
    return tables[0]


def from_text(text: str):
    return list(scan(Line(i, t) for i, t in enumerate(text.splitlines(), 1)))


def test_01_all_rows_and_totals(corpus):
    table = only_table(corpus("01_"))
    assert table.family == "toolkit2-perf-table"
    assert len(table.layers) == 108
    assert [la.id for la in table.layers] == list(range(1, 109))
    assert sum(la.time_us for la in table.layers) == 128441
    assert table.reported_total_time_us == 128441
    assert table.total_line == 116
    assert table.reported_rw_kb == 289739
    assert table.skipped == ()


def test_01_cpu_rows_are_the_io_operators(corpus):
    layers = only_table(corpus("01_")).layers
    cpu = [la for la in layers if la.target is Target.CPU]
    assert sorted({la.op_type for la in cpu}) == ["InputOperator", "OutputOperator"]
    assert sum(la.time_us for la in cpu if la.op_type == "OutputOperator") == 1134
    assert [la.time_us for la in cpu if la.op_type == "InputOperator"] == [4]
    assert sum(1 for la in cpu if la.op_type == "OutputOperator") == 9


def test_01_row_fields(corpus):
    layers = {la.id: la for la in only_table(corpus("01_")).layers}
    conv = layers[2]
    assert (conv.op_type, conv.data_type, conv.target) == ("ConvExSwish", "UINT8", Target.NPU)
    assert conv.input_shapes == ((1, 3, 1920, 1920), (16, 3, 3, 3), (16,))
    assert conv.output_shapes == ((1, 16, 960, 960),)
    assert (conv.ddr_cycles, conv.npu_cycles, conv.total_cycles) == (1091036, 8294400, 8294400)
    assert conv.time_us == 16130 and conv.mac_usage_pct == 2.41 and conv.rw_kb == 10802
    assert conv.workload_pct == (100.0, 0.0, 0.0)
    assert conv.full_name == "Conv:/model.0/conv/Conv" and conv.line == 8
    split = layers[5]  # `\` MacUsage, multi-output shape
    assert split.mac_usage_pct is None
    assert split.output_shapes_truncated and split.output_shapes == ((1, 16, 480, 480),)
    assert (split.ddr_cycles, split.npu_cycles) == (623388, 0)
    first = layers[1]
    assert first.input_shapes is None and first.full_name == "InputOperator:images"


def test_07_empty_macusage_and_zero_cycles(corpus):
    table = only_table(corpus("07_"))
    assert len(table.layers) == 93
    assert sum(la.time_us for la in table.layers) == 14478 == table.reported_total_time_us
    assert table.reported_rw_kb == 30114.03
    zero_npu = [la for la in table.layers if la.target is Target.NPU and la.total_cycles == 0]
    assert len(zero_npu) == 28
    assert all(la.mac_usage_pct is None and la.workload_pct == (100.0, 0.0, 0.0) for la in zero_npu)
    add = next(la for la in table.layers if la.id == 9)
    assert (add.op_type, add.time_us, add.rw_kb, add.full_name) == (
        "Add",
        120,
        800,
        "Add:/model.2/m/m.0/Add",
    )


def test_36_full_name_blanks_and_zero_time(corpus):
    table = only_table(corpus("36_"))
    assert len(table.layers) == 168
    assert sum(la.time_us for la in table.layers) == 20344 == table.reported_total_time_us
    assert sum(1 for la in table.layers if la.total_cycles == 0) == 66
    layers = {la.id: la for la in table.layers}
    assert layers[8].full_name == "Add:node_add"
    assert [layers[i].time_us for i in (59, 61, 64, 147, 149, 152)] == [2, 33, 0, 0, 21, 0]
    assert layers[151].op_type == "exSDPAttention" and layers[151].time_us == 1336
    assert layers[151].input_shapes_truncated


def test_01_arrow_prefix_on_rule_and_ranking_follow(corpus):
    evs = events(corpus("01_"))
    assert [type(e).__name__ for e in evs] == ["TableEvent", "RankingEvent"]
    assert evs[0].line == 3  # the title line (the `---> ` rule before it is no table part)


def test_03_elided_rows(corpus):
    table = only_table(corpus("03_"))
    assert [la.id for la in table.layers] == [7, 8, 9]
    assert table.elided_rows == 2
    assert table.layers[1].workload_pct == (33.3, 33.3, 33.3)
    assert table.layers[0].mac_usage_pct == 4.35
    assert any("elided" in m for _, m in table.notes)


def test_10_11_headerless_pipe_prefixed_fragments(corpus):
    t10 = only_table(corpus("10_"))
    assert [la.id for la in t10.layers] == [93, 94, 95, 96, 97]
    assert sum(la.time_us for la in t10.layers) == 758 + 703 + 449 + 218 + 454
    assert [s.line for s in t10.skipped] == [6] and "Time(us)" in t10.skipped[0].reason
    assert "assumed the 2.x column layout" in t10.notes[0][1]
    t11 = only_table(corpus("11_"))
    assert [la.id for la in t11.layers] == [117, 118, 119, 120, 121]
    assert [s.line for s in t11.skipped] == [6]
    assert t11.layers[0].full_name == "Conv:/model.23/one2one_cv2.1/one2one_cv2.1.2/Conv"


def test_16_header_behind_runtime_prefix_with_cut_row(corpus):
    table = only_table(corpus("16_"))
    assert table.layers == ()
    assert [s.line for s in table.skipped] == [6]


def test_37_pdf_extracted_blank_lines_and_elided_columns(corpus):
    evs = events(corpus("37_"))
    table = next(e for e in evs if isinstance(e, TableEvent))
    assert [la.id for la in table.layers] == [1, 2, 3, 4, 55, 56, 57]
    assert sum(la.time_us for la in table.layers) == 1515
    assert table.reported_total_time_us == 12631 and table.reported_rw_kb == 10563
    assert table.elided_rows == 1
    reshape = table.layers[5]
    assert (reshape.op_type, reshape.target, reshape.time_us) == ("Reshape", Target.CPU, 61)
    assert reshape.ddr_cycles is None and reshape.full_name is None
    assert any(isinstance(e, RankingEvent) for e in evs)


def test_43_lone_total_lines(corpus):
    table = only_table(corpus("43_"))
    assert table.layers == () and table.reported_total_time_us == 131201
    assert table.reported_rw_kb == 235155.92


ROW = (
    "{id:<5}{op:<19}INT8     NPU    (1,64,80,80),(64,64,1,1),(64)            (1,64,80,80)"
    "           27862/51200/51200        {t:<13}{mac:<21}100.0%/0.0%/0.0%     436          {name}"
)
HEADER = (
    "ID   OpType             DataType Target InputShape                               "
    "OutputShape            Cycles(DDR/NPU/Total)    Time(us)     MacUsage(%)          "
    "WorkLoad(0/1/2)      RW(KB)       FullName        "
)


def test_overflowing_op_type_and_empty_full_name():
    text = "\n".join(
        [
            HEADER,
            ROW.format(id=1, op="cstInstanceNormalization_1_256_64_64  ", t=13467, mac="", name=""),
            ROW.format(id=2, op="Conv", t=100, mac="5.00/0.00/0.00", name="Conv:a b"),
        ]
    )
    (table,) = from_text(text)
    assert [la.op_type for la in table.layers] == ["cstInstanceNormalization_1_256_64_64", "Conv"]
    assert table.layers[0].full_name is None and table.layers[0].time_us == 13467
    assert table.layers[1].full_name == "Conv:a b"


def test_markdown_indented_table_parses():
    rows = [ROW.format(id=i, op="Conv", t=10 * i, mac="", name=f"Conv:n{i}") for i in (1, 2)]
    text = "\n".join(
        "    " + line for line in [HEADER, *rows, "Total Operator Elapsed Per Frame Time(us): 30"]
    )
    (table,) = from_text(text)
    assert [la.time_us for la in table.layers] == [10, 20]
    assert table.reported_total_time_us == 30


def test_a_total_line_in_exponent_form_is_read_whole():
    """``Time(us): 1.18313e+06`` was read as 1.2 us (the mantissa) and ``1e999999`` as 1 us: the
    first is 1,183,130 us, the second is out of range and not read, with a note."""
    rows = [ROW.format(id=i, op="Conv", t=10 * i, mac="", name=f"Conv:n{i}") for i in (1, 2)]
    total = "Total Operator Elapsed Per Frame Time(us): {}"
    (table,) = from_text("\n".join([HEADER, *rows, total.format("1.18313e+06")]))
    assert table.reported_total_time_us == 1183130
    (table,) = from_text("\n".join([HEADER, *rows, total.format("1e999999")]))
    assert table.reported_total_time_us is None
    assert any("total line not read" in note for _, note in table.notes)


def test_garbled_row_is_kept_as_skipped_with_reason():
    bad = ROW.format(id=3, op="Conv", t="x12", mac="", name="Conv:n3")
    (table,) = from_text(
        "\n".join([HEADER, ROW.format(id=1, op="Conv", t=5, mac="", name="Conv:n"), bad])
    )
    assert len(table.layers) == 1
    assert table.skipped[0].line == 3 and "Time(us)" in table.skipped[0].reason


def test_two_tables_in_one_file_are_two_events():
    one = [
        HEADER,
        ROW.format(id=1, op="Conv", t=5, mac="", name="Conv:n"),
        "-" * 50,
        "Total Operator Elapsed Per Frame Time(us): 5",
    ]
    evs = from_text("\n".join(one + ["some app print"] + one))
    assert [type(e).__name__ for e in evs] == ["TableEvent", "TableEvent"]
    assert evs[1].line == 6


def test_build_time_estimate_header_is_not_claimed():
    header = (
        "ID   OpType             DataType Target InputShape                               "
        "OutputShape            Cycles(DDR/NPU/Total)    RW(KB)       FullName"
    )
    # only the build-estimate family (parsers/build_table.py) claims it, as not measured
    assert [(e.family, e.measured) for e in from_text(header)] == [
        ("toolkit2-build-estimate", False)
    ]
