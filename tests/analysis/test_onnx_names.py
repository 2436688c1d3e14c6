"""The ONNX node names a layer's FullName stands for (``analysis.onnx_names``)."""

from __future__ import annotations

import time

from rknnprof.analysis.onnx_names import onnx_nodes


def test_blanks_around_separators_are_dropped_and_a_long_run_costs_one_pass() -> None:
    assert onnx_nodes("Conv:/a/Conv , Relu:/a/Relu ;  Add:/b/Add") == (
        "/a/Conv",
        "/a/Relu",
        "/b/Add",
    )
    name = "Conv:/a/Conv" + "\t" * 60_000 + "x"  # (3.9 s at 20,000 blanks before)
    start = time.perf_counter()
    onnx_nodes(name)
    assert time.perf_counter() - start < 1.0
