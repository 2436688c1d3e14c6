"""Every HTML page at a phone's width (390 px) and a laptop's (1280 px), measured in headless
Chromium (issue #25): nothing wider than the viewport outside a box that scrolls sideways (a
source URL stays inside its card, a compare/check table scrolls in its own box), no text drawn
under 9 px (the roofline's and the scatter's SVG text at their on-screen scale), and no two
roofline labels over each other or over a point.

Set ``RKNNPROF_SCREENSHOTS=DIR`` to keep a PNG of each page at each width there, to look at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rknnprof.cli import cli
from tests.conftest import CORPUS, SAMPLES

from .html_layout import BROWSER, NO_BROWSER, measure

pytestmark = pytest.mark.skipif(BROWSER is None, reason=NO_BROWSER)

SAMPLE = str(SAMPLES / "yolov5s_rk3588_perf.txt")
FRAMES3 = str(SAMPLES / "yolov5s_rk3588_loglevel4_3frames.txt")
DEMO = str(Path(__file__).resolve().parent.parent / "data" / "app_timing" / "demo_eval_time.txt")
YOLOV8 = CORPUS / "01_toolkit2-rt-perfdetail_yolov8n-1920_rk3588_single-core.txt"
"""Corpus 01: RK3588, so four roofs (INT8 compute, DDR theoretical, achieved, this log's
fastest) that used to be labelled on top of each other; findings citing long URLs."""


def _html(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "-f", "html", "-q"], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def _budgets(tmp_path: Path) -> str:
    path = tmp_path / "rknnprof.yaml"
    path.write_text(
        "budgets:\n"
        "  - metric: layer_time_us\n    match: 'Conv:/model.2/m/m.0/cv2/conv/*'\n    max: 7000\n"
        "  - metric: total_time_us\n    max_increase: 1%\n"
    )
    return str(path)


PAGES = {
    "analyze-sample": lambda tmp: _html("analyze", SAMPLE),
    "analyze-corpus01": lambda tmp: _html("analyze", str(YOLOV8)),
    "analyze-waterfall": lambda tmp: _html("analyze", DEMO),
    "compare": lambda tmp: _html("compare", SAMPLE, FRAMES3),
    "check": lambda tmp: _html("check", SAMPLE, "--budgets", _budgets(tmp), "--baseline", FRAMES3),
}


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("page", list(PAGES))
def test_page_fits_reads_and_labels_apart(page: str, width: int, tmp_path: Path) -> None:
    if page == "analyze-corpus01" and not YOLOV8.is_file():
        pytest.skip(f"corpus log {YOLOV8.name} is absent (set RKNNPROF_CORPUS)")
    shots = os.environ.get("RKNNPROF_SCREENSHOTS")
    shot = Path(shots) / f"{page}-{width}.png" if shots else None
    found = measure(PAGES[page](tmp_path), width, tmp_path, shot)
    assert found["viewport"] == width
    assert found["page_width"] <= width, "the page scrolls sideways"
    assert found["wide"] == [], "wider than the screen outside a scroll box"
    assert found["small"] == [], "text under 9 px"
    assert found["overlaps"] == [], "roofline labels over each other or a point"


def test_the_checker_sees_what_it_must(tmp_path: Path) -> None:
    # positive control: a page with each defect is caught, so a clean result means something
    page = (
        "<!doctype html><html><body>"
        '<div style="overflow:hidden;width:200px"><a>https://example.org/'
        + "a"
        * 120
        + "</a></div>"
        '<svg class="roofline" viewBox="0 0 640 420" style="width:300px">'
        '<text x="10" y="20" style="font-size:11px">1e8</text>'
        '<text x="12" y="22" style="font-size:11px">1e-2</text>'
        '<circle cx="15" cy="18" r="4"/></svg>'
        "</body></html>"
    )
    found = measure(page, 390, tmp_path)
    assert any("example.org" in w for w in found["wide"])
    assert any(s.startswith("text") for s in found["small"])  # 11 units at 300/640: 5.2 px
    assert "1e8 / 1e-2" in found["overlaps"] and "1e8 over a point" in found["overlaps"]
