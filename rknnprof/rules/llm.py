"""RKN090 llm-decode: how close an RKLLM decode runs to the DDR bound."""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.assemble.llm import MIN_DECODE_STEPS, few_decode_steps
from rknnprof.model import Finding, Profile, Severity
from rknnprof.rules._util import opt
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import issue, sources

CODE = "RKN090"
BENCHMARK = "rknn-llm benchmark.md (https://github.com/airockchip/rknn-llm/blob/main/benchmark.md)"
SOURCE = sources(
    issue("airockchip/rknn-llm", 27, "decode speed and DDR frequency"),
    issue("airockchip/rknn-llm", 62, "rkllm-runtime init lines"),
    BENCHMARK,
)
PRACTICAL_SHARE = 0.40
"""Decodes that read their weights at this share of the DDR peak or more are near what RKLLM
reaches: public RK3588 W8A8 runs read them at 42-63 % of 33.8 GB/s (Qwen3-0.6B, 909 MB at
15.59 tokens/s and Gemma3-1B, 1.5 GB at 13.50, VenomekPL/RockchipLlama docs/BENCHMARKS.md;
Qwen3-4B, 4.51 GB at 4.75, kuneberg/rk_llm_chat PERFORMANCE_RESULTS.md)."""
PRACTICE = "42-63% in public RK3588 W8A8 runs"
ABOVE_PRACTICE = 0.80
"""A decode that reads its weights at this share of the DDR peak or more is above any public
run (63 %): the model's size given is likely larger than the weights a step reads."""
DECODE_RUNS = (
    "VenomekPL/RockchipLlama docs/BENCHMARKS.md, RK3588 W8A8 decode rates (https://github.com/"
    "VenomekPL/RockchipLlama/blob/806b3fb182e0252197ed90e9c04e10b75d095182/docs/BENCHMARKS.md); "
    "kuneberg/rk_llm_chat PERFORMANCE_RESULTS.md, Qwen3-4B W8A8 on RK3588 (https://github.com/"
    "kuneberg/rk_llm_chat/blob/100a63b4cd3487cb44f571be80d8803361673a52/PERFORMANCE_RESULTS.md)"
)
W4A16_SOCS = ("rk3576", "rv1126b")
"""SoCs rknn-llm's benchmark runs W4A16 models on (about 1.5x W8A8's decode rate on RK3576:
Qwen2 0.5B 32.56 against 21.73 tokens/s); it lists W8A8 alone for RK3588 and RK3562."""


def smaller_weights(dtype: str | None, platform: str | None) -> str:
    """What 'close to the bound' leaves to change, for the model's quantization and SoC."""
    if dtype and dtype.upper().startswith("W4"):
        return f"a smaller model (its weights are {dtype} already)"
    if platform in W4A16_SOCS:
        return (
            f"a smaller model or W4A16 weights (about 1.5x W8A8's decode rate on {platform} in "
            "rknn-llm's benchmark)"
        )
    if platform is None:
        return "a smaller model, or W4A16 weights on an SoC rknn-llm runs them on (RK3576, RV1126B)"
    return f"a smaller model (rknn-llm's benchmark runs {platform} at W8A8 only)"


def check_llm_decode(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        RKLLM profiles (``rkllm-runtime``): the decode rate against the platform's DDR
        bandwidth. Decode is memory-bound: every step reads the model's weights once, so the
        bytes per token are the model size (``--model-size``, or ``RKN090.model_size_gb``), and
        the DDR peak over them bounds the tokens per second.

    Why it costs time:
        A decode far below the bound points at something other than the weights' bytes: a
        lowered DDR or NPU clock, the CPU doing part of the work, a long context (the KV cache
        is read too), or another process sharing the DDR.

    Example:
        decode runs at 8.13 tokens/s (101 steps in 12,419 ms); each step reads the model's
        1.90 GB of weights: 15.4 GB/s, 46% of rk3588's DDR peak 33.8 GB/s (bound 17.8
        tokens/s)

    How to fix:
        Close to the bound: a smaller model, or W4A16 weights on an SoC rknn-llm runs them on
        (RK3576, RV1126B; RK3588 and RK3562 run W8A8 only), is the only way up.
        Far from it: lock the DDR/NPU frequencies (scaling_frequency.sh), check the driver
        version, and keep other DDR users idle. Given the model size and the platform, the fix
        says which: at 40 % of the DDR peak or more, near the bound (public RK3588 W8A8
        decodes read their weights at 42-63 % of it).

    Estimate:
        None: a verdict, 0 us (the tokens per second at the bound are in the message).
    """
    run = profile.llm
    if run is None or run.decode_tokens_per_s is None:
        return
    size_gb = opt(context, CODE, "model_size_gb", None)
    platform = context.platform
    peak = platform.ddr_bandwidth_gbs if platform is not None else None
    name = platform.name if platform is not None else ""
    rate = run.decode_tokens_per_s
    steps = run.decode_steps
    if few_decode_steps(run) is not None:
        yield Finding(
            code=CODE,
            name="llm-decode",
            severity=Severity.INFO,
            message=(
                f"decode ran {steps} step{'s' if steps != 1 else ''} "
                f"({run.generate_ms or 0:,.0f} ms, printed as {rate:.2f} tokens/s): too few "
                "to judge a decode rate against the DDR bound"
            ),
            fix=f"measure a generation of {MIN_DECODE_STEPS * 8} tokens or more",
            est_saving_us=0.0,
            estimate="a verdict: no saving",
            basis="too few decode steps to judge: no saving",
            source=SOURCE,
        )
        return
    if run.generations > 1:
        basis = f"the median of {run.generations} generations"
    else:
        basis = f"{steps} step{'s' if steps != 1 else ''} in {run.generate_ms or 0:,.0f} ms"
    message = f"decode runs at {rate:.2f} tokens/s ({basis})"
    smaller = smaller_weights(profile.versions.llm_dtype, name or None)
    idle = "lock the DDR/NPU frequencies, check the driver, keep other DDR users idle"
    fix = f"close to the bound: {smaller}; far from it: {idle}"
    source = SOURCE
    if size_gb and peak:
        share = size_gb * rate / peak
        if share >= ABOVE_PRACTICE:
            fix = (
                f"at {share:.0%} of the peak, above what RKLLM decodes reach ({PRACTICE}): check "
                "the model size given (--model-size: the .rkllm file's size) and the platform "
                "before acting on it"
            )
        elif share >= PRACTICAL_SHARE:
            fix = (
                f"at {share:.0%} of the peak, near what RKLLM decodes reach ({PRACTICE}): {smaller}"
            )
        else:
            fix = (
                f"at {share:.0%} of the peak, well below what RKLLM decodes reach "
                f"({PRACTICE}): {idle}; then {smaller}"
            )
        source = f"{SOURCE}; {DECODE_RUNS}"
    if size_gb:
        gbs = size_gb * rate
        message += f"; each step reads the model's {size_gb:.2f} GB of weights: {gbs:.1f} GB/s"
        if peak:
            message += (
                f", {gbs / peak:.0%} of {name}'s DDR peak {peak:g} GB/s "
                f"(bound {peak / size_gb:.1f} tokens/s)"
            )
        else:
            message += " (the platform's DDR bandwidth is unknown: give --platform)"
    else:
        give = "--model-size" if peak else "--model-size and --platform"
        message += (
            "; decode is memory-bound (each step reads the weights once): give "
            f"{give} to compare it with the DDR bandwidth"
        )
        if peak:
            message += f" ({name}: {peak:g} GB/s peak)"
    yield Finding(
        code=CODE,
        name="llm-decode",
        severity=Severity.INFO,
        message=message,
        fix=fix,
        est_saving_us=0.0,
        estimate="a verdict: no saving",
        basis="the decode rate against DDR peak / model size: no saving",
        source=source,
    )


RULES = (
    Rule(
        CODE,
        "llm-decode",
        Severity.WARNING,
        "RKLLM decode rate against the DDR bound (model size / DDR bandwidth)",
        check_llm_decode,
        source=SOURCE,
        basis="none: a verdict (0 us)",
        confidence="low (0 us claimed)",
    ),
)
