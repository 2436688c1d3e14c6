"""``Profile.frame_total_us``: what every share is a fraction of (numbers read from the logs)."""

from __future__ import annotations

import pytest

from rknnprof.api import load


def test_elided_table_shares_are_of_the_logs_total_line(corpus):
    (profile,) = load(corpus("04_"))
    # 04 prints 2 of mobilenetv2's layers (7 + 428 us) and its total line 14147 us
    assert profile.frame_total_us == 14147
    conv = next(layer for layer in profile.layers if layer.id == 2)
    assert conv.time_share == pytest.approx(428 / 14147, abs=1e-6)


def test_complete_table_shares_are_of_the_layer_sum(corpus):
    (profile,) = load(corpus("07_"))
    assert profile.frame_total_us == 14478
    assert sum(layer.time_share for layer in profile.layers) == pytest.approx(1.0, abs=1e-4)


def test_ranking_cut_short_uses_the_time_ratio(corpus):
    (profile,) = load(corpus("19_"))
    # Pow: 88001 us printed as 64.13 % of the frame; the rows shown sum to 131360 us
    assert profile.frame_total_us == pytest.approx(88001 / 0.6413, rel=2e-3)
    (finding,) = [f for f in profile.findings if f.code == "RKN001"]
    assert finding.est_saving_us / profile.frame_total_us == pytest.approx(0.6413, abs=0.03)
