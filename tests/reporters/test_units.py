"""One unit rule in every reporter and finding message (issue #13 defect 4): a frame's time in
ms with two decimals, a part of it (layer, op type, group, one finding's saving) in us with a
thousands separator."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from rknnprof.cli import cli
from rknnprof.units import cell, frame_ms, part_us, percent
from tests.conftest import SAMPLES, corpus_file

BARE_US = re.compile(r"(?<![\d,.])\d{4,} us\b")
"""A microsecond figure of four or more digits without a thousands separator."""
FRAME_IN_US = re.compile(r"(?:total|at stake|p50|p90|per run)[^·\n]{0,12}?\d[\d,]* us\b")
"""A frame-level figure written in microseconds."""


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_helpers_spell_the_rule() -> None:
    assert frame_ms(28021.4) == "28.02 ms" and frame_ms(7140) == "7.14 ms"
    assert part_us(6030.4) == "6,030 us" and part_us(664) == "664 us"
    assert cell(1888) == "1,888" and cell(1888.5) == "1,888.5" and percent(0.2148) == "21.5%"
    assert frame_ms(None) == part_us(None) == cell(None) == percent(None) == "-"


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_sample_report_follows_the_rule(fmt: str) -> None:
    text = _run("analyze", str(SAMPLES / "yolov5s_rk3588_perf.txt"), "-f", fmt)
    text = " ".join(text.replace("#&#8203;", "#").split())  # Markdown breaks issue autolinks
    assert "total 28.02 ms" in text  # the log's Total Operator Elapsed Per Frame Time 28023 us
    assert "#60 Resize (Resize:/model.15/Resize) 1,873 us" in text  # the log: Resize CPU 1873
    assert BARE_US.findall(text) == [] and FRAME_IN_US.findall(text) == []


@pytest.mark.parametrize(("prefix", "total"), [("29_", "total 18.64 ms"), ("30_", "total 7.14 ms")])
def test_small_and_large_frames_use_the_same_unit(prefix: str, total: str) -> None:
    text = _run("analyze", str(corpus_file(prefix)))
    assert total in text and FRAME_IN_US.findall(text) == []


def test_html_advice_total_is_frame_level() -> None:
    html = _run("analyze", str(corpus_file("36_")), "-f", "html")
    # was "up to 7,398 us at stake" beside "total 20.34 ms"
    assert re.search(r"up to \d+\.\d\d ms at stake", html) and "total 20.34 ms" in html
    assert "2,674 us" in html and BARE_US.findall(html) == []


def test_compare_headline_gives_frames_in_ms() -> None:
    base = str(SAMPLES / "yolov5s_rk3588_perf.txt")
    text = _run("compare", base, base)
    assert "total 28.02 ms → 28.02 ms (+0 us, +0.0%)" in text


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_a_clean_log_gets_no_footer(fmt: str) -> None:
    # issue #13 defect 6: "0 skipped rows · 0 warnings" was printed under every report
    text = _run("analyze", str(SAMPLES / "yolov5s_rk3588_perf.txt"), "-f", fmt)
    assert "skipped row" not in text and "0 warnings" not in text


def test_the_rk3568_measurement_is_not_quoted_for_other_socs() -> None:
    # corpus 09 is toolkit1 on RV1126: its one caveat quoted an RK3568 A/B measurement
    text = _run("analyze", str(corpus_file("09_")))
    assert "RK3568" not in text and "absolute times are inflated" in " ".join(text.split())


def test_a_part_too_small_to_show_is_not_zero_percent() -> None:
    """A 135 us saving of a 1,183,132 us frame (a public FP16 ViT profile) printed ``0.0%``,
    which reads as nothing; a part under 0.05 % is ``<0.1%``, a true zero stays ``0.0%``."""
    assert percent(135 / 1_183_132) == "<0.1%"
    assert percent(0.0) == "0.0%" and percent(0.0005) == "0.1%" and percent(1.0) == "100.0%"
