"""The roofline: per conv layer MACs per byte and MACs per second, the platform's roofs, and the
HTML chart. Expected values worked from corpus 36's rows and the RK3588 platform file."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rknnprof.api import analyze
from rknnprof.cli import cli
from tests.conftest import corpus_file


def test_corpus_36_row_2() -> None:
    # ConvExSwish (1,3,640,640),(16,3,3,3) -> (1,16,320,320), 1888 us, RW 1202 KB
    profile = analyze(corpus_file("36_")).profiles[0]
    layer = next(la for la in profile.layers if la.id == 2)
    macs = 16 * 320 * 320 * 3 * 3 * 3
    assert layer.arith_intensity == pytest.approx(macs / (1202 * 1024))
    assert layer.achieved_macs_per_s == pytest.approx(macs / 1888e-6)
    # not a conv: no MAC count, no point (row 5 Split)
    split = next(la for la in profile.layers if la.id == 5)
    assert split.arith_intensity is None and split.achieved_macs_per_s is None


def test_roofs_rk3588() -> None:
    profile = analyze(corpus_file("36_")).profiles[0]
    found = {(r.kind, r.label): r.value for r in profile.roofs}
    # INT8 1024 MACs/cycle x 1000 MHz x 1 core (WorkLoad 100/0/0 throughout)
    assert found[("compute", "INT8: 1024 MACs/cycle x 1000 MHz x 1 core")] == 1.024e12
    assert found[("bandwidth", "DDR theoretical 33.8 GB/s")] == pytest.approx(33.8e9)
    assert found[("bandwidth", "DDR achieved 12.9 GB/s")] == pytest.approx(12.9e9)
    measured = [v for (kind, label), v in found.items() if label.startswith("fastest")]
    assert len(measured) == 1 and measured[0] <= 33.8e9


def test_compute_roof_by_the_cores_the_layer_used() -> None:
    # corpus 03 ran on a 3-core mask (row 8 Add: WorkLoad 33.3%/33.3%/33.3%), but its conv row 7
    # (INT8) shows 100.0%/0.0%/0.0%: held to one core's roof, 1024 MACs/cycle x 1000 MHz
    profile = analyze(corpus_file("03_")).profiles[0]
    row7 = next(la for la in profile.layers if la.id == 7)
    assert row7.workload_pct == (100.0, 0.0, 0.0)
    assert row7.compute_roof_macs_per_s == 1.024e12
    compute = [r for r in profile.roofs if r.kind == "compute"]
    assert [(r.data_type, r.cores, r.value) for r in compute] == [("INT8", 1, 1.024e12)]


def test_json_and_html() -> None:
    path = str(corpus_file("36_"))
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["analyze", path, "-f", "json"]).output)
    row2 = next(la for la in data["profiles"][0]["layers"] if la["id"] == 2)
    assert row2["arith_intensity"] == pytest.approx(35.94, abs=0.01)
    assert row2["achieved_macs_per_s"] == pytest.approx(2.343e10, rel=1e-3)
    html = runner.invoke(cli, ["analyze", path, "-f", "html"]).output
    assert '<svg class="roofline"' in html and "INT8: 1024 MACs/cycle" in html
    assert html.count('class="pt b-') > 102  # the scatter's points and 102 conv layers here
    assert len(html.encode()) < 1_000_000 and "http://" not in html.split("<main")[0]


def test_no_platform_still_draws_the_points() -> None:
    from rknnprof.reporters.html_charts import roofline_svg

    profile = analyze(corpus_file("07_")).profiles[0]
    svg, note = roofline_svg(profile, (), "p0-L")
    assert (
        svg.startswith('<div class="chart"><svg class="roofline"')
        and "compute roof unknown" in note
    )
    assert "roof-legend" not in svg  # no roof, no legend
