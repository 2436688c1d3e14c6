"""``Layer.fallback`` in the reports: an HTML column + row tooltip, a CSV column, a JSON key."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

from rknnprof.model import Report, Target

from .report_samples import HAND_PROFILE, HAND_REPORT, render

REASON = (
    "cpu: input shape has exceeded the max limit, height(256) * width(2560) = 655360, "
    "required product no larger than 8192!"
)


def with_fallback() -> tuple[Report, int]:
    """The hand report with the CPU warning on its first non-IO CPU layer; that layer's id."""
    target = next(la for la in HAND_PROFILE.layers if la.target is Target.CPU and not la.is_io)
    layers = tuple(
        replace(la, fallback=REASON) if la is target else la for la in HAND_PROFILE.layers
    )
    return replace(HAND_REPORT, profiles=(replace(HAND_PROFILE, layers=layers),)), target.id


def test_html_shows_a_fallback_column_and_row_tooltip_only_when_present() -> None:
    assert "<th>Fallback</th>" not in render("html", HAND_REPORT)
    report, layer_id = with_fallback()
    html = render("html", report)
    assert "<th>Fallback</th>" in html
    escaped = REASON  # nothing to escape in this text
    (row,) = [line for line in html.splitlines() if line.startswith(f'<tr id="p0-L{layer_id}"')]
    assert f'title="fallback: {escaped}"' in row
    assert f'<td class="name" title="{escaped}">{escaped}</td>' in row
    assert html.count('title="fallback: ') == 1


def test_html_escapes_the_fallback_text() -> None:
    report, _ = with_fallback()
    layers = tuple(
        replace(la, fallback='cpu: a "quoted" <b>reason</b>') if la.fallback else la
        for la in report.profiles[0].layers
    )
    report = replace(report, profiles=(replace(report.profiles[0], layers=layers),))
    html = render("html", report)
    assert "<b>reason</b>" not in html
    assert "&quot;quoted&quot; &lt;b&gt;reason&lt;/b&gt;" in html


def test_csv_and_json_carry_the_field() -> None:
    report, layer_id = with_fallback()
    rows = list(csv.DictReader(io.StringIO(render("csv", report))))
    assert [r["fallback"] for r in rows if r["id"] == str(layer_id)] == [REASON]
    assert {r["fallback"] for r in rows if r["id"] != str(layer_id)} == {""}
    data = json.loads(render("json", report))
    fallbacks = {la["id"]: la["fallback"] for la in data["profiles"][0]["layers"]}
    assert fallbacks.pop(layer_id) == REASON
    assert set(fallbacks.values()) == {None}
