from __future__ import annotations

from parser_helpers import corpus_lines, lines_of, of_type, run

from rknnprof.inputs.lines import Line
from rknnprof.parsers.events import FallbackWarningEvent, NpuLoadEvent
from rknnprof.parsers.fallback_warnings import FallbackWarningParser
from rknnprof.parsers.npu_load import NpuLoadParser

REASON = (
    "input shape has exceeded the max limit, height(256) * width(2560) = 655360, "
    "required product no larger than 8192!"
)


def warnings(text: str) -> list[FallbackWarningEvent]:
    return of_type(run(FallbackWarningParser(), lines_of(text)), FallbackWarningEvent)


def test_cpu_fallback_bare_and_with_odd_prefixes() -> None:
    for prefix in ("", "W RKNN: [13:52:53.504] ", "> ", "  |  2024-01-01 W "):
        [event] = warnings(f"{prefix}Transpose will fallback to CPU, because {REASON}")
        assert (event.kind, event.subject, event.reason) == ("cpu", "Transpose", REASON)


def test_stream_is_kept() -> None:
    block = FallbackWarningParser().opens(
        Line(4, "Gather will fallback to CPU, because x", (12, 13))
    )
    [event] = block.close()
    assert (event.line, event.stream) == (4, (12, 13))


def test_multicore_record_takes_its_four_detail_lines() -> None:
    [first, second] = warnings(
        """Failed to config layer: 'Conv:/a' using 3Core fallback to single core mode,
core_num 3 ori_Ih 4 ori_Iw 8400 ori_Ic 16 ori_Ib 1
ori_Kh 1 ori_Kw 1 ori_Kk 1 ori_Kc 16 ori_Ksx 1 ori_Ksy 1
ori_Oh 4 oriOw 8400 oriOc 1 pad_t 0 pad_b 0 pad_l 0 pad_r 0,
Please help report this bug!
Failed to config layer: 'Conv:/b' using 2Core fallback to single core mode,
unrelated"""
    )
    assert (first.kind, first.subject, first.line, first.last_line) == (
        "multicore",
        "Conv:/a",
        1,
        5,
    )
    assert first.reason == "using 3Core fallback to single core mode"
    assert first.details[0] == "core_num 3 ori_Ih 4 ori_Iw 8400 ori_Ic 16 ori_Ib 1"
    assert len(first.details) == 4
    assert (second.subject, second.details, second.last_line) == ("Conv:/b", (), 6)


def test_no_lowering_names_the_node_type_on_its_line_or_the_next() -> None:
    """toolkit2 2.3.2 building a model with an Acos (a public tutorial's log): the node type
    comes on the next line; a line without one is no warning."""
    [event] = warnings(
        "No lowering found for: unsupported_acos_node,\n"
        "node type = Acos, use CustomOperatorLower instead.\n"
    )
    assert (event.kind, event.subject, event.line, event.last_line) == ("cpu", "Acos", 1, 2)
    assert event.reason == (
        "the compiler has no NPU lowering for Acos (`No lowering found for: …, node type = "
        "Acos`): an op the NPU does not run"
    )
    [event] = warnings("E RKNN: No lowering found for: n1, node type = Erf, use X instead.")
    assert (event.subject, event.last_line) == ("Erf", 1)
    assert warnings("No lowering found for: n1,\nsomething else\n") == []
    # a record without its node type does not take the next record's
    [event] = warnings(
        "No lowering found for: a,\nNo lowering found for: b, node type = Resize, use X.\n"
    )
    assert (event.subject, event.line) == ("Resize", 2)
    # one reason per op type, however many nodes (5,000 Resize nodes made RKN001 110 KB)
    many = "".join(f"No lowering found for: n{i}, node type = Resize\n" for i in range(50))
    assert len({e.reason for e in warnings(many)}) == 1


def test_an_unsupported_operator_becomes_a_custom_one() -> None:
    """toolkit2 2.x building a model with an ONNX Scan (a public benchmark's notes): the
    custom-operator line is the next one, indented."""
    [event] = warnings(
        "W RKNN: Meet RKNN unsupport Operator: name = 'chunkwise_scan', type = Scan,\n"
        "        it will be treated as a custom operator.\n"
        "D RKNN: detect pure cpu op model.\n"
    )
    assert (event.kind, event.subject, event.line, event.last_line) == ("cpu", "Scan", 1, 2)
    assert event.reason == (
        "the toolkit has no NPU op for Scan (`Meet RKNN unsupport Operator: …, type = Scan`): "
        "it becomes a custom operator, which runs only with a CPU implementation registered "
        "for it"
    )
    [event] = warnings("Meet RKNN unsupport Operator: name = 'x', type = Loop,\nother\n")
    assert (event.subject, event.last_line) == ("Loop", 1)
    assert event.reason.endswith("type = Loop`)")


def test_the_compiler_turning_an_op_to_its_cpu_implementation() -> None:
    """rockchip-linux/rknn-toolkit2 issue 162 (toolkit2 1.x build of a model with LayerNorm):
    the compiler's own line says the op goes to the CPU; the line before it is its detail, no
    warning of its own. The log's last line has no full stop."""
    events = warnings(
        "I RKNN: [10:18:39.903] Compiler: LayerNorm: input_shape.size() invalid.\n"
        "I RKNN: [10:18:39.903] Compiler: LayerNorm: Shape not support Target:NPU, turn to "
        "Target:CPU implement.\n"
        "W RKNN: [10:18:40.100] dimension -2 of first input must be aligned to 16\n"
        "I RKNN: [10:18:40.101] Compiler: LayerNorm: Shape not support Target:NPU, turn to "
        "Target:CPU implement"
    )
    assert [(e.kind, e.subject, e.line) for e in events] == [
        ("cpu", "LayerNorm", 2),
        ("cpu", "LayerNorm", 4),
    ]
    assert {e.reason for e in events} == {
        "Shape not support Target:NPU, so the compiler turns it to its CPU implementation"
    }


def test_a_log_of_such_lines_is_advised_and_gated_like_other_fallbacks(tmp_path) -> None:
    """The same log alone: RKN001 names LayerNorm and the compiler's reason (exit 0, no table),
    and a ``cpu_fallback_layers: max 0`` budget fails on it, as on a `will fallback to CPU`
    line; the log read as no RKNN data at all."""
    import json

    from click.testing import CliRunner

    from rknnprof.cli import cli

    log = tmp_path / "build.txt"
    log.write_text(
        "D RKNN: [10:18:39.898] >>>>>> start: OpEmit\n"
        "I RKNN: [10:18:39.903] Compiler: LayerNorm: input_shape.size() invalid.\n"
        "I RKNN: [10:18:39.903] Compiler: LayerNorm: Shape not support Target:NPU, turn to "
        "Target:CPU implement.\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["analyze", str(log), "-f", "json"])
    assert result.exit_code == 0, result.output
    [profile] = json.loads(result.stdout)["profiles"]
    [finding] = [f for f in profile["findings"] if f["code"] == "RKN001"]
    assert finding["message"].startswith(
        "the log warns that LayerNorm falls back to the CPU: Shape not support Target:NPU"
    )
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: cpu_fallback_layers\n    max: 0\n")
    result = CliRunner().invoke(cli, ["check", str(log), "--budgets", str(budgets), "-f", "json"])
    assert result.exit_code == 1, result.output
    [verdict] = json.loads(result.stdout)["verdicts"]
    assert verdict["message"].startswith(
        "cpu_fallback_layers >= 1: over max 0 (the log warns that LayerNorm falls back"
    )


def test_a_fallback_warning_beside_a_failed_build_keeps_the_failure(tmp_path) -> None:
    """A log with a CPU-fallback warning and no table, whose build then failed on a Loop (an
    error the catalogue does not know): the failure was dropped, the run read as advice
    (exit 0). A failed build is the log's news: no data (exit 3), the failure first, the
    warning among what the log also holds."""
    import pytest

    from rknnprof.api import analyze
    from rknnprof.errors import NoProfileDataError

    path = tmp_path / "build.txt"
    path.write_text(
        "W RKNN: Meet RKNN unsupport Operator: name = 'chunkwise_scan', type = Scan,\n"
        "        it will be treated as a custom operator.\n"
        "E RKNN: build: The Loop('chunkwise_loop') will cause the graph to be a dynamic graph!\n",
        encoding="utf-8",
    )
    with pytest.raises(NoProfileDataError) as raised:
        analyze([str(path)])
    message = str(raised.value)
    assert ": line 3: an error the failures catalogue does not know: `build: The Loop(" in message
    assert message.endswith("; the log also holds fallback warnings (Scan)")


def test_other_lines_are_not_warnings() -> None:
    assert warnings("fallback to something else\nTranspose will run on NPU") == []


def test_corpus_31_transpose(corpus) -> None:
    [event] = of_type(
        run(FallbackWarningParser(), corpus_lines(corpus("31_"))), FallbackWarningEvent
    )
    assert (event.kind, event.subject, event.reason) == ("cpu", "Transpose", REASON)


def test_corpus_33_multicore_records(corpus) -> None:
    events = of_type(
        run(FallbackWarningParser(), corpus_lines(corpus("33_"))), FallbackWarningEvent
    )
    # Read from the log: four records (the last cut after its first detail word), all about
    # the DFL conv; the first three carry their four detail lines.
    assert [e.subject for e in events] == ["Conv:/model.22/dfl/conv/Conv"] * 4
    assert [e.line for e in events] == [1, 6, 11, 16]
    assert [len(e.details) for e in events[:3]] == [4, 4, 4]
    assert all(e.kind == "multicore" for e in events)


def test_npu_load_multi_and_single_core() -> None:
    out = run(
        NpuLoadParser(),
        lines_of("NPU load:  Core0: 52%, Core1:  0%, Core2:  7%,\nNPU load:  20%\nNPU load: n/a"),
    )
    assert [e.load_pct for e in of_type(out, NpuLoadEvent)] == [(52.0, 0.0, 7.0), (20.0,)]
    assert [e.impossible for e in of_type(out, NpuLoadEvent)] == [(), ()]


def test_npu_load_above_100_percent_is_named() -> None:
    # rockchip-linux/rknpu2 issue 102 (RK3588): a wrapped counter; the single-core form
    # written from the driver's grammar
    out = run(
        NpuLoadParser(),
        lines_of("NPU load:  Core0: 99%, Core1: 99%, Core2: 429496%\nNPU load:  250%"),
    )
    assert [e.impossible for e in of_type(out, NpuLoadEvent)] == [("Core2: 429496%",), ("250%",)]
