"""``-f model-explorer``: the node-data file Model Explorer loads with ``--node_data_paths``, and
the FullName -> ONNX node name mapping it rests on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rknnprof.analysis.onnx_names import onnx_nodes
from rknnprof.api import analyze
from rknnprof.cli import cli
from rknnprof.model import Target
from rknnprof.reporters.model_explorer import BOUND_CODES, TARGET_CODES
from rknnprof.reporters.registry import for_suffix
from tests.conftest import CORPUS, corpus_file

# ---- Model Explorer's own node-data classes ---------------------------------------------------

try:
    import model_explorer.node_data_builder as ME  # noqa: N812 - the package's module
except ImportError:  # the name-mapping tests below still run
    ME = None
NO_ME = (
    "ai-edge-model-explorer is not installed (pip install -e '.[test]' installs it): the "
    "node-data files are validated with Model Explorer's own classes, never a restatement"
)


def _number(value: Any) -> bool:
    """``Num = Union[float, int]`` of node_data_builder (a bool is not one)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def graph_node_data(graph: Any) -> Any:
    """Model Explorer's ``GraphNodeData`` built from one graph's dict with its own dataclasses
    (an unknown key or a missing required one raises TypeError); each value must be a number, as
    ``NodeDataResult.value: Num`` says, and its own ``to_json_string`` must give back the dict."""
    if ME is None:
        pytest.skip(NO_ME)
    assert isinstance(graph, dict) and isinstance(graph.get("results"), dict)
    fields = dict(graph)
    results = {}
    for node, result in fields.pop("results").items():
        assert isinstance(node, str) and node
        results[node] = ME.NodeDataResult(**result)
        assert _number(results[node].value), (node, results[node].value)
    gradient = [ME.GradientItem(**g) for g in fields.pop("gradient", [])]
    thresholds = [ME.ThresholdItem(**t) for t in fields.pop("thresholds", [])]
    assert all(_number(t.value) for t in thresholds)
    if gradient:
        stops = [g.stop for g in gradient]
        assert 0 in stops and 1 in stops, "stops 0 and 1 are required"
    built = ME.GraphNodeData(results=results, gradient=gradient, thresholds=thresholds, **fields)
    defaults = json.loads(ME.GraphNodeData(results={}).to_json_string())
    assert json.loads(built.to_json_string()) == {**defaults, **graph}  # nothing lost or changed
    return built


def check_graph_independent(data: Any) -> Any:
    """The default file: one ``GraphNodeData``, which Model Explorer applies to any graph."""
    return graph_node_data(data)


def check_model_node_data(data: Any) -> dict[str, Any]:
    """A ``--graph-id`` file: ``ModelNodeData`` (graph id -> GraphNodeData)."""
    assert isinstance(data, dict) and data and "results" not in data
    if ME is None:
        pytest.skip(NO_ME)
    model = ME.ModelNodeData(graphsData={g: graph_node_data(d) for g, d in data.items()})
    assert set(json.loads(model.to_json_string())) == set(data)
    return dict(model.graphsData)


def _run(prefix: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        cli, ["analyze", str(corpus_file(prefix)), "-f", "model-explorer", *args]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]  # json.loads gives Any


# ---- the file -------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["01_", "07_", "36_"])
@pytest.mark.parametrize("metric", ["time", "bound", "target", "mac"])
def test_corpus_files_pass_model_explorers_classes(prefix: str, metric: str) -> None:
    # the default: graph-independent, keyed to no graph name
    data = _run(prefix, "--metric", metric)
    assert "main_graph" not in data
    results = check_graph_independent(data).results
    profile = analyze(corpus_file(prefix)).profiles[0]
    for layer in profile.layers:
        if layer.target is not Target.NPU:
            continue
        # every NPU layer's node id is in its FullName, and (time/bound/target) in the file
        node = layer.onnx_nodes[0]  # stored by analysis
        assert layer.onnx_nodes == onnx_nodes(layer.full_name)
        assert node in (layer.full_name or "")
        if metric != "mac":
            assert node in results, (layer.id, layer.full_name)


def test_a_graph_not_named_main_graph_gets_the_overlay() -> None:
    # corpus 07 (yolov5n, RK3588), for an ONNX graph exported as torch_jit (older PyTorch): the
    # default file names no graph, so Model Explorer applies it to torch_jit; --graph-id keys it
    default = check_graph_independent(_run("07_"))
    keyed = check_model_node_data(_run("07_", "--graph-id", "torch_jit"))
    assert list(keyed) == ["torch_jit"]
    assert keyed["torch_jit"].results == default.results
    # corpus 07 layer 3: Conv:/model.0/conv/conv/Conv, 1814 us
    assert default.results["/model.0/conv/conv/Conv"].value == 1814


def test_values_are_the_logs() -> None:
    # corpus 01 row 2: ConvExSwish (1,3,1920,1920),(16,3,3,3) -> (1,16,960,960), 16130 us,
    # DDR 1,091,036 / NPU 8,294,400 cycles (compute); MACs 16*960*960*3*3*3
    time = check_graph_independent(_run("01_"))
    assert time.results["/model.0/conv/Conv"].value == 16130
    assert [g.stop for g in time.gradient] == [0, 1]
    assert time.name == "time us"
    mac = check_graph_independent(_run("01_", "--metric", "mac"))
    assert mac.results["/model.0/conv/Conv"].value == 398_131_200
    bound = check_graph_independent(_run("01_", "--metric", "bound"))
    # a number, as Model Explorer's NodeDataResult.value is; the name says which label it is
    assert bound.results["/model.0/conv/Conv"].value == BOUND_CODES["compute"] == 1
    assert "1 compute" in bound.name and "3 bandwidth" in bound.name
    assert bound.results["/model.0/conv/Conv"].bgColor
    assert [t.value for t in bound.thresholds] == sorted(BOUND_CODES.values())
    # corpus 36 row 63: exSDPAttention:node_matmul_1#1_2sdpa, 1338 us, on the NPU
    t36 = check_model_node_data(_run("36_", "--graph-id", "torch_jit"))
    assert t36["torch_jit"].results["node_matmul_1"].value == 1338
    target = check_graph_independent(_run("36_", "--metric", "target"))
    assert target.results["node_matmul_1"].value == TARGET_CODES["NPU"]
    assert "1 NPU" in target.name
    # Input/OutputOperator name graph tensors (images, output0_reg), not nodes: left out
    assert "images" not in t36["torch_jit"].results
    assert "output0_reg" not in t36["torch_jit"].results


def test_suffix_and_first_profile(tmp_path: Path) -> None:
    assert for_suffix("run.me.json") == "model-explorer"
    assert for_suffix("run.json") == "json"
    out = tmp_path / "run.me.json"
    result = CliRunner().invoke(cli, ["analyze", str(corpus_file("07_")), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "/model.1/conv/Conv" in json.loads(out.read_text())["results"]
    # two logs: the first measured profile is the one written
    two = CliRunner().invoke(
        cli, ["analyze", str(corpus_file("01_")), str(corpus_file("07_")), "-f", "model-explorer"]
    )
    assert two.exit_code == 0, two.output
    assert json.loads(two.output)["results"]["/model.0/conv/Conv"]["value"] == 16130


# ---- the name mapping -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("full_name", "nodes"),
    [
        ("Conv:/model.0/conv/Conv", ("/model.0/conv/Conv",)),  # 01, 07
        ("Conv:node_conv2d_1", ("node_conv2d_1",)),  # 36
        ("Conv:Conv_0", ("Conv_0",)),  # 08
        ("OutputOperator:onnx::ReduceSum_330", ("onnx::ReduceSum_330",)),  # 01
        ("exSDPAttention:node_matmul_1#1_2sdpa", ("node_matmul_1",)),  # 36
        ("Conv:/blocks/attn/MatMul#2_ConvAdd", ("/blocks/attn/MatMul",)),
        ("Conv:node_conv2d_36_ConvAdd", ("node_conv2d_36",)),
        ("Conv:/model.22/ReduceSum_2conv", ("/model.22/ReduceSum",)),
        ("Conv:/model.22/ReduceSum_2_2conv", ("/model.22/ReduceSum_2",)),
        ("Conv:MatMul_6_2gemm_2conv", ("MatMul_6",)),
        ("Transpose:MatMul_6_2conv_transpose1", ("MatMul_6",)),
        ("Conv:/head/GlobalAveragePool_2conv_0", ("/head/GlobalAveragePool",)),
        ("ConvTranspose:Resize_84_2deconv", ("Resize_84",)),
        ("exLayerNorm:ReduceMean_38_2layer_norm", ("ReduceMean_38",)),
        ("exDataConvert:/enc/LayerNorm__cvt_int8_float16", ("/enc/LayerNorm",)),
        ("Reshape:/head/Reshape_rs", ("/head/Reshape",)),
        ("Conv:/a/Conv,Add:/a/Add", ("/a/Conv", "/a/Add")),
        ("Conv:/a/conv_2d", ("/a/conv_2d",)),  # a real _2d stays
        (
            "MobilenetV1/MobilenetV1/Conv2d_0/Relu6_1_RKNN_mark_perm_60_0",  # 09, toolkit 1
            ("MobilenetV1/MobilenetV1/Conv2d_0/Relu6_1",),
        ),
        ("", ()),
        (None, ()),
    ],
)
def test_onnx_nodes(full_name: str | None, nodes: tuple[str, ...]) -> None:
    assert onnx_nodes(full_name) == nodes


def test_every_corpus_table_maps() -> None:
    """Every FullName of every corpus table gives node names that are pieces of it, free of the
    op-class prefix and the compiler's marks."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is absent (set RKNNPROF_CORPUS)")
    seen = 0
    for path in sorted(CORPUS.glob("[0-9]*.txt")):
        try:
            report = analyze(path)
        except Exception:  # noqa: BLE001 - logs without a table are other tests' business
            continue
        for layer in (la for p in report.profiles for la in p.layers if la.full_name):
            nodes = layer.onnx_nodes
            assert nodes and nodes == onnx_nodes(layer.full_name), (path.name, layer.full_name)
            for node in nodes:
                seen += 1
                assert node in layer.full_name, (path.name, layer.full_name, node)
                assert "#" not in node and not node.endswith(("_2sdpa", "_rs", "_ConvAdd"))
                if ":" in layer.full_name and not layer.full_name.startswith(node):
                    prefix = layer.full_name.split(":", 1)[0]
                    assert not node.startswith(prefix + ":"), (layer.full_name, node)
    assert seen > 400  # 01, 07, 08, 36 and the fragments


def test_the_palette_is_the_html_reports():
    """Model Explorer's node colours are the HTML report's (assets/report.css, light theme), as
    the README says: balanced was blue-violet in one and amber in the other."""
    import re
    from pathlib import Path

    from rknnprof.reporters import model_explorer

    css = (Path(model_explorer.__file__).parent / "assets" / "report.css").read_text()
    light = dict(re.findall(r"--(\w+):(#[0-9a-f]{6})", css.split("}", 1)[0]))
    for label in ("compute", "bandwidth", "balanced", "cpu", "unknown"):
        assert model_explorer._COLOURS[label] == light[label], label
