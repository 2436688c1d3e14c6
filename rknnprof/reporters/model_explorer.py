"""Per-node data for Google's Model Explorer (``-f model-explorer``, ``-o run.me.json``).

Model Explorer overlays values on a model's graph when given a node-data file
(``model-explorer model.onnx --extensions=model_explorer_onnx --node_data_paths=run.me.json``).
The file is one of the two forms of ``model_explorer/node_data_builder.py`` (package
``ai-edge-model-explorer``):

* by default its graph-independent ``GraphNodeData``, which Model Explorer applies to whatever
  graph is open, whatever its name (``main_graph``, ``torch_jit``, ...)::

    {"results": {"<node id>": {"value": 16130}}, "gradient": [...], "name": "time us"}

* with ``--graph-id NAME``, its ``ModelNodeData``, the same keyed by that graph's name
  (``{"NAME": {"results": ...}}``): a graph of any other name drops it silently;

* the ONNX adapter's node ids are the ONNX node names;
* the node ids are each layer's ``onnx_nodes`` (analysis reads them from its FullName:
  ``Conv:/model.0/conv/Conv`` -> ``/model.0/conv/Conv``); a fused layer gives its value to every
  node it names, and a node several layers name (a MatMul lowered to a Conv and Transposes) gets
  their sum (``time``, ``mac``) or the value of the longest of them (``bound``, ``target``);
* one metric per file (``--metric``): ``time`` (us per frame, a white-to-red gradient), ``mac``
  (multiply-accumulates of a conv, from its shapes), ``bound`` and ``target``: numbers, as
  ``NodeDataResult.value`` is (:data:`BOUND_CODES`, :data:`TARGET_CODES`; the file's ``name``
  says what each number means), each node coloured as the HTML report colours it, by its own
  ``bgColor`` and by ``thresholds``. Layers without a FullName or without the value
  are left out, and so are InputOperator / OutputOperator: they name a graph input or output
  tensor, which Model Explorer would match to the node producing it;
* one file is one model's graph: of several profiles (several logs, or a build estimate before
  the measured table) the first measured one with layers is written (:func:`chosen_profile`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from rknnprof.analysis.mac import conv_macs
from rknnprof.model import Layer, Profile, Report
from rknnprof.reporters.base import RenderOptions, Reporter

METRICS = ("time", "bound", "target", "mac")
"""The ``--metric`` choices, the default first."""
BOUND_CODES = {"compute": 1, "balanced": 2, "bandwidth": 3, "cpu": 4, "unknown": 5}
"""``--metric bound``: the number each label is written as (Model Explorer's node values are
numbers)."""
TARGET_CODES = {"NPU": 1, "GPU": 2, "CPU": 3, "unknown": 4}
"""``--metric target``: the number each target is written as."""
_CODES = {"bound": BOUND_CODES, "target": TARGET_CODES}
_NAMES = {"time": "time us", "mac": "MACs"}

_COLOURS = {  # the HTML report's light palette (assets/report.css), so both views read the same
    "compute": "#0a6fb8",
    "bandwidth": "#b0389d",
    "balanced": "#d99a00",
    "cpu": "#d63b2f",
    "unknown": "#9aa1ad",
    "NPU": "#0a6fb8",
    "CPU": "#d63b2f",
    "GPU": "#d99a00",
}
_GRADIENT = [{"stop": 0, "bgColor": "#ffffff"}, {"stop": 1, "bgColor": "#d63b2f"}]

_VALUES: dict[str, Callable[[Layer], float | str | None]] = {
    "time": lambda layer: layer.time_us,
    "mac": conv_macs,
    "bound": lambda layer: layer.bound.value,
    "target": lambda layer: layer.target.value,
}


def node_values(profile: Profile, metric: str) -> dict[str, float | str]:
    """ONNX node id -> ``metric``'s value, in table order (see the module doc)."""
    value_of = _VALUES[metric]
    numeric = metric in ("time", "mac")
    values: dict[str, float | str] = {}
    longest: dict[str, float] = {}
    for layer in profile.layers:
        value = None if layer.is_io else value_of(layer)
        if value is None:
            continue
        for node in layer.onnx_nodes:
            if numeric and node in values:
                values[node] = float(values[node]) + float(value)
            elif numeric or (layer.time_us or 0.0) > longest.get(node, -1.0):
                values[node] = value
                longest[node] = layer.time_us or 0.0
    return values


def node_data(profile: Profile, metric: str, graph_id: str | None = None) -> dict[str, Any]:
    """The node data of ``profile`` for ``metric``: the graph-independent ``GraphNodeData``
    dict, or with ``graph_id`` the ``ModelNodeData`` dict keyed by it."""
    values = node_values(profile, metric)
    graph: dict[str, Any]
    if metric in _CODES:
        codes = _CODES[metric]
        results = {
            node: {"value": codes[str(v)], "bgColor": _COLOURS.get(str(v), "#ffffff")}
            for node, v in values.items()
        }
        legend = ", ".join(f"{code} {label}" for label, code in codes.items())
        graph = {
            "name": f"{metric} ({legend})",
            "results": results,
            "thresholds": [
                {"value": code, "bgColor": _COLOURS.get(label, "#ffffff")}
                for label, code in codes.items()
            ],
        }
    else:
        results = {node: {"value": _tidy(v)} for node, v in values.items()}
        graph = {"name": _NAMES[metric], "results": results, "gradient": _GRADIENT}
    return {graph_id: graph} if graph_id else graph


def _tidy(value: float | str) -> float | int | str:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def chosen_profile(report: Report) -> Profile | None:
    """The profile the file describes: the first measured one with layers, else the first with
    layers, else the first; ``None`` for an empty report."""
    with_layers = [p for p in report.profiles if p.layers]
    measured = [p for p in with_layers if p.measured]
    return next(iter(measured or with_layers or list(report.profiles)), None)


class ModelExplorerReporter(Reporter):
    name = "model-explorer"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        metric = options.metric if options.metric in METRICS else METRICS[0]
        profile = chosen_profile(report)
        graph_id = options.graph_id or None
        empty: dict[str, Any] = {"results": {}}
        data = node_data(profile, metric, graph_id) if profile else empty
        if not profile and graph_id:
            data = {graph_id: empty}
        json.dump(data, out, indent=1, ensure_ascii=False, allow_nan=False)
        out.write("\n")
