"""RKN070 activation swap: convolutions with a fused non-ReLU activation (SiLU, GELU,
HardSwish, Mish…) where ReLU would cost nothing extra and would split across NPU cores.

The saving of each layer comes from the best evidence the log holds: an in-log pair (a plain
Conv/ConvRelu with the same input, weight and output shapes and data type, measured in the same
table), else the rknn_model_zoo benchmark of yolov5s against yolov5s_relu on RK3588.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rknnprof.analysis.mac import is_conv
from rknnprof.model import Confidence, Finding, Layer, Profile, Severity, Target
from rknnprof.rules._util import (
    feeds,
    following,
    grade,
    label,
    multi_core_run,
    pct,
    single_core_slot,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext

CODE, NAME = "RKN070", "activation-swap"
FUSED_NON_RELU = {
    "ConvExSwish": "SiLU", "ConvSwish": "SiLU", "ConvSilu": "SiLU", "ConvExGelu": "GELU",
    "ConvGelu": "GELU", "ConvHardSwish": "HardSwish", "ConvHardswish": "HardSwish",
    "ConvExMish": "Mish", "ConvMish": "Mish", "ConvSoftplus": "Softplus", "ConvElu": "ELU",
    "ConvTanh": "Tanh", "ConvSigmoid": "Sigmoid", "ConvHardSigmoid": "HardSigmoid",
}
"""Fused conv op types (as logs print them) whose activation is not in the ReLU family, and the
activation's name."""
STANDALONE_NON_RELU = {
    "exSwish": "SiLU", "Swish": "SiLU", "exGelu": "GELU", "Gelu": "GELU",
    "HardSwish": "HardSwish", "Hardswish": "HardSwish", "exHardSwish": "HardSwish",
    "exMish": "Mish", "Mish": "Mish", "Softplus": "Softplus", "Elu": "ELU",
}
"""Standalone activations of the same kind. Sigmoid and Tanh are left out on their own: as
gates (SE, GLU) or output squashing they are part of what the model computes."""
PLAIN_CONVS = ("Conv", "ConvRelu", "ConvClip", "ConvRelu6", "ConvLeakyRelu", "ConvPRelu")
"""Conv op types whose activation is free (ReLU family, Clip), the in-log reference."""
GATES = ("Sigmoid", "HardSigmoid", "Tanh")
"""Activations that, feeding a Mul, gate a tensor (SE blocks, GLU): ReLU cannot replace them."""
OUTPUT_WINDOW = 6
"""A Sigmoid/Tanh conv whose output an OutputOperator within this many layers takes is a model
output (scores squashed by Sigmoid): never advised."""
ZOO_FPS = (48.4, 66.1)
"""rknn_model_zoo README benchmark, RK3588 single core, INT8, 640x640: yolov5s (SiLU) 48.4 FPS,
yolov5s_relu 66.1 FPS."""
ZOO_FRACTION = 1.0 - ZOO_FPS[0] / ZOO_FPS[1]
"""Share of a SiLU conv's time the ReLU model saves: 1 - 48.4/66.1 = 26.8% of the whole
model's time, so at least that share of its activated convs' time."""
ZOO = ("rknn_model_zoo README benchmark (RK3588 single core): yolov5s 48.4 FPS, yolov5s_relu "
       "66.1 FPS")
SOURCE = ("RKNN SDK guide 5.2.5.2 Table 5-5 (non-ReLU activations are inefficient operators); "
          "rknn_model_zoo README benchmark, https://github.com/airockchip/rknn_model_zoo; "
          "RKNN compiler operator list (multi-core support: ConvolutionRelu yes, "
          "ConvolutionSwish no)")


def _key(layer: Layer) -> tuple:
    return (layer.input_shapes, layer.output_shapes, layer.data_type)


def _feeds_output(layers: Sequence[Layer], index: int) -> bool:
    return any(la.op_type == "OutputOperator" and feeds(layers[index], la)
               for la in following(layers, index, OUTPUT_WINDOW))


def _gates(layers: Sequence[Layer], index: int, act: str) -> bool:
    """True for a Sigmoid/Tanh that gates a Mul or squashes a model output."""
    return act in GATES and (_feeds_output(layers, index) or any(
        la.op_type == "Mul" and feeds(layers[index], la) for la in following(layers, index, 3)))


def _candidates(profile: Profile) -> list[tuple[Layer, str, Layer | None]]:
    """(layer, activation name, the conv it follows when standalone) for every non-ReLU
    activation on the NPU that is not a model output."""
    layers = profile.layers
    found: list[tuple[Layer, str, Layer | None]] = []
    for index, layer in enumerate(layers):
        if layer.target is not Target.NPU or not layer.time_us:
            continue
        if layer.op_type in FUSED_NON_RELU and not _gates(layers, index,
                                                          FUSED_NON_RELU[layer.op_type]):
            found.append((layer, FUSED_NON_RELU[layer.op_type], None))
        elif layer.op_type in STANDALONE_NON_RELU and index > 0:
            before = layers[index - 1]
            if is_conv(before) and before.op_type in PLAIN_CONVS and feeds(before, layer):
                found.append((layer, STANDALONE_NON_RELU[layer.op_type], before))
    return found


def _peers(profile: Profile) -> dict[tuple, list[Layer]]:
    peers: dict[tuple, list[Layer]] = {}
    for layer in profile.layers:
        if layer.op_type in PLAIN_CONVS and layer.time_us and layer.input_shapes:
            peers.setdefault(_key(layer), []).append(layer)
    return peers


def _layer_saving(layer: Layer, conv: Layer | None,
                  peers: dict[tuple, list[Layer]]) -> tuple[float, Layer | None]:
    """(saving us, the in-log peer it rests on, or None for the model-zoo share)."""
    time = float(layer.time_us or 0.0)
    if conv is not None:  # a standalone activation after a plain conv: ReLU fuses into it
        return time, None
    matches = peers.get(_key(layer))
    if matches:  # the slowest same-shape plain conv: the smallest saving the log supports
        peer = max(matches, key=lambda la: la.time_us or 0.0)
        return max(0.0, time - float(peer.time_us or 0.0)), peer
    return time * ZOO_FRACTION, None


def _multi_core_note(profile: Profile, layers: list[Layer]) -> str:
    if multi_core_run(profile):
        alone = [la for la in layers if single_core_slot(la)]
        if alone:
            return (f". Under this run's multi-core mask {len(alone)} of them ran on core 0 alone "
                    "(WorkLoad 100/0/0); ConvRelu would split (not counted)")
        return ""
    return (". Under a multi-core mask they would stay on core 0 while ConvRelu splits (not "
            "counted)")


def check_activation_swap(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Convolutions with a fused activation outside the ReLU family (ConvExSwish = SiLU,
        ConvExGelu, ConvHardSwish, ConvExMish, ConvTanh, ConvSigmoid…) and standalone
        SiLU/GELU/HardSwish/Mish/Softplus/ELU layers right after a plain Conv, on the NPU.
        Sigmoid/Tanh convs whose output goes to an OutputOperator (scores) or to a Mul (a
        gate, as in SE blocks) are left out, and so are standalone Sigmoid and Tanh.
        One finding for the model, listing the layers.

    Why it costs time:
        The guide lists non-ReLU activations among the three kinds of inefficient operators
        (Table 5-5): ReLU is applied free as the conv writes its output, SiLU is not. Corpus
        01 measures it inside one table: #12 ConvExSwish 1x1 64->64 at 240x240 takes 2306 us,
        #70 Conv with the same shapes and cycles 928 us. The model zoo's yolov5s_relu runs at
        66.1 FPS against 48.4 FPS for yolov5s on RK3588. And the fused non-ReLU convs do not
        split across NPU cores (operator list: ConvolutionRelu is multi-core, ConvolutionSwish
        is not; corpus 01 vs 03: ConvExSwish 3921 us on one core, 3973 us under a three-core
        mask), while ConvRelu does.

    Example:
        57 ConvExSwish (SiLU) layer(s) take 100965 us (78.6% of the frame); in this log #12
        ConvExSwish takes 2306 us against 928 us for #70 Conv with the same shapes: 59.8% of
        its time is the activation

    How to fix:
        Retrain (or fine-tune) with ReLU in place of SiLU/GELU/HardSwish, as rknn_model_zoo's
        yolov5s_relu does (nn.SiLU -> nn.ReLU in the model definition); the converter then
        emits ConvRelu, whose activation is free and which splits across cores. Check the
        accuracy: the zoo's ReLU yolov5s trades some mAP for the speed.

    Estimate:
        Per layer: with a same-shape plain Conv/ConvRelu in the log (same input, weight and
        output shapes and data type), the measured difference against the slowest such peer
        (confidence high); a standalone activation after a plain conv, its whole time (ReLU
        fuses into the conv; medium); otherwise 26.8% of the layer's time, the share of
        yolov5s's time its ReLU twin saves (1 - 48.4/66.1; medium). The finding's confidence
        is the lowest of its layers'. The multi-core consequence is stated, not counted.

    Source:
        RKNN SDK V2.5.0 guide, 5.2.5.2 "Avoid inefficient operators" (Table 5-5);
        rknn_model_zoo README, model performance benchmark (yolov5s, yolov5s_relu),
        https://github.com/airockchip/rknn_model_zoo; RKNN Compiler Support Operator List
        (multi-core support per op), https://github.com/airockchip/rknn-toolkit2/tree/master/doc.
    """
    candidates = _candidates(profile)
    total = total_us(profile)
    if not candidates or not total:
        return
    peers = _peers(profile)
    by_layer: list[tuple[int, float]] = []
    paired: list[tuple[Layer, Layer]] = []
    zoo = 0
    for layer, _, conv in candidates:
        saving, peer = _layer_saving(layer, conv, peers)
        by_layer.append((layer.id, saving))
        if peer is not None:
            paired.append((layer, peer))
        elif conv is None:
            zoo += 1
    saving = sum(s for _, s in by_layer)
    if saving <= 0:
        return
    layers = [la for la, _, _ in candidates]
    spent = time_of(layers)
    kinds = sorted({(la.op_type, act) for la, act, _ in candidates},
                   key=lambda kind: -time_of(la for la in layers if la.op_type == kind[0]))
    kind_text = " and ".join(
        f"{sum(la.op_type == op for la in layers)} {op} ({act})" for op, act in kinds)
    message = f"{kind_text} layer(s) take {us(spent)} ({pct(spent / total)} of the frame)"
    if paired:
        layer, peer = max(paired, key=lambda pair: (pair[0].time_us or 0) - (pair[1].time_us or 0))
        cost = 1.0 - (peer.time_us or 0.0) / (layer.time_us or 1.0)
        message += (f"; in this log {label(layer)} takes {us(layer.time_us or 0)} against "
                    f"{us(peer.time_us or 0)} for {label(peer)} with the same shapes: "
                    f"{pct(cost)} of its time is the activation")
    if zoo:
        message += (f"; rknn_model_zoo's yolov5s_relu runs at {ZOO_FPS[1]:g} FPS against "
                    f"{ZOO_FPS[0]:g} for yolov5s (SiLU) on RK3588, {pct(ZOO_FRACTION)} less time")
    message += _multi_core_note(profile, layers)
    basis_parts = []
    if paired:
        basis_parts.append(f"{len(paired)} layer(s) against a same-shape plain conv in this log")
    if len(candidates) - len(paired) - zoo:
        basis_parts.append(f"{len(candidates) - len(paired) - zoo} standalone activation(s) "
                           "that fuse into the conv before them as ReLU")
    if zoo:
        basis_parts.append(f"{zoo} layer(s) at {pct(ZOO_FRACTION)} of their time ({ZOO})")
    every_pair = not zoo and len(paired) == len(candidates)
    confidence = Confidence.HIGH if every_pair else Confidence.MEDIUM
    yield Finding(
        code=CODE, name=NAME, severity=grade(saving, total, cap=Severity.WARNING),
        message=message,
        fix=("retrain with ReLU in place of the SiLU/GELU/HardSwish activations (as "
             "rknn_model_zoo's yolov5s_relu); ConvRelu's activation is free and it splits "
             "across NPU cores; check the accuracy after retraining"),
        layer_ids=tuple(la.id for la in layers),
        est_saving_us=saving,
        estimate="same-shape plain conv in the log, else 26.8% of the layer (model zoo)",
        source=SOURCE,
        saving_by_layer=tuple(by_layer),
        basis="; ".join(basis_parts),
        confidence=confidence,
    )


RULES = (
    Rule(CODE, NAME, Severity.WARNING,
         "Convs with a fused non-ReLU activation (SiLU, GELU, HardSwish): ReLU is free and "
         "splits across cores", check_activation_swap),
)
