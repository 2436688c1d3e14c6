"""Markdown: GitHub tables parse (markdown-it with tables) and log text cannot break them."""

from __future__ import annotations

import re
from dataclasses import replace

from markdown_it import MarkdownIt

from rknnprof.model import Report

from .report_samples import HAND_PROFILE, HAND_REPORT, NO_LAYERS_REPORT, render


def _html(text: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(text)


def _tables(html: str) -> list[str]:
    return re.findall(r"<table>.*?</table>", html, flags=re.S)


def test_tables_render_with_the_right_rows() -> None:
    html = _html(render("markdown", HAND_REPORT))
    tables = _tables(html)
    assert len(tables) == 2  # top layers, op types
    top_rows = re.findall(r"<tr>", tables[0])
    assert len(top_rows) == 1 + 12  # header + 12 layers
    assert len(re.findall(r"<tr>", tables[1])) == 1 + 10  # header + 10 op types
    # every body row has the header's 8 cells, so no name broke a row
    for row in re.findall(r"<tr>(.*?)</tr>", tables[0], flags=re.S)[1:]:
        assert row.count("<td") == 8
    assert "Transpose:/model.22/dfl/Transpose|a" in tables[0]  # the escaped pipe survives


def test_log_text_is_escaped() -> None:
    html = _html(render("markdown", HAND_REPORT))
    assert "<&>" not in html and "&lt;&amp;&gt;" in html
    hostile = replace(
        HAND_PROFILE,
        layers=(replace(HAND_PROFILE.layers[1], full_name="Conv:<script>alert(1)</script>|x"),),
        findings=(),
    )
    html = _html(render("markdown", Report((hostile,))))
    assert "<script>" not in html


def test_findings_are_a_numbered_list() -> None:
    html = _html(render("markdown", HAND_REPORT))
    ol = re.search(r"<ol>(.*?)</ol>", html, flags=re.S)
    assert ol and ol.group(1).count("<li>") == 3
    assert "RKN001" in ol.group(1) and "saves ~2,835 us (24.3%)" in ol.group(
        1
    )  # of the log's 11,650 us


def test_estimates_and_no_layer_profiles() -> None:
    text = render("markdown", NO_LAYERS_REPORT)
    assert text.count("> [!WARNING]") == 4
    assert "layers by ESTIMATED cycles" in text and "NPU cyc" in text
    assert len(_tables(_html(text))) == 2  # ranking op table + estimated top layers


def test_a_weak_bound_label_keeps_its_mark() -> None:
    """The Markdown printed the ``? = weak label`` key but no ``?`` on the labels (the
    terminal shows ``compute?``, the JSON ``bound_weak``)."""
    profile = HAND_REPORT.profiles[0]
    weak = replace(profile.layers[0], bound_weak=True)
    report = replace(HAND_REPORT, profiles=(replace(profile, layers=(weak, *profile.layers[1:])),))
    text = render("markdown", report, top=50)
    row = next(line for line in text.splitlines() if line.startswith(f"| {weak.id} |"))
    assert row.rstrip().endswith(f"{weak.bound.value}? |")
    assert "? = weak label" in text
