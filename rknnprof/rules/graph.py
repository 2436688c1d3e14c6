"""Graph-shape rules: RKN022 mergeable reshapes, RKN023 unfused Conv + activation/Add, RKN024
unfused GLU / LayerNorm subgraphs (RKN021, a Pad before a Conv, is :mod:`.padding`).

The tables print no edges. Layers appear in execution order, so "A feeds B" is judged from
neighbours whose shapes match (``_util.feeds``): a heuristic, said so in each message. Every
saving counts a single-frame outlier at the time the log supports (``outliers.priced``), named
in the message.
"""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.savings import from_removal
from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Confidence, Finding, Layer, Profile, Severity
from rknnprof.rules._util import (
    feeds,
    following,
    grade,
    label,
    of_frame,
    out_shape,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.normalisation import covered_layers as norm_layers
from rknnprof.rules.outliers import priced
from rknnprof.rules.sources import cite, sources

WINDOW = 3
"""How many following layers are searched for a consumer."""
ACTIVATIONS = {
    "Relu",
    "Clip",
    "Relu6",
    "PRelu",
    "LeakyRelu",
    "Sigmoid",
    "Tanh",
    "Elu",
    "HardSwish",
    "Hardswish",
    "HardSigmoid",
    "Softplus",
    "exSwish",
    "Swish",
    "exMish",
    "Mish",
    "exGelu",
    "Gelu",
}
RESHAPES = {"Reshape", "Transpose", "Slice", "Squeeze", "Unsqueeze", "Flatten"}
NORM_CHAIN = ["ReduceMean", "Sub", "Pow", "ReduceMean", "Add", "Sqrt", "Div"]


def check_mergeable_reshapes(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Two or more consecutive Reshape/Transpose/Slice/Squeeze/Flatten layers, each feeding the
        next (output shape = next input shape). All chains of a model are one finding; under
        the noise floor (a few us of Reshapes) it is info. The Transposes/Reshapes wrapping a
        norm are RKN072's (one cause, one finding) and left out.

    Why it costs time:
        Each one is a data-transfer op that moves the tensor (User Guide Table 8-5). The User
        Guide (§8.4.4) asks to merge consecutive Reshape/Transpose/Slice ("combining similar
        terms").

    Example:
        1 chain(s) of back-to-back layout ops (matched by shape) take 930 us: #40 Reshape ->
        #41 Transpose -> #42 Reshape

    How to fix:
        Rewrite the chain as a single Reshape or Transpose (or none) in the source model;
        move layout changes to where the data is small. Layers the toolkit inserted (FullName
        ending ``_rs`` or ``_tp``) are no node of the source model: they go when the source
        model hands the op they feed (exSDPAttention) the layout it reads.

    Estimate:
        The chain's time minus its most expensive member (one op is assumed to remain: the
        guide's advice, not measured, so medium confidence).
    """
    norm = {la.id for la in norm_layers(profile)}
    chains: list[list[Layer]] = []
    chain: list[Layer] = []
    for layer in profile.layers:
        layout = layer.op_type in RESHAPES and layer.id not in norm
        if layout and (not chain or feeds(chain[-1], layer)):
            chain.append(layer)
            continue
        if len(chain) >= 2:
            chains.append(chain)
        chain = [layer] if layout else []
    if len(chain) >= 2:
        chains.append(chain)
    if not chains:
        return
    # one op of each chain remains: the others go (the largest at the supported times is kept)
    at, caveat = priced(profile, [la for c in chains for la in c])
    by_id = {la.id: la for la in at}
    gone = [
        la
        for c in chains
        for la in sorted((by_id[x.id] for x in c), key=lambda la: -(la.time_us or 0.0))[1:]
    ]
    saving = from_removal(
        gone,
        f"the measured time of all but the largest op of each of the {len(chains)} chain(s)",
        Confidence.MEDIUM,  # (that one op can stand for each chain is the guide's advice)
    )
    shown = "; ".join(" -> ".join(label(la) for la in c) for c in chains[:2])
    more = f"; +{len(chains) - 2} more chain(s)" if len(chains) > 2 else ""
    inserted = [la for c in chains for la in c if INSERTED.search(la.full_name or "")]
    fed = sorted(
        {
            after.op_type
            for c in chains
            if any(la in inserted for la in c)
            and (after := _after(profile, c[-1])) is not None
            and after.op_type not in RESHAPES
            and not after.is_io
        }
    )
    attention = any(op in ATTENTION_OPS for op in fed)
    toolkit = (
        f"; {len(inserted)} of their layers are the toolkit's own (FullName ending _rs or _tp: "
        "inserted to fit the layout of the op they feed), no node of the source model"
        if inserted
        else ""
    )
    plain = [c for c in chains if not any(la in inserted for la in c)]
    fix = (
        "rewrite each chain as one Reshape or Transpose in the source model (User Guide §8.4.4 "
        "'combining similar terms')"
    )
    if inserted:
        fix = (
            f"the toolkit's own reshapes go when the source model hands "
            f"{'/'.join(fed) or 'the op they feed'} the layout it takes"
            + (
                " (for attention: q/k/v in the layout the op reads, not a (B,N,H,D) tensor "
                "the toolkit must transpose and reshape into it)"
                if attention
                else ""
            )
            + (f"; the other {len(plain)} chain(s): " + fix if plain else "")
        )
    yield Finding(
        code="RKN022",
        name="mergeable-reshapes",
        severity=grade(saving.total_us, total_us(profile), Severity.WARNING),
        message=(
            f"{len(chains)} chain(s) of back-to-back layout ops (matched by shape) take "
            f"{us(time_of(la for c in chains for la in c))}: {shown}{more}{toolkit}{caveat}"
        ),
        fix=fix,
        layer_ids=tuple(la.id for c in chains for la in c),
        estimate="each chain's time minus its largest member",
        source=cite("guide", "§8.4.4"),
        **saving.fields(),
    )


ATTENTION_OPS = frozenset({"exSDPAttention", "exMatMul", "MatMul"})
INSERTED = LazyPattern(r"_(?:rs|tp)\d*$")
"""A FullName the toolkit gave a layout op it inserted (``…/Mul_output_0_tp_rs``): the
inserted reshape's ``_rs``, the inserted transpose's ``_tp``."""


def _after(profile: Profile, layer: Layer) -> Layer | None:
    """The layer after ``layer`` in the table, if any."""
    index = profile.layers.index(layer)
    return profile.layers[index + 1] if index + 1 < len(profile.layers) else None


AFTER_ADD_FUSES = {"Relu"}
"""Activations the NPU fuses after a Conv+Add: only ReLU (``ConvolutionAddRelu`` in the operator
list). Any other standalone activation after a ConvAdd stays a layer of its own."""
BETWEEN = {"Transpose", "Reshape"}
"""Layout ops that stop a Conv+activation fusion when they sit between the two (guide Figure
8-7: reorder Transpose and Clip so Conv and Clip fuse)."""
CONV_ACT_FUSES = ACTIVATIONS - {"Gelu", "exGelu"}
"""Activations the operator list fuses into a Convolution (``ConvolutionRelu`` …)."""
UNFUSED_SOURCE = sources(
    cite("guide", "§8.4.2 fusion rules, Figure 8-7"),
    cite("ops", "§3 fused Convolution ops (ConvolutionAddRelu)"),
)


GATES = {"Sigmoid", "HardSigmoid", "Tanh"}
"""Activations that gate (feed a Mul) or squash an output: ReLU cannot stand in for them."""


def _gate(layers: tuple[Layer, ...], index: int) -> bool:
    act = layers[index]
    return act.op_type in GATES and any(
        la.op_type in ("Mul", "OutputOperator") and feeds(act, la)
        for la in following(layers, index, WINDOW)
    )


def _act_after_conv_add(layers: tuple[Layer, ...]) -> list[tuple[Layer, Layer]]:
    """(ConvAdd, activation) pairs: a standalone non-ReLU activation taking the ConvAdd's output
    as the next layer (a Sigmoid/Tanh gating a Mul or squashing an output is left alone)."""
    return [
        (conv, layers[i + 1])
        for i, conv in enumerate(layers[:-1])
        if conv.op_type == "ConvAdd"
        and layers[i + 1].op_type in ACTIVATIONS
        and layers[i + 1].op_type not in AFTER_ADD_FUSES
        and feeds(conv, layers[i + 1])
        and not _gate(layers, i + 1)
    ]


def _act_behind_layout(layers: tuple[Layer, ...]) -> list[tuple[Layer, Layer, Layer]]:
    """(plain Conv, Transpose/Reshape, activation) chains, each feeding the next: the layout op
    keeps the activation from fusing into the conv."""
    return [
        (conv, mid, act)
        for conv, mid, act in zip(layers, layers[1:], layers[2:])
        if conv.op_type == "Conv"
        and mid.op_type in BETWEEN
        and act.op_type in CONV_ACT_FUSES
        and feeds(conv, mid)
        and feeds(mid, act)
    ]


def check_unfused_conv(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Standalone activations the NPU could have fused, where the table shows what stopped it:
        (a) a non-ReLU activation (LeakyRelu, Sigmoid, PRelu, Clip…) right after a ConvAdd,
        which no fusion rule covers (only Conv+Add+ReLU fuses, as ConvAddRelu), except a
        Sigmoid/Tanh gating a Mul or squashing an output; (b) a plain Conv, then a Transpose or
        Reshape, then an activation the conv could fuse (guide Figure 8-7). One finding per
        case, listing the layers. A Conv next to a separate Relu or Add is not reported: the
        table already shows them adjacent, so the usual fix (make it the Conv's adjacent, only
        consumer) cannot be told apart from what the graph already is.

    Why it costs time:
        Fused, the activation is applied as the conv writes its output; standalone, the whole
        tensor makes another round trip through DDR. A public FP16 image-fusion network's
        eval_perf CSV (RK3588, see Source) runs four LeakyRelu layers after ConvAdd for 10,390
        us, 6.3% of its frame.

    Example:
        4 LeakyRelu layer(s) run on their own after a ConvAdd for 10,390 us (6.3% of the
        frame): #22 LeakyRelu (LeakyRelu:LeakyRelu_16) 2,977 us after #21 ConvAdd, ...

    How to fix:
        (a) After the residual Add use ReLU (Conv+Add+ReLU fuses as ConvAddRelu), or apply the
        activation to the conv branch before the Add (Conv+activation+Add is in the fusion
        list); either changes the model, so fine-tune. (b) Move the activation before the
        Transpose/Reshape (an elementwise activation commutes with a layout change).

    Estimate:
        The standalone activations' time (each is removed; the fused conv's time is assumed
        unchanged, as the fusion rules imply). Confidence medium: a documented fusion, not a
        measured one. A layer RKN050 flags as a single-frame outlier counts at the time the log
        supports (that CSV: #32 at #44's 1,921 us, #22 at #34's 1,388 us), named in the
        message.
    """
    layers = profile.layers
    total = total_us(profile)
    after_add = _act_after_conv_add(layers)
    if after_add:
        acts = [act for _, act in after_add]
        spent = time_of(acts)
        kinds = "/".join(sorted({act.op_type for act in acts}))
        slowest = sorted(after_add, key=lambda pair: -(pair[1].time_us or 0))[:3]
        pairs = ", ".join(
            f"{label(act)} {us(act.time_us or 0)} after #{conv.id} ConvAdd" for conv, act in slowest
        )
        more = f", +{len(acts) - 3} more" if len(acts) > 3 else ""
        at, caveat = priced(profile, acts)
        saving = from_removal(
            at,
            f"the {len(acts)} standalone {kinds} layer(s)' measured time; "
            "the fusion rules add nothing to the conv",
            Confidence.MEDIUM,
        )
        yield Finding(
            code="RKN023",
            name="unfused-conv",
            severity=grade(saving.total_us, total, Severity.WARNING),
            message=(
                f"{len(acts)} {kinds} layer(s) run on their own after a ConvAdd for "
                f"{us(spent)} ({of_frame(spent / total, profile) if total else '? of the frame'}): "
                f"{pairs}{more} (matched by shape). The NPU fuses Conv+Add+ReLU "
                f"(ConvAddRelu) and Conv+activation+Add, not Conv+Add+{kinds}{caveat}"
            ),
            fix=(
                f"after the residual Add use ReLU (fuses as ConvAddRelu), or apply the {kinds} "
                "to the conv branch before the Add (Conv+activation+Add fuses); both change "
                "the model: fine-tune"
            ),
            layer_ids=tuple(i for conv, act in after_add for i in (conv.id, act.id)),
            estimate="the standalone activations' time",
            source=UNFUSED_SOURCE,
            **saving.fields(),
        )
    behind = _act_behind_layout(layers)
    if behind:
        acts = [act for _, _, act in behind]
        at, caveat = priced(profile, acts)
        saving = from_removal(
            at,
            f"the {len(acts)} activation layer(s)' measured time; the "
            "fusion rules add nothing to the conv",
            Confidence.MEDIUM,
        )
        chains = ", ".join(
            f"#{conv.id} Conv -> {label(mid)} -> {label(act)} {us(act.time_us or 0)}"
            for conv, mid, act in behind[:3]
        )
        yield Finding(
            code="RKN023",
            name="unfused-conv",
            severity=grade(saving.total_us, total, Severity.WARNING),
            message=(
                f"{len(acts)} activation(s) cannot fuse into their conv because a "
                f"Transpose/Reshape sits between them (matched by shape): {chains}"
                + (f", +{len(acts) - 3} more" if len(acts) > 3 else "")
                + caveat
            ),
            fix=(
                "move the activation before the Transpose/Reshape in the exported model "
                "(guide Figure 8-7) so Conv and activation fuse"
            ),
            layer_ids=tuple(i for chain in behind for i in (chain[0].id, chain[2].id)),
            estimate="the activation layers' time",
            source=UNFUSED_SOURCE,
            **saving.fields(),
        )


def _glu(layers: tuple[Layer, ...]) -> Iterator[tuple[list[Layer], list[Layer]]]:
    """(Split, Sigmoid, Mul) chains, with the layers exGlu would replace (Sigmoid, Mul)."""
    for index, split in enumerate(layers):
        if split.op_type != "Split":
            continue
        window = following(layers, index, 4)
        sig = next((la for la in window if la.op_type == "Sigmoid"), None)
        mul = next((la for la in window if la.op_type == "Mul"), None)
        if sig and mul and sig.id < mul.id and out_shape(sig) in (mul.input_shapes or ()):
            yield [split, sig, mul], [sig, mul]


def _norms(layers: tuple[Layer, ...]) -> Iterator[tuple[list[Layer], list[Layer]]]:
    """LayerNorm chains, and no list of the layers exNorm would replace: all but the largest
    at the times the log supports, which the caller prices."""
    index = 0
    while index < len(layers):
        ops = [la.op_type for la in layers[index : index + len(NORM_CHAIN)]]
        if ops == NORM_CHAIN:
            chain = list(layers[index : index + len(NORM_CHAIN)])
            tail = layers[index + len(NORM_CHAIN) : index + len(NORM_CHAIN) + 2]
            if [la.op_type for la in tail] == ["Mul", "Add"]:
                chain.extend(tail)
            yield chain, []
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
    for kind, matches in (
        ("GLU (exGlu)", _glu(profile.layers)),
        ("LayerNorm (exNorm)", _norms(profile.layers)),
    ):
        for chain, replaced in matches:
            at, caveat = priced(profile, chain)
            by_id = {la.id: la for la in at}
            gone = (
                [by_id[la.id] for la in replaced]
                if replaced
                else sorted(at, key=lambda la: -(la.time_us or 0.0))[1:]
            )
            saving = from_removal(
                gone,
                f"the measured time of the {len(gone)} op(s) the "
                "fused op replaces; its own cost is assumed",
                Confidence.LOW,
            )
            yield Finding(
                code="RKN024",
                name="unfused-subgraph",
                severity=grade(saving.total_us, total_us(profile), Severity.WARNING),
                message=(
                    f"{label(chain[0])} -> ... -> {label(chain[-1])} ({len(chain)} layers, "
                    f"{us(time_of(chain))}) is a {kind} pattern left unfused{caveat}"
                ),
                fix=(
                    f"export it as one {'F.glu' if 'GLU' in kind else 'torch.nn.LayerNorm'} call "
                    "(same axes, no Cast/Reshape in between) so the toolkit fuses it"
                ),
                layer_ids=tuple(la.id for la in chain),
                estimate="GLU: Sigmoid+Mul time; LayerNorm: chain time minus its largest member",
                source=cite("guide", "§8.5.3"),
                **saving.fields(),
            )


RULES = (
    Rule(
        "RKN022",
        "mergeable-reshapes",
        Severity.WARNING,
        "Consecutive Reshape/Transpose/Slice ops that can be merged",
        check_mergeable_reshapes,
        source=sources(cite("guide", "§8.4.4, §8.5.2 Table 8-5")),
        basis=("the measured time of every op of each chain but its largest"),
        confidence="medium (that one op can stand for a chain is the guide's advice, not measured)",
    ),
    Rule(
        "RKN023",
        "unfused-conv",
        Severity.WARNING,
        "Standalone activations that could fuse into their conv: non-ReLU after ConvAdd, "
        "or behind a Transpose/Reshape",
        check_unfused_conv,
        source=sources(UNFUSED_SOURCE, cite("fusionnet-fp16", "(standalone LeakyRelu)")),
        basis=(
            "the standalone activations' measured time (each is removed; the fused conv's time"
            " is assumed unchanged), a single-frame outlier at the time the log supports"
        ),
        confidence=("medium (a documented fusion, not a measured one)"),
    ),
    Rule(
        "RKN024",
        "unfused-subgraph",
        Severity.WARNING,
        "GLU / LayerNorm subgraphs left unfused",
        check_unfused_subgraphs,
        source=sources(cite("guide", "§8.5.3"), cite("ops", "exNorm, exGlu")),
        basis=(
            "the measured time of the chain ops the fused op replaces (GLU: Sigmoid + Mul; "
            "LayerNorm: all but the largest)"
        ),
        confidence="low (the fused op's own cost is assumed, not measured)",
    ),
)
