"""RKN072 normalisation lowered to Transposes: InstanceNorm / GroupNorm / LayerNorm exported
over an axis the NPU's exNorm does not take, so the runtime wraps it in Transposes (or
Reshapes) and follows it with a per-channel Mul/Add.

The tables print no edges: a chain is layers next to each other whose shapes feed one
another (``_util.feeds``). A ranking table alone gives only op types and call counts: there the
pattern is inferred from the counts (two Transposes per norm) and said so.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rknnprof.analysis.savings import from_removal
from rknnprof.model import Confidence, Finding, Layer, Profile, Severity
from rknnprof.rules._util import (
    feeds,
    grade,
    labels,
    of_frame,
    out_shape,
    pct,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import priced
from rknnprof.rules.sources import cite, sources

CODE, NAME = "RKN072", "norm-transposes"
NORMS = frozenset(
    {
        "exNorm",
        "exLayerNorm",
        "LayerNormalization",
        "InstanceNormalization",
        "GroupNormalization",
        "exRMSNorm",
        "exMeanVarianceNormalization",
    }
)
"""Normalisation op types as logs print them (exNorm on the NPU, the others on the CPU)."""
WRAPPERS = frozenset({"Transpose", "Reshape"})
AFFINE = frozenset({"Mul", "Add"})
SOURCE = sources(
    cite("ops", "exNorm: float16 only, axes [1] or [1,2,3]"),
    cite("guide", "§8.5.3 LayerNorm subgraph fusion"),
    cite("guide", "§8.4.4 combining similar terms"),
)
FIX = (
    "export the norm over an axis exNorm takes directly, [1] (LayerNorm over the channels "
    "of NCHW) or [1,2,3] (GroupNorm with one group), so no Transpose wraps it and the "
    "per-channel Mul/Add fuse into it (the LayerNorm fusion takes Mul + Add); else fold them "
    "into the next conv's weights and bias (w' = w x gamma, b' = b + w x beta); where the "
    "model allows, a BatchNorm folds into the conv and removes the norm"
)


def _elements(shape: tuple[int, ...] | None) -> int:
    count = 1
    for dim in shape or ():
        count *= dim
    return count


def _per_channel(layer: Layer, main: tuple[int, ...] | None) -> bool:
    """A Mul/Add whose other operand has as many elements as one axis of ``main``."""
    if layer.op_type not in AFFINE or not main or not layer.input_shapes:
        return False
    others = [s for s in layer.input_shapes if s != main]
    return bool(others) and all(
        _elements(s) in main and _elements(s) < _elements(main) for s in others
    )


def _chain(layers: Sequence[Layer], index: int) -> list[Layer]:
    """The layers around the norm at ``index``: up to two Transposes/Reshapes feeding it (each
    feeding the next), up to two it feeds, then per-channel Mul/Add; the norm itself is first.
    Empty when no Transpose is among the wrappers, or the wrappers are on one side only: an
    axis exNorm does not take is moved in and back out, while a Transpose after it alone
    restores the layout the next op wants (a ViT's last LayerNorm before its connector's
    Reshape, whose 25 other LayerNorms of the same shape ran bare) and one before it alone
    brings the model's input to the channel-major layout the convs after it want too (a
    public FP16 model: its input's Transpose, then exNorm over axis 1, then a 1x1 conv)."""
    norm = layers[index]
    before: list[Layer] = []
    head = norm
    for k in (index - 1, index - 2):
        if k < 0 or layers[k].op_type not in WRAPPERS or not feeds(layers[k], head):
            break
        before.append(layers[k])
        head = layers[k]
    after: list[Layer] = []
    tail = norm
    k = index + 1
    while (
        k < len(layers)
        and len(after) < 2
        and layers[k].op_type in WRAPPERS
        and feeds(tail, layers[k])
    ):
        after.append(layers[k])
        tail = layers[k]
        k += 1
    wrappers = before + after
    if not before or not after or not any(la.op_type == "Transpose" for la in wrappers):
        return []
    affine: list[Layer] = []
    while (
        k < len(layers)
        and len(affine) < 2
        and _per_channel(layers[k], out_shape(tail))
        and (feeds(tail, layers[k]))
    ):
        affine.append(layers[k])
        tail = layers[k]
        k += 1
    return [norm, *wrappers, *affine]


def _chains(layers: Sequence[Layer]) -> list[list[Layer]]:
    return [c for i, la in enumerate(layers) if la.op_type in NORMS and (c := _chain(layers, i))]


def covered_layers(profile: Profile) -> list[Layer]:
    """The layers of the norm chains RKN072 reports from the rows (it fires on any chain):
    RKN022 leaves their Transposes/Reshapes to it, so one cause gets one finding."""
    if not total_us(profile):
        return []
    return [la for c in _chains(profile.layers) for la in c]


def _from_layers(profile: Profile, total: float) -> Iterator[Finding]:
    chains = _chains(profile.layers)
    if not chains:
        return
    norms = [c[0] for c in chains]
    removable = [la for c in chains for la in c[1:]]
    whole = time_of(norms) + time_of(removable)
    kinds = "/".join(sorted({la.op_type for la in removable if la.op_type in WRAPPERS}))
    at, caveat = priced(profile, removable)
    saving = from_removal(
        at,
        f"the {len(removable)} wrapper and per-channel Mul/Add "
        f"layer(s) around {len(norms)} norm(s), measured; the norm itself "
        "stays",
        Confidence.MEDIUM,
    )
    first = " -> ".join(f"#{la.id} {la.op_type}" for la in sorted(chains[0], key=lambda x: x.id))
    yield Finding(
        code=CODE,
        name=NAME,
        severity=grade(saving.total_us, total, cap=Severity.WARNING),
        message=(
            f"{len(norms)} normalisation(s) run wrapped in {kinds} (matched by shape): "
            f"{first}"
            + (f", +{len(chains) - 1} more chain(s)" if len(chains) > 1 else "")
            + f"; together {us(whole)} ({of_frame(whole / total, profile)}), of which the "
            f"wrappers and per-channel Mul/Add take {us(saving.total_us)}: "
            f"{labels(removable)}{caveat}"
        ),
        fix=FIX,
        layer_ids=tuple(la.id for c in chains for la in sorted(c, key=lambda x: x.id)),
        estimate="the Transposes/Reshapes and per-channel Mul/Add around the norms",
        source=SOURCE,
        **saving.fields(),
    )


def _from_ranking(profile: Profile, total: float) -> Iterator[Finding]:
    stats = {s.op_type: s for s in profile.ranking}
    norms = [s for s in profile.ranking if s.op_type in NORMS and s.total_time_us > 0]
    transpose = stats.get("Transpose")
    calls = sum(s.calls for s in norms)
    if not norms or transpose is None or transpose.calls < 2 * calls or not calls:
        return
    share = min(1.0, 2 * calls / transpose.calls)
    # (the Transposes' CPU time is RKN001's, which prices it from the same row: one cause,
    # one finding, and the two savings never add up to more than the row's time)
    on_npu = transpose.total_time_us - transpose.cpu_time_us
    claimed = on_npu * share
    norm_time = sum(s.total_time_us for s in norms)
    names = ", ".join(f"{s.op_type} {us(s.total_time_us)} in {s.calls} call(s)" for s in norms)
    affine = [s for s in profile.ranking if s.op_type in AFFINE and s.total_time_us > 0]
    yield Finding(
        code=CODE,
        name=NAME,
        severity=grade(claimed, total, cap=Severity.WARNING),
        message=(
            f"the ranking shows {names} and Transpose {us(transpose.total_time_us)} in "
            f"{transpose.calls} call(s): two Transposes per norm, the shape of a norm "
            f"exported over an axis exNorm does not take; together "
            f"{us(norm_time + claimed)} ({pct((norm_time + claimed) / total)} of the "
            "frame). An assumption: the ranking alone cannot show the Transposes sit "
            "around the norm"
            + (
                f"; their CPU time ({us(transpose.cpu_time_us)}) is RKN001's: the saving is "
                f"the norms' share of the {us(on_npu)} on the NPU"
                if transpose.cpu_time_us
                else ""
            )
            + (
                f"; {', '.join(s.op_type for s in affine)} may hold its per-channel "
                "affine (not counted)"
                if affine
                else ""
            )
        ),
        fix=FIX,
        est_saving_us=claimed,
        estimate=(
            f"Transpose time{' on the NPU' if transpose.cpu_time_us else ''} x "
            f"{2 * calls}/{transpose.calls} (two per norm)"
        ),
        source=SOURCE,
        basis=(
            f"ranking table: {2 * calls} of {transpose.calls} Transpose call(s) assumed to "
            "wrap the norm(s)"
        ),
        confidence=Confidence.LOW,
    )


def check_norm_transposes(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        A normalisation (exNorm, exLayerNorm, or InstanceNormalization / GroupNormalization /
        LayerNormalization on the CPU) wrapped in up to two Transposes/Reshapes on each side,
        at least one a Transpose and at least one on each side (a Transpose on one side alone
        moves the layout for the ops after it, not for the norm), and the per-channel Mul/Add
        right after:
        InstanceNorm, GroupNorm or LayerNorm exported over an axis the NPU norm does not take.
        One finding
        for the model. Without layer rows: a ranking with at least two Transpose calls per
        norm call (the Transposes are then assumed to wrap the norms; confidence low).

    Why it costs time:
        exNorm normalises over axes [1] or [1,2,3] of NCHW only (operator list), so a
        LayerNorm over the last axis, or an InstanceNorm over [2,3], is rewritten as
        Transpose + exNorm + Transpose, each Transpose a full copy of the tensor through DDR;
        the affine (gamma, beta) then runs as a separate per-channel Mul and Add. A user's
        public RK3588 report of a UNet (FP16, ranking table) spends 27,731 us in 2 Transposes
        beside 20,555 us of one exNorm, 26.4% of its 183,003 us; the slimmed model in the same
        report has neither.

    Example:
        the ranking shows exNorm 20,555 us in 1 call(s) and Transpose 27,731 us in 2 call(s):
        two Transposes per norm ...; together 48,286 us (26.4% of the frame)

    How to fix:
        Export the norm over an axis exNorm takes directly: [1] (LayerNorm over the channels
        of NCHW) or [1,2,3] (GroupNorm with one group); where the model allows, use BatchNorm,
        which folds into the conv. Fold the per-channel Mul/Add into the next conv's weights
        and bias.

    Estimate:
        The wrapping Transposes/Reshapes and the per-channel Mul/Add, measured (the norm
        stays; confidence medium: whether the axis can change is the model's call). Ranking
        only: the Transpose time x (2 x norm calls / Transpose calls), confidence low; its
        CPU time left out (RKN001 prices it from the same row).
    """
    total = total_us(profile)
    if not total:
        return
    if profile.layers:
        yield from _from_layers(profile, total)
    else:
        yield from _from_ranking(profile, total)


RULES = (
    Rule(
        CODE,
        NAME,
        Severity.WARNING,
        "Norms wrapped in Transposes (an axis exNorm does not take) and per-channel Mul/Add "
        "to fold into the next conv",
        check_norm_transposes,
        source=SOURCE,
        basis=(
            "the wrapping Transposes/Reshapes and per-channel Mul/Add, measured (the norm "
            "stays); ranking only: a share of the Transpose time"
        ),
        confidence=("medium; low from the ranking alone"),
    ),
)
