"""CI budgets: a YAML file of limits per metric, judged against a run and an optional baseline.

File shape (DESIGN.md; unknown keys are an error)::

    version: 1                      # optional, only 1
    baseline: reports/baseline.json # optional, relative to this file; --baseline overrides
    budgets:
      - metric: total_time_us
        max: 25000                  # absolute limit, in the metric's unit
        max_increase: 5%            # and/or relative to the baseline: "5%" or 0.05
        min_delta: 200              # noise floor: a change this small never breaks max_increase
        level: error                # error (default) fails the run; warn only reports
        name: e2e-latency           # optional label (JUnit test name)

Metrics (times in microseconds per frame):

* ``total_time_us`` / ``npu_time_us`` / ``cpu_time_us``: sum of layer times (all, on NPU, on
  CPU; CPU includes Input/OutputOperator). Without layers: the log's total line or ranking.
* ``layer_time_us`` with ``match:`` (glob on FullName): the summed time of the matching layers.
* ``op_type_time_us`` with ``op_type:``: the summed time of that op type's layers.
* ``findings``: count of findings, optionally only ``code:`` or ``severity:`` (that severity or
  worse).
* ``cpu_fallback_layers``: count of CPU layers other than Input/OutputOperator. With a baseline,
  any layer that moved to the CPU (or a new CPU layer) fails this budget and is named.
* ``frame_time_p50_us`` / ``frame_time_p90_us``: percentiles (linear interpolation) of the
  per-frame totals, for logs with more than one frame.

Verdicts: ``pass``, ``warn`` (a warn-level budget broken), ``fail`` (an error-level budget
broken: exit 1), ``inconclusive`` (the metric or the baseline is missing).
"""

from __future__ import annotations

import fnmatch
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from rknnprof.errors import ConfigError
from rknnprof.model import Profile, Report, Severity, Target

if TYPE_CHECKING:
    from rknnprof.compare import CompareResult

METRICS: dict[str, str] = {
    "total_time_us": "per-frame total time, us",
    "npu_time_us": "time of NPU layers, us",
    "cpu_time_us": "time of CPU layers, us",
    "layer_time_us": "time of the layers whose FullName matches `match`, us",
    "op_type_time_us": "time of the layers of `op_type`, us",
    "findings": "number of findings (filter: `code`, `severity`)",
    "cpu_fallback_layers": "number of CPU layers other than Input/OutputOperator",
    "frame_time_p50_us": "median per-frame total time, us",
    "frame_time_p90_us": "90th percentile of per-frame total time, us",
}
SELECTORS = {"match": {"layer_time_us"}, "op_type": {"op_type_time_us"},
             "code": {"findings"}, "severity": {"findings"}}
REQUIRED_SELECTOR = {"layer_time_us": "match", "op_type_time_us": "op_type"}
BUDGET_KEYS = ("metric", "max", "max_increase", "min_delta", "level", "name", *SELECTORS)
TOP_KEYS = ("version", "baseline", "budgets")
LEVELS = ("error", "warn")
STATUSES = ("pass", "warn", "fail", "inconclusive")


@dataclass(frozen=True, slots=True)
class Budget:
    """One entry of ``budgets:``."""

    metric: str
    level: str = "error"
    """``error`` (a breach fails the run) or ``warn``."""
    max: float | None = None
    """Absolute limit in the metric's unit (us or a count)."""
    max_increase: float | None = None
    """Allowed increase over the baseline, a fraction (0.05 = 5 %)."""
    min_delta: float = 0.0
    """Noise floor in the metric's unit: increases up to this never break ``max_increase``."""
    match: str | None = None
    op_type: str | None = None
    code: str | None = None
    severity: str | None = None
    name: str | None = None
    line: int | None = None
    """1-based line of the entry in the budgets file."""

    @property
    def label(self) -> str:
        """Stable human id, e.g. ``layer_time_us[Conv:/model.22/*] max_increase 10%``."""
        if self.name:
            return self.name
        sel = self.match or self.op_type or self.code or self.severity
        parts = [f"{self.metric}[{sel}]" if sel else self.metric]
        if self.max is not None:
            parts.append(f"max {_num(self.max)}")
        if self.max_increase is not None:
            parts.append(f"max_increase {_num(self.max_increase * 100)}%")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class BudgetConfig:
    path: str
    budgets: tuple[Budget, ...]
    baseline: str | None = None
    """Baseline path from the file, resolved against the file's folder."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One budget judged for one model."""

    budget: Budget
    model: str
    """Model label: its name, else the input path."""
    status: str
    """``pass``, ``warn``, ``fail`` or ``inconclusive``."""
    message: str
    value: float | None = None
    baseline_value: float | None = None
    layers: tuple[str, ...] = ()
    """Layers the message is about (introduced CPU fallbacks)."""
    source_path: str | None = None
    source_line: int | None = None
    """Where in the input to point an annotation (the first named layer's row)."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    path: str
    budgets_path: str
    baseline_path: str | None
    verdicts: tuple[Verdict, ...]
    warnings: tuple[str, ...] = ()
    comparison: CompareResult | None = field(default=None, compare=False)

    def count(self, status: str) -> int:
        return sum(1 for v in self.verdicts if v.status == status)

    @property
    def failed(self) -> bool:
        return any(v.status == "fail" for v in self.verdicts)

    @property
    def overall(self) -> str:
        for status in ("fail", "warn", "inconclusive"):
            if self.count(status):
                return status
        return "pass"


# ---- loading and validation ------------------------------------------------------------------


def load_budgets(path: str | Path) -> BudgetConfig:
    """Read and validate a budgets file; :class:`ConfigError` (``file:line: key: what``)."""
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read budgets file: {e}", path) from None
    return parse_budgets(text, path)


def parse_budgets(text: str, path: str = "<budgets>") -> BudgetConfig:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        what = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ConfigError(f"invalid YAML: {what}", path, mark.line + 1 if mark else None) from None
    if root is None:
        raise ConfigError("budgets file is empty", path)
    top = _mapping(root, path, "top level")
    baseline = None
    budgets_node = None
    for key, (knode, vnode) in top.items():
        if key not in TOP_KEYS:
            raise _err(path, knode, key, f"unknown key (expected one of {', '.join(TOP_KEYS)})")
        value = _value(vnode)
        if key == "version" and value != 1:
            raise _err(path, vnode, key, f"only version 1 is known, got {value!r}")
        if key == "baseline":
            if not isinstance(value, str) or not value:
                raise _err(path, vnode, key, "expected a file path")
            baseline = str(Path(path).parent / value) if path != "<budgets>" else value
        if key == "budgets":
            budgets_node = vnode
    if budgets_node is None:
        raise ConfigError("budgets: missing (a list of budget entries)", path,
                          root.start_mark.line + 1)
    if not isinstance(budgets_node, yaml.SequenceNode) or not budgets_node.value:
        raise _err(path, budgets_node, "budgets", "expected a non-empty list of budget entries")
    budgets = tuple(_budget(node, path, i) for i, node in enumerate(budgets_node.value, 1))
    return BudgetConfig(path, budgets, baseline)


def _budget(node: yaml.Node, path: str, index: int) -> Budget:
    where = f"budgets[{index}]"
    items = _mapping(node, path, where)
    line = node.start_mark.line + 1
    for key, (knode, _) in items.items():
        if key not in BUDGET_KEYS:
            raise _err(path, knode, f"{where}.{key}",
                       f"unknown key (expected one of {', '.join(BUDGET_KEYS)})")
    values = {key: (_value(v), v) for key, (_, v) in items.items()}
    if "metric" not in values:
        raise ConfigError(f"{where}.metric: missing (one of {', '.join(METRICS)})", path, line)
    metric, mnode = values["metric"]
    if metric not in METRICS:
        raise _err(path, mnode, f"{where}.metric",
                   f"unknown metric {metric!r} (expected one of {', '.join(METRICS)})")
    kwargs: dict[str, Any] = {"metric": metric, "line": line}
    for key, (value, vnode) in values.items():
        k = f"{where}.{key}"
        if key == "level":
            if value not in LEVELS:
                raise _err(path, vnode, k, f"expected error or warn, got {value!r}")
            kwargs[key] = value
        elif key in ("max", "min_delta"):
            kwargs[key] = _non_negative(value, path, vnode, k)
        elif key == "max_increase":
            kwargs[key] = _fraction(value, path, vnode, k)
        elif key in SELECTORS:
            if metric not in SELECTORS[key]:
                raise _err(path, vnode, k, f"not used by {metric} (only by "
                           f"{', '.join(sorted(SELECTORS[key]))})")
            if not isinstance(value, str) or not value:
                raise _err(path, vnode, k, "expected a non-empty string")
            if key == "severity" and value not in [s.value for s in Severity]:
                raise _err(path, vnode, k, f"expected info, warning or error, got {value!r}")
            kwargs[key] = value.upper() if key == "code" else value
        elif key == "name":
            if not isinstance(value, str) or not value:
                raise _err(path, vnode, k, "expected a non-empty string")
            kwargs[key] = value
    if "max" not in kwargs and "max_increase" not in kwargs:
        raise ConfigError(f"{where}: needs max or max_increase", path, line)
    if "min_delta" in kwargs and "max_increase" not in kwargs:
        raise _err(path, values["min_delta"][1], f"{where}.min_delta",
                   "only applies to max_increase")
    if (sel := REQUIRED_SELECTOR.get(metric)) and sel not in kwargs:
        raise ConfigError(f"{where}.{sel}: missing (required by {metric})", path, line)
    return Budget(**kwargs)


def _mapping(node: yaml.Node, path: str, where: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    if not isinstance(node, yaml.MappingNode):
        raise _err(path, node, where, "expected a mapping (key: value)")
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for knode, vnode in node.value:
        key = _value(knode)
        if not isinstance(key, str):
            raise _err(path, knode, where, f"keys must be names, got {key!r}")
        if key in out:
            raise _err(path, knode, f"{where}.{key}" if where != "top level" else key,
                       "duplicate key")
        out[key] = (knode, vnode)
    return out


def _value(node: yaml.Node) -> Any:
    return yaml.constructor.SafeConstructor().construct_object(node, deep=True)


def _err(path: str, node: yaml.Node, key: str, what: str) -> ConfigError:
    return ConfigError(f"{key}: {what}", path, node.start_mark.line + 1)


def _non_negative(value: Any, path: str, node: yaml.Node, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or value < 0:
        raise _err(path, node, key, f"expected a number >= 0, got {value!r}")
    return float(value)


_PERCENT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")


def _fraction(value: Any, path: str, node: yaml.Node, key: str) -> float:
    """``"5%"`` -> 0.05; ``0.05`` -> 0.05. A bare number above 1 is refused as ambiguous."""
    if isinstance(value, str):
        if m := _PERCENT.match(value):
            return float(m.group(1)) / 100.0
        raise _err(path, node, key, f"expected a percentage like '5%' or a fraction like 0.05, "
                   f"got {value!r}")
    frac = _non_negative(value, path, node, key)
    if frac > 1:
        raise _err(path, node, key, f"{_num(frac)} would mean {_num(frac * 100)}%; write "
                   f"'{_num(frac)}%' or {_num(frac / 100)}")
    return frac


# ---- metrics ---------------------------------------------------------------------------------


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


def percentile(values: Any, q: float) -> float:
    """Linear-interpolation percentile (NumPy's default), ``q`` in 0..100."""
    data = sorted(float(v) for v in values)
    pos = (len(data) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


# ---- verdicts --------------------------------------------------------------------------------


def check(config: BudgetConfig, report: Report, baseline: Report | None, path: str = "",
          baseline_path: str | None = None, baseline_note: str | None = None) -> CheckResult:
    """Judge every budget for every model of ``report``."""
    from rknnprof.compare import compare_reports, pair_profiles

    warnings: list[str] = [baseline_note] if baseline_note else []
    base_of: dict[int, Profile] = {}
    comparison = None
    if baseline is not None:
        pairs, notes = pair_profiles(baseline.profiles, report.profiles)
        warnings += notes
        base_of = {id(cur): base for base, cur in pairs}
        if pairs:
            comparison = compare_reports(baseline, report, baseline_path or "baseline", path)
            warnings += [w for w in comparison.warnings if w not in warnings]
    verdicts = []
    for k, profile in enumerate(report.profiles):
        label = profile.model_name or profile.source.path
        if len(report.profiles) > 1 and not profile.model_name:
            label = f"{label}#{k + 1}"
        base = base_of.get(id(profile))
        no_base = "no baseline" if baseline is None else "no matching model in the baseline"
        verdicts += [judge(b, profile, base, label, no_base) for b in config.budgets]
    return CheckResult(path, config.path, baseline_path, tuple(verdicts), tuple(warnings),
                       comparison)


def judge(budget: Budget, profile: Profile, base: Profile | None, label: str,
          no_base: str = "no baseline given") -> Verdict:
    """One budget for one model."""
    unit = " us" if budget.metric.endswith("_us") else ""
    value, why = metric_value(budget, profile)
    common = {"budget": budget, "model": label, "source_path": profile.source.path}
    if value is None:
        return Verdict(status="inconclusive", message=f"{budget.metric}: {why}", **common)
    shown = f"{budget.metric} = {_num(value)}{unit}"
    problems: list[str] = []
    notes: list[str] = []
    inconclusive = ""
    base_value = None
    if budget.max is not None:
        if value > budget.max:
            problems.append(f"over max {_num(budget.max)}{unit}")
        else:
            notes.append(f"max {_num(budget.max)}{unit}")
    if budget.max_increase is not None:
        if base is None:
            inconclusive = no_base
        else:
            base_value, base_why = metric_value(budget, base)
            if base_value is None:
                inconclusive = f"baseline: {base_why}"
            else:
                delta = value - base_value
                change = f"{_num(delta, True)}{unit}"
                if base_value:
                    change += f" ({delta / base_value * 100:+.1f}%)"
                change += f" vs baseline {_num(base_value)}{unit}"
                allowed = f"allowed +{_num(budget.max_increase * 100)}%"
                if delta > base_value * budget.max_increase:
                    if delta <= budget.min_delta:
                        notes.append(f"{change}: within noise floor min_delta "
                                     f"{_num(budget.min_delta)}{unit}")
                    else:
                        problems.append(f"{change}, {allowed}")
                else:
                    notes.append(f"{change}, {allowed}")
    layers: tuple[str, ...] = ()
    line = None
    if budget.metric == "cpu_fallback_layers" and base is not None:
        introduced = introduced_fallbacks(base, profile)
        if introduced:
            layers = tuple(name for name, _ in introduced)
            line = introduced[0][1]
            problems.append(f"CPU fallback introduced: {', '.join(layers)}")
    if problems:
        status = "fail" if budget.level == "error" else "warn"
        return Verdict(status=status, message=f"{shown}: {'; '.join(problems)}", value=value,
                       baseline_value=base_value, layers=layers, source_line=line, **common)
    if inconclusive:
        parts = [*notes, f"max_increase not judged: {inconclusive}"]
        return Verdict(status="inconclusive", message=f"{shown}: {'; '.join(parts)}",
                       value=value, baseline_value=base_value, **common)
    return Verdict(status="pass", message=f"{shown}: {'; '.join(notes)}" if notes else shown,
                   value=value, baseline_value=base_value, **common)


def introduced_fallbacks(base: Profile, current: Profile) -> list[tuple[str, int | None]]:
    """(layer name, input line) of CURRENT's CPU layers (not I/O) that ran elsewhere in BASE
    or are new."""
    from rknnprof.compare import align

    found = []
    for i, j, _ in align(base.layers, current.layers):
        if j is None:
            continue
        cur = current.layers[j]
        if not is_cpu_fallback(cur):
            continue
        if i is None or base.layers[i].target is not Target.CPU:
            found.append((j, cur.full_name or f"{cur.op_type}#{cur.id}", cur.line))
    return [(name, line) for _, name, line in sorted(found)]


def _num(value: float, signed: bool = False) -> str:
    """``14,478`` / ``+1,448`` / ``0.5``: integers without decimals, others with up to 2."""
    if abs(value - round(value)) < 1e-9:
        return f"{value:+,.0f}" if signed else f"{value:,.0f}"
    text = f"{value:+,.2f}" if signed else f"{value:,.2f}"
    return text.rstrip("0").rstrip(".")
