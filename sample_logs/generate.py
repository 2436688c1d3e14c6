"""Write the sample logs in this folder (run: ``python sample_logs/generate.py``).

The models are described layer by layer here; cycles, times, MAC usage and RW sizes come from a
simple cost model fitted to real RK3588 tables (1 GHz NPU, 1024 INT8 MACs per cycle, Cin aligned
to 32 and Cout to 16, about 10 bytes of DDR traffic per DDR cycle, 0/0/0-cycle ops timed by their
RW at ~6.5 GB/s). The text layout follows ``corpus/FORMATS.md`` exactly: 2.3.x tables with a
19-wide OpType, 222-dash rules, empty MacUsage on 0/0/0 rows and a ranking ``Total`` row; the
1.5 table with its banner, separate cycle columns and ``Task Number``/``Lut Number`` tail.

* ``yolov5s_rk3588_perf.txt``: runtime info lines, then one 2.x table of yolov5s (640x640,
  INT8, core 0) in which one Resize falls back to the CPU, then its ranking table.
* ``yolov5s_rk3588_loglevel4_3frames.txt``: the same model at ``RKNN_LOG_LEVEL=4``: three
  inferences, every line behind ``D RKNN: [hh:mm:ss.mmm] ``, frame times jittered.
* ``mobilenetv2_rk3588_eval_perf_v15.txt``: toolkit2 1.5 ``eval_perf`` of mobilenetv2 with
  exSoftmax13 on the CPU, one row broken across two lines and one row without FullName.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _a(x: int, n: int) -> int:
    return -(-x // n) * n


def _shape(s: tuple[int, ...]) -> str:
    return "(" + ",".join(map(str, s)) + ")"


class Net:
    """Layers as dicts: op, dtype, target, inputs, outputs, ddr, npu, time, mac, rw, name."""

    def __init__(self, seed: int) -> None:
        self.rows: list[dict] = []
        self.rng = random.Random(seed)

    def add(
        self,
        op: str,
        name: str,
        inputs: list[tuple[int, ...]],
        out: tuple[int, ...],
        *,
        target: str = "NPU",
        dtype: str = "INT8",
        k: int = 0,
        cin: int = 0,
        cout: int = 0,
        groups: int = 1,
        more_out: bool = False,
        cpu_us: int = 0,
    ) -> None:
        in_bytes = sum(math.prod(s) for s in inputs[:1] if op.startswith("Conv")) or sum(
            math.prod(s) for s in inputs
        )
        w_bytes = sum(math.prod(s) for s in inputs[1:]) if op.startswith("Conv") else 0
        out_bytes = math.prod(out) * (3 if more_out else 1)
        rw = (in_bytes + w_bytes + out_bytes) / 1024
        jitter = 1 + self.rng.uniform(-0.04, 0.04)
        if target == "CPU":
            ddr = npu = 0
            time = cpu_us or round(rw * 0.04 + 2)
            mac = None
        elif op.startswith("Conv"):
            ho_wo = out[2] * out[3]
            macs = cout * (cin // groups) * k * k * ho_wo
            npu = _a(cin if groups == 1 else 32, 32) * _a(cout, 16) * k * k * ho_wo // 1024
            ddr = round(rw * 1024 / 10.2)
            time = round(max(ddr, npu) / 1000 * 1.6 * jitter + 18)
            mac = min(macs / (time * 1024 * 1000) * 100, 99.0)
        else:
            ddr = npu = 0
            time = round(rw * 1024 / 6.5e3 * jitter + 12)
            mac = None
        self.rows.append(
            {
                "op": op,
                "dtype": dtype,
                "target": target,
                "inputs": inputs,
                "out": out,
                "ddr": ddr,
                "npu": npu,
                "time": time,
                "mac": mac,
                "rw": rw,
                "name": name,
                "more_out": more_out,
            }
        )

    def conv(
        self,
        name: str,
        x: tuple[int, ...],
        cout: int,
        k: int,
        s: int = 1,
        op: str = "ConvExSwish",
        groups: int = 1,
    ) -> tuple[int, ...]:
        n, c, h, w = x
        out = (n, cout, h // s, w // s)
        weight = (cout, c // groups, k, k)
        self.add(
            op, f"Conv:{name}", [x, weight, (cout,)], out, k=k, cin=c, cout=cout, groups=groups
        )
        return out


def yolov5s(seed: int = 5, cpu_resize_us: int = 1873) -> Net:
    net = Net(seed)
    x = (1, 3, 640, 640)
    net.add("InputOperator", "InputOperator:images", [], x, target="CPU", dtype="UINT8", cpu_us=9)
    net.rows[-1]["inputs"] = None
    first = net.conv("/model.0/conv/Conv", x, 32, 6, 2)
    net.rows[-1]["dtype"] = "UINT8"

    def c3(i: int, x: tuple[int, ...], c2: int, n: int, shortcut: bool = True) -> tuple[int, ...]:
        h = c2 // 2
        a = net.conv(f"/model.{i}/cv1/conv/Conv", x, h, 1)
        b = net.conv(f"/model.{i}/cv2/conv/Conv", x, h, 1)
        for j in range(n):
            y = net.conv(f"/model.{i}/m/m.{j}/cv1/conv/Conv", a, h, 1)
            y = net.conv(f"/model.{i}/m/m.{j}/cv2/conv/Conv", y, h, 3)
            if shortcut:
                net.add("Add", f"Add:/model.{i}/m/m.{j}/Add", [a, y], y)
            a = y
        cat = (1, 2 * h, x[2], x[3])
        net.add("Concat", f"Concat:/model.{i}/Concat", [a, b], cat)
        return net.conv(f"/model.{i}/cv3/conv/Conv", cat, c2, 1)

    x = net.conv("/model.1/conv/Conv", first, 64, 3, 2)
    x = c3(2, x, 64, 1)
    x = net.conv("/model.3/conv/Conv", x, 128, 3, 2)
    p3 = c3(4, x, 128, 2)
    x = net.conv("/model.5/conv/Conv", p3, 256, 3, 2)
    p4 = c3(6, x, 256, 3)
    x = net.conv("/model.7/conv/Conv", p4, 512, 3, 2)
    x = c3(8, x, 512, 1)
    y = net.conv("/model.9/cv1/conv/Conv", x, 256, 1)
    pools = [y]
    for j in range(3):
        net.add("MaxPool", f"MaxPool:/model.9/m{'_' + str(j) if j else ''}/MaxPool", [y], y)
        pools.append(y)
    cat = (1, 1024, 20, 20)
    net.add("Concat", "Concat:/model.9/Concat", pools[:2], cat)
    net.rows[-1]["inputs"] = [pools[0], pools[1], "..."]
    x = net.conv("/model.9/cv2/conv/Conv", cat, 512, 1)
    h10 = net.conv("/model.10/conv/Conv", x, 256, 1)
    up = (1, 256, 40, 40)
    net.add("Resize", "Resize:/model.11/Resize", [h10, (0,), (4,)], up)
    cat = (1, 512, 40, 40)
    net.add("Concat", "Concat:/model.12/Concat", [up, p4], cat)
    x = c3(13, cat, 256, 1, False)
    h14 = net.conv("/model.14/conv/Conv", x, 128, 1)
    up = (1, 128, 80, 80)
    net.add(
        "Resize",
        "Resize:/model.15/Resize",
        [h14, (0,), (4,)],
        up,
        target="CPU",
        cpu_us=cpu_resize_us,
    )
    cat = (1, 256, 80, 80)
    net.add("Concat", "Concat:/model.16/Concat", [up, p3], cat)
    out80 = c3(17, cat, 128, 1, False)
    outs = []
    net.conv("/model.24/m.0/Conv", out80, 255, 1, op="ConvSigmoid")
    outs.append(net.rows[-1]["out"])
    net.add("OutputOperator", "OutputOperator:output0", [outs[-1]], (0,), target="CPU")
    net.rows[-1]["out"] = None
    x = net.conv("/model.18/conv/Conv", out80, 128, 3, 2)
    cat = (1, 256, 40, 40)
    net.add("Concat", "Concat:/model.19/Concat", [x, h14], cat)
    out40 = c3(20, cat, 256, 1, False)
    net.conv("/model.24/m.1/Conv", out40, 255, 1, op="ConvSigmoid")
    net.add("OutputOperator", "OutputOperator:345", [net.rows[-1]["out"]], (0,), target="CPU")
    net.rows[-1]["out"] = None
    x = net.conv("/model.21/conv/Conv", out40, 256, 3, 2)
    cat = (1, 512, 20, 20)
    net.add("Concat", "Concat:/model.22/Concat", [x, h10], cat)
    out20 = c3(23, cat, 512, 1, False)
    net.conv("/model.24/m.2/Conv", out20, 255, 1, op="ConvSigmoid")
    net.add("OutputOperator", "OutputOperator:347", [net.rows[-1]["out"]], (0,), target="CPU")
    net.rows[-1]["out"] = None
    return net


def _shapes(shapes: list | None) -> str:
    if shapes is None:
        return "\\"
    return ",".join("..." if s == "..." else _shape(s) for s in shapes)


def table_2x(net: Net) -> list[str]:
    rule = "-" * 222
    lines = [rule, f"{' ' * 74}{'Network Layer Information Table':<110}", rule]
    lines.append(
        f"{'ID':<5}{'OpType':<19}{'DataType':<9}{'Target':<7}{'InputShape':<41}{'OutputShape':<23}"
        f"{'Cycles(DDR/NPU/Total)':<25}{'Time(us)':<13}{'MacUsage(%)':<21}{'WorkLoad(0/1/2)':<21}"
        f"{'RW(KB)':<13}{'FullName':<16}"
    )
    lines.append(rule)
    total = 0
    rw_total = 0.0
    for i, r in enumerate(net.rows, 1):
        out = _shapes([r["out"]] if r["out"] else None)
        if r["more_out"]:
            out += ",..."
        cyc = f"{r['ddr']}/{r['npu']}/{max(r['ddr'], r['npu'])}"
        mac = f"{r['mac']:.2f}/0.00/0.00" if r["mac"] is not None else ""
        work = "0.0%/0.0%/0.0%" if r["target"] == "CPU" else "100.0%/0.0%/0.0%"
        rw = round(r["rw"])
        lines.append(
            f"{i:<5}{r['op']:<19}{r['dtype']:<9}{r['target']:<7}{_shapes(r['inputs']):<41}"
            f"{out:<23}{cyc:<25}{r['time']:<13}{mac:<21}{work:<21}{rw:<13}{r['name']:<16}"
        )
        total += r["time"]
        rw_total += r["rw"]
    lines += [
        rule,
        f"Total Operator Elapsed Per Frame Time(us): {total}",
        f"Total Memory Read/Write Per Frame Size(KB): {rw_total:.2f}",
        rule,
    ]
    lines += ranking_2x(net, total)
    return lines


def _by_op(net: Net) -> list[tuple[str, int, int, int]]:
    acc: dict[str, list[int]] = {}
    for r in net.rows:
        calls, cpu, npu = acc.get(r["op"], [0, 0, 0])
        on_cpu = r["target"] == "CPU"
        acc[r["op"]] = [
            calls + 1,
            cpu + (r["time"] if on_cpu else 0),
            npu + (0 if on_cpu else r["time"]),
        ]
    return sorted(((op, *v) for op, v in acc.items()), key=lambda t: -(t[2] + t[3]))


def ranking_2x(net: Net, total: int) -> list[str]:
    rule = "-" * 99
    lines = [
        rule,
        f"{' ' * 33}{'Operator Time Consuming Ranking Table':<49}",
        rule,
        f"{'OpType':<19}{'CallNumber':<13}{'CPUTime(us)':<13}{'GPUTime(us)':<13}"
        f"{'NPUTime(us)':<13}{'TotalTime(us)':<15}{'TimeRatio(%)':<14}",
        rule,
    ]
    cpu_sum = npu_sum = 0
    for op, calls, cpu, npu in _by_op(net):
        ratio = f"{100 * (cpu + npu) / total:.2f}%"
        lines.append(f"{op:<19}{calls:<13}{cpu:<13}{0:<13}{npu:<13}{cpu + npu:<15}{ratio:<14}")
        cpu_sum, npu_sum = cpu_sum + cpu, npu_sum + npu
    lines += [rule, f"{'Total':<32}{cpu_sum:<13}{0:<13}{npu_sum:<13}{total:<15}", rule]
    return lines


INFO = [
    "I RKNN: [10:21:37.402] RKNN Runtime Information, librknnrt version: 2.3.2 "
    "(429f97ae6b@2025-04-09T09:09:27)",
    "I RKNN: [10:21:37.402] RKNN Driver Information, version: 0.9.8",
    "I RKNN: [10:21:37.405] RKNN Model Information, version: 6, toolkit version: 2.3.2"
    "(compiler version: 2.3.2 (e045de294f@2025-04-07T19:48:25)), target: RKNPU v2, target "
    "platform: rk3588, framework name: ONNX, framework layout: NCHW, model inference type: "
    "static_shape",
]


def write_yolov5s() -> None:
    lines = [*INFO, "rknn_run", *table_2x(yolov5s())]
    (HERE / "yolov5s_rk3588_perf.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_loglevel4() -> None:
    out = [*INFO]
    clock = 10 * 3600 * 1000 + 22 * 60 * 1000
    for frame in range(3):
        net = yolov5s(seed=100 + frame, cpu_resize_us=1873 + 37 * frame)
        clock += 140
        stamp = f"{clock // 3600000:02d}:{clock // 60000 % 60:02d}:{clock // 1000 % 60:02d}.{clock % 1000:03d}"
        out += [f"D RKNN: [{stamp}] {line}" for line in table_2x(net)]
    (HERE / "yolov5s_rk3588_loglevel4_3frames.txt").write_text(
        "\n".join(out) + "\n", encoding="utf-8"
    )


def mobilenetv2() -> Net:
    net = Net(15)
    x = (1, 3, 224, 224)
    net.add("InputOperator", "InputOperator:data", [], x, target="CPU", dtype="UINT8", cpu_us=7)
    net.rows[-1]["inputs"] = None
    x = net.conv("conv1", x, 32, 3, 2, op="ConvRelu")
    net.rows[-1]["dtype"] = "UINT8"
    settings = [
        (1, 16, 1, 1),
        (6, 24, 2, 2),
        (6, 32, 3, 2),
        (6, 64, 4, 2),
        (6, 96, 3, 1),
        (6, 160, 3, 2),
        (6, 320, 1, 1),
    ]
    block = 0
    for t, c, n, s in settings:
        for j in range(n):
            block += 1
            cin = x[1]
            y = x
            if t != 1:
                y = net.conv(f"conv{block}_expand", y, cin * t, 1, op="ConvRelu")
            y = net.conv(
                f"conv{block}_dwise", y, y[1], 3, s if j == 0 else 1, op="ConvRelu", groups=y[1]
            )
            residual = j > 0 and cin == c
            y = net.conv(f"conv{block}_linear", y, c, 1, op="ConvAdd" if residual else "Conv")
            x = y
    x = net.conv("conv_last", x, 1280, 1, op="ConvRelu")
    x = net.conv("pool6", x, 1280, 7, 7, op="Conv", groups=1280)
    x = net.conv("fc7", x, 1000, 1, op="Conv")
    net.add("exDataConvert", "exDataConvert:fc7__float16", [x], x)
    net.add("exSoftmax13", "Softmax:prob", [x], x, target="CPU", dtype="FLOAT16", cpu_us=361)
    net.add("OutputOperator", "OutputOperator:prob", [x], x, target="CPU", dtype="FLOAT16")
    net.rows[-1]["out"] = None
    return net


def write_v15() -> None:
    net = mobilenetv2()
    rule = "=" * 115
    lines = [
        "W eval_perf: The result of eval_perf is also saved to eval_perf.csv!",
        rule,
        f"{'Performance':^70}",
        "        #### The performance result is just for debugging, ####",
        "        #### may worse than actual performance!            ####",
        rule,
    ]
    lines.append(
        f"{'ID':<5}{'OpType':<17}{'DataType':<9}{'Target':<7}{'InputShape':<45}{'OutputShape':<23}"
        f"{'DDR Cycles':<15}{'NPU Cycles':<15}{'Total Cycles':<15}{'Time(us)':<15}{'MacUsage(%)':<15}"
        f"{'WorkLoad(0/1/2)-ImproveTherical':<39}{'Task Number':<15}{'Lut Number':<15}{'RW(KB)':<15}"
        "FullName"
    )
    total = 0
    for i, r in enumerate(net.rows, 1):
        on_cpu = r["target"] == "CPU"
        mac = f"{r['mac']:.2f}" if r["mac"] is not None else "\\"
        work = "0.0%/0.0%/0.0% - Up:0.0%" if on_cpu else "100.0%/0.0%/0.0% - Up:0.0%"
        tasks = 0 if on_cpu else 1 + i % 3
        lut = 1 if r["op"] == "exSoftmax13" else 0
        head = (
            f"{i:<5}{r['op']:<17}{r['dtype']:<9}{r['target']:<7}{_shapes(r['inputs']):<45}"
            f"{_shapes([r['out']] if r['out'] else None):<23}{r['ddr']:<15}"
        )
        tail = (
            f"{r['npu']:<15}{max(r['ddr'], r['npu']):<15}{r['time']:<15}{mac:<15}{work:<39}"
            f"{tasks:<15}{lut:<15}{r['rw']:<15.2f}"
        )
        if i == 23:  # broken after DDR Cycles, as in rknnrt 1.5.0 output
            lines += [head.rstrip(), tail + r["name"]]
        elif i == 2:  # printed without FullName
            lines.append(head + tail.rstrip())
        else:
            lines.append(head + tail + r["name"])
        total += r["time"]
    lines += [
        "",
        f"Total Operator Elapsed Time(us): {total}",
        "Total Memory RW Amount(MB): 0",
        "Operator Time-Consuming Ranking:",
        f"{'OpType':<17}{'Call Number':<16}{'CPU Time(us)':<16}{'NPU Time(us)':<16}"
        f"{'Total Time(us)':<18}Time Ratio(%)",
    ]
    for op, calls, cpu, npu in _by_op(net):
        ratio = round(100 * (cpu + npu) / total, 2)
        lines.append(f"{op:<17}{calls:<16}{cpu:<16}{npu:<16}{cpu + npu:<18}{ratio:g}")
    lines += ["", rule]
    (HERE / "mobilenetv2_rk3588_eval_perf_v15.txt").write_text(
        "\n".join(lines) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    write_yolov5s()
    write_loglevel4()
    write_v15()
