"""Budget metrics: the number a budget judges, read off one profile.

Times are microseconds per frame; counts are plain numbers. :data:`METRIC_VALUES` holds one
function per metric, keyed like :data:`~rknnprof.budgets.config.METRICS` (which says what each
metric means); a function returns the value, or ``None`` and why the input cannot give it.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Callable
from functools import partial

from rknnprof.analysis.figures import frame_percentiles_us
from rknnprof.budgets.config import Budget
from rknnprof.compare import profile_total
from rknnprof.model import Layer, OpTypeStat, Profile, Severity, Target

Measure = Callable[[Budget, Profile], tuple[float | None, str]]
"""(budget, profile) -> (value, why it is ``None``; ``""`` when there is a value)."""


def is_cpu_fallback(layer: Layer) -> bool:
    return layer.target is Target.CPU and not layer.is_io


def _total_time(budget: Budget, profile: Profile) -> tuple[float | None, str]:
    # (a table with rows elided: the log's own total line, not the rows shown)
    total = profile_total(profile)
    return total, "" if total is not None else "the input has no time"


def _timed_rows(profile: Profile) -> bool:
    return any(la.time_us is not None for la in profile.layers)


def _by_layers(profile: Profile) -> bool:
    """Times are read off the layers: the table has rows with times, and either elides none or
    the log printed no ranking (rows elided: the ranking's times cover the whole frame)."""
    return _timed_rows(profile) and not (profile.elided_rows and profile.ranking)


def _op_type_stats(profile: Profile) -> tuple[OpTypeStat, ...]:
    """The op types' times when :func:`_by_layers` does not hold: the ranking's for an elided
    table or rows without times, else the layers' aggregate or the ranking."""
    if profile.elided_rows or not _timed_rows(profile):
        return profile.ranking
    return profile.op_stats or profile.ranking


def _time_on(target: Target, budget: Budget, profile: Profile) -> tuple[float | None, str]:
    if profile.untimed:
        return None, UNTIMED
    if _by_layers(profile):
        return profile.time_on(target), ""
    if stats := _op_type_stats(profile):
        return float(
            sum(s.npu_time_us if target is Target.NPU else s.cpu_time_us for s in stats)
        ), ""
    return None, "the input has no per-layer or per-op-type times"


UNTIMED = "the table's rows carry no Time(us) column (no per-layer times to sum)"


def _layer_time(budget: Budget, profile: Profile) -> tuple[float | None, str]:
    pattern = budget.match or ""
    hits = [
        la for la in profile.layers if la.full_name and fnmatch.fnmatchcase(la.full_name, pattern)
    ]
    if not hits:
        return None, f"no layer's FullName matches {budget.match!r}"
    if all(la.time_us is None for la in hits):
        return None, UNTIMED
    return float(sum(la.time_us or 0.0 for la in hits)), ""


def _op_type_time(budget: Budget, profile: Profile) -> tuple[float | None, str]:
    """The op type's time; 0 when a complete table (or the ranking) has no such op -- the model
    does not run it, so it takes no time; unknown when rows were elided or there are no times
    at all, and when the model runs the op type in another case (``convexswish`` for
    ``ConvExSwish`` passed at 0 us)."""
    runs = {la.op_type for la in profile.layers} | {s.op_type for s in profile.ranking}
    if budget.op_type not in runs:
        wanted = (budget.op_type or "").lower()
        spelt = sorted(op for op in runs if op.lower() == wanted)
        close = difflib.get_close_matches(budget.op_type or "", sorted(runs), n=1, cutoff=0.8)
        if spelt or close:
            return None, (
                f"the model runs no op type spelt {budget.op_type!r}, but "
                f"{', '.join(spelt or close)} (op types are matched as the log prints them)"
            )
    if profile.untimed:
        return None, UNTIMED
    if _by_layers(profile):
        hits = [la for la in profile.layers if la.op_type == budget.op_type]
        if hits or not profile.elided_rows:
            # (none: the model runs no such op, 0 us, and the verdict says why)
            said = "" if hits else f"the model runs no {budget.op_type} layer"
            return float(sum(la.time_us or 0.0 for la in hits)), said
        return None, f"no {budget.op_type} layer among the rows shown (the log elided rows)"
    stats = _op_type_stats(profile)
    if not stats:
        return None, "the input has no per-layer or per-op-type times"
    s = next((s for s in stats if s.op_type == budget.op_type), None)
    if s is None:
        return 0.0, f"the model runs no {budget.op_type} op type"
    return s.total_time_us, ""


def _findings(budget: Budget, profile: Profile) -> tuple[float | None, str]:
    found = profile.findings
    if budget.code:
        found = tuple(f for f in found if f.code.upper().startswith(budget.code))
    if budget.severity:
        rank = Severity(budget.severity).rank
        found = tuple(f for f in found if f.severity.rank >= rank)
    return float(len(found)), ""


def _cpu_fallback_layers(budget: Budget, profile: Profile) -> tuple[float | None, str]:
    if profile.layers:
        return float(sum(1 for la in profile.layers if is_cpu_fallback(la))), ""
    if stats := profile.op_stats or profile.ranking:
        # ranking only: op types with CPU time count their calls (1 if split)
        io = ("InputOperator", "OutputOperator")
        return float(
            sum(
                (s.calls if not s.npu_time_us else 1)
                for s in stats
                if s.cpu_time_us > 0 and s.op_type not in io
            )
        ), ""
    return None, "the input has no per-layer targets"


def _frame_time(which: int, budget: Budget, profile: Profile) -> tuple[float | None, str]:
    """``which`` 0: the median, 1: the 90th percentile, as analysis stored them (computed for a
    baseline saved before they were)."""
    if len(profile.frame_times_us) < 2:
        return None, f"needs more than one frame (the input has {profile.frames})"
    return frame_percentiles_us(profile)[which], ""


def _llm(field: str, budget: Budget, profile: Profile) -> tuple[float | None, str]:
    from rknnprof.assemble.llm import MIN_DECODE_STEPS, few_decode_steps, prompts_vary

    if profile.llm is None:
        return None, "not an RKLLM profile (no `I rkllm:` stage table)"
    if field == "decode_tokens_per_s" and (steps := few_decode_steps(profile.llm)) is not None:
        return None, (
            f"the decode ran {steps} step{'s' if steps != 1 else ''}: too few to judge a decode "
            f"rate ({MIN_DECODE_STEPS} or more in one generation)"
        )
    value = getattr(profile.llm, field)
    if (
        value is None
        and field.startswith("prefill")
        and (v := prompts_vary(profile.llm.per_generation))
    ):
        return None, (
            f"the generations' prompts differ ({v[0]}-{v[1]} tokens): a prefill's rate follows "
            "its prompt's length, no median of them"
        )
    return value, "" if value is not None else f"the stage table gives no {field}"


METRIC_VALUES: dict[str, Measure] = {
    "total_time_us": _total_time,
    "npu_time_us": partial(_time_on, Target.NPU),
    "cpu_time_us": partial(_time_on, Target.CPU),
    "layer_time_us": _layer_time,
    "op_type_time_us": _op_type_time,
    "findings": _findings,
    "cpu_fallback_layers": _cpu_fallback_layers,
    "frame_time_p50_us": partial(_frame_time, 0),
    "frame_time_p90_us": partial(_frame_time, 1),
    "decode_tokens_per_s": partial(_llm, "decode_tokens_per_s"),
    "prefill_tokens_per_s": partial(_llm, "prefill_tokens_per_s"),
    "llm_init_ms": partial(_llm, "init_ms"),
    "peak_memory_mb": partial(_llm, "peak_memory_mb"),
}
"""metric name -> its :data:`Measure`; the same keys as ``METRICS`` (a test holds them equal)."""


def metric_value(budget: Budget, profile: Profile) -> tuple[float | None, str]:
    """The metric for ``profile`` and, when it is ``None``, why (``METRICS`` is validated on
    load, so the name is always known)."""
    return METRIC_VALUES[budget.metric](budget, profile)
