"""RKN040 sparse inference (RK3576, RV1126B): dense candidates, and sparse layers that gain
nothing."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.mac import conv_geometry
from rknnprof.analysis.savings import from_fraction
from rknnprof.model import Bound, Confidence, Finding, Layer, Profile, Severity, Target
from rknnprof.platforms import dtype_key
from rknnprof.rules._util import claim, grade, labels, of_frame, opt, share, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import priced
from rknnprof.rules.sources import cite, sources

SOURCE = sources(
    cite("guide", "§5.11 (Tables 5-10, 5-12)"),
    cite("toolkit-api", "config sparse_infer"),
    cite("autosparsity"),
)
DENSE = (None, "0%")


def _why_no_gain(layer: Layer) -> str | None:
    """Why a layer with sparse weights cannot run faster, or None when it can."""
    geometry = conv_geometry(layer)
    if geometry is None or geometry.kind != "conv":
        return "not a group-1 2-D Conv (sparse inference supports only those)"
    if dtype_key(layer.data_type) != "int8":
        return f"{layer.data_type} (sparse inference is INT8 only)"
    if geometry.in_c % 32 or geometry.out_c % 32:
        return f"channels {geometry.in_c}->{geometry.out_c} not 32-aligned"
    if geometry.out_c <= 32:
        return f"{geometry.out_c} output channels (more than 32 are needed to take effect)"
    if layer.bound is Bound.BANDWIDTH:
        return "bandwidth-bound (fewer MACs do not shorten a DDR-bound layer)"
    return None


def _candidate(layer: Layer) -> bool:
    return (
        layer.target is Target.NPU
        and layer.sparse_ratio in DENSE
        and layer.bound is not Bound.BANDWIDTH
        and _why_no_gain(layer) is None
    )


def check_sparse_inference(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        On SoCs with sparse inference (RK3576; the Toolkit2 API Reference also names RV1126B): (a)
        dense INT8 group-1 Conv layers (SparseRation 0% or no sparsity column) with 32-aligned
        input and output channels, more than 32 output channels, not bandwidth-bound, each at least
        1% of the frame (option RKN040.min_share), when together at least 5%
        (RKN040.min_total_share); (b) layers with sparse weights (50%/75%) that cannot run
        faster: not a group-1 Conv, not INT8, channels not 32-aligned, 32 or fewer output
        channels, or bandwidth-bound.

    Why it costs time:
        Sparse inference skips zero weights in 4:2 (50%) or 16:4 (75%) patterns and cuts the
        MACs of compute-bound convs. It supports only 2-D Conv with group 1, 32-aligned
        channels and INT8 (User Guide §5.11 Table 5-12); "the number of sparse weight channels must
        be greater than 32 to take effect" (autosparsity). Sparse weights elsewhere cost
        accuracy for no speed.

    Example:
        9 dense INT8 conv layer(s) take 8,200 us (22.0% of the frame) on rk3576: 4:2 sparse
        weights could cut about 4,100 us; largest: #12 ConvRelu (Conv:/layer3/conv) 1,400 us

    How to fix:
        (a) Retrain with autosparsity (sparsity_model mode 0..3), then build with
        rknn.config(target_platform='rk3576', sparse_infer=True); check the per-layer
        SparseRation at RKNN_LOG_LEVEL=4. (b) Leave those layers out of the autosparsity
        whitelist.

    Estimate:
        (a) Half the candidates' time (4:2 sparsity halves their MACs; an upper bound for
        compute-bound layers). (b) 0: nothing to gain in time.
    """
    platform = context.platform
    if platform is None or not platform.feature("sparse_inference"):
        return
    total = total_us(profile)
    min_share = opt(context, "RKN040", "min_share", 0.01)
    candidates = [la for la in profile.layers if _candidate(la) and share(la, profile) >= min_share]
    spent = time_of(candidates)
    if candidates and total and spent / total >= opt(context, "RKN040", "min_total_share", 0.05):
        at, caveat = priced(profile, candidates)
        saving = from_fraction(
            at,
            0.5,
            "half of each candidate's time: 4:2 sparsity "
            "halves its MACs (User Guide §5.11); no measured speed-up is "
            "published, an upper bound",
            Confidence.LOW,
        )
        yield Finding(
            code="RKN040",
            name="sparse-inference",
            severity=grade(saving.total_us, total, Severity.WARNING),
            message=(
                f"{len(candidates)} dense INT8 conv layer(s) take {us(spent)} "
                f"({of_frame(spent / total, profile)}) on {platform.name}"
                + claim(profile, f": 4:2 sparse weights could cut about {us(saving.total_us)}")
                + f"; largest: {labels(candidates)}"
                + claim(profile, caveat)
            ),
            fix=(
                "retrain with autosparsity and build with rknn.config(target_platform="
                f"'{platform.name}', sparse_infer=True)"
            ),
            layer_ids=tuple(la.id for la in candidates),
            estimate="half the candidates' time (4:2 sparsity halves their MACs)",
            source=SOURCE,
            **saving.fields(),
        )
    wasted = [
        (la, why)
        for la in profile.layers
        if la.sparse_ratio not in DENSE and (why := _why_no_gain(la))
    ]
    if wasted:
        details = "; ".join(
            f"#{la.id} {la.op_type} {la.sparse_ratio}: {why}" for la, why in wasted[:3]
        )
        yield Finding(
            code="RKN040",
            name="sparse-inference",
            severity=Severity.INFO,
            message=(
                f"{len(wasted)} layer(s) carry sparse weights but cannot run faster: {details}"
                + (f" +{len(wasted) - 3} more" if len(wasted) > 3 else "")
            ),
            fix="leave these layers out of the autosparsity whitelist (keep their weights dense)",
            layer_ids=tuple(la.id for la, _ in wasted),
            est_saving_us=0.0,
            estimate="0: sparsity there costs accuracy and saves no time",
            source=SOURCE,
        )


RULES = (
    Rule(
        "RKN040",
        "sparse-inference",
        Severity.WARNING,
        "Dense INT8 convs that sparse inference could speed up, and sparse layers that gain "
        "nothing (RK3576/RV1126B)",
        check_sparse_inference,
        source=SOURCE,
        basis=(
            "a documented bound: half the dense candidates' time (4:2 sparsity halves their MACs)"
        ),
        confidence="low (the guide publishes no measured speed-up)",
        fix_shows_in_rows=False,  # a sparse model's rows may print as the dense one's
    ),
)
