"""The data model every stage shares: frozen dataclasses, units in each field's docstring.

Data flows one way: parsers build :class:`Layer` and :class:`Profile`, ``analysis`` returns new
copies with ``bound`` / ``time_share`` filled (``dataclasses.replace``), ``rules`` produce
:class:`Finding`, reporters only read. This module imports no other part of rknnprof (every
stage imports it); ``rknnprof.to_frame`` (:mod:`rknnprof.analysis.dataframe`) gives the
DataFrame view.

Modules by responsibility: ``enums`` (the vocabularies), ``layers`` (a table's rows),
``run`` (what the log says besides the table), ``advice`` (findings), ``validity`` (what the
log can support), ``figures`` (the waterfall and roofs analysis derives), ``profile`` (a profile
and a report), ``record`` (how every class is declared: ``@record`` on ``Record``, its methods
made without compiling code at start; ``_inits`` is its generated module). Import the names from
here.
"""

from rknnprof.model.advice import Finding, ThroughputGain
from rknnprof.model.enums import Bound, BoundBasis, Confidence, Severity, Target, tidy_number
from rknnprof.model.figures import (
    Roof,
    Waterfall,
    WaterfallNote,
    WaterfallNoteKind,
    WaterfallStep,
)
from rknnprof.model.layers import Layer, OpTypeStat, Shape, SkippedRow, SourceSpan
from rknnprof.model.profile import (
    WARNINGS_ONLY_FORMAT,
    Profile,
    Report,
    ReportWarning,
    inputs_text,
    is_multicore_fallback,
)
from rknnprof.model.run import (
    BenchmarkRun,
    Frequencies,
    KnownFailure,
    LlmGeneration,
    LlmRun,
    NpuClock,
    RunLine,
    Versions,
)
from rknnprof.model.validity import (
    ROW_SUM_TOLERANCE_US,
    ConditionKind,
    Coverage,
    RunCondition,
    Validity,
)

__all__ = [
    "ROW_SUM_TOLERANCE_US",
    "BenchmarkRun",
    "Bound",
    "BoundBasis",
    "ConditionKind",
    "Confidence",
    "Coverage",
    "Finding",
    "Frequencies",
    "NpuClock",
    "KnownFailure",
    "Layer",
    "LlmGeneration",
    "LlmRun",
    "OpTypeStat",
    "Profile",
    "inputs_text",
    "is_multicore_fallback",
    "WARNINGS_ONLY_FORMAT",
    "Report",
    "ReportWarning",
    "Roof",
    "RunCondition",
    "RunLine",
    "Severity",
    "Shape",
    "SkippedRow",
    "SourceSpan",
    "Target",
    "ThroughputGain",
    "Validity",
    "Versions",
    "Waterfall",
    "WaterfallNote",
    "WaterfallNoteKind",
    "WaterfallStep",
    "tidy_number",
]
