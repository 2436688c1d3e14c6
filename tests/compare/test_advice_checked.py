"""``compare BASE CURRENT`` holds BASE's advice against CURRENT (rknnprof/compare/advice.py).

CURRENT logs are built from a real corpus table (07, yolov5n on one RK3588 core, 2.3.2) by
applying a fix at a known factor, row by row in the printed table: the op type renamed as the
fix renames it, the time cut by the finding's own per-layer promise times the factor, the
total line rewritten to the new sum and the ranking table (which a fixed model would print
anew) left out. The expected verdicts follow from the factor, not from the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rknnprof.api import analyze
from rknnprof.compare import compare_reports
from tests.compare.log_edits import rewrite
from tests.conftest import CORPUS

LOG07 = CORPUS / "07_toolkit2-2.3.2-perfdetail_yolov5n_rk3588_core0.txt"
pytestmark = pytest.mark.skipif(not LOG07.is_file(), reason="corpus folder is absent")


@pytest.fixture(scope="module")
def before():
    return analyze([str(LOG07)])


def _finding(report, code):
    return next(f for f in report.profiles[0].findings if f.code == code)


def _after(tmp_path: Path, before, factor: float, rename: str | None = "ConvRelu") -> str:
    """CURRENT: RKN070's layers as ConvRelu, each faster by ``factor`` x its promised saving."""
    layers = {la.id: la for la in before.profiles[0].layers}
    promise = dict(_finding(before, "RKN070").saving_by_layer)
    changes = {i: (rename, layers[i].time_us - factor * s) for i, s in promise.items()}
    path = tmp_path / "after.txt"
    path.write_text(rewrite(LOG07.read_text(encoding="utf-8"), changes), encoding="utf-8")
    return str(path)


def _outcome(before, after_path: str, code: str):
    after = analyze([after_path])
    comp = compare_reports(before, after).comparisons[0]
    return next(o for o in comp.advice if o.code == code), comp


def test_the_rewritten_after_log_is_a_complete_clean_table(tmp_path, before):
    after = analyze([_after(tmp_path, before, 1.0)])
    profile = after.profiles[0]
    assert profile.validity is not None and profile.validity.complete, profile.validity
    ops = {la.op_type for la in profile.layers}
    assert "ConvExSwish" not in ops and "ConvRelu" in ops


def test_a_swap_at_the_predicted_saving_is_delivered(tmp_path, before):
    promised = _finding(before, "RKN070").est_saving_us
    outcome, _ = _outcome(before, _after(tmp_path, before, 1.0), "RKN070")
    assert outcome.verdict == "delivered"
    assert outcome.predicted_us == pytest.approx(promised)
    # rows print whole microseconds: the measured saving is the promise to within 1 us a row
    assert outcome.measured_us == pytest.approx(promised, abs=outcome.layers)
    assert outcome.delivered_share == pytest.approx(1.0, abs=0.01)


def test_a_swap_at_half_the_saving_is_partly_with_its_share(tmp_path, before):
    outcome, _ = _outcome(before, _after(tmp_path, before, 0.5), "RKN070")
    assert outcome.verdict == "partly"
    assert outcome.delivered_share == pytest.approx(0.5, abs=0.01)
    assert "50% of the promise" in outcome.reason


def test_a_swap_at_twice_the_saving_is_more_than_predicted(tmp_path, before):
    outcome, _ = _outcome(before, _after(tmp_path, before, 2.0), "RKN070")
    assert outcome.verdict == "more"


def test_an_unchanged_run_is_not_made_for_every_finding(tmp_path, before):
    same = tmp_path / "same.txt"
    same.write_text(LOG07.read_text(encoding="utf-8"), encoding="utf-8")
    comp = compare_reports(before, analyze([str(same)])).comparisons[0]
    priced = [f for f in before.profiles[0].findings if f.est_saving_us > 0]
    assert len(comp.advice) == len(priced) >= 2
    assert {o.verdict for o in comp.advice} == {"not-made"}


def test_a_run_at_another_input_size_cannot_tell(tmp_path, before):
    text = LOG07.read_text(encoding="utf-8").replace("(1,3,640,640)", "(1,3,480,480)")
    other = tmp_path / "480.txt"
    other.write_text(text, encoding="utf-8")
    comp = compare_reports(before, analyze([str(other)])).comparisons[0]
    assert comp.advice and {o.verdict for o in comp.advice} == {"cannot-tell"}
    assert all("input shape" in o.reason for o in comp.advice)


def test_a_swap_that_kept_the_activation_is_not_made(tmp_path, before):
    """The layers kept their op type and time: the fix was not made (no miss)."""
    outcome, _ = _outcome(before, _after(tmp_path, before, 0.0, rename=None), "RKN070")
    assert outcome.verdict == "not-made"


def test_layers_only_slower_are_a_fix_not_made(tmp_path, before):
    """RKN070's layers kept their op type and got slower (factor -0.3: 30% of the promise
    added): no fix was made; it read 'partly delivered' at -30%. A changed op type that
    saved nothing stays a fix that delivered none of its promise."""
    outcome, _ = _outcome(before, _after(tmp_path, before, -0.3, rename=None), "RKN070")
    assert outcome.verdict == "not-made"
    assert "us slower, not from a fix" in outcome.reason
    outcome, _ = _outcome(before, _after(tmp_path, before, 0.0), "RKN070")
    assert outcome.verdict == "partly" and "0% of the promise" in outcome.reason


def test_layers_faster_with_their_rows_unchanged_are_a_fix_not_made(tmp_path, before):
    """RKN070's layers kept their op type (ConvExSwish) and got faster by half the promise
    (a rebuild, another runtime): the swap was not made, whatever moved the time; it read
    'partly delivered' at 50%."""
    outcome, _ = _outcome(before, _after(tmp_path, before, 0.5, rename=None), "RKN070")
    assert outcome.verdict == "not-made"
    assert outcome.delivered_share == pytest.approx(0.5, abs=0.01)
    assert "us faster, from another cause than this fix" in outcome.reason


def test_a_layer_whose_shapes_changed_was_touched_by_a_fix() -> None:
    """RKN011's pruning (48 -> 32 input channels) keeps the conv's op type, data type, target
    and cores: only its shapes and time show it. It read 'not made'."""
    from rknnprof.compare.advice import _same_layer
    from rknnprof.model import Layer, Target

    def conv(channels: int, time_us: float) -> Layer:
        return Layer(
            id=5,
            op_type="ConvRelu",
            target=Target.NPU,
            data_type="INT8",
            input_shapes=((1, channels, 80, 80), (64, channels, 3, 3)),
            output_shapes=((1, 64, 80, 80),),
            time_us=time_us,
        )

    assert not _same_layer(conv(48, 600), conv(32, 400), time_too=False)
    assert _same_layer(conv(48, 600), conv(48, 400), time_too=False)


def test_a_fix_only_the_time_shows_is_judged_on_the_time(tmp_path, before, monkeypatch):
    """A rule whose fix leaves the rows as they were (sparse weights, a clock): layers that
    got faster are its fix, partly delivered."""
    from rknnprof.compare import advice
    from rknnprof.model.record import replace

    rule = advice.by_code("RKN070")
    assert rule is not None and rule.fix_shows_in_rows
    monkeypatch.setattr(advice, "by_code", lambda code: replace(rule, fix_shows_in_rows=False))
    outcome, _ = _outcome(before, _after(tmp_path, before, 0.5, rename=None), "RKN070")
    assert outcome.verdict == "partly" and "50% of the promise" in outcome.reason


def _run(capsys, monkeypatch, *args):
    from tests.hostile.helpers import run

    return run(capsys, monkeypatch, *args)


def test_expect_passes_a_delivered_fix_and_fails_a_short_one(tmp_path, capsys, monkeypatch, before):
    after = _after(tmp_path, before, 1.0)
    code, out, err = _run(capsys, monkeypatch, "compare", str(LOG07), after, "--expect", "RKN070")
    assert code == 0, err
    assert "Advice from BASE, checked against CURRENT" in out
    assert "RKN070 activation-swap: delivered" in out
    half = _after(tmp_path, before, 0.5)
    code, out, err = _run(
        capsys, monkeypatch, "compare", str(LOG07), half, "--expect", "RKN070:80%"
    )
    assert code == 1
    assert "Error: RKN070 activation-swap: delivered 50% of the promised" in err
    assert "(expected at least 80%) (--expect)" in err


def test_expect_fails_when_the_finding_was_not_made(tmp_path, capsys, monkeypatch, before):
    same = tmp_path / "same.txt"
    same.write_text(LOG07.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = _run(
        capsys, monkeypatch, "compare", str(LOG07), str(same), "--expect", "RKN070"
    )
    assert code == 1
    assert "RKN070 activation-swap: still in CURRENT's advice" in err


def test_expect_refuses_what_is_not_a_rule_code(capsys, monkeypatch):
    code, out, err = _run(capsys, monkeypatch, "compare", str(LOG07), str(LOG07), "--expect", "x")
    assert code == 2 and "expected a rule code such as RKN070[:50%]" in err
    # a code of the right shape that no rule has: a typo made the gate always pass
    code, out, err = _run(
        capsys, monkeypatch, "compare", str(LOG07), str(LOG07), "--expect", "RKN999"
    )
    assert code == 2 and "no rule has the code RKN999" in err


def test_expect_warns_when_before_never_advised_the_code(capsys, monkeypatch):
    """07 gets no RKN002 (it is INT8): nothing was promised, so nothing fails, but it is said
    (it passed without a word)."""
    code, out, err = _run(
        capsys, monkeypatch, "compare", str(LOG07), str(LOG07), "--expect", "RKN002"
    )
    assert code == 0
    assert (
        "Warning: --expect RKN002: BASE's advice holds no RKN002 finding that promised a "
        "saving: nothing to check"
    ) in err


def test_the_json_document_carries_each_verdict(tmp_path, capsys, monkeypatch, before):
    import json

    after = _after(tmp_path, before, 0.5)
    code, out, err = _run(capsys, monkeypatch, "compare", str(LOG07), after, "-f", "json")
    assert code == 0, err
    advice = {a["code"]: a for a in json.loads(out)["comparisons"][0]["advice"]}
    assert advice["RKN070"]["verdict"] == "partly"
    assert advice["RKN070"]["delivered_share"] == pytest.approx(0.5, abs=0.01)
    assert advice["RKN030"]["verdict"] == "not-made"


def test_junit_fails_exactly_the_unmet_expectation(tmp_path, capsys, monkeypatch, before):
    import xml.etree.ElementTree as ET

    half = _after(tmp_path, before, 0.5)
    code, out, err = _run(
        capsys,
        monkeypatch,
        "compare",
        str(LOG07),
        half,
        "-f",
        "junit",
        "--expect",
        "RKN070:80%",
        "--expect",
        "RKN002",
    )
    assert code == 1  # the exit code and the report agree: one failure, RKN070's
    root = ET.fromstring(out)
    [suite] = root.findall("testsuite")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert root.get("failures") == suite.get("failures") == "1"
    failure = cases["RKN070 activation-swap"].find("failure")
    assert failure is not None and failure.get("type") == "expect"
    assert "delivered 50% of the promised" in failure.get("message", "")
    # RKN030 was not expected: its verdict is reported, it fails nothing
    assert cases["RKN030 multi-core-imbalance"].find("failure") is None
    assert cases["RKN030 multi-core-imbalance"].findtext("system-out", "").startswith("not-made")
    # a code BASE never advised promised nothing: it passes, and says so
    assert "nothing was promised" in cases["RKN002 (expected)"].findtext("system-out", "")
    assert "total 14.48 ms" in cases["total time"].findtext("system-out", "")


def test_junit_total_time_fails_past_fail_over(tmp_path, capsys, monkeypatch, before):
    import xml.etree.ElementTree as ET

    # CURRENT: RKN070's layers 2x their promise *slower* (factor -2): the total grows
    slower = _after(tmp_path, before, -2.0, rename=None)
    code, out, err = _run(
        capsys, monkeypatch, "compare", str(LOG07), slower, "-f", "junit", "--fail-over", "5"
    )
    assert code == 1
    root = ET.fromstring(out)
    total = next(c for c in root.iter("testcase") if c.get("name") == "total time")
    failure = total.find("failure")
    assert failure is not None and "grew more than --fail-over 5%" in failure.get("message", "")
    assert root.get("failures") == "1"


def test_a_fix_not_made_is_told_from_the_rows_across_frame_counts(tmp_path, before):
    """BASE one frame, CURRENT three (its Concat #10 a microsecond apart each): the times are
    not like for like (frames merged), but the 57 ConvExSwish layers are still ConvExSwish, on
    the same core, at the same shapes: RKN070 was not made (it read 'cannot tell')."""
    text = LOG07.read_text(encoding="utf-8")
    layers = {la.id: la for la in before.profiles[0].layers}
    assert layers[10].op_type == "Concat"
    frames = [rewrite(text, {10: (None, layers[10].time_us + k)}) for k in range(3)]
    after = tmp_path / "three.txt"
    after.write_text("".join(frames), encoding="utf-8")
    outcome, comp = _outcome(before, str(after), "RKN070")
    assert any(d.startswith("frames merged") for d in comp.differences), comp.differences
    assert outcome.verdict == "not-made" and outcome.measured_us is None
    assert "op type, data type, target, cores and shapes unchanged (times not compared" in (
        outcome.reason
    )


def test_the_layers_a_swap_renamed_are_counted_as_op_type_changes(tmp_path, before):
    """CURRENT prints RKN070's layers as ConvRelu: each is an op type change (the summary
    counted added, removed, target and data type changes only)."""
    from rknnprof.reporters.compare_views import summary_counts

    promise = dict(_finding(before, "RKN070").saving_by_layer)
    _, comp = _outcome(before, _after(tmp_path, before, 1.0), "RKN070")
    renamed = comp.op_type_changes
    assert {d.base_id for d in renamed} == set(promise) and len(promise) == 57
    assert {(d.base_op_type, d.current_op_type) for d in renamed} == {("ConvExSwish", "ConvRelu")}
    assert summary_counts(comp).endswith("0 changed data type, 57 changed op type")
    from rknnprof.reporters.compare_views import change_note

    assert {change_note(d) for d in renamed} == {"ConvExSwish→ConvRelu"}  # (the Note column)
