"""Renderers for :class:`~rknnprof.compare.CompareResult`: table (rich), json, markdown, csv
(the HTML page is :mod:`~rknnprof.reporters.gate_html`). Registered in
:mod:`~rknnprof.reporters.registry`; each is called as ``render(result, out, options)``.

Only formatting here; every number comes from :mod:`rknnprof.compare`.
"""

from __future__ import annotations

import csv
import json
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TextIO

from rknnprof.reporters._escape import csv_cell, markdown, markdown_code
from rknnprof.reporters._text import stripped_view
from rknnprof.reporters.base import RenderOptions, console_width
from rknnprof.units import frame_ms

if TYPE_CHECKING:
    from rknnprof.compare import AdviceOutcome, CompareResult, LayerDelta, ProfileComparison


# ---- text helpers ----------------------------------------------------------------------------


def us(value: float | None, signed: bool = False) -> str:
    """Microseconds as text: ``1,814`` / ``+710`` / ``-``."""
    if value is None:
        return "-"
    text = f"{value:+,.0f}" if signed else f"{value:,.0f}"
    return (
        text
        if abs(value - round(value)) < 0.05
        else (f"{value:+,.1f}" if signed else f"{value:,.1f}")
    )


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}%"


def change_note(d: LayerDelta) -> str:
    """``NPU→CPU``, ``INT8→FLOAT16``, ``ConvExSwish→ConvRelu``, ``added``… (what else changed
    besides the time)."""
    notes = []
    if d.status == "not-shown":
        notes.append("not shown in " + ("BASE" if d.base_time_us is None else "CURRENT"))
    elif d.status != "matched":
        notes.append(d.status)
    if d.target_changed:
        notes.append(f"{d.base_target}→{d.current_target}")
    if d.data_type_changed:
        notes.append(f"{d.base_data_type}→{d.current_data_type}")
    if d.op_type_changed:
        notes.append(f"{d.base_op_type}→{d.current_op_type}")
    return ", ".join(notes)


def layer_delta_us(d: LayerDelta) -> str:
    """The layer's change in us, ``-`` for a layer one log does not show (no change to tell)."""
    return "-" if d.status == "not-shown" else us(d.delta_us, True)


def headline(comp: ProfileComparison) -> str:
    model = f"{comp.model}: " if comp.model else ""
    if comp.llm_rates:
        return model + " · ".join(_llm_change(*rate) for rate in comp.llm_rates[:2])
    partial = f" — {'; '.join(comp.unjudged)}: not like for like" if comp.unjudged else ""
    return (
        f"{model}total {frame_ms(comp.base_total_us)} → {frame_ms(comp.current_total_us)} "
        f"({us(comp.delta_us, True)} us, {pct(comp.delta_pct)}){partial}"
    )


LLM_UNITS = {"r_s": "tokens/s", "_ms": "ms", "_mb": "MB"}
"""The unit of an RKLLM figure by its name's end (``decode_tokens_per_s``, ``init_ms``,
``peak_memory_mb``)."""


def _llm_change(name: str, base: float | None, current: float | None) -> str:
    """``decode 8.13 → 9.09 tokens/s (+11.8%)``."""
    label, unit = name.split("_", 1)[0], LLM_UNITS.get(name[-3:], "")
    b = f"{base:,.2f}" if base is not None else "-"
    c = f"{current:,.2f}" if current is not None else "-"
    change = f" ({(current - base) / base * 100:+.1f}%)" if base and current is not None else ""
    return f"{label} {b} → {c} {unit}{change}"


def summary_counts(comp: ProfileComparison) -> str:
    not_shown = (
        f"{len(comp.not_shown)} not shown (the log left them out), " if comp.not_shown else ""
    )
    return (
        f"{len(comp.layers)} layers: {len(comp.added)} added, {len(comp.removed)} removed, "
        f"{not_shown}{len(comp.target_changes)} changed target, "
        f"{len(comp.data_type_changes)} changed data type, "
        f"{len(comp.op_type_changes)} changed op type"
    )


ADVICE_TITLE = "Advice from BASE, checked against CURRENT"

VERDICT_WORDS = {
    "delivered": "delivered",
    "partly": "partly delivered",
    "more": "more than predicted",
    "not-made": "not made",
    "cannot-tell": "cannot tell",
}


def advice_line(o: AdviceOutcome) -> str:
    """``RKN070 activation-swap: delivered: promised 3,723 us (±40%), measured 3,701 us (99%);
    57 layer(s): …``: the verdict, the promise, the measurement and its basis."""
    head = f"{o.code} {o.name}: {VERDICT_WORDS.get(o.verdict, o.verdict)}"
    if o.predicted_fps_factor is not None:
        promise = f"promised {o.predicted_fps_factor:.2f}x the FPS"
        measured = f", measured {o.measured_fps_factor:.2f}x" if o.measured_fps_factor else ""
        return f"{head}: {promise}{measured}; {o.reason}"
    promise = f"promised {o.predicted_us:,.0f} us (±{o.uncertainty:.0%})"
    if o.verdict in ("not-made", "cannot-tell") or o.measured_us is None:
        return f"{head} ({promise}): {o.reason}"
    share = f" ({o.delivered_share:.0%})" if o.delivered_share is not None else ""
    return f"{head}: {promise}, measured {o.measured_us:,.0f} us{share}; {o.reason}"


# ---- table -----------------------------------------------------------------------------------


NO_LAYER_CHANGED = "no layer changed"
"""Said in place of the list of layer changes when every aligned layer kept its time, target and
data type (a run judged against itself)."""
MEDIANS_HELD = (
    "no layer's median changed, yet the frame total did: frames are slow in different layers "
    "each time (a layer's time is its median over the frames)"
)
"""Said instead when the total moved by 1 % or more all the same (per-frame spikes)."""


def no_layer_changed(comp: ProfileComparison) -> str:
    """What stands for the list of layer changes when none changed (:data:`MEDIANS_HELD` when
    the total moved anyway)."""
    return (
        MEDIANS_HELD
        if comp.delta_pct is not None and abs(comp.delta_pct) >= 1
        else NO_LAYER_CHANGED
    )


def changed_layers(comp: ProfileComparison) -> list[LayerDelta]:
    """The layers that changed (:attr:`LayerDelta.changed`), largest change first: a list of
    changes never holds ``+0 us +0.0%`` rows."""
    return [d for d in comp.layers if d.changed]


@stripped_view
def render_table(result: CompareResult, out: TextIO, options: RenderOptions) -> None:
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    from rknnprof.reporters._escape import terminal_text as T
    from rknnprof.reporters._text import fit_paths, shorten
    from rknnprof.reporters.table import new_table

    console = Console(
        file=out,
        width=console_width(options.width),
        color_system="auto" if options.color else None,
        highlight=False,
        force_terminal=options.color or None,
    )
    base, current = fit_paths(
        (result.base_path, result.current_path), console.width - len("compare  → ")
    )
    console.print(Text.assemble(("compare", "bold"), " ", T(f"{base} → {current}")), soft_wrap=True)
    for warning in result.warnings:
        console.print(Text.assemble(("Warning:", "yellow"), " ", T(warning)), soft_wrap=True)
    for comp in result.comparisons:
        style = "red" if (comp.delta_us or 0) > 0 else "green"
        if comp.unjudged:  # a total of the rows shown, or damaged: neither faster nor slower
            style = "yellow"
        console.print(T(headline(comp), style))
        if comp.advice:
            console.print(T(ADVICE_TITLE, "bold"))
            for outcome in comp.advice:  # (wrapped lines keep the indent)
                console.print(Padding(T(advice_line(outcome)), (0, 0, 0, 1), expand=False))
        shown = changed_layers(comp)[: options.top]
        if comp.layers:
            console.print(T(summary_counts(comp)))
        if comp.layers and not shown:
            console.print(T(f"Largest layer changes: {no_layer_changed(comp)}", "bold"))
        elif comp.layers:
            rows = [
                (
                    us(d.base_time_us),
                    us(d.current_time_us),
                    layer_delta_us(d),
                    pct(d.delta_pct),
                    change_note(d),
                )
                for d in shown
            ]
            heads = ("Base us", "Current us", "Δ us", "Δ %", "Note")
            widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(heads)]
            # like analyze: names are cut in the middle with "…" to fit, never folded mid-word
            name_width = max(12, min(70, console.width - sum(widths) - 2 * len(heads) - 1))
            console.print(T(f"Largest layer changes (top {options.top})", "bold"))
            table = new_table()
            table.add_column("Layer", no_wrap=True, max_width=name_width)
            for col in heads:
                table.add_column(col, justify="left" if col == "Note" else "right", no_wrap=True)
            for d, row in zip(shown, rows):
                table.add_row(T(shorten(d.name, name_width)), *row[:4], T(row[4]))
            console.print(table)
            moved = [d for d in comp.layers if d.target_changed or d.data_type_changed]
            if moved:  # (every one, past the table's top rows: with a heading of its own)
                console.print(T("Layers that changed target or data type", "bold"))
            for d in moved:
                console.print(
                    Text.assemble(T(change_note(d), "bold"), " ", T(d.name)), soft_wrap=True
                )
        if not comp.op_types:  # (an RKLLM run: its rates are the headline)
            continue
        console.print(T("Op types", "bold"))
        table = new_table()
        for col in ("Op type", "Calls", "Base us", "Current us", "Δ us", "Δ %"):
            table.add_column(col, justify="left" if col == "Op type" else "right", no_wrap=True)
        for o in comp.op_types[: options.top]:
            table.add_row(
                T(o.op_type),
                f"{o.base_calls}→{o.current_calls}",
                us(o.base_time_us),
                us(o.current_time_us),
                us(o.delta_us, True),
                pct(o.delta_pct),
            )
        console.print(table)


# ---- markdown --------------------------------------------------------------------------------


def render_markdown_comparison(comp: ProfileComparison, out: TextIO, top: int) -> None:
    """One comparison as Markdown (also used by ``check`` for its step summary)."""
    out.write(f"**{markdown(headline(comp))}**\n\n")
    if comp.advice:
        out.write(f"{ADVICE_TITLE}:\n\n")
        out.writelines(f"- {markdown(advice_line(outcome))}\n" for outcome in comp.advice)
        out.write("\n")
    shown = changed_layers(comp)[:top]
    if comp.layers:
        out.write(f"{summary_counts(comp)}\n\n")
    if comp.layers and not shown:
        out.write(f"Largest layer changes: {no_layer_changed(comp)}.\n\n")
    elif comp.layers:
        out.write("| Layer | Op | Base us | Current us | Δ us | Δ % | Note |\n")
        out.write("|---|---|--:|--:|--:|--:|---|\n")
        for d in shown:
            out.write(
                f"| {markdown_code(d.name)} | {markdown(d.op_type)} | {us(d.base_time_us)} | "
                f"{us(d.current_time_us)} | {layer_delta_us(d)} | {pct(d.delta_pct)} | "
                f"{markdown(change_note(d))} |\n"
            )
        out.write("\n")
    if not comp.op_types:  # (an RKLLM run: its rates are the headline)
        return
    out.write("| Op type | Calls | Base us | Current us | Δ us | Δ % |\n")
    out.write("|---|--:|--:|--:|--:|--:|\n")
    for o in comp.op_types[:top]:
        out.write(
            f"| {markdown(o.op_type)} | {o.base_calls}→{o.current_calls} | "
            f"{us(o.base_time_us)} | "
            f"{us(o.current_time_us)} | {us(o.delta_us, True)} | {pct(o.delta_pct)} |\n"
        )
    out.write("\n")


def render_markdown(result: CompareResult, out: TextIO, options: RenderOptions) -> None:
    out.write(f"## rknnprof compare\n\n`{result.base_path}` → `{result.current_path}`\n\n")
    for warning in result.warnings:
        out.write(f"> ⚠️ {markdown(warning)}\n\n")
    for comp in result.comparisons:
        render_markdown_comparison(comp, out, options.top)


# ---- json / csv ------------------------------------------------------------------------------


def _row(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def compare_to_dict(result: CompareResult) -> dict[str, Any]:
    from rknnprof import __version__

    comps = []
    for comp in result.comparisons:
        body = _row(comp)
        body["differences"] = list(comp.differences)
        body["layers"] = [_row(d) for d in comp.layers]
        body["op_types"] = [_row(o) for o in comp.op_types]
        body["advice"] = [_row(outcome) for outcome in comp.advice]
        for key in (
            "added",
            "removed",
            "not_shown",
            "target_changes",
            "data_type_changes",
            "op_type_changes",
        ):
            body[key] = [d.name for d in getattr(comp, key)]
        comps.append(body)
    return {
        "schema_version": 1,
        "rknnprof_version": __version__,
        "kind": "compare",
        "base": result.base_path,
        "current": result.current_path,
        "comparisons": comps,
        "warnings": list(result.warnings),
    }


def render_junit(result: CompareResult, out: TextIO, options: RenderOptions) -> None:
    """The total time and BASE's advice as JUnit test cases
    (:func:`rknnprof.reporters.junit.render_compare_junit`)."""
    from rknnprof.reporters.junit import render_compare_junit

    render_compare_junit(result, out, options.fail_over, options.expects)


def render_json(result: CompareResult, out: TextIO, options: RenderOptions) -> None:
    json.dump(compare_to_dict(result), out, indent=2, ensure_ascii=False, allow_nan=False)
    out.write("\n")


CSV_COLUMNS = (
    "model",
    "name",
    "op_type",
    "status",
    "matched_by",
    "base_id",
    "current_id",
    "base_time_us",
    "current_time_us",
    "delta_us",
    "delta_pct",
    "base_target",
    "current_target",
    "base_data_type",
    "current_data_type",
)


def render_csv(result: CompareResult, out: TextIO, options: RenderOptions) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for comp in result.comparisons:
        for d in comp.layers:
            row = _row(d)
            cells = ("" if row[c] is None else csv_cell(row[c]) for c in CSV_COLUMNS[1:])
            writer.writerow([csv_cell(comp.model or ""), *cells])
