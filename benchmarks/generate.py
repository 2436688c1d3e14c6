"""Generate realistic RKNN logs for the benchmarks (and for tests that need big inputs).

* ``table(layers)``: one toolkit2 2.x "Network Layer Information Table" (19-wide OpType, as
  printed by runtime 2.3.x) with its total lines and ranking table.
* ``logcat_capture(path, size_mb)``: an ``adb logcat -v threadtime`` capture at
  ``RKNN_LOG_LEVEL=4``: every table line behind ``MM-DD HH:MM:SS.mmm PID TID D RKNN    : ``,
  one table per inference, frame times jittered, interleaved with noise from other tags.

* ``interleaved_capture(path, size_mb, streams=3)``: the same, with ``streams`` processes
  running the same model at once (one context per NPU core), each printing its own table per
  inference (every frame different); logcat interleaves their lines in short bursts.

Usage: ``python benchmarks/generate.py OUT.log SIZE_MB [--layers N] [--layout rknn]
[--streams 3]``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

RULE = "-" * 222
OPS = [
    ("ConvExSwish", "INT8", "NPU"),
    ("ConvExSwish", "INT8", "NPU"),
    ("Conv", "INT8", "NPU"),
    ("Split", "INT8", "NPU"),
    ("Concat", "INT8", "NPU"),
    ("Add", "INT8", "NPU"),
    ("MaxPool", "INT8", "NPU"),
    ("Resize", "INT8", "NPU"),
]
HEADER = (
    f"{'ID':<5}{'OpType':<19}{'DataType':<9}{'Target':<7}{'InputShape':<41}{'OutputShape':<23}"
    f"{'Cycles(DDR/NPU/Total)':<25}{'Time(us)':<13}{'MacUsage(%)':<21}{'WorkLoad(0/1/2)':<21}"
    f"{'RW(KB)':<13}{'FullName':<16}"
)


def _row(i: int, op: str, dtype: str, target: str, time_us: int, rng: random.Random) -> str:
    c = 16 << (i % 4)
    shape_in = f"(1,{c},80,80),({c},{c},3,3),({c})" if op.startswith("Conv") else f"(1,{c},80,80)"
    shape_out = f"(1,{c},80,80)"
    if op.startswith("Conv"):
        ddr, npu = rng.randint(20000, 400000), rng.randint(20000, 900000)
        cycles, mac = f"{ddr}/{npu}/{max(ddr, npu)}", f"{rng.uniform(1, 60):.2f}/0.00/0.00"
    else:
        cycles, mac = "0/0/0", ""
    workload = "100.0%/0.0%/0.0%" if target == "NPU" else "0.0%/0.0%/0.0%"
    name = f"{op.replace('ExSwish', '')}:/model.{i}/{op.lower()}/{op}"
    return (
        f"{i:<5}{op:<19}{dtype:<9}{target:<7}{shape_in:<41}{shape_out:<23}{cycles:<25}"
        f"{time_us:<13}{mac:<21}{workload:<21}{rng.randint(10, 4000):<13}{name:<16}"
    )


def table(layers: int = 100, seed: int = 0, jitter: float = 0.0) -> list[str]:
    """The lines of one table with ``layers`` rows (first InputOperator, last OutputOperator)."""
    rng = random.Random(seed)
    base = random.Random(1234)  # the model's base times do not depend on the frame
    rows, total, by_op = [], 0, {}
    for i in range(1, layers + 1):
        if i == 1:
            op, dtype, target = "InputOperator", "UINT8", "CPU"
        elif i == layers:
            op, dtype, target = "OutputOperator", "INT8", "CPU"
        else:
            op, dtype, target = OPS[base.randrange(len(OPS))]
        t0 = base.randint(5, 900)
        t = max(0, round(t0 * (1 + rng.uniform(-jitter, jitter))))
        total += t
        calls, cpu, npu = by_op.get(op, (0, 0, 0))
        by_op[op] = (
            calls + 1,
            cpu + (t if target == "CPU" else 0),
            npu + (t if target == "NPU" else 0),
        )
        rows.append(_row(i, op, dtype, target, t, rng))
    out = [RULE, f"{'Network Layer Information Table':^222}", RULE, HEADER, RULE, *rows, RULE]
    out += [
        f"Total Operator Elapsed Per Frame Time(us): {total}",
        "Total Memory Read/Write Per Frame Size(KB): 123456.78",
        RULE,
    ]
    r = "-" * 99
    out += [
        r,
        f"{'Operator Time Consuming Ranking Table':^99}",
        r,
        f"{'OpType':<19}{'CallNumber':<13}{'CPUTime(us)':<13}{'GPUTime(us)':<13}"
        f"{'NPUTime(us)':<13}{'TotalTime(us)':<15}{'TimeRatio(%)':<14}",
        r,
    ]
    for op, (calls, cpu, npu) in sorted(by_op.items(), key=lambda kv: -(kv[1][1] + kv[1][2])):
        ratio = f"{100 * (cpu + npu) / total:.2f}%" if total else "0.00%"
        out.append(f"{op:<19}{calls:<13}{cpu:<13}{0:<13}{npu:<13}{cpu + npu:<15}{ratio:<14}")
    tot_cpu = sum(v[1] for v in by_op.values())
    tot_npu = sum(v[2] for v in by_op.values())
    out += [f"{'Total':<19}{'':<13}{tot_cpu:<13}{0:<13}{tot_npu:<13}{total:<15}", r]
    return out


NOISE = [
    "I ActivityManager: Start proc 4321:com.example/u0a123 for service",
    "D SurfaceFlinger: duplicate layer name: changing com.example to com.example#1",
    "W AudioTrack: AUDIO_OUTPUT_FLAG_FAST denied by server; frameCount 0",
    "I chatty  : uid=1000(system) Binder:561_2 identical 3 lines",
]


def logcat_capture(
    path: Path, size_mb: float, layers: int = 100, seed: int = 0, layout: str = "threadtime"
) -> int:
    """Write a capture of about ``size_mb`` MB; return the number of frames. ``layout``:
    ``threadtime`` (logcat, with noise from other tags) or ``rknn`` (the runtime's own
    ``D RKNN: [hh:mm:ss.mmm] `` lines, as on a board's console: no other tags)."""
    rng = random.Random(seed)
    limit = int(size_mb * 1_000_000)
    written, frame, ms = 0, 0, 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("--------- beginning of main\n")
        while written < limit:
            lines = table(layers, seed=frame, jitter=0.05)
            chunk = []
            for text in lines:
                ms += 1
                clock = f"10:{(ms // 60000) % 60:02d}:{(ms // 1000) % 60:02d}.{ms % 1000:03d}"
                if layout == "rknn":
                    chunk.append(f"D RKNN: [{clock}] {text}\n")
                    continue
                stamp = f"11-30 {clock}"
                chunk.append(f"{stamp}  2345  2399 D RKNN    : {text}\n")
                if rng.random() < 0.05:
                    noise = NOISE[rng.randrange(len(NOISE))]
                    level, rest = noise.split(" ", 1)
                    tag, msg = rest.split(": ", 1)
                    chunk.append(f"{stamp}   561   602 {level} {tag:<8}: {msg}\n")
            data = "".join(chunk)
            f.write(data)
            written += len(data)
            frame += 1
    return frame


STREAM_IDS = [(2345, 2399), (2410, 2452), (2477, 2531), (2603, 2640)]
"""``pid tid`` of the processes of :func:`interleaved_capture`."""


def interleaved_capture(
    path: Path, size_mb: float, layers: int = 100, seed: int = 0, streams: int = 3
) -> int:
    """Write an ``adb logcat -v threadtime`` capture of about ``size_mb`` MB where ``streams``
    processes print the same model's tables at once; return the number of frames.

    Each process prints one table per inference (times jittered per frame and process). Logcat
    merges their lines as they come: at each step one process, picked at random, prints a
    burst of 1 to 8 lines (mostly short ones), so a frame of one process holds the lines of
    the others' frames; 5 % noise from other tags as in :func:`logcat_capture`."""
    rng = random.Random(seed)
    limit = int(size_mb * 1_000_000)
    ids = STREAM_IDS[:streams]
    pending: list[list[str]] = [[] for _ in ids]
    counts = [0] * len(ids)
    written, frames, ms = 0, 0, 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("--------- beginning of main\n")
        while written < limit:
            chunk = []
            for _ in range(256):
                k = rng.randrange(len(ids))
                if not pending[k]:
                    pending[k] = table(layers, seed=1000 * counts[k] + k, jitter=0.05)
                    counts[k] += 1
                    frames += 1
                burst = min(len(pending[k]), 1 + int(rng.expovariate(1 / 2.5)) % 8)
                pid, tid = ids[k]
                for text in pending[k][:burst]:
                    ms += 1
                    clock = f"10:{(ms // 60000) % 60:02d}:{(ms // 1000) % 60:02d}.{ms % 1000:03d}"
                    stamp = f"11-30 {clock}"
                    chunk.append(f"{stamp} {pid:>5} {tid:>5} D RKNN    : {text}\n")
                    if rng.random() < 0.05:
                        noise = NOISE[rng.randrange(len(NOISE))]
                        level, rest = noise.split(" ", 1)
                        tag, msg = rest.split(": ", 1)
                        chunk.append(f"{stamp}   561   602 {level} {tag:<8}: {msg}\n")
                del pending[k][:burst]
            data = "".join(chunk)
            f.write(data)
            written += len(data)
    return frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("size_mb", type=float)
    parser.add_argument("--layers", type=int, default=100)
    parser.add_argument("--layout", choices=("threadtime", "rknn"), default="threadtime")
    parser.add_argument("--streams", type=int, default=1, help="processes printing at once")
    args = parser.parse_args()
    if args.streams > 1:
        frames = interleaved_capture(args.out, args.size_mb, args.layers, streams=args.streams)
    else:
        frames = logcat_capture(args.out, args.size_mb, args.layers, layout=args.layout)
    print(f"{args.out}: {frames} frames")


if __name__ == "__main__":
    main()
