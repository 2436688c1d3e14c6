"""RKN020 inefficient operators (UG230 Table 8-5)."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.model import Finding, Profile, Severity, Target
from rknnprof.rules._util import opt, pct, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext

CATEGORIES: dict[str, tuple[frozenset[str], str]] = {
    "data transfer": (
        frozenset({"Transpose", "Reshape", "Split", "Concat"}),
        "remove layout shuffles: merge consecutive Reshape/Transpose, avoid Split+Concat pairs "
        "(e.g. C2f blocks), keep one layout end to end",
    ),
    "size transformation": (
        frozenset({"Resize", "Tile", "MaxPool", "AveragePool", "GlobalAveragePool",
                   "GlobalMaxPool", "Pad"}),
        "fold Pad into Conv pads, replace pooling by strided convs, use nearest x2 Resize or "
        "ConvTranspose, avoid Tile by broadcasting",
    ),
    "non-ReLU activation": (
        frozenset({"Sigmoid", "Tanh", "Softplus", "HardSwish", "Hardswish", "HardSigmoid",
                   "exSwish", "Swish", "exMish", "Mish", "Elu", "exGelu", "Gelu"}),
        "use ReLU (or an activation the NPU fuses into the preceding Conv); yolov5s_relu runs "
        "66.1 FPS against 48.4 FPS for SiLU on RK3588 (model zoo)",
    ),
}


def check_inefficient_operators(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        NPU layers of the three "inefficient operator" classes of UG230 Table 8-5 -- data
        transfer (Transpose, Reshape, Split, Concat), size transformation (Resize, Tile,
        pooling, Pad) and non-ReLU activations (Sigmoid, Tanh, Softplus, HardSwish; also the
        standalone Swish/Mish/Elu/Gelu ops) -- when a class takes at least 5% of the frame
        (option RKN020.min_share). One finding per class. CPU layers are RKN001's.

    Why it costs time:
        These ops do little arithmetic but move whole tensors through DDR, or use the NPU's
        slower non-MAC units; UG230 §8.5.2 says to "try to reduce" them. Conv with a fused
        activation (ConvExSwish, ConvSigmoid) is not counted here.

    Example:
        data transfer ops (Concat, Split) take 16167 us (12.6% of the frame) in 21 layer(s)

    How to fix:
        Data transfer: merge or remove reshapes/transposes and Split/Concat pairs. Size
        transformation: fold Pad into Conv, strided Conv instead of pooling, nearest x2 Resize.
        Activations: ReLU-family activations, which fuse into the Conv.

    Estimate:
        Upper bound: the class's total time, i.e. what removing or fusing the ops would save.
        Real savings are smaller where the ops cannot all go.

    Source:
        UG230 §8.5.2 Table 8-5; rknn_model_zoo README benchmark (yolov5s vs yolov5s_relu);
        DOMAIN.md §2, §7 #7, #23.
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
        yield Finding(
            code="RKN020", name="inefficient-operators", severity=Severity.INFO,
            message=(f"{category} ops ({', '.join(kinds)}) take {us(spent)} ({pct(spent / total)} "
                     f"of the frame) in {len(layers)} layer(s)"),
            fix=fix,
            layer_ids=tuple(la.id for la in layers),
            est_saving_us=spent,
            estimate="upper bound: the time of the class's layers if removed or fused",
            source="UG230 §8.5.2 Table 8-5",
        )


RULES = (
    Rule("RKN020", "inefficient-operators", Severity.INFO,
         "Data-transfer, size-transformation and non-ReLU activation ops by time share",
         check_inefficient_operators),
)
