"""Two readings that used to differ from the log (issue 22), written from the grammar:

* a ranking row split over three physical lines by interleaved debugger output is rejoined,
  as spliced per-layer rows are;
* a build-time table with the short header behind a ``D RKNN: `` prefix without a time stamp
  reads the same from a file and inside a logcat capture."""

from __future__ import annotations

from pathlib import Path

from synthetic_logs import RULE, threadtime

from rknnprof.api import load
from rknnprof.model import OpTypeStat, Profile

RANKING_RULE = "-" * 99
HEADER = (
    f"{'OpType':<19}{'CallNumber':<13}{'CPUTime(us)':<13}{'GPUTime(us)':<13}"
    f"{'NPUTime(us)':<13}{'TotalTime(us)':<15}{'TimeRatio(%)':<14}"
)
STOP = (
    'Thread 1 "rknn_demo" hit Breakpoint 1, 0x0000007fb7e4c9a8 in ioctl () from '
    "/lib/aarch64-linux-gnu/libc.so.6"
)


def cells(op: str, calls: int, cpu: int, npu: int, ratio: str) -> list[str]:
    return [
        f"{op:<19}",
        f"{calls:<13}",
        f"{cpu:<13}",
        f"{0:<13}",
        f"{npu:<13}",
        f"{cpu + npu:<15}",
        ratio,
    ]


def profiles(tmp_path: Path, lines: list[str]) -> list[Profile]:
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load(str(path), rules=False)


def ranking_of(tmp_path: Path, lines: list[str]) -> dict[str, OpTypeStat]:
    [profile] = profiles(tmp_path, lines)
    return {stat.op_type: stat for stat in profile.ranking}


def test_a_ranking_row_split_over_three_lines_by_a_debugger_is_rejoined(tmp_path: Path) -> None:
    pow_row = "".join(cells("Pow", 19, 8800, 0, "64.00%"))
    mul_row = "".join(cells("Mul", 79, 0, 1950, "14.18%"))
    conv = cells("Conv", 72, 0, 3000, "21.82%")
    lines = [
        RANKING_RULE,
        f"{'Operator Time Consuming Ranking Table':^99}",
        RANKING_RULE,
        HEADER,
        RANKING_RULE,
        pow_row,
        "".join(conv[:3]),  # Conv, CallNumber, CPUTime
        STOP,
        "(gdb) continue",
        "Continuing.",
        "".join(conv[3:5]),  # GPUTime, NPUTime
        STOP,
        "".join(conv[5:]),  # TotalTime, TimeRatio
        mul_row,
        RANKING_RULE,
    ]
    ranking = ranking_of(tmp_path, lines)
    assert list(ranking) == ["Pow", "Conv", "Mul"]
    conv_stat = ranking["Conv"]
    assert (conv_stat.calls, conv_stat.npu_time_us, conv_stat.total_time_us) == (72, 3000, 3000)
    assert conv_stat.share == 0.2182


SHORT_HEADER = (
    f"{'ID':<5}{'OpType':<17}{'DataType':<9}{'Target':<7}{'InputShape':<41}{'OutputShape':<23}"
    "FullName"
)


def short_build_table() -> list[str]:
    """The build-time placement table with the short header (no cycles, no time), each line
    behind ``D RKNN: `` without a time stamp, as the toolkit prints it at verbose level."""
    rows = [
        f"{i:<5}{op:<17}{'INT8':<9}{target:<7}{'(1,8,64,64),(8,8,3,3),(8)':<41}"
        f"{'(1,8,64,64)':<23}{name}"
        for i, op, target, name in (
            (1, "ConvRelu", "NPU", "Conv:/c1/Conv"),
            (2, "Softmax", "CPU", "Softmax:/s2"),
            (3, "ConvRelu", "NPU", "Conv:/c3/Conv"),
        )
    ]
    return ["D RKNN: " + line for line in (RULE, SHORT_HEADER, RULE, *rows, RULE)]


def test_the_short_build_header_reads_the_same_through_every_transport(tmp_path: Path) -> None:
    table = short_build_table()
    transports = {
        "file": table,
        "threadtime": threadtime(table, 1234, 1240),
        "threadtime, app tag": [
            f"11-30 10:00:00.{n:03d}  1234  1240 I rknn_demo: {line}"
            for n, line in enumerate(table)
        ],
        "brief": [f"I/rknn_demo( 1234): {line}" for line in table],
        "time": [
            f"11-30 10:00:00.{n:03d} I/rknn_demo( 1234): {line}" for n, line in enumerate(table)
        ],
    }
    read = {}
    for name, lines in transports.items():
        [profile] = profiles(tmp_path, lines)
        assert not profile.measured, name
        read[name] = [(la.id, la.op_type, la.target.value, la.full_name) for la in profile.layers]
    assert read["file"] == [
        (1, "ConvRelu", "NPU", "Conv:/c1/Conv"),
        (2, "Softmax", "CPU", "Softmax:/s2"),
        (3, "ConvRelu", "NPU", "Conv:/c3/Conv"),
    ]
    assert all(layers == read["file"] for layers in read.values()), read
