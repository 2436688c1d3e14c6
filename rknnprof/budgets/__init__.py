"""CI budgets: a YAML file of limits per metric, judged against a run and an optional baseline.

File shape (``docs/ci.md``; unknown keys are an error)::

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
broken: exit 1), ``inconclusive`` (the metric or the baseline is missing, or the profile cannot
support a verdict: a cut, elided or fragmentary table, a run that is not a measurement).
"""

from __future__ import annotations

from rknnprof.analysis.stats import percentile
from rknnprof.budgets.config import (
    BUDGET_KEYS,
    LEVELS,
    METRICS,
    REQUIRED_SELECTOR,
    SELECTORS,
    TOP_KEYS,
    Budget,
    BudgetConfig,
    load_budgets,
    parse_budgets,
)
from rknnprof.budgets.metrics import is_cpu_fallback, metric_value
from rknnprof.budgets.verdicts import (
    CheckResult,
    Verdict,
    check,
    failing_statuses,
    introduced_fallbacks,
    judge,
    unjudgeable,
)

__all__ = [
    "BUDGET_KEYS",
    "LEVELS",
    "METRICS",
    "REQUIRED_SELECTOR",
    "SELECTORS",
    "TOP_KEYS",
    "Budget",
    "BudgetConfig",
    "CheckResult",
    "Verdict",
    "check",
    "failing_statuses",
    "introduced_fallbacks",
    "is_cpu_fallback",
    "judge",
    "load_budgets",
    "metric_value",
    "parse_budgets",
    "percentile",
    "unjudgeable",
]
