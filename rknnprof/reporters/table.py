"""Terminal report (``--format table``): rich tables sized to the terminal.

Per profile: a summary readable in one second (what, platform, total, NPU/CPU split, share of
time per bound), versions, the slowest layers with an inline share bar, the op-type table, the
findings as numbered advice with the time at stake, and counts of skipped rows and warnings.

Width: below 100 columns the output-shape column is dropped and bars shrink; names are cut in
the middle (``Conv:/model.22/…/conv/Conv``) to fit. With ``color=False`` the console has no colour
system at all, so the text is plain and aligned (golden files are written that way).
"""

from __future__ import annotations

import io
from typing import TextIO

from rich import box
from rich.bar import Bar
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from rknnprof.model import Bound, Profile, Report
from rknnprof.reporters import _facts as F
from rknnprof.reporters.base import RenderOptions, Reporter
from rknnprof.rules import potential_saving_us

BOUND_STYLE: dict[Bound, str] = {
    Bound.BANDWIDTH: "magenta",
    Bound.COMPUTE: "cyan",
    Bound.BALANCED: "blue",
    Bound.CPU: "bold red",
    Bound.UNKNOWN: "dim",
}
BOUND_BAR_COLOR: dict[Bound, str] = {
    Bound.BANDWIDTH: "magenta",
    Bound.COMPUTE: "cyan",
    Bound.BALANCED: "blue",
    Bound.CPU: "red",
    Bound.UNKNOWN: "grey50",
}
SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "dim"}
WIDE = 100
"""From this many columns on, the top-layers table shows output shapes."""


def _time(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


class TableReporter(Reporter):
    name = "table"
    suffixes = (".txt",)
    description = "terminal tables (rich); plain aligned text without colour"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        buffer = io.StringIO()
        console = Console(
            file=buffer,
            width=options.width,
            color_system="auto" if options.color else None,
            force_terminal=True if options.color else None,
            no_color=not options.color,
            highlight=False,
            emoji=False,
            legacy_windows=False,
        )
        for index, profile in enumerate(report.profiles):
            if index:
                console.print()
            self._profile(console, report, profile, index, len(report.profiles), options)
        if not report.profiles:
            console.print("No profiles in this report.")
        unplaced = [
            w for w in report.warnings if w.path not in {p.source.path for p in report.profiles}
        ]
        for warning in unplaced:
            where = f"{warning.path}:{warning.line}" if warning.line else warning.path
            console.print(Text(f"warning: {where}: {warning.message}", style="yellow"))
        # rich pads every line to the console width; trailing blanks only make diffs noisy
        out.write("".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines()))

    # -- one profile -------------------------------------------------------------------------
    def _profile(
        self,
        console: Console,
        report: Report,
        profile: Profile,
        index: int,
        count: int,
        options: RenderOptions,
    ) -> None:
        width = console.width
        heading = F.profile_title(profile)
        if count > 1:
            heading = f"[{index + 1}/{count}] {heading}"
        console.print(Text(heading, style="bold"), overflow="fold")
        note = F.kind_note(profile)
        if note:
            console.print(Text(note, style="bold yellow"), overflow="fold")
        console.print(Text(" · ".join(F.summary_parts(profile))), overflow="fold")
        bounds = F.bound_parts(profile)
        if bounds:
            line = Text("bound: ")
            for i, (bound, us) in enumerate(
                (b, us) for b, us in F.time_by_bound(profile).items() if us > 0
            ):
                if i:
                    line.append("  ")
                line.append(bounds[i], style=BOUND_STYLE[bound])
            console.print(line, overflow="fold")
        meta = [profile.format]
        if F.versions_text(profile):
            meta.append(F.versions_text(profile))
        if profile.frames > 1 and profile.frame_times_us:
            p50 = F.percentile(profile.frame_times_us, 50)
            p90 = F.percentile(profile.frame_times_us, 90)
            meta.append(f"frame p50 {F.fmt_us(p50)} p90 {F.fmt_us(p90)}")
        console.print(Text(" · ".join(meta), style="dim"), overflow="fold")
        if profile.benchmark is not None:
            console.print(self._benchmark(profile))
        if profile.layers:
            console.print()
            console.print(self._top_layers(profile, options.top, width))
        ops, origin = F.op_table(profile)
        if ops:
            console.print()
            console.print(self._op_types(profile, ops, origin, width))
        if profile.findings:
            console.print()
            console.print(self._findings(profile))
        console.print()
        console.print(self._footer(report, profile))

    def _benchmark(self, profile: Profile) -> Text:
        bench = profile.benchmark
        assert bench is not None
        parts = []
        if bench.avg_time_ms is not None:
            parts.append(f"avg {bench.avg_time_ms:g} ms")
        if bench.avg_fps is not None:
            parts.append(f"{bench.avg_fps:g} FPS")
        if bench.run_times_ms:
            parts.append(
                f"{len(bench.run_times_ms)} runs {min(bench.run_times_ms):g}-"
                f"{max(bench.run_times_ms):g} ms"
            )
        if bench.warmup_times_ms:
            parts.append(f"{len(bench.warmup_times_ms)} warm-up")
        return Text("benchmark: " + " · ".join(parts))

    def _top_layers(self, profile: Profile, top: int, width: int) -> RenderableType:
        wide = width >= WIDE
        layers = F.top_layers(profile, top)
        estimated = not profile.measured
        title = f"Top {len(layers)} of {len(profile.layers)} layers by "
        title += "ESTIMATED time" if estimated else "time"
        table = Table(
            title=title,
            title_justify="left",
            title_style="bold",
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            padding=(0, 1, 0, 0),
            expand=False,
        )
        bar_width = 20 if width >= 140 else (12 if wide else 8)
        op_width = min(16, max((len(la.op_type) for la in layers), default=7))
        cells = {
            "ID": max([len(str(la.id)) for la in layers] + [2]),
            "Op type": max(op_width, 7),
            "Time": max([len(_time(la.time_us)) for la in layers] + [7]),
            "Share": 6,
            "bar": bar_width,
            "Bound": max([len(la.bound.value) for la in layers] + [5]),
        }
        shape_width = 0
        if wide:
            shape_width = min(
                22,
                max(
                    [
                        len(F.shape_text(la.output_shapes, la.output_shapes_truncated))
                        for la in layers
                    ]
                    + [6]
                ),
            )
            cells["Output"] = shape_width
        separators = 2 * len(cells)  # one divider blank + one padding blank per gap
        name_width = max(12, min(70, width - sum(cells.values()) - separators))
        table.add_column("ID", justify="right", no_wrap=True)
        table.add_column("Op type", no_wrap=True, max_width=cells["Op type"], overflow="ellipsis")
        table.add_column("Name", no_wrap=True, max_width=name_width)
        if wide:
            table.add_column("Output", no_wrap=True, max_width=shape_width, overflow="ellipsis")
        table.add_column("est. us" if estimated else "Time us", justify="right", no_wrap=True)
        table.add_column("Share", justify="right", no_wrap=True, min_width=6)
        table.add_column("", no_wrap=True, width=bar_width)
        table.add_column("Bound", no_wrap=True, min_width=cells["Bound"])
        largest = max((F.layer_share(la, profile) or 0.0 for la in layers), default=0.0) or 1.0
        for layer in layers:
            share = F.layer_share(layer, profile)
            style = BOUND_STYLE[layer.bound]
            row: list[RenderableType] = [
                str(layer.id),
                layer.op_type,
                F.shorten(layer.full_name or "", name_width),
            ]
            if wide:
                row.append(F.shape_text(layer.output_shapes, layer.output_shapes_truncated))
            row += [
                _time(layer.time_us),
                F.fmt_pct(share),
                Bar(
                    size=largest,
                    begin=0,
                    end=share or 0.0,
                    width=bar_width,
                    color=BOUND_BAR_COLOR[layer.bound],
                ),
                Text(layer.bound.value, style=style),
            ]
            table.add_row(*row)
        return table

    def _op_types(self, profile: Profile, ops, origin: str, width: int) -> RenderableType:
        bar_width = 20 if width >= 140 else (12 if width >= WIDE else 8)
        table = Table(
            title=f"Time by op type ({origin})",
            title_justify="left",
            title_style="bold",
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            padding=(0, 1, 0, 0),
        )
        table.add_column("Op type", no_wrap=True, max_width=24, overflow="ellipsis")
        table.add_column("Calls", justify="right")
        table.add_column("NPU us", justify="right")
        table.add_column("CPU us", justify="right")
        table.add_column("Share", justify="right")
        table.add_column("", width=bar_width, no_wrap=True)
        total = profile.total_time_us or sum(s.total_time_us for s in ops) or 1.0
        shares = [s.share if s.share is not None else s.total_time_us / total for s in ops]
        largest = max(shares, default=0.0) or 1.0
        for stat, share in zip(ops, shares, strict=True):
            table.add_row(
                stat.op_type,
                str(stat.calls),
                _time(stat.npu_time_us),
                Text(_time(stat.cpu_time_us), style="red" if stat.cpu_time_us else ""),
                F.fmt_pct(share),
                Bar(
                    size=largest,
                    begin=0,
                    end=share,
                    width=bar_width,
                    color="red" if stat.cpu_time_us else "cyan",
                ),
            )
        return table

    def _findings(self, profile: Profile) -> RenderableType:
        findings = profile.findings
        total = profile.total_time_us
        stake = potential_saving_us(findings, profile)  # no layer counted twice
        head = Text(
            f"Advice: {len(findings)} finding{'s' if len(findings) != 1 else ''}", style="bold"
        )
        if stake:
            head.append(f", up to {F.fmt_us(stake)} at stake", style="bold")
        parts: list[RenderableType] = [head]
        for number, finding in enumerate(findings, 1):
            line = Text(f"{number:>2}. ")
            line.append(finding.code, style="bold")
            line.append(" · ")
            line.append(
                finding.severity.value, style=SEVERITY_STYLE.get(finding.severity.value, "")
            )
            line.append(f" · {finding.name}")
            if finding.est_saving_us:
                share = f" ({F.fmt_pct(finding.est_saving_us / total)})" if total else ""
                line.append(f" · saves ~{F.fmt_us(finding.est_saving_us)}{share}", style="green")
            parts.append(line)
            message = Text(finding.message)
            layers = F.finding_layers_text(finding.layer_ids)
            if layers:
                message.append(f" [{layers}]", style="dim")
            parts.append(Padding(message, (0, 0, 0, 4)))
            if finding.fix:
                parts.append(Padding(Text(f"fix: {finding.fix}", style="italic"), (0, 0, 0, 4)))
        return Group(*parts)

    def _footer(self, report: Report, profile: Profile) -> RenderableType:
        warnings = F.warnings_for(report, profile)
        skipped = profile.skipped_rows
        head = Text(
            f"{len(skipped)} skipped row{'s' if len(skipped) != 1 else ''} · "
            f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}",
            style="yellow" if skipped or warnings else "dim",
        )
        lines: list[RenderableType] = [head]
        lines += [
            Padding(Text(f"skipped line {row.line}: {row.reason}", style="dim"), (0, 0, 0, 2))
            for row in skipped[:5]
        ]
        if len(skipped) > 5:
            lines.append(
                Text(f"  … {len(skipped) - 5} more skipped rows (see --format json)", style="dim")
            )
        for warning in warnings:
            where = f"line {warning.line}: " if warning.line else ""
            lines.append(
                Padding(Text(f"warning: {where}{warning.message}", style="yellow"), (0, 0, 0, 2))
            )
        return Group(*lines)
