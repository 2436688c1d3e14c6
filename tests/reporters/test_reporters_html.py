"""HTML: one self-contained file, escaped, with one bar per layer, and small."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

import rknnprof.rules as rules
from rknnprof.model import Report, Severity
from rknnprof.rules.base import Rule

from .report_samples import HAND_LAYERS, HAND_PROFILE, HAND_REPORT, NO_LAYERS_REPORT, render


def big_profile(n: int = 168):
    """``n`` layers cycling through the hand-built ones, with long names like corpus 36."""
    layers = tuple(
        replace(
            HAND_LAYERS[i % len(HAND_LAYERS)],
            id=i + 1,
            full_name=f"Conv:/model.{i}/m/m.0/cv2/conv/Conv_with_a_long_tail_{i}",
        )
        for i in range(n)
    )
    return replace(HAND_PROFILE, layers=layers)


def test_self_contained_no_network() -> None:
    html = render("html", HAND_REPORT)
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "@import" not in html and "url(" not in html
    assert html.count("<script>") == 1 and html.count("<style>") == 1


def test_one_bar_per_layer_and_cpu_marks() -> None:
    html = render("html", HAND_REPORT)
    assert html.count('class="layer-bar ') == 12
    assert html.count('class="cpu-mark"') == 3  # InputOperator, Transpose, OutputOperator
    assert html.count('<tr id="p0-L') == 12
    # scatter: 12 layers - 6 with 0/0/0 = 6 points; Split and Concat have NPU 0 (pinned)
    assert html.count('<circle class="pt ') == 6
    assert "6 layers with 0/0/0 cycles" in html and "2 with one side 0" in html


def test_log_text_is_escaped() -> None:
    evil = "Conv:<script>alert('x')</script>&<b>"
    profile = replace(
        HAND_PROFILE,
        layers=(replace(HAND_LAYERS[1], full_name=evil),) + HAND_LAYERS[2:],
        model_name="<img src=x onerror=alert(1)>",
    )
    html = render("html", Report((profile,)))
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;&amp;&lt;b&gt;" in html
    assert "&lt;&amp;&gt;" in html  # the finding message's "<&>"


def test_rule_doc_shown_when_the_rule_is_known(monkeypatch: pytest.MonkeyPatch) -> None:
    def check(profile, context):
        """What it finds: layers on the CPU between NPU layers <here>."""
        return ()

    rule = Rule("RKN001", "cpu-fallback", Severity.ERROR, "CPU fallback", check)
    monkeypatch.setattr(rules, "RULES", (rule,))
    html = render("html", HAND_REPORT)
    # (behind one click, with the estimate and the sources: the cards stay short)
    assert "<summary>Estimate, sources, about RKN001</summary>" in html
    assert "layers on the CPU between NPU layers &lt;here&gt;" in html
    assert "about RKN010" not in html  # unknown code: no doc, no crash


def test_168_layers_stay_well_under_a_megabyte() -> None:
    html = render("html", Report((big_profile(168),)))
    assert html.count('class="layer-bar ') == 168
    assert len(html.encode()) < 400_000


def test_estimate_and_no_layer_profiles() -> None:
    html = render("html", NO_LAYERS_REPORT)
    assert html.count('class="estimate"') == 4
    assert "ESTIMATE: build-time table" in html and "Layer ESTIMATED cycles" in html
    assert html.count('class="layer-bar ') == 3


def test_a_log_of_failures_only_shows_them_and_why(tmp_path) -> None:
    # exit 3 writes its HTML too (docs/errors.md): it said only "No profiles in this report."
    from click.testing import CliRunner

    from rknnprof.cli import cli

    log = tmp_path / "dmesg.txt"
    log.write_text(
        "[  605.267268] RKNPU: job timeout, flags: 0x0, irq status: 0x0, raw status: 0x0, "
        "require mask: 0x300, task counter: 0x0, elapsed time: 6268640us\n"
        "E RKNN: failed to submit!, op id: 1, op name: Conv:<b>x</b>, flags: 0x1\n",
        encoding="utf-8",
    )
    out = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["analyze", "-f", "html", "-o", str(out), str(log)])
    assert result.exit_code == 3
    html = out.read_text(encoding="utf-8")
    assert "<h3>Failures</h3>" in html
    assert "line 1: the RKNPU kernel driver gave up on an NPU job (job timeout)" in html
    assert '<a href="https://github.com/rockchip-linux/rknn-toolkit2/issues/320">' in html
    assert "Conv:&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html  # the log's text
    nothing = tmp_path / "hello.txt"
    nothing.write_text("hello\nworld\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["analyze", "-f", "html", "-o", str(out), str(nothing)])
    assert result.exit_code == 3
    assert "No profiles in this report: no RKNN profile data in 2 line(s)" in out.read_text(
        encoding="utf-8"
    )
