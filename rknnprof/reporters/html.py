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

import re
from collections.abc import Callable
from importlib import resources
from typing import TextIO

from rknnprof import __version__
from rknnprof.model import Bound, Finding, Layer, Profile, Report, Target
from rknnprof.reporters import _facts as F
from rknnprof.reporters import _views as V
from rknnprof.reporters import html_charts as C
from rknnprof.reporters._escape import html as escape
from rknnprof.reporters.base import RenderOptions, Reporter


def _asset(name: str) -> str:
    return (
        resources.files("rknnprof.reporters").joinpath("assets", name).read_text(encoding="utf-8")
    )


def linked(text: str) -> str:
    """Escaped ``text`` with each ``(https://…)`` it cites turned into a link."""
    return re.sub(
        r"\((https://[^\s)&<>\"']+)\)", lambda m: f'(<a href="{m[1]}">{m[1]}</a>)', escape(text)
    )


def _failures_card(report: Report) -> str:
    """The known failures the log holds (``Report.failures``), each with its line, diagnosis,
    the line itself, the fix and its source: what an input that holds only failures (exit 3)
    shows, as the terminal's ``Error:`` line and the Markdown report do."""
    items = "".join(
        f"<li>line {f.line}: {escape(f.diagnosis)}: <code>{escape(f.text)}</code><br>"
        f"<b>Fix:</b> {escape(f.fix)}"
        + (
            f'<br><span class="note">Source: {linked(f"thread ({f.source})")}, '
            f"{escape(f.confidence)} confidence</span>"
            if f.source
            else ""
        )
        + "</li>"
        for f in report.failures
    )
    return f'<div class="card"><h3>Failures</h3><ul>{items}</ul></div>\n'


def rule_doc(code: str) -> str:
    """The rule's doc text, or ``""`` when the rule catalogue does not know the code."""
    try:
        from rknnprof.rules import by_code

        rule = by_code(code)
        return (getattr(rule, "doc", "") or "") if rule is not None else ""
    except Exception:  # noqa: BLE001 - a report must render even if the rule registry is broken
        return ""


def _layer_columns(profile: Profile) -> list[tuple[str, str, Callable[[Layer], object]]]:
    """(head, kind, value) for the layer table; kind picks the cell format (see :func:`_cell`)."""
    return [
        ("ID", "id", lambda la: la.id),
        ("Op type", "text", lambda la: la.op_type),
        ("Full name", "name", lambda la: la.full_name or ""),
        ("Bound", "bound", lambda la: (la.bound.value, la.bound_weak)),
        ("Time us" if profile.measured else "Est. us", "num", lambda la: la.time_us),
        ("Share", "pct", lambda la: F.layer_share(la, profile)),
        ("Target", "text", lambda la: "" if la.target is Target.UNKNOWN else la.target.value),
        ("Fallback", "name", lambda la: la.fallback or ""),
        ("Type", "text", lambda la: la.data_type or ""),
        (
            "Input shapes",
            "text",
            lambda la: F.shape_text(la.input_shapes, la.input_shapes_truncated, ", "),
        ),
        (
            "Output shapes",
            "text",
            lambda la: F.shape_text(la.output_shapes, la.output_shapes_truncated, ", "),
        ),
        ("DDR cyc", "num", lambda la: la.ddr_cycles),
        ("NPU cyc", "num", lambda la: la.npu_cycles),
        ("Total cyc", "num", lambda la: la.total_cycles),
        ("MAC %", "num", lambda la: la.mac_usage_pct),
        ("Workload %", "text", lambda la: "/".join(f"{w:g}" for w in la.workload_pct or ())),
        ("RW KB", "num", lambda la: la.rw_kb),
    ]


def _cell(kind: str, value: object) -> str:
    """One ``<td>``: numbers carry ``data-v`` for sorting; names a tooltip; bounds a swatch."""
    if kind == "id":
        return _num_cell(value, str(value))  # type: ignore[arg-type]  # an id column holds ints
    if kind == "num":
        return _num_cell(value)  # type: ignore[arg-type]  # a num column holds numbers or None
    if kind == "pct":
        return _num_cell(value, F.fmt_pct(value) if value is not None else None)  # type: ignore[arg-type]  # a pct column holds numbers or None
    if kind == "bound":
        pair: tuple[str, bool] = value  # type: ignore[assignment]  # a bound column holds (value, weak)
        name = escape(pair[0])
        if pair[1]:
            note = escape(V.WEAK_NOTE)
            return f'<td title="{note}"><i class="sw b-{name}"></i>{name}{V.WEAK_MARK}</td>'
        return f'<td><i class="sw b-{name}"></i>{name}</td>'
    text = escape(str(value))
    if kind == "name":
        return f'<td class="name" title="{text}">{text}</td>'
    return f"<td>{text}</td>"


def _num_cell(value: float | int | None, text: str | None = None) -> str:
    if value is None:
        return '<td class="num" data-v="">–</td>'
    shown = (
        text if text is not None else (f"{value:,.0f}" if value == int(value) else f"{value:,.2f}")
    )
    return f'<td class="num" data-v="{value}">{shown}</td>'


def _roofline_card(profile: Profile, row_prefix: str) -> str:
    """The roofline card: the roofs analysis stored (``Profile.roofs``: none without a known
    platform), the layers' points in any case."""
    svg, note = C.roofline_svg(profile, profile.roofs, row_prefix)
    return (
        f'<div class="card"><h3>Roofline (conv layers)</h3>{svg}<p class="note">Log axes: '
        "achieved MACs/s against MACs per byte of RW(KB); horizontal: the compute roof "
        "(MACs/cycle x NPU clock x cores), slanted: bandwidth roofs. Points coloured by "
        f"bound; hover for the layer. {escape(note)}</p></div>"
    )


class HtmlReporter(Reporter):
    name = "html"

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
            why = (
                f": {escape(report.no_profile)}"
                if report.no_profile and not report.failures
                else ""
            )
            out.write(f'<div class="card">No profiles in this report{why}.</div>\n')
        if report.failures:
            out.write(_failures_card(report))
        for index, profile in enumerate(report.profiles):
            out.write(self._profile(report, profile, index))
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

    def _profile(self, report: Report, profile: Profile, index: int) -> str:
        pid = f"p{index}"
        row_prefix = f"{pid}-L"
        parts = [f'<section class="profile" id="{pid}">', self._header(profile)]
        # the advice first: a reader wants the biggest win before the charts
        if profile.findings:
            parts.append(self._findings(profile, row_prefix))
        fall = profile.waterfall
        if fall is not None:
            parts.append(C.waterfall_card(fall))
        if profile.layers:
            parts.append(self._timeline(profile, row_prefix))
        scatter = ""
        if any(la.ddr_cycles is not None for la in profile.layers):
            svg, note = C.scatter_svg(profile, row_prefix)
            scatter = (
                f'<div class="card"><h3>DDR vs NPU cycles</h3>{svg}'
                f'<p class="note">Log axes; dashed line: DDR = NPU. {escape(note)}</p></div>'
            )
        view = V.op_table(profile)
        op_card = ""
        if view is not None:
            note = f'<p class="note">{escape(view.note)}</p>' if view.note else ""
            op_card = (
                f'<div class="card"><h3>{escape(view.title)}</h3>{note}{C.ops_bars(view)}</div>'
            )
        if scatter and op_card:
            parts.append(f'<div class="grid2">{scatter}{op_card}</div>')
        elif scatter or op_card:
            parts.append(scatter or op_card)
        if any(la.achieved_macs_per_s for la in profile.layers):
            parts.append(_roofline_card(profile, row_prefix))
        if profile.layers:
            parts.append(self._layer_table(profile, pid, row_prefix))
        if F.footer_head(report, profile):
            parts.append(self._footer(report, profile))
        parts.append("</section>\n")
        return "\n".join(parts)

    def _timeline(self, profile: Profile, row_prefix: str) -> str:
        """Layer time (or, for a build-time estimate, cycles) in execution order; a one-line
        card when the log has neither."""
        cpu_count = sum(1 for la in profile.layers if la.target.value == "CPU")
        if F.has_layer_times(profile):
            what = "ESTIMATED time" if not profile.measured else "time"
            largest = F.part_us(max(la.time_us or 0.0 for la in profile.layers))
            value = None
        elif not profile.measured and any(F.layer_cycles(la) for la in profile.layers):
            what = "ESTIMATED cycles (max of DDR and NPU, no time)"
            largest = f"{max(F.layer_cycles(la) or 0 for la in profile.layers):,} cycles"
            value = F.layer_cycles
        else:
            why = (
                "the log (Time column removed)"
                if profile.measured
                else f"the log: {escape(V.PLACEMENT_ONLY)}"
            )
            return (
                f'<div class="card note">{len(profile.layers)} layers: per-layer times not in '
                f"{why}; see the layer table below.</div>"
            )
        return (
            f'<div class="card"><h3>Layer {what} in execution order</h3>'
            f'<p class="note">{len(profile.layers)} layers, tallest bar {largest}; '
            f"colour = bound; red marks under the axis = CPU layers ({cpu_count}). "
            "Click a bar to find its row.</p>"
            f"{C.timeline_svg(profile, row_prefix, value)}{C.bound_legend(profile)}</div>"
        )

    def _header(self, profile: Profile) -> str:
        chips = [f'<span class="chip"><b>{escape(p)}</b></span>' for p in F.summary_parts(profile)]
        chips += [
            f'<span class="chip">{escape(text)}</span>'
            for text in (F.frames_text(profile), F.details_text(profile))
            if text
        ]
        note = F.kind_note(profile)
        banner = f'<div class="estimate">{escape(note)}</div>' if note else ""
        verdict = F.verdict_text(profile)
        if verdict:
            level = F.verdict_level(profile)
            banner = f'<div class="verdict {level}">{escape(verdict)}</div>{banner}'

        gaps = F.gaps_note(profile)
        gaps_html = f'<p class="note">{escape(gaps)}</p>' if gaps else ""
        win = F.biggest_win(profile)
        if win:
            gaps_html += f'<p class="win">{escape(win)}</p>'
        return (
            f'<div class="card"><h2>{escape(F.profile_title(profile))}</h2>{banner}'
            f'<div class="chips">{"".join(chips)}</div>{gaps_html}{C.bound_stack(profile)}</div>'
        )

    def _findings(self, profile: Profile, row_prefix: str) -> str:
        items = [
            self._finding(n, f, profile, row_prefix) for n, f in enumerate(profile.findings, 1)
        ]
        head = F.advice_head(profile)
        return f'<div class="card"><h3>{escape(head)}</h3>{"".join(items)}</div>'

    def _finding(self, number: int, finding: Finding, profile: Profile, row_prefix: str) -> str:
        sev = escape(finding.severity.value)
        saving = F.saving_text(finding, profile)
        if saving:
            saving = f'<span class="saving">{escape(saving)}</span>'
        links = ", ".join(
            f'<a href="#{row_prefix}{i}" data-row="{row_prefix}{i}">{i}</a>'
            for i in finding.layer_ids[:30]
        )
        if len(finding.layer_ids) > 30:
            links += f" +{len(finding.layer_ids) - 30} more"
        extra = []
        if finding.layer_ids:
            extra.append(f"<p>Layers: {links}</p>")
        evidence = F.evidence_text(finding)
        if evidence:
            extra.append(f'<p class="note">{escape(evidence[:1].upper() + evidence[1:])}</p>')
        # (what backs the advice, one click away: the cards above the charts stay short)
        behind, named = [], []
        if finding.estimate:
            behind.append(f'<p class="note">Estimate: {escape(finding.estimate)}</p>')
            named.append("estimate")
        if finding.source:
            behind.append(f'<p class="note">Source: {linked(finding.source)}</p>')
            named.append("sources")
        doc = rule_doc(finding.code)
        if doc:
            behind.append(f"<pre>{escape(doc)}</pre>")
            named.append(f"about {escape(finding.code)}")
        if behind:
            summary = ", ".join(named)
            extra.append(
                f"<details><summary>{summary[:1].upper() + summary[1:]}</summary>"
                f"{''.join(behind)}</details>"
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
        """Every layer, sortable and filterable; columns the log leaves empty are left out
        (so "Fallback" shows only when a warning names a layer; the row's tooltip repeats it)."""
        columns = [
            (head, kind, [get(la) for la in profile.layers])
            for head, kind, get in _layer_columns(profile)
        ]
        columns = [
            c
            for c in columns
            if any(v not in (None, "") for v in c[2])
            and (c[0] != "Bound" or any(la.bound is not Bound.UNKNOWN for la in profile.layers))
        ]
        rows = [
            f'<tr id="{row_prefix}{layer.id}"'
            + (' class="cpu"' if layer.target is Target.CPU else "")
            + (f' title="fallback: {escape(layer.fallback)}"' if layer.fallback else "")
            + ">"
            + "".join(_cell(kind, values[i]) for _, kind, values in columns)
            + "</tr>"
            for i, layer in enumerate(profile.layers)
        ]
        head = "".join(f"<th>{escape(h)}</th>" for h, _, _ in columns)
        weak = (
            f'<p class="note">{escape(V.WEAK_NOTE)}</p>'
            if any(la.bound_weak for la in profile.layers)
            else ""
        )
        return (
            f'<div class="card"><h3>Layers</h3>{weak}<div class="tablebar">'
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
        head = F.footer_head(report, profile)
        body = f"<ul>{''.join(items)}</ul>" if items else ""
        return f'<div class="card note">{escape(head)}{body}</div>'
