"""RKN070 activation swap: convolutions with a fused non-ReLU activation (SiLU, GELU,
HardSwish, Mish…) where ReLU would cost nothing extra and would split across NPU cores.

The saving of each layer comes from the best evidence the log holds: an in-log pair (a plain
Conv/ConvRelu with the same input, weight and output shapes and data type, measured in the same
table), else the rknn_model_zoo benchmark of yolov5s against yolov5s_relu on RK3588.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from rknnprof.analysis.mac import is_conv, npu_clock_mhz, used_cores
from rknnprof.analysis.savings import (
    Saving,
    find_peer,
    from_pairs,
    from_removal,
    merged,
    saving_of,
)
from rknnprof.model import Confidence, Finding, Layer, Profile, Severity, Target
from rknnprof.rules._util import (
    feeds,
    following,
    grade,
    label,
    multi_core_run,
    npu_cores,
    of_frame,
    pct,
    single_core_slot,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import Outlier, at_supported, note, outliers, supported
from rknnprof.rules.sources import cite, sources

CODE, NAME = "RKN070", "activation-swap"
FUSED_NON_RELU = {
    "ConvExSwish": "SiLU",
    "ConvSwish": "SiLU",
    "ConvSilu": "SiLU",
    "ConvExGelu": "GELU",
    "ConvGelu": "GELU",
    "ConvHardSwish": "HardSwish",
    "ConvHardswish": "HardSwish",
    "ConvExMish": "Mish",
    "ConvMish": "Mish",
    "ConvSoftplus": "Softplus",
    "ConvElu": "ELU",
    "ConvTanh": "Tanh",
    "ConvSigmoid": "Sigmoid",
    "ConvHardSigmoid": "HardSigmoid",
}
"""Fused conv op types (as logs print them) whose activation is not in the ReLU family, and the
activation's name."""
STANDALONE_NON_RELU = {
    "exSwish": "SiLU",
    "Swish": "SiLU",
    "exGelu": "GELU",
    "Gelu": "GELU",
    "HardSwish": "HardSwish",
    "Hardswish": "HardSwish",
    "exHardSwish": "HardSwish",
    "exMish": "Mish",
    "Mish": "Mish",
    "Softplus": "Softplus",
    "Elu": "ELU",
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
ZOO_MODEL_SAVING = 1.0 - ZOO_FPS[0] / ZOO_FPS[1]
"""What the ReLU model saves of yolov5s's frame: 1 - 48.4/66.1 = 26.8 %, a WHOLE-MODEL figure.
Only the activation changed, so the SiLU convs carry all of it."""
ZOO_SILU_SHARE = 22898 / 32070
"""The share of yolov5s's frame its ConvExSwish layers take: 57 layers, 22,898 of 32,070 us
(71.4 %) in a public RK3588 INT8 per-layer profile (``yolov5s-profile``, its ranking table)."""
ZOO_FRACTION = ZOO_MODEL_SAVING / ZOO_SILU_SHARE
"""Share of a SiLU conv's OWN time the swap saves on the model-zoo basis: 26.8 % of the frame
carried by convs holding 71.4 % of it, 0.2678 / 0.714 = 37.5 % of their time (applying 26.8 %
to their own time would undercount)."""
ZOO = (
    "rknn_model_zoo README benchmark (RK3588 single core): yolov5s 48.4 FPS, yolov5s_relu "
    f"66.1 FPS, {pct(ZOO_MODEL_SAVING)} of yolov5s's frame, carried by its ConvExSwish layers, "
    f"{pct(ZOO_SILU_SHARE)} of the frame in a public RK3588 yolov5s profile "
    f"(RK3588-Yolo-Profile): {pct(ZOO_FRACTION)} of their own time"
)
SOURCE = sources(
    cite("guide", "§8.5.2 Table 8-5 (non-ReLU activations are inefficient operators)"),
    cite("zoo", "yolov5s 48.4 FPS, yolov5s_relu 66.1 FPS on RK3588"),
    cite("yolov5s-profile", "ConvExSwish 22,898 of 32,070 us"),
    cite("ops", "multi-core table: ConvolutionRelu splits, ConvolutionSwish does not"),
)


def pairs_or(*groups: Sequence[object]) -> bool:
    """True when any of the groups is not empty."""
    return any(groups)


def _feeds_output(layers: Sequence[Layer], index: int) -> bool:
    return any(
        la.op_type == "OutputOperator" and feeds(layers[index], la)
        for la in following(layers, index, OUTPUT_WINDOW)
    )


def _gates(layers: Sequence[Layer], index: int, act: str) -> bool:
    """True for a Sigmoid/Tanh that gates a Mul or squashes a model output."""
    return act in GATES and (
        _feeds_output(layers, index)
        or any(
            la.op_type == "Mul" and feeds(layers[index], la) for la in following(layers, index, 3)
        )
    )


NOT_BY_THE_ZOO = frozenset({"GELU"})
"""Activations the model zoo's SiLU-against-ReLU figure does not price without an in-log twin:
GELU, a transformer's MLP activation, where the CNN's figure measures nothing like it and a
ReLU swap means pretraining the model again (a public SigLIP ViT profile was told to retrain
its 12 ConvExGelu layers for 30,536 us)."""
RANKED_SWAPS = ("SiLU", "HardSwish", "Mish")
"""Activations a ranking alone is priced for: never Sigmoid or Tanh, which a ranking cannot tell
from a model output or a gate."""


def _from_ranking(profile: Profile, total: float) -> Iterator[Finding]:
    """A ranking table without per-layer rows: the fused non-ReLU conv op types' NPU time at the
    model zoo's fraction (no pair, no cycles to hold a layer above: low)."""
    stats = [
        s
        for s in profile.ranking
        if FUSED_NON_RELU.get(s.op_type) in RANKED_SWAPS and s.npu_time_us > 0
    ]
    if not stats:
        return
    spent = sum(s.npu_time_us for s in stats)
    saving = spent * ZOO_FRACTION
    named = " and ".join(
        f"{s.op_type} ({FUSED_NON_RELU[s.op_type]}) {us(s.npu_time_us)} in {s.calls} call(s)"
        for s in stats
    )
    yield Finding(
        code=CODE,
        name=NAME,
        severity=grade(saving, total, cap=Severity.WARNING),
        message=(
            f"{named} ({of_frame(spent / total, profile)}) in the ranking table (no per-layer "
            f"rows); rknn_model_zoo's yolov5s_relu runs at {ZOO_FPS[1]:g} FPS against "
            f"{ZOO_FPS[0]:g} for yolov5s (SiLU) on RK3588: {pct(ZOO_FRACTION)} of its SiLU "
            "convs' own time"
        ),
        fix=(
            "retrain with ReLU in place of the SiLU/GELU/HardSwish activations (as "
            "rknn_model_zoo's yolov5s_relu); ConvRelu's activation is free; check the accuracy "
            "after retraining"
        ),
        est_saving_us=saving,
        estimate="the ranking's NPU time of these op types at the model zoo's fraction",
        source=SOURCE,
        basis=f"ranking table NPUTime of {', '.join(s.op_type for s in stats)} x "
        f"{pct(ZOO_FRACTION)} ({ZOO}); no per-layer rows: no in-log pair, no cycles to check",
        confidence=Confidence.LOW,
    )


def _candidates(profile: Profile) -> list[tuple[Layer, str, Layer | None]]:
    """(layer, activation name, the conv it follows when standalone) for every non-ReLU
    activation on the NPU that is not a model output."""
    layers = profile.layers
    found: list[tuple[Layer, str, Layer | None]] = []
    for index, layer in enumerate(layers):
        if layer.target is not Target.NPU or not layer.time_us:
            continue
        if layer.op_type in FUSED_NON_RELU and not _gates(
            layers, index, FUSED_NON_RELU[layer.op_type]
        ):
            found.append((layer, FUSED_NON_RELU[layer.op_type], None))
        elif layer.op_type in STANDALONE_NON_RELU and index > 0:
            before = layers[index - 1]
            if is_conv(before) and before.op_type in PLAIN_CONVS and feeds(before, layer):
                found.append((layer, STANDALONE_NON_RELU[layer.op_type], before))
    return found


def _elements(layer: Layer) -> int:
    """Output elements of the layer's first output (N x C x H x W), 0 when not printed."""
    count = 1
    for dim in (layer.output_shapes or ((),))[0] or (0,):
        count *= dim
    return count


def _peer(layer: Layer, plain: Sequence[Layer], multi_core: bool) -> Layer | None:
    """The same-shape plain conv the layer would become. Under a multi-core mask a twin that ran
    split measures what the swap buys (ReLU convs split, SiLU convs stay on core 0), so the
    cores are not required to match there; on one core they must."""
    peer = find_peer(layer, plain, PLAIN_CONVS, same_cycles=False)
    if peer is not None or not multi_core:
        return peer
    shapes = (layer.input_shapes, layer.output_shapes, layer.data_type)
    split = [
        c
        for c in plain
        if c.time_us
        and used_cores(c) > used_cores(layer)
        and (c.input_shapes, c.output_shapes, c.data_type) == shapes
    ]
    return min(split, key=lambda c: c.time_us or 0.0) if split else None


def _ids(layers: Sequence[Layer], limit: int = 6) -> str:
    """``#2, #12`` (up to ``limit`` ids, then ``+N more``): which layers a basis priced."""
    shown = ", ".join(f"#{la.id}" for la in layers[:limit])
    return shown + (f" +{len(layers) - limit} more" if len(layers) > limit else "")


def _floor_us(layer: Layer, clock_mhz: float | None) -> float:
    """The time the layer's own cycles take at the clock: max(DDR, NPU) / clock, microseconds
    (0 without cycles or clock). No saving leaves a layer below it."""
    cycles = max(layer.ddr_cycles or 0, layer.npu_cycles or 0)
    return cycles / clock_mhz if cycles and clock_mhz else 0.0


def _per_element(pairs: Sequence[tuple[Layer, Layer]]) -> dict[str | None, float]:
    """The activation's cost per output element, us, per data type, from the in-log pairs
    that ran on the same cores: sum of (layer - twin) over the sum of their output elements.
    A twin that ran split prices its own layer only: its gap is mostly the split, which grows
    with a layer's time, not with its output elements."""
    spent: dict[str | None, float] = {}
    elements: dict[str | None, int] = {}
    for layer, peer in pairs:
        if used_cores(peer) != used_cores(layer):
            continue
        gap = (layer.time_us or 0.0) - (peer.time_us or 0.0)
        if gap > 0 and _elements(layer):
            spent[layer.data_type] = spent.get(layer.data_type, 0.0) + gap
            elements[layer.data_type] = elements.get(layer.data_type, 0) + _elements(layer)
    return {dtype: spent[dtype] / elements[dtype] for dtype in spent}


def _saving(
    profile: Profile,
    candidates: list[tuple[Layer, str, Layer | None]],
    flagged: Mapping[int, Outlier],
    clock_mhz: float | None,
) -> tuple[Saving, list[tuple[Layer, Layer]], list[Layer], list[Layer], list[Layer]]:
    """The change's saving, layer by layer, with single-frame outliers (``flagged``) at the
    time the log supports (and never as a twin); the in-log pairs, the layers priced by the
    pairs' cost per output element, the model-zoo layers it rests on, and the GELU layers left
    unpriced (:data:`NOT_BY_THE_ZOO`)."""
    plain = supported((la for la in profile.layers if la.op_type in PLAIN_CONVS), flagged)
    multi = multi_core_run(profile)
    pairs: list[tuple[Layer, Layer]] = []
    fused: list[Layer] = []
    rest: list[Layer] = []
    for measured, _, conv in candidates:
        layer = at_supported(measured, flagged)
        if conv is not None:  # a standalone activation after a plain conv: ReLU fuses into it
            fused.append(layer)
        elif (peer := _peer(layer, plain, multi)) is not None:
            pairs.append((layer, peer))
        else:
            rest.append(layer)
    rate = _per_element(pairs)
    scaled = [la for la in rest if la.data_type in rate and _elements(la)]
    zoo = [la for la in rest if not (la.data_type in rate and _elements(la))]
    acts = {la.id: act for la, act, _ in candidates}
    unpriced = [la for la in zoo if acts[la.id] in NOT_BY_THE_ZOO]
    zoo = [la for la in zoo if acts[la.id] not in NOT_BY_THE_ZOO]
    parts = []
    if pairs:
        split = sum(used_cores(peer) > used_cores(la) for la, peer in pairs)
        parts.append(
            from_pairs(
                pairs,
                f"{len(pairs)} layer(s) ({_ids([la for la, _ in pairs])}) against a same-shape "
                "plain conv in this log"
                + (
                    f" ({split} of the twins ran split under this run's mask: the swap buys "
                    "the split too)"
                    if split
                    else ""
                ),
            )
        )
    if scaled:
        cost = ", ".join(f"{v * 1e6:,.0f} us per million output elements" for v in rate.values())
        parts.append(
            saving_of(
                (
                    (
                        la,
                        min(
                            rate[la.data_type] * _elements(la),
                            (la.time_us or 0.0) - _floor_us(la, clock_mhz),
                        ),
                    )
                    for la in scaled
                ),
                f"{len(scaled)} layer(s) ({_ids(scaled)}) at the activation's cost per output "
                "element measured "
                f"by this log's pairs ({cost}), by output size, never below the layer's own "
                "cycles at the clock",
                Confidence.MEDIUM,
            )
        )
    if fused:
        parts.append(
            from_removal(
                fused,
                f"{len(fused)} standalone activation(s) that fuse into "
                "the conv before them as ReLU",
                Confidence.MEDIUM,
            )
        )
    if zoo:
        parts.append(
            saving_of(
                (
                    (
                        la,
                        min(
                            (la.time_us or 0.0) * ZOO_FRACTION,
                            (la.time_us or 0.0) - _floor_us(la, clock_mhz),
                        ),
                    )
                    for la in zoo
                ),
                f"{len(zoo)} layer(s) ({_ids(zoo)}) at {pct(ZOO_FRACTION)} of their time, never "
                "below their "
                f"own cycles at the clock ({ZOO})",
                Confidence.MEDIUM,
            )
        )
    return merged(parts), pairs, scaled, zoo, unpriced


def _multi_core_note(
    profile: Profile, layers: list[Layer], cores: int | None, splits: frozenset[str]
) -> str:
    """What the run's cores say about the swap; nothing on a one-core SoC, nor where the SoC
    splits these op types too (``splits``: the platform's multi-core op types; RK3576 splits
    ConvExSwish)."""
    if multi_core_run(profile):
        alone = [la for la in layers if single_core_slot(la)]
        if alone:
            return (
                f". Under this run's multi-core mask {len(alone)} of them ran on core 0 alone "
                "(WorkLoad 100/0/0); ConvRelu would split"
            )
        return ""
    if cores and cores > 1 and any(la.op_type not in splits for la in layers):
        return (
            ". Under a multi-core mask they would stay on core 0 while ConvRelu splits "
            "(not counted)"
        )
    return ""


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
        (User Guide Table 8-5): ReLU is applied free as the conv writes its output, SiLU is not.
        A public RK3588 yolov8n profile (see Source) measures it inside one table: #12
        ConvExSwish 1x1 64->64 at 240x240 takes 2,306 us, #70 Conv with the same shapes and
        cycles 928 us. The model zoo's yolov5s_relu runs at 66.1 FPS against 48.4 FPS for
        yolov5s on RK3588. And the fused non-ReLU convs do not split across NPU cores (operator
        list: ConvolutionRelu is multi-core, ConvolutionSwish is not; the same profile on one
        core and on three: ConvExSwish 3,921 us on one core, 3,973 us under a three-core mask),
        while ConvRelu does.

    Example:
        57 ConvExSwish (SiLU) layer(s) take 100,965 us (78.6% of the frame); in this log #12
        ConvExSwish takes 2,306 us against 928 us for #70 Conv with the same shapes: 59.8% of
        its time is the activation

    How to fix:
        Retrain (or fine-tune) with ReLU in place of SiLU/GELU/HardSwish, as rknn_model_zoo's
        yolov5s_relu does (nn.SiLU -> nn.ReLU in the model definition); the converter then
        emits ConvRelu, whose activation is free and which splits across cores. Check the
        accuracy: the zoo's ReLU yolov5s trades some mAP for the speed.

    Estimate:
        Per layer, the best evidence the log holds, and the basis names which layers got which:
        (1) a same-shape plain Conv/ConvRelu in the log (same input, weight and output shapes
        and data type; on one core the same cores, under a multi-core mask also a twin that ran
        split, since ReLU convs split: the swap buys the split too): the measured difference
        against the fastest such twin (high); (2) without a twin, the activation's cost per
        output element the pairs on the same cores measure (their differences over their output
        elements, per data type; a split twin's difference is mostly the split, which grows
        with a layer's time, not its outputs), times the layer's output elements (medium);
        (3) without such a pair, the model zoo's whole-model figure: yolov5s_relu saves 26.8% of
        yolov5s's frame (1 - 48.4/66.1), and only the activation changed, so the ConvExSwish layers
        (71.4% of that frame in a public RK3588 yolov5s profile) carry all of it: 37.5% of their own
        time (medium); not GELU layers, a transformer's MLP activation, which only a twin prices (a
        CNN's SiLU figure measures nothing like them, and a ReLU swap means pretraining the model
        again). (2) and (3) never leave a layer below its own max(DDR, NPU) cycles at the NPU clock.
        A standalone activation after a plain conv: its whole time (ReLU fuses; medium). The
        finding's confidence is the lowest of its layers'. A layer RKN050 flags as a single-frame
        outlier counts at the time the log supports for it (its same-shape sibling's, or its cycles
        at the table's median pace), named in the message: one frame's stall is no evidence for a
        saving.
        A ranking table without per-layer rows: the SiLU/HardSwish/Mish conv op types' NPU
        time at (3)'s 37.5 % (low: no pair, no cycles to hold a layer above; Sigmoid and Tanh
        convs are left out, a ranking cannot tell them from an output or a gate, and GELU ones
        as above).
    """
    candidates = _candidates(profile)
    total = total_us(profile)
    if not profile.layers and total:
        yield from _from_ranking(profile, total)
        return
    if not candidates or not total:
        return
    flagged = outliers(profile)
    clock = npu_clock_mhz(profile, context.platform)
    saving, paired, scaled, zoo, unpriced = _saving(profile, candidates, flagged, clock)
    if saving.total_us <= 0:
        return
    left = {la.id for la in unpriced}
    candidates = [c for c in candidates if c[0].id not in left]
    layers = [la for la, _, _ in candidates]
    spent = time_of(layers)
    kinds = sorted(
        {(la.op_type, act) for la, act, _ in candidates},
        key=lambda kind: -time_of(la for la in layers if la.op_type == kind[0]),
    )
    kind_text = " and ".join(
        f"{sum(la.op_type == op for la in layers)} {op} ({act})" for op, act in kinds
    )
    message = f"{kind_text} layer(s) take {us(spent)} ({of_frame(spent / total, profile)})"
    shown = [pair for pair in paired if pair[0].id not in flagged and pair[1].id not in flagged]
    if shown:
        layer, peer = max(shown, key=lambda pair: (pair[0].time_us or 0) - (pair[1].time_us or 0))
        cost = 1.0 - (peer.time_us or 0.0) / (layer.time_us or 1.0)
        split = used_cores(peer) > used_cores(layer)
        message += (
            f"; in this log {label(layer)} takes {us(layer.time_us or 0)} against "
            f"{us(peer.time_us or 0)} for {label(peer)} with the same shapes"
            + (
                f", which ran split across {used_cores(peer)} cores: the swap would save "
                f"{pct(cost)} of its time under this run's mask"
                if split
                else f": {pct(cost)} of its time is the activation"
            )
        )
    if scaled:
        message += (
            f"; {len(scaled)} layer(s) without a twin priced at the cost per output element "
            "those pairs measure"
        )
    if zoo:
        message += (
            f"; rknn_model_zoo's yolov5s_relu runs at {ZOO_FPS[1]:g} FPS against "
            f"{ZOO_FPS[0]:g} for yolov5s (SiLU) on RK3588: {pct(ZOO_MODEL_SAVING)} of that "
            f"model's frame, {pct(ZOO_FRACTION)} of its SiLU convs' own time"
            + (f" ({len(zoo)} layer(s) priced so)" if pairs_or(paired, scaled) else "")
        )
    cores = npu_cores(context, profile)
    splits = frozenset(context.platform.multi_core_ops) if context.platform else frozenset()
    message += _multi_core_note(profile, layers, cores, splits) + note(layers, flagged)
    yield Finding(
        code=CODE,
        name=NAME,
        severity=grade(saving.total_us, total, cap=Severity.WARNING),
        message=message,
        fix=(
            "retrain with ReLU in place of the SiLU/GELU/HardSwish activations (as "
            "rknn_model_zoo's yolov5s_relu); ConvRelu's activation is free"
            + (" and it splits across NPU cores" if cores and cores > 1 else "")
            + "; check the accuracy after retraining"
        ),
        layer_ids=tuple(la.id for la in layers),
        estimate=(
            "same-shape plain conv in the log; else the pairs' cost per output element; else "
            "37.5% of the layer (model zoo: 26.8% of yolov5s's frame, its SiLU convs 71.4% of it)"
        ),
        source=SOURCE,
        **saving.fields(),
    )


RULES = (
    Rule(
        CODE,
        NAME,
        Severity.WARNING,
        "Convs with a fused non-ReLU activation (SiLU, GELU, HardSwish): ReLU is free and "
        "splits across cores",
        check_activation_swap,
        source=sources(
            SOURCE,
            cite("yolov8n-pair", "(ConvExSwish against Conv, one core against three)"),
        ),
        basis=(
            "per layer: the difference against a same-shape plain conv in this log (a split "
            "twin under a multi-core mask); else the pairs' activation cost per output element "
            "by output size; else, GELU aside, 37.5% of its time (rknn_model_zoo: yolov5s_relu "
            "saves 26.8% of yolov5s's frame, carried by its ConvExSwish layers, 71.4% of it in a "
            "public RK3588 yolov5s profile); "
            "never below the layer's own cycles at the clock; the basis names each layer's; a "
            "single-frame outlier at the time the log supports; a ranking table alone: its SiLU/"
            "HardSwish/Mish convs' NPU time at 37.5%"
        ),
        confidence=(
            "high with an in-log pair, medium with the pairs' per-element cost or the "
            "model-zoo figure; the finding takes the lowest of its layers'; low from a ranking "
            "alone"
        ),
    ),
)
