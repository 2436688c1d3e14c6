"""Real public failure logs (round 14 of the testers' public-log probes) whose diagnosis and fix
depend on what else the log shows: the runtime's own line beside the application's echo, a
driver the runtime asks for, the lines a failure leads to, the command run as root, a driver
the log reads, the ops that failed. Each log is copied from the thread named with it (prose
dropped); every expected value is read from the log.
"""

from __future__ import annotations

import json

from grammar_transports import run

_LLM = "https://github.com/airockchip/rknn-llm/issues/"


def _failures(tmp_path, log: str) -> tuple[list[dict], str]:
    result = run(["analyze", "-f", "json"], log.encode(), tmp_path, False)
    assert result.exit_code == 3, result.output
    return json.loads(result.stdout)["failures"], result.stderr


def test_rkllm_refusing_fewer_cpus_than_npu_cores_is_the_diagnosis(tmp_path):
    """rknn-llm issue 271 (rkllm 1.2.1b1, a model exported for 3 NPU cores, CPUs 4 and 6
    enabled): the runtime's own `E rkllm:` line says why it stopped; the diagnosis was taken
    from the demo's echo `rkllm init failed` (low confidence, "read the first E line above it"
    and a driver check against driver 0.9.8, which no line faults)."""
    log = (  # _LLM 271
        "$ ./llm_demo_2_cpu ../Qwen2.5-1.5B-Instruct_W8A8_RK3588.rkllm 1024 2048\n"
        "rkllm init start\n"
        "I rkllm: rkllm-runtime version: 1.2.1b1, rknpu driver version: 0.9.8, platform: RK3588\n"
        "I rkllm: loading rkllm model from ../Qwen2.5-1.5B-Instruct_W8A8_RK3588.rkllm\n"
        "I rkllm: rkllm-toolkit version: 1.2.1b1, max_context_limit: 4096, npu_core_num: 3, "
        "target_platform: RK3588\n"
        "I rkllm: Enabled cpus: [4, 6]\n"
        "I rkllm: Enabled cpus num: 2\n"
        "E rkllm: The number of enabled CPUs must be greater than or equal to the number of NPU "
        "cores.\n"
        "rkllm init failed\n"
    )
    failures, stderr = _failures(tmp_path, log)
    first = failures[0]
    assert (first["id"], first["line"], first["confidence"]) == (
        "rkllm-cpus-below-npu-cores",
        8,
        "high",
    )
    assert first["source"] == _LLM + "271"
    assert "enabled_cpus_num" in first["fix"] and "num_npu_core" in first["fix"]
    assert "driver" not in first["diagnosis"] + first["fix"]
    assert [f["id"] for f in failures[1:]] == ["rkllm-init-failed"]
    assert ": line 8: librkllmrt refused to start: fewer CPUs are enabled than the NPU cores" in (
        stderr
    )
    assert "rknpu/version" not in stderr
