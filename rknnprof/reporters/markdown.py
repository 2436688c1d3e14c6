"""Markdown report (``--format markdown``) for PR comments and ``$GITHUB_STEP_SUMMARY``.

The same content as the terminal table: summary, top layers, op types, numbered advice,
skipped rows and warnings. GitHub-flavoured pipe tables; every piece of log text is escaped
(``|`` as ``\\|``, Markdown punctuation and ``<``/``&`` backslash-escaped) so a layer name
can neither break a table nor inject HTML. Estimates carry a ``> [!WARNING]`` alert.
"""

from __future__ import annotations

import re
from typing import TextIO

from rknnprof.model import Bound, Profile, Report
from rknnprof.reporters import _facts as F
from rknnprof.reporters.base import RenderOptions, Reporter
from rknnprof.rules import potential_saving_us

_SPECIAL = re.compile(r"([\\`*_\[\]<>|&~])")
BOUND_MARK = {
    Bound.BANDWIDTH: "🟣 bandwidth",
    Bound.COMPUTE: "🔵 compute",
    Bound.BALANCED: "⚪ balanced",
    Bound.CPU: "🔴 cpu",
    Bound.UNKNOWN: "❔ unknown",
}
SEVERITY_MARK = {"error": "🔴 error", "warning": "🟠 warning", "info": "⚪ info"}
BAR_CELLS = 10


def escape(text: object) -> str:
    """Backslash-escape Markdown punctuation and pipes; newlines become spaces."""
    return _SPECIAL.sub(r"\\\1", str(text)).replace("\r", " ").replace("\n", " ")


def code(text: str) -> str:
    """An inline code span safe inside a table cell (pipes escaped, backticks swapped)."""
    if not text:
        return ""
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`"


def bar(share: float, largest: float) -> str:
    """A text bar of up to :data:`BAR_CELLS` full blocks, scaled to ``largest``."""
    if largest <= 0 or share <= 0:
        return ""
    cells = round(share / largest * BAR_CELLS)
    return "█" * max(cells, 1)


def _us(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


class MarkdownReporter(Reporter):
    name = "markdown"
    suffixes = (".md", ".markdown")
    description = "GitHub Markdown for PR comments and $GITHUB_STEP_SUMMARY"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        lines: list[str] = ["# rknnprof report", ""]
        if not report.profiles:
            lines += ["No profiles in this report.", ""]
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
        where = F.profile_title(profile) if not profile.model_name else profile_where(profile)
        lines = [f"## {prefix}{title}{code(where)}", ""]
        note = F.kind_note(profile)
        if note:
            lines += [f"> [!WARNING]\n> {escape(note)}", ""]
        summary = F.summary_parts(profile)
        summary[0] = f"**{escape(summary[0])}**"
        lines.append(" · ".join([summary[0], *(escape(p) for p in summary[1:])]) + "  ")
        bounds = F.bound_parts(profile)
        if bounds:
            lines.append("bound: " + " · ".join(escape(b) for b in bounds) + "  ")
        meta = [code(profile.format)]
        if F.versions_text(profile):
            meta.append(escape(F.versions_text(profile)))
        if profile.frames > 1 and profile.frame_times_us:
            p50 = F.percentile(profile.frame_times_us, 50)
            p90 = F.percentile(profile.frame_times_us, 90)
            meta.append(f"frame p50 {F.fmt_us(p50)}, p90 {F.fmt_us(p90)}")
        lines.append(" · ".join(meta))
        if profile.benchmark is not None:
            bench = profile.benchmark
            parts = []
            if bench.avg_time_ms is not None:
                parts.append(f"avg {bench.avg_time_ms:g} ms")
            if bench.avg_fps is not None:
                parts.append(f"{bench.avg_fps:g} FPS")
            if bench.run_times_ms:
                parts.append(
                    f"{len(bench.run_times_ms)} runs, {min(bench.run_times_ms):g}–"
                    f"{max(bench.run_times_ms):g} ms"
                )
            lines += ["", "Benchmark: " + " · ".join(parts)]
        lines.append("")
        if profile.layers:
            lines += self._top_layers(profile, top)
        ops, origin = F.op_table(profile)
        if ops:
            lines += self._op_types(profile, ops, origin)
        if profile.findings:
            lines += self._findings(profile)
        lines += self._footer(report, profile)
        return lines

    def _top_layers(self, profile: Profile, top: int) -> list[str]:
        layers = F.top_layers(profile, top)
        what = "estimated time (not measured)" if not profile.measured else "time"
        time_head = "Est. time (us)" if not profile.measured else "Time (us)"
        lines = [
            f"### Top {len(layers)} of {len(profile.layers)} layers by {what}",
            "",
            f"| ID | Op type | Name | Output | {time_head} | Share | | Bound |",
            "|---:|---|---|---|---:|---:|---|---|",
        ]
        shares = [F.layer_share(la, profile) or 0.0 for la in layers]
        largest = max(shares, default=0.0)
        for layer, share in zip(layers, shares, strict=True):
            lines.append(
                f"| {layer.id} | {escape(layer.op_type)} | {code(layer.full_name or '')} | "
                f"{F.shape_text(layer.output_shapes, layer.output_shapes_truncated)} | "
                f"{_us(layer.time_us)} | {F.fmt_pct(share)} | {bar(share, largest)} | "
                f"{BOUND_MARK[layer.bound]} |"
            )
        return [*lines, ""]

    def _op_types(self, profile: Profile, ops, origin: str) -> list[str]:
        total = profile.total_time_us or sum(s.total_time_us for s in ops) or 1.0
        shares = [s.share if s.share is not None else s.total_time_us / total for s in ops]
        largest = max(shares, default=0.0)
        lines = [
            f"### Time by op type ({origin})",
            "",
            "| Op type | Calls | NPU (us) | CPU (us) | Share | |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for stat, share in zip(ops, shares, strict=True):
            cpu = f"**{_us(stat.cpu_time_us)}**" if stat.cpu_time_us else _us(stat.cpu_time_us)
            lines.append(
                f"| {escape(stat.op_type)} | {stat.calls} | {_us(stat.npu_time_us)} | {cpu} | "
                f"{F.fmt_pct(share)} | {bar(share, largest)} |"
            )
        return [*lines, ""]

    def _findings(self, profile: Profile) -> list[str]:
        findings = profile.findings
        total = profile.total_time_us
        stake = potential_saving_us(findings, profile)  # no layer counted twice
        head = f"### Advice: {len(findings)} finding{'s' if len(findings) != 1 else ''}"
        if stake:
            head += f", up to {F.fmt_us(stake)} at stake"
        lines = [head, ""]
        for number, finding in enumerate(findings, 1):
            saving = ""
            if finding.est_saving_us:
                share = f" ({F.fmt_pct(finding.est_saving_us / total)})" if total else ""
                saving = f" · saves ~{F.fmt_us(finding.est_saving_us)}{share}"
            layers = F.finding_layers_text(finding.layer_ids)
            lines.append(
                f"{number}. **{finding.code}** {SEVERITY_MARK.get(finding.severity.value, '')} · "
                f"{code(finding.name)}{saving}  "
            )
            lines.append(
                f"   {escape(finding.message)}" + (f" ({layers})" if layers else "") + "  "
            )
            if finding.fix:
                lines.append(f"   *Fix:* {escape(finding.fix)}")
        return [*lines, ""]

    def _footer(self, report: Report, profile: Profile) -> list[str]:
        warnings = F.warnings_for(report, profile)
        skipped = profile.skipped_rows
        lines = [
            f"{len(skipped)} skipped row{'s' if len(skipped) != 1 else ''} · "
            f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}",
            "",
        ]
        items = [f"- skipped line {row.line}: {escape(row.reason)}" for row in skipped[:10]]
        if len(skipped) > 10:
            items.append(f"- … {len(skipped) - 10} more skipped rows")
        items += [
            f"- warning{f' (line {w.line})' if w.line else ''}: {escape(w.message)}"
            for w in warnings
        ]
        if items:
            lines += [*items, ""]
        return lines


def profile_where(profile: Profile) -> str:
    """``path:first-last`` without the model name."""
    span = ""
    if profile.source.first_line is not None:
        span = f":{profile.source.first_line}"
        if profile.source.last_line not in (None, profile.source.first_line):
            span += f"-{profile.source.last_line}"
    return f"{profile.source.path}{span}"
