"""The rule contract. A rule is data: a code, a name, a severity, a doc and a check.

The check is a pure function ``(profile, context) -> iterable of Finding``; its docstring is the
rule's doc, written as the sections *What it finds / Why it costs time / Example / How to fix /
Estimate*; the rule's ``source`` adds *Source* (shown by ``rknnprof rules CODE``, the HTML
report and the README table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Finding, Profile, Severity
from rknnprof.model.record import Record, record

if TYPE_CHECKING:
    from rknnprof.platforms import Platform

CODE_PATTERN = LazyPattern(r"^RKN\d{3}$")


@record(slots=False)
class RuleContext(Record):
    """What a check may look at besides the profile."""

    platform: Platform | None = None
    """The platform facts for the profile's SoC, or None when unknown."""
    options: dict[str, Any] = field(default_factory=dict)
    """Thresholds overridable from the command line (documented per rule)."""
    busy_cores: frozenset[int] = frozenset()
    """NPU cores (0-based) that other processes of the same model kept busy in the same input:
    a capture of one context per core (``rknn_set_core_mask`` per process)."""


Check = Callable[[Profile, RuleContext], Iterable[Finding]]


@record(slots=False)
class Rule(Record):
    """A registered rule: its code, name, severity, check, and what its saving rests on."""

    code: str
    """``RKNnnn``; unique; checked against ``CODE_PATTERN`` by a test."""
    name: str
    """kebab-case, e.g. ``cpu-fallback``."""
    severity: Severity
    summary: str
    """One line for listings."""
    check: Check
    source: str = ""
    """Where the advice comes from: public documents by title and URL, ``; ``-separated
    (built with :mod:`rknnprof.rules.sources`); the doc's *Source* section."""
    basis: str = ""
    """One line: the evidence the rule's ``est_saving_us`` rests on (``analysis.savings``);
    the doc's *Saving basis* section."""
    confidence: str = ""
    """The confidence its findings carry and when (``high`` measured in this log, ``medium``
    the guide or a measured peer, ``low`` an assumption); the doc's *Confidence* section."""
    fix_changes: str = ""
    """The run condition the fix itself changes, as ``compare`` names it (``input shape``), or
    empty: ``compare`` judges such a finding on the whole frame when that condition differs,
    instead of calling the runs not like for like."""
    fix_changes_data_type: bool = False
    """Whether the fix is a data type (FP16 quantized to INT8): ``compare`` judges its layers'
    new data type as the fix; for every other finding, runs at other data types are not like
    for like (an INT8 build compared with an FP16 one read an activation swap never made as
    'partly delivered, -226 %')."""
    fix_shows_in_rows: bool = True
    """Whether the fix shows in its layers' rows (an op type, data type, target or core count
    changed, a layer gone): ``compare`` then holds a finding whose layers all kept theirs as
    not made, however their time moved. False when only the time can show it (sparse
    weights, a clock)."""

    @property
    def doc(self) -> str:
        """The check's docstring, then the *Source* section, one citation a line."""
        import inspect

        from rknnprof.rules.track_record import TRACK_RECORD

        doc = inspect.cleandoc(self.check.__doc__ or "")
        sections = (
            ("Saving basis:", self.basis),
            ("Confidence:", self.confidence),
            ("Track record:", TRACK_RECORD.get(self.code, "")),
        )
        for head, text in sections:
            if text:
                body = text.replace("\n", "\n    ")
                doc += f"\n\n{head}\n    {body}"
        if not self.source:
            return doc
        cited = ";\n    ".join(self.source.split("; "))
        return f"{doc}\n\nSource:\n    {cited}"
