"""RKLLM runtime statistics (rknn-llm, ``RKLLM_LOG_LEVEL=1``): a profile kind of its own.

Fixtures, values by construction:

* ``rkllm_v1_1.txt``: runtime 1.1.4, driver 0.9.6, RK3576, the driver-too-low warning (line 3);
  ``Init 12000.00 / / /``, ``Prefill 400.00 40 10.00 100.00``, ``Generate 5000.00 51 98.04
  10.20``, ``Memory Usage (GB) 2.50``: prefill 100 tokens/s, decode 51 steps at the printed
  10.20 tokens/s (51 / 5 s), 2560 MB.
* ``rkllm_v1_2.txt``: runtime 1.2.1, RK3588, two generations: ``Model init time (ms) 2500``,
  Prefill 250 ms / 50 and 300 ms / 60 (200 tokens/s both), Generate 2000 ms / 21 at 10.50 and
  4000 ms / 41 at 10.25 tokens/s (median 10.375), ``Peak Memory Usage (GB) 1.50`` (1536 MB).
* ``rkllm_v1_3.txt``: runtime 1.3.0, ``Model init time (ms) 1800``, Prefill 160 ms / 32
  (200 tokens/s), Generate 6400 ms / 129 at 20.16 tokens/s, ``Peak Memory Usage (MB)
  1024.00``. With ``--model-size 1GB``: 20.2 GB/s, 60% of RK3588's 33.8 GB/s, bound 33.8
  tokens/s.

Real logs of each runtime version are in ``test_rkllm_real.py``.
"""

from __future__ import annotations

import json

import pytest
from grammar_transports import VARIANTS, fixture, logcat_threadtime, profiles, run

EXPECTED = {
    "rkllm_v1_1.txt": {
        "generations": 1,
        "prefill_tokens": 40,
        "prefill_tokens_per_s": 100,
        "generate_tokens": 51,
        "decode_steps": 51,
        "decode_tokens_per_s": 10.2,
        "ttft_ms": 400,
        "init_ms": 12000,
        "peak_memory_mb": 2560,
    },
    "rkllm_v1_2.txt": {
        "generations": 2,
        "prefill_tokens_per_s": 200,
        "decode_tokens_per_s": 10.375,
        "ttft_ms": 275,
        "init_ms": 2500,
        "peak_memory_mb": 1536,
    },
    "rkllm_v1_3.txt": {
        "generations": 1,
        "prefill_tokens": 32,
        "prefill_tokens_per_s": 200,
        "generate_tokens": 129,
        "decode_steps": 129,
        "decode_tokens_per_s": 20.16,
        "ttft_ms": 160,
        "init_ms": 1800,
        "peak_memory_mb": 1024,
    },
}
PLATFORM = {
    "rkllm_v1_1.txt": ("rk3576", "1.1.4", "0.9.6"),
    "rkllm_v1_2.txt": ("rk3588", "1.2.1", "0.9.8"),
    "rkllm_v1_3.txt": ("rk3588", "1.3.0", "0.9.8"),
}


def _logcat(text: str) -> bytes:
    """Each line as logcat prints it: tag ``rkllm``, without the ``I rkllm: `` of a terminal."""
    return logcat_threadtime(
        "\n".join(line.removeprefix("I rkllm: ") for line in text.splitlines()), tag="rkllm"
    )


TRANSPORTS = {**VARIANTS, "logcat-threadtime": _logcat}


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(TRANSPORTS))
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_stage_tables(tmp_path, name, variant, via_stdin):
    (profile,) = profiles(TRANSPORTS[variant](fixture(name)), tmp_path, via_stdin)
    assert profile["format"] == "rkllm-runtime" and profile["layers"] == []
    for key, value in EXPECTED[name].items():
        assert profile["llm"][key] == value, key
    platform, runtime, driver = PLATFORM[name]
    assert profile["platform"] == platform
    assert (profile["versions"]["llm_runtime"], profile["versions"]["driver"]) == (runtime, driver)


def test_driver_too_low_warning_is_a_finding(tmp_path):
    (profile,) = profiles(fixture("rkllm_v1_1.txt").encode(), tmp_path)
    [failure] = profile["failures"]
    assert (failure["id"], failure["line"]) == ("driver-too-old", 3)
    assert "0.9.7" in failure["diagnosis"] and "0.9.7" in failure["fix"]
    assert [f["code"] for f in profile["findings"]] == ["RKN080", "RKN090"]


def test_decode_verdict_against_the_ddr_bound(tmp_path):
    result = run(
        ["analyze", "-f", "json", "--model-size", "1GB"],
        fixture("rkllm_v1_3.txt").encode(),
        tmp_path,
        False,
    )
    [finding] = json.loads(result.stdout)["profiles"][0]["findings"]
    assert finding["code"] == "RKN090" and finding["est_saving_us"] == 0
    assert finding["message"] == (
        "decode runs at 20.16 tokens/s (129 steps in 6,400 ms); each step reads the model's "
        "1.00 GB of weights: 20.2 GB/s, 60% of rk3588's DDR peak 33.8 GB/s (bound 33.8 "
        "tokens/s)"
    )
    # 60% of the peak: near what RKLLM decodes reach (public RK3588 W8A8 runs: 42-63%), so the
    # fix says which half applies
    assert finding["fix"].startswith(
        "at 60% of the peak, near what RKLLM decodes reach (42-63% in public RK3588 W8A8 runs): "
        "a smaller model"
    )
    assert "VenomekPL/RockchipLlama" in finding["source"]


def test_a_decode_far_below_the_bound_is_told_to_fix_the_board_first(tmp_path):
    # 0.5 GB at 20.16 tokens/s: 10.1 GB/s, 30% of 33.8 GB/s
    result = run(
        ["analyze", "-f", "json", "--model-size", "0.5GB"],
        fixture("rkllm_v1_3.txt").encode(),
        tmp_path,
        False,
    )
    [finding] = json.loads(result.stdout)["profiles"][0]["findings"]
    assert finding["fix"].startswith(
        "at 30% of the peak, well below what RKLLM decodes reach (42-63% in public RK3588 W8A8 "
        "runs): lock the DDR/NPU frequencies"
    )


def test_a_decode_above_any_public_run_asks_to_check_the_model_size(tmp_path):
    # 1.6 GB at 20.16 tokens/s: 32.3 GB/s, 95% of 33.8 GB/s, above the 42-63% public runs
    # reach (it was called "near" them)
    result = run(
        ["analyze", "-f", "json", "--model-size", "1.6GB"],
        fixture("rkllm_v1_3.txt").encode(),
        tmp_path,
        False,
    )
    [finding] = json.loads(result.stdout)["profiles"][0]["findings"]
    assert finding["fix"] == (
        "at 95% of the peak, above what RKLLM decodes reach (42-63% in public RK3588 W8A8 "
        "runs): check the model size given (--model-size: the .rkllm file's size) and the "
        "platform before acting on it"
    )


def test_decode_verdict_without_a_model_size_asks_for_it(tmp_path):
    (profile,) = profiles(fixture("rkllm_v1_3.txt").encode(), tmp_path)
    [finding] = profile["findings"]
    assert "give --model-size" in finding["message"] and "33.8 GB/s peak" in finding["message"]


@pytest.mark.parametrize(
    ("platform", "dtype", "fix"),
    [
        # rknn-llm's benchmark.md runs RK3588 and RK3562 at W8A8 only, RK3576 and RV1126B at W4A16
        ("RK3588", "W8A8", "a smaller model (rknn-llm's benchmark runs rk3588 at W8A8 only)"),
        ("RK3576", "W8A8", "a smaller model or W4A16 weights (about 1.5x W8A8's decode rate on"),
        ("RK3576", "W4A16", "a smaller model (its weights are W4A16 already)"),
    ],
)
def test_the_decode_fix_offers_what_the_soc_and_the_model_allow(tmp_path, platform, dtype, fix):
    """log 11 of a public Qwen2.5-VL-3B demo on RK3588 (W8A8) was told to try W4A16, which
    rknn-llm does not run there; a W4A16 model on RK3576 was told the same."""
    head = (
        f"I rkllm: rkllm-runtime version: 1.2.1, rknpu driver version: 0.9.8, platform: {platform}\n"
        f"I rkllm: rkllm-toolkit version: 1.2.1, max_context_limit: 4096, npu_core_num: 2, "
        f"target_platform: {platform}, model_dtype: {dtype}\n"
    )
    (profile,) = profiles((head + fixture("rkllm_v1_3.txt")).encode(), tmp_path)
    assert profile["versions"]["llm_dtype"] == dtype
    [finding] = [f for f in profile["findings"] if f["code"] == "RKN090"]
    assert finding["fix"].startswith(f"close to the bound: {fix}")


@pytest.mark.parametrize("size", ["1.9XB", "-1GB", "GB"])
def test_a_bad_model_size_is_a_usage_error(tmp_path, size):
    result = run(
        ["analyze", "--model-size", size], fixture("rkllm_v1_3.txt").encode(), tmp_path, False
    )
    assert result.exit_code == 2 and "--model-size" in result.stderr


@pytest.mark.parametrize("size", ["7.81", "7810"])
def test_a_model_size_without_its_unit_is_a_usage_error(tmp_path, size):
    """``--model-size 7.81`` (meant: GB) read as 7.81 bytes: '0.00 GB of weights', a decode
    bound of 4 billion tokens/s. A bare number is bytes only from a megabyte on."""
    result = run(
        ["analyze", "--model-size", size], fixture("rkllm_v1_3.txt").encode(), tmp_path, False
    )
    assert result.exit_code == 2
    why = "no whole number of bytes" if "." in size else "too few bytes for a model"
    assert f"'{size}' without a unit is {why}: give its unit, such as 1.9GB" in result.stderr
    ok = run(
        ["analyze", "-f", "json", "--model-size", "1000000000"],
        fixture("rkllm_v1_3.txt").encode(),
        tmp_path,
        False,
    )
    assert ok.exit_code == 0


def test_terminal_summary(tmp_path):
    # (the Prefill row's time runs from rkllm_run to the first token: an application's own
    # 'Time to first token' adds its work before the call, a vision encoder's for one)
    result = run(["analyze"], fixture("rkllm_v1_3.txt").encode(), tmp_path, False)
    assert result.exit_code == 0
    assert (
        "RKLLM statistics (1 generation): prefill 32 tokens at 200.00 tokens/s, first token "
        "160 ms into rkllm_run, decode 129 tokens at 20.16 tokens/s"
    ) in (" ".join(result.stdout.split()))


def test_peak_memory_is_shown_in_the_unit_the_log_gives():
    """``Peak Memory Usage (GB) 6.19`` read back as ``6.19 GB`` (it showed 6,339 MB, four
    digits of a three-digit figure); under 1 GB, MB."""
    from rknnprof.model import LlmRun
    from rknnprof.reporters._facts import llm_summary

    assert "peak memory 6.19 GB" in llm_summary(LlmRun(peak_memory_mb=6.19 * 1024))
    assert "peak memory 512 MB" in llm_summary(LlmRun(peak_memory_mb=512))


def test_compare_shows_the_rates(tmp_path):
    base, current = tmp_path / "a.txt", tmp_path / "b.txt"
    base.write_text(fixture("rkllm_v1_3.txt"))
    faster = fixture("rkllm_v1_3.txt").replace("6400.00", "5120.00").replace("20.16", "25.20")
    current.write_text(faster)  # 129 tokens in 5.12 s: 25.20 tokens/s
    from click.testing import CliRunner

    from rknnprof.cli import cli

    result = CliRunner().invoke(cli, ["compare", str(base), str(current)])
    assert "decode 20.16 → 25.20 tokens/s (+25.0%)" in result.stdout
    data = CliRunner().invoke(cli, ["compare", "-f", "json", str(base), str(current)]).stdout
    rates = json.loads(data)["comparisons"][0]["llm_rates"]
    assert rates[0] == ["decode_tokens_per_s", 20.16, 25.2]


def test_compare_names_each_figures_unit():
    """A public pair of runs (1,673.56 MB, then 6.19 GB read as 6,338.56 MB) printed
    ``6,338.56 mb``: the unit is MB, init times ms, rates tokens/s."""
    from rknnprof.reporters.compare_views import _llm_change

    assert _llm_change("peak_memory_mb", 1673.56, 6338.56) == (
        "peak 1,673.56 → 6,338.56 MB (+278.7%)"
    )
    assert _llm_change("init_ms", 1000, 900) == "init 1,000.00 → 900.00 ms (-10.0%)"
    assert _llm_change("prefill_tokens_per_s", 100, None) == "prefill 100.00 → - tokens/s"


def test_check_judges_tokens_per_second_budgets(tmp_path):
    budgets = tmp_path / "budgets.yaml"
    budgets.write_text(
        "budgets:\n  - metric: decode_tokens_per_s\n    min: 25\n"
        "  - metric: prefill_tokens_per_s\n    min: 150\n"
        "  - metric: peak_memory_mb\n    max: 2048\n"
    )
    log = tmp_path / "log.txt"
    log.write_text(fixture("rkllm_v1_3.txt"))
    from click.testing import CliRunner

    from rknnprof.cli import cli

    result = CliRunner().invoke(cli, ["check", str(log), "--budgets", str(budgets), "-f", "json"])
    assert result.exit_code == 1
    verdicts = {
        v["budget"]["metric"]: (v["status"], v["value"])
        for v in json.loads(result.stdout)["verdicts"]
    }
    assert verdicts == {
        "decode_tokens_per_s": ("fail", 20.16),
        "prefill_tokens_per_s": ("pass", 200),
        "peak_memory_mb": ("pass", 1024),
    }


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_compare_of_two_rkllm_runs_prints_no_empty_op_type_table(tmp_path, fmt):
    """An RKLLM run has rates, no op types: compare printed an 'Op types' header over no row."""
    log = tmp_path / "run.txt"
    log.write_text(fixture("rkllm_v1_3.txt"))
    from click.testing import CliRunner

    from rknnprof.cli import cli

    result = CliRunner().invoke(cli, ["compare", str(log), str(log), "-f", fmt])
    assert result.exit_code == 0
    assert "decode 20.16" in result.stdout and "Op type" not in result.stdout


def test_a_decode_of_one_step_is_not_judged_as_a_rate(tmp_path):
    """A public RKLLM 1.3.0 log of one generated token (Generate 125.08 ms, 1 token, printed
    7.99 tokens/s): RKN090 judged 'decode runs at 7.99 tokens/s (1 step in 125 ms)'."""
    text = (
        "I rkllm:  Prefill       196.36           4         49.09                    20.37\n"
        "I rkllm:  Generate      125.08           1         125.08                   7.99\n"
    )
    (profile,) = profiles(text.encode(), tmp_path)
    [finding] = [f for f in profile["findings"] if f["code"] == "RKN090"]
    assert finding["message"] == (
        "decode ran 1 step (125 ms, printed as 7.99 tokens/s): too few to judge a decode rate "
        "against the DDR bound"
    )
    assert finding["fix"] == "measure a generation of 128 tokens or more"
