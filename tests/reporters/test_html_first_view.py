"""The HTML report's first screen in headless Chromium at 1280 px (issue #13 defect 7): the advice
above the charts, the Bound column visible without scrolling sideways, compute and NPU in
different colours, balanced and compute far apart.

A measuring script appended to the page writes what the browser laid out into ``<body>``
attributes; ``--dump-dom`` hands them back. ``RKNNPROF_SCREENSHOT=DIR`` also saves a screenshot
of the sample's report there, to look at.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from rknnprof.api import analyze

from .report_samples import render
from .test_reporters_html_browser import BROWSER, _flags

pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no chromium on PATH (apt-get install chromium)"
)
SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "yolov5s_rk3588_perf.txt"

MEASURE = """<script>
window.addEventListener("load", function () {
  function rgb(sel) {
    var el = document.querySelector(sel);
    return el ? getComputedStyle(el).backgroundColor : "";
  }
  var th = Array.from(document.querySelectorAll("table.layers th"))
    .find(function (h) { return h.textContent.trim().startsWith("Bound"); });
  var scroll = th.closest(".scroll");
  var advice = document.querySelector(".finding");
  var chart = document.querySelector("svg.timeline");
  var out = {
    boundRight: th.getBoundingClientRect().right,
    scrollRight: scroll.getBoundingClientRect().right,
    viewport: window.innerWidth,
    adviceFirst: !!(advice.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING),
    adviceTop: advice.getBoundingClientRect().top,
    compute: rgb(".sw.b-compute, i.b-compute"),
    balanced: rgb(".sw.b-balanced, i.b-balanced"),
    npu: rgb(".ops .npu"),
    win: (document.querySelector(".win") || {}).textContent || ""
  };
  document.body.setAttribute("data-measure", JSON.stringify(out));
});
</script>"""


def _measure(html: str, tmp_path: Path) -> dict:
    page = tmp_path / "first_view.html"
    page.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    proc = subprocess.run(
        [*_flags(tmp_path), "--window-size=1280,900", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=90,
    )
    found = re.search(r'data-measure="([^"]*)"', proc.stdout)
    assert found, proc.stderr[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"'))


def _rgb(css: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", css)[:3])


def _distance(a: str, b: str) -> float:
    return sum((x - y) ** 2 for x, y in zip(_rgb(a), _rgb(b))) ** 0.5


def test_first_screen_at_1280px(tmp_path: Path) -> None:
    html = render("html", analyze([str(SAMPLE)]))
    got = _measure(html, tmp_path)
    assert got["viewport"] == 1280
    assert got["adviceFirst"], "the advice comes after the charts"
    assert got["adviceTop"] < 900, "the first finding is below the first screen"
    assert got["boundRight"] <= got["scrollRight"], got  # no sideways scrolling to see it
    assert got["win"].startswith("biggest win: ")
    # compute bars and NPU op-type bars were the same #1c8fb5; balanced and compute two blues
    assert _distance(got["compute"], got["npu"]) > 60, got
    assert _distance(got["compute"], got["balanced"]) > 120, got
    shots = os.environ.get("RKNNPROF_SCREENSHOT")
    if shots:
        subprocess.run(
            [
                *_flags(tmp_path),
                "--window-size=1280,1400",
                f"--screenshot={Path(shots) / 'first_view_1280.png'}",
                (tmp_path / "first_view.html").as_uri(),
            ],
            capture_output=True,
            timeout=90,
            check=False,
        )
