"""Write the per-rule fixture logs in this folder: ``python tests/data/rules/make_fixtures.py``.

Each rule RKNxxx has ``RKNxxx.txt`` (triggers it) and ``RKNxxx_ok.txt`` (must not). They are
small tables in the 2.3.x toolkit2 layout of corpus/FORMATS.md §1.2 (19-wide OpType, 222-dash
rules, empty MacUsage on 0/0/0 rows, a ranking table with a ``Total`` row), optionally behind
runtime info lines (FORMATS.md §4), a frequency list (§1.1) or as rknn_benchmark output (§7).
Numbers are made up but consistent: Total = max(DDR, NPU); MacUsage = MACs/1024/(time x 1000)
for INT8 (512 for FP16) at 1 GHz; the totals are the column sums.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
RULE = "-" * 222
RANK_RULE = "-" * 99
WIDTHS = (5, 19, 9, 7, 41, 23, 25, 13, 21, 21, 13)
ONE = "100.0%/0.0%/0.0%"
CPU_LOAD = "0.0%/0.0%/0.0%"
SPLIT3 = "33.3%/33.3%/33.3%"


def shape(*dims: int) -> str:
    return "(" + ",".join(map(str, dims)) + ")"


def conv(
    op,
    cin,
    cout,
    hw,
    k=3,
    stride=1,
    dtype="INT8",
    ddr=None,
    wl=ONE,
    name=None,
    time=None,
    ratio=None,
):
    """A conv row: NPU cycles from the aligned channels, time from a MAC usage ``ratio``."""
    out_hw = hw // stride
    r = 512 if dtype == "FLOAT16" else 1024
    macs = cout * cin * k * k * out_hw * out_hw
    npu = -(-cin // 32) * 32 * -(-cout // 32) * 32 * k * k * out_hw * out_hw // r
    ddr = ddr if ddr is not None else npu // 4
    time = time or round(max(ddr, npu) / 1000 / (ratio or 0.8))
    mac = f"{macs / r / (time * 1000) * 100:.2f}/0.00/0.00"
    rw = round((cin * hw * hw + cout * out_hw * out_hw) * (2 if dtype == "FLOAT16" else 1) / 1024)
    inputs = f"{shape(1, cin, hw, hw)},{shape(cout, cin, k, k)},{shape(cout)}"
    return (
        op,
        dtype,
        "NPU",
        inputs,
        shape(1, cout, out_hw, out_hw),
        f"{ddr}/{npu}/{max(ddr, npu)}",
        time,
        mac,
        wl,
        rw,
        name or f"Conv:/{op.lower()}_{cin}_{cout}",
    )


def row(op, inputs, output, time, rw, name, target="NPU", dtype="INT8", cycles="0/0/0", wl=None):
    wl = wl or (CPU_LOAD if target == "CPU" else ONE)
    return (op, dtype, target, inputs, output, cycles, time, "", wl, rw, name)


def io_in(out, dtype="UINT8", time=5):
    return row("InputOperator", "\\", out, time, 0, "InputOperator:images", "CPU", dtype)


def io_out(inp, dtype="INT8", time=4, n=0):
    return row("OutputOperator", inp, "\\", time, 10, f"OutputOperator:output{n}", "CPU", dtype)


def table(rows, workload="WorkLoad(0/1/2)") -> list[str]:
    head = (
        "ID",
        "OpType",
        "DataType",
        "Target",
        "InputShape",
        "OutputShape",
        "Cycles(DDR/NPU/Total)",
        "Time(us)",
        "MacUsage(%)",
        workload,
        "RW(KB)",
    )
    lines = [
        RULE,
        " " * 74 + "Network Layer Information Table" + " " * 80,
        RULE,
        "".join(h.ljust(w) for h, w in zip(head, WIDTHS)) + "FullName        ",
        RULE,
    ]
    for index, r in enumerate(rows, 1):
        cells = (str(index), *map(str, r[:10]))
        lines.append("".join(c.ljust(w) for c, w in zip(cells, WIDTHS)) + r[10].ljust(16))
    total = sum(r[6] for r in rows)
    lines += [
        RULE,
        f"Total Operator Elapsed Per Frame Time(us): {total}",
        f"Total Memory Read/Write Per Frame Size(KB): {sum(r[9] for r in rows)}",
        RULE,
    ]
    return lines + ranking(rows, total)


def ranking(rows, total) -> list[str]:
    stats: dict[str, list[int]] = {}
    for r in rows:
        calls, cpu, npu = stats.setdefault(r[0], [0, 0, 0])
        stats[r[0]] = [
            calls + 1,
            cpu + (r[6] if r[2] == "CPU" else 0),
            npu + (r[6] if r[2] == "NPU" else 0),
        ]
    widths = (19, 13, 13, 13, 13, 15, 14)
    head = (
        "OpType",
        "CallNumber",
        "CPUTime(us)",
        "GPUTime(us)",
        "NPUTime(us)",
        "TotalTime(us)",
        "TimeRatio(%)",
    )
    lines = [
        RANK_RULE,
        " " * 33 + "Operator Time Consuming Ranking Table" + " " * 12,
        RANK_RULE,
        "".join(h.ljust(w) for h, w in zip(head, widths)),
        RANK_RULE,
    ]
    for op, (calls, cpu, npu) in sorted(stats.items(), key=lambda kv: -(kv[1][1] + kv[1][2])):
        cells = (op, calls, cpu, 0, npu, cpu + npu, f"{(cpu + npu) / total * 100:.2f}%")
        lines.append("".join(str(c).ljust(w) for c, w in zip(cells, widths)))
    cpu_all = sum(v[1] for v in stats.values())
    npu_all = sum(v[2] for v in stats.values())
    cells = ("Total", "", cpu_all, 0, npu_all, total)
    lines += ["".join(str(c).ljust(w) for c, w in zip(cells, widths)), RANK_RULE]
    return lines


def info(platform="rk3588", driver="0.9.8", runtime="2.3.2") -> list[str]:
    return [
        f"I RKNN: [10:21:37.402] RKNN Runtime Information, librknnrt version: {runtime} "
        "(429f97ae6b@2025-04-09T09:09:27)",
        f"I RKNN: [10:21:37.402] RKNN Driver Information, version: {driver}",
        "I RKNN: [10:21:37.405] RKNN Model Information, version: 6, toolkit version: "
        f"{runtime}(compiler version: {runtime} (e045de294f@2025-04-07T19:48:25)), target: "
        f"RKNPU v2, target platform: {platform}, framework name: ONNX, framework layout: NCHW, "
        "model inference type: static_shape",
    ]


def freqs(npu="1000000000", ddr="2112000000") -> list[str]:
    return [
        "CPU Current Frequency List:",
        "    - 1800000",
        "    - 2352000",
        "NPU Current Frequency List:",
        f"    - {npu}",
        "DDR Current Frequency List:",
        f"    - {ddr}",
        "",
        "Warning: The performance result is just for debugging, may worse than actual performance!",
    ]


def clean(wl=ONE, dtype="INT8", extra=()):
    """A small all-NPU INT8 model with aligned channels and high MAC usage (< 5 ms NPU time)."""
    return [
        io_in(shape(1, 32, 80, 80), "INT8" if dtype == "INT8" else dtype),
        conv("ConvRelu", 32, 64, 80, dtype=dtype, wl=wl, name="Conv:/backbone/conv1/Conv"),
        *extra,
        conv("ConvRelu", 64, 64, 80, dtype=dtype, wl=wl, name="Conv:/backbone/conv2/Conv"),
        conv(
            "ConvRelu", 64, 128, 80, stride=2, dtype=dtype, wl=wl, name="Conv:/backbone/conv3/Conv"
        ),
        io_out(shape(1, 128, 40, 40), dtype),
    ]


def fixtures() -> dict[str, list[str]]:
    c64 = shape(1, 64, 80, 80)
    f = {}
    # RKN001: a Transpose over RK3588's h*w limit on the CPU, with the build warning
    transpose = row(
        "Transpose",
        shape(1, 16, 256, 2560),
        shape(1, 16, 2560, 256),
        5200,
        20480,
        "Transpose:/head/Transpose",
        "CPU",
    )
    f["RKN001"] = [
        *info(),
        "W RKNN: [13:52:53.504] Transpose will fallback to CPU, because input "
        "shape has exceeded the max limit, height(256) * width(2560) = 655360, required "
        "product no larger than 8192!",
        "rknn_run",
        *table(clean(extra=[transpose])),
    ]
    f["RKN001_ok"] = [*info(), "rknn_run", *table(clean())]
    # RKN002: an FP16 model
    f["RKN002"] = [*info(), *table(clean(dtype="FLOAT16"))]
    f["RKN002_ok"] = [*info(), *table(clean())]
    # RKN010: INT8 convs waiting on DDR (DDR cycles 6x the NPU cycles); FP16 ones are RKN002's
    ddr_heavy = [
        conv("Conv", 64, 64, 80, k=1, ddr=400000, ratio=0.9, name=f"Conv:/head/proj{i}/Conv")
        for i in range(3)
    ]
    f["RKN010"] = [*info(), *table(clean(extra=ddr_heavy))]
    f["RKN010_ok"] = f["RKN002_ok"]
    # RKN011: a 48->64 conv at 14.4% MAC usage: 48 input channels are computed as 64
    mid = conv("ConvRelu", 48, 64, 80, name="Conv:/neck/conv48/Conv", time=1200)
    f["RKN011"] = [*info(), *table(clean(extra=[mid]))]
    f["RKN011_ok"] = f["RKN002_ok"]
    # RKN020: Split/Concat copies take a large share
    copies = [
        row("Split", f"{c64},(2)", f"{shape(1, 32, 80, 80)},...", 260, 400, "Split:/c2f/Split"),
        row(
            "Concat",
            f"{shape(1, 32, 80, 80)},{shape(1, 32, 80, 80)},...",
            shape(1, 96, 80, 80),
            420,
            600,
            "Concat:/c2f/Concat",
        ),
    ]
    f["RKN020"] = [*info(), *table(clean(extra=copies))]
    f["RKN020_ok"] = f["RKN002_ok"]
    # RKN021: Pad feeding a Conv
    pad = [
        row("Pad", shape(1, 64, 80, 80), shape(1, 64, 82, 82), 180, 820, "Pad:/neck/Pad"),
        conv("Conv", 64, 64, 82, name="Conv:/neck/conv_after_pad/Conv"),
    ]
    f["RKN021"] = [*info(), *table(clean(extra=pad))]
    f["RKN021_ok"] = f["RKN002_ok"]
    # RKN022: Reshape -> Transpose -> Reshape
    chain = [
        row("Reshape", f"{c64},(3)", shape(1, 64, 6400), 40, 400, "Reshape:/head/Reshape"),
        row(
            "Transpose",
            shape(1, 64, 6400),
            shape(1, 6400, 64),
            160,
            800,
            "Transpose:/head/Transpose",
        ),
        row(
            "Reshape",
            f"{shape(1, 6400, 64)},(4)",
            shape(1, 6400, 8, 8),
            60,
            800,
            "Reshape:/head/Reshape_1",
        ),
    ]
    f["RKN022"] = [*info(), *table(clean(extra=chain))]
    f["RKN022_ok"] = f["RKN002_ok"]
    # RKN023: a LeakyRelu after a ConvAdd (no fusion rule covers it), and a Clip behind a
    # Transpose; the _ok log has a Conv next to its Relu and a ConvAdd next to a Relu: adjacent
    # already, so "make it the adjacent consumer" would be no advice
    conv_add = conv("ConvAdd", 64, 64, 80, k=1, time=300, name="Conv:/neck/res/Conv")
    conv_add = (*conv_add[:3], conv_add[3] + ",...", *conv_add[4:])  # the residual, elided
    c80t = shape(1, 80, 80, 64)
    leaky = [conv_add, row("LeakyRelu", c64, c64, 420, 800, "LeakyRelu:/neck/LeakyRelu")]
    behind = [
        conv("Conv", 64, 64, 80, k=1, name="Conv:/head/proj/Conv"),
        row("Transpose", c64, c80t, 160, 800, "Transpose:/head/Transpose"),
        row("Clip", c80t, c80t, 130, 800, "Clip:/head/Clip"),
    ]
    f["RKN023"] = [*info(), *table(clean(extra=leaky + behind))]
    adjacent = [
        conv("Conv", 64, 64, 80, name="Conv:/neck/conv_plain/Conv"),
        row("Relu", c64, c64, 120, 800, "Relu:/neck/Relu"),
        conv_add,
        row("Relu", c64, c64, 110, 800, "Relu:/neck/Relu_1"),
    ]
    f["RKN023_ok"] = [*info(), *table(clean(extra=adjacent))]
    # RKN024: Split + Sigmoid + Mul left unfused (GLU)
    glu = [
        row("Split", f"{c64},(2)", f"{shape(1, 32, 80, 80)},...", 150, 400, "Split:/glu/Split"),
        row(
            "Sigmoid", shape(1, 32, 80, 80), shape(1, 32, 80, 80), 140, 400, "Sigmoid:/glu/Sigmoid"
        ),
        row(
            "Mul",
            f"{shape(1, 32, 80, 80)},{shape(1, 32, 80, 80)}",
            shape(1, 32, 80, 80),
            130,
            600,
            "Mul:/glu/Mul",
        ),
    ]
    f["RKN024"] = [*info(), *table(clean(extra=glu))]
    f["RKN024_ok"] = f["RKN002_ok"]
    # RKN030: a multi-core run in which ConvExSwish stays on core 0
    swish = [
        conv("ConvExSwish", 64, 64, 160, wl=ONE, name=f"Conv:/neck/swish{i}/Conv") for i in range(2)
    ]
    f["RKN030"] = [*info(), *table(clean(wl=SPLIT3, extra=swish))]
    f["RKN030_ok"] = [*info(), *table(clean(wl=SPLIT3))]
    # RKN040: dense INT8 convs on RK3576 (two cores: WorkLoad(0/1))
    two = "100.0%/0.0%"
    dense = [
        conv("ConvRelu", 64, 64, 160, wl=two, name=f"Conv:/neck/dense{i}/Conv") for i in range(2)
    ]
    rk3576 = [[*r[:8], two if r[2] == "NPU" else "0.0%/0.0%", *r[9:]] for r in clean(extra=dense)]
    f["RKN040"] = [*info("rk3576"), *table(rk3576, "WorkLoad(0/1)")]
    f["RKN040_ok"] = [*info("rk3588"), *table(clean(extra=dense))]
    # RKN050: an old driver and a lowered NPU clock
    f["RKN050"] = [*info(driver="0.8.2", runtime="1.6.0"), *freqs(npu="600000000"), *table(clean())]
    # ranking table only (no per-layer rows: no profiling caveat), a current driver
    rows = clean()
    f["RKN050_ok"] = [*info(), *ranking(rows, sum(r[6] for r in rows))]
    # RKN060: a YOLOv8-style decode after the last feature conv (#5 ConvRelu): Reshape, the DFL
    # softmax and its conv, then the box decode (Sub, Mul, Concat); the _ok log has a softmax
    # deep inside the network and a tail of only Reshape + Concat (the output layout)
    a = shape(1, 2, 3200)
    decode = [
        row(
            "Reshape",
            f"{shape(1, 128, 40, 40)},(4)",
            shape(1, 4, 16, 3200),
            30,
            400,
            "Reshape:/model.22/Reshape",
        ),
        row(
            "exSoftmax13",
            shape(1, 4, 16, 3200),
            shape(1, 4, 16, 3200),
            3100,
            800,
            "exSoftmax13:/model.22/dfl/Softmax",
        ),
        conv("Conv", 16, 1, 80, k=1, time=120, name="Conv:/model.22/dfl/conv/Conv"),
        row("Sub", f"{a},{a}", a, 60, 50, "Sub:/model.22/Sub"),
        row("Mul", f"{a},(1,1,3200)", a, 50, 50, "Mul:/model.22/Mul"),
        row("Concat", f"{a},{a},...", shape(1, 84, 3200), 70, 600, "Concat:/model.22/Concat"),
    ]
    f["RKN060"] = [*info(), *table(clean()[:-1] + decode + [io_out(shape(1, 84, 3200))])]
    # outlier_RKN060: the decode with a second, same-shape Mul at 200 us (4x the first's 50)
    twice = [*decode[:5], (*decode[4][:6], 200, *decode[4][7:10], "Mul:/model.22/Mul_1"), decode[5]]
    f["outlier_RKN060"] = [*info(), *table(clean()[:-1] + twice + [io_out(shape(1, 84, 3200))])]
    deep = [
        row(
            "Softmax",
            shape(1, 64, 80, 80),
            shape(1, 64, 80, 80),
            400,
            800,
            "Softmax:/backbone/attn/Softmax",
        ),
        *(
            conv("ConvRelu", 64, 64, 80, name=f"Conv:/backbone/conv_extra{i}/Conv")
            for i in range(5)
        ),
    ]
    layout = [
        row(
            "Reshape",
            f"{shape(1, 128, 40, 40)},(3)",
            shape(1, 128, 1600),
            30,
            400,
            "Reshape:/head/Reshape",
        ),
        row(
            "Concat",
            f"{shape(1, 128, 1600)},...",
            shape(1, 128, 1700),
            60,
            500,
            "Concat:/head/Concat",
        ),
    ]
    f["RKN060_ok"] = [
        *info(),
        *table(clean(extra=deep)[:-1] + layout + [io_out(shape(1, 128, 1700))]),
    ]
    # RKN061: attention on RK3588
    attn = [
        row(
            "exSDPAttention",
            f"{shape(2, 32, 1, 400)},{shape(2, 32, 1, 400)},...",
            shape(2, 64, 1, 400),
            1338,
            100,
            "exSDPAttention:node_matmul_1#1_2sdpa",
        )
    ]
    f["RKN061"] = [*info(), *table(clean(extra=attn))]
    f["RKN061_ok"] = f["RKN002_ok"]
    f.update(expert_fixtures())
    f.update(failure_fixtures())
    f.update(measurement_fixtures())
    f.update(silent())
    f.update(one_cause())
    f.update(outlier_fixtures())
    f.update(concat_fixtures())
    f.update(advice29_fixtures())
    return f


def concat_fixtures() -> dict[str, list[str]]:
    """RKN073: a dense block (x0, x1 = conv(x0), c1 = cat(x0, x1), x2 = conv(c1) with 24
    channels, c2 = cat(c1, x2)) whose two Concats take 480 of 1,209 us; the _ok log is the
    clean model with one neck Concat at 60 of 645 us (9%)."""
    c32, c64 = shape(1, 32, 80, 80), shape(1, 64, 80, 80)
    dense = [
        io_in(c32),
        conv("ConvRelu", 32, 32, 80, name="Conv:/dense/conv0/Conv"),
        conv("ConvRelu", 32, 32, 80, name="Conv:/dense/conv1/Conv"),
        row(
            "Concat",
            f"{c32},{c32}",
            c64,
            200,
            800,
            "Concat:/dense/Concat",
            cycles="138800/0/138800",
        ),
        conv("ConvRelu", 64, 24, 80, name="Conv:/dense/conv2/Conv"),
        row(
            "Concat",
            f"{c64},{shape(1, 24, 80, 80)}",
            shape(1, 88, 80, 80),
            280,
            1100,
            "Concat:/dense/Concat_1",
            cycles="190800/0/190800",
        ),
        conv("ConvRelu", 88, 64, 80, name="Conv:/dense/conv3/Conv"),
        io_out(c64),
    ]
    neck = row(
        "Concat", f"{c32},{c32}", c64, 60, 800, "Concat:/neck/Concat", cycles="138800/0/138800"
    )
    return {"RKN073": [*info(), *table(dense)], "RKN073_ok": [*info(), *table(clean(extra=[neck]))]}


def outlier_fixtures() -> dict[str, list[str]]:
    """A saving from a layer RKN050 flags as a single-frame outlier counts the time the log
    supports for it (``outlier_RKNxxx``, RKNxxx the rule whose saving changes)."""
    f = {}
    # RKN070: three same-shape SiLU convs, 600, 600 and 1,800 us in one frame (siblings: the
    # last is 3x the others), and #3 ConvRelu conv2 with the same shapes at 288 us
    silu = [
        conv("ConvExSwish", 64, 64, 80, time=t, name=f"Conv:/model.{i}/conv/Conv")
        for i, t in enumerate((600, 600, 1800), 4)
    ]
    rows = clean()
    f["outlier_RKN070"] = [*info(), *table(rows[:-1] + silu + rows[-1:])]
    # the same with the middle SiLU conv at 1,500 us: two slow siblings of #5 in one group
    silu2 = [
        conv("ConvExSwish", 64, 64, 80, time=t, name=f"Conv:/model.{i}/conv/Conv")
        for i, t in enumerate((600, 1500, 1800), 4)
    ]
    f["outlier_RKN070_two"] = [*info(), *table(rows[:-1] + silu2 + rows[-1:])]
    # RKN071: a 1280x1280 input; seven convs at the default pace (1.25 ns per cycle) and a
    # 64->96 conv of 345,600 cycles at 3,456 us, 8x the median time per cycle
    big = [
        io_in(shape(1, 3, 1280, 1280)),
        conv("ConvRelu", 3, 32, 1280, stride=2, name="Conv:/model.0/conv/Conv"),
        conv("ConvRelu", 32, 64, 640, stride=2, name="Conv:/model.1/conv/Conv"),
        conv("ConvRelu", 64, 64, 320, stride=2, name="Conv:/model.2/conv/Conv"),
        conv("ConvRelu", 64, 64, 160, stride=2, name="Conv:/model.3/conv/Conv"),
        *(conv("ConvRelu", 64, 64, 80, name=f"Conv:/model.4/m.{i}/Conv") for i in range(6)),
        conv("ConvRelu", 64, 96, 80, time=3456, name="Conv:/model.5/conv/Conv"),
        io_out(shape(1, 96, 80, 80)),
    ]
    f["outlier_RKN071"] = [*info(), *table(big)]
    f.update(priced_fixtures())
    return f


def priced_fixtures() -> dict[str, list[str]]:
    """One single-frame slow sibling (3x a twin with the same op type, shapes and cycles) in
    what each rule prices: ``outlier_RKNxxx``, the saving counted at the twin's time."""
    c64, c32 = shape(1, 64, 80, 80), shape(1, 32, 80, 80)
    f = {}
    # RKN002: an FP16 model with two Adds, 300 and 900 us
    adds = [
        row("Add", f"{c64},{c64}", c64, t, 1600, f"Add:/neck/Add_{i}", dtype="FLOAT16")
        for i, t in enumerate((300, 900))
    ]
    f["outlier_RKN002"] = [*info(), *table(clean(dtype="FLOAT16", extra=adds))]
    # RKN023: two ConvAdd -> LeakyRelu pairs, the LeakyRelus at 420 and 1,260 us
    res = conv("ConvAdd", 64, 64, 80, k=1, time=300, name="Conv:/neck/res/Conv")
    res = (*res[:3], res[3] + ",...", *res[4:])
    pairs = [
        r
        for i, t in enumerate((420, 1260))
        for r in (res, row("LeakyRelu", c64, c64, t, 800, f"LeakyRelu:/neck/LeakyRelu_{i}"))
    ]
    f["outlier_RKN023"] = [*info(), *table(clean(extra=pairs))]
    # RKN030: a one-core run (four 64->64 convs at 160x160 for the NPU time) with two Concats,
    # 400 and 1,200 us, 800 KB each (2.0 GB/s at 400 us: not at the DDR's rate)
    convs = [conv("ConvRelu", 64, 64, 160, name=f"Conv:/neck/c{i}/Conv") for i in range(4)]
    cats = [
        row("Concat", f"{c32},{c32}", c64, t, 800, f"Concat:/neck/Concat_{i}")
        for i, t in enumerate((400, 1200))
    ]
    f["outlier_RKN030"] = [*info(), *table(clean(extra=convs + cats))]
    # RKN020: two C2f Splits after a 64-channel conv, 260 and 780 us
    c2f = [
        r
        for i, t in enumerate((260, 780))
        for r in (
            conv("ConvRelu", 64, 64, 80, k=1, name=f"Conv:/m{i}/cv1/Conv"),
            row("Split", f"{c64},(2)", f"{c32},...", t, 400, f"Split:/m{i}/Split"),
        )
    ]
    f["outlier_RKN020"] = [*info(), *table(clean(extra=c2f))]
    # RKN021: two Pad -> Conv pairs, the Pads at 180 and 540 us
    pads = [
        r
        for i, t in enumerate((180, 540))
        for r in (
            row("Pad", c64, shape(1, 64, 82, 82), t, 820, f"Pad:/neck/Pad_{i}"),
            conv("Conv", 64, 64, 82, name=f"Conv:/neck/padded{i}/Conv"),
        )
    ]
    f["outlier_RKN021"] = [*info(), *table(clean(extra=pads))]
    # RKN022: two Reshape -> Transpose -> Reshape chains; the second's last Reshape at 300 us
    # against 60, above its Transpose's 160 us
    chains = [
        r
        for i, t in enumerate((60, 300))
        for r in (
            row("Reshape", f"{c64},(3)", shape(1, 64, 6400), 40, 400, f"Reshape:/h{i}/Reshape"),
            row(
                "Transpose", shape(1, 64, 6400), shape(1, 6400, 64), 160, 800, f"Transpose:/h{i}/T"
            ),
            row(
                "Reshape",
                f"{shape(1, 6400, 64)},(4)",
                shape(1, 6400, 8, 8),
                t,
                800,
                f"Reshape:/h{i}/Reshape_1",
            ),
        )
    ]
    f["outlier_RKN022"] = [*info(), *table(clean(extra=chains))]
    # RKN024: two Split -> Sigmoid -> Mul (GLU) blocks, the Sigmoids at 140 and 420 us
    glu = [
        r
        for i, t in enumerate((140, 420))
        for r in (
            row("Split", f"{c64},(2)", f"{c32},...", 150, 400, f"Split:/glu{i}/Split"),
            row("Sigmoid", c32, c32, t, 400, f"Sigmoid:/glu{i}/Sigmoid"),
            row("Mul", f"{c32},{c32}", c32, 130, 600, f"Mul:/glu{i}/Mul"),
        )
    ]
    f["outlier_RKN024"] = [*info(), *table(clean(extra=glu))]
    # RKN040: two dense INT8 64->64 convs at 160x160 on RK3576, 1,152 and 3,456 us
    two = "100.0%/0.0%"
    dense = [
        conv("ConvRelu", 64, 64, 160, wl=two, time=t, name=f"Conv:/neck/dense{i}/Conv")
        for i, t in enumerate((1152, 3456))
    ]
    rk3576 = [[*r[:8], two if r[2] == "NPU" else "0.0%/0.0%", *r[9:]] for r in clean(extra=dense)]
    f["outlier_RKN040"] = [*info("rk3576"), *table(rk3576, "WorkLoad(0/1)")]
    # RKN050: the NPU at 600 of 1,000 MHz, two Adds at 300 and 900 us
    adds = [
        row("Add", f"{c64},{c64}", c64, t, 1600, f"Add:/neck/Add_{i}")
        for i, t in enumerate((300, 900))
    ]
    f["outlier_RKN050"] = [*info(), *freqs(npu="600000000"), *table(clean(extra=adds))]
    return f


def one_cause() -> dict[str, list[str]]:
    """Two rules on one cause must give one finding (``cause_RKNxxx_what``, RKNxxx the rule
    that keeps it)."""
    f = {}
    # RKN060: a box-decode tail after the last feature conv (#4) with a Gather on the CPU
    # inside it (#6): cutting the decode out removes the CPU Gather too, so RKN001 stays silent
    flat, quarter = shape(1, 1, 1, 204800), shape(1, 1, 1, 51200)
    decode = [
        row("Reshape", f"{shape(1, 128, 40, 40)},(4)", flat, 30, 200, "Reshape:/model.23/Reshape"),
        row("Gather", f"{flat},(204800)", flat, 2400, 400, "Gather:/model.23/Gather", "CPU"),
        row("Split", f"{flat},(4)", f"{quarter},...", 420, 400, "Split:/model.23/Split"),
        row("Sub", f"{quarter},{quarter}", quarter, 180, 150, "Sub:/model.23/Sub"),
        row("Sub", f"{quarter},{quarter}", quarter, 170, 150, "Sub:/model.23/Sub_1"),
        row("Add", f"{quarter},{quarter}", quarter, 160, 150, "Add:/model.23/Add"),
        row("Add", f"{quarter},{quarter}", quarter, 150, 150, "Add:/model.23/Add_1"),
    ]
    f["cause_RKN060_cpu_gather"] = [*info(), *table(clean()[:-1] + decode + [io_out(quarter)])]
    # RKN072: a norm over the last axis wrapped in Transpose + Reshape on each side (#3-#7),
    # its per-channel Mul/Add (#8, #9); RKN022 must not list the wrappers as mergeable
    # reshapes, only the separate Reshape -> Transpose -> Reshape behind #10 Conv (#11-#13)
    c64, g = shape(1, 64, 80, 80), shape(1, 64, 1, 1)
    hw1c, rows1 = shape(80, 80, 1, 64), shape(1, 6400, 1, 64)
    norm = [
        row("Transpose", c64, hw1c, 300, 1600, "Transpose:/neck/norm/Transpose"),
        row("Reshape", f"{hw1c},(4)", rows1, 2, 1600, "Reshape:/neck/norm/Reshape"),
        row(
            "exNorm",
            f"{rows1},(1,1,1,64),...",
            rows1,
            200,
            1600,
            "exNorm:/neck/norm/LayerNormalization",
            dtype="FLOAT16",
        ),
        row("Reshape", f"{rows1},(4)", hw1c, 2, 1600, "Reshape:/neck/norm/Reshape_1"),
        row("Transpose", hw1c, c64, 280, 1600, "Transpose:/neck/norm/Transpose_1"),
        row("Mul", f"{c64},{g}", c64, 90, 800, "Mul:/neck/norm/Mul"),
        row("Add", f"{c64},{g}", c64, 80, 800, "Add:/neck/norm/Add"),
    ]
    layout = [
        conv("Conv", 64, 64, 80, k=1, name="Conv:/head/proj/Conv"),
        row("Reshape", f"{c64},(3)", shape(1, 64, 6400), 40, 400, "Reshape:/head/Reshape"),
        row(
            "Transpose",
            shape(1, 64, 6400),
            shape(1, 6400, 64),
            160,
            800,
            "Transpose:/head/Transpose",
        ),
        row(
            "Reshape",
            f"{shape(1, 6400, 64)},(4)",
            shape(1, 6400, 8, 8),
            60,
            800,
            "Reshape:/head/Reshape_1",
        ),
    ]
    f["cause_RKN072_reshapes"] = [*info(), *table(clean(extra=norm + layout))]
    return f


def failure_fixtures() -> dict[str, list[str]]:
    """RKN080: a catalogue line (the runtime refused core mask 3 and ran single-core) before a
    clean table; the _ok log is the same table without it."""
    refused = ["E RKNN: [10:00:00.100] Not support core mask: 3, fallback to single core auto mode"]
    # RKN090: an RKLLM stage table (128 decode steps in 6400 ms: 20 tokens/s); _ok: a table
    llm = [
        "I rkllm: rkllm-runtime version: 1.3.0, rknpu driver version: 0.9.8, platform: RK3588",
        "I rkllm:  Stage         Total Time (ms)  Tokens    Time per Token (ms)      "
        "Tokens per Second",
        "I rkllm:  Prefill       160.00           32        5.00                     200.00",
        "I rkllm:  Generate      6400.00          129       49.61                    20.16",
    ]
    return {
        "RKN080": [*info(), *refused, *table(clean())],
        "RKN080_ok": [*info(), *table(clean())],
        "RKN090": llm,
        "RKN090_ok": [*info(), *table(clean())],
    }


def measurement_fixtures() -> dict[str, list[str]]:
    """RKN051: the clean table with ioctl breakpoints and a ``dump npy tensor to:`` line per
    tensor printed inside the run, and ``Get DDR frequency: 528MHz`` (RK3588's DDR tops at
    2,112 MHz); the _ok log is the same table taken at full clocks without them."""
    run = [
        "Get DDR frequency: 528MHz",
        'Thread 1 "rknn_demo" hit Breakpoint 1, 0x0000007fb7e4c9a8 in ioctl () from '
        "/lib/aarch64-linux-gnu/libc.so.6",
        "(gdb) continue",
        *(
            f"D RKNN: [10:00:00.{200 + i:03d}] dump npy tensor to: /userdata/dumps/{i:03d}.npy"
            for i in range(3)
        ),
    ]
    return {
        "RKN051": [*info(), *run, *table(clean())],
        "RKN051_ok": [*info(), *freqs(), *table(clean())],
    }


def silent() -> dict[str, list[str]]:
    """The review's false positives, each a log that must raise no finding of the code in its
    name (``silent_RKNxxx_what``)."""
    f = {}
    # RKN011: an RGB stem (3 -> 16 at 640: padded to 32 -> 32 whatever the stem, Focus included)
    stem = conv(
        "ConvExSwish",
        3,
        16,
        640,
        stride=2,
        dtype="UINT8",
        time=1888,
        name="Conv:/model.0/conv/Conv",
    )
    rgb = [io_in(shape(1, 3, 640, 640)), stem, *clean()[1:]]
    f["silent_RKN011_rgb_stem"] = [*info(), *table(rgb)]
    # RKN011: a 16 -> 16 conv (fewer channels are still padded to 32; widening saves nothing)
    narrow = conv("ConvRelu", 16, 16, 160, ratio=0.9, name="Conv:/stem/conv2/Conv", time=2400)
    f["silent_RKN011_narrow"] = [*info(), *table(clean(extra=[narrow]))]
    # RKN011: a depthwise 80-channel 3x3 (36 #115): cheaper than any regular conv
    dw = (
        "ConvExSwish",
        "INT8",
        "NPU",
        f"{shape(1, 80, 80, 80)},{shape(1, 80, 3, 3)},{shape(80)}",
        shape(1, 80, 80, 80),
        "58708/115200/115200",
        468,
        "0.96/0.00/0.00",
        ONE,
        501,
        "Conv:node_conv2d_83",
    )
    f["silent_RKN011_depthwise"] = [*info(), *table(clean(extra=[dw]))]
    # RKN011: a detection-head output conv (64 -> 255, 07 #74) feeding an OutputOperator
    head = conv("ConvSigmoid", 64, 255, 80, k=1, time=875, name="Conv:/model.24/m.0/Conv")
    rows = clean()
    f["silent_RKN011_head"] = [
        *info(),
        *table(rows[:-1] + [head, io_out(shape(1, 255, 80, 80), n=1), rows[-1]]),
    ]
    # RKN020/RKN021: SPPF's stride-1 MaxPools and no Pad: no size-transformation fix fits
    pools = [
        row(
            "MaxPool",
            shape(1, 64, 80, 80),
            shape(1, 64, 80, 80),
            310,
            800,
            f"MaxPool:/model.9/MaxPool_{i}",
        )
        for i in range(3)
    ]
    f["silent_RKN020_stride1_pools"] = [*info(), *table(clean(extra=pools))]
    # RKN020: a head's box/class split (144 -> 64 + 80) is not a C2f Split
    boxcls = [
        conv("Conv", 64, 144, 80, k=1, name="Conv:/model.22/cv4/Conv"),
        row(
            "Split",
            f"{shape(1, 144, 80, 80)},(2)",
            f"{shape(1, 64, 80, 80)},...",
            600,
            1800,
            "Split:/model.22/Split",
        ),
    ]
    f["silent_RKN020_head_split"] = [*info(), *table(clean(extra=boxcls))]
    # RKN030: a deliberate one-core run whose splittable convs wait on DDR (DDR cycles 3x the
    # NPU cycles): idle cores are throughput, and no multi-core latency is claimed for them
    waiting = [
        conv("ConvRelu", 64, 64, 160, ddr=3000000, name=f"Conv:/neck/ddr{i}/Conv") for i in range(4)
    ]
    f["latency_RKN030_single_core"] = [*info(), *table(clean(extra=waiting))]
    return f


def expert_fixtures() -> dict[str, list[str]]:
    """The fixes an expert puts first (issue #17): RKN070 onwards and the rewritten checks."""
    f = {}
    # RKN070: a SiLU conv with a same-shape plain Conv peer (600 vs 240 us) and one without
    swish = [
        conv("ConvExSwish", 64, 64, 80, k=1, time=600, name="Conv:/model.4/cv1/conv/Conv"),
        conv("ConvExSwish", 64, 96, 80, time=500, name="Conv:/model.5/conv/Conv"),
        conv("Conv", 64, 64, 80, k=1, time=240, name="Conv:/model.22/cv2.0/cv2.0.2/Conv"),
    ]
    f["RKN070"] = [*info(), *table(clean(extra=swish))]
    # a Sigmoid conv that squashes a model output is not an activation to swap
    head = [
        conv("ConvSigmoid", 128, 255, 40, k=1, time=300, name="Conv:/model.24/m.0/Conv"),
        io_out(shape(1, 255, 40, 40), n=1),
    ]
    f["RKN070_ok"] = [*info(), *table(clean() + head)]
    # under a 3-core mask the SiLU convs stay on core 0 while the same-shape plain Conv splits:
    # its 240 us measures the split, not the activation, so it is no twin
    f["RKN070_core_split"] = [
        *info(),
        *table(
            clean(
                extra=[
                    *swish[:2],
                    conv(
                        "Conv",
                        64,
                        64,
                        80,
                        k=1,
                        time=240,
                        wl=SPLIT3,
                        name="Conv:/model.22/cv2.0/cv2.0.2/Conv",
                    ),
                ]
            )
        ),
    ]
    # RKN050, measurement hygiene: two same-shape Concats 900 vs 300 us in one frame, and the
    # application's own time 1.3 x the table's total (no frequency list either)
    c32, c64 = shape(1, 32, 80, 80), shape(1, 64, 80, 80)
    twins = [
        row("Concat", f"{c32},{c32}", c64, t, 800, f"Concat:/neck/Concat_{i}")
        for i, t in enumerate((900, 300))
    ]
    rows = clean(extra=twins)
    app_ms = sum(r[6] for r in rows) * 1.3 / 1000
    # RKN071: a 1280x1280 input (4x the pixels of 640x640) through two strided convs; the _ok
    # log is the small 80x80 model; RKN071_tall: a 960x544 portrait input (1.8x taller)
    big = [
        io_in(shape(1, 3, 1280, 1280)),
        conv("ConvRelu", 3, 32, 1280, stride=2, time=4000, name="Conv:/model.0/conv/Conv"),
        conv("ConvRelu", 32, 64, 640, stride=2, time=2000, name="Conv:/model.1/conv/Conv"),
        io_out(shape(1, 64, 320, 320)),
    ]
    f["RKN071"] = [*info(), *table(big)]
    f["RKN071_ok"] = [*info(), *table(clean())]
    f["RKN071_tall"] = [*info(), *table([io_in(shape(1, 3, 960, 544))] + clean()[1:])]
    # RKN072: LayerNorm over the last axis of NCHW: Transpose 300 -> exNorm 200 -> Transpose
    # 280, then the per-channel Mul 90 and Add 80 (gamma, beta as (1,64,1,1)); the _ok log has
    # the exNorm over the channels with no Transpose around it
    nhwc, g = shape(1, 80, 80, 64), shape(1, 64, 1, 1)
    norm = [
        row("Transpose", c64, nhwc, 300, 1600, "Transpose:/neck/norm/Transpose"),
        row(
            "exNorm", nhwc, nhwc, 200, 1600, "exNorm:/neck/norm/LayerNormalization", dtype="FLOAT16"
        ),
        row("Transpose", nhwc, c64, 280, 1600, "Transpose:/neck/norm/Transpose_1"),
        row("Mul", f"{c64},{g}", c64, 90, 800, "Mul:/neck/norm/Mul"),
        row("Add", f"{c64},{g}", c64, 80, 800, "Add:/neck/norm/Add"),
    ]
    f["RKN072"] = [*info(), *table(clean(extra=norm))]
    f["RKN072_ok"] = [
        *info(),
        *table(clean(extra=[norm[1][:3] + (c64, c64) + norm[1][5:], *norm[3:]])),
    ]
    # outlier_RKN072: the same norm twice, the second's per-channel Mul at 270 us (3x 90)
    second = [(*r[:6], 270 if r[0] == "Mul" else r[6], *r[7:10], r[10] + "_2") for r in norm]
    f["outlier_RKN072"] = [*info(), *table(clean(extra=norm + second))]
    # RKN050_paced: nine 64->64 3x3 convs at the default pace (230,400 cycles, 288 us) and a
    # 64->96 3x3 conv (345,600 cycles) at 3,456 us: 8x the median time per cycle
    paced = [conv("ConvRelu", 64, 64, 80, name=f"Conv:/neck/conv{i}/Conv") for i in range(6)]
    paced.append(conv("ConvRelu", 64, 96, 80, time=3456, name="Conv:/neck/wide/Conv"))
    f["RKN050_paced"] = [*info(), *freqs(), *table(clean(extra=paced))]
    f["RKN050_outside"] = [
        *info(),
        "rknn_run",
        *table(rows),
        f"Total inference time (in milliseconds, 4 decimal places): {app_ms:.4f} ms",
    ]
    return f


def advice29_fixtures() -> dict[str, list[str]]:
    """Issue 29 (the expert's second review, patterns 2-9): each log shows one pattern."""
    f: dict[str, list[str]] = {}
    c32, c64, c128 = shape(1, 32, 80, 80), shape(1, 64, 80, 80), shape(1, 128, 80, 80)
    # RKN020: a C2f block (conv 64 -> 64 1x1, Cin = 2c, then Split 64 -> 2 x 32, 400 us) and a
    # block whose conv reads 128 channels (Cin = 4c: the half-convs' extra reads cancel the
    # Split's copy, 300 us)
    f["i29_RKN020_bytes"] = [
        *info(),
        *table(
            clean(
                extra=[
                    conv("ConvExSwish", 64, 64, 80, k=1, name="Conv:/model.2/cv1/conv/Conv"),
                    row("Split", f"{c64},(2)", f"{c32},...", 400, 800, "Split:/model.2/Split"),
                    conv("ConvExSwish", 128, 64, 80, k=1, name="Conv:/model.8/cv1/conv/Conv"),
                    row("Split", f"{c64},(2)", f"{c32},...", 300, 800, "Split:/model.8/Split"),
                ]
            )
        ),
    ]
    # custom ops: a user-registered InstanceNorm on the CPU (2,000 us, 2,048 KB), and this
    # log's own NPU norm path: Transpose 300 -> exNorm 200 (1,600 KB) -> Transpose 280 us
    nhwc = shape(1, 80, 80, 64)
    custom = row(
        "cstInstanceNorm",
        c64,
        c64,
        2000,
        2048,
        "cstInstanceNorm:/model/res0/norm/InstanceNormalization",
        "CPU",
        "FLOAT16",
    )
    norm_path = [
        row("Transpose", c64, nhwc, 300, 1600, "Transpose:/neck/norm/Transpose"),
        row("exNorm", nhwc, nhwc, 200, 1600, "exNorm:/neck/norm/LayerNorm", dtype="FLOAT16"),
        row("Transpose", nhwc, c64, 280, 1600, "Transpose:/neck/norm/Transpose_1"),
    ]
    f["i29_custom_norm"] = [*info(), *table(clean(extra=[custom, *norm_path]))]
    f["i29_custom_norm_norate"] = [*info(), *table(clean(extra=[custom]))]
    # a custom op that is no normalisation (a user decode kernel) on the CPU
    decode = row(
        "cstBoxDecode", c64, shape(1, 8400, 4), 900, 400, "cstBoxDecode:/head/decode", "CPU"
    )
    f["i29_custom_other"] = [*info(), *table(clean(extra=[decode]))]
    # Pad in a ResnetBlock: Pad (CPU) -> ConvRelu 3x3 -> Pad (CPU) -> Conv 3x3 -> Add back
    p82 = shape(1, 64, 82, 82)
    block = [
        row("Pad", c64, p82, 700, 820, "Pad:/model/res0/conv_block/Pad", "CPU"),
        conv("ConvRelu", 64, 64, 82, name="Conv:/model/res0/conv_block/conv1/Conv"),
        row("Pad", c64, p82, 720, 820, "Pad:/model/res0/conv_block/Pad_1", "CPU"),
        conv("Conv", 64, 64, 82, name="Conv:/model/res0/conv_block/conv2/Conv"),
        row("Add", f"{c64},{c64}", c64, 90, 1200, "Add:/model/res0/Add"),
    ]
    f["i29_pad_block"] = [*info(), *table(clean(extra=block))]
    zero = [
        row("Pad", c64, p82, 150, 820, "Pad:/model/stem/ZeroPad2d/Pad"),
        conv("Conv", 64, 64, 82, name="Conv:/model/stem/conv/Conv"),
    ]
    f["i29_pad_zero"] = [*info(), *table(clean(extra=zero))]
    # RKN030 on a one-core run: four large INT8 ConvRelus (921,600 cycles, 1,152 us) and a
    # decode tail after the last feature conv (RKN060 cuts it out: no split claimed on it)
    big = [conv("ConvRelu", 64, 64, 160, name=f"Conv:/backbone/c{i}/Conv") for i in range(4)]
    tail = [
        row("Reshape", f"{c128},(3)", shape(1, 4, 16, 6400), 30, 800, "Reshape:/head/Reshape"),
        row(
            "exSoftmax13",
            shape(1, 4, 16, 6400),
            shape(1, 4, 16, 6400),
            3100,
            800,
            "exSoftmax13:/head/dfl/Softmax",
            dtype="FLOAT16",
        ),
        row(
            "Conv",
            f"{shape(1, 16, 4, 6400)},{shape(1, 16, 1, 1)}",
            shape(1, 1, 4, 6400),
            120,
            200,
            "Conv:/head/dfl/conv/Conv",
            cycles="6400/25600/25600",
        ),
        row(
            "Sub",
            f"{shape(1, 2, 6400)},{shape(1, 2, 6400)}",
            shape(1, 2, 6400),
            60,
            50,
            "Sub:/head/Sub",
        ),
        row("Mul", f"{shape(1, 4, 6400)},(1)", shape(1, 4, 6400), 50, 50, "Mul:/head/Mul"),
        row(
            "Concat",
            f"{shape(1, 4, 6400)},{shape(1, 80, 6400)}",
            shape(1, 84, 6400),
            70,
            1100,
            "Concat:/head/Concat",
        ),
    ]
    feature = clean(extra=big)
    f["i29_RKN030_decode"] = [
        *info(),
        *table(
            feature[:-2]
            + [conv("ConvRelu", 64, 128, 80, name="Conv:/head/cv3/Conv")]
            + tail
            + [io_out(shape(1, 84, 6400))]
        ),
    ]
    # a log with one CPU-fallback warning and no table (a newer runtime's limit, 16384)
    f["i29_warning_only"] = [
        *info(),
        "W RKNN: [10:22:01.117] Transpose will fallback to CPU, because input shape has exceeded "
        "the max limit, height(64) * width(480) = 30720, required product no larger than 16384!",
    ]
    # one-core SoCs: an RV1106 with an old driver, and an RK3566 SiLU model
    # (an RV1106 prints no per-layer table, UG230 §3.2.3: rknn_benchmark output, FORMATS.md §7)
    f["i29_rv1106_driver"] = [
        "rknn_api/rknnrt version: 1.6.0 (9a7b5d24c@2023-12-13T17:31:11), driver version: 0.8.2",
        "total weight size: 1851008, total internal size: 1228800",
        "total dma used size: 4218880",
        "model input num: 1, output num: 1",
        "input tensors:",
        "  index=0, name=images, n_dims=4, dims=[1, 224, 224, 3], n_elems=150528, "
        "size=150528, w_stride = 224, size_with_stride=150528, fmt=NHWC, type=INT8, "
        "qnt_type=AFFINE, zp=-128, scale=0.018658",
        "output tensors:",
        "  index=0, name=output, n_dims=2, dims=[1, 1000], n_elems=1000, size=1000, "
        "w_stride = 0, size_with_stride=1000, fmt=UNDEFINED, type=INT8, qnt_type=AFFINE, "
        "zp=-52, scale=0.141923",
        "custom string: ",
        "Warmup ...",
        "   0: Elapse Time = 9.81ms, FPS = 101.94",
        "Begin perf ...",
        "   0: Elapse Time = 7.62ms, FPS = 131.23",
        "   1: Elapse Time = 7.58ms, FPS = 131.93",
        "",
        "Avg Time 7.60ms, Avg FPS = 131.579",
        "",
    ]
    silu = [conv("ConvExSwish", 64, 64, 80, k=1, time=600, name="Conv:/model.4/cv1/conv/Conv")]
    f["i29_rk3566_silu"] = [*info(platform="rk3566", driver="0.9.8"), *table(clean(extra=silu))]
    # RKN001 by op class: a final Reshape and an Acos on the CPU
    cpu_ops = [
        row("Acos", c64, c64, 400, 800, "Acos:/head/Acos", "CPU"),
        row("Reshape", f"{c64},(3)", shape(1, 64, 6400), 300, 800, "Reshape:/head/Reshape", "CPU"),
    ]
    f["i29_cpu_classes"] = [*info(), *table(clean(extra=cpu_ops))]
    return f


def main() -> None:
    for name, lines in fixtures().items():
        (HERE / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
