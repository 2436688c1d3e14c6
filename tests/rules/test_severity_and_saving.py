"""Severity grading and the potential-saving total (no layer counted twice)."""

from __future__ import annotations

import pytest

from rknnprof.model import BenchmarkRun, Finding, Layer, Profile, Severity, SourceSpan, Target
from rknnprof.rules import RULES, potential_saving_us, run_rules
from rknnprof.rules._util import grade
from rknnprof.rules.base import Rule, RuleContext


def F(saving, *ids, code="RKN901"):  # noqa: N802
    return Finding(code, "x", Severity.INFO, "m", "f", layer_ids=ids, est_saving_us=saving)


PROFILE = Profile(
    source=SourceSpan("t"),
    format="t",
    layers=(
        Layer(1, "Concat", Target.NPU, time_us=600.0),
        Layer(2, "Split", Target.NPU, time_us=400.0),
        Layer(3, "Conv", Target.NPU, time_us=1000.0),
    ),
)


def test_grade_thresholds() -> None:
    assert grade(100, 1000) is Severity.ERROR  # 10%
    assert grade(99, 1000) is Severity.WARNING  # 9.9%
    assert grade(20, 1000) is Severity.WARNING  # 2%
    assert grade(19, 1000) is Severity.INFO
    assert grade(500, 1000, cap=Severity.WARNING) is Severity.WARNING
    assert grade(5, 0) is Severity.WARNING and grade(5, 0, unknown=Severity.INFO) is Severity.INFO


def test_potential_saving_caps_each_layer_at_its_time() -> None:
    # two findings claim all of layers 1 and 2: 1,000 us once, not 2000
    assert potential_saving_us([F(1000, 1, 2), F(1000, 1, 2)], PROFILE) == 1000
    # spread by time: 500 over (600, 400) -> 300 + 200; plus 900 on layer 1 -> capped at 600
    assert potential_saving_us([F(500, 1, 2), F(900, 1)], PROFILE) == pytest.approx(600 + 200)
    # findings without layers count in full, the whole capped at the frame (2,000 us)
    assert potential_saving_us([F(700), F(300, 3)], PROFILE) == 1000
    assert potential_saving_us([F(5000), F(1000, 3)], PROFILE) == 2000
    # a benchmark's slower average run widens the frame
    slow = Profile(
        source=PROFILE.source,
        format="t",
        layers=PROFILE.layers,
        benchmark=BenchmarkRun(avg_time_ms=3.0),
    )
    assert potential_saving_us([F(5000)], slow) == 3000
    assert potential_saving_us([], PROFILE) == 0


def B(*rows, code="RKN901"):  # noqa: N802
    """A finding explained layer by layer: rows are (layer id, us)."""
    return Finding(
        code,
        "x",
        Severity.INFO,
        "m",
        "f",
        layer_ids=tuple(i for i, _ in rows),
        est_saving_us=sum(us for _, us in rows),
        saving_by_layer=rows,
    )


def test_potential_saving_multiplies_the_remaining_time() -> None:
    # two findings each save half of layer 1 (600 us): 600 x (1 - 0.5) x (1 - 0.5) = 150 left
    assert potential_saving_us([B((1, 300)), B((1, 300))], PROFILE) == pytest.approx(450)
    # layer 1 half and a third: 600 x 0.5 x 2/3 = 200 left -> 400; layer 3 alone adds its 250
    assert potential_saving_us([B((1, 300), (3, 250)), B((1, 200))], PROFILE) == pytest.approx(
        400 + 250
    )
    # never more than the layers touched (600 + 400), whatever the claims
    assert potential_saving_us([B((1, 600), (2, 400))] * 3, PROFILE) == pytest.approx(1000)


def test_run_rules_holds_the_savings_invariants_and_the_noise_floor() -> None:
    def check(profile, context):
        # layer 2 claims more than its 400 us: clamped; est_saving_us is re-summed
        yield Finding(
            "RKN901",
            "a",
            Severity.WARNING,
            "m",
            "f",
            layer_ids=(1, 2),
            est_saving_us=1500,
            saving_by_layer=((1, 500), (2, 1000)),
        )
        # 99 us saved is under the 100 us floor (0.5 % of 2,000 us is 10 us): info
        yield Finding(
            "RKN901", "a", Severity.WARNING, "small", "f", layer_ids=(3,), est_saving_us=99
        )
        # no saving claimed (a caveat): the severity is the rule's own
        yield Finding("RKN901", "a", Severity.WARNING, "note", "f")

    rule = Rule("RKN901", "a", Severity.WARNING, "s", check)
    big, small, note = run_rules(PROFILE, RuleContext(), rules=[rule])
    assert big.saving_by_layer == ((1, 500), (2, 400)) and big.est_saving_us == 900
    assert small.saving_by_layer == ((3, 99),) and small.severity is Severity.INFO
    assert note.severity is Severity.WARNING and note.est_saving_us == 0


def test_run_rules_caps_severity_at_the_rule_level() -> None:
    def check(profile, context):
        yield Finding("RKN901", "a", Severity.ERROR, "m", "f", est_saving_us=1)

    rule = Rule("RKN901", "a", Severity.INFO, "s", check)
    [finding] = run_rules(PROFILE, RuleContext(), rules=[rule])
    assert finding.severity is Severity.INFO


def test_catalogue_severity_is_the_highest_a_rule_raises() -> None:
    assert {r.severity for r in RULES} <= {Severity.ERROR, Severity.WARNING, Severity.INFO}
    # only a rule that never claims a saving is info at most: RKN010 (no change the log can
    # price, the DDR excess is a ceiling only) and RKN073 (the log cannot price removing a Concat)
    assert [r.code for r in RULES if r.severity is Severity.INFO] == ["RKN010", "RKN073"]
