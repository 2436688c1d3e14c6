"""Markdown report (``--format markdown``) for PR comments and ``$GITHUB_STEP_SUMMARY``.

The same content as the terminal table (wording and numbers from ``_facts`` and ``_views``):
summary, the layer table, op types, numbered advice, skipped rows and warnings.
GitHub-flavoured pipe tables; every piece of log text is escaped (``|`` as ``\\|``, Markdown
punctuation and ``<``/``&`` backslash-escaped) so a layer name can neither break a table nor
inject HTML. Estimates and profiles without a per-layer table carry a ``> [!WARNING]`` alert.
"""

from __future__ import annotations

from typing import TextIO

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Bound, Profile, Report
from rknnprof.reporters import _escape
from rknnprof.reporters import _facts as F
from rknnprof.reporters import _views as V
from rknnprof.reporters.base import RenderOptions, Reporter

BOUND_MARK = {
    Bound.BANDWIDTH: "🟣 bandwidth",
    Bound.COMPUTE: "🔵 compute",
    Bound.BALANCED: "⚪ balanced",
    Bound.CPU: "🔴 cpu",
    Bound.UNKNOWN: "❔ unknown",
}
SEVERITY_MARK = {"error": "🔴 error", "warning": "🟠 warning", "info": "⚪ info"}
BAR_CELLS = 10
MAX_SKIPPED_SHOWN = 10


def escape(text: object) -> str:
    """Log or message text for Markdown: escaped, issue-reference patterns broken."""
    return no_autolink(_escape.markdown(text))


code = _escape.markdown_code


EIGHTHS = " ▏▎▍▌▋▊▉"
"""Partial blocks, one to seven eighths of a cell (the terminal report's bar glyphs)."""


def bar(share: float, largest: float) -> str:
    """A text bar of up to :data:`BAR_CELLS` blocks in eighths, scaled to ``largest``; empty for
    a share that prints as ``0.0%``, at least one eighth otherwise, so 0.0 % and 1.0 % differ."""
    if largest <= 0 or round(share * 1000) <= 0:
        return ""
    eighths = max(1, round(share / largest * BAR_CELLS * 8))
    full, rest = divmod(eighths, 8)
    return "█" * full + (EIGHTHS[rest] if rest else "")


def no_autolink(text: str) -> str:
    """``#88`` -> ``#&#8203;88``: GitHub turns ``#`` + digits into a link to that issue of the
    repository the comment lives in, which a layer id (``#88 Concat``) or an upstream issue
    (``(#514)``) is not. A zero-width space (as an entity, so the source stays readable)
    breaks the pattern without changing what a reader sees."""
    return _ISSUE_REF.sub(r"#&#8203;\1", text)


_ISSUE_REF = LazyPattern(r"(?<![\w&/])\\?#(\d)")


def _cell(view: V.TableView, column: V.Column, row: int, largest: float) -> str:
    if column.key == "bar":
        return bar(view.shares[row], largest)
    text = column.cells[row]
    if column.key == "name":
        return code(text)
    if column.key == "bound":
        layer = view.layers[row]
        return BOUND_MARK[layer.bound] + (V.WEAK_MARK if layer.bound_weak else "")
    if column.key == "cpu_time_us" and view.cpu_rows and view.cpu_rows[row]:
        return f"**{escape(text)}**"
    return escape(text)


def table_lines(view: V.TableView) -> list[str]:
    """A ``###`` title, the note in italics, and a GitHub pipe table."""
    heads = [f"{c.head} ({c.unit})" if c.unit else c.head for c in view.columns]
    lines = [f"### {escape(view.title)}", ""]
    if view.note:
        lines += [f"*{escape(view.note)}*", ""]
    lines.append("| " + " | ".join(escape(h) for h in heads) + " |")
    lines.append("|" + "|".join("---:" if c.right else "---" for c in view.columns) + "|")
    largest = max(view.shares, default=0.0)
    for row in range(len(view.columns[0].cells)):
        cells = [_cell(view, c, row, largest) for c in view.columns]
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


MD_ALERT = {"warn": "WARNING", "bad": "CAUTION"}
"""The GitHub alert a verdict that is not clean is shown in."""


class MarkdownReporter(Reporter):
    name = "markdown"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        lines: list[str] = ["# rknnprof report", ""]
        if not report.profiles and not report.failures:
            lines += [f"No profiles in this report: {escape(report.no_profile or 'none')}", ""]
        if report.failures:
            lines += ["No profiles in this report.", ""] if not report.profiles else []
            lines += ["## Failures", ""]
            lines += [
                f"- line {f.line}: {escape(f.diagnosis)}: {code(f.text)}; fix: "
                f"{escape(f.fix)}{f' ({escape(f.source)}, {f.confidence})' if f.source else ''}"
                for f in report.failures
            ]
            lines.append("")
        for index, profile in enumerate(report.profiles):
            lines += self._profile(report, profile, index, len(report.profiles), options.top)
        placed = {p.source.path for p in report.profiles}
        stray = [w for w in report.warnings if w.path not in placed]
        if stray:
            lines += ["## Warnings", ""]
            lines += [
                f"- {escape(w.path)}{f':{w.line}' if w.line else ''}: {escape(w.message)}"
                for w in stray
            ]
            lines.append("")
        out.write("\n".join(lines).rstrip("\n") + "\n")

    def _profile(
        self, report: Report, profile: Profile, index: int, count: int, top: int
    ) -> list[str]:
        prefix = f"{index + 1}/{count} · " if count > 1 else ""
        title = f"{escape(profile.model_name)} · " if profile.model_name else ""
        stream = escape(F.stream_text(profile))
        lines = [f"## {prefix}{title}{code(F.where_text(profile))}{stream}", ""]
        verdict = F.verdict_text(profile)
        if verdict and F.verdict_level(profile) == "ok":
            lines += [escape(verdict) + "  "]
        elif verdict:
            lines += [f"> [!{MD_ALERT[F.verdict_level(profile)]}]\n> {escape(verdict)}", ""]
        note = F.kind_note(profile)
        if note:
            lines += [f"> [!WARNING]\n> {escape(note)}", ""]
        summary = F.summary_parts(profile)
        lines.append(" · ".join([f"**{escape(summary[0])}**", *map(escape, summary[1:])]) + "  ")
        bounds = F.bound_parts(profile)
        if bounds:
            lines.append(f"{F.bound_head(profile)} " + " · ".join(escape(b) for b in bounds) + "  ")
        for extra in (F.frames_text(profile), F.gaps_note(profile)):
            if extra:
                lines.append(escape(extra) + "  ")
        rest = [escape(t) for t in (F.clock_text(profile), F.versions_text(profile)) if t]
        lines += [" · ".join([code(profile.format), *rest]), ""]
        win = F.biggest_win(profile)
        if win:
            lines += [f"**{escape(win)}**", ""]
        for view in (V.layer_table(profile, top), V.op_table(profile), V.waterfall_table(profile)):
            if view is not None:
                lines += table_lines(view)
        if profile.findings:
            lines += self._findings(profile)
        if F.footer_head(report, profile):
            lines += self._footer(report, profile)
        return lines

    def _findings(self, profile: Profile) -> list[str]:
        lines = [f"### {F.advice_head(profile)}", ""]
        for number, finding in enumerate(profile.findings, 1):
            saving = F.saving_text(finding, profile)
            layers = F.finding_layers_text(finding.layer_ids)
            lines.append(
                f"{number}. **{finding.code}** {SEVERITY_MARK.get(finding.severity.value, '')} · "
                f"{code(finding.name)}{f' · {saving}' if saving else ''}  "
            )
            lines.append(
                f"   {escape(finding.message)}" + (f" ({layers})" if layers else "") + "  "
            )
            if finding.fix:
                lines.append(
                    f"   *Fix:* {escape(finding.fix)}" + ("  " if F.evidence_text(finding) else "")
                )
            evidence = F.evidence_text(finding)
            if evidence:
                lines.append(f"   *{escape(evidence[:1].upper() + evidence[1:])}*")
        return [*lines, ""]

    def _footer(self, report: Report, profile: Profile) -> list[str]:
        skipped = profile.skipped_rows
        lines = [F.footer_head(report, profile), ""]
        items = [
            f"- skipped line {row.line}: {escape(row.reason)}"
            for row in skipped[:MAX_SKIPPED_SHOWN]
        ]
        if len(skipped) > MAX_SKIPPED_SHOWN:
            items.append(f"- … {len(skipped) - MAX_SKIPPED_SHOWN} more skipped rows")
        items += [
            f"- warning{f' (line {w.line})' if w.line else ''}: {escape(w.message)}"
            for w in F.warnings_for(report, profile)
        ]
        if items:
            lines += [*items, ""]
        return lines
