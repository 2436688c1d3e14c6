"""Advice on real logs (issue #4 done-when checks), through ``rknnprof.api.load``. Expected
values are read from the logs: corpus 19's ranking gives Pow 88,001 us CPUTime (64.13 %); 38's
row 8 is Softmax on the CPU; 01 and 36 have only Input/OutputOperator on the CPU; 36 has two
exSDPAttention rows (#63 1,338 us, #151 1,336 us) and Concat 1,645 us / Split 664 us in its ranking."""

from __future__ import annotations

import pytest

from rknnprof.api import load
from rknnprof.errors import NoProfileDataError
from rknnprof.rules import potential_saving_us
from tests.conftest import corpus_file


def only(prefix: str):
    [profile] = load(corpus_file(prefix))
    return profile


def test_19_pow_on_cpu_ranks_first() -> None:
    profile = only("19_")
    first = profile.findings[0]
    assert first.code == "RKN001" and first.message.startswith("Pow runs on the CPU: 88,001 us")
    assert "64.1% of the frame" in first.message and first.severity.value == "error"


def test_38_softmax_on_cpu() -> None:
    profile = only("38_")
    [finding] = [f for f in profile.findings if f.code == "RKN001"]
    assert finding.layer_ids == (8,) and "#8 Softmax" in finding.message


@pytest.mark.parametrize("prefix", ["01_", "36_"])
def test_io_operators_on_cpu_are_not_fallback(prefix: str) -> None:
    assert not [f for f in only(prefix).findings if f.code == "RKN001"]


def test_36_attention_and_split_concat_share() -> None:
    profile = only("36_")
    [attention] = [f for f in profile.findings if f.code == "RKN061"]
    assert attention.layer_ids == (63, 151)
    assert "exSDPAttention:node_matmul_1#1_2sdpa" in attention.message
    assert "2,674 us (13.1% of the frame)" in attention.message  # 1338 + 1336 of 20344
    # (the latency change says what it buys: 'attend over fewer positions' alone was vague;
    # (3/4)^2 = 9/16 of the positions, (9/16)^2 = 0.32 of the scores' work)
    assert "a feature map at 3/4 of the input side keeps 9/16 of its positions, a third of" in (
        attention.fix or ""
    )
    # 11 Splits take 664 us; #60 and #148 follow a Reshape (attention q/k/v), not a conv: the
    # other 9 are the C3k2 blocks' chunk(2), 163 + 87 + 50 + 31 + 43 + 50 + 87 + 48 + 31 us
    [transfer] = [f for f in profile.findings if f.code == "RKN020"]
    assert transfer.layer_ids == (5, 13, 21, 36, 57, 74, 90, 108, 134)
    # priced by the bytes the two half-convs remove, (4c - Cin) / 4c of each Split (c = the
    # Split's half): Cin = 2c before #5, #13, #21, #36, #57 (half: 81.5 + 43.5 + 25 + 15.5 +
    # 21.5); #74's conv reads 384 channels of a 4c = 256 Split and #90's 256 of 256 (nothing
    # removed); #108 192 of 256 and #134 384 of 512 (a quarter: 12 + 7.75)
    assert dict(transfer.saving_by_layer) == {
        5: 81.5,
        13: 43.5,
        21: 25.0,
        36: 15.5,
        57: 21.5,
        108: 12.0,
        134: 7.75,
    }
    assert transfer.est_saving_us == 206.75


def test_potential_saving_of_36_counts_no_layer_twice() -> None:
    profile = only("36_")
    total = potential_saving_us(profile.findings, profile)
    assert 0 < total <= sum(f.est_saving_us for f in profile.findings)
    assert total <= profile.total_time_us


def test_08_fp16_model_raises_float16() -> None:
    path = corpus_file("08_")
    try:
        profiles = load(path)
    except NoProfileDataError:
        pytest.skip("eval_perf.csv (corpus 08) is not parsed yet (families helper)")
    assert any(f.code == "RKN002" for p in profiles for f in p.findings)
