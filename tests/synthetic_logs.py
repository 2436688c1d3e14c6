"""Small synthetic logs for the multi-run, live-pipe and paste-damage tests, written to the
grammar in corpus/FORMATS.md §1.2 (19-wide OpType, 222-dash rule, as runtime 2.3.x prints).

Times are chosen by the test, so expected medians are known without running the parser.
"""

from __future__ import annotations

RULE = "-" * 222
HEADER = (
    f"{'ID':<5}{'OpType':<19}{'DataType':<9}{'Target':<7}{'InputShape':<41}{'OutputShape':<23}"
    f"{'Cycles(DDR/NPU/Total)':<25}{'Time(us)':<13}{'MacUsage(%)':<21}{'WorkLoad(0/1/2)':<21}"
    f"{'RW(KB)':<13}{'FullName':<16}"
)


def layer_row(i: int, op: str, time_us: int, name: str, target: str = "NPU") -> str:
    if op == "InputOperator":
        shape_in, shape_out, cycles, mac = "\\", "(1,3,64,64)", "0/0/0", "\\"
    elif op == "OutputOperator":
        shape_in, shape_out, cycles, mac = "(1,8,64,64)", "\\", "0/0/0", "\\"
    else:
        shape_in, shape_out = "(1,8,64,64),(8,8,3,3),(8)", "(1,8,64,64)"
        cycles, mac = "20000/90000/90000", "12.50/0.00/0.00"
    workload = "100.0%/0.0%/0.0%" if target == "NPU" else "0.0%/0.0%/0.0%"
    return (
        f"{i:<5}{op:<19}{'INT8':<9}{target:<7}{shape_in:<41}{shape_out:<23}{cycles:<25}"
        f"{time_us:<13}{mac:<21}{workload:<21}{64:<13}{name:<16}"
    )


def table(times: list[int], model: str = "m") -> list[str]:
    """One 2.x table: InputOperator, len(times) - 2 convolutions, OutputOperator."""
    rows = []
    for i, time_us in enumerate(times, start=1):
        if i == 1:
            rows.append(layer_row(i, "InputOperator", time_us, f"InputOperator:{model}_in", "CPU"))
        elif i == len(times):
            rows.append(
                layer_row(i, "OutputOperator", time_us, f"OutputOperator:{model}_out", "CPU")
            )
        else:
            rows.append(layer_row(i, "ConvRelu", time_us, f"Conv:/{model}/conv{i}/Conv"))
    return [
        RULE,
        f"{'Network Layer Information Table':^222}",
        RULE,
        HEADER,
        RULE,
        *rows,
        RULE,
        f"Total Operator Elapsed Per Frame Time(us): {sum(times)}",
        "Total Memory Read/Write Per Frame Size(KB): 256.00",
        RULE,
    ]


def runtime_prefixed(lines: list[str], start_ms: int = 0) -> list[str]:
    """Every line behind ``D RKNN: [HH:MM:SS.mmm] `` (RKNN_LOG_LEVEL=4 on Linux)."""
    out = []
    for n, text in enumerate(lines):
        ms = start_ms + n
        out.append(
            f"D RKNN: [10:{(ms // 60000) % 60:02d}:{(ms // 1000) % 60:02d}.{ms % 1000:03d}] {text}"
        )
    return out


def threadtime(lines: list[str], pid: int, tid: int, start_ms: int = 0) -> list[str]:
    """Every line behind an ``adb logcat -v threadtime`` prefix with tag RKNN."""
    out = []
    for n, text in enumerate(lines):
        ms = start_ms + n
        stamp = f"11-30 10:{(ms // 60000) % 60:02d}:{(ms // 1000) % 60:02d}.{ms % 1000:03d}"
        out.append(f"{stamp} {pid:>5} {tid:>5} D RKNN    : {text}")
    return out


def interleave(*streams: list[str]) -> list[str]:
    """Round-robin merge of several line lists (threads printing at the same time)."""
    out: list[str] = []
    longest = max(len(s) for s in streams)
    for i in range(longest):
        out.extend(stream[i] for stream in streams if i < len(stream))
    return out
