"""RKN060 post-processing inside the model: softmax/DFL decoding, data conversions and the
box-decode tail (Gather/Slice/Sub/Mul…) after the last feature convolution, run on the NPU.

The tables print no edges. The tail is read from the table order: the layers after the last
convolution that is not part of a DFL, up to the outputs. A ranking table alone (or one whose
rows are elided) gives only op types: then only the softmax family is claimed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rknnprof.analysis.mac import is_conv
from rknnprof.analysis.savings import from_removal
from rknnprof.model import Confidence, Finding, Layer, OpTypeStat, Profile, Severity, Target
from rknnprof.rules._util import (
    feeds,
    following,
    grade,
    labels,
    of_frame,
    opt,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import priced
from rknnprof.rules.sources import TOOLKIT2, cite, issue, sources

CODE, NAME = "RKN060", "post-processing"
SOFTMAX_OPS = frozenset(
    {"exSoftmax13", "Softmax", "exSoftmaxMask", "LogSoftmax", "Hardmax", "ArgMax", "ArgMin", "TopK"}
)
"""Op types that decode detections or classes rather than extract features."""
DECODE_MARKERS = SOFTMAX_OPS | {
    "Gather",
    "GatherElements",
    "Slice",
    "Sub",
    "Div",
    "Exp",
    "exDataConvert",
    "ReduceMax",
    "ReduceSum",
}
"""A tail counts as post-processing when it holds one of these (or a DFL): a tail of only
Reshape/Concat/Transpose is the model's own output layout."""
TAIL_OPS = DECODE_MARKERS | {
    "Reshape",
    "Transpose",
    "Concat",
    "Split",
    "Mul",
    "Add",
    "Sigmoid",
    "Resize",
    "Squeeze",
    "Unsqueeze",
    "Flatten",
    "Cast",
    "ReduceMean",
    "Max",
    "Min",
    "Clip",
}
"""Op types a decode tail is made of; any other op (a MatMul, an attention, a norm) ends the
scan, so a network without convs near its end is never read as one long tail."""
LIKELY_DECODE = ("Sigmoid", "Sub", "Mul", "Div", "Gather", "Slice", "exDataConvert")
"""Op types a ranking-only log mentions as probably part of the decode (named, not claimed)."""
ATTENTION_OPS = frozenset({"exMatMul", "MatMul", "Gemm", "exSDPAttention"})
"""A softmax feeding one of these is attention, not decoding."""
STRONG_MARKERS = SOFTMAX_OPS | {"Sigmoid", "Exp"}
"""What only a decode does after a transformer's last projection: its Sub, Mul, Split and
Concat are as likely a rotary position embedding (a public SmolVLA query probe: Split, Mul,
Sub, Add, Concat after ``q_proj``)."""
_LINEAR_NAMES = ("matmul", "gemm")
"""A conv the compiler made of a MatMul or Gemm (``Conv:/q_proj_1/MatMul#2``): a linear
layer, the mark of a transformer."""
MAX_RANKED_CALLS = 3
"""Ranking only: a softmax op type with more calls than this (one per head, per block) is not
read as post-processing."""
OUTPUT_WINDOW = 6
"""A softmax-family layer with an OutputOperator within this many layers is post-processing
even outside the tail (one decode per detection branch)."""
SOURCE = sources(
    cite("ops", "Softmax, exSoftmax13 (axis 1 or 3, no multi-core)"),
    issue("THU-MIG/yolov10", 115, "DFL exSoftmax13 14,254 us"),
    issue(TOOLKIT2, 54),
    cite("zoo-yolov8", "model export without the decode"),
)
FIX = (
    "end the exported model before the softmax/decode (at the logits or the last convs, as "
    "rknn_model_zoo's exports do) and run it on the CPU: a classifier needs only its top "
    "scores (the argmax of the logits), a detector decodes after the score threshold, only "
    "the boxes that pass"
)


def _is_dfl(layer: Layer) -> bool:
    return "dfl" in (layer.full_name or "").lower()


def _tail(layers: Sequence[Layer]) -> list[Layer]:
    """The layers after the last feature conv, in table order (a conv named DFL, or fed by a
    softmax, belongs to the decode; outputs are skipped); the scan also ends at an op no decode
    is made of (``TAIL_OPS``). Judged on its NPU layers; a CPU layer of a decode op type (a CPU
    Gather) inside a tail that is one is part of it: cutting the model before the decode
    removes it too, so RKN001 leaves it to this rule (:func:`covered_layers`); other CPU layers
    are skipped, being RKN001's."""
    tail: list[Layer] = []
    boundary: Layer | None = None
    for index in range(len(layers) - 1, -1, -1):
        layer = layers[index]
        if layer.is_io or layer.target is not Target.NPU and layer.op_type not in TAIL_OPS:
            continue
        if layer.target is not Target.NPU:
            tail.append(layer)
            continue
        after_softmax = (
            index > 0
            and layers[index - 1].op_type in SOFTMAX_OPS
            and feeds(layers[index - 1], layer)
        )
        if is_conv(layer) and not (_is_dfl(layer) or after_softmax):
            boundary = layer
            break
        if not is_conv(layer) and layer.op_type not in TAIL_OPS:
            boundary = layer
            break
        tail.append(layer)
    tail.reverse()
    npu = [la for la in tail if la.target is Target.NPU]
    markers = STRONG_MARKERS if _transformer(layers, boundary) else DECODE_MARKERS
    return tail if any(la.op_type in markers or _is_dfl(la) for la in npu) else []


def _transformer(layers: Sequence[Layer], boundary: Layer | None) -> bool:
    """The tail follows a transformer's linear layer (a MatMul made a conv, or an attention
    or matmul op), or the model has attention or an exNorm: only a softmax, sigmoid or exp
    marks its tail as a decode."""
    name = (boundary.full_name or "").lower() if boundary is not None else ""
    if any(word in name for word in _LINEAR_NAMES):
        return True
    return any(la.op_type in ATTENTION_OPS or la.op_type == "exNorm" for la in layers)


def _branch_decodes(layers: Sequence[Layer]) -> list[Layer]:
    """Softmax-family and DFL layers anywhere with an output close behind them (a softmax
    feeding a MatMul or attention is attention's own)."""
    found = []
    for i, la in enumerate(layers):
        after = following(layers, i, OUTPUT_WINDOW)
        if la.target is not Target.NPU:
            continue
        if (
            _is_dfl(la)
            or la.op_type in SOFTMAX_OPS
            and any(nxt.op_type == "OutputOperator" for nxt in after)
            and not any(nxt.op_type in ATTENTION_OPS for nxt in after[:2])
        ):
            found.append(la)
    return found


def _ranked_only(profile: Profile) -> list[OpTypeStat]:
    """Softmax-family op types with NPU time in the ranking that no printed row shows."""
    printed = {la.op_type for la in profile.layers}
    if any(s.op_type in ATTENTION_OPS for s in profile.ranking):
        return []  # a transformer's softmaxes are its attention's
    return [
        s
        for s in profile.ranking
        if s.op_type in SOFTMAX_OPS
        and s.npu_time_us > 0
        and s.op_type not in printed
        and s.calls <= MAX_RANKED_CALLS
    ]


def covered_layers(profile: Profile, context: RuleContext) -> list[Layer]:
    """The decode layers RKN060 claims from the rows (empty when it does not fire, which its
    NPU layers decide), CPU ones included: RKN001 leaves those to it, so one cause gets one
    finding."""
    chosen = {la.id for la in _tail(profile.layers) + _branch_decodes(profile.layers)}
    layers = [la for la in profile.layers if la.id in chosen]
    npu = time_of(la for la in layers if la.target is Target.NPU)
    total = total_us(profile)
    if not npu or not total or npu / total < opt(context, CODE, "min_share", 0.01):
        return []
    return layers


def _from_layers(profile: Profile, context: RuleContext, total: float) -> Iterator[Finding]:
    layers = covered_layers(profile, context)
    if not layers:
        return
    spent = time_of(layers)
    cpu = [f"#{la.id} {la.op_type}" for la in layers if la.target is not Target.NPU]
    on_cpu = f"; {len(cpu)} of them on the CPU ({', '.join(cpu)}), gone with the cut" if cpu else ""
    kinds = sorted(
        {la.op_type for la in layers},
        key=lambda op: (-time_of(la for la in layers if la.op_type == op), op),
    )
    at, caveat = priced(profile, layers)
    saving = from_removal(
        at,
        f"the {len(layers)} decode layer(s)' measured time; the CPU "
        "decode that replaces them is not in the log",
        Confidence.MEDIUM,
    )
    yield Finding(
        code=CODE,
        name=NAME,
        severity=grade(saving.total_us, total),
        message=(
            f"post-processing runs inside the model"
            f"{' (partly on the CPU)' if cpu else ' on the NPU'}: {len(layers)} layer(s) "
            f"after the last feature conv ({', '.join(kinds[:6])}) take {us(spent)} "
            f"({of_frame(spent / total, profile)}): {labels(layers)}{on_cpu}{caveat}"
        ),
        fix=FIX,
        layer_ids=tuple(la.id for la in layers),
        estimate="the decode layers' time (the CPU decode after the threshold is small)",
        source=SOURCE,
        **saving.fields(),
    )


def _from_ranking(profile: Profile, context: RuleContext, total: float) -> Iterator[Finding]:
    stats = _ranked_only(profile)
    spent = sum(s.npu_time_us for s in stats)
    if not stats or spent / total < opt(context, CODE, "min_share", 0.01):
        return
    named = ", ".join(f"{s.op_type} {us(s.npu_time_us)} in {s.calls} call(s)" for s in stats)
    others = [
        s
        for s in profile.ranking
        if s.op_type in LIKELY_DECODE
        and s.npu_time_us > 0
        and s.op_type not in {la.op_type for la in profile.layers}
    ]
    also = (
        (
            "; the ranking also shows "
            + ", ".join(f"{s.op_type} {us(s.npu_time_us)} ({s.calls})" for s in others[:4])
            + ", often part of the same decode (not counted)"
        )
        if others
        else ""
    )
    rows = "no per-layer rows" if not profile.layers else "its rows are elided"
    yield Finding(
        code=CODE,
        name=NAME,
        severity=grade(spent, total),
        message=(
            f"post-processing runs on the NPU inside the model: {named} "
            f"({of_frame(spent / total, profile)}) in the ranking table ({rows}){also}"
        ),
        fix=FIX,
        est_saving_us=spent,
        estimate="the softmax op types' NPU time in the ranking table",
        source=SOURCE,
        basis=f"ranking table NPUTime of {', '.join(s.op_type for s in stats)}",
        confidence=Confidence.MEDIUM,
    )


def check_post_processing(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Post-processing compiled into the model and run on the NPU. From the layer rows: the
        tail after the last feature conv (a conv named DFL or fed by a softmax counts as decode;
        the tail holds only reshaping, elementwise and decode ops) when it holds a softmax-
        family op (exSoftmax13, Softmax, ArgMax, TopK…), a DFL, exDataConvert, Gather, Slice,
        Sub, Div or Exp (after a transformer's linear layer, a conv named MatMul or Gemm, or in a
        model with attention or exNorm: only a softmax-family op, Sigmoid, Exp or a DFL, since
        its Split, Mul, Sub and Concat are as likely a rotary position embedding), plus any
        softmax/DFL layer with an OutputOperator within 6 layers (one
        decode per branch) unless it feeds a MatMul or an attention. From the ranking table,
        when it shows softmax-family op types that no printed row does (ranking-only logs,
        elided rows), in at most 3 calls and with no MatMul or attention op type in the ranking:
        their NPU time. At least 1% of the frame (option RKN060.min_share). A CPU layer of a
        decode op type inside the tail (a CPU Gather) is claimed here and named, and RKN001
        leaves it out: the cut removes it too, one cause, one finding. Other CPU layers are
        RKN001's.

    Why it costs time:
        These ops have no MACs for the NPU to use: they run on its slow non-conv units, do not
        split across cores, and Softmax is limited to axis 1 or 3 and by the Transpose limits
        (Operator List). One YOLOv10 DFL exSoftmax13 on a (4,80,80,17) tensor took 14,254 us on
        RK3588 (THU-MIG/yolov10#115). On the CPU the same decoding runs only on the boxes
        that pass the score threshold.

    Example:
        post-processing runs on the NPU inside the model: exSoftmax13 2,344 us in 1 call(s)
        (1.8% of the frame) in the ranking table (no per-layer rows); the ranking also shows
        Sigmoid 398 us (1), Sub 202 us (2), Mul 150 us (2), often part of the same decode

    How to fix:
        Cut the exported model before the DFL / softmax decoding (outputs after the last
        convolutions, as the rknn_model_zoo YOLO exports do) and decode boxes on the CPU after
        the score threshold; a classifier's final Softmax is a few microseconds on the CPU.

    Estimate:
        The decode layers' measured time (confidence medium: the CPU decode that replaces
        them is not in the log). Ranking only: the softmax op types' NPU time; other likely
        decode op types are named, not counted.
    """
    total = total_us(profile)
    if not total:
        return
    if profile.layers:
        yield from _from_layers(profile, context, total)
    if not profile.layers or profile.elided_rows:
        yield from _from_ranking(profile, context, total)


RULES = (
    Rule(
        CODE,
        NAME,
        Severity.ERROR,
        "Softmax/DFL decoding and box-decode tails running on the NPU inside the model: "
        "move them out",
        check_post_processing,
        source=SOURCE,
        basis=(
            "the decode layers' measured time (the CPU decode that replaces them is not in the"
            " log); ranking only: the softmax op types' NPU time"
        ),
        confidence=("medium"),
    ),
)
