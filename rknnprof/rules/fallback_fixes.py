"""What RKN001 tells the user to change, by the class of the op that ran on the CPU: a custom
op, a normalisation, a layout op, an elementwise function, an index op, a pooling or softmax
outside the NPU's limits, or the limit a fallback warning prints.

The classes (:func:`is_custom`, :func:`is_norm`, :data:`POOL_OPS`, :data:`SOFTMAX_OPS`) are
also what :mod:`rknnprof.rules.fallback` prices and explains by.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Layer

POOL_OPS = {"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"}
SOFTMAX_OPS = {"Softmax", "exSoftmax13", "exSoftmaxMask", "LogSoftmax"}


def is_custom(op: str) -> bool:
    """A user-registered custom op: the SDK's custom-operator chapter names them with the
    prefix ``cst`` (``cstSoftmax``); the runtime runs it where its kernel was registered."""
    return op[:3].lower() == "cst"


def is_norm(op: str, layers: Sequence[Layer]) -> bool:
    """A normalisation, by op type or by the ONNX names in the FullName (a custom
    ``cstInstanceNorm``, an ``InstanceNormalization`` on the CPU)."""
    names = [op] + [la.full_name or "" for la in layers]
    return any("norm" in name.lower() for name in names)


def is_instance_norm(op: str, layers: Sequence[Layer]) -> bool:
    """An instance normalisation (over H and W: axes [2,3] of NCHW), by op type or FullName."""
    names = [op] + [la.full_name or "" for la in layers]
    return any("instancenorm" in name.lower() for name in names)


SOFTMAX_FIX = (
    "end the exported model before the softmax and compute it on the CPU: a classifier's "
    "output needs only its top scores (the argmax of the logits), a detector's softmax/DFL "
    "decoding runs after the score threshold, on the boxes that pass"
)
NORM_FIX = (
    "let the toolkit map the normalisation to its NPU kernel (exNorm): export the standard op "
    "(torch.nn.LayerNorm / InstanceNorm / GroupNorm over axes [1] or [1,2,3] of NCHW) instead "
    "of a custom op or a decomposed form"
)
CUSTOM_FIX = (
    "a custom op runs where its kernel was registered: register a GPU (OpenCL) kernel for it "
    "instead of the CPU one (the SDK's custom-operator chapter), or replace it in the exported "
    "model with ops the NPU runs"
)
INSTANCE_NORM_FIX = (
    "export the standard InstanceNormalization: the toolkit runs it on the NPU as exNorm between "
    "two Transposes (exNorm takes axes [1] or [1,2,3], an InstanceNorm's are [2,3]), a slow "
    "path of its own"
)
CUSTOM_INSTANCE_NORM_FIX = (
    "drop the custom op and export the standard InstanceNormalization (the toolkit runs it on "
    "the NPU as exNorm between two Transposes: exNorm takes axes [1] or [1,2,3], an "
    "InstanceNorm's are [2,3]); where it must stay custom, register its GPU (OpenCL) kernel "
    "instead of the CPU one (the SDK's custom-operator chapter)"
)
CUSTOM_NORM_FIX = (
    "drop the custom op and let the toolkit map the normalisation natively (export the "
    "standard LayerNorm / InstanceNorm / GroupNorm over axes [1] or [1,2,3]: it becomes exNorm "
    "on the NPU); where it must stay custom, register its GPU (OpenCL) kernel instead of the "
    "CPU one (the SDK's custom-operator chapter)"
)
LAYOUT_FIX = (
    "end the exported model before this reshape (do it on the output in post-processing), "
    "or keep the tensor 4-D so the NPU Reshape takes it"
)
LAYOUT_OUTPUT_FIX = (
    "it reshapes a model output: end the exported model before it and do the reshape in "
    "post-processing"
)
LAYOUT_RANK_FIX = "keep the tensor 4-D across the reshape so the NPU Reshape takes it"
LAYOUT_INPUT_FIX = (
    "it makes a model input of lower rank 4-D (the toolkit adds such a reshape): export the "
    "model with the 4-D input it reshapes to ({shape}) and feed that"
)
LAYOUT_BATCH_FIX = (
    "it moves data into or out of the batch axis (N {before} -> {after}): force it onto the NPU "
    "with rknn.config(op_target={{'<its output tensor>': 'npu'}}) (RKNN-Toolkit2 API Reference, "
    "config) and check the accuracy; where the ops around it allow (an attention op reads its "
    "heads on N), keep the heads or groups off the batch axis instead"
)
LAYOUT_FORCE_FIX = (
    "a 4-D reshape inside the model: force it onto the NPU with "
    "rknn.config(op_target={'<its output tensor>': 'npu'}) (RKNN-Toolkit2 API Reference, config) "
    "and check the accuracy, or fold it into the neighbouring op's layout in the exported model"
)
LAYOUT_OPS = ("Reshape", "Flatten", "Squeeze", "Unsqueeze")
MATH_FIX = (
    "the NPU has no kernel for this elementwise function: compute it outside the model "
    "(post-processing), or approximate it with NPU ops (Mul/Add polynomial, a LUT activation) "
    "and check the accuracy"
)
INDEX_FIX = (
    "index ops (Gather/Scatter/TopK) have no NPU kernel here: move them to post-processing, "
    "or replace a constant-index Gather by Slice/Concat"
)
PAD_FIX = (
    "NPU Pad takes constant or reflect mode (reflect: channel and height <= 8192, width <= "
    "8176): export one of those modes within the limits"
)
POOL_FIX = (
    "export the pooling within the NPU limits: kernel <= 7, stride <= 8, pad <= 7, ceil_mode "
    "off, count_include_pad=1"
)
FIXES = {
    "Transpose": "reshape around the Transpose so the permuted h*w stays within the platform limit "
    "(e.g. fold a spatial dim into the channel axis)",
    "Resize": "export Resize as nearest (or linear with half_pixel) with an integer x2..x8 scale",
    "Pow": "replace Pow(x, 2) by Mul(x, x) (and Pow(x, 0.5) by Sqrt) in the exported model",
    "Pad": PAD_FIX,
    **dict.fromkeys(SOFTMAX_OPS, SOFTMAX_FIX),
    **dict.fromkeys(POOL_OPS, POOL_FIX),
    **dict.fromkeys(LAYOUT_OPS, LAYOUT_FIX),
    **dict.fromkeys(
        (
            "Acos",
            "Asin",
            "Atan",
            "Acosh",
            "Asinh",
            "Atanh",
            "Cos",
            "Sin",
            "Tan",
            "Cosh",
            "Sinh",
            "Exp",
            "Log",
            "Erf",
            "Floor",
            "Ceil",
            "Round",
            "Mod",
            "Sign",
            "Reciprocal",
            "Abs",
            "Neg",
            "Sqrt",
        ),
        MATH_FIX,
    ),
    **dict.fromkeys(
        ("Gather", "GatherElements", "GatherND", "ScatterND", "ScatterElements", "TopK"),
        INDEX_FIX,
    ),
}
GENERIC_FIX = (
    "rewrite the op with NPU-supported ops in the exported model (User Guide §8.4.1: an "
    "equivalent subgraph the NPU runs), or compute it outside the model"
)
SHUFFLE_FIX = (
    "rewrite the op with NPU-supported ops in the exported model (User Guide §8.4.1, "
    "e.g. a channel shuffle as a 0/1-weight Conv)"
)


SMALL_TRANSPOSE_FIX = (
    "its tensors are far inside the NPU Transpose's size limit, so the size is not the cause: "
    "check the permutation and data type against the Operator List (Transpose), or do the "
    "permutation in the pre- or post-processing"
)
SMALL_HW = 2048
"""Below every SoC's Transpose limit on the permuted h*w (RK3588: 8192, with 2048 on q)."""


def _small(layer: Layer) -> bool:
    """Every input tensor's last two dims multiply to at most :data:`SMALL_HW` (shapes known)."""
    shapes = layer.input_shapes or ()
    return bool(shapes) and all(
        len(shape) >= 2 and shape[-1] * shape[-2] <= SMALL_HW for shape in shapes if shape
    )


def _layout_fix(layer: Layer, outputs: Sequence[Layer], inputs: Sequence[Layer] = ()) -> str:
    """A layout op's fix by where it stands and its tensors: it makes a model input of lower
    rank 4-D (an InputOperator gives its input shape), it feeds a model output (an
    OutputOperator takes its output shape), a tensor not 4-D, the batch axis changing, or a
    4-D reshape inside the model; the general fix when its shapes are not known."""
    ins, outs = layer.input_shapes or (), layer.output_shapes or ()
    if not ins or not outs or not ins[0] or not outs[0]:
        return LAYOUT_FIX
    if len(ins[0]) < 4 == len(outs[0]) and any(ins[0] in (i.output_shapes or ()) for i in inputs):
        shape = "x".join(map(str, outs[0]))
        return LAYOUT_INPUT_FIX.format(shape=shape)
    if any(outs[0] in (out.input_shapes or ()) for out in outputs):
        return LAYOUT_OUTPUT_FIX
    if len(ins[0]) != 4 or len(outs[0]) != 4:
        return LAYOUT_RANK_FIX
    if ins[0][0] != outs[0][0]:
        return LAYOUT_BATCH_FIX.format(before=ins[0][0], after=outs[0][0])
    return LAYOUT_FORCE_FIX


def fix_for(op: str, layers: Sequence[Layer] = (), model: Sequence[Layer] = ()) -> str:
    """The change that fits the op's class: a custom op (GPU kernel, or the native norm), a
    normalisation, a layout op (by where it stands in ``model``, the profile's layers, and its
    tensors), an elementwise function, … The guide's channel-shuffle example only for ops that
    shuffle channels (ShuffleChannel, DepthToSpace, SpaceToDepth)."""
    if is_custom(op):
        if is_instance_norm(op, layers):
            return CUSTOM_INSTANCE_NORM_FIX
        return CUSTOM_NORM_FIX if is_norm(op, layers) else CUSTOM_FIX
    if op == "Transpose" and layers and all(_small(la) for la in layers):
        return SMALL_TRANSPOSE_FIX
    if op in LAYOUT_OPS and layers and model:
        outputs = [la for la in model if la.op_type == "OutputOperator"]
        inputs = [la for la in model if la.op_type == "InputOperator"]
        fixes = {la.id: _layout_fix(la, outputs, inputs) for la in layers}
        distinct = list(dict.fromkeys(fixes.values()))
        if len(distinct) == 1:
            return distinct[0]
        if len(distinct) == 2:  # (one for a model input, one for an output: each by its layers)
            return "; ".join(
                f"#{', #'.join(str(i) for i, f in fixes.items() if f == fix)}: {fix}"
                for fix in distinct
            )
        return LAYOUT_FIX
    if op in FIXES:
        return FIXES[op]
    if is_instance_norm(op, layers):
        return INSTANCE_NORM_FIX
    if is_norm(op, layers):
        return NORM_FIX
    if op in ("ShuffleChannel", "DepthToSpace", "SpaceToDepth"):
        return SHUFFLE_FIX
    return GENERIC_FIX


PRINTED_LIMIT = LazyPattern(r"no larger than (\d[\d,]*)", re.IGNORECASE)
"""The limit a fallback warning prints (``required product no larger than 8192!``)."""


def limit_fix(op: str, reason: str) -> str:
    """The fix for an op the log warns about: reshape or chunk it to the limit the warning
    prints, when it prints one; else the op class's fix."""
    found = PRINTED_LIMIT.search(reason)
    if found is None:
        return fix_for(op)
    limit = int(found.group(1).replace(",", ""))
    return (
        f"reshape or chunk the {op} so the product the warning names stays at most {limit:,} "
        "(the limit this runtime prints): fold a spatial dim into the channel axis, or split "
        "the tensor along it and concatenate the pieces"
    )
