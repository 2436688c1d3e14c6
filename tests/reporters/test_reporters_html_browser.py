"""The HTML report in a real headless Chromium: the JS runs without errors, the charts draw.

Skips when no ``chromium`` (Debian package) or ``chromium-browser``/``google-chrome`` is on PATH.
Uses corpus 36 (168 layers) when the parser is available, else a 168-layer hand-built profile.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rknnprof.model import Report

from .report_samples import HAND_REPORT, render
from .test_reporters_html import big_profile

BROWSER = next(
    (shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)),
    None,
)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no chromium on PATH (apt-get install chromium)"
)


def _flags(tmp_path: Path) -> list[str]:
    return [
        BROWSER,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
    ]


def dump_dom(html: str, tmp_path: Path) -> tuple[str, str]:
    page = tmp_path / "report.html"
    page.write_text(html, encoding="utf-8")
    proc = subprocess.run(
        [*_flags(tmp_path), "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=90
    )
    return proc.stdout, proc.stderr


def _report_168() -> tuple[Report, int]:
    """Corpus 36 (168 layers, read with awk) through the real parser, else a hand-built one."""
    try:
        from conftest import corpus_file

        from rknnprof.api import analyze

        return analyze([str(corpus_file("36_"))]), 168
    except (ImportError, pytest.skip.Exception):
        return Report((big_profile(168),)), 168


def test_charts_draw_and_js_runs_without_errors(tmp_path: Path) -> None:
    report, layers = _report_168()
    dom, log = dump_dom(render("html", report), tmp_path)
    body = re.search(r"<body[^>]*>", dom)
    assert body, dom[:500]
    assert 'data-ready="1"' in body.group(0), "inline JS did not finish"
    assert "data-js-error" not in body.group(0), body.group(0)
    assert not re.search(r"Uncaught|CONSOLE\(\d+\)\].*Error", log), log[-2000:]
    assert len(re.findall(r'<rect class="layer-bar ', dom)) == layers
    assert len(re.findall(r'<tr id="p0-L\d+"', dom)) == layers


def test_filter_box_and_sorting_exist_in_the_live_dom(tmp_path: Path) -> None:
    dom, _ = dump_dom(render("html", HAND_REPORT), tmp_path)
    assert 'id="p0-filter"' in dom and 'data-filter="p0-filter"' in dom
    assert "12 of 12 layers" in dom
