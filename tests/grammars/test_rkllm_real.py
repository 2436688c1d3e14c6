"""RKLLM statistics read from real logs, one per runtime wording found; expected values are the
log's own numbers.

* v1.2 (``Model init time (ms)``, ``Peak Memory Usage (GB)``), two generations: the README of
  https://huggingface.co/happyme531/Qwen2.5-VL-3B-Instruct-RKLLM (Qwen2.5-VL-3B on RK3588). The
  two prompts have 321 and 13 tokens: a summary pairing their median length (167) with their
  median rate (108.17 tokens/s) describes a prompt that never existed.
* 1.3.0 (``Peak Memory Usage (MB)``), the stage rows pasted without their header row and a
  1-token Generate stage: a public RK3588 bring-up write-up (DeepSeek-R1-Distill-Qwen-1.5B W8A8,
  rkllm-runtime 1.3.0; the code index that found it does not name its repository).
* v1.1 (``Init`` row, ``Memory Usage (GB)``): a public copy of the RKLLM 1.1 monitoring notes
  (``export RKLLM_LOG_LEVEL=1``; the index does not name its repository either).
* the init lines of rkllm-runtime 1.0.1, 1.1.4, 1.2.1 and 1.2.3, from
  https://github.com/airockchip/rknn-llm/issues/62, /232, /335 and /437.
"""

from __future__ import annotations

import json

import pytest
from grammar_transports import run

from rknnprof.inputs.lines import Line
from rknnprof.parsers.rkllm import RkllmParser

RULE = "I rkllm: " + "-" * 86
QWEN25_VL_V12 = "\n".join(
    [
        "The overall ambiance is warm and inviting.",
        "",
        RULE,
        "I rkllm:  Model init time (ms)  3361.48" + " " * 68,
        RULE,
        "I rkllm:  Stage         Total Time (ms)  Tokens    Time per Token (ms)      Tokens per "
        "Second      ",
        RULE,
        "I rkllm:  Prefill       2201.45          321       6.86                     145.81"
        + " " * 17,
        "I rkllm:  Generate      12419.47         102       121.76                   8.21"
        + " " * 19,
        RULE,
        "I rkllm:  Peak Memory Usage (GB)",
        "I rkllm:  6.19        ",
        RULE,
        "",
        "user: 1",
        "robot: n_image_tokens:  289",
        "",
        RULE,
        "I rkllm:  Stage         Total Time (ms)  Tokens    Time per Token (ms)      Tokens per "
        "Second      ",
        RULE,
        "I rkllm:  Prefill       184.35           13        14.18                    70.52"
        + " " * 18,
        "I rkllm:  Generate      8711.49          72        120.99                   8.26"
        + " " * 19,
        RULE,
        "I rkllm:  Peak Memory Usage (GB)",
        "I rkllm:  6.19        ",
        RULE,
        "",
    ]
)
FRAGMENT_V13 = """user: ok
robot: Alright,
I rkllm:  Prefill       196.36           4         49.09                    20.37
I rkllm:  Generate      125.08           1         125.08                   7.99
I rkllm:  Peak Memory Usage (MB)
I rkllm:  1673.56
"""
MONITORING_V11 = "\n".join(
    [
        "Process Finish..",
        RULE,
        "I rkllm:  Stage         Total Time (ms)  Tokens    Time per Token (ms)      Tokens per "
        "Second      ",
        RULE,
        "I rkllm:  Init          189073.94        /         /                        /" + " " * 22,
        "I rkllm:  Prefill       1523.53          47        32.42                    30.85"
        + " " * 18,
        "I rkllm:  Generate      308636.08        999       308.95                   3.24"
        + " " * 19,
        RULE,
        "I rkllm:  Memory Usage (GB)",
        "I rkllm:  6.66        ",
        RULE,
        "",
    ]
)


def _analyze(tmp_path, log: str, *args: str):
    result = run(["analyze", "-f", "json", *args], log.encode(), tmp_path, False)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    [profile] = report["profiles"]
    return profile["llm"], report


def test_two_generations_are_reported_each_and_as_medians(tmp_path):
    llm, _ = _analyze(tmp_path, QWEN25_VL_V12)
    first, second = llm["per_generation"]
    assert (first["prefill_tokens"], first["prefill_ms"], first["prefill_tokens_per_s"]) == (
        321,
        2201.45,
        145.81,
    )
    assert (first["generate_tokens"], first["generate_ms"], first["decode_tokens_per_s"]) == (
        102,
        12419.47,
        8.21,
    )
    assert (second["prefill_tokens"], second["prefill_tokens_per_s"], second["ttft_ms"]) == (
        13,
        70.52,
        184.35,
    )
    assert (second["generate_tokens"], second["decode_tokens_per_s"]) == (72, 8.26)
    assert llm["generations"] == 2
    # prompts of 321 and 13 tokens: a median prefill (108.165 tokens/s, 1,192.9 ms to the first
    # token) describes no prompt, and compare and check would judge it: none is given
    assert (llm["prefill_tokens"], llm["prefill_tokens_per_s"], llm["ttft_ms"]) == (None,) * 3
    assert llm["decode_tokens_per_s"] == 8.235  # (8.21 + 8.26) / 2
    assert (llm["init_ms"], llm["peak_memory_mb"]) == (3361.48, 6338.56)  # 6.19 GB


def test_the_decode_rate_is_the_logs_own(tmp_path):
    """The Generate row's Tokens per Second as printed, not (tokens - 1) / time."""
    llm, _ = _analyze(tmp_path, QWEN25_VL_V12)
    assert [g["decode_tokens_per_s"] for g in llm["per_generation"]] == [8.21, 8.26]
    assert [g["generate_tokens"] for g in llm["per_generation"]] == [102, 72]


def test_the_summary_says_it_is_a_median_and_invents_no_prompt(tmp_path):
    result = run(["analyze"], QWEN25_VL_V12.encode(), tmp_path, False)
    text = " ".join(result.stdout.split())
    # the prompts (321 and 13 tokens) differ 25x: a median prefill rate (108.17 tokens/s) or
    # first-token time of them describes no prompt; each generation's are shown
    assert (
        "RKLLM statistics, median of 2 generations: prompts of 13-321 tokens (prefill per "
        "generation), decode 8.23 tokens/s" in text
    )
    assert "167 tokens" not in text and "108.17" not in text and "1,193 ms" not in text
    assert "· 2 generations" in text and "frames" not in text  # two generations, not frames
    assert "generation 1 (line 4): prefill 321 tokens at 145.81 tokens/s" in text
    assert "generation 2 (line 19): prefill 13 tokens at 70.52 tokens/s" in text
    assert "decode 72 tokens at 8.26 tokens/s" in text
    # RKN090 names the median, not a generation that never ran
    assert "decode runs at 8.23 tokens/s (the median of 2 generations)" in text


def test_header_less_rows_are_a_fragment_with_a_warning(tmp_path):
    llm, report = _analyze(tmp_path, FRAGMENT_V13)
    [warning] = report["warnings"]
    assert warning["line"] == 3 and "without their header row" in warning["message"]
    [g] = llm["per_generation"]
    assert (g["prefill_ms"], g["prefill_tokens"], g["prefill_tokens_per_s"]) == (196.36, 4, 20.37)
    assert g["ttft_ms"] == 196.36
    assert llm["peak_memory_mb"] == 1673.56


def test_a_one_token_generate_stage_is_one_decode_step(tmp_path):
    """Generate 125.08 ms, 1 token, 7.99 tokens/s: one step of 125 ms (not zero steps)."""
    llm, _ = _analyze(tmp_path, FRAGMENT_V13)
    assert (llm["generate_tokens"], llm["decode_steps"]) == (1, 1)
    assert llm["decode_tokens_per_s"] == 7.99
    assert llm["generate_ms"] == 125.08


def test_the_v1_1_wording(tmp_path):
    llm, _ = _analyze(tmp_path, MONITORING_V11)
    assert llm["init_ms"] == 189073.94
    assert (llm["prefill_tokens"], llm["prefill_tokens_per_s"], llm["ttft_ms"]) == (
        47,
        30.85,
        1523.53,
    )
    assert (llm["decode_steps"], llm["decode_tokens_per_s"]) == (999, 3.24)
    assert llm["peak_memory_mb"] == 6819.84  # 6.66 GB


@pytest.mark.parametrize(
    ("text", "runtime", "driver", "toolkit", "platform"),
    [
        (  # https://github.com/airockchip/rknn-llm/issues/62 (1.0.1: no `I rkllm:` level)
            "rkllm-runtime version: 1.0.1, rknpu driver version: 0.8.2, platform: RK3588",
            "1.0.1",
            "0.8.2",
            None,
            "rk3588",
        ),
        (  # https://github.com/airockchip/rknn-llm/issues/232
            "I rkllm: rkllm-runtime version: 1.1.4, rknpu driver version: 0.9.6, platform: RK3588",
            "1.1.4",
            "0.9.6",
            None,
            "rk3588",
        ),
        (  # https://github.com/airockchip/rknn-llm/issues/335
            "I rkllm: rkllm-toolkit version: 1.2.1, max_context_limit: 4096, npu_core_num: 3, "
            "target_platform: RK3588, model_dtype: W8A8",
            None,
            None,
            "1.2.1",
            "rk3588",
        ),
        (  # https://github.com/airockchip/rknn-llm/issues/437
            "I rkllm: rkllm-runtime version: 1.2.3, rknpu driver version: 0.9.8, platform: RK3588",
            "1.2.3",
            "0.9.8",
            None,
            "rk3588",
        ),
    ],
)
def test_init_line_wordings(text, runtime, driver, toolkit, platform):
    block = RkllmParser().opens(Line(1, text.removeprefix("I rkllm: "), None, "I", "rkllm"))
    assert block is not None
    [event] = block.close()
    versions = event.versions
    # (librkllmrt and rkllm-toolkit: the librknnrt / rknn-toolkit2 fields stay empty)
    assert (versions.llm_runtime, versions.driver, versions.llm_toolkit) == (
        runtime,
        driver,
        toolkit,
    )
    assert versions.runtime is None and versions.toolkit is None
    assert event.platform == platform


def test_prefill_is_not_judged_across_prompts_of_other_lengths(tmp_path):
    """check gives no prefill rate of prompts 25x apart (public log: 321 and 13 tokens), and
    compare none."""
    log = tmp_path / "vl.txt"
    log.write_text(QWEN25_VL_V12)
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: prefill_tokens_per_s\n    min: 100\n")
    result = run(
        ["check", "--budgets", str(budgets), "-f", "json"], log.read_bytes(), tmp_path, False
    )
    [verdict] = json.loads(result.stdout)["verdicts"]
    assert verdict["status"] == "inconclusive"
    assert verdict["message"] == (
        "prefill_tokens_per_s: the generations' prompts differ (13-321 tokens): a prefill's "
        "rate follows its prompt's length, no median of them"
    )
    result = run(["compare", "-f", "json", str(log)], log.read_bytes(), tmp_path, False)
    [comparison] = json.loads(result.stdout)["comparisons"]
    # (each side's prompts 25x apart: no prefill median to compare, and no row of dashes)
    assert [name for name, *_ in comparison["llm_rates"]] == [
        "decode_tokens_per_s",
        "init_ms",
        "peak_memory_mb",
    ]


def test_prefill_rates_of_prompts_of_other_lengths_are_not_compared():
    from rknnprof.compare.reports import llm_rates, other_prompts
    from rknnprof.model import LlmRun, Profile, SourceSpan

    def run_of(prompt: int, rate: float) -> Profile:
        llm = LlmRun(prefill_tokens=prompt, prefill_tokens_per_s=rate, decode_tokens_per_s=8.2)
        return Profile(source=SourceSpan("x"), format="rkllm-runtime", llm=llm)

    long, short, alike = run_of(321, 145.81), run_of(13, 70.52), run_of(300, 140.0)
    assert other_prompts(long, short) == (
        "prompts: 321 vs 13 tokens (a prefill's rate follows its prompt's length: prefill not "
        "compared)"
    )
    assert [name for name, *_ in llm_rates(long, short)] == ["decode_tokens_per_s"]
    assert other_prompts(long, alike) is None  # (within 10 %)
    assert [name for name, *_ in llm_rates(long, alike)][:2] == [
        "decode_tokens_per_s",
        "prefill_tokens_per_s",
    ]


def test_a_one_step_decode_is_not_judged_by_check(tmp_path):
    """The 1.3.0 fragment's Generate row is 1 token in 125.08 ms (7.99 tokens/s): one step,
    which RKN090 calls too few to judge a decode rate by; check must not fail a ``min: 8``
    budget on it either."""
    log = tmp_path / "one-step.txt"
    log.write_text(FRAGMENT_V13)
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: decode_tokens_per_s\n    min: 8\n")
    result = run(
        ["check", "--budgets", str(budgets), "-f", "json"], log.read_bytes(), tmp_path, False
    )
    assert result.exit_code == 0, result.output
    [verdict] = json.loads(result.stdout)["verdicts"]
    assert verdict["status"] == "inconclusive"
    assert verdict["message"] == (
        "decode_tokens_per_s: the decode ran 1 step: too few to judge a decode rate (16 or "
        "more in one generation)"
    )


def test_a_one_step_decode_is_not_compared(tmp_path):
    """Against the Qwen2.5-VL run (decodes of 102 and 72 tokens at 8.21 and 8.26 tokens/s),
    the 1.3.0 fragment's one decode step (7.99 tokens/s) is no decode rate to set beside them:
    compare leaves the decode out and says why."""
    base = tmp_path / "one-step.txt"
    base.write_text(FRAGMENT_V13)
    # (run() writes CURRENT, the Qwen2.5-VL log, beside it and appends its path)
    result = run(["compare", "-f", "json", str(base)], QWEN25_VL_V12.encode(), tmp_path, False)
    [comparison] = json.loads(result.stdout)["comparisons"]
    assert "decode_tokens_per_s" not in [name for name, *_ in comparison["llm_rates"]]
    assert (
        "decode: 1 vs 87 steps (too few to judge a decode rate: decode not compared)"
        in comparison["differences"]
    )
