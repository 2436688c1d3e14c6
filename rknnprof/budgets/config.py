"""Budgets file: loading and validation, every error pointing at its line.

The file's shape and the metrics are described in :mod:`rknnprof.budgets`. A bad file raises
:class:`~rknnprof.errors.ConfigError` as ``file:line: key: what``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import yaml

from rknnprof.budgets import safe_yaml
from rknnprof.budgets.safe_yaml import show
from rknnprof.errors import ConfigError
from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Severity
from rknnprof.model.record import Record, record

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
    "decode_tokens_per_s": "RKLLM decode rate, tokens per second (steps = Generate tokens - 1)",
    "prefill_tokens_per_s": "RKLLM prefill rate, tokens per second",
    "llm_init_ms": "RKLLM model init time, ms",
    "peak_memory_mb": "RKLLM peak memory, MB",
}
SELECTORS = {
    "match": {"layer_time_us"},
    "op_type": {"op_type_time_us"},
    "code": {"findings"},
    "severity": {"findings"},
}
REQUIRED_SELECTOR = {"layer_time_us": "match", "op_type_time_us": "op_type"}
HIGHER_IS_BETTER = frozenset({"decode_tokens_per_s", "prefill_tokens_per_s"})
"""Rates: a slower run lowers them, so ``max_increase`` (a budget on growth) is refused."""
BUDGET_KEYS = ("metric", "max", "min", "max_increase", "min_delta", "level", "name", *SELECTORS)
TOP_KEYS = ("version", "baseline", "budgets")
LEVELS = ("error", "warn")
LEVEL_ALIASES = {"warning": "warn"}
"""``level: warning`` is taken for ``warn`` (the spelling ``--fail-on`` and findings use)."""


@record
class Budget(Record):
    """One entry of ``budgets:``."""

    metric: str
    level: str = "error"
    """``error`` (a breach fails the run) or ``warn``."""
    max: float | None = None
    """Absolute limit in the metric's unit (us or a count)."""
    min: float | None = None
    """Absolute lower limit in the metric's unit (tokens per second): below it fails."""
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
        """Stable human id, e.g. ``layer_time_us[Conv:/model.22/*] max_increase 10%`` (the
        JUnit test case's name and the JSON's ``label``: never changes for a budget)."""
        return self._label("")

    @property
    def display(self) -> str:
        """The label as the check's tables show it: a time's bounds with their unit
        (``total_time_us max 30,000 us``, beside results in ms)."""
        return self._label(" us" if self.metric.endswith("_us") else "")

    def _label(self, unit: str) -> str:
        if self.name:
            return self.name
        sel = self.match or self.op_type or self.code or self.severity
        parts = [f"{self.metric}[{sel}]" if sel else self.metric]
        if self.max is not None:
            parts.append(f"max {fmt_number(self.max)}{unit}")
        if self.min is not None:
            parts.append(f"min {fmt_number(self.min)}{unit}")
        if self.max_increase is not None:
            parts.append(f"max_increase {fmt_number(self.max_increase * 100)}%")
        return " ".join(parts)


@record
class BudgetConfig(Record):
    """A budgets file as read: its path, its budgets, and the baseline run it names."""

    path: str
    budgets: tuple[Budget, ...]
    baseline: str | None = None
    """Baseline path from the file, resolved against the file's folder."""


def load_budgets(path: str | Path) -> BudgetConfig:
    """Read and validate a budgets file; :class:`ConfigError` (``file:line: key: what``)."""
    path = str(path)
    return parse_budgets(safe_yaml.read_text(path), path)


def parse_budgets(text: str, path: str = "<budgets>") -> BudgetConfig:
    """Validate a budgets file's text (read as :mod:`~rknnprof.budgets.safe_yaml` describes)."""
    root = safe_yaml.compose(text, path)
    if root is None:
        raise ConfigError("budgets file is empty", path)
    top = _mapping(root, path, "top level")
    baseline = None
    budgets_node = None
    for key, (knode, vnode) in top.items():
        if key not in TOP_KEYS:
            raise _err(path, knode, key, f"unknown key (expected one of {', '.join(TOP_KEYS)})")
        value = _value(vnode, path)
        if key == "version" and (type(value) is not int or value != 1):  # True == 1 in Python
            raise _err(path, vnode, key, f"only version 1 is known, got {show(value)}")
        if key == "baseline":
            if not isinstance(value, str) or not value:
                raise _err(path, vnode, key, "expected a file path")
            baseline = str(Path(path).parent / value) if path != "<budgets>" else value
        if key == "budgets":
            budgets_node = vnode
    if budgets_node is None:
        raise ConfigError(
            "budgets: missing (a list of budget entries)", path, root.start_mark.line + 1
        )
    if not isinstance(budgets_node, yaml.SequenceNode) or not budgets_node.value:
        raise _err(path, budgets_node, "budgets", "expected a non-empty list of budget entries")
    budgets = tuple(_budget(node, path, i) for i, node in enumerate(budgets_node.value))
    return BudgetConfig(path, budgets, baseline)


def _budget(node: yaml.Node, path: str, index: int) -> Budget:
    where = f"budgets[{index}]"
    items = _mapping(node, path, where)
    line = node.start_mark.line + 1
    for key, (knode, _) in items.items():
        if key not in BUDGET_KEYS:
            raise _err(
                path,
                knode,
                f"{where}.{key}",
                f"unknown key (expected one of {', '.join(BUDGET_KEYS)})",
            )
    values = {key: (_value(v, path), v) for key, (_, v) in items.items()}
    if "metric" not in values:
        raise ConfigError(f"{where}.metric: missing (one of {', '.join(METRICS)})", path, line)
    metric, mnode = values["metric"]
    if not isinstance(metric, str) or metric not in METRICS:
        raise _err(
            path,
            mnode,
            f"{where}.metric",
            f"unknown metric {show(metric)} (expected one of {', '.join(METRICS)})",
        )
    kwargs: dict[str, Any] = {"metric": metric, "line": line}
    for key, (value, vnode) in values.items():
        k = f"{where}.{key}"
        if key == "level":
            value = LEVEL_ALIASES.get(value, value) if isinstance(value, str) else value
            if not isinstance(value, str) or value not in LEVELS:
                raise _err(
                    path, vnode, k, f"expected error or warn (or warning), got {show(value)}"
                )
            kwargs[key] = value
        elif key in ("max", "min", "min_delta"):
            kwargs[key] = _non_negative(value, path, vnode, k)
        elif key == "max_increase":
            kwargs[key] = _fraction(value, path, vnode, k)
        elif key in SELECTORS:
            if metric not in SELECTORS[key]:
                raise _err(
                    path,
                    vnode,
                    k,
                    f"not used by {metric} (only by {', '.join(sorted(SELECTORS[key]))})",
                )
            if not isinstance(value, str) or not value:
                raise _err(path, vnode, k, "expected a non-empty string")
            if key == "severity":
                value = {"warn": "warning"}.get(value, value)
            if key == "severity" and value not in [s.value for s in Severity]:
                raise _err(path, vnode, k, f"expected info, warning or error, got {show(value)}")
            kwargs[key] = _rule_code(value, path, vnode, k) if key == "code" else value
        elif key == "name":
            if not isinstance(value, str) or not value:
                raise _err(path, vnode, k, "expected a non-empty string")
            kwargs[key] = value
    if "max_increase" in kwargs and metric in HIGHER_IS_BETTER:
        raise _err(
            path,
            values["max_increase"][1],
            f"{where}.max_increase",
            f"{metric} is a rate (a slower run lowers it): a limit on its increase would fail "
            "a faster run; give min (tokens per second) instead",
        )
    if "max" not in kwargs and "min" not in kwargs and "max_increase" not in kwargs:
        raise ConfigError(f"{where}: needs max, min or max_increase", path, line)
    if "min_delta" in kwargs and "max_increase" not in kwargs:
        raise _err(
            path, values["min_delta"][1], f"{where}.min_delta", "only applies to max_increase"
        )
    if (sel := REQUIRED_SELECTOR.get(metric)) and sel not in kwargs:
        raise ConfigError(f"{where}.{sel}: missing (required by {metric})", path, line)
    return Budget(**kwargs)


def _mapping(node: yaml.Node, path: str, where: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    if not isinstance(node, yaml.MappingNode):
        raise _err(path, node, where, "expected a mapping (key: value)")
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for knode, vnode in node.value:
        key = _value(knode, path)
        if not isinstance(key, str):
            raise _err(path, knode, where, f"keys must be names, got {show(key)}")
        if key in out:
            raise _err(
                path, knode, f"{where}.{key}" if where != "top level" else key, "duplicate key"
            )
        out[key] = (knode, vnode)
    return out


def _value(node: yaml.Node, path: str) -> Any:
    return safe_yaml.value(node, path)


def _err(path: str, node: yaml.Node, key: str, what: str) -> ConfigError:
    return ConfigError(f"{key}: {what}", path, node.start_mark.line + 1)


MAX_BUDGET = 1e15
"""Largest budget figure: a thousand times any a run prints (a day in microseconds is 8.6e10),
and within a float's exact integers (a max of 1e29 printed as 99,999,999,999,999,991,433,…)."""


def _non_negative(value: Any, path: str, node: yaml.Node, key: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value < 0
    ):
        raise _err(path, node, key, f"expected a number >= 0, got {show(value)}")
    if value > MAX_BUDGET:
        raise _err(path, node, key, f"{show(value)} is beyond any run's figure (at most 1e15)")
    return float(value)


_PERCENT = LazyPattern(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")


def _rule_code(value: str, path: str, node: yaml.Node, key: str) -> str:
    """A rule code or a prefix of some (``RKN07``, as ``--select`` takes), upper-cased, or a
    rule's name (``activation-swap``) as its code; anything else is refused (a typo matched no
    finding and passed)."""
    from rknnprof.rules import RULES

    named = next((rule.code for rule in RULES if rule.name == value.lower()), None)
    if named is not None:
        return named
    code = value.upper()
    if not any(rule.code.startswith(code) for rule in RULES):
        raise _err(
            path, node, key, f"no rule code starts with {show(value)} (see `rknnprof rules`)"
        )
    return code


def _fraction(value: Any, path: str, node: yaml.Node, key: str) -> float:
    """``"5%"`` -> 0.05; ``0.05`` -> 0.05. A bare number of 1 or more is refused as ambiguous
    (``1`` read as 100 % where 1 % was meant)."""
    if isinstance(value, str):
        if m := _PERCENT.match(value):
            digits = len(m.group(1).replace(".", ""))
            if digits > safe_yaml.MAX_DIGITS:
                raise _err(path, node, key, f"number too large ({digits:,} digits)")
            return float(m.group(1)) / 100.0
        raise _err(
            path,
            node,
            key,
            f"expected a percentage like '5%' or a fraction like 0.05, got {show(value)}",
        )
    frac = _non_negative(value, path, node, key)
    if frac >= 1:
        raise _err(
            path,
            node,
            key,
            f"{fmt_number(frac)} would mean {fmt_number(frac * 100)}%; "
            f"write '{fmt_number(frac)}%' or {fmt_number(frac / 100)}",
        )
    return frac


def fmt_number(value: float, signed: bool = False) -> str:
    """``14,478`` / ``+1,448`` / ``0.5``: integers without decimals, others with up to 2 (budget
    labels and verdict messages)."""
    if abs(value - round(value)) < 1e-9:
        return f"{value:+,.0f}" if signed else f"{value:,.0f}"
    text = f"{value:+,.2f}" if signed else f"{value:,.2f}"
    return text.rstrip("0").rstrip(".")
