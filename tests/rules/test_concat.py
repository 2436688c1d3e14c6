"""RKN073: Concats that take a large share of the frame are said for what they are, a copy,
with no saving the log cannot show. Expected values are read off the logs:

* tests/data/rules/RKN073.txt (INT8, rk3588, one frame of 1,209 us): #4 Concat (1,32)+(1,32)
  -> (1,64,80,80) 200 us, RW 800 KB; #6 Concat (1,64)+(1,24) -> (1,88,80,80) 280 us, RW
  1,100 KB. 480 us is 39.7% of the frame; 800 + 1,100 = 1,900 KB moved, at 800 KB / 200 us
  = 4.1 GB/s and 1,100 KB / 280 us = 4.0 GB/s; #6 takes #4's output;
  its 24-channel input is not a multiple of 16 (RK3588 INT8, ops other than conv).
* corpus 08 (FusionNet FP16): 9 Concats, 37,404 us of 163,842 us (22.8%); #7, #16, #26, #38
  each take the Concat two rows up; channels 16/32/48/64, multiples of FP16's 8; #24 and #26
  are single-frame outliers (2.4x their twins #36 2,321 us and #38 3,526 us), so the share the
  log supports is 37,404 - 5,672 + 2,321 - 8,445 + 3,526 = 29,134 us (17.8%).
"""

from __future__ import annotations

from pathlib import Path

from rknnprof.api import load
from tests.conftest import corpus_file

DATA = Path(__file__).resolve().parent.parent / "data" / "rules"


def _concat(path: Path):
    [profile] = [p for p in load(path) if p.layers]
    found = [f for f in profile.findings if f.code == "RKN073"]
    return found[0] if found else None


def test_a_dense_block_gets_one_info_finding_without_a_saving() -> None:
    finding = _concat(DATA / "RKN073.txt")
    assert finding.severity.value == "info" and finding.est_saving_us == 0
    assert finding.saving_by_layer == () and finding.layer_ids == (4, 6)
    assert finding.message.startswith("2 Concat layer(s) take 480 us (39.7% of the frame)")
    assert (
        "copies its inputs into its output, no arithmetic: 1,900 KB moved (RW(KB)) at "
        "4.0-4.1 GB/s in this log" in finding.message
    )
    assert "#6 takes the output of the Concat just before" in finding.message
    assert "(#6: 24, not a multiple of 16)" in finding.message
    assert "INT8 halves" not in finding.fix  # already INT8
    assert "a multi-core mask splits Concat across the cores (1.56x" in finding.fix
    assert "channel count at a multiple of the alignment" in finding.fix
    assert finding.basis.startswith("no saving: the log holds no Concat that a change made")


def test_a_neck_concat_at_a_tenth_of_the_frame_stays_silent() -> None:
    assert _concat(DATA / "RKN073_ok.txt") is None


def test_corpus_08_dense_concats() -> None:
    finding = _concat(corpus_file("08_"))
    # the eval_perf CSV side file prints no total line: shares are of the 52 rows it holds
    assert finding.message.startswith("9 Concat layer(s) take 37,404 us (22.8% of the rows shown)")
    assert "#7, #16, #26, #38 take the output of the Concat just before" in finding.message
    # 12,800 + 19,200 + 12,800 + 19,200 + 25,600 + 38,400 + 25,600 + 38,400 + 38,400 KB
    assert "230,400 KB moved (RW(KB)) at 4.5-11.9 GB/s" in finding.message
    assert "every input's channels are a multiple of 8" in finding.message
    assert (
        "counting #24 at 2,321 us (#36's) and #26 at 3,526 us (#38's) instead of their "
        "one-frame times (re-measure, RKN050), they take 29,134 us (17.8% of the rows shown)"
        in finding.message
    )
    assert finding.fix.startswith(
        "INT8 halves the bytes each Concat moves (RKN002 prices it); "
        "a multi-core mask splits Concat"
    )


def test_yolo_necks_and_elided_tables_stay_silent() -> None:
    # 01 8.8%, 07 6.9%, 36 8.1% in Concat; 03 shows 3 rows of an elided table (22% of them)
    for prefix in ("01_", "03_", "07_", "36_"):
        assert _concat(corpus_file(prefix)) is None, prefix
