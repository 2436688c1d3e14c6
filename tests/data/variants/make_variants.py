"""Write the held-back-variant fixtures (``python tests/data/variants/make_variants.py``).

Synthetic logs, faithful to corpus/FORMATS.md, one per variant that the held-back samples
(02, 12, 17, 18, 23, 26, 32, 42) show. Nothing here is copied from a sample: the rows, times
and names are made up, so the tests know every expected number by construction
(tests/test_heldout_variants.py states them as literals).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent


def row2x(
    i, op, dtype, target, shape_in, shape_out, cycles, time_us, mac, workload, rw, name, op_w=17
):
    """One 1.6/2.x row: printf-style ``%-Ns `` cells, so an overlong cell keeps one blank."""
    return (
        f"{i:<4} {op:<{op_w - 1}} {dtype:<8} {target:<6} {shape_in:<40} {shape_out:<22} "
        f"{cycles:<24} {time_us:<12} {mac:<20} {workload:<20} {rw:<12} {name:<16}"
    )


def header2x(op_w=17):
    return row2x(
        "ID",
        "OpType",
        "DataType",
        "Target",
        "InputShape",
        "OutputShape",
        "Cycles(DDR/NPU/Total)",
        "Time(us)",
        "MacUsage(%)",
        "WorkLoad(0/1/2)",
        "RW(KB)",
        "FullName",
        op_w,
    )


def table2x(rows, total_us, rw_kb, op_w=17, prefix=""):
    rule = "-" * (220 if op_w == 17 else 222)
    title = " " * 73 + "Network Layer Information Table" + " " * 79
    lines = [rule, title, rule, header2x(op_w), rule]
    lines += [row2x(*r, op_w=op_w) for r in rows]
    lines += [
        rule,
        f"Total Operator Elapsed Per Frame Time(us): {total_us}",
        f"Total Memory Read/Write Per Frame Size(KB): {rw_kb}",
        rule,
    ]
    return [prefix + line for line in lines]


def ranking2x(rows, total_row, prefix=""):
    """rows: (op, calls, cpu, npu); ratio from the total."""
    total = sum(cpu + npu for _, _, cpu, npu in rows)
    w = max(19, 1 + max(len(r[0]) for r in rows))  # grows with the longest op type (#357)
    rule = "-" * 99
    out = [
        rule,
        " " * 33 + "Operator Time Consuming Ranking Table" + " " * 12,
        rule,
        f"{'OpType':<{w}}{'CallNumber':<13}{'CPUTime(us)':<13}{'GPUTime(us)':<13}"
        f"{'NPUTime(us)':<13}{'TotalTime(us)':<15}{'TimeRatio(%)':<14}",
        rule,
    ]
    for op, calls, cpu, npu in sorted(rows, key=lambda r: -(r[2] + r[3])):
        ratio = f"{100 * (cpu + npu) / total:.2f}%"
        out.append(f"{op:<{w}}{calls:<13}{cpu:<13}{0:<13}{npu:<13}{cpu + npu:<15}{ratio:<14}")
    if total_row:
        cpu = sum(r[2] for r in rows)
        npu = sum(r[3] for r in rows)
        out.append(f"{'Total':<{w}}{'':<13}{cpu:<13}{0:<13}{npu:<13}{cpu + npu:<15}")
    out.append(rule)
    return [prefix + line for line in out]


NA = "\\"
ONE = "100.0%/0.0%/0.0%"
CPU0 = "0.0%/0.0%/0.0%"
THREE = "33.3%/33.3%/33.3%"


def v02():
    """2.0.0b0, 17-wide, three cores (RKNN_NPU_CORE_0_1_2): WorkLoad 33.3% x3, MacUsage
    repeated, Add/Concat with real DDR cycles and ``\\`` MacUsage, no ranking Total row."""
    rows = [
        (
            1,
            "InputOperator",
            "UINT8",
            "CPU",
            NA,
            "(1,3,640,640)",
            "0/0/0",
            5,
            NA,
            CPU0,
            0,
            "InputOperator:images",
        ),
        (
            2,
            "ConvExSwish",
            "UINT8",
            "NPU",
            "(1,3,640,640),(16,3,3,3),(16)",
            "(1,16,320,320)",
            "1091036/8294400/8294400",
            5400,
            "0.77/0.77/0.77",
            THREE,
            10802,
            "Conv:/model.0/conv/Conv",
        ),
        (
            3,
            "ConvExSwish",
            "INT8",
            "NPU",
            "(1,16,320,320),(32,16,3,3),(32)",
            "(1,32,160,160)",
            "935287/2073600/2073600",
            1650,
            "2.10/2.10/2.10",
            THREE,
            14404,
            "Conv:/model.1/conv/Conv",
        ),
        (
            4,
            "Add",
            "INT8",
            "NPU",
            "(1,16,160,160),(1,16,160,160)",
            "(1,16,160,160)",
            "467541/0/467541",
            945,
            NA,
            THREE,
            7200,
            "Add:node_add",
        ),
        (
            5,
            "Concat",
            "INT8",
            "NPU",
            "(1,16,160,160),(1,16,160,160),...",
            "(1,48,160,160)",
            "935081/0/935081",
            2002,
            NA,
            THREE,
            10800,
            "Concat:/Concat",
        ),
        (
            6,
            "MaxPool",
            "INT8",
            "NPU",
            "(1,32,40,40)",
            "(1,32,40,40)",
            "233771/0/233771",
            300,
            NA,
            ONE,
            3600,
            "MaxPool:/model.9/m/MaxPool",
        ),
        (
            7,
            "OutputOperator",
            "INT8",
            "CPU",
            "(1,3,60,60)",
            NA,
            "0/0/0",
            23,
            NA,
            CPU0,
            112,
            "OutputOperator:output",
        ),
    ]
    lines = ["rknn_run"] + table2x(rows, 10325, 46918)
    lines += ranking2x(
        [
            ("ConvExSwish", 2, 0, 7050),
            ("Concat", 1, 0, 2002),
            ("Add", 1, 0, 945),
            ("MaxPool", 1, 0, 300),
            ("OutputOperator", 1, 23, 0),
            ("InputOperator", 1, 5, 0),
        ],
        total_row=False,
    )
    return lines


def v12():
    """Android C demo: version print, ``Performance Details:`` app print, 17-wide table,
    Gather on CPU (2574 us)."""
    rows = [
        (
            1,
            "InputOperator",
            "UINT8",
            "CPU",
            NA,
            "(1,3,320,320)",
            "0/0/0",
            3,
            NA,
            CPU0,
            0,
            "InputOperator:input",
        ),
        (
            2,
            "ConvRelu",
            "UINT8",
            "NPU",
            "(1,3,320,320),(32,3,3,3),(32)",
            "(1,32,160,160)",
            "412000/691200/691200",
            1200,
            "3.50/0.00/0.00",
            ONE,
            2500,
            "Conv:Conv_0",
        ),
        (
            3,
            "Gather",
            "INT8",
            "CPU",
            "(1,256,20,20),(1)",
            "(1,128,20,20)",
            "0/0/0",
            2574,
            NA,
            CPU0,
            150,
            "Gather:Gather_17",
        ),
        (
            4,
            "Add",
            "INT8",
            "NPU",
            "(1,32,160,160),(1,32,160,160)",
            "(1,32,160,160)",
            "120000/0/120000",
            310,
            NA,
            ONE,
            2400,
            "Add:Add_21",
        ),
        (
            5,
            "Conv",
            "INT8",
            "NPU",
            "(1,32,160,160),(64,32,1,1),(64)",
            "(1,64,160,160)",
            "300000/204800/300000",
            845,
            "1.21/0.00/0.00",
            ONE,
            2400,
            "Conv:Conv_30",
        ),
        (
            6,
            "OutputOperator",
            "INT8",
            "CPU",
            "(1,64,160,160)",
            NA,
            "0/0/0",
            40,
            NA,
            CPU0,
            1600,
            "OutputOperator:output",
        ),
    ]
    lines = [
        "rk3588:/data/rknn_damoyolo_demo # ./rknn_damoyolo_demo model/damoyolo.rknn",
        "sdk version: 2.0.0b0 (35a6907d79@2024-03-24T10:30:08) driver version: 0.7.2",
        "model input num: 1, output num: 1",
        "rknn_run",
        "Performance Details:",
    ]
    lines += table2x(rows, 4972, 9050)
    lines += ranking2x(
        [
            ("Gather", 1, 2574, 0),
            ("ConvRelu", 1, 0, 1200),
            ("Conv", 1, 0, 845),
            ("Add", 1, 0, 310),
            ("OutputOperator", 1, 40, 0),
            ("InputOperator", 1, 3, 0),
        ],
        total_row=False,
    )
    return lines


def v17():
    """Later 2.x: 19-wide OpType, 222 rule, 0/0/0 and empty MacUsage for non-MAC ops,
    ranking with a Total row."""
    rows = [
        (
            1,
            "InputOperator",
            "UINT8",
            "CPU",
            NA,
            "(1,3,640,640)",
            "0/0/0",
            12,
            "",
            CPU0,
            0,
            "InputOperator:images",
        ),
        (
            2,
            "ConvExSwish",
            "UINT8",
            "NPU",
            "(1,3,640,640),(16,3,6,6),(16)",
            "(1,16,320,320)",
            "164162/409600/409600",
            810,
            "1.78/0.00/0.00",
            ONE,
            1201,
            "Conv:/model.0/conv/Conv",
        ),
        (
            3,
            "Concat",
            "INT8",
            "NPU",
            "(1,16,160,160),(1,16,160,160)",
            "(1,32,160,160)",
            "0/0/0",
            165,
            "",
            ONE,
            800,
            "Concat:/model.2/Concat",
        ),
        (
            4,
            "Resize",
            "INT8",
            "NPU",
            "(1,32,20,20),...",
            "(1,32,40,40)",
            "0/0/0",
            97,
            "",
            ONE,
            62,
            "Resize:/model.11/Resize",
        ),
        (
            5,
            "exSDPAttention",
            "FLOAT16",
            "NPU",
            "(1,8,64,64),(1,8,64,64),(1,8,64,64)",
            "(1,8,64,64)",
            "30211/120000/120000",
            640,
            "4.40/0.00/0.00",
            ONE,
            192,
            "exSDPAttention:node_matmul_1#1_2sdpa",
        ),
        (
            6,
            "OutputOperator",
            "INT8",
            "CPU",
            "(1,255,80,80)",
            NA,
            "0/0/0",
            55,
            "",
            CPU0,
            1600,
            "OutputOperator:output0",
        ),
    ]
    lines = table2x(rows, 1779, 3855, op_w=19)
    lines += ranking2x(
        [
            ("ConvExSwish", 1, 0, 810),
            ("exSDPAttention", 1, 0, 640),
            ("Concat", 1, 0, 165),
            ("Resize", 1, 0, 97),
            ("OutputOperator", 1, 55, 0),
            ("InputOperator", 1, 12, 0),
        ],
        total_row=True,
    )
    return lines


CUSTOM = "cstInstanceNormalization_1_256_64_64"


def v18():
    """2.0.0 beta (April 2024), still 17-wide: empty MacUsage and 0/0/0 rows, a custom CPU op
    overflowing the OpType column (13467 us), Pad on CPU."""
    rows = [
        (
            1,
            "InputOperator",
            "FLOAT16",
            "CPU",
            NA,
            "(1,3,256,256)",
            "0/0/0",
            20,
            "",
            CPU0,
            384,
            "InputOperator:input",
        ),
        (
            2,
            "Relu",
            "FLOAT16",
            "NPU",
            "(1,256,64,64)",
            "(1,256,64,64)",
            "0/0/0",
            304,
            "",
            ONE,
            2048,
            "Relu:/model/block/Relu",
        ),
        (
            3,
            "Pad",
            "FLOAT16",
            "CPU",
            "(1,256,64,64),(8)",
            "(1,256,66,66)",
            "0/0/0",
            2831,
            "",
            CPU0,
            2048,
            "Pad:/model/block/Pad",
        ),
        (
            4,
            "Conv",
            "FLOAT16",
            "NPU",
            "(1,256,66,66),(256,256,3,3),(256)",
            "(1,256,64,64)",
            "232862/4718592/4718592",
            4238,
            "99.00/0.00/0.00",
            ONE,
            3331,
            "Conv:/model/block/Conv",
        ),
        (
            5,
            CUSTOM,
            "FLOAT16",
            "CPU",
            "(1,256,64,64),(256),(256)",
            "(1,256,64,64)",
            "0/0/0",
            13467,
            "",
            CPU0,
            2050,
            f"{CUSTOM}:/model/block/InstanceNormalization",
        ),
        (
            6,
            "Add",
            "FLOAT16",
            "NPU",
            "(1,256,64,64),(1,256,64,64)",
            "(1,256,64,64)",
            "0/0/0",
            494,
            "",
            ONE,
            4096,
            "Add:/model/Add",
        ),
        (
            7,
            "OutputOperator",
            "FLOAT16",
            "CPU",
            "(1,256,64,64)",
            NA,
            "0/0/0",
            61,
            "",
            CPU0,
            2048,
            "OutputOperator:output",
        ),
    ]
    lines = table2x(rows, 21415, 16005)
    lines += ranking2x(
        [
            (CUSTOM, 1, 13467, 0),
            ("Conv", 1, 0, 4238),
            ("Pad", 1, 2831, 0),
            ("Add", 1, 0, 494),
            ("Relu", 1, 0, 304),
            ("OutputOperator", 1, 61, 0),
            ("InputOperator", 1, 20, 0),
        ],
        total_row=False,
    )
    return lines


def v23():
    """logcat threadtime, single-spaced PID/TID, tag ``SERVER`` (rknn_server) and ``RKNN``,
    a trailing blank on every line; the runtime's perf table comes through the RKNN tag."""

    def lc(tid, level, tag, msg, ms):
        return f"04-11 09:31:{ms // 1000:02d}.{ms % 1000:03d} 2051 {tid} {level} {tag:<8}: {msg}"

    out = [
        lc(2051, "I", "SERVER", "start server at port 5037", 2418),
        lc(2060, "I", "SERVER", "client connected, pid 2077", 5612),
        lc(
            2060,
            "I",
            "RKNN",
            "RKNN Runtime Information, librknnrt version: 2.0.0b0 (35a6907d79@2024-03-24T10:31:14)",
            5702,
        ),
        lc(2060, "I", "RKNN", "RKNN Driver Information, version: 0.9.2", 5702),
    ]
    rows = [
        (
            1,
            "InputOperator",
            "UINT8",
            "CPU",
            NA,
            "(1,3,224,224)",
            "0/0/0",
            9,
            NA,
            CPU0,
            147,
            "InputOperator:data",
        ),
        (
            2,
            "ConvRelu",
            "UINT8",
            "NPU",
            "(1,3,224,224),(32,3,3,3),(32)",
            "(1,32,112,112)",
            "94150/10584/94150",
            375,
            "2.82/0.00/0.00",
            ONE,
            543,
            "Conv:conv1",
        ),
        (
            3,
            "ConvRelu",
            "INT8",
            "NPU",
            "(1,32,112,112),(32,1,3,3),(32)",
            "(1,32,112,112)",
            "120000/40000/120000",
            402,
            "0.90/0.00/0.00",
            ONE,
            784,
            "Conv:conv2_1/dw",
        ),
        (
            4,
            "OutputOperator",
            "INT8",
            "CPU",
            "(1,1000,1,1)",
            NA,
            "0/0/0",
            11,
            NA,
            CPU0,
            1,
            "OutputOperator:prob",
        ),
    ]
    for k, line in enumerate(table2x(rows, 797, 1475)):
        out.append(lc(2060, "D", "RKNN", line.rstrip(), 5800 + k))
    out.append(lc(2060, "I", "SERVER", "client disconnected", 9001))
    return [line + " " for line in out]


def v26():
    """Python eval_perf (2.x): CJK user print, frequency block, the ``Warning:`` line, 19-wide
    table with an empty FullName (row 2), Resize x3 on CPU, ranking with a Total row."""
    rows = [
        (
            1,
            "InputOperator",
            "UINT8",
            "CPU",
            NA,
            "(1,3,512,512)",
            "0/0/0",
            30,
            "",
            CPU0,
            0,
            "InputOperator:input",
        ),
        (
            2,
            "Conv",
            "FLOAT16",
            "NPU",
            "(1,3,512,512),(64,3,3,3),(64)",
            "(1,64,512,512)",
            "2654208/1179648/2654208",
            6120,
            "0.67/0.00/0.00",
            ONE,
            33280,
            "",
        ),
        (
            3,
            "Resize",
            "FLOAT16",
            "CPU",
            "(1,64,128,128),...",
            "(1,64,256,256)",
            "0/0/0",
            17883,
            "",
            CPU0,
            10240,
            "Resize:/up1/Resize",
        ),
        (
            4,
            "ConvRelu",
            "FLOAT16",
            "NPU",
            "(1,128,256,256),(64,128,3,3),(64)",
            "(1,64,256,256)",
            "1327104/4718592/4718592",
            9210,
            "31.28/0.00/0.00",
            ONE,
            24720,
            "Conv:/up1/conv/Conv",
        ),
        (
            5,
            "Resize",
            "FLOAT16",
            "CPU",
            "(1,64,256,256),...",
            "(1,64,512,512)",
            "0/0/0",
            3904,
            "",
            CPU0,
            40960,
            "Resize:/up2/Resize",
        ),
        (
            6,
            "Resize",
            "FLOAT16",
            "CPU",
            "(1,32,64,64),...",
            "(1,32,128,128)",
            "0/0/0",
            1903,
            "",
            CPU0,
            1280,
            "Resize:/up0/Resize",
        ),
        (
            7,
            "Concat",
            "FLOAT16",
            "NPU",
            "(1,64,512,512),(1,64,512,512)",
            "(1,128,512,512)",
            "0/0/0",
            2410,
            "",
            ONE,
            65536,
            "Concat:/cat/Concat",
        ),
        (
            8,
            "OutputOperator",
            "FLOAT16",
            "CPU",
            "(1,1,512,512)",
            NA,
            "0/0/0",
            250,
            "",
            CPU0,
            512,
            "OutputOperator:output",
        ),
    ]
    lines = [
        "--> 开始评估算子级性能 (eval_perf)...",
        "CPU Current Frequency List:",
        "    - 1800000",
        "    - 2400000",
        "    - 2400000",
        "NPU Current Frequency List:",
        "    - 1000000000",
        "DDR Current Frequency List:",
        "    - Unknown",
        "",
        "Warning: The performance result is just for debugging, may worse than actual performance!",
    ]
    lines += table2x(rows, 41710, "176528.50", op_w=19)
    lines += ranking2x(
        [
            ("Resize", 3, 23690, 0),
            ("ConvRelu", 1, 0, 9210),
            ("Conv", 1, 0, 6120),
            ("Concat", 1, 0, 2410),
            ("OutputOperator", 1, 250, 0),
            ("InputOperator", 1, 30, 0),
        ],
        total_row=True,
    )
    return lines


FALLBACK = (
    "Transpose will fallback to CPU, because input shape has exceeded the max limit, "
    "height(256) * width(2560) = 655360, required product no larger than 8192!"
)


def v32():
    """The CPU-fallback warning pasted without ``W RKNN: [..]``, then the run's 2.x table with
    that Transpose on CPU."""
    rows = [
        (
            1,
            "InputOperator",
            "FLOAT16",
            "CPU",
            NA,
            "(1,256,2560)",
            "0/0/0",
            40,
            "",
            CPU0,
            1280,
            "InputOperator:x",
        ),
        (
            2,
            "Transpose",
            "FLOAT16",
            "CPU",
            "(1,256,2560)",
            "(1,2560,256)",
            "0/0/0",
            6310,
            "",
            CPU0,
            2560,
            "Transpose:/enc/Transpose",
        ),
        (
            3,
            "Conv",
            "FLOAT16",
            "NPU",
            "(1,2560,1,256),(256,2560,1,1),(256)",
            "(1,256,1,256)",
            "655360/163840/655360",
            1530,
            "10.71/0.00/0.00",
            ONE,
            2688,
            "Conv:/enc/proj/Conv",
        ),
        (
            4,
            "OutputOperator",
            "FLOAT16",
            "CPU",
            "(1,256,1,256)",
            NA,
            "0/0/0",
            35,
            "",
            CPU0,
            128,
            "OutputOperator:y",
        ),
    ]
    return ["I rknn building ...", FALLBACK, "I rknn building done.", ""] + table2x(
        rows, 7915, 6656, op_w=19
    )


def row15(
    i,
    op,
    dtype,
    target,
    shape_in,
    shape_out,
    ddr,
    npu,
    total,
    time_us,
    mac,
    workload,
    tasks,
    rw,
    name,
):
    task_n, task_size, regcmd = tasks
    return (
        f"{i:<4} {op:<16} {dtype:<8} {target:<6} {shape_in:<44} {shape_out:<22} {ddr:<14} "
        f"{npu:<14} {total:<14} {time_us:<14} {mac:<14} {workload:<38} {task_n:<14} "
        f"{task_size:<14} {regcmd:<14} {rw:<14} {name:<16}"
    )


def v42():
    """toolkit2 1.5 through Python: RKNNAPI version block, the eval_perf.csv line, banner,
    Task Number/Task Size/Regcmd Size tail, InputShape overflowing 45 (rows 4, 9), row 7 broken
    after a ``0`` field, row 10 broken after its trailing blanks plus an empty line,
    ``Total Memory RW Amount(MB)`` that is not the column sum."""
    up0 = "0.0%/0.0%/0.0% - Up:0.0%"
    up1 = "100.0%/0.0%/0.0% - Up:0.0%"
    long_in = "(1,64,80,80),(1,64,80,80),(1,64,80,80),(1,64,80,80)"
    rows = [
        (
            1,
            "InputOperator",
            "UINT8",
            "CPU",
            NA,
            "(1,3,320,320)",
            0,
            0,
            0,
            8,
            NA,
            up0,
            (0, 0, 0),
            "300.00",
            "InputOperator:images",
        ),
        (
            2,
            "ConvRelu",
            "UINT8",
            "NPU",
            "(1,3,320,320),(32,3,3,3),(32)",
            "(1,32,160,160)",
            412000,
            691200,
            691200,
            1190,
            "3.49",
            up1,
            (1, 2112, 1024),
            "2500.00",
            "Conv:Conv_0",
        ),
        (
            3,
            "ConvRelu",
            "INT8",
            "NPU",
            "(1,32,160,160),(64,32,3,3),(64)",
            "(1,64,80,80)",
            280000,
            921600,
            921600,
            1620,
            "17.77",
            up1,
            (1, 2240, 1024),
            "1418.00",
            "Conv:Conv_2",
        ),
        (
            4,
            "Concat",
            "INT8",
            "NPU",
            long_in,
            "(1,256,80,80)",
            520000,
            0,
            520000,
            980,
            NA,
            up1,
            (4, 1024, 512),
            "3200.00",
            "Concat:Concat_7",
        ),
        (
            5,
            "ConvRelu",
            "INT8",
            "NPU",
            "(1,256,80,80),(64,256,1,1),(64)",
            "(1,64,80,80)",
            300000,
            409600,
            409600,
            750,
            "13.63",
            up1,
            (1, 2240, 1024),
            "2032.00",
            "Conv:Conv_8",
        ),
        (
            6,
            "MaxPool",
            "INT8",
            "NPU",
            "(1,64,80,80)",
            "(1,64,40,40)",
            110000,
            0,
            110000,
            260,
            NA,
            up1,
            (1, 512, 256),
            "500.00",
            "MaxPool:MaxPool_9",
        ),
        (
            7,
            "Conv",
            "INT8",
            "NPU",
            "(1,64,40,40),(128,64,3,3),(128)",
            "(1,128,40,40)",
            0,
            281551,
            281551,
            590,
            "19.99",
            up1,
            (1, 2240, 1024),
            "374.00",
            "Conv:Conv_10",
        ),
        (
            8,
            "Resize",
            "INT8",
            "NPU",
            "(1,128,40,40),(4)",
            "(1,128,80,80)",
            160000,
            0,
            160000,
            410,
            NA,
            up1,
            (2, 512, 256),
            "1000.00",
            "Resize:Resize_11",
        ),
        (
            9,
            "Concat",
            "INT8",
            "NPU",
            long_in + ",...",
            "(1,384,80,80)",
            640000,
            0,
            640000,
            1150,
            NA,
            up1,
            (4, 1024, 512),
            "4000.00",
            "Concat:Concat_12",
        ),
        (
            10,
            "ConvRelu",
            "INT8",
            "NPU",
            "(1,384,80,80),(128,384,1,1),(128)",
            "(1,128,80,80)",
            420000,
            1228800,
            1228800,
            1523,
            "1.02",
            up1,
            (1, 2240, 1024),
            "3098.00",
            "Conv:Conv_13",
        ),
        (
            11,
            "exSoftmax13",
            "INT8",
            "CPU",
            "(1,128,80,80)",
            "(1,128,80,80)",
            0,
            0,
            0,
            2210,
            NA,
            up0,
            (0, 0, 0),
            "800.00",
            "exSoftmax13:Softmax_14",
        ),
        (
            12,
            "OutputOperator",
            "INT8",
            "CPU",
            "(1,128,80,80)",
            NA,
            0,
            0,
            0,
            96,
            NA,
            up0,
            (0, 0, 0),
            "800.00",
            "OutputOperator:output",
        ),
    ]
    eq = "=" * 115
    header = row15(
        "ID",
        "OpType",
        "DataType",
        "Target",
        "InputShape",
        "OutputShape",
        "DDR Cycles",
        "NPU Cycles",
        "Total Cycles",
        "Time(us)",
        "MacUsage(%)",
        "WorkLoad(0/1/2)-ImproveTherical",
        ("Task Number", "Task Size", "Regcmd Size"),
        "RW(KB)",
        "FullName",
    )
    body = []
    for r in rows:
        text = row15(*r)
        if r[0] == 7:  # broken after the DDR Cycles field "0"
            cut = text.index(" 0 ", text.index("(1,128,40,40)")) + 2
            body += [text[:cut], text[cut:].lstrip()]
        elif r[0] == 10:  # broken after its padded Total Cycles field, then an empty line
            cut = text.index("1523 ")
            body += [text[:cut], "", text[cut:]]
        else:
            body.append(text)
    rank = [
        ("ConvRelu", 4, 0, 5083),
        ("exSoftmax13", 1, 2210, 0),
        ("Concat", 2, 0, 2130),
        ("Conv", 1, 0, 590),
        ("Resize", 1, 0, 410),
        ("MaxPool", 1, 0, 260),
        ("OutputOperator", 1, 96, 0),
        ("InputOperator", 1, 8, 0),
    ]
    total = 10787
    ranking = [
        "Operator Time-Consuming Ranking:",
        f"{'OpType':<17}{'Call Number':<16}{'CPU Time(us)':<16}{'NPU Time(us)':<16}"
        f"{'Total Time(us)':<18}{'Time Ratio(%)'}",
    ]
    for op, calls, cpu, npu in rank:
        ranking.append(
            f"{op:<17}{calls:<16}{cpu:<16}{npu:<16}{cpu + npu:<18}{100 * (cpu + npu) / total:.1f}"
        )
    return (
        [
            "D RKNNAPI: ==============================================",
            "D RKNNAPI: RKNN VERSION:",
            "D RKNNAPI:   API: 1.5.0 (1fa95b5c build@2023-05-22T11:44:28)",
            "D RKNNAPI:   DRV: rknn_server: 1.5.0 (17f0f2b build@2023-05-22T11:30:13)",
            "D RKNNAPI:   DRV: rknnrt: 1.5.0 (e6fe0c678@2023-05-25T08:09:20)",
            "D RKNNAPI: ==============================================",
            "W eval_perf: The result of eval_perf is also saved to eval_perf.csv!",
            eq,
            " " * 28 + "Performance" + " " * 30,
            "        #### The performance result is just for debugging, ####",
            "        #### may worse than actual performance!            ####",
            eq,
            header,
        ]
        + body
        + [
            eq,
            f"Total Operator Elapsed Time(us): {total}",
            "Total Memory RW Amount(MB): 17.9105",
        ]
        + ranking
        + [eq]
    )


def vr_ranking_runtime_log():
    """A ranking table alone in a RKNN_LOG_LEVEL=4 log (the shape of rknn_model_zoo #357 /
    rknn-toolkit2 #402): every line behind ``D RKNN: [..]``, the title without a rule before
    it, an op type (20 characters) that widens the OpType column to 21, and an op type with
    both CPU and NPU time; then the same table with its blanks collapsed to one."""
    rows = [
        ("Gather", 2, 0, 5100),
        ("Transpose", 3, 1260, 640),
        ("ConvTransposeSigmoid", 4, 0, 900),
        ("BatchNormalization", 5, 0, 450),
        ("OutputOperator", 1, 30, 0),
    ]
    table = ranking2x(rows, total_row=False)[1:]  # starts at the title
    stamp = "D RKNN: [19:41:05.496] "
    out = [stamp + line.rstrip() for line in table]
    out += ["", "(the same table, pasted with single blanks)"]
    out += [stamp + " ".join(line.split()) for line in table]
    return out


FIXTURES = {
    "vr_ranking_runtime-log_wide-optype.txt": vr_ranking_runtime_log,
    "v02_2x17_three-core.txt": v02,
    "v12_android-demo_gather-cpu.txt": v12,
    "v17_2x19_total-row.txt": v17,
    "v18_2x17_empty-mac_custom-op.txt": v18,
    "v23_logcat-threadtime_server-tag.txt": v23,
    "v26_python-eval_perf_resize-cpu.txt": v26,
    "v32_bare-fallback-warning.txt": v32,
    "v42_v15_python_broken-rows.txt": v42,
}


def main() -> None:
    for name, make in FIXTURES.items():
        lines = make()
        trailing = name.startswith("v23")  # keeps its trailing blanks on purpose
        text = "\n".join(
            line if trailing else line.rstrip() if line.strip() == "" else line for line in lines
        )
        (HERE / name).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
