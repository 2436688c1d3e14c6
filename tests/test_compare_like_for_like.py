"""Issue 22, compare: rows a log elided are "not shown", never "removed" or "added"; runs with
different input shapes, data types, cores, platforms or runtime versions are named "not like for
like", one line each, in every format (terminal, JSON, Markdown, HTML; CSV's status column).

Logs are written from the grammar (tests/synthetic_logs.py); the expected lines are read off
them.
"""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest
from synthetic_logs import table

from rknnprof.cli import main
from rknnprof.compare import compare_profiles
from rknnprof.model import Layer, Profile, SourceSpan, Target, Versions

TIMES = [12, 900, 700, 500, 300, 25]


def run(capsys, monkeypatch, *args):
    monkeypatch.setattr(sys, "argv", ["rknnprof", *args])
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def write(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def elided(times):
    """The same table as ``table(times)`` with rows 3 and 4 replaced by a ``......`` line (as
    corpus 03's author did), the total line still the whole frame's."""
    lines = table(times)
    rows = lines[5 : 5 + len(times)]
    return [*lines[:5], *rows[:2], "......", *rows[4:], *lines[5 + len(times) :]]


@pytest.fixture
def logs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    whole = table(TIMES)
    return {
        "base": write(tmp_path / "base.log", whole),
        "elided": write(tmp_path / "elided.log", elided(TIMES)),
        # the same model fed a 64x48 image: only the input shape differs
        "shape": write(tmp_path / "shape.log", [x.replace("(1,3,64,64)", "(1,3,48,64)") for x in whole]),
        # the same model converted to FLOAT16 (DataType column, width 9)
        "fp16": write(tmp_path / "fp16.log", [x.replace("INT8     ", "FLOAT16  ") for x in whole]),
    }  # fmt: skip


def test_elided_rows_are_not_shown_not_removed(logs, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "compare", logs["base"], logs["elided"])
    assert code == 0
    assert "2 not shown (the log left them out)" in out
    assert "0 added, 0 removed" in out
    assert not any(line.rstrip().endswith(("removed", "added")) for line in out.splitlines())
    assert "not shown in CURRENT" in out
    assert "CURRENT shows part of the model" in err
    code, out, err = run(capsys, monkeypatch, "compare", logs["base"], logs["elided"], "-f", "json")
    [comp] = json.loads(out)["comparisons"]
    assert comp["removed"] == [] and comp["added"] == []
    assert sorted(comp["not_shown"]) == ["Conv:/m/conv3/Conv", "Conv:/m/conv4/Conv"]
    # (its total is the log's own total line: the whole frame, so no partial side for totals)
    assert comp["partial_sides"] == [] and comp["current_total_us"] == comp["base_total_us"]
    not_shown = [d for d in comp["layers"] if d["status"] == "not-shown"]
    assert {d["base_time_us"] for d in not_shown} == {700, 500}
    assert {d["delta_us"] for d in not_shown} == {0}
    # the other way round, the rows BASE left out are not "added"
    code, out, err = run(capsys, monkeypatch, "compare", logs["elided"], logs["base"], "-f", "json")
    [comp] = json.loads(out)["comparisons"]
    assert comp["added"] == [] and len(comp["not_shown"]) == 2
    code, out, err = run(capsys, monkeypatch, "compare", logs["base"], logs["elided"], "-f", "csv")
    statuses = [row["status"] for row in csv.DictReader(io.StringIO(out))]
    assert statuses.count("not-shown") == 2 and "removed" not in statuses


@pytest.mark.parametrize(
    ("which", "line"),
    [
        ("shape", "not like for like: input shape: (1,3,64,64) vs (1,3,48,64)"),
        ("fp16", "not like for like: data type: INT8 vs FLOAT16"),
    ],
)
def test_not_like_for_like_in_every_format(which, line, logs, capsys, monkeypatch):
    args = ("compare", logs["base"], logs[which])
    code, out, err = run(capsys, monkeypatch, *args)
    assert f"Warning: {line}" in err and line in out
    assert err.count("not like for like") == 1  # one line each: nothing else differs
    code, out, err = run(capsys, monkeypatch, *args, "-f", "json")
    doc = json.loads(out)
    assert line in doc["warnings"]
    assert doc["comparisons"][0]["differences"] == [line.removeprefix("not like for like: ")]
    code, out, err = run(capsys, monkeypatch, *args, "-f", "markdown")
    assert f"> ⚠️ {line}" in out
    code, out, err = run(capsys, monkeypatch, *args, "-f", "html")
    assert f"warning: {line}" in out


def _profile(**kw):
    layers = (
        Layer(
            id=1,
            op_type="InputOperator",
            time_us=5,
            target=Target.CPU,
            data_type="UINT8",
            output_shapes=((1, 3, 1920, 1920),),
            full_name="InputOperator:images",
        ),
        Layer(id=2, op_type="Conv", time_us=900, target=Target.NPU, data_type="INT8",
              workload_pct=(100.0, 0.0, 0.0), full_name="Conv:/c"),
    )  # fmt: skip
    return Profile(source=SourceSpan("x.log"), format="toolkit2-perf-table", layers=layers, **kw)


def test_platform_runtime_and_cores_are_named():
    base = _profile(platform="rk3588", versions=Versions(runtime="2.3.2"))
    cur = Profile(
        **{
            **{f: getattr(base, f) for f in ("source", "format")},
            "layers": (
                base.layers[0],
                Layer(id=2, op_type="Conv", time_us=700, target=Target.NPU, data_type="INT8",
                      workload_pct=(33.3, 33.3, 33.3), full_name="Conv:/c"),
            ),
            "platform": "rk3576",
            "versions": Versions(runtime="2.1.0"),
        }
    )  # fmt: skip
    assert compare_profiles(base, cur).differences == (
        "platform: rk3588 vs rk3576",
        "runtime version: 2.3.2 vs 2.1.0",
        "NPU cores used: core0 vs core0+1+2",
    )


def test_1920x1920_against_1920x1088_is_not_like_for_like(corpus, tmp_path, capsys, monkeypatch):
    """Corpus 01 against itself fed a 1920x1088 image (the InputOperator's shape edited in a
    copy made here): the total change is printed, and said not to be like for like."""
    original = corpus("01_")
    text = original.read_text()
    assert text.count("(1,3,1920,1920)") >= 1
    edited = tmp_path / "01_1088.txt"
    edited.write_text(text.replace("(1,3,1920,1920)", "(1,3,1088,1920)"))
    code, out, err = run(capsys, monkeypatch, "compare", str(original), str(edited), "-f", "json")
    doc = json.loads(out)
    assert "not like for like: input shape: (1,3,1920,1920) vs (1,3,1088,1920)" in doc["warnings"]


def test_fail_over_does_not_judge_a_partial_side(logs, tmp_path, capsys, monkeypatch):
    """BASE elided (rows 3 and 4 left out) without its total line: CURRENT looks 100 % slower,
    but that is the rows BASE does not show, not a slowdown. With the total line, the totals
    are the log's own lines, and a slower CURRENT fails (a compare of the rows shown had hidden
    a +6.9 % regression behind -37.5 %)."""
    cut = [line for line in elided(TIMES) if "Total Operator Elapsed" not in line]
    no_total = write(tmp_path / "no_total.log", cut)
    code, out, err = run(capsys, monkeypatch, "compare", no_total, logs["base"], "--fail-over", "5")
    assert code == 0
    assert "--fail-over not judged: BASE shows part of the model" in err
    code, out, err = run(
        capsys, monkeypatch, "compare", logs["elided"], logs["base"], "--fail-over", "5"
    )
    assert code == 0 and "not judged" not in err
    slower = write(tmp_path / "slower.log", elided([12, 900, 700, 500, 600, 25]))
    code, out, err = run(capsys, monkeypatch, "compare", logs["base"], slower, "--fail-over", "5")
    assert code == 1
    assert "total time grew +12.3% (more than --fail-over 5%)" in err


def test_a_damaged_side_is_named_once(logs, tmp_path, capsys, monkeypatch):
    """The table printed twice under one header: named as damaged, and its InputOperator row
    printed twice is still one input (no input-shape line)."""
    from damaged_logs import printed_twice

    (tmp_path / "twice.log").write_text(printed_twice()[0])
    code, out, err = run(capsys, monkeypatch, "compare", logs["base"], "twice.log", "-f", "json")
    [comp] = json.loads(out)["comparisons"]
    assert comp["differences"] == [
        "CURRENT's table is damaged (layer ID 1 repeats (and 5 more): a row duplicated or a "
        "table printed twice under one header)"
    ]


def _model(width: int, size: int = 640, reshaped: int = 8) -> Profile:
    """An input and eight convs named as one YOLO graph; the first ``reshaped`` convs have
    ``width`` channels (yolov5n against yolov5s: the same names, other widths)."""
    layers = [
        Layer(id=1, op_type="InputOperator", time_us=5, target=Target.CPU,
              output_shapes=((1, 3, size, size),), full_name="InputOperator:images"),
    ]  # fmt: skip
    for k in range(8):
        channels = width * (k + 1) if k < reshaped else 16 * (k + 1)
        layers.append(
            Layer(id=k + 2, op_type="Conv", time_us=100 + k, target=Target.NPU,
                  output_shapes=((1, channels, size // 8, size // 8),),
                  full_name=f"Conv:/model.{k}/conv/Conv")
        )  # fmt: skip
    return Profile(source=SourceSpan("x.log"), format="toolkit2-perf-table", layers=tuple(layers))


def test_another_width_of_the_model_is_not_like_for_like():
    """yolov5s against yolov5n: every layer aligns by FullName, the input is the same, and
    nearly every layer's output shape differs: the runs are of two models."""
    comp = compare_profiles(_model(width=16), _model(width=32))
    assert (  # (the input layer's shape is the same: 8 of the 9 moved)
        "layer shapes: 8 of 9 layers aligned by FullName have other output shapes under the "
        "same input (another width of the model?)"
    ) in comp.differences


def test_a_few_reshaped_layers_or_another_input_size_are_not_called_another_width():
    # channels padded on two layers (a MAC-usage fix): 2 of 9 moved, under a quarter
    assert not any(
        d.startswith("layer shapes:")
        for d in compare_profiles(_model(16), _model(32, reshaped=2)).differences
    )
    # another input size moves every layer: the input shape line says it (a resolution fix is
    # judged on the whole frame), not a second line
    comp = compare_profiles(_model(16), _model(16, size=320))
    assert "input shape: (1,3,640,640) vs (1,3,320,320)" in comp.differences
    assert not any(d.startswith("layer shapes:") for d in comp.differences)


def test_an_elided_side_of_the_model_is_not_called_another_model(corpus):
    """corpus 01 against corpus 03 (the same post's yolov8n with its rows elided: 3 shown):
    the rows shown align; the rows the log left out are no sign of another model (it said
    'only 3 of 108 align ... (different models?)')."""
    from rknnprof.api import load

    [base], [cur] = load(str(corpus("01_")), rules=False), load(str(corpus("03_")), rules=False)
    comp = compare_profiles(base, cur)
    assert not any(d.startswith("layers: only") for d in comp.differences)
    assert "the runs are of other models (their layers barely align)" not in comp.unjudged


def test_layers_of_other_models_are_not_paired_by_their_op_types_order(corpus):
    """yolov5n (corpus 07) against yolo26n (corpus 36): few layers align by FullName or shapes;
    pairing the rest by the order of their op types compared one model's Conv#4 with the
    other's (a 645 -> 292 us 'change')."""
    from rknnprof.api import load

    [base], [cur] = load(str(corpus("07_")), rules=False), load(str(corpus("36_")), rules=False)
    comp = compare_profiles(base, cur)
    assert any(d.startswith("layers: only") for d in comp.differences)
    assert not [d for d in comp.layers if d.matched_by == "order"]
    assert {d.status for d in comp.layers if d.matched_by is None} == {"added", "removed"}
