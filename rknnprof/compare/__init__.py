"""Two runs side by side: layer alignment, per-layer and per-op-type deltas, like-for-like check.

Layers are aligned in three passes, each over the layers the previous passes left unmatched:

1. by ``FullName`` (repeated names pair up in table order);
2. by signature: (op type, input shapes, output shapes), in table order;
3. by order: the longest common subsequence of op types (``difflib``) over what is left.

What is still unmatched is *removed* (only in BASE) or *added* (only in CURRENT). Deltas are
CURRENT − BASE in microseconds; percentages are relative to BASE. Every list is sorted by the
absolute time change, largest first.

Before comparing, the two profiles are checked for being like for like (platform, runtime and
driver versions, NPU frequency, cores used, frames merged, measured vs estimated); each difference
is reported as a warning, the comparison still runs.

BASE's findings are then held against CURRENT: each promised saving against what CURRENT
measured on the same layers, with a verdict (:mod:`~rknnprof.compare.advice`).

Modules: :mod:`~rknnprof.compare.align` (the three passes), :mod:`~rknnprof.compare.deltas`
(layer and op-type deltas), :mod:`~rknnprof.compare.conditions` (like for like),
:mod:`~rknnprof.compare.pairing` (which model of BASE with which of CURRENT) and
:mod:`~rknnprof.compare.reports` (comparing the pairs, the result types). The
comparison judges analysed reports handed to it; reading either side (a log or a saved JSON
report) is :func:`rknnprof.api.load_report`.
"""

from __future__ import annotations

from rknnprof.compare.advice import VERDICTS, AdviceOutcome, check_advice, unmet_expectations
from rknnprof.compare.align import align
from rknnprof.compare.conditions import comparability, cores_used
from rknnprof.compare.deltas import (
    LayerDelta,
    OpTypeDelta,
    layer_deltas,
    op_type_deltas,
    op_type_times,
)
from rknnprof.compare.pairing import SAME_MODEL_SHARE, pair_profiles
from rknnprof.compare.reports import (
    CompareResult,
    ProfileComparison,
    compare_profiles,
    compare_reports,
    profile_total,
)

__all__ = [
    "VERDICTS",
    "AdviceOutcome",
    "check_advice",
    "unmet_expectations",
    "SAME_MODEL_SHARE",
    "CompareResult",
    "LayerDelta",
    "OpTypeDelta",
    "ProfileComparison",
    "align",
    "comparability",
    "compare_profiles",
    "compare_reports",
    "cores_used",
    "layer_deltas",
    "op_type_deltas",
    "op_type_times",
    "pair_profiles",
    "profile_total",
]
