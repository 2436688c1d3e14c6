"""Graph-shape rules: RKN021 Pad before Conv, RKN022 mergeable reshapes, RKN023 unfused
Conv + activation/Add, RKN024 unfused GLU / LayerNorm subgraphs.

The tables print no edges. Layers appear in execution order, so "A feeds B" is judged from
neighbours whose shapes match (``_util.feeds``): a heuristic, said so in each message.
"""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.mac import is_conv
from rknnprof.model import Finding, Layer, Profile, Severity
from rknnprof.rules._util import (
    feeds,
    following,
    grade,
    in_shape,
    label,
    out_shape,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import cite, sources

WINDOW = 3
"""How many following layers are searched for a consumer."""
ACTIVATIONS = {"Relu", "Clip", "Relu6", "PRelu", "LeakyRelu", "Sigmoid", "Tanh", "Elu",
               "HardSwish", "Hardswish", "HardSigmoid", "Softplus", "exSwish", "Swish",
               "exMish", "Mish", "exGelu", "Gelu"}
RELU_LIKE_FUSED = ("ConvRelu", "ConvClip", "ConvPRelu", "ConvLeakyRelu", "ConvSigmoid", "ConvTanh")
"""Conv+activation ops for which Conv+Activation+Add fusion is documented (User Guide §8.4.2) and
seen (``ConvReluAdd``). ConvExSwish -> Add is NOT listed: corpus 01 and 36 show the runtime
leaving it unfused, so the rule does not suggest it."""
RESHAPES = {"Reshape", "Transpose", "Slice", "Squeeze", "Unsqueeze", "Flatten"}
NORM_CHAIN = ["ReduceMean", "Sub", "Pow", "ReduceMean", "Add", "Sqrt", "Div"]


def check_pad_before_conv(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        A Pad layer whose output (same shape) is the input of a Conv within the next 3 layers,
        where the padding per side is at most 15 (the NPU Conv pad limit).

    Why it costs time:
        An explicit Pad copies the whole tensor through DDR (a size-transformation op, User Guide
        Table 8-5); Conv pads the borders itself at no cost. Pad may even run on the CPU.

    Example:
        Pad #12 (520 us) feeds Conv #13: fold the padding into the Conv's pads

    How to fix:
        Set the Conv's pads attribute and drop the Pad (in PyTorch: Conv2d(padding=...)
        instead of F.pad); keep mode constant-zero, the only one Conv pads support.

    Estimate:
        The Pad layer's time (the Conv's time is assumed unchanged).
    """
    layers = profile.layers
    for index, pad in enumerate(layers):
        if pad.op_type != "Pad":
            continue
        src, dst = in_shape(pad), out_shape(pad)
        if src and dst and len(src) == 4 and len(dst) == 4:
            if any(d - s > 30 or d < s for s, d in zip(src[2:], dst[2:])):
                continue
        conv = next((la for la in following(layers, index, WINDOW)
                     if is_conv(la) and feeds(pad, la)), None)
        if conv is None:
            continue
        yield Finding(
            code="RKN021", name="pad-before-conv",
            severity=grade(pad.time_us or 0.0, total_us(profile), Severity.WARNING),
            message=(f"{label(pad)} ({us(pad.time_us or 0)} on the {pad.target}) feeds "
                     f"{label(conv)} (matched by shape)"),
            fix="set the Conv's pads attribute (Conv2d(padding=...)) and drop the Pad",
            layer_ids=(pad.id, conv.id),
            est_saving_us=pad.time_us or 0.0,
            estimate="the Pad layer's time",
            source=sources(cite("guide", "§8.5.2 Table 8-5"),
                           cite("ops", "Convolution pad limits")),
        )


def check_mergeable_reshapes(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Two or more consecutive Reshape/Transpose/Slice/Squeeze/Flatten layers, each feeding the
        next (output shape = next input shape).

    Why it costs time:
        Each one is a data-transfer op that moves the tensor (User Guide Table 8-5). The User
        Guide (§8.4.4) asks to merge consecutive Reshape/Transpose/Slice ("combining similar
        terms").

    Example:
        Reshape #40 -> Transpose #41 -> Reshape #42 take 930 us: merge into one op

    How to fix:
        Rewrite the chain as a single Reshape or Transpose (or none) in the source model;
        move layout changes to where the data is small.

    Estimate:
        The chain's time minus its most expensive member (one op is assumed to remain).
    """
    layers = profile.layers
    chain: list[Layer] = []

    def flush() -> Iterator[Finding]:
        if len(chain) >= 2:
            spent = time_of(chain)
            biggest = max(la.time_us or 0.0 for la in chain)
            yield Finding(
                code="RKN022", name="mergeable-reshapes",
                severity=grade(spent - biggest, total_us(profile), Severity.WARNING),
                message=(" -> ".join(label(la) for la in chain)
                         + f" take {us(spent)} back to back (matched by shape)"),
                fix=("rewrite the chain as one Reshape or Transpose in the source model "
                     "(User Guide §8.4.4 'combining similar terms')"),
                layer_ids=tuple(la.id for la in chain),
                est_saving_us=spent - biggest,
                estimate="chain time minus its largest member",
                source=cite("guide", "§8.4.4"),
            )

    for layer in layers:
        if layer.op_type in RESHAPES and (not chain or feeds(chain[-1], layer)):
            chain.append(layer)
            continue
        yield from flush()
        chain = [layer] if layer.op_type in RESHAPES else []
    yield from flush()


def _fusable(conv: Layer, nxt: Layer) -> str | None:
    op = conv.op_type
    if op == "Conv" and nxt.op_type in ACTIVATIONS:
        return f"Conv+{nxt.op_type}"
    if op == "Conv" and nxt.op_type == "Add":
        return "Conv+Add"
    if op in RELU_LIKE_FUSED and nxt.op_type == "Add":
        return f"Conv+{op[4:]}+Add"
    return None


def check_unfused_conv(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        A Conv followed (next layer, output shape = its input) by a separate activation or Add
        that the hardware fusion table supports: Conv+Relu/PRelu/LeakyRelu/Clip/Sigmoid/Tanh/
        Elu/Silu..., Conv+Add, Conv+Activation+Add (for ReLU-like and Sigmoid/Tanh activations).

    Why it costs time:
        Fused, the activation or Add is applied as the Conv writes its output; unfused, the
        tensor makes another round trip through DDR. The compiler fuses only when the graph
        matches, e.g. not when a Transpose sits between Conv and Clip, or when the Conv's
        output has another consumer (User Guide §8.4.2 Figure 8-7).

    Example:
        Conv #30 -> Relu #31 (matched by shape) is not fused: Conv+Relu is a hardware fusion

    How to fix:
        Make the activation/Add the Conv's only consumer and adjacent to it (move Transposes
        or Reshapes after the activation, e.g. reorder Transpose and Clip as in User Guide Figure
        8-7); use an activation from the fusion table.

    Estimate:
        The separate activation/Add layer's time (the fused Conv's time is assumed unchanged).
        ConvExSwish followed by Add is deliberately not reported: corpus logs show the
        runtime keeps it unfused.
    """
    layers = profile.layers
    for conv, nxt in zip(layers, layers[1:]):
        pattern = _fusable(conv, nxt)
        if pattern is None or not feeds(conv, nxt):
            continue
        yield Finding(
            code="RKN023", name="unfused-conv",
            severity=grade(nxt.time_us or 0.0, total_us(profile), Severity.WARNING),
            message=(f"{label(conv)} -> {label(nxt)} ({us(nxt.time_us or 0)}, matched by shape) "
                     f"is not fused: {pattern} is a hardware fusion"),
            fix=(f"make the {nxt.op_type} the Conv's only and adjacent consumer (move any "
                 "Transpose/Reshape after it) so the compiler fuses them"),
            layer_ids=(conv.id, nxt.id),
            est_saving_us=nxt.time_us or 0.0,
            estimate="the separate activation/Add layer's time",
            source=cite("guide", "§8.4.2"),
        )


def _glu(layers: tuple[Layer, ...]) -> Iterator[tuple[list[Layer], float]]:
    for index, split in enumerate(layers):
        if split.op_type != "Split":
            continue
        window = following(layers, index, 4)
        sig = next((la for la in window if la.op_type == "Sigmoid"), None)
        mul = next((la for la in window if la.op_type == "Mul"), None)
        if sig and mul and sig.id < mul.id and out_shape(sig) in (mul.input_shapes or ()):
            yield [split, sig, mul], time_of([sig, mul])


def _norms(layers: tuple[Layer, ...]) -> Iterator[tuple[list[Layer], float]]:
    index = 0
    while index < len(layers):
        ops = [la.op_type for la in layers[index : index + len(NORM_CHAIN)]]
        if ops == NORM_CHAIN:
            chain = list(layers[index : index + len(NORM_CHAIN)])
            tail = layers[index + len(NORM_CHAIN) : index + len(NORM_CHAIN) + 2]
            if [la.op_type for la in tail] == ["Mul", "Add"]:
                chain.extend(tail)
            yield chain, time_of(chain) - max(la.time_us or 0.0 for la in chain)
            index += len(chain)
        else:
            index += 1


def check_unfused_subgraphs(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Subgraphs the RKNN software stack matches into one custom op when they are connected
        the expected way, left unfused: Split + Sigmoid + Mul (-> GLU, exGlu) and ReduceMean +
        Sub + Pow + ReduceMean + Add + Sqrt + Div (+ Mul + Add) (-> LayerNorm, exNorm).

    Why it costs time:
        Each op of the chain reads and writes the whole tensor; the fused op does one pass.
        "If they are not merged into corresponding operators, you can check whether there is
        no matching due to different connection relationships" (User Guide §8.5.3).

    Example:
        ReduceMean #50 -> ... -> Div #56 (LayerNorm pattern, 1,200 us) is not fused into exNorm

    How to fix:
        Export the subgraph in the canonical form (torch.nn.LayerNorm / F.glu, same axes, no
        extra Casts or Reshapes in between) so the toolkit matches it; keep LayerNorm over
        the channel axis ([1] or [1,2,3] for exNorm).

    Estimate:
        GLU: the Sigmoid and Mul times (exGlu assumed to cost about the Split). LayerNorm: the
        chain's time minus its largest member (one fused pass assumed to remain).
    """
    for kind, matches in (("GLU (exGlu)", _glu(profile.layers)),
                          ("LayerNorm (exNorm)", _norms(profile.layers))):
        for chain, saving in matches:
            yield Finding(
                code="RKN024", name="unfused-subgraph",
                severity=grade(max(0.0, saving), total_us(profile), Severity.WARNING),
                message=(f"{label(chain[0])} -> ... -> {label(chain[-1])} ({len(chain)} layers, "
                         f"{us(time_of(chain))}) is a {kind} pattern left unfused"),
                fix=(f"export it as one {'F.glu' if 'GLU' in kind else 'torch.nn.LayerNorm'} call "
                     "(same axes, no Cast/Reshape in between) so the toolkit fuses it"),
                layer_ids=tuple(la.id for la in chain),
                est_saving_us=max(0.0, saving),
                estimate="GLU: Sigmoid+Mul time; LayerNorm: chain time minus its largest member",
                source=cite("guide", "§8.5.3"),
            )


RULES = (
    Rule("RKN021", "pad-before-conv", Severity.WARNING,
         "Explicit Pad feeding a Conv that could pad itself", check_pad_before_conv,
         source=sources(cite("guide", "§8.5.2 Table 8-5"), cite("ops", "Convolution (pad 0..15)"))),
    Rule("RKN022", "mergeable-reshapes", Severity.WARNING,
         "Consecutive Reshape/Transpose/Slice ops that can be merged", check_mergeable_reshapes,
         source=sources(cite("guide", "§8.4.4, §8.5.2 Table 8-5"))),
    Rule("RKN023", "unfused-conv", Severity.WARNING,
         "Conv followed by a separate activation or Add the NPU could fuse", check_unfused_conv,
         source=sources(cite("guide", "§8.4.2 (fusion table, Figure 8-7)"),
                 cite("ops", "§3 fused ops"))),
    Rule("RKN024", "unfused-subgraph", Severity.WARNING,
         "GLU / LayerNorm subgraphs left unfused", check_unfused_subgraphs,
         source=sources(cite("guide", "§8.5.3"), cite("ops", "exNorm, exGlu"))),
)
