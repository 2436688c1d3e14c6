"""rknnprof: profiler and log analyzer for Rockchip RKNN NPUs.

``load(path)`` gives analysed :class:`Profile` objects; ``analyze(paths)`` a :class:`Report`
with warnings. The model types are re-exported here.
"""

from __future__ import annotations

__version__ = "0.1.0"

from rknnprof.api import analyze, load  # noqa: E402
from rknnprof.model import (  # noqa: E402
    Bound,
    BoundBasis,
    Finding,
    Layer,
    OpTypeStat,
    Profile,
    Report,
    ReportWarning,
    Severity,
    SkippedRow,
    Target,
    Versions,
)

__all__ = [
    "Bound",
    "BoundBasis",
    "Finding",
    "Layer",
    "OpTypeStat",
    "Profile",
    "Report",
    "ReportWarning",
    "Severity",
    "SkippedRow",
    "Target",
    "Versions",
    "__version__",
    "analyze",
    "load",
]
