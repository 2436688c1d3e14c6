"""Fallback warnings attached to the layers they name (``Layer.fallback``, issue #3).

The logs are written here, faithful to corpus/FORMATS.md §1.2 (2.x layout: OpType 19 wide,
222-character dash rule, empty MacUsage on non-MAC rows) and to the warning lines of corpus 31
(CPU fallback) and 33 (multi-core record). Which layer gets which warning is fixed by how the
log was written: the Transpose row on the CPU is the one the CPU warning names; the row whose
FullName is ``Conv:/model.22/dfl/conv/Conv`` is the one the multi-core record names.
"""

from __future__ import annotations

import json

from rknnprof.api import analyze
from rknnprof.model import Target
from rknnprof.saved import report_from_dict, report_to_dict

RULE = "-" * 222
HEADER = (
    f"{'ID':<5}{'OpType':<19}{'DataType':<9}{'Target':<7}{'InputShape':<41}{'OutputShape':<23}"
    f"{'Cycles(DDR/NPU/Total)':<25}{'Time(us)':<13}{'MacUsage(%)':<21}{'WorkLoad(0/1/2)':<21}"
    f"{'RW(KB)':<13}{'FullName':<16}"
)

CPU_WARNING = (
    "W RKNN: [13:52:53.504] Transpose will fallback to CPU, because input shape has exceeded the "
    "max limit, height(256) * width(2560) = 655360, required product no larger than 8192!"
)
DFL = "Conv:/model.22/dfl/conv/Conv"
MULTICORE_RECORD = [
    f"W RKNN: [13:48:42.615] Failed to config layer: '{DFL}' using 3Core fallback to single core "
    "mode,",
    "W RKNN: [13:48:42.615] core_num 3 ori_Ih 4 ori_Iw 8400 ori_Ic 16 ori_Ib 1",
    "W RKNN: [13:48:42.615] ori_Kh 1 ori_Kw 1 ori_Kk 1 ori_Kc 16 ori_Ksx 1 ori_Ksy 1",
    "W RKNN: [13:48:42.615] ori_Oh 4 oriOw 8400 oriOc 1 pad_t 0 pad_b 0 pad_l 0 pad_r 0,",
    "W RKNN: [13:48:42.615] Please help report this bug!",
]

# id, op, dtype, target, inputs, output, cycles, time, mac, workload, rw, full name
ROWS = [
    (
        1,
        "InputOperator",
        "UINT8",
        "CPU",
        "\\",
        "(1,3,640,640)",
        "0/0/0",
        12,
        "",
        "0.0%/0.0%/0.0%",
        0,
        "InputOperator:images",
    ),
    (
        2,
        "ConvExSwish",
        "INT8",
        "NPU",
        "(1,3,640,640),(16,3,3,3),(16)",
        "(1,16,320,320)",
        "187693/921600/921600",
        1814,
        "9.53/0.00/0.00",
        "100.0%/0.0%/0.0%",
        1602,
        "Conv:/model.0/conv/Conv",
    ),
    (
        3,
        "Transpose",
        "FLOAT16",
        "CPU",
        "(1,64,256,2560)",
        "(1,64,2560,256)",
        "0/0/0",
        9150,
        "",
        "0.0%/0.0%/0.0%",
        163840,
        "Transpose:/model.1/Transpose",
    ),
    (
        4,
        "Gather",
        "INT8",
        "CPU",
        "(1,64,2560,256),(1)",
        "(1,2560,256)",
        "0/0/0",
        2574,
        "",
        "0.0%/0.0%/0.0%",
        640,
        "Gather:/model.2/Gather",
    ),
    (
        5,
        "Transpose",
        "INT8",
        "NPU",
        "(1,4,16,8400)",
        "(1,16,4,8400)",
        "0/0/0",
        310,
        "",
        "100.0%/0.0%/0.0%",
        1050,
        "Transpose:/model.22/dfl/Transpose",
    ),
    (
        6,
        "Conv",
        "INT8",
        "NPU",
        "(1,16,4,8400),(1,16,1,1)",
        "(1,1,4,8400)",
        "21000/33600/33600",
        298,
        "0.98/0.00/0.00",
        "100.0%/0.0%/0.0%",
        591,
        DFL,
    ),
    (
        7,
        "OutputOperator",
        "INT8",
        "CPU",
        "(1,1,4,8400)",
        "\\",
        "0/0/0",
        9,
        "",
        "0.0%/0.0%/0.0%",
        0,
        "OutputOperator:output0",
    ),
]
TOTAL_US = 12 + 1814 + 9150 + 2574 + 310 + 298 + 9  # = 14167, the log's own total line
TOTAL_RW_KB = 0 + 1602 + 163840 + 640 + 1050 + 591 + 0  # = 167723


def _row(r: tuple) -> str:
    i, op, dt, tg, ins, out, cyc, t, mac, wl, rw, name = r
    return (
        f"{i:<5}{op:<19}{dt:<9}{tg:<7}{ins:<41}{out:<23}{cyc:<25}{t:<13}{mac:<21}{wl:<21}"
        f"{rw:<13}{name:<16}"
    )


def table_lines(rows: list[tuple] = ROWS) -> list[str]:
    title = " " * 74 + "Network Layer Information Table" + " " * 80
    return [
        RULE,
        title,
        RULE,
        HEADER,
        RULE,
        *(_row(r) for r in rows),
        RULE,
        f"Total Operator Elapsed Per Frame Time(us): {TOTAL_US}",
        f"Total Memory Read/Write Per Frame Size(KB): {TOTAL_RW_KB}",
        RULE,
    ]


def profile_of(tmp_path, lines: list[str]):
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = analyze(str(path))
    (profile,) = report.profiles
    return report, profile


def by_id(profile) -> dict[int, object]:
    return {la.id: la.fallback for la in profile.layers}


def test_the_written_table_parses_as_written(tmp_path):
    _, profile = profile_of(tmp_path, table_lines())
    assert [(la.id, la.op_type, la.target) for la in profile.layers] == [
        (r[0], r[1], Target(r[3])) for r in ROWS
    ]
    assert profile.reported_total_time_us == TOTAL_US
    assert all(la.fallback is None for la in profile.layers)  # no warning, nothing attached


def test_cpu_warning_attaches_to_the_cpu_transpose_only(tmp_path):
    _, profile = profile_of(tmp_path, [CPU_WARNING, *table_lines()])
    fallback = by_id(profile)
    assert fallback[3].startswith("cpu:")
    assert "8192" in fallback[3]
    assert fallback[3] == (
        "cpu: input shape has exceeded the max limit, height(256) * "
        "width(2560) = 655360, required product no larger than 8192!"
    )
    # the NPU Transpose (5), the other CPU layers (1, 4, 7) and the NPU layers get nothing
    assert {i for i, f in fallback.items() if f is not None} == {3}
    assert profile.fallback_warnings == (("Transpose", fallback[3].removeprefix("cpu: ")),)


def test_multicore_record_attaches_to_the_named_layer(tmp_path):
    _, profile = profile_of(tmp_path, [*MULTICORE_RECORD, *MULTICORE_RECORD, *table_lines()])
    fallback = by_id(profile)
    assert fallback[6] == "multicore: using 3Core fallback to single core mode"
    assert {i for i, f in fallback.items() if f is not None} == {6}
    assert profile.fallback_warnings == ((DFL, "using 3Core fallback to single core mode"),)


def test_both_warnings_in_one_log(tmp_path):
    _, profile = profile_of(tmp_path, [CPU_WARNING, *MULTICORE_RECORD, *table_lines()])
    fallback = by_id(profile)
    assert fallback[3].startswith("cpu:") and fallback[6].startswith("multicore:")
    assert {i for i, f in fallback.items() if f is not None} == {3, 6}


def test_warnings_naming_no_layer_stay_on_the_profile_only(tmp_path):
    absent = "Conv:/model.99/not/in/table/Conv"
    lines = [
        CPU_WARNING.replace("Transpose", "Softmax"),  # no Softmax row at all
        MULTICORE_RECORD[0].replace(DFL, absent),
        *MULTICORE_RECORD[1:],
        *table_lines(),
    ]
    _, profile = profile_of(tmp_path, lines)
    assert all(la.fallback is None for la in profile.layers)
    subjects = [subject for subject, _ in profile.fallback_warnings]
    assert subjects == ["Softmax", absent]


def test_fallback_survives_the_saved_json_round_trip(tmp_path):
    report, profile = profile_of(tmp_path, [CPU_WARNING, *MULTICORE_RECORD, *table_lines()])
    data = json.loads(json.dumps(report_to_dict(report)))
    assert data["profiles"][0]["layers"][2]["fallback"].startswith("cpu:")
    assert data["profiles"][0]["layers"][0]["fallback"] is None
    (loaded,) = report_from_dict(data).profiles
    assert by_id(loaded) == by_id(profile)
    assert loaded.layers == profile.layers


def test_saved_report_without_the_key_loads_with_none(tmp_path):
    report, _ = profile_of(tmp_path, [CPU_WARNING, *table_lines()])
    data = report_to_dict(report)
    for layer in data["profiles"][0]["layers"]:
        del layer["fallback"]  # a report written before the field existed
    (loaded,) = report_from_dict(data).profiles
    assert all(la.fallback is None for la in loaded.layers)
