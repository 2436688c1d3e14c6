"""HTML report (``--format html``): ONE self-contained file that opens from ``file://``.

Choice: no chart library and no template engine. The charts are hand-made inline SVG built in
``html_charts.py`` (plotly would add ~4.8 MB per file or a CDN; see ECOSYSTEM.md §5), the CSS and
~60 lines of vanilla JS live in ``reporters/assets/`` and are inlined. No network request is made.
Size: about 6 KB of CSS+JS plus ~1 KB per layer (bar, scatter point, table row): a 168-layer
model (corpus 36) comes to about 180 KB.

Per profile: a header card (platform, total, NPU/CPU split, time per bound, versions, an
ESTIMATE banner for build-time tables), layer time in execution order coloured by bound with CPU
layers marked, a DDR-vs-NPU cycles scatter on log axes, the op-type breakdown, the findings with
their rule docs, and a sortable, filterable layer table. Every piece of log text is escaped.
The inline JS sets ``data-ready="1"`` on ``<body>`` when it has run and ``data-js-error`` on any
uncaught error (the headless-browser test reads both).
"""

from __future__ import annotations

from html import escape
from importlib import resources
from typing import TextIO

from rknnprof import __version__
from rknnprof.model import Finding, Profile, Report
from rknnprof.reporters import _facts as F
from rknnprof.reporters import html_charts as C
from rknnprof.reporters.base import RenderOptions, Reporter
from rknnprof.rules import potential_saving_us


def _asset(name: str) -> str:
    return (
        resources.files("rknnprof.reporters").joinpath("assets", name).read_text(encoding="utf-8")
    )


def rule_doc(code: str) -> str:
    """The rule's doc text, or ``""`` when the rule catalogue does not know the code."""
    try:
        from rknnprof.rules import by_code

        rule = by_code(code)
        return (getattr(rule, "doc", "") or "") if rule is not None else ""
    except Exception:  # noqa: BLE001 - a report must render even if the rule registry is broken
        return ""


def _num_cell(value: float | int | None, text: str | None = None) -> str:
    if value is None:
        return '<td class="num" data-v="">–</td>'
    shown = (
        text if text is not None else (f"{value:,.0f}" if value == int(value) else f"{value:,.2f}")
    )
    return f'<td class="num" data-v="{value}">{shown}</td>'


class HtmlReporter(Reporter):
    name = "html"
    suffixes = (".html", ".htm")
    description = "one self-contained HTML file with SVG charts and a sortable layer table"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        titles = ", ".join(F.profile_title(p) for p in report.profiles) or "empty report"
        out.write(
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>rknnprof · {escape(titles)}</title>"
            f"<style>\n{_asset('report.css')}</style></head>\n<body>\n"
            '<header class="top"><h1>rknnprof report</h1>'
            f"<span>{len(report.profiles)} profile{'s' if len(report.profiles) != 1 else ''}</span>"
            "</header>\n<main>\n"
        )
        if not report.profiles:
            out.write('<div class="card">No profiles in this report.</div>\n')
        for index, profile in enumerate(report.profiles):
            out.write(self._profile(report, profile, index, options))
        placed = {p.source.path for p in report.profiles}
        stray = [w for w in report.warnings if w.path not in placed]
        if stray:
            items = "".join(
                f"<li>{escape(w.path)}{f':{w.line}' if w.line else ''}: {escape(w.message)}</li>"
                for w in stray
            )
            out.write(f'<div class="card"><h3>Warnings</h3><ul>{items}</ul></div>\n')
        out.write(
            f"</main>\n<footer>rknnprof {escape(__version__)} · self-contained report, no network "
            f"</footer>\n<script>\n{_asset('report.js')}</script>\n</body></html>\n"
        )

    def _profile(self, report: Report, profile: Profile, index: int, options: RenderOptions) -> str:
        pid = f"p{index}"
        row_prefix = f"{pid}-L"
        parts = [f'<section class="profile" id="{pid}">', self._header(report, profile)]
        if profile.layers:
            what = "estimated time" if not profile.measured else "time"
            largest = max((la.time_us or 0.0 for la in profile.layers), default=0.0)
            cpu_count = sum(1 for la in profile.layers if la.target.value == "CPU")
            parts.append(
                f'<div class="card"><h3>Layer {what} in execution order</h3>'
                f'<p class="note">{len(profile.layers)} layers, tallest bar {F.fmt_us(largest)}; '
                f"colour = bound; red marks under the axis = CPU layers ({cpu_count}). "
                "Click a bar to find its row.</p>"
                f"{C.timeline_svg(profile, row_prefix)}{C.bound_legend(profile)}</div>"
            )
            svg, note = C.scatter_svg(profile, row_prefix)
            scatter = (
                f'<div class="card"><h3>DDR vs NPU cycles</h3>{svg}'
                f'<p class="note">Log axes; dashed line: DDR = NPU. {escape(note)}</p></div>'
            )
        else:
            scatter = ""
        ops, origin = F.op_table(profile)
        op_card = ""
        if ops:
            op_card = (
                f'<div class="card"><h3>Time by op type</h3><p class="note">{escape(origin)}</p>'
                f"{C.ops_bars(profile, ops)}</div>"
            )
        if scatter or op_card:
            parts.append(f'<div class="grid2">{scatter}{op_card}</div>')
        if profile.findings:
            parts.append(self._findings(profile, row_prefix))
        if profile.layers:
            parts.append(self._layer_table(profile, pid, row_prefix))
        parts.append(self._footer(report, profile))
        parts.append("</section>\n")
        return "\n".join(parts)

    def _header(self, report: Report, profile: Profile) -> str:
        chips = [f'<span class="chip"><b>{escape(p)}</b></span>' for p in F.summary_parts(profile)]
        chips.append(f'<span class="chip">{escape(profile.format)}</span>')
        if F.versions_text(profile):
            chips.append(f'<span class="chip">{escape(F.versions_text(profile))}</span>')
        if profile.frames > 1 and profile.frame_times_us:
            p50 = F.percentile(profile.frame_times_us, 50)
            p90 = F.percentile(profile.frame_times_us, 90)
            chips.append(
                f'<span class="chip">frame p50 {F.fmt_us(p50)} · p90 {F.fmt_us(p90)}</span>'
            )
        bench = profile.benchmark
        if bench is not None:
            text = " · ".join(
                t
                for t in (
                    f"avg {bench.avg_time_ms:g} ms" if bench.avg_time_ms is not None else "",
                    f"{bench.avg_fps:g} FPS" if bench.avg_fps is not None else "",
                    f"{len(bench.run_times_ms)} runs" if bench.run_times_ms else "",
                )
                if t
            )
            chips.append(f'<span class="chip">benchmark: {escape(text)}</span>')
        note = F.kind_note(profile)
        banner = f'<div class="estimate">{escape(note)}</div>' if note else ""
        stack = C.bound_stack(profile)
        return (
            f'<div class="card"><h2>{escape(F.profile_title(profile))}</h2>{banner}'
            f'<div class="chips">{"".join(chips)}</div>{stack}</div>'
        )

    def _findings(self, profile: Profile, row_prefix: str) -> str:
        total = profile.total_time_us
        items = [self._finding(n, f, total, row_prefix) for n, f in enumerate(profile.findings, 1)]
        stake = potential_saving_us(profile.findings, profile)  # no layer counted twice
        head = f"Advice: {len(profile.findings)} finding{'s' if len(profile.findings) != 1 else ''}"
        if stake:
            head += f", up to {F.fmt_us(stake)} at stake"
        return f'<div class="card"><h3>{escape(head)}</h3>{"".join(items)}</div>'

    def _finding(self, number: int, finding: Finding, total: float | None, row_prefix: str) -> str:
        sev = escape(finding.severity.value)
        saving = ""
        if finding.est_saving_us:
            share = f" ({F.fmt_pct(finding.est_saving_us / total)})" if total else ""
            saving = f'<span class="saving">saves ~{F.fmt_us(finding.est_saving_us)}{share}</span>'
        links = ", ".join(
            f'<a href="#{row_prefix}{i}" data-row="{row_prefix}{i}">{i}</a>'
            for i in finding.layer_ids[:30]
        )
        if len(finding.layer_ids) > 30:
            links += f" +{len(finding.layer_ids) - 30} more"
        extra = []
        if finding.layer_ids:
            extra.append(f"<p>Layers: {links}</p>")
        if finding.estimate:
            extra.append(f'<p class="note">Estimate: {escape(finding.estimate)}</p>')
        if finding.source:
            extra.append(f'<p class="note">Source: {escape(finding.source)}</p>')
        doc = rule_doc(finding.code)
        if doc:
            extra.append(
                f"<details><summary>About {escape(finding.code)}</summary>"
                f"<pre>{escape(doc)}</pre></details>"
            )
        return (
            f'<div class="finding {sev}"><div class="head"><b>{number}. {escape(finding.code)}</b>'
            f'<span class="sev {sev}">{sev}</span><span>{escape(finding.name)}</span>{saving}</div>'
            f"<p>{escape(finding.message)}</p>"
            + (f"<p><b>Fix:</b> {escape(finding.fix)}</p>" if finding.fix else "")
            + "".join(extra)
            + "</div>"
        )

    def _layer_table(self, profile: Profile, pid: str, row_prefix: str) -> str:
        heads = [
            "ID",
            "Op type",
            "Full name",
            "Target",
            "Type",
            "Input shapes",
            "Output shapes",
            "DDR cyc",
            "NPU cyc",
            "Total cyc",
            "Time us" if profile.measured else "Est. us",
            "Share",
            "MAC %",
            "Workload %",
            "RW KB",
            "Bound",
        ]
        rows = []
        for layer in profile.layers:
            share = F.layer_share(layer, profile)
            workload = "/".join(f"{w:g}" for w in layer.workload_pct) if layer.workload_pct else ""
            cls = ' class="cpu"' if layer.target.value == "CPU" else ""
            name = escape(layer.full_name or "")
            inputs = F.shape_text(layer.input_shapes, layer.input_shapes_truncated, ", ")
            outputs = F.shape_text(layer.output_shapes, layer.output_shapes_truncated, ", ")
            bound = escape(layer.bound.value)
            rows.append(
                f'<tr id="{row_prefix}{layer.id}"{cls}>'
                + _num_cell(layer.id, str(layer.id))
                + f"<td>{escape(layer.op_type)}</td>"
                f'<td class="name" title="{name}">{name}</td>'
                f"<td>{escape(layer.target.value)}</td>"
                f"<td>{escape(layer.data_type or '')}</td>"
                f"<td>{escape(inputs)}</td><td>{escape(outputs)}</td>"
                + _num_cell(layer.ddr_cycles)
                + _num_cell(layer.npu_cycles)
                + _num_cell(layer.total_cycles)
                + _num_cell(layer.time_us)
                + _num_cell(share, F.fmt_pct(share) if share is not None else None)
                + _num_cell(layer.mac_usage_pct)
                + f"<td>{escape(workload)}</td>"
                + _num_cell(layer.rw_kb)
                + f'<td><i class="sw b-{bound}"></i>{bound}</td></tr>'
            )
        head = "".join(f"<th>{escape(h)}</th>" for h in heads)
        return (
            f'<div class="card"><h3>Layers</h3><div class="tablebar">'
            f'<input id="{pid}-filter" type="search" aria-label="filter layers" '
            'placeholder="filter: op type, name, cpu, bandwidth…">'
            f'<span class="note" id="{pid}-count">{len(rows)} of {len(rows)} layers</span></div>'
            f'<div class="scroll"><table class="layers" data-filter="{pid}-filter" '
            f'data-count="{pid}-count"><thead><tr>{head}</tr></thead><tbody>\n'
            + "\n".join(rows)
            + "\n</tbody></table></div></div>"
        )

    def _footer(self, report: Report, profile: Profile) -> str:
        warnings = F.warnings_for(report, profile)
        skipped = profile.skipped_rows
        items = [
            f"<li>skipped line {row.line}: {escape(row.reason)} — "
            f"<code>{escape(row.text)}</code></li>"
            for row in skipped[:50]
        ]
        items += [
            f"<li>warning{f' (line {w.line})' if w.line else ''}: {escape(w.message)}</li>"
            for w in warnings
        ]
        head = (
            f"{len(skipped)} skipped row{'s' if len(skipped) != 1 else ''} · "
            f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
        )
        body = f"<ul>{''.join(items)}</ul>" if items else ""
        return f'<div class="card note">{escape(head)}{body}</div>'
