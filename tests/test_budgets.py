"""budgets: validation with file:line: key messages, every metric, every verdict."""

from __future__ import annotations

import pytest

from rknnprof.budgets import check, judge, load_budgets, parse_budgets, percentile
from rknnprof.errors import EXIT_USAGE, ConfigError
from rknnprof.model import (
    Finding,
    Layer,
    OpTypeStat,
    Profile,
    Report,
    Severity,
    SourceSpan,
    Target,
)


def L(id, op, t, name, target=Target.NPU, line=None):
    return Layer(id=id, op_type=op, time_us=t, full_name=name, target=target, line=line)


def P(*layers, **kw):
    return Profile(
        source=SourceSpan("run.txt"), format="toolkit2-perf-table", layers=tuple(layers), **kw
    )


BASE = P(
    L(1, "InputOperator", 10, "InputOperator:images", Target.CPU),
    L(2, "ConvExSwish", 1000, "Conv:/model.0/conv/Conv"),
    L(3, "ConvExSwish", 600, "Conv:/model.22/cv2/Conv"),
    L(4, "Softmax", 200, "Softmax:/model.22/Softmax"),
    L(5, "Resize", 300, "Resize:/model.10/Resize", Target.CPU),
    L(6, "OutputOperator", 20, "OutputOperator:out", Target.CPU),
)
# total 2130; NPU 1800; CPU 330; CPU fallback layers: Resize only -> 1
CURRENT = P(
    L(1, "InputOperator", 10, "InputOperator:images", Target.CPU),
    L(2, "ConvExSwish", 1050, "Conv:/model.0/conv/Conv"),
    L(3, "ConvExSwish", 700, "Conv:/model.22/cv2/Conv"),
    L(4, "Softmax", 500, "Softmax:/model.22/Softmax", Target.CPU, line=57),
    L(5, "Resize", 300, "Resize:/model.10/Resize", Target.CPU),
    L(6, "OutputOperator", 20, "OutputOperator:out", Target.CPU),
    findings=(
        Finding("RKN001", "cpu-fallback", Severity.ERROR, "m", "f", (4, 5)),
        Finding("RKN010", "x", Severity.WARNING, "m", "f"),
        Finding("RKN020", "y", Severity.INFO, "m", "f"),
    ),
)
# total 2580 (+450, +21.1 %); NPU 1750; CPU 830; CPU fallback: Softmax, Resize -> 2


def budget(text: str):
    return parse_budgets(f"budgets:\n  - {text}\n").budgets[0]


def verdict(text: str, current=CURRENT, base=BASE):
    return judge(budget(text), current, base, "m")


@pytest.mark.parametrize(
    "text, value",
    [
        ("{metric: total_time_us, max: 1}", 2580),
        ("{metric: npu_time_us, max: 1}", 1750),
        ("{metric: cpu_time_us, max: 1}", 830),
        ("{metric: layer_time_us, match: 'Conv:/model.22/*', max: 1}", 700),
        ("{metric: layer_time_us, match: '*/model.22/*', max: 1}", 1200),
        ("{metric: op_type_time_us, op_type: ConvExSwish, max: 1}", 1750),
        ("{metric: findings, max: 0}", 3),
        ("{metric: findings, code: rkn001, max: 0}", 1),
        ("{metric: findings, severity: warning, max: 0}", 2),
        ("{metric: cpu_fallback_layers, max: 0}", 2),
    ],
)
def test_metric_values(text, value):
    v = verdict(text, base=None)
    assert v.value == value
    assert v.status == "fail"


@pytest.mark.parametrize(
    "text, status",
    [
        ("{metric: total_time_us, max: 2580, level: error}", "pass"),  # equal is within
        ("{metric: total_time_us, max: 2579, level: error}", "fail"),
        ("{metric: total_time_us, max: 2579, level: warn}", "warn"),
        ("{metric: total_time_us, max_increase: 25%}", "pass"),  # +21.1 %
        ("{metric: total_time_us, max_increase: 20%}", "fail"),
        ("{metric: total_time_us, max_increase: 0.2, level: warn}", "warn"),
        ("{metric: total_time_us, max_increase: 20%, min_delta: 450}", "pass"),  # noise floor
        ("{metric: total_time_us, max_increase: 20%, min_delta: 449}", "fail"),
        ("{metric: layer_time_us, match: 'Conv:/model.0/*', max_increase: 5%}", "pass"),  # +5.0 %
        ("{metric: layer_time_us, match: 'Conv:/model.22/*', max_increase: 10%}", "fail"),  # +16.7%
        ("{metric: op_type_time_us, op_type: Softmax, max_increase: 100%}", "fail"),  # +150 %
        ("{metric: npu_time_us, max_increase: 0%}", "pass"),  # got faster
        ("{metric: cpu_time_us, max_increase: 100%, level: warn}", "warn"),
    ],
)
def test_levels_and_relative(text, status):
    assert verdict(text).status == status


def test_messages_carry_numbers():
    v = verdict("{metric: total_time_us, max_increase: 20%}")
    assert v.message == (
        "total_time_us = 2.58 ms: +450 us (+21.1%) vs baseline 2.13 ms, allowed +20%"
    )
    assert v.baseline_value == 2130
    v = verdict("{metric: total_time_us, max_increase: 20%, min_delta: 450}")
    assert "within noise floor min_delta 450 us" in v.message


def test_missing_baseline_is_inconclusive():
    v = verdict("{metric: total_time_us, max_increase: 5%}", base=None)
    assert v.status == "inconclusive" and "no baseline" in v.message
    v = verdict("{metric: total_time_us, max: 99999, max_increase: 5%}", base=None)
    assert v.status == "inconclusive"
    # an absolute breach still fails without a baseline
    assert verdict("{metric: total_time_us, max: 1, max_increase: 5%}", base=None).status == "fail"


def test_missing_metric_is_inconclusive():
    v = verdict("{metric: layer_time_us, match: 'Nope:*', max: 1}")
    assert v.status == "inconclusive" and "Nope:*" in v.message
    v = verdict("{metric: frame_time_p90_us, max: 1}")
    assert v.status == "inconclusive" and "more than one frame" in v.message
    only_base = P(L(1, "Softmax", 5, "Softmax:x"))
    # the baseline has no Softmax: it took 0 us there, so a new one is an increase from 0
    v = verdict(
        "{metric: op_type_time_us, op_type: Softmax, max_increase: 5%}",
        current=only_base,
        base=P(L(1, "Conv", 5, "Conv:x")),
    )
    assert v.status == "fail" and "vs baseline 0" in v.message
    assert (
        verdict("{metric: op_type_time_us, op_type: Softmax, max: 9999}", current=only_base).status
        == "pass"
    )


def test_op_type_the_model_does_not_run_takes_0_us():
    # issue #13: a Pow budget on a model without Pow was INCONCLUSIVE; the model spends 0 us
    v = verdict("{metric: op_type_time_us, op_type: Pow, max: 500}", current=CURRENT)
    assert v.status == "pass" and v.value == 0
    elided = P(L(1, "Conv", 5, "Conv:x"), elided_rows=3)
    v = verdict("{metric: op_type_time_us, op_type: Pow, max: 500}", current=elided)
    assert v.status == "inconclusive" and "elided" in v.message


def test_frame_percentiles():
    frames = P(L(1, "Conv", 10, "c"), frames=5, frame_times_us=(100, 140, 110, 120, 130))
    assert verdict("{metric: frame_time_p50_us, max: 120}", current=frames).value == 120
    # p90 of 100,110,120,130,140: position 3.6 -> 130 + 0.6 * 10 = 136
    v = verdict("{metric: frame_time_p90_us, max: 135}", current=frames)
    assert v.value == pytest.approx(136) and v.status == "fail"
    assert percentile([1, 2], 50) == 1.5


def test_introduced_cpu_fallback_is_named():
    # max 2 is met (2 CPU layers), but Softmax moved NPU -> CPU against the baseline
    v = verdict("{metric: cpu_fallback_layers, max: 2}")
    assert v.status == "fail"
    assert "CPU fallback introduced: Softmax:/model.22/Softmax" in v.message
    assert v.layers == ("Softmax:/model.22/Softmax",) and v.source_line == 57
    # Resize was on the CPU in the baseline too: not "introduced"
    assert "Resize" not in v.message
    assert verdict("{metric: cpu_fallback_layers, max: 2}", base=None).status == "pass"
    assert verdict("{metric: cpu_fallback_layers, max: 2}", base=CURRENT).status == "pass"


def test_a_cpu_layer_a_partial_baseline_does_not_show_is_not_introduced():
    """A baseline with no per-layer table (a ranking or a benchmark alone) or one whose rows
    may be left out (elided) cannot say a CPU layer is new: a note, not a failure (an elided
    baseline's Resize, on the CPU in both runs, failed a clean run as 'introduced')."""
    ranking_only = Profile(
        source=SourceSpan("base.txt"),
        format="toolkit2-ranking",
        ranking=(OpTypeStat("Resize", 1, 300, 0, 300),),
    )
    v = verdict("{metric: cpu_fallback_layers, max: 2}", base=ranking_only)
    assert v.status == "pass"
    assert "whether 2 CPU layer(s) are new cannot be told: the baseline has no per-layer table" in (
        v.message
    )
    # a ranking whose Softmax ran on the NPU alone tells the CPU Softmax is new
    npu_softmax = Profile(
        source=SourceSpan("base.txt"),
        format="toolkit2-ranking",
        ranking=(OpTypeStat("Resize", 1, 300, 0, 300), OpTypeStat("Softmax", 1, 0, 200, 200)),
    )
    v = verdict("{metric: cpu_fallback_layers, max: 2}", base=npu_softmax)
    assert v.status == "fail" and "CPU fallback introduced: Softmax:/model.22/Softmax" in v.message
    elided = P(*BASE.layers[:3], BASE.layers[5], elided_rows=1, reported_total_time_us=2130)
    v = verdict("{metric: cpu_fallback_layers, max: 2}", base=elided)
    assert v.status == "pass" and "may leave layers out (the log elided rows" in v.message


def test_a_findings_code_may_be_a_prefix_or_a_rule_name():
    """``code: RKN07`` counts RKN070-RKN073 (as ``--select`` reads a prefix); ``code:
    activation-swap`` is RKN070 (both counted nothing and passed)."""
    current = P(
        *CURRENT.layers,
        findings=(
            Finding("RKN070", "activation-swap", Severity.WARNING, "m", "f"),
            Finding("RKN072", "norm-transposes", Severity.INFO, "m", "f"),
        ),
    )
    assert verdict("{metric: findings, code: RKN07, max: 5}", current=current).value == 2
    v = verdict("{metric: findings, code: activation-swap, max: 5}", current=current)
    assert v.value == 1 and v.budget.code == "RKN070"


def test_ranking_only_metrics():
    ranking = Profile(
        source=SourceSpan("27.txt"),
        format="toolkit2-ranking",
        ranking=(
            OpTypeStat("ConvLeakyRelu", 21, 0, 49852, 49852),
            OpTypeStat("Resize", 3, 23583, 0, 23583),
            OpTypeStat("InputOperator", 1, 4, 0, 4),
        ),
    )
    assert verdict("{metric: cpu_fallback_layers, max: 0}", current=ranking).value == 3
    assert verdict("{metric: cpu_time_us, max: 0}", current=ranking).value == 23587
    assert verdict("{metric: total_time_us, max: 0}", current=ranking).value == 73439
    assert (
        verdict("{metric: op_type_time_us, op_type: Resize, max: 0}", current=ranking).value
        == 23583
    )


def test_check_pairs_models_and_counts():
    config = parse_budgets(
        "budgets:\n"
        "  - {metric: total_time_us, max_increase: 5%, level: error}\n"
        "  - {metric: npu_time_us, max: 99999, level: warn}\n"
    )
    result = check(config, Report((CURRENT,)), Report((BASE,)), "run.txt", "base.json")
    assert [v.status for v in result.verdicts] == ["fail", "pass"]
    assert result.failed and result.overall == "fail"
    assert result.comparison is not None
    result = check(config, Report((CURRENT,)), None, "run.txt")
    assert [v.status for v in result.verdicts] == ["inconclusive", "pass"]
    assert not result.failed


# ---- validation --------------------------------------------------------------------------------

BAD = [
    (
        "budgets:\n  - metric: total_time_us\n    max: 10\n    maximum: 3\n",
        4,
        "maximum",
        "unknown key",
    ),
    ("budgets:\n  - metric: total_time\n    max: 10\n", 2, "metric", "unknown metric"),
    ("budgets:\n  - metric: total_time_us\n    max: fast\n", 3, "max", "expected a number"),
    ("budgets:\n  - metric: total_time_us\n    max: -1\n", 3, "max", "expected a number"),
    (
        "budgets:\n  - metric: total_time_us\n    max_increase: lots\n",
        3,
        "max_increase",
        "percentage",
    ),
    ("budgets:\n  - metric: total_time_us\n    max_increase: 5\n", 3, "max_increase", "'5%'"),
    # a code no rule has matched no finding and passed
    ("budgets:\n  - metric: findings\n    code: RKN999\n    max: 0\n", 3, "code", "no rule code"),
    # 1 read as 100 % where 1 % was meant
    ("budgets:\n  - metric: total_time_us\n    max_increase: 1\n", 3, "max_increase", "'1%'"),
    # a rate falls when a run slows: a limit on its increase fails the faster run
    (
        "budgets:\n  - metric: decode_tokens_per_s\n    max_increase: 5%\n",
        3,
        "max_increase",
        "give min (tokens per second) instead",
    ),
    (
        "budgets:\n  - metric: total_time_us\n    max: 1\n    level: fatal\n",
        4,
        "level",
        "error or warn",
    ),
    (
        "budgets:\n  - metric: total_time_us\n    level: warn\n",
        2,
        "budgets[0]",
        "needs max, min or max_increase",
    ),
    ("budgets:\n  - metric: layer_time_us\n    max: 1\n", 2, "match", "missing"),
    (
        "budgets:\n  - metric: total_time_us\n    match: 'x*'\n    max: 1\n",
        3,
        "match",
        "not used by total_time_us",
    ),
    (
        "budgets:\n  - metric: findings\n    severity: fatal\n    max: 1\n",
        3,
        "severity",
        "info, warning or error",
    ),
    (
        "budgets:\n  - metric: total_time_us\n    max: 1\n    min_delta: 5\n",
        4,
        "min_delta",
        "only applies",
    ),
    ("budgets:\n  - metric: total_time_us\n    max: 1\n    max: 2\n", 4, "max", "duplicate"),
    (
        "baseline: b.json\nbudget:\n  - {metric: total_time_us, max: 1}\n",
        2,
        "budget",
        "unknown key",
    ),
    ("budgets: {metric: total_time_us}\n", 1, "budgets", "list"),
    ("budgets:\n  - metric: total_time_us\n    max: [1\n", 4, "invalid YAML", ""),
    ("version: 2\nbudgets:\n  - {metric: total_time_us, max: 1}\n", 1, "version", "only version 1"),
    ("budgets:\n  - total_time_us\n", 2, "budgets[0]", "mapping"),
]


@pytest.mark.parametrize("text, line, key, what", BAD)
def test_bad_budget_files(tmp_path, text, line, key, what):
    f = tmp_path / "rknnprof.yaml"
    f.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_budgets(f)
    message = str(e.value)
    assert message.startswith(f"{f}:{line}: "), message
    assert key in message and what in message
    assert e.value.exit_code == EXIT_USAGE
    assert "\n" not in message


def test_good_file_and_relative_baseline(tmp_path):
    f = tmp_path / "ci" / "rknnprof.yaml"
    f.parent.mkdir()
    f.write_text(
        "version: 1\nbaseline: baseline.json\nbudgets:\n"
        "  - metric: total_time_us\n    max: 25000\n    level: error\n"
        "  - metric: total_time_us\n    max_increase: 5%\n    min_delta: 200\n"
        "  - metric: layer_time_us\n    match: 'Conv:/model.22/*'\n"
        "    max_increase: 0.1\n    level: warn\n"
        "  - {metric: findings, code: rkn001, max: 0, name: no-fallback-finding}\n"
    )
    config = load_budgets(f)
    assert config.baseline == str(tmp_path / "ci" / "baseline.json")
    b = config.budgets
    assert (b[0].max, b[0].level, b[0].line) == (25000, "error", 4)
    assert (b[1].max_increase, b[1].min_delta) == (0.05, 200)
    assert (b[2].match, b[2].max_increase, b[2].level) == ("Conv:/model.22/*", 0.1, "warn")
    assert b[3].code == "RKN001" and b[3].label == "no-fallback-finding"
    assert b[2].label == "layer_time_us[Conv:/model.22/*] max_increase 10%"


def test_every_metric_has_one_measure():
    """The table ``metric_value`` reads is keyed exactly like the documented METRICS."""
    from rknnprof.budgets import METRICS
    from rknnprof.budgets.metrics import METRIC_VALUES

    assert list(METRIC_VALUES) == list(METRICS)


def test_an_elided_table_is_judged_on_the_logs_own_totals():
    """A table with rows elided (``......``) that prints its total line and a ranking (corpus
    05's shape: 2 rows shown of a 20,274 us frame, ConvRelu 13,166 us and 433 us on the CPU in
    the ranking): a forced judgement (--allow-incomplete) took the 2 rows shown (396 us, 21 us
    of CPU). The totals are the log's total line and the ranking's."""
    elided = P(
        L(1, "InputOperator", 21, "InputOperator:data", Target.CPU),
        L(2, "ConvRelu", 375, "Conv:conv1"),
        elided_rows=1,
        reported_total_time_us=20274,
        ranking=(
            OpTypeStat("ConvRelu", 36, 0, 13166, 13166),
            OpTypeStat("Softmax", 1, 387, 0, 387),
            OpTypeStat("InputOperator", 1, 46, 0, 46),
        ),
    )
    assert verdict("{metric: total_time_us, max: 1}", current=elided, base=None).value == 20274
    assert verdict("{metric: cpu_time_us, max: 1}", current=elided, base=None).value == 433
    text = "{metric: op_type_time_us, op_type: ConvRelu, max: 1}"
    assert verdict(text, current=elided, base=None).value == 13166


def test_an_op_type_in_another_case_is_not_0_us():
    """``op_type: convexswish`` passed at 0 us beside 1,750 us of ConvExSwish: inconclusive,
    naming the spelling the log prints."""
    v = verdict("{metric: op_type_time_us, op_type: convexswish, max: 100}")
    assert v.status == "inconclusive"
    assert "the model runs no op type spelt 'convexswish', but ConvExSwish" in v.message


def test_a_change_at_the_limit_shows_the_digit_that_decides():
    """+4.99 % passes and +5.001 % fails an allowed +5 %: both read "+5.0%" before."""
    base = P(L(1, "Conv", 14478, "Conv:x"))
    text = "{metric: total_time_us, max_increase: 5%}"
    under = verdict(text, current=P(L(1, "Conv", 14478 + 723, "Conv:x")), base=base)
    over = verdict(text, current=P(L(1, "Conv", 14478 + 724, "Conv:x")), base=base)
    assert under.status == "pass" and "(+4.99%)" in under.message
    assert over.status == "fail" and "(+5.001%)" in over.message
    assert "(+21.1%)" in verdict("{metric: total_time_us, max_increase: 20%}").message
