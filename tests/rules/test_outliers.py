"""A layer RKN050 flags as a single-frame outlier is no evidence for a saving: RKN070 and RKN071
count it at the time the log supports for it. Expected values are read off the fixtures
(``tests/data/rules/outlier_RKN07x.txt``, written by make_fixtures.py):

* outlier_RKN070: #5, #6, #7 ConvExSwish 64->64 3x3 at 80x80, 600, 600 and 1,800 us, same
  shapes and cycles (57600/230400); #3 ConvRelu with the same shapes at 288 us. #7 is 3x its
  siblings in one frame: it counts at #5's 600 us, so each SiLU conv saves 600 - 288 = 312 us
  (936 us), not 1,800 - 288 = 1,512 us for #7 (2,136 us).
* outlier_RKN071: a 1280x1280 input (4x 640x640: 3/4 of the conv time goes); 11 convs take
  4608 + 2304 + 1152 + 7 x 288 + 3456 = 13,536 us; #12 (345,600 cycles at 3,456 us) is 8x the
  median time per cycle (288 us for 230,400 cycles), so it counts at 3456 / 8 = 432 us:
  0.75 x (13,536 - 3,456 + 432) = 7,884 us, not 0.75 x 13,536 = 10,152 us.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rknnprof.api import load

DATA = Path(__file__).resolve().parent.parent / "data" / "rules"


def _findings(name: str, path: Path | None = None) -> list:
    [profile] = load(path or DATA / f"{name}.txt")
    return list(profile.findings)


def test_activation_swap_counts_a_slow_sibling_at_its_siblings_time() -> None:
    findings = _findings("outlier_RKN070")
    [swap] = [f for f in findings if f.code == "RKN070"]
    assert swap.saving_by_layer == ((5, 312.0), (6, 312.0), (7, 312.0))
    assert swap.est_saving_us == 936.0
    assert "#7 at 600 us (#5's), not its one-frame 1,800 us (re-measure, RKN050)" in swap.message
    # the in-log example is a pair the log supports, not the outlier
    assert "#5 ConvExSwish (Conv:/model.4/conv/Conv) takes 600 us against 288 us" in swap.message
    [caveat] = [f for f in findings if f.code == "RKN050" and "twice the time" in f.message]
    assert caveat.layer_ids == (7, 5)


def test_input_resolution_counts_a_slow_pace_at_the_median_pace() -> None:
    findings = _findings("outlier_RKN071")
    [resolution] = [f for f in findings if f.code == "RKN071" and f.est_saving_us]
    assert resolution.est_saving_us == pytest.approx(7884.0)
    assert dict(resolution.saving_by_layer)[12] == pytest.approx(324.0)  # 0.75 x 432
    assert "the 11 conv layers take 13,536 us" in resolution.message
    assert "at 640x640 they would take about 2,628 us" in resolution.message  # 10,512 / 4
    assert "#12 at 432 us (the median pace's), not its one-frame 3,456 us" in resolution.message
    assert any(f.code == "RKN050" and "median time per cycle" in f.message for f in findings)


def test_a_time_two_frames_show_is_counted_as_measured(tmp_path: Path) -> None:
    """The same table twice (a two-frame capture): #7's 1,800 us is each frame's median, so it
    is evidence, and RKN070 prices it: 312 + 312 + 1,512 = 2,136 us."""
    lines = (DATA / "outlier_RKN070.txt").read_text(encoding="utf-8").splitlines()
    capture = tmp_path / "two_frames.txt"
    capture.write_text("\n".join(lines[:3] + lines[3:] * 2) + "\n", encoding="utf-8")
    findings = _findings("", capture)
    [swap] = [f for f in findings if f.code == "RKN070"]
    assert swap.saving_by_layer == ((5, 312.0), (6, 312.0), (7, 1512.0))
    assert "single-frame" not in swap.message
    assert not [f for f in findings if f.code == "RKN050" and "one frame only" in f.message]
