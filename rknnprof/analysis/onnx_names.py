"""The ONNX node names an RKNN layer stands for, read from its FullName.

A FullName is ``<RKNN op class>:<ONNX node name>[suffix]`` (seen in public RKNN logs):

* ``Conv:/model.0/conv/Conv`` -> ``/model.0/conv/Conv`` (corpus 01, 07: torch.onnx names);
* ``Conv:node_conv2d_3`` -> ``node_conv2d_3`` (corpus 36: dynamo names), ``Conv:Conv_0`` (08);
* ``OutputOperator:onnx::ReduceSum_330`` -> ``onnx::ReduceSum_330`` (only the first ``:`` after
  an op-class word separates; ONNX names may hold ``::``);
* the compiler's suffixes go: ``#…`` (``exSDPAttention:node_matmul_1#1_2sdpa`` ->
  ``node_matmul_1``, ``…/MatMul#2_ConvAdd``), lowering marks ``_2<op>[_N]`` (``Resize_84_2deconv``,
  ``ReduceSum_2_2conv`` -> ``ReduceSum_2``, ``MatMul_6_2gemm_2conv``, ``…_2conv_transpose1``,
  ``ReduceMean_38_2layer_norm``; three letters at least, so ``conv_2d`` stays), a fused RKNN
  op class after a number (``node_conv2d_36_ConvAdd``), an
  inserted reshape's ``_rs`` and a data convert's ``__cvt_int8_float16``;
* a fused layer naming several ops (``Conv:/a/Conv,Add:/a/Add``, ``;`` or ``+`` between
  parts) stands for each of them.

Toolkit 1 names (corpus 09, no ``Op:`` prefix) are kept whole but for the ``_RKNN_mark…``
marks; a layer without a FullName names no node.
"""

from __future__ import annotations

from rknnprof.inputs.lazy_re import LazyPattern

_PREFIX = LazyPattern(r"^[A-Za-z][A-Za-z0-9_]*:(?!:)")
"""``Conv:`` -- an op-class word and one colon (not the first colon of ``onnx::``)."""
_SPLIT = LazyPattern(r"[,;+]")
_SUFFIXES = (
    LazyPattern(r"#.*$"),  # compiler copy / fusion marks: #1_2sdpa, #2_ConvAdd
    LazyPattern(r"__cvt_[A-Za-z0-9_]+$"),  # inserted data convert
    LazyPattern(r"_RKNN_mark\w*$"),  # toolkit 1 inserted transposes
    LazyPattern(r"_rs\d*$"),  # inserted reshape
    LazyPattern(r"_2[a-z]{3,}[a-z_]*?(?:_?\d+)?(?=$|_2[a-z])"),  # lowering: _2conv, _2gemm_2conv
    # a fused op class after a number: node_conv2d_36_ConvAdd
    LazyPattern(r"(?<=\d)_(?:Conv|Add|Mul|Sub|Relu|ex[A-Z])[A-Za-z0-9]*$"),
)


def _strip(name: str) -> str:
    name = _PREFIX.sub("", name.strip(), count=1)
    changed = True
    while changed and name:
        changed = False
        for suffix in _SUFFIXES:
            stripped = suffix.sub("", name)
            if stripped != name and stripped:
                name, changed = stripped, True
    return name


def onnx_nodes(full_name: str | None) -> tuple[str, ...]:
    """The ONNX node names ``full_name`` stands for, in order, without repeats; ``()`` when
    there is no FullName."""
    if not full_name or not full_name.strip():
        return ()
    names: list[str] = []
    for part in _SPLIT.split(full_name.strip()):  # (blanks around a separator: part.strip())
        part = part.strip()
        name = _strip(part) if part else ""
        if name and name not in names:
            names.append(name)
    return tuple(names)
