"""Renderers for :class:`~rknnprof.budgets.CheckResult`: table (rich), json, markdown, junit
(the HTML page is :mod:`~rknnprof.reporters.gate_html`), plus GitHub Actions workflow-command
annotations. Registered in :mod:`~rknnprof.reporters.registry`; each renderer is called as
``render(result, out, options)``.

Annotations follow ``actions/toolkit`` ``command.ts``: ``::error title=…::message`` with ``%``,
CR and LF escaped in the message, and ``:`` and ``,`` also escaped in property values. GitHub
shows at most 10 error and 10 warning annotations per step, so we emit at most that many and
say how many more there are.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rknnprof.reporters._escape import annotation_data, annotation_property, markdown
from rknnprof.reporters._escape import markdown_code as code
from rknnprof.reporters._text import stripped_view
from rknnprof.reporters.base import RenderOptions, console_width

if TYPE_CHECKING:
    from rknnprof.budgets import CheckResult
    from rknnprof.budgets.verdicts import Verdict

ICONS = {"pass": "✅", "warn": "⚠️", "fail": "❌", "inconclusive": "❔"}
STYLES = {"pass": "green", "warn": "yellow", "fail": "bold red", "inconclusive": "dim"}
ANNOTATION_CAP = 10


def render_junit(result: CheckResult, out: TextIO, options: RenderOptions) -> None:
    """One JUnit test case per budget (:func:`rknnprof.reporters.junit.render_check_junit`)."""
    from rknnprof.reporters.junit import render_check_junit

    render_check_junit(result, out, options.fail_on, options.fail_on_inconclusive)


def counts(result: CheckResult) -> str:
    return ", ".join(f"{result.count(s)} {s}" for s in ("pass", "warn", "fail", "inconclusive"))


def unjudged_line(result: CheckResult) -> str | None:
    """``The gate could not judge 2 of 3 budgets: the table is cut (…)``: said plainly when
    the input cannot support a verdict, or ``None``."""
    unjudged = result.unjudged
    if not unjudged:
        return None
    reasons = list(dict.fromkeys(v.message.split(": not judged: ", 1)[-1] for v in unjudged))
    reasons = [r.removesuffix("; --allow-incomplete judges it anyway") for r in reasons]
    # (what to do depends on why: a baseline at another input shape is no damaged capture)
    shapes = all("another input shape" in r for r in reasons)
    remedy = (
        "Save a baseline at this run's input shape (--save-baseline)"
        if shapes
        else "Capture the run again (the whole table, no debugger or tensor dumps)"
    ) + ", or pass --allow-incomplete to judge it anyway."
    return (
        f"The gate could not judge {len(unjudged)} of {len(result.verdicts)} budget(s): "
        f"{reasons[0]}{f' (and {len(reasons) - 1} more reason(s))' if len(reasons) > 1 else ''}"
        f". {remedy}"
    )


def gate_fails(result: CheckResult, options: RenderOptions) -> bool:
    """Whether the verdicts make ``check`` exit 1 under ``--fail-on`` and
    ``--fail-on-inconclusive`` (the exit code's own test)."""
    from rknnprof.budgets import failing_statuses

    failing = failing_statuses(options.fail_on, options.fail_on_inconclusive)
    return any(result.count(status) for status in failing)


def gate_note(result: CheckResult, options: RenderOptions) -> str:
    """`` (the gate fails: --fail-on warning)`` when the exit code is not what the overall
    verdict reads as (a warn or an inconclusive verdict that fails the run, a failed budget
    that does not), else ``""``: the headline said WARN while the run exited 1."""
    fails = gate_fails(result, options)
    if fails == (result.overall == "fail"):
        return ""
    if not fails:
        return f" (the gate passes: --fail-on {options.fail_on})"
    why = (
        [f"--fail-on {options.fail_on}"]
        if result.count("warn") and options.fail_on != "error"
        else []
    )
    if options.fail_on_inconclusive and result.count("inconclusive"):
        why.append("--fail-on-inconclusive")
    return f" (the gate fails: {', '.join(why)})"


@stripped_view
def render_table(result: CheckResult, out: TextIO, options: RenderOptions) -> None:
    from rich.console import Console
    from rich.text import Text

    from rknnprof.reporters._escape import terminal_text as T

    console = Console(
        file=out,
        width=console_width(options.width),
        color_system="auto" if options.color else None,
        highlight=False,
        force_terminal=options.color or None,
    )
    from rknnprof.reporters._text import fit_paths

    named = [p for p in (result.path, result.budgets_path, result.baseline_path) if p]
    fixed = len("check  with ") + (len(" against ") if result.baseline_path else 0)
    shown = fit_paths(named, console.width - fixed)
    base = f" against {shown[2]}" if result.baseline_path else ""
    console.print(
        Text.assemble(("check", "bold"), " ", T(f"{shown[0]} with {shown[1]}{base}")),
        soft_wrap=True,
    )
    for warning in result.warnings:
        console.print(Text.assemble(("Warning:", "yellow"), " ", T(warning)), soft_wrap=True)
    from rknnprof.reporters.table import new_table

    table = new_table()
    table.add_column("Verdict", no_wrap=True)
    # a budget's label names it (its layer glob above all): wrapped whole, never cut
    table.add_column("Budget", overflow="fold", ratio=1, min_width=20)
    models = {v.model for v in result.verdicts}
    if len(models) > 1:
        table.add_column("Model", overflow="fold")
    table.add_column("Result", ratio=2, overflow="fold")
    for v in result.verdicts:
        row = [
            Text(v.status.upper(), style=STYLES[v.status]),
            T(f"{v.budget.display} ({v.budget.level})"),
        ]
        if len(models) > 1:
            row.append(T(v.model))
        table.add_row(*row, T(v.message))
    console.print(table)
    if line := unjudged_line(result):
        console.print(T(line, "bold yellow"), soft_wrap=True)
    console.print(
        Text.assemble(
            (result.overall.upper(), STYLES[result.overall]),
            f": {counts(result)}{gate_note(result, options)}",
        )
    )


def render_markdown(result: CheckResult, out: TextIO, options: RenderOptions | None = None) -> None:
    """The verdict as GitHub-flavoured Markdown (PR comment, ``$GITHUB_STEP_SUMMARY``)."""
    options = options or RenderOptions()
    out.write(
        f"## rknnprof check: {ICONS[result.overall]} {result.overall}"
        f"{markdown(gate_note(result, options))}\n\n"
    )
    base = f" against {code(result.baseline_path)}" if result.baseline_path else ""
    out.write(
        f"{code(result.path)} with {code(result.budgets_path)}{base}: {counts(result)}"
        f"{gate_note(result, options)}\n\n"
    )
    if line := unjudged_line(result):
        out.write(f"> ❔ **{markdown(line)}**\n\n")
    for warning in result.warnings:
        out.write(f"> ⚠️ {markdown(warning)}\n\n")
    several = len({v.model for v in result.verdicts}) > 1
    model_head, model_rule = ("Model | ", "---|") if several else ("", "")
    out.write(f"| Verdict | Budget | {model_head}Result |\n|---|---|{model_rule}---|\n")
    for v in result.verdicts:
        model = f"{markdown(v.model)} | " if several else ""
        out.write(
            f"| {ICONS[v.status]} {v.status} | {code(v.budget.display)} ({v.budget.level}) | "
            f"{model}{markdown(v.message)} |\n"
        )
    out.write("\n")
    if result.comparison is not None:
        from rknnprof.reporters.compare_views import render_markdown_comparison

        out.write("<details><summary>Changes against the baseline</summary>\n\n")
        for comp in result.comparison.comparisons:
            render_markdown_comparison(comp, out, min(options.top, 10))
        out.write("</details>\n\n")


def check_to_dict(result: CheckResult, options: RenderOptions | None = None) -> dict[str, Any]:
    from rknnprof import __version__

    options = options or RenderOptions()

    def budget(b: Any) -> dict[str, Any]:
        return {f.name: getattr(b, f.name) for f in fields(b)} | {"label": b.label}

    return {
        "schema_version": 1,
        "rknnprof_version": __version__,
        "kind": "check",
        "path": result.path,
        "budgets": result.budgets_path,
        "baseline": result.baseline_path,
        "overall": result.overall,
        "gate_fails": gate_fails(result, options),
        "counts": {s: result.count(s) for s in ("pass", "warn", "fail", "inconclusive")},
        "verdicts": [
            {
                "budget": budget(v.budget),
                "model": v.model,
                "status": v.status,
                "message": v.message,
                "value": v.value,
                "baseline_value": v.baseline_value,
                "layers": list(v.layers),
                "unjudgeable": v.unjudgeable,
            }
            for v in result.verdicts
        ],
        "warnings": list(result.warnings),
    }


def render_json(result: CheckResult, out: TextIO, options: RenderOptions) -> None:
    json.dump(check_to_dict(result, options), out, indent=2, ensure_ascii=False, allow_nan=False)
    out.write("\n")


# ---- GitHub Actions ----------------------------------------------------------------------------


def github_annotations(
    result: CheckResult, fail_on_inconclusive: bool = False, warn_fails: bool = False
) -> list[str]:
    """Workflow commands: ``::error`` for failed verdicts (and inconclusive ones under
    ``--fail-on-inconclusive``, warn-level ones under ``--fail-on warning``: every verdict
    that fails the gate); ``::warning`` for the budgets the gate could not judge (one line),
    warn-level verdicts and the input's warnings; at most 10 of each command, plus a
    ``::notice`` when some were left out."""
    failing = {"fail"}
    if fail_on_inconclusive:
        failing.add("inconclusive")
    if warn_fails:
        failing.add("warn")
    errors = [v for v in result.verdicts if v.status in failing]
    warnings: list[str] = []
    if (line := unjudged_line(result)) and not fail_on_inconclusive:
        warnings.append(f"::warning title=rknnprof could not judge::{annotation_data(line)}")
    warned = [v for v in result.verdicts if v.status == "warn" and not warn_fails]
    warnings += _verdict_annotations(warned, "warning")
    warnings += [_input_warning(w, result.path) for w in result.warnings]
    lines = _verdict_annotations(errors, "error")[:ANNOTATION_CAP]
    if len(errors) > ANNOTATION_CAP:
        lines.append(_more(len(errors) - ANNOTATION_CAP, "error"))
    lines += warnings[:ANNOTATION_CAP]
    if len(warnings) > ANNOTATION_CAP:
        lines.append(_more(len(warnings) - ANNOTATION_CAP, "warning"))
    return lines


def _more(count: int, command: str) -> str:
    return f"::notice title=rknnprof::{count} more {command}s not annotated; see the job summary"


def _input_warning(warning: str, path: str) -> str:
    """One warning about the input (``path:line: message``, or a like-for-like line) as
    ``::warning``, pointing at the line when the path is the checked log's and relative."""
    props = ["title=rknnprof warning"]
    head = f"{path}:"
    if warning.startswith(head) and path != "-" and not Path(path).is_absolute():
        number = warning[len(head) :].split(":", 1)[0]
        if number.isdigit():
            props.insert(0, f"file={annotation_property(path)},line={number}")
    return f"::warning {','.join(props)}::{annotation_data(warning)}"


def _verdict_annotations(chosen: list[Verdict], command: str) -> list[str]:
    lines = []
    for v in chosen:
        props = [f"title={annotation_property(f'rknnprof budget {v.budget.label}')}"]
        if v.source_path and not Path(v.source_path).is_absolute() and v.source_path != "-":
            # (the file, and the line where a layer's budget has one: a whole-run budget
            # names the log)
            where = f"file={annotation_property(v.source_path)}"
            props.insert(0, f"{where},line={v.source_line}" if v.source_line else where)
        message = annotation_data(f"{v.model}: {v.message}")
        lines.append(f"::{command} {','.join(props)}::{message}")
    return lines
