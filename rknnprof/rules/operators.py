"""RKN020 inefficient operators (User Guide Table 8-5)."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.model import Finding, Layer, Profile, Severity, Target
from rknnprof.rules._util import grade, label, opt, pct, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import cite, sources

CATEGORIES: dict[str, tuple[frozenset[str], str]] = {
    "data transfer": (
        frozenset({"Transpose", "Reshape", "Split", "Concat"}),
        "start with the largest copies: in C2f-style blocks replace conv + Split by two convs "
        "that each produce one half, and merge back-to-back Reshape/Transpose",
    ),
    "size transformation": (
        frozenset({"Resize", "Tile", "MaxPool", "AveragePool", "GlobalAveragePool",
                   "GlobalMaxPool", "Pad"}),
        "fold each Pad into the next Conv's pads, and replace pooling by a strided Conv where "
        "accuracy allows",
    ),
    "non-ReLU activation": (
        frozenset({"Sigmoid", "Tanh", "Softplus", "HardSwish", "Hardswish", "HardSigmoid",
                   "exSwish", "Swish", "exMish", "Mish", "Elu", "exGelu", "Gelu"}),
        "replace the activation by ReLU (fused into the Conv, and split across cores); the "
        "model zoo's yolov5s_relu runs 66.1 FPS against 48.4 FPS with SiLU on RK3588",
    ),
}


def _data_transfer_fix(kinds: list[str], largest: Layer, layers: list[Layer]) -> str:
    """One change for the data-transfer class, from the op types present (slowest first)."""
    if "Split" in kinds:
        split = time_of(la for la in layers if la.op_type == "Split")
        return ("in C2f-style blocks replace conv + Split by two convs that each produce one "
                f"half: that removes the Split copies ({us(split)} here)")
    if kinds[0] in ("Transpose", "Reshape"):
        return ("keep one layout end to end: merge back-to-back Reshape/Transpose and move the "
                "rest to where tensors are small")
    shape = largest.output_shapes[0] if largest.output_shapes else None
    at = f" (the largest writes ({','.join(map(str, shape))}))" if shape else ""
    return (f"concatenate fewer or narrower tensors at the highest resolutions{at}: every "
            "Concat copies all its inputs through DDR")


def check_inefficient_operators(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        NPU layers of the three "inefficient operator" classes of User Guide Table 8-5 -- data
        transfer (Transpose, Reshape, Split, Concat), size transformation (Resize, Tile,
        pooling, Pad) and non-ReLU activations (Sigmoid, Tanh, Softplus, HardSwish; also the
        standalone Swish/Mish/Elu/Gelu ops) -- when a class takes at least 5% of the frame
        (option RKN020.min_share). One finding per class. CPU layers are RKN001's.

    Why it costs time:
        These ops do little arithmetic but move whole tensors through DDR, or use the NPU's
        slower non-MAC units; User Guide §8.5.2 says to "try to reduce" them. Conv with a fused
        activation (ConvExSwish, ConvSigmoid) is not counted here.

    Example:
        data transfer ops take 2,365 us (11.6% of the frame) in 36 layer(s): Concat 1,645 us in
        19, Split 664 us in 11, Reshape 56 us in 6; largest #88 Concat (Concat:node_cat_11) 318 us

    How to fix:
        Data transfer: in C2f-style blocks replace conv + Split by two convs that each produce
        one half; merge back-to-back Reshape/Transpose. Size transformation: fold Pad into the
        Conv's pads, strided Conv instead of pooling. Activations: ReLU, which fuses into the
        Conv and splits across cores.

    Estimate:
        Upper bound: the class's total time, i.e. what removing or fusing the ops would save.
        Real savings are smaller where the ops cannot all go.
    """
    total = total_us(profile)
    if not total:
        return
    min_share = opt(context, "RKN020", "min_share", 0.05)
    for category, (ops, fix) in CATEGORIES.items():
        layers = [la for la in profile.layers if la.target is Target.NPU and la.op_type in ops]
        spent = time_of(layers)
        if not layers or spent / total < min_share:
            continue
        kinds = sorted({la.op_type for la in layers}, key=lambda op: -time_of(
            la for la in layers if la.op_type == op))
        per_kind = ", ".join(
            f"{op} {us(time_of(g))} in {len(g)}"
            for op in kinds if (g := [la for la in layers if la.op_type == op]))
        largest = max(layers, key=lambda la: la.time_us or 0.0)
        if category == "data transfer":
            fix = _data_transfer_fix(kinds, largest, layers)
        yield Finding(
            code="RKN020", name="inefficient-operators",
            severity=grade(spent, total, Severity.WARNING),
            message=(f"{category} ops take {us(spent)} ({pct(spent / total)} of the frame) in "
                     f"{len(layers)} layer(s): {per_kind}; largest {label(largest)} "
                     f"{us(largest.time_us or 0.0)}"),
            fix=fix,
            layer_ids=tuple(la.id for la in layers),
            est_saving_us=spent,
            estimate="upper bound: the time of the class's layers if removed or fused",
            source=cite("guide", "§8.5.2 Table 8-5"),
        )


RULES = (
    Rule("RKN020", "inefficient-operators", Severity.WARNING,
         "Data-transfer, size-transformation and non-ReLU activation ops by time share",
         check_inefficient_operators,
         source=sources(cite("guide", "§8.5.2 Table 8-5"),
                 cite("zoo", "yolov5s vs yolov5s_relu"))),
)
