"""compare: alignment, hand-computed deltas, like-for-like warnings, renderers."""

from __future__ import annotations

import io
import json

import pytest

from rknnprof.compare import align, compare_profiles, compare_reports, cores_used
from rknnprof.model import (
    Frequencies,
    Layer,
    OpTypeStat,
    Profile,
    Report,
    SourceSpan,
    Target,
    Versions,
)
from rknnprof.model.record import replace
from rknnprof.reporters.registry import format_names


def L(
    id,
    op,
    t,
    name=None,
    target=Target.NPU,
    dt="INT8",
    ins=None,
    outs=None,  # noqa: E741
    wl=None,
):
    return Layer(
        id=id,
        op_type=op,
        time_us=t,
        full_name=name,
        target=target,
        data_type=dt,
        input_shapes=ins,
        output_shapes=outs,
        workload_pct=wl,
    )


def P(*layers, path="x.txt", **kw):
    return Profile(
        source=SourceSpan(path), format="toolkit2-perf-table", layers=tuple(layers), **kw
    )


BASE = P(
    L(1, "InputOperator", 4, "InputOperator:images", Target.CPU, "UINT8"),
    L(2, "ConvExSwish", 1000, "Conv:/model.0/conv/Conv"),
    L(3, "ConvExSwish", 500, "Conv:/model.1/conv/Conv"),
    L(4, "Softmax", 200, "Softmax:/model.9/Softmax"),
    L(5, "Add", 100, "Add:/model.2/Add"),
    L(6, "OutputOperator", 10, "OutputOperator:out", Target.CPU),
)
CURRENT = P(
    L(1, "InputOperator", 4, "InputOperator:images", Target.CPU, "UINT8"),
    L(2, "ConvExSwish", 1100, "Conv:/model.0/conv/Conv"),  # +100 (+10 %)
    L(3, "ConvExSwish", 450, "Conv:/model.1/conv/Conv"),  # -50 (-10 %)
    L(4, "Softmax", 900, "Softmax:/model.9/Softmax", Target.CPU, "FLOAT16"),  # +700, to CPU
    L(5, "Mul", 60, "Mul:/model.3/Mul"),  # added
    L(6, "OutputOperator", 10, "OutputOperator:out", Target.CPU),
)
# Removed: Add (100). Totals: base 1814, current 2524 -> +710 (+39.14 %).


def test_hand_computed_deltas():
    comp = compare_profiles(BASE, CURRENT)
    assert comp.base_total_us == 1814
    assert comp.current_total_us == 2524
    assert comp.delta_us == 710
    assert comp.delta_pct == pytest.approx(710 / 1814 * 100)
    by_name = {d.name: d for d in comp.layers}
    assert by_name["Conv:/model.0/conv/Conv"].delta_us == 100
    assert by_name["Conv:/model.0/conv/Conv"].delta_pct == pytest.approx(10.0)
    assert by_name["Conv:/model.1/conv/Conv"].delta_pct == pytest.approx(-10.0)
    sm = by_name["Softmax:/model.9/Softmax"]
    assert (sm.delta_us, sm.base_target, sm.current_target) == (700, "NPU", "CPU")
    assert sm.moved_to_cpu and sm.data_type_changed
    assert [d.name for d in comp.added] == ["Mul:/model.3/Mul"]
    assert [d.name for d in comp.removed] == ["Add:/model.2/Add"]
    assert by_name["Add:/model.2/Add"].delta_us == -100
    assert [d.name for d in comp.target_changes] == ["Softmax:/model.9/Softmax"]
    # sorted by absolute change: 700, 100 (Conv0) / -100 (Add), 60, -50, 0, 0
    assert [abs(d.delta_us) for d in comp.layers] == [700, 100, 100, 60, 50, 0, 0]
    ops = {o.op_type: o for o in comp.op_types}
    assert ops["ConvExSwish"].delta_us == 50 and ops["ConvExSwish"].delta_pct == pytest.approx(
        50 / 1500 * 100
    )
    assert (ops["Add"].base_calls, ops["Add"].current_calls, ops["Add"].delta_us) == (1, 0, -100)
    assert ops["Mul"].delta_pct is None
    assert comp.op_types[0].op_type == "Softmax"


def test_alignment_passes():
    base = [
        L(1, "Conv", 10, "Conv:a"),
        L(2, "Conv", 10, None, ins=((1, 8),), outs=((1, 4),)),
        L(3, "Relu", 10, None),
        L(4, "Add", 5, None),
    ]
    cur = [
        L(7, "Conv", 10, None, ins=((1, 8),), outs=((1, 4),)),
        L(8, "Conv", 12, "Conv:a"),
        L(9, "Relu", 11, None),
        L(10, "Mul", 5, None),
    ]
    pairs = {(i, j): how for i, j, how in align(base, cur)}
    assert pairs[(0, 1)] == "full_name"
    assert pairs[(1, 0)] == "signature"
    assert pairs[(2, 2)] == "order"
    assert pairs[(3, None)] is None and pairs[(None, 3)] is None


def test_repeated_full_names_pair_in_order():
    base = [L(1, "Conv", 10, "Conv:x"), L(2, "Conv", 20, "Conv:x")]
    cur = [L(1, "Conv", 11, "Conv:x"), L(2, "Conv", 22, "Conv:x")]
    assert sorted(align(base, cur)) == [(0, 0, "full_name"), (1, 1, "full_name")]


def _at(size, conv_us, path):
    """A one-conv model at a size x size input."""
    shape = ((1, 3, size, size),)
    return P(
        L(1, "InputOperator", 4, "InputOperator:images", Target.CPU, "UINT8", outs=shape),
        L(2, "ConvRelu", conv_us, "Conv:/model.0/conv/Conv", ins=shape),
        path=path,
    )


def test_a_dynamic_shape_models_profiles_pair_by_input_shape():
    """One model at two input shapes on each side, in another order: each input shape is
    compared with itself (by order, 640 would be held against 320)."""
    base = Report(profiles=(_at(640, 1000, "b"), _at(320, 250, "b")))
    current = Report(profiles=(_at(320, 260, "c"), _at(640, 1100, "c")))
    result = compare_reports(base, current)
    assert [(c.base_total_us, c.current_total_us) for c in result.comparisons] == [
        (1004, 1104),
        (254, 264),
    ]
    assert not any("not like for like" in w for w in result.warnings)


def test_a_dynamic_shape_models_other_inputs_stay_unpaired():
    """BASE at 640 and 320, CURRENT at 480 and 640: 640 with 640, named by its input; 320 and
    480 are each on one side only (by order, 640 would have been held against 480)."""
    base = Report(profiles=(_at(640, 1000, "b"), _at(320, 250, "b")))
    current = Report(profiles=(_at(480, 560, "c"), _at(640, 1100, "c")))
    result = compare_reports(base, current)
    assert [(c.model, c.base_total_us, c.current_total_us) for c in result.comparisons] == [
        ("input 1x3x640x640", 1004, 1104)
    ]
    assert "input 1x3x320x320 only in BASE" in result.warnings
    assert "input 1x3x480x480 only in CURRENT" in result.warnings


def _model(stem: str, times: tuple[int, ...], line: int) -> Profile:
    layers = [L(k + 1, "Conv", t, f"Conv:/{stem}.{k}/Conv") for k, t in enumerate(times)]
    return Profile(
        source=SourceSpan("x.txt", line, line + 9),
        format="toolkit2-perf-table",
        layers=tuple(layers),
    )


def test_models_pair_by_their_layers_before_order():
    """A capture where two processes print different models (yolov5n, yolo26n), the baseline
    holds the yolo26n alone: order paired the yolov5n with it (-23.9%, a pass) and left the
    yolo26n's +17% unjudged. Each model pairs with the one whose layers it shares; swapped
    models pair crosswise; the one without a partner is named."""
    v5, v26 = _model("v5", (1000, 2000), 1), _model("v26", (3000, 4000), 1)
    slow_v26 = _model("v26", (3500, 4700), 20)
    result = compare_reports(
        Report(profiles=(v26,)), Report(profiles=(_model("v5", (900, 1900), 1), slow_v26))
    )
    [comp] = result.comparisons
    assert (comp.base_total_us, comp.current_total_us) == (7000, 8200)
    assert "a model of CURRENT (line 1) has no model of BASE with its layers" in result.warnings
    swapped = compare_reports(Report(profiles=(v5, v26)), Report(profiles=(slow_v26, v5)))
    assert [(c.base_total_us, c.current_total_us) for c in swapped.comparisons] == [
        (3000, 3000),
        (7000, 8200),
    ]


def test_self_compare_is_zero():
    comp = compare_profiles(BASE, BASE)
    assert comp.delta_us == 0 and comp.delta_pct == 0
    assert all(d.delta_us == 0 and d.status == "matched" for d in comp.layers)
    assert not comp.differences and not comp.added and not comp.target_changes


def test_comparability_differences():
    base = P(
        L(1, "Conv", 10, "c", wl=(100.0, 0.0, 0.0)),
        platform="rk3588",
        versions=Versions(runtime="2.3.2", driver="0.9.8"),
        frequencies=Frequencies(npu_hz=(1_000_000_000,)),
    )
    cur = P(
        L(1, "Conv", 10, "c", wl=(34.0, 33.0, 33.0)),
        platform="rk3588",
        versions=Versions(runtime="2.3.0", driver="0.9.8"),
        frequencies=Frequencies(npu_hz=(800_000_000,), ddr_hz=(528_000_000,)),
        frames=5,
    )
    # (the DDR clock: a run at 528 MHz against the base's 2112 MHz passed as like for like)
    base = replace(base, frequencies=Frequencies(npu_hz=(1_000_000_000,), ddr_hz=(2_112_000_000,)))
    diffs = compare_profiles(base, cur).differences
    assert diffs == (
        "runtime version: 2.3.2 vs 2.3.0",
        "NPU frequency: 1000 MHz vs 800 MHz",
        "DDR frequency: 2112 MHz vs 528 MHz",
        "NPU cores used: core0 vs core0+1+2",
        "frames merged: 1 vs 5 (a frame's times against medians: capture 3 or more frames on "
        "both sides)",
    )
    result = compare_reports(Report((base,)), Report((cur,)))
    assert "not like for like: runtime version: 2.3.2 vs 2.3.0" in result.warnings
    assert cores_used(P(L(1, "Conv", 1))) is None


def test_medians_of_many_frames_on_both_sides_are_like_for_like():
    """27 against 28 frames are per-layer medians on both sides (two captures of one model);
    2 against 28 hang on two frames: flagged."""
    layer = L(1, "Conv", 10, "c")
    assert compare_profiles(P(layer, frames=27), P(layer, frames=28)).differences == ()
    assert compare_profiles(P(layer, frames=2), P(layer, frames=28)).differences == (
        "frames merged: 2 vs 28 (a frame's times against medians: capture 3 or more frames on "
        "both sides)",
    )


def test_different_models_are_flagged():
    base = P(L(1, "Conv", 10, "Conv:a"), L(2, "Conv", 10, "Conv:b"), L(3, "Add", 1, "Add:c"))
    cur = P(L(1, "Conv", 10, "Conv:x"), L(2, "Conv", 10, "Conv:b"), L(3, "Mul", 1, "Mul:y"))
    assert compare_profiles(base, cur).differences == (
        "layers: only 1 of 3 align by FullName or shapes (different models?)",
    )
    assert compare_profiles(base, base).differences == ()


def test_ranking_only_profiles_compare_by_op_type():
    def R(*rows):
        stats = tuple(OpTypeStat(op, calls, cpu, npu, cpu + npu) for op, calls, cpu, npu in rows)
        return Profile(source=SourceSpan("r.txt"), format="toolkit2-ranking", ranking=stats)

    # corpus 27 vs 28 in miniature: Resize leaves the CPU
    base = R(("ConvLeakyRelu", 21, 0, 49852), ("Resize", 3, 23583, 0))
    cur = R(("ConvLeakyRelu", 14, 0, 5929), ("Resize", 2, 0, 372))
    comp = compare_profiles(base, cur)
    assert comp.base_total_us == 49852 + 23583
    assert comp.delta_us == (5929 + 372) - (49852 + 23583)
    assert [o.op_type for o in comp.op_types] == ["ConvLeakyRelu", "Resize"]
    assert comp.op_types[1].delta_us == 372 - 23583
    assert comp.layers == ()


def test_fail_over():
    result = compare_reports(Report((BASE,)), Report((CURRENT,)))
    assert result.slowed_by_more_than(39.0) and not result.slowed_by_more_than(40.0)


@pytest.mark.parametrize("fmt", format_names("compare"))
def test_renderers(fmt):
    from rknnprof.reporters import RenderOptions, renderer

    result = compare_reports(Report((BASE,)), Report((CURRENT,)), "base.txt", "cur.txt")
    out = io.StringIO()
    renderer("compare", fmt)(result, out, RenderOptions())
    text = out.getvalue()
    if fmt == "junit":  # test cases for CI: the total and the advice, no layer table
        import xml.etree.ElementTree as ET

        total = ET.fromstring(text).find(".//testcase[@name='total time']")
        assert total is not None and "(+" in total.findtext("system-out", "")
        return
    assert "Softmax:/model.9/Softmax" in text
    if fmt == "json":
        data = json.loads(text)
        comp = data["comparisons"][0]
        assert comp["delta_us"] == 710
        assert comp["layers"][0]["name"] == "Softmax:/model.9/Softmax"
        assert comp["target_changes"] == ["Softmax:/model.9/Softmax"]
    elif fmt == "csv":
        lines = text.strip().splitlines()
        assert len(lines) == 1 + 7
    else:
        assert "+710" in text and "NPU→CPU" in text
        if fmt == "table":  # (the moved layers' lines under a heading, not loose below the table)
            assert "Layers that changed target or data type" in text


def test_a_wrapped_advice_line_keeps_its_indent(tmp_path):
    """The table's 'Advice from BASE' lines wrap under their first letter, not at the left
    edge among the section titles."""
    from pathlib import Path

    from click.testing import CliRunner

    from rknnprof.cli import cli

    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "yolov5s_rk3588_perf.txt"
    result = CliRunner().invoke(
        cli, ["compare", str(sample), str(sample), "--color", "never"], env={"COLUMNS": "60"}
    )
    lines = result.stdout.splitlines()
    start = lines.index("Advice from BASE, checked against CURRENT") + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith(" "))
    advice = lines[start:end]
    assert len(advice) > 3 and advice[0].startswith(" RKN070 activation-swap: not made")
    assert lines[end].startswith("89 layers: 0 added")  # the next section, right after


@pytest.mark.parametrize("terminal", [True, False])
def test_like_for_like_warnings_once_on_a_terminal(tmp_path, monkeypatch, terminal):
    """On a terminal the table report shows the 'not like for like' lines, and stderr (the
    same screen) repeated them: printed twice. Elsewhere stderr keeps them (a file, a pipe, CI
    annotations)."""
    from pathlib import Path

    from click.testing import CliRunner

    from rknnprof.cli import cli, output

    monkeypatch.setattr(output, "one_terminal", lambda: terminal)
    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "yolov5s_rk3588_perf.txt"
    text = sample.read_text(encoding="utf-8")
    other = tmp_path / "rk3566.txt"
    other.write_text(text.replace("target platform: rk3588", "target platform: rk3566"))
    result = CliRunner().invoke(cli, ["compare", str(sample), str(other), "--color", "never"])
    assert "Warning: not like for like: platform" in result.stdout
    assert ("not like for like" in result.stderr) is not terminal


def test_a_run_without_layer_times_is_no_minus_100_percent(tmp_path):
    """The sample against itself printed under a ``Time(ms)`` header (no time for its rows):
    every layer read -100 %; no layer or op type time is compared now, and the comparison says
    why."""
    from pathlib import Path

    from rknnprof.api import analyze
    from rknnprof.compare import compare_reports

    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "yolov5s_rk3588_perf.txt"
    untimed = tmp_path / "untimed.txt"
    table = "\n".join(sample.read_text().split("\n")[:102]) + "\n"  # (no ranking after it)
    untimed.write_text(table.replace(" Time(us) ", " Time(ms) "))
    [comp] = compare_reports(analyze(sample), analyze(untimed)).comparisons
    assert [d for d in comp.layers if d.changed] == [] and comp.op_types == ()
    assert any("the CURRENT log prints no Time(us)" in d for d in comp.differences)
