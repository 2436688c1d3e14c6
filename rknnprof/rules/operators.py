"""RKN020 inefficient operators (User Guide Table 8-5): the C2f Split copies a change removes.

Of the guide's three classes of inefficient operators, this rule prices only the one change the
log supports: the Split of C2f-style blocks. The rest are other rules' causes, or no change
removes them: non-ReLU activations (the activation-swap rule), Pad before a Conv (RKN021),
Reshape/Transpose chains (RKN022), stride-1 pooling (SPPF's 5x5 MaxPools have no strided
replacement), Resize and Concat (they move data the model needs).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rknnprof.analysis.mac import is_conv
from rknnprof.analysis.savings import from_removal
from rknnprof.model import Confidence, Finding, Layer, Profile, Severity, Target
from rknnprof.rules._util import (
    grade,
    in_shape,
    labels,
    of_frame,
    opt,
    out_shape,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import priced
from rknnprof.rules.sources import cite, sources


def _is_c2f_split(layers: Sequence[Layer], index: int) -> bool:
    """A Split into two equal channel halves of the tensor the conv just before it wrote (the
    cv1 + chunk(2) of a YOLOv8 C2f / C3k2 block). Other splits (a head's box/class split, a
    split of a block input) are not: two convs cannot replace them."""
    split = layers[index]
    if split.op_type != "Split" or split.target is not Target.NPU or index == 0:
        return False
    src, half = in_shape(split), out_shape(split)
    if not src or not half or len(src) != 4 or len(half) != 4 or src[1] != 2 * half[1]:
        return False
    if src[2:] != half[2:]:
        return False
    producer = layers[index - 1]
    return is_conv(producer) and out_shape(producer) == src


def check_inefficient_operators(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        C2f-style Splits on the NPU: a Split into two equal channel halves of the tensor the
        conv just before it wrote (YOLOv8 C2f, YOLO11/26 C3k2), when together they take at
        least 2% of the frame (option RKN020.min_share). Other splits stay silent.

    Why it costs time:
        Split is a data-transfer op (User Guide Table 8-5): it copies the whole tensor through
        DDR to hand each half to its consumer, with no arithmetic.

    Example:
        8 C2f-style Split layer(s) take 4,818 us (3.8% of the frame): #5 Split
        (Split:/model.2/Split) 1,195 us, #13 Split (Split:/model.4/Split) 785 us, +6 more

    How to fix:
        In each block, replace the conv + Split by two convs that each produce one half (the
        conv's weights split along the output channels): same MACs, no copy.

    Estimate:
        The Splits' measured time. The two half-convs are assumed to cost what the one conv did
        (same MACs; each reads the conv's input), so the figure is an upper end; confidence
        medium.
    """
    total = total_us(profile)
    layers = profile.layers
    splits = [la for i, la in enumerate(layers) if _is_c2f_split(layers, i)]
    spent = time_of(splits)
    if not splits or not total or spent / total < opt(context, "RKN020", "min_share", 0.02):
        return
    at, caveat = priced(profile, splits)
    saving = from_removal(
        at,
        f"the {len(splits)} Splits' measured time; the two half-convs "
        "are assumed to cost what the one conv did",
        Confidence.MEDIUM,
    )
    yield Finding(
        code="RKN020",
        name="inefficient-operators",
        severity=grade(saving.total_us, total, Severity.WARNING),
        message=(
            f"{len(splits)} C2f-style Split layer(s) copy the output of the conv before "
            f"them into two halves: {us(spent)} ({of_frame(spent / total, profile)}): "
            f"{labels(splits)}{caveat}"
        ),
        fix=(
            "in each C2f block replace the conv + Split by two convs that each produce one half "
            "(split the conv's weights along the output channels): same MACs, no copy"
        ),
        layer_ids=tuple(la.id for la in splits),
        estimate="the Split layers' time (the half-convs assumed to cost the one conv)",
        source=cite("guide", "§8.5.2 Table 8-5"),
        **saving.fields(),
    )


RULES = (
    Rule(
        "RKN020",
        "inefficient-operators",
        Severity.WARNING,
        "C2f-style Split copies that two half-convs would remove (User Guide Table 8-5)",
        check_inefficient_operators,
        source=sources(cite("guide", "§8.5.2 Table 8-5")),
        basis=(
            "the C2f Splits' measured time; the two half-convs are assumed to cost what the "
            "one conv did"
        ),
        confidence="medium",
    ),
)
