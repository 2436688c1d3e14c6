"""Severity grading and the potential-saving total (no layer counted twice)."""

from __future__ import annotations

import pytest

from rknnprof.model import BenchmarkRun, Finding, Layer, Profile, Severity, SourceSpan, Target
from rknnprof.rules import RULES, potential_saving_us, run_rules
from rknnprof.rules._util import grade
from rknnprof.rules.base import Rule, RuleContext


def F(saving, *ids, code="RKN901"):  # noqa: N802
    return Finding(code, "x", Severity.INFO, "m", "f", layer_ids=ids, est_saving_us=saving)


PROFILE = Profile(source=SourceSpan("t"), format="t", layers=(
    Layer(1, "Concat", Target.NPU, time_us=600.0),
    Layer(2, "Split", Target.NPU, time_us=400.0),
    Layer(3, "Conv", Target.NPU, time_us=1000.0),
))


def test_grade_thresholds() -> None:
    assert grade(100, 1000) is Severity.ERROR       # 10%
    assert grade(99, 1000) is Severity.WARNING      # 9.9%
    assert grade(20, 1000) is Severity.WARNING      # 2%
    assert grade(19, 1000) is Severity.INFO
    assert grade(500, 1000, cap=Severity.WARNING) is Severity.WARNING
    assert grade(5, 0) is Severity.WARNING and grade(5, 0, unknown=Severity.INFO) is Severity.INFO


def test_potential_saving_caps_each_layer_at_its_time() -> None:
    # two findings claim all of layers 1 and 2: 1000 us once, not 2000
    assert potential_saving_us([F(1000, 1, 2), F(1000, 1, 2)], PROFILE) == 1000
    # spread by time: 500 over (600, 400) -> 300 + 200; plus 900 on layer 1 -> capped at 600
    assert potential_saving_us([F(500, 1, 2), F(900, 1)], PROFILE) == pytest.approx(600 + 200)
    # findings without layers count in full, the whole capped at the frame (2000 us)
    assert potential_saving_us([F(700), F(300, 3)], PROFILE) == 1000
    assert potential_saving_us([F(5000), F(1000, 3)], PROFILE) == 2000
    # a benchmark's slower average run widens the frame
    slow = Profile(source=PROFILE.source, format="t", layers=PROFILE.layers,
                   benchmark=BenchmarkRun(avg_time_ms=3.0))
    assert potential_saving_us([F(5000)], slow) == 3000
    assert potential_saving_us([], PROFILE) == 0


def test_run_rules_caps_severity_at_the_rule_level() -> None:
    def check(profile, context):
        yield Finding("RKN901", "a", Severity.ERROR, "m", "f", est_saving_us=1)

    rule = Rule("RKN901", "a", Severity.INFO, "s", check)
    [finding] = run_rules(PROFILE, RuleContext(), rules=[rule])
    assert finding.severity is Severity.INFO


def test_catalogue_severity_is_the_highest_a_rule_raises() -> None:
    assert {r.severity for r in RULES} <= {Severity.ERROR, Severity.WARNING}
