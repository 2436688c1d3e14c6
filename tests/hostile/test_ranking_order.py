"""A capture of ranking tables alone (no per-layer table): the runtime sorts each frame's
ranking by time, so two op types of close times swap places from frame to frame. The frames
are still one model's (its op types, as a set), never two profiles each of a biased subset of
the frames."""

from __future__ import annotations

from pathlib import Path

from rknnprof.api import load

RULE = "-" * 99
HEADER = (
    f"{'OpType':<19}{'CallNumber':<13}{'CPUTime(us)':<13}{'GPUTime(us)':<13}"
    f"{'NPUTime(us)':<13}{'TotalTime(us)':<15}{'TimeRatio(%)':<14}"
)


def ranking(conv: int, output: int, add: int) -> list[str]:
    """One frame's ranking: ConvExSwish, OutputOperator (CPU) and Add, sorted by time."""
    rows = [("ConvExSwish", 12, 0, conv), ("OutputOperator", 1, output, 0), ("Add", 1, 0, add)]
    total = conv + output + add
    rows.sort(key=lambda r: -(r[2] + r[3]))
    out = [RULE, f"{'Operator Time Consuming Ranking Table':^99}", RULE, HEADER, RULE]
    for op, calls, cpu, npu in rows:
        share = f"{100 * (cpu + npu) / total:.2f}%"
        out.append(f"{op:<19}{calls:<13}{cpu:<13}{0:<13}{npu:<13}{cpu + npu:<15}{share:<14}")
    out += [f"{'Total':<19}{'':<13}{output:<13}{0:<13}{conv + add:<13}{total:<15}", RULE]
    return out


def test_ranking_frames_whose_order_swaps_are_one_model(tmp_path: Path) -> None:
    # OutputOperator 300 us against Add 250 in even frames, 240 against 252 in odd ones
    lines = []
    for i in range(10):
        output, add = (300, 250) if i % 2 == 0 else (240, 252)
        lines += [f"D RKNN: [10:00:{i:02d}.000] {line}" for line in ranking(5000, output, add)]
    path = tmp_path / "rankings.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(path, rules=False)
    assert profile.frames == 10
    # frame totals 5,550 (x5) and 5,492 (x5): the median of all ten, not of one half
    assert profile.frame_time_p50_us == (5550 + 5492) / 2
