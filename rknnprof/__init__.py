"""rknnprof: profiler and log analyzer for Rockchip RKNN NPUs.

``load(path)`` gives analysed :class:`Profile` objects; ``analyze(paths)`` a :class:`Report`
with warnings; ``to_frame(profile)`` a pandas DataFrame of its layers. The model types are
re-exported here.

The names are imported on first use (PEP 562 ``__getattr__``), so that ``import rknnprof`` --
and ``rknnprof --help`` -- does not pay for the parsers and the analysis it does not run.
"""

TYPE_CHECKING = False
"""``typing.TYPE_CHECKING`` without importing ``typing`` (mypy reads the name): the console
script imports this package before anything of its own can catch a Ctrl-C, so it imports as
little as it can."""

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "analyze": "rknnprof.api",
    "load": "rknnprof.api",
    "to_frame": "rknnprof.analysis.dataframe",
    **dict.fromkeys(
        (
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
        ),
        "rknnprof.model",
    ),
}

if TYPE_CHECKING:
    from typing import Any

    from rknnprof.analysis.dataframe import to_frame
    from rknnprof.api import analyze, load
    from rknnprof.model import (
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


def __getattr__(name: str) -> "Any":
    """Import an exported name from its module on first access (PEP 562)."""
    import importlib

    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(name)  # a programming error, not a user-facing message
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> "list[str]":
    """The module's names plus the lazily imported exports, so completion lists them."""
    return sorted({*globals(), *_EXPORTS})


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
    "to_frame",
]
