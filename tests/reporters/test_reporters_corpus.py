"""Every reporter on real logs (corpus 01: yolov8n 1920, 108 layers; corpus 36: yolo26n, 168
layers with exSDPAttention). Expected counts come from reading the logs with awk: 36 has 168
rows summing to 20344 us (= its total line) with 7 CPU rows; 01 has 108 rows summing to 128441 us
with 10 CPU rows. Golden files at 80 columns, no colour; source paths cut to the file name so
the goldens do not depend on where the corpus lives."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from conftest import corpus_file

from rknnprof import api  # noqa: E402

from .report_samples import render

EXPECTED = {"01_": (108, 128441, 10), "36_": (168, 20344, 7)}
FORMATS = {
    "table": "table.txt",
    "markdown": "md",
    "csv": "csv",
    "html": "html",
    "trace": "trace.json",
}


def corpus_report(prefix: str):
    path = corpus_file(prefix)
    report = api.analyze([str(path)])
    name = Path(path).name
    profiles = tuple(replace(p, source=replace(p.source, path=name)) for p in report.profiles)
    warnings = tuple(replace(w, path=name) for w in report.warnings)
    return replace(report, profiles=profiles, warnings=warnings)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("prefix", sorted(EXPECTED))
def test_corpus_golden(prefix: str, fmt: str, check_golden) -> None:
    check_golden(render(fmt, corpus_report(prefix), width=80), f"corpus{prefix[:2]}.{FORMATS[fmt]}")


@pytest.mark.parametrize("prefix", sorted(EXPECTED))
def test_corpus_numbers_in_every_format(prefix: str) -> None:
    layers, total_us, cpu_layers = EXPECTED[prefix]
    report = corpus_report(prefix)
    df = pd.read_csv(io.StringIO(render("csv", report)))
    assert len(df) == layers and df["time_us"].sum() == total_us
    assert (df["target"] == "CPU").sum() == cpu_layers
    html = render("html", report)
    assert html.count('class="layer-bar ') == layers
    assert html.count('class="cpu-mark"') == cpu_layers
    assert len(html.encode()) < 1_000_000
    events = json.loads(render("trace", report))["traceEvents"]
    slices = {e["args"]["id"]: e["dur"] for e in events if e.get("cat", "").startswith("layer")}
    assert len(slices) == layers and sum(slices.values()) == total_us
    assert f"Top 15 of {layers} layers by time" in render("table", report)
    assert f"Top 15 of {layers} layers by time" in render("markdown", report)
