"""The gates: ``check``'s inputs (find the budgets file, read the run and its baseline, judge)
and ``analyze --fail-on`` (which findings trip it, and the line that names each).

Reading goes through :func:`rknnprof.api.load_report`, so the run and the baseline may each be
a log or a saved JSON report. Judging is :func:`rknnprof.budgets.check`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from rknnprof.budgets import CheckResult
    from rknnprof.model import Finding, Profile, Report

BUDGET_FILES = ("rknnprof.yaml", ".rknnprof.yaml", ".rknnprof.yml")
"""Budgets files looked for in the current folder when ``--budgets`` is absent, in this order."""


def find_budgets_file() -> str | None:
    """The first of :data:`BUDGET_FILES` in the current folder, or ``None``."""
    return next((p for p in BUDGET_FILES if Path(p).is_file()), None)


def run_check(
    path: str,
    budgets_path: str,
    baseline: str | None = None,
    save_baseline: str | None = None,
    allow_incomplete: bool = False,
) -> CheckResult:
    """Judge ``path`` against the budgets file.

    The baseline is ``baseline`` or the file's ``baseline:``; a baseline that does not exist
    leaves the ``max_increase`` budgets inconclusive (with a warning). With ``save_baseline``,
    this run's JSON report is written there before judging."""
    from rknnprof.api import load_report
    from rknnprof.budgets import check, load_budgets
    from rknnprof.cli.output import save_report
    from rknnprof.errors import InputError, NoProfileDataError

    config = load_budgets(budgets_path)
    report = load_report(path)
    if not report.profiles:
        raise NoProfileDataError("no RKNN profile in the input", path)
    baseline_path = baseline or config.baseline
    base_report, note = None, None
    if baseline_path == "-" and path == "-":
        raise click.UsageError("PATH and --baseline cannot both be stdin ('-')")
    if baseline_path:
        if baseline_path == "-" or Path(baseline_path).is_file():
            base_report = load_report(baseline_path)
        elif os.path.exists(baseline_path):  # a directory, FIFO or device: never "not found"
            raise InputError("baseline is not a regular file", baseline_path)
        else:
            note = f"baseline {baseline_path} not found: max_increase budgets are inconclusive"
    if save_baseline:
        save_report(report, save_baseline)
    return check(
        config,
        report,
        base_report,
        path,
        baseline_path if base_report else None,
        note,
        allow_incomplete,
    )


def gate_findings(report: Report, fail_on: str) -> list[tuple[Profile, Finding]]:
    """The findings that trip ``analyze --fail-on fail_on``, in report order."""
    from rknnprof.reporters.base import fails

    return [(p, f) for p in report.profiles for f in p.findings if fails(f.severity, fail_on)]


def gate_line(profile: Profile, finding: Finding, fail_on: str, width: int = 110) -> str:
    """``perf.txt: RKN070 warning (activation-swap) reached --fail-on warning: 57 Conv…``: one
    line naming a finding that failed the run, its message cut to ``width`` characters."""
    from rknnprof.reporters._escape import message_line

    message = message_line(finding.message)
    if len(message) > width:
        message = message[: width - 1].rstrip() + "…"
    where = message_line(profile.model_name or profile.source.path)
    return (
        f"{where}: {finding.code} {finding.severity.value} ({finding.name}) reached "
        f"--fail-on {fail_on}: {message}"
    )
