"""Terminal report (``--format table``): rich tables sized to the terminal.

Per profile: the source on one line (the middle of a long path is cut, never wrapped), a
summary readable in one second (platform, total, NPU/CPU split, share of time per bound), the
layer table with an inline share bar, the op-type table, the findings as numbered advice with
the time at stake, and the skipped rows and warnings. Wording and numbers come from
``_facts`` and ``_views``, shared with the Markdown and HTML reports.

Width: below 100 columns the output-shape column is dropped and bars shrink; names are cut in
the middle (``Conv:/model.22/…/conv/Conv``) to fit. With ``color=False`` the console has no colour
system at all, so the text is plain and aligned (golden files are written that way).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, TextIO

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from rknnprof.model import Bound, Profile, Report
from rknnprof.reporters import _facts as F
from rknnprof.reporters import _views as V
from rknnprof.reporters._escape import terminal, terminal_text
from rknnprof.reporters._text import shorten_all, write_stripped
from rknnprof.reporters.base import RenderOptions, Reporter, console_width
from rknnprof.reporters.text_table import Spec, table_lines

if TYPE_CHECKING:
    from rich.table import Table

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
"""From this many columns on, the layer table shows output shapes."""
MAX_SKIPPED_SHOWN = 5

VERDICT_STYLE = {"ok": "green", "warn": "bold yellow", "bad": "bold red"}
"""How the verdict line (``_facts.verdict_text``) is coloured by its level."""


def _bar_width(width: int) -> int:
    return 20 if width >= 140 else (12 if width >= WIDE else 8)


EIGHTHS = " ▏▎▍▌▋▊▉"
"""A bar's last cell by how many eighths of it are filled (0: none)."""


def bar_text(share: float, largest: float, width: int) -> str:
    """A bar of ``share`` on a scale where ``largest`` fills ``width`` cells, to an eighth of a
    cell: the blocks ``rich.bar.Bar(size=largest, begin=0, end=share, width=width)`` draws."""
    if share <= 0:
        return ""
    full, rest = divmod(int(width * 8 * share / largest), 8)
    return "█" * full + (EIGHTHS[rest] if rest else "")


def rich_table(specs: list[Spec], rows: list[list[Text]]) -> Table:
    """The table as a rich ``Table`` (the box of :func:`new_table`; rich shrinks columns that
    do not fit the width)."""
    table = new_table()
    for spec in specs:
        table.add_column(
            spec.head,
            justify=spec.justify,
            no_wrap=True,
            width=spec.width,
            min_width=spec.min_width,
            max_width=spec.max_width,
            overflow="ellipsis",
        )
    for cells in rows:
        table.add_row(*cells)
    return table


def new_table() -> Table:
    """The box style of every terminal table (analyze, compare, check): a rule under the
    head, no outer edges."""
    from rich import box
    from rich.table import Table

    return Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        expand=False,
    )


def fit_parts(parts: list[str], width: int, sep: str = " · ") -> list[str]:
    """Join ``parts`` with ``sep`` into lines of at most ``width`` characters, breaking only
    between parts (a part longer than the width gets a line of its own and wraps there)."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def _head(column: V.Column) -> str:
    return f"{column.head} {column.unit}" if column.unit else column.head


class TableReporter(Reporter):
    name = "table"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        buffer = io.StringIO()
        console = Console(
            file=buffer,
            width=console_width(options.width),
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
        placed = {p.source.path for p in report.profiles}
        for warning in (w for w in report.warnings if w.path not in placed):
            where = f"{warning.path}:{warning.line}" if warning.line else warning.path
            console.print(terminal_text(f"Warning: {where}: {warning.message}", "yellow"))
        write_stripped(out, buffer.getvalue())

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
        prefix = f"[{index + 1}/{count}] " if count > 1 else ""
        title = F.profile_title(profile, width, prefix)
        console.print(terminal_text(title, "bold"), no_wrap=True, overflow="ellipsis")
        verdict = F.verdict_text(profile)
        if verdict:
            console.print(terminal_text(verdict, VERDICT_STYLE[F.verdict_level(profile)]))
        note = F.kind_note(profile)
        if note:
            console.print(terminal_text(note, "bold yellow"))
        for line in fit_parts(F.summary_parts(profile), width):
            console.print(terminal_text(line))
        bounds = F.bound_items(profile)
        if bounds:
            bound_line = Text(F.bound_head(profile) + " ")
            for i, (bound, share) in enumerate(bounds):
                bound_line.append("  " if i else "")
                bound_line.append(
                    f"{F.BOUND_LABEL[bound]} {F.fmt_pct(share)}", style=BOUND_STYLE[bound]
                )
            console.print(bound_line)
        win = F.biggest_win(profile)
        if win:
            console.print(terminal_text(win, "bold green"))
        for extra in (F.frames_text(profile), F.gaps_note(profile), F.details_text(profile)):
            for line in fit_parts(extra.split(" · ") if extra else [], width):
                console.print(terminal_text(line, "dim"))
        for view in (
            V.layer_table(profile, options.top),
            V.op_table(profile),
            V.waterfall_table(profile),
        ):
            if view is not None:
                console.print()
                console.print(self._view(view, width))
        if profile.findings:
            console.print()
            console.print(self._findings(profile))
        if F.footer_head(report, profile):
            console.print()
            console.print(self._footer(report, profile))

    def _view(self, view: V.TableView, width: int) -> RenderableType:
        specs, rows = self.layout(view, width)
        heading: list[RenderableType] = [terminal_text(view.title, "bold")]
        if view.note:
            heading.append(terminal_text(view.note, "dim"))
        lines = table_lines(specs, rows, width)
        if lines is None:  # too wide at its columns' widths: rich's Table shrinks them
            return Group(*heading, rich_table(specs, rows))
        body = Text("\n", no_wrap=True).join(lines)  # one renderable: rich's work per line once
        return Group(*heading, body)

    def layout(self, view: V.TableView, width: int) -> tuple[list[Spec], list[list[Text]]]:
        """The columns of ``view`` at ``width`` and its rows' cells."""
        columns = [c for c in view.columns if c.key not in ("output", "basis") or width >= WIDE]
        bar_width = _bar_width(width)
        widths = {
            c.key: max([len(_head(c)), *(len(cell) for cell in c.cells)])
            for c in columns
            if c.key not in ("name", "bar")
        }
        if "op" in widths:
            widths["op"] = min(widths["op"], 16 if view.layers else 24)
        if "output" in widths:
            widths["output"] = min(widths["output"], 22)
        if "workload" in widths:
            widths["workload"] = min(widths["workload"], 22)
        if "basis" in widths:
            widths["basis"] = min(widths["basis"], 48)
        fixed = sum(widths.values()) + (bar_width if view.column("bar") else 0)
        # each column but the last is followed by one padding and one divider blank
        name_width = max(12, min(70, width - fixed - 2 * (len(columns) - 1) - 1))
        specs = [
            Spec("", "left", bar_width, None, None)
            if c.key == "bar"
            else Spec(c.head, "left", None, None, name_width)
            if c.key == "name"
            else Spec(
                _head(c), "right" if c.right else "left", None, min(widths[c.key], 6), widths[c.key]
            )
            for c in columns
        ]
        largest = max(view.shares, default=0.0) or 1.0
        name_column = view.column("name")
        names = (
            shorten_all([terminal(cell) for cell in name_column.cells], name_width)
            if name_column is not None
            else []
        )
        rows: list[list[Text]] = []
        for row in range(len(columns[0].cells)):
            cells: list[Text] = []
            for c in columns:
                if c.key == "bar":
                    cells.append(self._bar(view, row, largest, bar_width))
                elif c.key == "name":
                    cells.append(Text(names[row]))
                elif c.key == "bound":
                    cells.append(Text(c.cells[row], style=BOUND_STYLE[view.layers[row].bound]))
                elif view.cpu_rows and c.key == "cpu_time_us" and view.cpu_rows[row]:
                    cells.append(Text(c.cells[row], style="red"))
                else:  # text from the log: never read as rich markup
                    cells.append(terminal_text(c.cells[row]))
            rows.append(cells)
        return specs, rows

    @staticmethod
    def _bar(view: V.TableView, row: int, largest: float, width: int) -> Text:
        if view.layers:
            color = BOUND_BAR_COLOR[view.layers[row].bound]
        else:
            color = "red" if view.cpu_rows and view.cpu_rows[row] else "cyan"
        return Text(bar_text(view.shares[row], largest, width), style=color)

    def _findings(self, profile: Profile) -> RenderableType:
        parts: list[RenderableType] = [Text(F.advice_head(profile), style="bold")]
        for number, finding in enumerate(profile.findings, 1):
            if number > 1:
                parts.append(Text(""))  # a blank line between findings: each reads as a block
            line = Text(f"{number:>2}. ")
            line.append(finding.code, style="bold")
            line.append(" · ")
            line.append(
                finding.severity.value, style=SEVERITY_STYLE.get(finding.severity.value, "")
            )
            line.append(terminal(f" · {finding.name}"))
            saving = F.saving_text(finding, profile)
            if saving:
                line.append(f" · {saving}", style="green")
            parts.append(line)
            message = terminal_text(finding.message)
            layers = F.finding_layers_text(finding.layer_ids)
            if layers:
                message.append(f" [{layers}]", style="dim")
            parts.append(Padding(message, (0, 0, 0, 4)))
            if finding.fix:
                parts.append(Padding(terminal_text(f"fix: {finding.fix}", "italic"), (0, 0, 0, 4)))
            evidence = F.evidence_text(finding)
            if evidence:
                parts.append(Padding(terminal_text(evidence, "dim"), (0, 0, 0, 4)))
        return Group(*parts)

    def _footer(self, report: Report, profile: Profile) -> RenderableType:
        warnings = F.warnings_for(report, profile)
        skipped = profile.skipped_rows
        style = "yellow" if skipped or warnings else "dim"
        head = terminal_text(F.footer_head(report, profile), style)
        lines: list[RenderableType] = [head]
        lines += [
            Padding(terminal_text(f"skipped line {row.line}: {row.reason}", "dim"), (0, 0, 0, 2))
            for row in skipped[:MAX_SKIPPED_SHOWN]
        ]
        if len(skipped) > MAX_SKIPPED_SHOWN:
            more = len(skipped) - MAX_SKIPPED_SHOWN
            lines.append(Text(f"  … {more} more skipped rows (see --format json)", style="dim"))
        for warning in warnings:
            where = f"line {warning.line}: " if warning.line else ""
            lines.append(
                Padding(terminal_text(f"Warning: {where}{warning.message}", "yellow"), (0, 0, 0, 2))
            )
        return Group(*lines)
