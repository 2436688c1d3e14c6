"""GitHub Actions outputs of ``analyze``, ``compare`` and ``check``: Markdown appended to
``$GITHUB_STEP_SUMMARY`` and ``::error`` / ``::warning`` workflow-command annotations.

Each function does nothing outside GitHub Actions (the variable it needs is unset). A summary
that cannot be written is a warning on stderr, never a failed run.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from rknnprof.cli.output import render_options

if TYPE_CHECKING:
    from rknnprof.budgets import CheckResult
    from rknnprof.compare import CompareResult

SUMMARY_ROWS = 10
"""Most rows per table in the comparison's step summary."""


def append_step_summary(markdown: str) -> None:
    """Append ``markdown`` to the file ``$GITHUB_STEP_SUMMARY`` names, when it is set."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    try:
        # O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of hanging the run
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666)
        with open(fd, "a", encoding="utf-8") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            f.write(markdown)
    except OSError as e:
        why = "a FIFO with no reader" if e.errno == errno.ENXIO else e.strerror
        click.echo(f"Warning: cannot write $GITHUB_STEP_SUMMARY ({target}): {why}", err=True)


def summarize_compare(result: CompareResult, top: int) -> None:
    """The comparison as Markdown in the step summary (``--top`` rows, at most 10)."""
    if not os.environ.get("GITHUB_STEP_SUMMARY"):
        return
    from rknnprof.reporters import renderer

    md = io.StringIO()
    renderer("compare", "markdown")(
        result, md, render_options("never", "-", min(top, SUMMARY_ROWS))
    )
    append_step_summary(md.getvalue())


def summarize_check(result: CheckResult, fail_on: str, fail_on_inconclusive: bool) -> None:
    """The verdict as Markdown in the step summary, with the gate the command applies
    (``--fail-on``, ``--fail-on-inconclusive``)."""
    if not os.environ.get("GITHUB_STEP_SUMMARY"):
        return
    from rknnprof.reporters import renderer

    md = io.StringIO()
    options = replace(
        render_options("never", "-"), fail_on=fail_on, fail_on_inconclusive=fail_on_inconclusive
    )
    renderer("check", "markdown")(result, md, options)
    append_step_summary(md.getvalue())


def in_github_actions() -> bool:
    """Whether workflow-command annotations are wanted (``GITHUB_ACTIONS=true``)."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def _annotations_to_stderr(fmt: str, output: str | None) -> bool:
    """Annotations go to stdout beside a table or Markdown report; when stdout carries a file
    format (JSON, JUnit, HTML, a trace), to stderr, so the report stays parseable."""
    return output in (None, "-") and fmt not in ("table", "markdown")


def annotate_errors(
    errors: list[tuple[str, str, str | None, int | None]], fmt: str, output: str | None
) -> None:
    """``::error`` annotations when ``GITHUB_ACTIONS=true``, one per ``(title, message, file,
    line)`` (``analyze --fail-on``, ``compare --fail-over``), at most 10 and a ``::notice`` for
    the rest, as ``check`` does. ``file``/``line`` are given only for a relative log path (the
    workspace's), as GitHub links them to the repository's file."""
    if not in_github_actions():
        return
    from pathlib import Path

    from rknnprof.reporters._escape import annotation_data, annotation_property
    from rknnprof.reporters.check_views import ANNOTATION_CAP

    to_stderr = _annotations_to_stderr(fmt, output)
    for title, message, file, line in errors[:ANNOTATION_CAP]:
        props = [f"title={annotation_property(title)}"]
        if file and file != "-" and not Path(file).is_absolute():
            where = f"file={annotation_property(file)}"
            props.insert(0, f"{where},line={line}" if line else where)
        click.echo(f"::error {','.join(props)}::{annotation_data(message)}", err=to_stderr)
    if len(errors) > ANNOTATION_CAP:
        click.echo(
            f"::notice title=rknnprof::{len(errors) - ANNOTATION_CAP} more errors not annotated",
            err=to_stderr,
        )


def annotate_check(
    result: CheckResult,
    fmt: str,
    output: str | None,
    fail_on_inconclusive: bool = False,
    warn_fails: bool = False,
) -> None:
    """Failed, warned and unjudged budgets and the input's warnings as workflow-command
    annotations when ``GITHUB_ACTIONS=true``.

    They go to stdout beside the table or Markdown verdict; when stdout carries a file format
    (JSON, JUnit, HTML), to stderr, so the report stays parseable."""
    if not in_github_actions():
        return
    from rknnprof.reporters.check_views import github_annotations

    to_stderr = _annotations_to_stderr(fmt, output)
    for line in github_annotations(result, fail_on_inconclusive, warn_fails):
        click.echo(line, err=to_stderr)
