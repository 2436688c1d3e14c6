"""Op-type aggregation: the same numbers as the log's "Operator Time Consuming Ranking Table"
(calls, CPU/GPU/NPU/total time per op type, share of the total), computed from the layers.
Sorted like the runtime sorts it: total time descending."""

from __future__ import annotations

from rknnprof.model import Layer, OpTypeStat, Target


def _tidy(x: float) -> float:
    return int(x) if float(x).is_integer() else x


def aggregate(layers: tuple[Layer, ...], total_us: float | None) -> tuple[OpTypeStat, ...]:
    acc: dict[str, list[float]] = {}
    for layer in layers:
        calls, cpu, gpu, npu = acc.setdefault(layer.op_type, [0, 0.0, 0.0, 0.0])
        t = layer.time_us or 0.0
        acc[layer.op_type] = [
            calls + 1,
            cpu + (t if layer.target is Target.CPU else 0.0),
            gpu + (t if layer.target is Target.GPU else 0.0),
            npu + (t if layer.target not in (Target.CPU, Target.GPU) else 0.0),
        ]
    stats = [
        OpTypeStat(
            op_type=op, calls=int(calls), cpu_time_us=_tidy(cpu), npu_time_us=_tidy(npu),
            total_time_us=_tidy(cpu + gpu + npu), gpu_time_us=_tidy(gpu),
            share=round((cpu + gpu + npu) / total_us, 6) if total_us else None,
        )
        for op, (calls, cpu, gpu, npu) in acc.items()
    ]
    stats.sort(key=lambda s: -s.total_time_us)
    return tuple(stats)
