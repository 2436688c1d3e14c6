"""RKN080 known-failure: an error or warning line of the failures catalogue in a log that also
holds a profile (``parsers/failure_catalogue.py``)."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.model import Finding, Profile, Severity
from rknnprof.parsers.failure_catalogue import by_id
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import TOOLKIT2, issue, sources

SOURCE = sources(
    issue(TOOLKIT2, 482, "unsupport cpu op on RV1106"),
    issue(TOOLKIT2, 7, "core mask"),
    issue(TOOLKIT2, 437, "eval_perf on RV1106"),
    issue("rockchip-linux/rknn-toolkit2", 44, "failed to malloc npu memory"),
)
"""The rule's own sources; each finding cites its catalogue entry's page."""


def check_known_failures(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Lines of the failures catalogue in the log of a profile: an op the runtime cannot run
        on the CPU, an invalid core mask, a driver or runtime too old for the model, NPU memory
        allocation failures (errno 12), an empty perf detail, a failed NPU submit. One finding
        per catalogue entry, citing its line.

    Why it costs time:
        Each says the numbers beside it are not what the board does at its best: a core mask
        that fell back to single-core auto mode, frequencies that were not locked, a driver
        older than the runtime wants, part of the model that never ran.

    Example:
        line 3: core mask 3 is not valid for this NPU (also line 5) (`E RKNN: Not support core
        mask: 3, fallback to single core auto mode`): only multi-core NPUs take a core mask …

    How to fix:
        The entry's fix (``docs/errors.md`` lists every entry with its cause, fix and source).

    Estimate:
        None: the catalogue says what failed, not what it cost (0 us).
    """
    for failure in profile.failures:
        severity = Severity.WARNING if failure.severity == "warning" else Severity.ERROR
        entry = by_id(failure.id)
        if entry is not None and entry.notice:  # (harmless by itself: never fails a gate)
            severity = Severity.INFO
        yield Finding(
            code="RKN080",
            name="known-failure",
            severity=severity,
            message=(
                f"line {failure.line}: {failure.diagnosis} (`{failure.text}`)"
                + (f": {failure.cause}" if failure.cause else "")
            ),
            fix=failure.fix,
            est_saving_us=0.0,
            estimate="no saving: the log reports a failure, not a cost",
            basis="a failure the log reports: no saving",
            source=failure.source,
        )


RULES = (
    Rule(
        "RKN080",
        "known-failure",
        Severity.ERROR,
        "Error and warning lines of the failures catalogue, with cause and fix",
        check_known_failures,
        source=SOURCE,
        basis="none: the log reports a failure, not a cost (0 us)",
        confidence="low (0 us claimed)",
    ),
)
