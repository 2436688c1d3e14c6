"""Real public failure logs (round 14 of the testers' public-log probes) whose diagnosis and fix
depend on what else the log shows: the runtime's own line beside the application's echo, a
driver the runtime asks for, the lines a failure leads to, the command run as root, a driver
the log reads, the ops that failed. Each log is copied from the thread named with it (prose
dropped); every expected value is read from the log.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from grammar_transports import run

from rknnprof.inputs.lines import Line
from rknnprof.parsers.known_failures import KnownFailureParser

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


_LOG_62 = (  # _LLM 62 (rkllm 1.0.1 on driver 0.8.2; the excerpt up to its last whole line)
    "` ./llm_demo  ../../chatglm3-6b-rkllm/chatglm3-6b.rkllm \n"
    "rkllm init start\n"
    "rkllm-runtime version: 1.0.1, rknpu driver version: 0.8.2, platform: RK3588\n"
    "Warning: Your rknpu driver version is too low, please upgrade to 0.9.6.\n"
    "E RKNN: [10:48:59.683] failed to allocate handle, ret: -1, errno: 12, errstr: Cannot "
    "allocate memory\n"
    "\n"
    "can not create weight memory for domain1\n"
    "E RKNN: [10:49:00.480] failed to allocate handle, ret: -1, errno: 12, errstr: Cannot "
    "allocate memory\n"
    "\n"
    "can not create weight memory for domain2\n"
    "E RKNN: [10:49:05.216] failed to convert handle(1020) to fd, ret: -1, errno: 24, errstr: "
    "Too many open files\n"
    "E RKNN: [10:49:05.216] failed to malloc npu memory, size: 80, flags: 0xa\n"
    "E RKNN: [10:49:05.216] failed to convert handle(1021) to fd, ret: -1, errno: 24, errstr: "
    "Too many open files\n"
    "E RKNN: [10:49:05.216] failed to malloc npu memory, size: 1792, flags: 0x2\n"
    "E RKNN: [10:49:05.216] failed to convert handle(1022) to fd, ret: -1, errno: 24, errstr: "
    "Too many open files\n"
    "E RKNN: [10:49:05.216] failed to malloc npu memory, size: 80, flags: 0xa\n"
    "E RKNN: [10:49:05.216] failed to convert handle(1023) to fd, ret: -1, errno: 24, errstr: "
    "Too many open files\n"
    "E RKNN: [10:49:05.216] failed to malloc npu memory, size: 2048, flags: 0x2\n"
    "E RKNN: [10:49:05.216] failed to convert handle(1024) to fd, ret: -1, errno: 24, errstr: "
    "Too many open files\n"
)


def test_rkllm_1_0s_unprefixed_driver_demand_leads_an_allocation_failure(tmp_path):
    """rknn-llm issue 62: rkllm 1.0.1 prints its driver demand without a level (`Warning: Your
    rknpu driver version is too low, please upgrade to 0.9.6.`) on driver 0.8.2, then errno
    12. rkllm 1.1+'s `W rkllm:` form led errno 14's fix with the driver; here the diagnosis
    and fix said nothing of the driver the runtime asked for."""
    failures, stderr = _failures(tmp_path, _LOG_62)
    first = failures[0]
    assert (first["id"], first["line"]) == ("npu-memory-allocation", 5)
    assert (
        "; the runtime asks for a newer RKNPU driver (line 4), a likely cause"
        in (first["diagnosis"])
    )
    assert first["fix"].startswith(
        "first update the RKNPU driver to what the runtime asks for (0.9.6 or later); if it "
        "still fails: check `dmesg | grep -i npu`"
    )
    assert "driver-too-old" in [f["id"] for f in failures]
    # the versions alone (no demand of the runtime's) do not tie an allocation failure to the
    # driver: rknn-toolkit2 issue 44's line (1.x wording) after a driver line written from the
    # runtime's grammar
    text = (
        "I RKNN: [15:37:02.100] RKNN Driver Information: version: 0.7.2\n"
        "E RKNN: failed to malloc npu memory!, size: 59187712, flags: 0x2\n"
    )
    [alone], _ = _failures(tmp_path, text)
    assert alone["id"] == "npu-memory-allocation" and "driver" not in alone["diagnosis"]


def test_a_malloc_failure_after_errno_24_is_the_fd_exhaustion(tmp_path):
    """rknn-llm issue 62: after the two errno-12 lines (lines 5, 8) the runtime prints
    `failed to convert handle(…) to fd, … errno: 24, … Too many open files` and then `failed
    to malloc npu memory` five times (lines 11-19): those malloc lines are the buffers that got
    no file descriptor, but they counted as "also" lines of the errno-12 failure, whose fix is
    the IOMMU and CMA."""
    failures, _ = _failures(tmp_path, _LOG_62)
    by_id = {f["id"]: f for f in failures}
    memory = by_id["npu-memory-allocation"]
    assert (memory["line"], memory["diagnosis"]) == (
        5,
        "the NPU could not allocate memory (also line 8); the runtime asks for a newer RKNPU "
        "driver (line 4), a likely cause",
    )
    fds = by_id["too-many-open-files"]
    assert fds["line"] == 11
    assert fds["diagnosis"].endswith("(also lines 12, 13, 14, 15, 16 +3 more)")
    assert "failed to malloc npu memory, size: 80, flags: 0xa" in fds["context"]
    assert fds["fix"].startswith("raise the limit before starting: `ulimit -n")
    # an errno-12 line is its own failure wherever it stands, and a malloc line far from an
    # errno-24 line stays an allocation failure (written from the 2.x grammar)
    text = (
        "E RKNN: failed to convert handle(1020) to fd, ret: -1, errno: 24, errstr: Too many "
        "open files\n"
        "E RKNN: failed to allocate handle, ret: -1, errno: 12, errstr: Cannot allocate memory\n"
        "\n\n\n"
        "E RKNN: failed to malloc npu memory, size: 4022272000, flags: 0x2\n"
    )
    failures, _ = _failures(tmp_path, text)
    assert sorted((f["id"], f["line"]) for f in failures) == [
        ("npu-memory-allocation", 2),
        ("too-many-open-files", 1),
    ]
    [memory] = [f for f in failures if f["id"] == "npu-memory-allocation"]
    assert memory["diagnosis"].endswith("(also line 6)")


def test_an_impossible_npu_load_is_no_reading(tmp_path):
    """rockchip-linux/rknpu2 issue 102 (RK3588, one model run on cores 0, 1 and 2 from several
    threads): `failed to submit` at the first op, then the driver's `NPU load:  Core0: 99%,
    Core1: 99%, Core2: 429496%`. No core is busy more than all of the time: 429496% was kept
    as core 2's load (JSON npu_load_pct [99, 99, 429496]) without a word."""
    log = (  # https://github.com/rockchip-linux/rknpu2/issues/102
        "E RKNN: [15:34:39.465] failed to submit!, op id: 1, op name: Conv:Conv_0, flags: 0x5, "
        "task start: 0, task number: 170, run task counter: 0, int status: 0, please try "
        "updating to the latest version of the toolkit2 and runtime from: "
        "https://eyun.baidu.com/s/3eTDMk6Y (PWD: rknn)\n"
        "\n"
        "查看NPU负载：\n"
        "NPU load:  Core0: 99%, Core1: 99%, Core2: 429496%\n"
    )
    result = run(["analyze", "-f", "json"], log.encode(), tmp_path, False)
    assert result.exit_code == 3
    report = json.loads(result.stdout)
    [warning] = [w for w in report["warnings"] if "NPU load" in w["message"]]
    assert warning["line"] == 4
    assert warning["message"].startswith(
        "`NPU load:` reads `Core2: 429496%`, an impossible load (a core is busy 0-100% of the "
        "time): the driver's counter for Core2 wrapped or was damaged"
    )
    assert "NPU load readings (`Core2: 429496%`: impossible, not kept)" in result.stderr
    # beside a table, the profile keeps no such reading: the last one whose cores all read
    # 0-100% stands (here the one before it)
    from rknnprof.api import analyze

    sample = Path(__file__).resolve().parents[2] / "sample_logs" / "yolov5s_rk3588_perf.txt"
    path = tmp_path / "loads.txt"
    path.write_text(
        sample.read_text(encoding="utf-8")
        + "NPU load:  Core0: 40%, Core1:  0%, Core2:  0%,\n"
        + "NPU load:  Core0: 99%, Core1: 99%, Core2: 429496%\n",
        encoding="utf-8",
    )
    checked = analyze(str(path))
    [profile] = checked.profiles
    assert profile.npu_load_pct == (40.0, 0.0, 0.0)
    assert any("`Core2: 429496%`" in w.message for w in checked.warnings)


@pytest.mark.parametrize(
    ("line", "op"),
    [
        # https://github.com/rockchip-linux/rknn-toolkit2/issues/135 (API 1.4.0): no comma
        # after `!`
        (
            "E RKNN: [01:25:20.303] failed to submit! op id: 1, op name: Conv:/model.0/conv/Conv, "
            "flags: 0x5, task start: 0, task number: 19, run task counter: 0, int status: 0",
            "Conv:/model.0/conv/Conv",
        ),
        # https://github.com/rockchip-linux/rknn-toolkit2/issues/151 (toolkit-lite2): `Op id:3 ,`
        (
            "E RKNN: failed to submit! Op id:3 , op name: conv:inputs.3_Conv_pads_conv, flags: "
            "0x5, task start:0,task number:218,run task number:218 , run task counter: 146 int "
            "status: 0",
            "conv:inputs.3_Conv_pads_conv",
        ),
    ],
)
def test_a_failed_submit_names_its_op_in_every_wording(line, op):
    """Both wordings carry `op name:`; the diagnosis said `(failed to submit, op ?)`."""
    block = KnownFailureParser().opens(Line(1, line, None))
    assert block is not None
    [event] = block.close()
    assert event.failure.diagnosis == f"an NPU task did not complete (failed to submit, op {op})"


_LINE_105 = (  # https://github.com/rockchip-linux/rknpu2/issues/105 (the reporter's one line)
    "报错提示Not support core mask: 7, fallback to single core auto mode，NN Compiler/Model "
    "Version is 1.3.0 now"
)


def test_a_log_of_one_core_mask_warning_is_told_as_a_warning(tmp_path):
    """rknpu2 issue 105: the whole log is the runtime's `Not support core mask: 7, fallback to
    single core auto mode` (a warning: it runs on one core). It was told as a failure (`line 1:
    core mask 7 is not valid …`), not in the format docs/errors.md gives a log whose only
    known lines are warnings: what it holds, then `a warning, …`."""
    result = run(["analyze", "-f", "json"], (_LINE_105 + "\n").encode(), tmp_path, False)
    assert result.exit_code == 3
    [failure] = json.loads(result.stdout)["failures"]
    assert (failure["id"], failure["severity"]) == ("invalid-core-mask", "warning")
    [line] = result.stderr.splitlines()
    assert line.startswith("Error: ")
    assert failure["diagnosis"].startswith(
        "core mask 7 is not valid for this NPU or model: the runtime falls back to one NPU "
        "core (single-core auto mode)"
    )
    assert line.endswith(
        ": no RKNN profile data in 1 line(s) (no per-layer table, ranking, totals or benchmark "
        f"output); a warning, line 1: {failure['diagnosis']}: `{_LINE_105}`; fix: " + failure["fix"]
    )


def test_a_core_mask_refused_for_a_model_before_1_4_leads_with_rebuilding_it(tmp_path):
    """rknpu2 issue 105's line names the model's compiler, 1.3.0, older than the 1.4.0 that
    let one model run on several RK3588 cores (rknpu2's release notes): the fix led with
    RKNN_NPU_CORE_AUTO on single-core SoCs. rknn-toolkit2 issue 7's matmul API (`Model Version
    is 0.0.0`: no model) keeps the entry's fix."""
    [failure], _ = _failures(tmp_path, _LINE_105 + "\n")
    assert failure["diagnosis"].endswith(
        "; the model was built by rknn-toolkit2 1.3.0, before 1.4.0 let one model run on "
        "several cores, a likely cause"
    )
    assert failure["fix"].startswith("rebuild the model with rknn-toolkit2 1.4.0 or later")
    matmul = (  # https://github.com/airockchip/rknn-toolkit2/issues/7
        "E RKNN: [18:09:24.926] Not support core mask: 3, fallback to single core auto mode\n"
        "E RKNN: [18:09:24.926] NN Compiler/Model Version is 0.0.0 now\n"
        "E RKNN: [18:09:24.926] rknn_set_core_mask: failed to set core mask: 3\n"
        "rknn_matmul_coremask fail! ret=-1\n"
    )
    failures, _ = _failures(tmp_path, matmul)
    first = failures[0]
    assert first["id"] == "invalid-core-mask" and "built by" not in first["diagnosis"]
    assert first["fix"].startswith("use RKNN_NPU_CORE_AUTO (0) on single-core SoCs")


_LOG_507 = (  # https://github.com/rockchip-linux/rknn-toolkit/issues/507
    "rpdzkj@localhost:~/Desktop$ sudo python3 Yolov8m_detect.py\n"
    "W rknn-toolkit-lite2 version: 2.2.0\n"
    "I RKNN: [08:21:53.965] RKNN Runtime Information: librknnrt version: 1.1.0 "
    "(8a9d6f66@2021-08-19T15:09:11)\n"
    "E RKNN: [08:21:53.967] failed to open rknpu module, need to insmod rknpu dirver!\n"
    "E RKNN: [08:21:53.967] failed to open rknn device!\n"
    "Aborted\n"
)


def test_a_device_open_failure_under_sudo_with_an_old_runtime(tmp_path):
    """rockchip-linux/rknn-toolkit issue 507: `sudo python3 …` (line 1), rknn-toolkit-lite2
    2.2.0 over librknnrt 1.1.0 (2021), then `failed to open rknpu module`. The fix began "run
    as root", which the log shows was done, and left the 1.1.0 runtime under a 2.2.0 toolkit
    unremarked."""
    failures, _ = _failures(tmp_path, _LOG_507)
    first = failures[0]
    assert (first["id"], first["line"]) == ("device-not-opened", 4)
    assert first["diagnosis"].endswith(
        "; its librknnrt 1.1.0 is far older than the rknn-toolkit-lite2 2.2.0 beside it, a "
        "likely cause"
    )
    assert first["fix"].startswith(
        "first install the librknnrt of rknn-toolkit-lite2's version (2.2.0) on the board"
    )
    assert (
        "if it still fails: the command ran as root (line 1), so the user's rights are"
        in (first["fix"])
    )
    assert "run as root or add the user" not in first["fix"]
    # the same run with a runtime of the toolkit's version: root, no driver read -> the driver
    same = _LOG_507.replace("librknnrt version: 1.1.0", "librknnrt version: 2.2.0")
    [first, *_], _ = _failures(tmp_path, same)
    assert "far older" not in first["diagnosis"]
    assert first["fix"] == (
        "the command ran as root (line 1), so the user's rights are not it: `dmesg | grep -i "
        "rknpu` must show the driver: else use a kernel with CONFIG_ROCKCHIP_RKNPU"
    )


def test_a_device_open_failure_beside_a_driver_the_log_reads(tmp_path):
    """ophub/amlogic-s9xxx-armbian issue 3123 (RK3566, the whisper demo): `$ ./run.sh` as a
    user fails to open the NPU, and the reporter shows `RKNPU driver: v0.9.8` (a later `sudo
    cat`, not the failing command). The fix ended "else use a kernel with
    CONFIG_ROCKCHIP_RKNPU", for a driver the log shows loaded."""
    log = (  # https://github.com/ophub/amlogic-s9xxx-armbian/issues/3123 (prose dropped)
        "$ ./run.sh \n"
        "-- read_audio & convert_channels & resample_audio use: 2.238000 ms\n"
        "-- read_mel_filters & read_vocab use: 36.034000 ms\n"
        "E RKNN: [14:08:31.796] failed to open rknpu module, need to insmod rknpu dirver!\n"
        "E RKNN: [14:08:31.796] failed to open rknn device!\n"
        "rknn_init fail! ret=-1\n"
        "init_whisper_model fail! ret=-1 encoder_path=model/whisper_encoder_base_20s.rknn\n"
        "\n"
        "$ ls /sys/bus/platform/devices | grep -i npu\n"
        "bus-npu\n"
        "fde40000.npu\n"
        "rknpu_dev.2.auto\n"
        "\n"
        "$ sudo cat /sys/kernel/debug/rknpu/version\n"
        "RKNPU driver: v0.9.8\n"
        "\n"
        "$ ls /dev/rknpu\n"
        "ls: cannot access '/dev/rknpu': No such file or directory\n"
    )
    failures, _ = _failures(tmp_path, log)
    first = failures[0]
    assert (first["id"], first["line"]) == ("device-not-opened", 4)
    assert first["fix"].startswith("run as root or add the user to the device's group")
    assert (
        "if root fails too, the RKNPU driver is loaded (the log reads driver 0.9.8)"
        in (first["fix"])
    )
    assert "CONFIG_ROCKCHIP_RKNPU" not in first["fix"]


def test_a_failed_submit_of_output_operators_alone_leads_with_the_buffers(tmp_path):
    """rockchip-linux/rknn-toolkit2 issue 87: `failed to submit!` on `OutputOperator:…` only,
    which the reporter fixed by reshaping the model's output. Beside a driver older than its
    runtime asks for, such a failure was told "the log's RKNPU driver … a likely cause": the
    failing ops (the model's input/output operators) point at what the application passes and
    takes first; the driver stays a note of what the log holds."""
    log = (
        # https://github.com/rockchip-linux/rknn-toolkit2/issues/87
        "E RKNN: [02:49:39.674] failed to submit!, op id: 227, op name: "
        "OutputOperator:139_convolutional, flags: 0x1, task start: 0, task number: 2583, run "
        "task counter: 2322, int status: 0\n"
        # https://github.com/rockchip-linux/rknpu2/issues/59 (a commenter's line)
        "E RKNN: [20:14:20.228] failed to submit!, op id: 181, op name: OutputOperator:381, "
        "flags: 0x5, task start: 438, task number: 8, run task counter: 1, int status: 0\n"
        # a demo's version line, written from its grammar
        "sdk version: 2.3.0 (c949ad889d@2024-11-07T11:35:33) driver version: 0.8.2\n"
    )
    failures, stderr = _failures(tmp_path, log)
    first = failures[0]
    assert first["diagnosis"] == (
        "an NPU task did not complete (failed to submit, op OutputOperator:139_convolutional) "
        "(also line 2); only the model's input and output operators failed"
    )
    assert first["fix"].startswith(
        "first check each input and output against the model: the type and size of the buffers"
    )
    assert "likely cause" not in first["diagnosis"]
    assert "its RKNPU driver 0.8.2 is older than 0.8.8 beside runtime 2.3.0" in stderr
    # a conv among them (the second line rewritten with rknn-toolkit2 issue 447's op): the
    # driver is a likely cause again
    conv = log.replace("OutputOperator:381", "Conv:Conv_0")
    [first], _ = _failures(tmp_path, conv)
    assert first["diagnosis"].endswith(
        "; the log's RKNPU driver 0.8.2 is older than 0.8.8 beside runtime 2.3.0, a likely cause"
    )
