"""Measure an HTML report's layout in headless Chromium at a given viewport width: what a reader
on a phone (390 px) or a laptop (1280 px) would meet.

:func:`measure` loads the page with a script appended that writes its findings, as JSON, into
``<body data-layout=…>``, and reads them back from ``--dump-dom``:

* ``page_width``: the document's scroll width (wider than the viewport: the page scrolls
  sideways);
* ``wide``: elements that reach past the viewport (or past a box that clips them) and are not
  inside a box that scrolls sideways: each is cut off or pushes the page sideways;
* ``small``: visible text drawn under 9 px (SVG text at its on-screen scale);
* ``overlaps``: pairs of roofline labels whose boxes intersect, and labels over a point.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

BROWSER = next(
    (shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)),
    None,
)
NO_BROWSER = "no chromium on PATH (apt-get install -y chromium): the HTML layout is not measured"
MIN_TEXT_PX = 9.0

_SCRIPT = r"""
<script>
(function () {
  const vw = document.documentElement.clientWidth;
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll)/.test(s.overflowX)) return true;
    }
    return false;
  };
  const clipper = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(hidden|clip)/.test(s.overflowX)) return p;
    }
    return null;
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const name = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
    ? '.' + el.className.trim().split(/\s+/).join('.') : '') +
    ': ' + (el.textContent || '').trim().slice(0, 60);
  const wide = [], small = [], overlaps = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.tagName === 'SCRIPT' || !visible(el) || scrolls(el)) continue;
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;  // the svg box counts
    const r = el.getBoundingClientRect();
    const box = clipper(el);
    const limit = box ? Math.min(vw, box.getBoundingClientRect().right) : vw;
    if (r.right > limit + 1 || r.left < -1) wide.push(name(el) + ' (' + Math.round(r.left) +
      '..' + Math.round(r.right) + ' of ' + Math.round(limit) + ')');
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.tagName === 'SCRIPT' || el.tagName === 'TITLE' ||
        el.closest('title') || !visible(el)) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (el.closest('svg')) {
      const m = el.getScreenCTM();
      px = px * Math.hypot(m.a, m.b);
    }
    if (px < 8.95) small.push(name(el) + ' (' + px.toFixed(1) + ' px)');
  }
  for (const svg of document.querySelectorAll('svg.roofline')) {
    const labels = [...svg.querySelectorAll('text')].filter(visible);
    const points = [...svg.querySelectorAll('circle')].filter(visible);
    const rect = (el) => el.getBoundingClientRect();
    const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
      a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        if (hit(rect(labels[i]), rect(labels[j])))
          overlaps.push(labels[i].textContent + ' / ' + labels[j].textContent);
      }
      for (const p of points) {
        if (hit(rect(labels[i]), rect(p)))
          overlaps.push(labels[i].textContent + ' over a point');
      }
    }
  }
  (window.parent || window).document.body.setAttribute('data-layout', JSON.stringify({
    viewport: vw, page_width: document.documentElement.scrollWidth,
    wide: wide, small: small, overlaps: overlaps}));
})();
</script>
"""


def measure(
    page: str, width: int, tmp_path: Path, screenshot: Path | None = None
) -> dict[str, Any]:
    """Load ``page`` (HTML text) at ``width`` px in headless Chromium; the findings (module doc).
    With ``screenshot``, also save a PNG of the page at that width.

    The page is shown in an ``<iframe srcdoc>`` exactly ``width`` px wide (its own viewport, so
    its media queries apply): headless Chromium will not open a window narrower than 500 px."""
    assert BROWSER is not None
    inner = page.replace("</body>", _SCRIPT + "</body>")
    frame_height = 2400 if screenshot is not None else 900
    target = tmp_path / f"layout-{width}.html"
    target.write_text(
        '<!doctype html><html><body style="margin:0">'
        f'<iframe style="width:{width}px;height:{frame_height}px;border:0;display:block" '
        f'srcdoc="{html.escape(inner, quote=True)}"></iframe></body></html>',
        encoding="utf-8",
    )
    flags = [
        BROWSER,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / f'profile-{width}'}",
        f"--window-size={max(width, 500)},{frame_height}",
        "--virtual-time-budget=5000",
    ]
    proc = subprocess.run(
        [*flags, "--dump-dom", target.as_uri()], capture_output=True, text=True, timeout=120
    )
    found = re.search(r'data-layout="([^"]*)"', proc.stdout)
    assert found, proc.stderr[-2000:]
    if screenshot is not None:
        subprocess.run(
            [*flags, f"--screenshot={screenshot}", target.as_uri()],
            capture_output=True,
            timeout=120,
        )
    return json.loads(html.unescape(found.group(1)))  # type: ignore[no-any-return]
