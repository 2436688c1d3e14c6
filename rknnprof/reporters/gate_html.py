"""HTML pages for ``compare`` and ``check`` (``-f html`` / ``-o *.html``): one self-contained
file each, no script, no network request; the same tables as the Markdown views.

Every piece of text from a log or a budgets file is escaped; verdicts are words and colours, not
emoji (which need a font the reader may lack). Numbers and wording come from
:mod:`~rknnprof.reporters.compare_views` and :mod:`~rknnprof.reporters.check_views`, so the
page says what the terminal says.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TextIO

from rknnprof import __version__
from rknnprof.reporters import check_views as K
from rknnprof.reporters import compare_views as V
from rknnprof.reporters._escape import html as escape

if TYPE_CHECKING:
    from rknnprof.budgets import CheckResult
    from rknnprof.compare import CompareResult, ProfileComparison
    from rknnprof.reporters.base import RenderOptions

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}code{font-size:.92em}
table{border-collapse:collapse;margin:.6em 0 1.2em}caption{text-align:left;font-weight:600}
th,td{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.name{word-break:break-all}.note{background:#fff4d6;padding:.4em .8em;border-radius:4px}
.up{color:#b00020}.down{color:#1b7a2f}.partial{color:#8a6100}.pass{color:#1b7a2f}.fail{color:#b00020;font-weight:600}
.warn{color:#9a6700;font-weight:600}
.inconclusive{color:#777}footer{color:#777;font-size:.85em;margin-top:2em}
p,h1,h2,h3,td code{overflow-wrap:anywhere}td code.name{white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}
"""


def _page(title: str, body: Iterable[str], out: TextIO) -> None:
    out.write(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width,initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
    )
    for part in body:
        out.write(part)
    out.write(f"<footer>rknnprof {escape(__version__)}</footer>\n</body>\n</html>\n")


def _table(
    caption: str, heads: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[bool]
) -> str:
    """A ``<table>``; ``rows`` hold already-escaped cell HTML."""

    def cls(i: int) -> str:
        return ' class="num"' if numeric[i] else ""

    head = "".join(f"<th{cls(i)}>{escape(h)}</th>" for i, h in enumerate(heads))
    body = "".join(
        "<tr>" + "".join(f"<td{cls(i)}>{c}</td>" for i, c in enumerate(row)) + "</tr>\n"
        for row in rows
    )
    return (  # in its own sideways-scrolling box: a narrow screen never scrolls the page
        f'<div class="scroll"><table>\n<caption>{escape(caption)}</caption>\n'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table></div>\n"
    )


def _warnings(warnings: Iterable[str]) -> str:
    return "".join(f'<p class="note">warning: {escape(w)}</p>\n' for w in warnings)


def comparison_html(comp: ProfileComparison, top: int, level: int = 2) -> str:
    """One model's comparison under an ``<h{level}>`` headline: the largest layer changes and
    the op types."""
    trend = "up" if (comp.delta_us or 0) > 0 else "down"
    if comp.unjudged:  # a total of the rows shown, or damaged: neither faster nor slower
        trend = "partial"
    parts = [f'<h{level} class="{trend}">{escape(V.headline(comp))}</h{level}>\n']
    if comp.advice:
        items = "".join(f"<li>{escape(V.advice_line(o))}</li>" for o in comp.advice)
        parts.append(f"<p><b>{escape(V.ADVICE_TITLE)}</b></p>\n<ul>{items}</ul>\n")
    shown = V.changed_layers(comp)[:top]
    if comp.layers:
        parts.append(f"<p>{escape(V.summary_counts(comp))}</p>\n")
    if comp.layers and not shown:
        parts.append(f"<p>Largest layer changes: {escape(V.no_layer_changed(comp))}.</p>\n")
    elif comp.layers:
        layer_rows = [
            (
                f'<code class="name">{escape(d.name)}</code>',
                escape(d.op_type),
                V.us(d.base_time_us),
                V.us(d.current_time_us),
                V.layer_delta_us(d),
                V.pct(d.delta_pct),
                escape(V.change_note(d)),
            )
            for d in shown
        ]
        parts.append(
            _table(
                f"Largest layer changes (top {top})",
                ("Layer", "Op", "Base us", "Current us", "Δ us", "Δ %", "Note"),
                layer_rows,
                (False, False, True, True, True, True, False),
            )
        )
    rows = [
        (
            escape(o.op_type),
            f"{o.base_calls}→{o.current_calls}",
            V.us(o.base_time_us),
            V.us(o.current_time_us),
            V.us(o.delta_us, True),
            V.pct(o.delta_pct),
        )
        for o in comp.op_types[:top]
    ]
    if rows:  # (an RKLLM run has none: its rates are the headline)
        parts.append(
            _table(
                "Op types",
                ("Op type", "Calls", "Base us", "Current us", "Δ us", "Δ %"),
                rows,
                (False, True, True, True, True, True),
            )
        )
    return "".join(parts)


def render_compare_html(result: CompareResult, out: TextIO, options: RenderOptions) -> None:
    """``rknnprof compare -f html``."""
    head = (
        f"<h1>rknnprof compare</h1>\n<p><code>{escape(result.base_path)}</code> → "
        f"<code>{escape(result.current_path)}</code></p>\n"
    )
    body = [head, _warnings(result.warnings)]
    body += [comparison_html(comp, options.top) for comp in result.comparisons]
    _page(f"rknnprof compare: {result.current_path}", body, out)


def render_check_html(result: CheckResult, out: TextIO, options: RenderOptions) -> None:
    """``rknnprof check -f html``: the verdicts, then the changes against the baseline."""
    base = f" against <code>{escape(result.baseline_path)}</code>" if result.baseline_path else ""
    head = (
        f'<h1>rknnprof check: <span class="{result.overall}">{escape(result.overall)}</span>'
        f"</h1>\n<p><code>{escape(result.path)}</code> with "
        f"<code>{escape(result.budgets_path)}</code>{base}: {escape(K.counts(result))}</p>\n"
    )
    several = len({v.model for v in result.verdicts}) > 1
    heads = ("Verdict", "Budget", *(("Model",) if several else ()), "Result")
    rows = [
        (
            f'<span class="{v.status}">{escape(v.status)}</span>',
            f"<code>{escape(v.budget.display)}</code> ({escape(v.budget.level)})",
            *((escape(v.model),) if several else ()),
            escape(v.message),
        )
        for v in result.verdicts
    ]
    body = [head, _warnings(result.warnings), _table("Budgets", heads, rows, (False,) * len(heads))]
    if result.comparison is not None:
        body.append("<h2>Changes against the baseline</h2>\n")
        body += [
            comparison_html(comp, min(options.top, 10), level=3)
            for comp in result.comparison.comparisons
        ]
    _page(f"rknnprof check: {result.path}", body, out)
