"""RKN002 float16: FP16 layers in a model that could run INT8."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.savings import from_fraction
from rknnprof.model import Finding, Layer, Profile, Severity, Target
from rknnprof.platforms import dtype_key
from rknnprof.rules._util import claim, grade, labels, of_frame, opt, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import priced
from rknnprof.rules.sources import cite, sources

FP16_ONLY_OPS = {"exNorm", "exLayerNorm"}
"""Ops that are float16-only on the NPU (Operator List exNorm): quantizing leaves them FP16."""
DEFAULT_SPEEDUP = 0.5
"""Saving fraction when the platform's MAC rates are unknown: INT8 tensors are half the bytes."""


def check_float16(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        NPU layers whose DataType is FLOAT16 (except fp16-only ops such as exNorm and the
        conversion layers) when they take at least 5% of the frame (option RKN002.min_share), on
        a platform that runs INT8 (every SoC except RK2118, which is float16-only).

    Why it costs time:
        "The INT8 computing power of NPU is much greater than that of FP16" (User Guide §8.3):
        RK3588 does 1024 INT8 MACs per cycle per core against 512 FP16, and INT8 tensors are half
        the bytes, so both compute- and bandwidth-bound layers run faster quantized.

    Example:
        41 FLOAT16 NPU layer(s) take 12,840 us (63.0% of the frame): #3 Conv (Conv:conv1) 2,100 us,
        ...; INT8 could save about 6,420 us (rk3588: 1024 INT8 vs 512 FP16 MACs per cycle per core)

    How to fix:
        Quantize the model (rknn.config quantized_dtype='w8a8' with a calibration dataset). If
        accuracy drops, use hybrid quantization (rknn.hybrid_quantization_step1/2) to keep only
        the sensitive layers in FP16, or try quantized_algorithm='mmse'/'kl_divergence'.

    Estimate:
        FP16 layer time x (1 - R_fp16 / R_int8) with the platform's MACs per cycle (0.5 on
        RK3588); where the rates are unknown, 0.5 as well, because INT8 moves half the bytes.
        An upper-end figure: fixed per-layer overheads do not halve. A layer RKN050 flags as a
        single-frame outlier counts at the time the log supports (its same-shape sibling's, or
        its cycles at the table's median pace), named in the message.
    """
    layers = covered_layers(profile, context)
    if not layers:
        return
    platform = context.platform
    total = total_us(profile)
    fp16_time = time_of(layers)
    share = fp16_time / total if total else 0.0
    fraction = DEFAULT_SPEEDUP
    rates = "INT8 tensors are half the bytes of FP16"
    if platform is not None:
        r8, r16 = platform.macs_per_cycle("INT8"), platform.macs_per_cycle("FLOAT16")
        if r8 and r16:
            fraction = 1.0 - r16 / r8
            rates = (
                f"{platform.name}: {r8} INT8 vs {r16} FP16 MACs per cycle per core, and "
                "half the bytes"
            )
    at, caveat = priced(profile, layers)
    saving = from_fraction(
        at,
        fraction,
        f"{fraction:.0%} of each FP16 layer's time: {rates} "
        "(User Guide §8.3); an upper-end figure, fixed per-layer costs do "
        "not shrink",
    )
    yield Finding(
        code="RKN002",
        name="float16",
        severity=grade(saving.total_us, total),
        message=(
            f"{len(layers)} FLOAT16 NPU layer(s) take {us(fp16_time)} ({of_frame(share, profile)}"
            f"): {labels(layers)}"
            + claim(profile, f"; INT8 could save up to {us(saving.total_us)} ({rates}){caveat}")
        ),
        fix=(
            f"quantize to INT8: {_int8_config(profile)} and rknn.build("
            "do_quantization=True, dataset=<calibration list>); if accuracy drops, keep only "
            "the sensitive layers FP16 with hybrid quantization"
        ),
        layer_ids=tuple(la.id for la in layers),
        estimate=f"FP16 time x {fraction:.2f} (1 - FP16/INT8 MAC rate, or half the bytes)",
        source=sources(
            cite("guide", "§8.3"), cite("toolkit-api", "quantized_dtype, hybrid quantization")
        ),
        **saving.fields(),
    )


def covered_layers(profile: Profile, context: RuleContext) -> list[Layer]:
    """The FP16 NPU layers RKN002 advises quantizing (empty when it does not fire): other rules
    leave these layers to it, so one cause gets one finding."""
    platform = context.platform
    if platform is not None and platform.int8_supported is False:
        return []
    layers = [
        la
        for la in profile.layers
        if la.target is Target.NPU
        and dtype_key(la.data_type) == "float16"
        and la.op_type not in FP16_ONLY_OPS
        and "DataConvert" not in la.op_type
        and not la.is_io
    ]
    total = total_us(profile)
    share = time_of(layers) / total if total else 0.0
    return layers if layers and share >= opt(context, "RKN002", "min_share", 0.05) else []


RULES = (
    Rule(
        "RKN002",
        "float16",
        Severity.ERROR,
        "FP16 layers that would run faster quantized to INT8",
        check_float16,
        source=sources(
            cite("guide", "§8.3"),
            cite("toolkit-api", "config quantized_dtype, hybrid quantization"),
        ),
        basis=(
            "a documented bound: half of each FP16 layer's time (User Guide §8.3: INT8 does 2x"
            " the MACs per cycle and moves half the bytes); a single-frame outlier at the time "
            "the log supports"
        ),
        confidence="medium (the guide's rates, not a measurement of this model in INT8)",
        fix_changes_data_type=True,
    ),
)


def _int8_config(profile: Profile) -> str:
    """rknn.config's INT8 call in the toolkit that built the model: ``w8a8`` from
    rknn-toolkit2 2.0, ``asymmetric_quantized-8`` before; both when the log does not say."""
    major = (profile.versions.toolkit or "").split(".", 1)[0]
    if major == "1":
        return "rknn.config(quantized_dtype='asymmetric_quantized-8')"
    if major.isdigit():
        return "rknn.config(quantized_dtype='w8a8')"
    return (
        "rknn.config(quantized_dtype='w8a8') (rknn-toolkit2 1.x names it 'asymmetric_quantized-8')"
    )
