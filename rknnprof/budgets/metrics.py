"""Budget metrics: the number a budget judges, read off one profile.

Times are microseconds per frame; counts are plain numbers. See :data:`METRICS` for the list and
:mod:`rknnprof.budgets` for what each metric means.
"""

from __future__ import annotations

import fnmatch
from typing import Any

from rknnprof.analysis.stats import percentile
from rknnprof.budgets.config import Budget
from rknnprof.model import Profile, Severity, Target


def is_cpu_fallback(layer: Any) -> bool:
    return layer.target is Target.CPU and not layer.is_io


def metric_value(budget: Budget, profile: Profile) -> tuple[float | None, str]:
    """The metric for ``profile`` and, when it is ``None``, why."""
    m = budget.metric
    layers = profile.layers
    stats = profile.op_stats or profile.ranking
    if m == "total_time_us":
        from rknnprof.compare import profile_total

        total = profile_total(profile)
        return total, "" if total is not None else "the input has no time"
    if m in ("npu_time_us", "cpu_time_us"):
        target = Target.NPU if m == "npu_time_us" else Target.CPU
        if layers:
            return profile.time_on(target), ""
        if stats:
            return float(sum(s.npu_time_us if target is Target.NPU else s.cpu_time_us
                             for s in stats)), ""
        return None, "the input has no per-layer or per-op-type times"
    if m == "layer_time_us":
        pattern = budget.match or ""
        hits = [la for la in layers if la.full_name and fnmatch.fnmatchcase(la.full_name, pattern)]
        if not hits:
            return None, f"no layer's FullName matches {budget.match!r}"
        return float(sum(la.time_us or 0.0 for la in hits)), ""
    if m == "op_type_time_us":
        if layers:
            hits = [la for la in layers if la.op_type == budget.op_type]
            if hits:
                return float(sum(la.time_us or 0.0 for la in hits)), ""
        elif s := next((s for s in stats if s.op_type == budget.op_type), None):
            return s.total_time_us, ""
        return None, f"no {budget.op_type} layers"
    if m == "findings":
        found = profile.findings
        if budget.code:
            found = tuple(f for f in found if f.code.upper() == budget.code)
        if budget.severity:
            rank = Severity(budget.severity).rank
            found = tuple(f for f in found if f.severity.rank >= rank)
        return float(len(found)), ""
    if m == "cpu_fallback_layers":
        if layers:
            return float(sum(1 for la in layers if is_cpu_fallback(la))), ""
        if stats:  # ranking only: op types with CPU time count their calls (1 if split)
            io = ("InputOperator", "OutputOperator")
            return float(sum((s.calls if not s.npu_time_us else 1) for s in stats
                             if s.cpu_time_us > 0 and s.op_type not in io)), ""
        return None, "the input has no per-layer targets"
    if m in ("frame_time_p50_us", "frame_time_p90_us"):
        times = profile.frame_times_us
        if len(times) < 2:
            return None, f"needs more than one frame (the input has {profile.frames})"
        return percentile(times, 50 if m.endswith("p50_us") else 90), ""
    raise AssertionError(m)  # pragma: no cover - METRICS is validated on load
