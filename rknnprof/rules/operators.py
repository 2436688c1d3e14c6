"""RKN020 inefficient operators (User Guide Table 8-5): the C2f Split copies a change removes.

Of the guide's three classes of inefficient operators, this rule prices only the one change the
log supports: the Split of C2f-style blocks. The rest are other rules' causes, or no change
removes them: non-ReLU activations (the activation-swap rule), Pad before a Conv (RKN021),
Reshape/Transpose chains (RKN022), stride-1 pooling (SPPF's 5x5 MaxPools have no strided
replacement), Resize and Concat (they move data the model needs).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from rknnprof.analysis.mac import is_conv
from rknnprof.analysis.savings import Saving, saving_of
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


def _removed_share(layers: Sequence[Layer], index: int) -> float:
    """The share of the Split's bytes the two-half-convs rewrite removes, 0..1.

    Before: the conv writes 2c channels, the Split reads them and writes two halves (4c moved
    by the Split). After: each half-conv reads the conv's input (Cin channels) again and
    writes its half. Removed: 4c - Cin channels' worth of the Split's 4c (same H x W and data
    type). A conv whose input is at least twice its output removes nothing."""
    src, producer = in_shape(layers[index]), layers[index - 1]
    conv_in = in_shape(producer)
    if not src or not conv_in or len(conv_in) != 4 or conv_in[2:] != src[2:]:
        return 0.5  # the C2f case (Cin = 2c); the conv's input is not printed
    moved = 2 * src[1]
    return max(0.0, moved - conv_in[1]) / moved


def from_fraction_each(
    shares: Iterable[tuple[Layer, float]], basis: str, confidence: Confidence
) -> Saving:
    """Each layer saves its own share (0..1) of its time."""
    return saving_of(
        ((la, (la.time_us or 0.0) * min(1.0, max(0.0, f))) for la, f in shares),
        basis,
        confidence,
    )


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
        An upper end, by the bytes the rewrite removes. The Split reads the conv's 2c-channel
        output and writes two halves (4c channels moved); the two half-convs each read the
        conv's input (Cin channels) again. So each Split saves its measured time x (4c - Cin) /
        4c: half of it in a C2f block (Cin = 2c; 480x272, 32 channels, INT8: the conv and
        Split move 16,320 KB, the two half-convs 12,240 KB). No log measures the rewrite, and
        the half-convs' extra read costs at the conv's rate, not the Split's; confidence
        low.
    """
    total = total_us(profile)
    layers = profile.layers
    found = [i for i in range(len(layers)) if _is_c2f_split(layers, i)]
    splits = [layers[i] for i in found]
    spent = time_of(splits)
    if not splits or not total or spent / total < opt(context, "RKN020", "min_share", 0.02):
        return
    at, caveat = priced(profile, splits)
    shares = {layers[i].id: _removed_share(layers, i) for i in found}
    saving = from_fraction_each(
        ((la, shares[la.id]) for la in at),
        "an upper end: each Split's measured time x (4c - Cin) / 4c, the share of its bytes "
        "the rewrite removes: the Split reads the conv's 2c output channels and writes them "
        "back (4c moved), the two half-convs each read the conv's Cin input channels again "
        "(half the Split when Cin = 2c); no log measures the rewrite",
        Confidence.LOW,
    )
    removed = saving.total_us
    yield Finding(
        code="RKN020",
        name="inefficient-operators",
        severity=grade(saving.total_us, total, Severity.WARNING),
        message=(
            f"{len(splits)} C2f-style Split layer(s) copy the output of the conv before "
            f"them into two halves: {us(spent)} ({of_frame(spent / total, profile)}): "
            f"{labels(splits)}; the rewrite removes up to {us(removed)} of it: the two "
            f"half-convs each read the conv's input again{caveat}"
        ),
        fix=(
            "in each C2f block replace the conv + Split by two convs that each produce one half "
            "(split the conv's weights along the output channels): same MACs, no copy"
        ),
        layer_ids=tuple(la.id for la in splits),
        estimate=("upper end: the Splits' time x (4c - Cin) / 4c, the bytes the rewrite removes"),
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
            "an upper end: each C2f Split's measured time x (4c - Cin) / 4c, the share of its "
            "bytes the two half-convs remove (they each read the conv's input again); no log "
            "measures the rewrite"
        ),
        confidence="low (an upper end by bytes; the rewrite is not measured)",
    ),
)
