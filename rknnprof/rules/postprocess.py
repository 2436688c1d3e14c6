"""RKN061 attention that runs on one core (RKN060, post-processing, is in ``decoding``)."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.savings import NONE
from rknnprof.model import Finding, Profile, Severity, Target, ThroughputGain
from rknnprof.model.record import replace
from rknnprof.rules._util import grade, labels, npu_cores, of_frame, opt, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import cite, sources

ATTENTION_OPS = frozenset({"exSDPAttention", "exMatMul"})


FEWER = (
    "attend over fewer positions: the scores grow with their square (a feature map at 3/4 of "
    "the input side keeps 9/16 of its positions, a third of the score work)"
)
"""The latency change on a SoC without a faster kernel, with what it buys in work (not time:
no public figure)."""


def check_attention(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Attention layers (exSDPAttention, exMatMul) on the NPU that take at least 2% of the
        frame (option RKN061.min_share). Neither op splits across NPU cores (Operator List
        multi-core table), so on RK3588 and RK3576 the other cores idle while they run.

    Why it costs time:
        Attention cost grows with the square of the sequence length, and these fused ops run
        on one core. RK3562 and RK3576 have a Flash Attention kernel
        (rknn.config(enable_flash_attention=True), toolkit 2.1.0+) that RK3588 lacks.

    Example:
        2 exSDPAttention layer(s) take 2,674 us (13.1% of the frame) on one core: #63
        exSDPAttention (exSDPAttention:node_matmul_1#1_2sdpa) 1,338 us, ...

    How to fix:
        Where the platform has it (RK3562, RK3576), build with
        rknn.config(enable_flash_attention=True). On RK3588 the op has no faster path: run one
        context per core for throughput, or attend over fewer positions (a smaller feature
        map) for latency.

    Estimate:
        0 latency: Flash Attention's speed-up is not published, and RK3588 has no faster
        kernel. On a multi-core SoC without Flash Attention, the idle cores are a
        ``throughput_gain`` (one context per core, up to the core count), never a saving.
    """
    layers = [
        la for la in profile.layers if la.target is Target.NPU and la.op_type in ATTENTION_OPS
    ]
    total = total_us(profile)
    spent = time_of(layers)
    if not layers or not total or spent / total < opt(context, "RKN061", "min_share", 0.02):
        return
    platform = context.platform
    cores = npu_cores(context, profile) or 1
    flash = bool(platform is not None and platform.feature("flash_attention"))
    name = platform.name if platform is not None else "this SoC"
    if flash:
        fix = (
            f"build with rknn.config(target_platform='{name}', enable_flash_attention=True) "
            "(toolkit 2.1.0 or later)"
        )
    elif cores > 1:
        fix = (
            f"{name} has no Flash Attention and cannot split these ops: for throughput run one "
            f"context per core (rknn_dup_context + rknn_set_core_mask); for latency {FEWER}"
        )
    else:
        fix = f"{FEWER}, or fewer heads"
    if platform is None:
        fix += "; pass --platform to learn whether Flash Attention is available"
    shapes = sorted({str(la.input_shapes[0]).replace(" ", "") for la in layers if la.input_shapes})
    gain = (
        ThroughputGain(
            float(cores),
            f"{cores} NPU cores with one context each; an upper "
            "bound, these ops run on one core under any mask",
        )
        if cores > 1 and not flash
        else None
    )
    basis = (
        "Flash Attention's speed-up is not published: no latency figure"
        if flash
        else "no faster attention kernel on this SoC: no latency figure"
    )
    yield Finding(
        code="RKN061",
        name="attention",
        severity=grade(spent, total, Severity.WARNING) if flash or cores > 1 else Severity.INFO,
        message=(
            f"{len(layers)} attention layer(s) take {us(spent)} ({of_frame(spent / total, profile)}"
            f") on one NPU core{f' of {cores}' if cores > 1 else ''}: {labels(layers)}"
            + (f"; query shape {', '.join(shapes[:2])}" if shapes else "")
        ),
        fix=fix,
        layer_ids=tuple(la.id for la in layers),
        estimate="0 latency (no published speed-up); idle cores as throughput",
        source=sources(
            cite("ops", "exSDPAttention, multi-core table"),
            cite("toolkit-api", "enable_flash_attention"),
            cite("changelog", "2.1.0"),
        ),
        throughput_gain=gain,
        **replace(NONE, basis=basis).fields(),
    )


RULES = (
    Rule(
        "RKN061",
        "attention",
        Severity.WARNING,
        "Attention ops (exSDPAttention, exMatMul) on one core; Flash Attention where available",
        check_attention,
        source=sources(
            cite("ops", "exSDPAttention, exMatMul, multi-core table"),
            cite("toolkit-api", "config enable_flash_attention"),
            cite("changelog", "2.1.0"),
        ),
        basis=(
            "none in latency (no published Flash Attention speed-up, no faster RK3588 kernel);"
            " idle cores as throughput_gain"
        ),
        confidence="low (0 us claimed)",
    ),
)
