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


def cycles_row(
    i: int,
    op: str,
    ddr: int,
    npu: int,
    time_us: int,
    name: str,
    target: str = "NPU",
    shapes: tuple[str, str] = ("(1,64,80,80),(64,64,1,1),(64)", "(1,64,80,80)"),
) -> str:
    """One 2.x row with the cycles and time the test chooses (MacUsage ``\\`` off the NPU)."""
    mac = "0.05/0.00/0.00" if target == "NPU" else "\\"
    cycles = f"{ddr}/{npu}/{max(ddr, npu)}"
    return (
        f"{i:<5}{op:<19}{'INT8':<9}{target:<7}{shapes[0]:<41}{shapes[1]:<23}{cycles:<25}"
        f"{time_us:<13}{mac:<21}{'100.0%/0.0%/0.0%':<21}{400:<13}{name:<16}"
    )


def table_of(rows: list[str], total_us: float | None) -> list[str]:
    """A 2.x table around ``rows``, ending with the total line when ``total_us`` is given."""
    end = [RULE]
    if total_us is not None:
        end += [
            f"Total Operator Elapsed Per Frame Time(us): {total_us:g}",
            "Total Memory Read/Write Per Frame Size(KB): 1200.00",
            RULE,
        ]
    return [RULE, f"{'Network Layer Information Table':^222}", RULE, HEADER, RULE, *rows, *end]


def debugger_capture() -> list[str]:
    """A log-level-4 capture taken under gdb, as issue 22 describes one: runtime info naming
    the RK3588, ``Get DDR frequency: 528MHz``, an ioctl breakpoint and the prompt, a mem-sync
    ioctl trace and a ``dump npy tensor to:`` line per tensor, all inside the run, then its
    table: a 1x1 conv whose 410,000 DDR cycles explain 0.41 ms of its 112 ms (at 1 GHz), and an
    OutputOperator of 763 us."""
    rows = [
        cycles_row(1, "InputOperator", 0, 0, 30, "InputOperator:in", "CPU", ("\\", "(1,64,80,80)")),
        cycles_row(2, "ConvRelu", 410000, 102400, 112000, "Conv:/conv1/Conv"),
        cycles_row(
            3, "OutputOperator", 0, 0, 763, "OutputOperator:out", "CPU", ("(1,64,80,80)", "\\")
        ),
    ]
    info = runtime_prefixed(
        [
            "RKNN Runtime Information, librknnrt version: 2.3.2 (429f97ae6b@2025-04-09T09:08:16)",
            "RKNN Model Information, version: 6, toolkit version: 2.3.2, target: RKNPU v2, "
            "target platform: rk3588, framework name: ONNX",
        ]
    )
    run = [
        "Get DDR frequency: 528MHz",
        'Thread 1 "rknn_demo" hit Breakpoint 1, 0x0000007fb7e4c9a8 in ioctl () from '
        "/lib/aarch64-linux-gnu/libc.so.6",
        "(gdb) continue",
        "Continuing.",
        "ioctl(3, DRM_IOCTL_RKNPU_MEM_SYNC, 0x7fc3a1b2c0) = 0",
        *runtime_prefixed(
            [
                f"dump npy tensor to: /userdata/dumps/00{i}_{op}.npy"
                for i, op in enumerate(("InputOperator", "ConvRelu", "OutputOperator"))
            ],
            10,
        ),
    ]
    return [*info, *run, *runtime_prefixed(table_of(rows, 30 + 112000 + 763), 100)]
