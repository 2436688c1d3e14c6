"""The fixes an RKNPU expert puts first, on real logs (issue #17 item 2). Expected values are
read from the corpus files, not from the code's output; each test says where."""

from __future__ import annotations

from rknnprof.api import load
from tests.conftest import corpus_file


def only(prefix: str):
    [profile] = load(corpus_file(prefix))
    return profile


def codes(profile, code: str) -> list:
    return [f for f in profile.findings if f.code == code]


def test_05_cpu_softmax_seen_only_in_the_ranking_reaches_rkn001() -> None:
    # 05 prints rows 1-2, then `...`; its ranking: exSoftmax13 1 call, CPU Time 387 us, 1.9 %
    # of the log's total 20274 us
    [finding] = codes(only("05_"), "RKN001")
    assert finding.message.startswith("exSoftmax13 runs on the CPU: 387 us (1.9% of the frame)")
    assert "rows are elided" in finding.message and finding.layer_ids == ()


def test_37_cpu_op_with_a_printed_row_is_reported_once() -> None:
    # 37 elides rows 5-54 but prints #56 Reshape on the CPU (61 us); its ranking repeats it
    [finding] = codes(only("37_"), "RKN001")
    assert finding.layer_ids == (56,)
