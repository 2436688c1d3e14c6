"""Damaged variants of each table family, written from the grammar (corpus/FORMATS.md §1.2,
§1.4, §2.1, §3), never copied from a log: each is a way a pasted or captured table goes wrong
without looking broken, and each must reach ``check`` with a word (a warning, an inconclusive
verdict), never as a silent PASS.

Every generator returns the log's text and the figures a reader of that text would give, so the
tests hold the tool to the text, not to the code under test.
"""

from __future__ import annotations

from synthetic_logs import layer_row, table, table_of

RANKING_RULE = "-" * 99
RANKING_HEADER = (
    f"{'OpType':<19}{'CallNumber':<13}{'CPUTime(us)':<13}{'GPUTime(us)':<13}"
    f"{'NPUTime(us)':<13}{'TotalTime(us)':<15}{'TimeRatio(%)':<14}"
)

TIMES = [12, 900, 700, 500, 300, 25]
"""InputOperator, four convolutions, OutputOperator: 2,437 us."""


def _rows(times: list[int], ids: list[int] | None = None) -> list[str]:
    ids = ids or list(range(1, len(times) + 1))
    rows = []
    for k, (i, t) in enumerate(zip(ids, times, strict=True)):
        if k == 0:
            rows.append(layer_row(i, "InputOperator", t, "InputOperator:m_in", "CPU"))
        elif k == len(times) - 1:
            rows.append(layer_row(i, "OutputOperator", t, "OutputOperator:m_out", "CPU"))
        else:
            rows.append(layer_row(i, "ConvRelu", t, f"Conv:/m/conv{i}/Conv"))
    return rows


def ranking(rows: list[tuple[str, int, int, int]], frame_us: int, total_row: bool) -> list[str]:
    """A 2.x ranking table (FORMATS §1.4): (op type, calls, CPU us, NPU us) rows, TimeRatio of
    ``frame_us``; the ``Total`` row and the closing rule when ``total_row``."""
    lines = [
        RANKING_RULE,
        f"{'Operator Time Consuming Ranking Table':^99}",
        RANKING_RULE,
        RANKING_HEADER,
        RANKING_RULE,
    ]
    for op, calls, cpu, npu in rows:
        ratio = f"{(cpu + npu) / frame_us * 100:.2f}%"
        lines.append(f"{op:<19}{calls:<13}{cpu:<13}{0:<13}{npu:<13}{cpu + npu:<15}{ratio:<14}")
    if total_row:
        cpu = sum(r[2] for r in rows)
        npu = sum(r[3] for r in rows)
        lines += [
            RANKING_RULE,
            f"{'Total':<19}{'':<13}{cpu:<13}{0:<13}{npu:<13}{cpu + npu:<15}",
            RANKING_RULE,
        ]
    return lines


def printed_twice() -> tuple[str, int]:
    """One header, the rows twice, a total line of twice the time: (log, total line)."""
    rows = _rows(TIMES)
    return "\n".join(table_of(rows + rows, 2 * sum(TIMES))) + "\n", 2 * sum(TIMES)


def duplicated_row() -> tuple[str, int]:
    """Row 3 printed twice, the total line forged to match the rows: (log, total line)."""
    rows = _rows(TIMES)
    forged = sum(TIMES) + TIMES[2]
    return "\n".join(table_of([*rows[:3], rows[2], *rows[3:]], forged)) + "\n", forged


def ranking_disagrees() -> tuple[str, int]:
    """A clean table whose ranking gives ConvRelu 1,900 us where its four layers add up to
    2,400 us (and OutputOperator the rest): (log, total line)."""
    total = sum(TIMES)
    rank = ranking(
        [("ConvRelu", 4, 0, 1900), ("InputOperator", 1, 12, 0), ("OutputOperator", 1, 525, 0)],
        total,
        total_row=True,
    )
    return "\n".join([*table(TIMES), *rank]) + "\n", total


def ids_jump() -> tuple[str, int]:
    """IDs 1..30 then 131..140 (a paste that lost a hundred rows), total line = the rows'."""
    ids = [*range(1, 31), *range(131, 141)]
    times = [12, *([100] * 38), 25]
    return "\n".join(table_of(_rows(times, ids), sum(times))) + "\n", sum(times)


RANKING_ROWS = [
    ("ConvLeakyRelu", 21, 0, 27000),
    ("Transpose", 2, 0, 25000),
    ("Resize", 3, 23000, 0),
    ("Conv", 22, 0, 24000),
    ("InputOperator", 1, 4, 0),
]
RANKING_FRAME_US = sum(r[2] + r[3] for r in RANKING_ROWS)
"""99,004 us: the first row is 27.3 % of it."""


def ranking_cut_after_first_row() -> tuple[str, int]:
    """A ranking-only paste that stops after its first row: (log, the first row's time)."""
    lines = ranking(RANKING_ROWS, RANKING_FRAME_US, total_row=True)
    return "\n".join(lines[:6]) + "\n", 27000


TOOLKIT1_ROWS = [
    (0, "MobilenetV1/MobilenetV1/Conv2d_0/Relu6_1_RKNN_mark_perm", "TENSOR_TRANS", 60, 361),
    (2, "MobilenetV1/MobilenetV1/Conv2d_0/Relu6_1_2", "CONVOLUTION", 1, 920),
    (3, "MobilenetV1/MobilenetV1/Conv2d_1_depthwise/Relu6", "DEPTH_WISE_CONV", 3, 896),
    (4, "MobilenetV1/MobilenetV1/Conv2d_1_pointwise/Relu6", "CONVOLUTION", 5, 1106),
]


def toolkit1(with_total: bool) -> tuple[str, int]:
    """rknn-toolkit 1.x perf_debug table (FORMATS §3: Layer ID 12, Name 45 wrapped at 40,
    Operator 20, Uid 10, Time(us)), with or without its ``Total Time(us):`` / ``FPS:`` tail:
    (log, the rows' sum)."""
    rule = "=" * 72
    lines = [
        rule,
        f"{'Performance':^72}",
        "        #### The performance result is just for debugging, ####",
        "        #### may worse than actual performance!            ####",
        rule,
        f"{'Layer ID':<12}{'Name':<45}{'Operator':<20}{'Uid':<10}Time(us)",
    ]
    for lid, name, op, uid, t in TOOLKIT1_ROWS:
        lines.append(f"{lid:<12}{name[:40]:<45}{op:<20}{uid:<10}{t}")
        if len(name) > 40:
            lines.append(f"{'':<12}{name[40:]:<71}")
    total = sum(r[4] for r in TOOLKIT1_ROWS)
    if with_total:
        lines += [f"Total Time(us): {total}", f"FPS: {1e6 / total:.2f}", rule]
    return "\n".join(lines) + "\n", total


def csv_rows(count: int, of: int = 52) -> tuple[str, int]:
    """The first ``count`` of ``of`` rows of an eval_perf CSV side file (FORMATS §2.1: no header,
    no summary, quoted shapes, WorkLoad in three fields): (text, the rows' time sum)."""
    lines = []
    total = 0
    for i in range(1, of + 1):
        t = 1000 + 10 * i
        if i <= count:
            total += t
            lines.append(
                f'{i},ConvLeakyRelu,FLOAT16,NPU,"(1,16,160,640),(16,16,3,3),(16)",'
                f'"(1,16,160,640)",589106,28800,589106,{t},2.01,100.0%/0.0%/0.0%,-,Up:0.0%,'
                f"3,0,3402.31,Conv:Conv_{i}"
            )
    return "\n".join(lines) + "\n", total
