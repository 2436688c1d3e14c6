"""One cause, one finding: where two rules see the same layers, the rule whose change removes
them keeps them and the other leaves them out. The fixtures (``cause_RKNxxx_what.txt``) are
written by ``tests/data/rules/make_fixtures.py`` (``one_cause``); the expected ids and times
below are read off the fixture text."""

from __future__ import annotations

from pathlib import Path

from rknnprof.api import load

DATA = Path(__file__).resolve().parent.parent / "data" / "rules"


def findings(name: str, code: str) -> list:
    [profile] = load(DATA / f"{name}.txt")
    return [f for f in profile.findings if f.code == code]


def test_a_cpu_gather_inside_the_decode_tail_is_the_decode_finding_only() -> None:
    # #4 ConvRelu is the last conv; #5 Reshape 30, #6 Gather on the CPU 2,400, #7 Split 420,
    # #8 Sub 180, #9 Sub 170, #10 Add 160, #11 Add 150: cutting the model after #4 removes
    # all seven, the CPU Gather with them (3,510 us)
    [decode] = findings("cause_RKN060_cpu_gather", "RKN060")
    assert decode.layer_ids == (5, 6, 7, 8, 9, 10, 11)
    assert dict(decode.saving_by_layer) == {
        5: 30,
        6: 2400,
        7: 420,
        8: 180,
        9: 170,
        10: 160,
        11: 150,
    }
    assert decode.est_saving_us == 3510
    assert "1 of them on the CPU (#6 Gather)" in decode.message
    assert decode.message.startswith("post-processing runs inside the model (partly on the CPU)")
    assert not findings("cause_RKN060_cpu_gather", "RKN001")


def test_a_cpu_layer_outside_the_decode_tail_is_still_a_fallback() -> None:
    # the RKN001 fixture: a CPU Transpose between the convs, no decode tail: RKN001 keeps it
    [fallback] = findings("RKN001", "RKN001")
    assert "Transpose layer(s) run on the CPU" in fallback.message
    assert not findings("RKN001", "RKN060")


def test_reshapes_wrapping_a_norm_are_the_norm_finding_only() -> None:
    # #3 Transpose 300 -> #4 Reshape 2 -> #5 exNorm 200 -> #6 Reshape 2 -> #7 Transpose 280
    # -> #8 Mul 90 -> #9 Add 80 is RKN072's; #11 Reshape 40 -> #12 Transpose 160 -> #13 Reshape
    # 60 behind #10 Conv is the only mergeable chain: all but its largest op go (100 us)
    [norm] = findings("cause_RKN072_reshapes", "RKN072")
    assert norm.layer_ids == (3, 4, 5, 6, 7, 8, 9)
    [reshapes] = findings("cause_RKN072_reshapes", "RKN022")
    assert reshapes.layer_ids == (11, 12, 13)
    assert dict(reshapes.saving_by_layer) == {11: 40, 13: 60}
    assert reshapes.est_saving_us == 100
    assert reshapes.message.startswith("1 chain(s) of back-to-back layout ops")
