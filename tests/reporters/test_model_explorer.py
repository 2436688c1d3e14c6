"""``-f model-explorer``: the node-data file Model Explorer loads with ``--node_data_paths``, and
the FullName -> ONNX node name mapping it rests on."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rknnprof.analysis.onnx_names import onnx_nodes
from rknnprof.api import analyze
from rknnprof.cli import cli
from rknnprof.model import Target
from rknnprof.reporters.registry import for_suffix
from tests.conftest import CORPUS, corpus_file

# ---- Model Explorer's node-data schema (model_explorer/node_data_builder.py), restated ------


@dataclass
class NodeDataResult:
    value: float | int | str
    bgColor: str | None = None  # noqa: N815 - the schema's spelling
    textColor: str | None = None  # noqa: N815


@dataclass
class GradientItem:
    stop: float | int
    bgColor: str | None = None  # noqa: N815
    textColor: str | None = None  # noqa: N815


@dataclass
class ThresholdItem:
    value: float | int
    bgColor: str  # noqa: N815
    textColor: str | None = None  # noqa: N815


@dataclass
class GraphNodeData:
    results: dict[str, NodeDataResult]
    thresholds: list[ThresholdItem] = field(default_factory=list)
    gradient: list[GradientItem] = field(default_factory=list)
    hideInAggregatedStatsTable: bool = False  # noqa: N815
    hideInChildrenStatsTable: bool = False  # noqa: N815
    hideAggregatedStats: list[str] | None = None  # noqa: N815
    showExpandedSummaryOnGroupNode: bool = False  # noqa: N815
    showLabelCountColumnsInChildrenStatsTable: bool = False  # noqa: N815


def check_model_node_data(data: Any) -> dict[str, GraphNodeData]:
    """Build the schema's dataclasses from ``data`` (ModelNodeData: graph id -> GraphNodeData);
    an unknown key or a missing required one raises TypeError, a wrong type AssertionError."""
    assert isinstance(data, dict) and data
    graphs = {}
    for graph_id, graph in data.items():
        assert isinstance(graph_id, str) and isinstance(graph, dict)
        results = {}
        for node, result in graph.pop("results").items():
            assert isinstance(node, str) and node
            results[node] = NodeDataResult(**result)
            assert isinstance(results[node].value, int | float | str)
        gradient = [GradientItem(**g) for g in graph.pop("gradient", [])]
        thresholds = [ThresholdItem(**t) for t in graph.pop("thresholds", [])]
        if gradient:
            stops = [g.stop for g in gradient]
            assert 0 in stops and 1 in stops, "stops 0 and 1 are required"
        graphs[graph_id] = GraphNodeData(results, thresholds, gradient, **graph)
    return graphs


def _run(prefix: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        cli, ["analyze", str(corpus_file(prefix)), "-f", "model-explorer", *args]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]  # json.loads gives Any


# ---- the file -------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["01_", "07_", "36_"])
@pytest.mark.parametrize("metric", ["time", "bound", "target", "mac"])
def test_corpus_files_pass_the_schema(prefix: str, metric: str) -> None:
    graphs = check_model_node_data(_run(prefix, "--metric", metric))
    assert list(graphs) == ["main_graph"]
    results = graphs["main_graph"].results
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


def test_values_are_the_logs() -> None:
    # corpus 01 row 2: ConvExSwish (1,3,1920,1920),(16,3,3,3) -> (1,16,960,960), 16130 us,
    # DDR 1,091,036 / NPU 8,294,400 cycles (compute); MACs 16*960*960*3*3*3
    time = check_model_node_data(_run("01_"))["main_graph"]
    assert time.results["/model.0/conv/Conv"].value == 16130
    assert [g.stop for g in time.gradient] == [0, 1]
    mac = check_model_node_data(_run("01_", "--metric", "mac"))["main_graph"]
    assert mac.results["/model.0/conv/Conv"].value == 398_131_200
    bound = check_model_node_data(_run("01_", "--metric", "bound"))["main_graph"]
    assert bound.results["/model.0/conv/Conv"].value == "compute"
    assert bound.results["/model.0/conv/Conv"].bgColor
    # corpus 36 row 63: exSDPAttention:node_matmul_1#1_2sdpa, 1338 us, on the NPU
    t36 = check_model_node_data(_run("36_", "--graph-id", "torch_jit"))
    assert t36["torch_jit"].results["node_matmul_1"].value == 1338
    target = check_model_node_data(_run("36_", "--metric", "target"))["main_graph"]
    assert target.results["node_matmul_1"].value == "NPU"
    # Input/OutputOperator name graph tensors (images, output0_reg), not nodes: left out
    assert "images" not in t36["torch_jit"].results
    assert "output0_reg" not in t36["torch_jit"].results


def test_suffix_and_first_profile(tmp_path: Path) -> None:
    assert for_suffix("run.me.json") == "model-explorer"
    assert for_suffix("run.json") == "json"
    out = tmp_path / "run.me.json"
    result = CliRunner().invoke(cli, ["analyze", str(corpus_file("07_")), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "/model.1/conv/Conv" in json.loads(out.read_text())["main_graph"]["results"]
    # two logs: the first measured profile is the one written
    two = CliRunner().invoke(
        cli, ["analyze", str(corpus_file("01_")), str(corpus_file("07_")), "-f", "model-explorer"]
    )
    assert two.exit_code == 0, two.output
    assert json.loads(two.output)["main_graph"]["results"]["/model.0/conv/Conv"]["value"] == 16130


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
