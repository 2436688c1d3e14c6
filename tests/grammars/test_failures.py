"""Failures explained: the catalogue (``rknnprof/parsers/failure_catalogue.py``), one test per
entry with a line written from its grammar; an input holding only failures exits 3 with the
diagnosis and the fix (stderr, and JSON ``failures``) through every transport; a failure beside
a table is an RKN080 finding.

Fixtures: ``failure_rv1106_unsupported_op.txt`` (runtime info, then ``unsupport cpu GridSample
op`` on line 3 and ``rknn fallback cpu failed`` on line 4), ``failure_core_mask_with_table.txt``
(``Not support core mask: 3`` on line 3, then a 3-row table, total 153 us).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from grammar_transports import VARIANTS, fixture, profiles, run

from rknnprof.inputs.lines import Line
from rknnprof.parsers.failure_catalogue import CATALOGUE
from rknnprof.parsers.known_failures import KnownFailureParser

DOCS = Path(__file__).resolve().parent.parent.parent / "docs" / "errors.md"

_TK2 = "https://github.com/airockchip/rknn-toolkit2/issues/"
_OLD_TK2 = "https://github.com/rockchip-linux/rknn-toolkit2/issues/"
_TK1 = "https://github.com/rockchip-linux/rknn-toolkit/issues/"
_RKNPU2 = "https://github.com/rockchip-linux/rknpu2/issues/"
_LLM = "https://github.com/airockchip/rknn-llm/issues/"
_ZOO = "https://github.com/airockchip/rknn_model_zoo/issues/"
_ZBOX = (
    ", please try updating to the latest version of the toolkit2 and runtime from: "
    "https://console.zbox.filez.com/l/I00fc3 (PWD: rknn)"
)

# entry id -> (a real line of the entry's source thread (the entry's `source`, cited here),
# the same failure in another SDK version's wording, words its diagnosis must hold). A variant
# marked "(real: URL)" is a line of that thread; the others are written from the grammar of the
# version named.
LINES = {
    # _TK2 145 (2.1.0); variant: 2.3.2-era wording without the `E` level (real: _TK2 561)
    "unsupported-cpu-op": (
        "E RKNN: unsupport cpu Transpose op, op name: Transpose:input.1_155:out0__104 in "
        "current" + _ZBOX,
        "RKNN: unsupport cpu exNorm op, op name: exNorm:ReduceMean_0_2ln in current" + _ZBOX,
        "CPU kernel",
    ),
    # _TK2 145; variant: the same line as an Android logcat prints it (librknnmrt has no logcat
    # build; the variant is the 2.3.2 text behind a logcat prefix, as the RK356x runtime does)
    "cpu-fallback-failed": (
        "E RKNN: rknn fallback cpu failed",
        "07-01 11:07:24.000  812  812 E RKNN    : rknn fallback cpu failed",
        "could not run a CPU-placed op",
    ),
    # _TK2 335 (2.x RV1106); variant: the output call of the same API family
    "reduced-runtime-api": (
        "E RKNN: rknn_inputs_set, context config invalid!",
        "E RKNN: [00:00:03.118] rknn_outputs_get, context config invalid!",
        "rknn_inputs_set is refused",
    ),
    # rknn3-model-zoo 2 (RKNN3 runtime); variant: a 1-core export asked for two cores
    "core-mask-model-mismatch": (
        "E RKNNAPI(2308): rknn3_model_init, core_mask f is not match with npu core number 8!",
        "E RKNNAPI(1774): rknn3_model_init, core_mask 3 is not match with npu core number 1!",
        "core mask f",
    ),
    # the line of a public RK3576 RKLLM demo page (rkllm 1.2.1, the demo's core count 3; the
    # entry cites the Runtime API Reference: no thread answers this wording); variant: without
    # the time stamp, as a public RK3576 service report quotes it
    "core-mask-unavailable": (
        "E RKNN: [08:04:38.229] rknn_set_core_mask: unavailable core mask found for current "
        "platform! max core mask = 3",
        "E RKNN: unavailable core mask found for current platform! max core mask = 3",
        "its highest mask is 3",
    ),
    # _TK2 7 (1.6.0 matmul API); variant: the 1.5-era wording (real: _RKNPU2 105)
    "invalid-core-mask": (
        "E RKNN: [18:09:24.926] rknn_set_core_mask: failed to set core mask: 3",
        "E RKNN: Not support core mask: 7, fallback to single core auto mode",
        "core mask 3",
    ),
    # _OLD_TK2 212 (librknnrt 1.4.0); variant: logcat form of a 1.3.0 runtime
    "runtime-too-old-for-model": (
        "E RKNN: [01:19:04.510] Invalid RKNN model version 6",
        "09-02 01:19:04.510  2210  2210 E RKNN    : Invalid RKNN model version 7",
        "model format version 6",
    ),
    # _RKNPU2 25 (logcat, 1.2.0); variant: the terminal form of a later runtime
    "model-platform-mismatch": (
        "06-28 09:30:04.462 26854 26854 E RKNN    : The rknn model does not match the RKNPU "
        "hardware version!",
        "E RKNN: [10:12:01.002] The rknn model does not match the RKNPU hardware version!",
        "another NPU",
    ),
    # _RKNPU2 34 (an rknpu2 demo on RK3588, 2022; the maintainer: update rknn-toolkit2 to
    # 1.4.0); variant: the same line in Android's logcat (written from the logcat grammar)
    "unsupported-split": (
        "E RKNN: [07:24:10.076] Meet unsupported split",
        "06-16 07:24:10.076  2210  2210 E RKNN    : Meet unsupported split",
        "cannot run a Split",
    ),
    # _TK1 133 (librknn_runtime 1.7.0); variant: RV1126 reporting as RK1109 (real: same thread)
    "old-toolkit-platform-mismatch": (
        "rknn model target platform[0] is RK1806, while current platform is RK3399",
        "rknn model target platform[0] is RK1808, while current platform is RK1109",
        "built for RK1806 but the board is RK3399",
    ),
    # _ZOO 191 (toolkit2 2.0.0b0); variant: 2.2.0's exception line (real: _ZOO 219)
    "toolkit-generation-mismatch": (
        "E config: Invalid target_platform 'rv1126'!",
        "ValueError: Invalid target_platform 'rv1126'!",
        "cannot build for rv1126",
    ),
    # _OLD_TK2 75 (toolkit2 1.2.0 against rknn_server 1.3.0); variant: timestamped 2.x form
    "rknn-server-version-mismatch": (
        "E RKNNAPI: rknn_init,  msg_ioctl_ack fail, data_len = 104985, expect 103961!",
        "E RKNNAPI: [09:11:02.114] rknn_init,  msg_ioctl_ack fail, data_len = 2048, expect 1024!",
        "104985 bytes, 103961 expected",
    ),
    # _TK2 393 (toolkit2 2.3.2, RV1126B); variant: the toolkit's own line after it, as 1.4.0
    # printed it (real: _OLD_TK2 91)
    "rknn-server-unreachable": (
        "E RKNNAPI: rknn_init,  server connect fail!  ret = -9(ERROR_PIPE)!",
        "E init_runtime: The rknn_server on the concected device is abnormal, please start the "
        "rknn_server on the device according to:",
        "could not reach rknn_server",
    ),
    # _OLD_TK2 330 (toolkit2 2.1.0 under WSL); variant: toolkit2 1.6.0's form, no device
    # (real: _ZOO 120, after adb's own version clash)
    "device-unreachable": (
        "E init_runtime: Connect to Device (e1006d4c3b0eae29) Failure (-2), Please check the USB "
        "or network connection!",
        "E init_runtime: Connect to Device Failure (-1), Please check the USB connection!",
        "could not connect to the board through adb",
    ),
    # _ZOO 408 (toolkit2 2.3.2, --target rv1106 on an RV1103 board); variant: RK3566 asked of
    # an RK3568 board
    "target-platform-mismatch": (
        "E init_runtime: get target_platform is rv1106, while required target_platform = rv1103",
        "E init_runtime: get target_platform is rk3566, while required target_platform = rk3568",
        "(rv1106) is not the connected board's SoC (rv1103)",
    ),
    # _TK2 229 (toolkit2 2.3.0 against an older rknn_server, RK3568 Android); variant: the
    # timestamped form, another release
    "rknn-server-too-old": (
        "E RKNNAPI: rknn_server version is too old, please update rknn_server to at least 2.3.0",
        "E RKNNAPI: [10:02:11.410] rknn_server version is too old, please update rknn_server to "
        "at least 2.1.0",
        "older than this toolkit accepts (at least 2.3.0)",
    ),
    # _TK1 440 (librknnrt 1.6.0, newer header); variant: logcat form, other sizes
    "api-header-mismatch": (
        "E RKNN: [07:13:44.229] rknn_query, info_len(372) < sizeof(rknn_tensor_attr)(376)!",
        "03-14 07:13:44.229  901  901 E RKNN    : rknn_query, info_len(360) < "
        "sizeof(rknn_tensor_attr)(372)!",
        "rknn_tensor_attr: 372 bytes passed",
    ),
    # _RKNPU2 9 (1.x, no level prefix); variant: 2.3.2 (real: _TK2 357)
    "input-size-mismatch": (
        "rknn_inputs_set, param input size(1228800) < model input size(4915200)",
        "E RKNN: [02:55:23.529] rknn_inputs_set, param input size(612) < model input size(1224)",
        "1228800 bytes given, 4915200 expected",
    ),
    # _LLM 235 (rkllm 1.1.4); variant: 1.1.2's wording (real: _LLM 129)
    "rkllm-model-invalid": (
        ": invalid magic characters '\ufffd\u0314\u0094'",
        "E RKNN: [08:48:14.826] invalid rknn llm model magic",
        "cannot read the model file",
    ),
    # _LLM 413 (RK3588, driver 0.8.2; the title of the thread); variant: another weight type
    "rkllm-matmul-failed": (
        "E rkllm: matmul(w8a8) run failed",
        "E rkllm: matmul(w4a16) run failed",
        "w8a8 matmul failed on the NPU",
    ),
    # _TK2 405 (librknnrt 2.3.2); variant: 1.2.1b5's wording (real: _OLD_TK2 119)
    "rknn-model-invalid": (
        "parseRKNN: invalid RKNN_MAGIC!",
        "E RKNN: [11:40:07.311] parseRKNN from buffer: Invalid RKNN format!",
        "cannot read the model file",
    ),
    # _RKNPU2 17 (RK3588J, quoted without the level); variant: rkllm 1.2's wording (real:
    # https://github.com/radxa-docs/docs/issues/881)
    "device-not-opened": (
        "报错内容提示：failed to open rknpu module,need to insmod rknpu dirver failed to open "
        "rknn device",
        "E RKNN: [12:35:17.533] Device is not available",
        "could not open the NPU device",
    ),
    # _TK2 534 (librknnrt 2.0.0b0 on RK3576, the reporter's arrow kept); variant: the 2.x
    # line with its time stamp (written from the grammar)
    "npu-type-unreadable": (
        "→ E RKNN: Meet unsupported target type: 0xffffffff",
        "E RKNN: [10:21:07.512] Meet unsupported target type: 0xffffffff",
        "no NPU type it knows from the device it opened (Meet unsupported target type: 0xffffffff)",
    ),
    # _LLM 17 (rkllm 1.0); variant: logcat form of the same call
    "too-many-open-files": (
        "E RKNN: [05:45:17.474] failed to convert handle(1020) to fd, ret: -1, errno: 24, "
        "errstr: Too many open files",
        "04-11 05:45:17.474  733  733 E RKNN    : failed to convert handle(1500) to fd, ret: -1, "
        "errno: 24",
        "errno 24",
    ),
    # _LLM 437 (rkllm 1.2.3); variant: logcat form
    "npu-address-space-full": (
        "E RKNN: [14:28:07.010] failed to allocate handle, ret: -1, errno: 14, errstr: Bad address",
        "12-19 14:28:07.010  4242  4242 E RKNN    : failed to allocate handle, ret: -1, errno: 14",
        "errno 14",
    ),
    # _OLD_TK2 44 (Android logcat, 1.3); variant: 2.x wording without `!` (real: _LLM 437)
    "npu-memory-allocation": (
        "2022-07-06 15:37:03.100 12848-12876 E/RKNN: failed to malloc npu memory!, size: "
        "59187712, flags: 0x2",
        "E RKNN: [14:28:07.010] failed to malloc npu memory, size: 4022272000, flags: 0x2",
        "allocate memory",
    ),
    # _LLM 62 (rkllm 1.0.1); variant: librknnrt 1.6.0's wording (real: _OLD_TK2 271)
    "driver-too-old": (
        "Warning: Your rknpu driver version is too low, please upgrade to 0.9.6.",
        "W RKNN: [15:33:35.279] Current driver version: 0.8.2, recommend to upgrade the driver "
        "to the new version: >= 0.8.8",
        "upgrade to 0.9.6",
    ),
    # ophub/fnnas 620 (RK3576, kernel 6.18, driver 0.9.8, dmesg); variant: the wording of
    # kernels that do not name the error (real: https://github.com/rockchip-linux/kernel/issues/371)
    "npu-register-region-busy": (
        "[    4.028876] RKNPU 27700000.npu: error -EBUSY: can't request region for resource "
        "[mem 0x27700000-0x27707fff]",
        "[    2.167656] RKNPU ff300000.npu: can't request region for resource [mem "
        "0xff300000-0xff30ffff]",
        "the NPU registers at 0x27700000-0x27707fff",
    ),
    # _OLD_TK2 30 (librknnrt 1.2.0); variant: 2.3.2 with the update hint (real: _TK2 447)
    "submit-failed": (
        "E RKNN: [00:47:08.943] failed to submit!, op id: 20, op name: Clip:Clip_383, flags: "
        "0x5, task start: 66, task number: 4095, run task counter: 7, int status: 0",
        "E RKNN: [07:24:22.771] failed to submit!, op id: 1, op name: Conv:Conv_0, flags: 0x1, "
        "task start: 1301, task number: 68, run task counter: 0, int status: 0, If using rknn, "
        "update to the latest toolkit2 and runtime from: https://console.zbox.filez.com/l/"
        "I00fc3 (PWD: rknn). If using rknn-llm, update from: https://github.com/airockchip/"
        "rknn-llm",
        "op Clip:Clip_383",
    ),
    # _OLD_TK2 320 ties the driver's job timeout (task counter 0, no interrupt) to `failed to
    # submit`; the line: driver 0.8.2 on an RK3566 (real: github.com/w568w/alarm_repo README,
    # commit 0a65fde); variant: the wait aborted by a signal, librknnrt 1.5.2 (real: _TK2 536)
    "npu-job-timeout": (
        "[  605.267268] RKNPU: job timeout, flags: 0x0, irq status: 0x0, raw status: 0x0, "
        "require mask: 0x300, task counter: 0x0, elapsed time: 6268640us",
        "[Wed Apr  1 10:09:24 2026] RKNPU: failed to wait job, task counter: 74, flags: 0x1, "
        "ret = -512, elapsed time: 13624us",
        "gave up on an NPU job (job timeout)",
    ),
    # _LLM 416 (RK3566, a 1.2-era runtime); variant: the list before RV1126B and RK3562 were
    # added (written from the grammar: the runtime names its SoCs)
    "rkllm-unsupported-platform": (
        "Platform error: must be either RK3588, RK3576, RV1126B, or RK3562.  ",
        "Platform error: must be either RK3588 or RK3576.",
        "librkllmrt supports RK3588, RK3576, RV1126B, or RK3562",
    ),
    # _LLM 154 (rkllm 1.0.1, driver 0.9.8; the maintainer: use 1.1.4, which then ran); the
    # wording is 1.0.1's only; variant: its launcher's copy, behind a shell's line (real:
    # github.com/Pelochus/ezrknn-llm issue 10)
    "rkllm-query-platform": (
        "Query platform error!",
        "rkllm-runtime version: 1.0.1 Query platform error!",
        "could not identify the SoC",
    ),
    # _LLM 183 (rkllm 1.1.4, RK3576); variant: the assertion after a model that did not load
    # (real: _LLM 129, rkllm 1.1.2)
    "rkllm-aborted": (
        "ggml_calloc: failed to allocate   0.00 MB",
        "robot: o:0: GGML_ASSERT(view_src == NULL || data_size == 0 || data_size + view_offs <= "
        "ggml_nbytes(view_src)) failed",
        "librkllmrt aborted",
    ),
    # _LLM 271 (rkllm 1.2.1b1, a model exported for 3 NPU cores with 2 CPUs enabled; the
    # maintainer: the CPUs must be at least the NPU cores); variant: the message without the
    # runtime's level and tag, as a wrapper re-prints it (written from the grammar)
    "rkllm-cpus-below-npu-cores": (
        "E rkllm: The number of enabled CPUs must be greater than or equal to the number of NPU "
        "cores.",
        "RuntimeError: The number of enabled CPUs must be greater than or equal to the number "
        "of NPU cores.",
        "fewer CPUs are enabled than the NPU cores",
    ),
    # _LLM 437 (rkllm 1.2.3); variant: the demo's own line (real: _LLM 235)
    "rkllm-init-failed": (
        "E rkllm: rkllm_init failed",
        "rkllm init failed",
        "rkllm_init failed",
    ),
    # rknpu 9 (RK3399Pro, toolkit1); variant: the RKNNAPI-tagged form of the same runtime
    # _ZOO 215 (toolkit1 1.7.5 on RV1126); variant: the rknn-toolkit copy of the thread (485)
    "board-refused-model": (
        "E RKNNAPI: rknn_init,  msg_load_ack fail, ack = 1(ACK_FAIL), expect 0(ACK_SUCC)!",
        "rknn_init, msg_load_ack fail, ack = 1(ACK_FAIL), expect 0(ACK_SUCC)!",
        "refused the model as it loaded it",
    ),
    # _ZOO 317 (toolkit1, yamnet on RV1126); variant: the line quoted without the toolkit's
    # level and tag, with one space after the call (written from the grammar)
    "rknn-server-lost-during-load": (
        "E RKNNAPI: rknn_init,  recv(MsgLoadAck) fail, -9(ERROR_PIPE) != 368!",
        "rknn_init, recv(MsgLoadAck) fail, -9(ERROR_PIPE) != 368!",
        "lost rknn_server on the board while it loaded the model (recv(MsgLoadAck) ERROR_PIPE)",
    ),
    # rknn3-model-zoo 13 (librknn3_api V1.0.4, Qwen3 on an RK1828 over PCIe); variant: a
    # Qwen3-VL vision model on RK3588 + RK1828 (real: rknn3-model-zoo 17)
    "coprocessor-lost-during-init": (
        "E RKNNAPI(2095): rknn3_init,  recv(MsgInitAck) fail, -9(ERROR_PIPE) != 256!",
        "E RKNNAPI(2956): rknn3_init,  recv(MsgInitAck) fail, -9(ERROR_PIPE) != 256!",
        "lost the RK182x coprocessor while it initialised the model (recv(MsgInitAck) ERROR_PIPE)",
    ),
    "perf-too-many-clients": (
        "rknn_init,  msg_load_ack fail, ack = 6(ACK_PERF_TOO_MANY_CLIENT), expect 0(ACK_SUCC)",
        "E RKNNAPI: rknn_init,  msg_load_ack fail, ack = 6(ACK_PERF_TOO_MANY_CLIENT), expect "
        "0(ACK_SUCC)!",
        "perf-debug client",
    ),
    # _TK2 302 (toolkit2 2.3.0); variant: a /usr/lib runtime under 1.6.0
    "perf-debug-not-enabled": (
        "AttributeError: /usr/lib64/librknnrt.so: undefined symbol: rknn_get_run_time",
        "AttributeError: /usr/lib/librknnrt.so: undefined symbol: rknn_get_run_time",
        "rknn_get_run_time",
    ),
    # _TK2 437 (toolkit2 2.3.2); variant: the same failure's later line (real: same thread)
    "perf-detail-empty": (
        "E eval_perf: Get model perf detail success, but detail is empty!",
        "E eval_perf: Performance information is empty, some mistakes may happened.",
        "empty per-layer perf detail",
    ),
    # _TK2 437 (toolkit2 2.3.2, perf_debug=False); variant: logcat form
    "perf-run-failed": (
        "W RKNNAPI: IOCTL_CMD_PERF_RUN fail, ack=0, run_duration=-614079! Please confirm that it "
        "is called after rknn_outputs_get!",
        "01-01 00:00:09.001   640   640 W RKNNAPI : IOCTL_CMD_PERF_RUN fail, ack=0, "
        "run_duration=-1!",
        "perf run failed",
    ),
    # _TK2 347 (2.x, the target f3 field of RK3576); variant: the RK3588 (v2) lines of a
    # 1920x1920 YOLOv8 with toolkit2 2.0.0b0 (real: a public blog post)
    "register-field-overflow": (
        "E RKNN: [07:20:49.982] REGTASK: The bit width of field value exceeds the limit, "
        "target: f3, offset: 0x402c, shift = 0, limit: 0x1fff, value: 0xefff",
        "E RKNN: [11:55:46.914] REGTASK: The bit width of field value exceeds the limit, "
        "target: v2, offset: 0x4038, shift = 16, limit: 0x1fff, value: 0x11f70",
        "(value 0xefff, limit 0x1fff = 8,191)",
    ),
    # _OLD_TK2 272 (toolkit2 1.6.0, YOLOv8-seg for RK3588); variant: the same line without the
    # level and time stamp (a 2.0.0b0 build, real: a public blog post)
    "argb-layer-config-failed": (
        "E RKNN: [09:47:19.149] failed to config argb mode layer!",
        "RKNN: [17:10:22.036] failed to config argb mode layer!",
        "failed to config argb mode layer",
    ),
}
SOURCE_OF_LINE = {
    "core-mask-model-mismatch": "https://github.com/airockchip/rknn3-model-zoo/issues/2",
    "core-mask-unavailable": "https://github.com/airockchip/rknn-toolkit2/blob/v2.3.2/doc/"
    "04_Rockchip_RKNPU_API_Reference_RKNNRT_V2.3.2_EN.pdf",
    "perf-too-many-clients": "https://github.com/rockchip-linux/rknpu/issues/9",
    "npu-register-region-busy": "https://github.com/ophub/fnnas/issues/620",
    "coprocessor-lost-during-init": "https://github.com/airockchip/rknn3-model-zoo/issues/13",
}
"""The thread each first line was copied from, where the comment above does not name it with a
prefix constant; every other line comes from the entry's own ``source``."""


def test_every_entry_has_a_test_line_and_a_row_in_the_docs():
    assert sorted(LINES) == sorted(e.id for e in CATALOGUE)
    errors = DOCS.read_text(encoding="utf-8")
    assert all(f"| `{e.id}` |" in errors for e in CATALOGUE)
    assert all(e.source.startswith("https://") and e.cause and e.fix for e in CATALOGUE)


@pytest.mark.parametrize("wording", [0, 1], ids=["source-line", "other-version"])
@pytest.mark.parametrize("entry", sorted(LINES))
def test_entry_recognises_its_line(entry, wording):
    text, words = LINES[entry][wording], LINES[entry][2]
    block = KnownFailureParser().opens(Line(5, text, None))
    assert block is not None
    [event] = block.close()
    assert event.failure.id == entry and event.failure.line == 5
    if wording == 0:
        assert words in event.failure.diagnosis
    assert "{" not in event.failure.diagnosis + event.failure.fix
    assert event.failure.confidence in ("high", "medium", "low")


def test_each_first_line_is_from_its_entrys_source():
    """The table's first lines are copied from the thread the entry cites."""
    for entry in CATALOGUE:
        expected = SOURCE_OF_LINE.get(entry.id, entry.source)
        assert entry.source == expected, entry.id


@pytest.mark.parametrize(
    "text",
    [
        "I RKNN: [10:00:00.000] RKNN Driver Information, version: 0.9.8",
        "E RKNN: rknn_init, load model failed!",
        "W RKNN: [13:52:53.504] Transpose will fallback to CPU, because input shape has exceeded",
        "D RKNN: set core mask: 3",
        "simulator mode: inference on the PC",
    ],
)
def test_other_lines_are_no_known_failure(text):
    assert KnownFailureParser().opens(Line(1, text, None)) is None


def _failure_only_json(result) -> dict:
    assert result.exit_code == 3, result.output
    [line] = result.stderr.strip().splitlines()
    assert (
        line.startswith("Error: ")
        and (
            ": line 3: the runtime has no CPU kernel for the GridSample op the model put on the "
            "CPU: `"
        )
        in line
    )
    # the diagnosis first, then the line itself
    assert (
        line.index("no CPU kernel")
        < line.index("unsupport cpu GridSample op")
        < line.index("; fix: ")
    )
    assert "; fix: change the model so that the op runs on the NPU" in line
    assert "(and 1 more failure(s), in the JSON `failures`)" in line
    return json.loads(result.stdout)


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_failure_only_input_exits_3_with_the_diagnosis(tmp_path, variant, via_stdin):
    data = VARIANTS[variant](fixture("failure_rv1106_unsupported_op.txt"))
    report = _failure_only_json(run(["analyze", "-f", "json"], data, tmp_path, via_stdin))
    assert report["profiles"] == []
    assert [(f["id"], f["line"]) for f in report["failures"]] == [
        ("unsupported-cpu-op", 3),
        ("cpu-fallback-failed", 4),
    ]
    assert (
        report["failures"][0]["source"] == "https://github.com/airockchip/rknn-toolkit2/issues/145"
    )


def test_a_failure_met_on_several_lines_says_how_many(tmp_path):
    """rknn-toolkit2 issue 447: three "failed to submit" lines, for Conv_0 then twice for
    Mul_383: one failure, the first op named, the other lines in its diagnosis and the other
    op's line in its context."""
    line = (
        "E RKNN: [07:24:22.771] failed to submit!, op id: {id}, op name: {op}, flags: 0x1, "
        "task start: 1301, task number: 68, run task counter: 0, int status: 0\n"
        "rknn_run fail! ret=-1\n"
    )
    data = "".join(line.format(id=i, op=op) for i, op in ((1, "Conv:Conv_0"), (167, "Mul:Mul_383")))
    data += line.format(id=167, op="Mul:Mul_383")
    result = run(["analyze", "-f", "json"], data.encode(), tmp_path, False)
    assert result.exit_code == 3
    [failure] = [f for f in json.loads(result.stdout)["failures"] if f["id"] != "unknown"]
    assert failure["diagnosis"] == (
        "an NPU task did not complete (failed to submit, op Conv:Conv_0) (also lines 3, 5)"
    )
    assert [c for c in failure["context"] if "Mul:Mul_383" in c] == [
        "failed to submit!, op id: 167, op name: Mul:Mul_383, flags: 0x1, task start: 1301, "
        "task number: 68, run task counter: 0, int status: 0"
    ]


def test_a_failure_on_thousands_of_lines_counts_them_all(tmp_path):
    """A run that failed on every frame prints the line 10,000 times: the count is of every
    line, not of the first ones kept (it said "+14 more")."""
    line = (
        "E RKNN: failed to submit!, op id: 1, op name: Conv_0, flags: 0x1, task start: 0, "
        "task number: 1, run task counter: 0, int status: 0\n"
    )
    result = run(["analyze", "-f", "json"], (line * 10_000).encode(), tmp_path, False)
    assert result.exit_code == 3
    [failure] = json.loads(result.stdout)["failures"]
    assert failure["diagnosis"].endswith(" (also lines 2, 3, 4, 5, 6 +9,994 more)")


def test_a_failure_beside_an_old_driver_names_the_driver(tmp_path):
    """rknn-toolkit2 issue 447: the demo printed librknnrt 2.3.2 with RKNPU driver 0.7.2 after
    the failures; the telling failure says the driver is older than 0.8.8 (what librknnrt 2.x
    asks for). A driver of 0.9.8 adds nothing."""
    fail = (
        "E RKNN: [07:24:22.771] failed to submit!, op id: 1, op name: Conv:Conv_0, flags: 0x1, "
        "task start: 1301, task number: 68, run task counter: 0, int status: 0\n"
    )
    for driver, said in (("0.7.2", True), ("0.9.8", False)):
        version = f"sdk version: 2.3.2 (429f97ae6b@2025-04-09T09:09:27) driver version: {driver}\n"
        result = run(["analyze", "-f", "json"], (fail + version).encode(), tmp_path, False)
        assert result.exit_code == 3
        [failure] = json.loads(result.stdout)["failures"]
        note = "; the log's RKNPU driver 0.7.2 is older than 0.8.8 beside runtime 2.3.2, a likely"
        assert failure["diagnosis"].endswith(note + " cause") is said
        assert failure["diagnosis"].startswith("an NPU task did not complete")
    # a failure whose cause is not the driver (a model newer than the runtime) says nothing
    version = "sdk version: 1.4.0 (a10f100eb@2022-09-09T09:07:14) driver version: 0.8.2\n"
    text = version + "E RKNN: [01:19:04.510] Invalid RKNN model version 6\n"
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    [failure] = json.loads(result.stdout)["failures"]
    assert failure["id"] == "runtime-too-old-for-model" and "driver" not in failure["diagnosis"]


def test_a_failed_submit_beside_driver_0_9_3_names_its_fix(tmp_path):
    """airockchip/rknn-toolkit2 issue 38 (radxa/kernel issue 312): librknnrt 1.6.0 on driver
    0.9.3 failed the MobileNet demo's first conv, which 0.8.2 ran and 0.9.6 fixed. Driver 0.8.2
    beside runtime 1.5.0 (rockchip-linux/rknpu2 issue 91) is of the runtime's own time: no
    note."""
    fail = (
        "E RKNN: [05:03:32.244] failed to submit!, op id: 1, op name: Conv:MobilenetV1/Conv2d_0, "
        "flags: 0x5, task start: 0, task number: 38, run task counter: 0, int status: 0\n"
    )
    version = "driver version: 0.9.3, API version: 1.6.0 (9a7b5d24c@2023-12-13T17:31:11)\n"
    result = run(
        ["analyze", "-f", "json"], (version + "rknn_run\n" + fail).encode(), tmp_path, False
    )
    assert result.exit_code == 3
    [failure] = json.loads(result.stdout)["failures"]
    assert failure["diagnosis"].endswith(
        "; the log's RKNPU driver 0.9.3 fails NPU tasks that 0.9.6 runs (radxa/kernel#312), a "
        "likely cause"
    )
    assert failure["fix"].startswith("first update the RKNPU driver to 0.9.6 or later; if it")
    version = "sdk version: 1.5.0 (e6fe0c678@2023-05-25T08:09:20) driver version: 0.8.2\n"
    result = run(["analyze", "-f", "json"], (version + fail).encode(), tmp_path, False)
    [failure] = json.loads(result.stdout)["failures"]
    assert "driver" not in failure["diagnosis"]


def test_an_rkllm_failed_submit_on_rv1126b_gets_the_maintainers_fix(tmp_path):
    """rknn-llm issue 483: an InternVL3 demo on RV1126B (rkllm 1.2.3) failed its first NPU task
    until param.extend_param.base_domain_id was 0 (the maintainers' answer, the reporter's
    confirmation). The fix says so there, and only there: not on RK3588, not for an RKNN run."""
    fail = (
        "E RKNN: [16:37:05.732] failed to submit, op id: 0, op name: Unknown, flags: 0x5, "
        "task start: 14, task number: 1, run task counter: 0, int status: 0\n"
    )
    rkllm = "I rkllm: rkllm-runtime version: 1.2.3, rknpu driver version: 0.9.8, platform: {}\n"
    rknn = "I RKNN: [16:37:05.001] RKNN Driver Information, version: 0.9.8\nI target is {}\n"
    for head, soc, said in (
        (rkllm, "RV1126B", True),
        (rkllm, "RK3588", False),
        (rknn, "RV1126B", False),
    ):
        text = head.format(soc) + fail
        result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
        assert result.exit_code == 3
        [failure] = json.loads(result.stdout)["failures"]
        assert failure["id"] == "submit-failed"
        fix = "on RV1126B set param.extend_param.base_domain_id = 0 before rkllm_init"
        assert failure["fix"].startswith(fix) is said, (head, soc)
        assert ("rknn-llm/issues/483" in failure["fix"]) is said
        assert "convert and run with the same, latest toolkit2" in failure["fix"]


def test_rkllm_1_2_1_wording_of_an_invalid_model():
    """rkllm 1.2.1b1 prints ``invalid rkllm model!`` (rkllama issue 55) for what 1.1.x called an
    invalid magic: the same entry."""
    block = KnownFailureParser().opens(Line(3, "E rkllm: invalid rkllm model!", None))
    assert block is not None
    [event] = block.close()
    assert event.failure.id == "rkllm-model-invalid"


def test_a_failure_messages_indented_continuation_is_not_a_failure(tmp_path):
    """toolkit2 1.4.0 prints the rest of a message under the same prefix, indented, and a
    traceback ending in an exception that repeats the runtime's line (rockchip-linux
    rknn-toolkit2 issue 91): one failure, the rest its context."""
    text = (
        "E RKNNAPI: rknn_init,  server connect fail!  ret = -9(ERROR_PIPE)!\n"
        "E init_runtime: The rknn_server on the concected device is abnormal, please start the "
        "rknn_server on the device according to:\n"
        "E init_runtime:                https://github.com/rockchip-linux/rknpu2/blob/master/"
        "rknn_server_proxy.md\n"
        "W init_runtime: ===================== WARN(5) =====================\n"
        "E rknn-toolkit2 version: 1.4.0-22dcfef4\n"
        "E init_runtime: Catch exception when init runtime!\n"
        "E init_runtime: Traceback (most recent call last):\n"
        'E init_runtime:   File "rknn/api/rknn_base.py", line 1985, in init_runtime\n'
        "E init_runtime: ValueError: The rknn_server on the concected device is abnormal, please "
        "start the rknn_server on the device according to:\n"
        "E init_runtime:                https://github.com/rockchip-linux/rknpu2/blob/master/"
        "rknn_server_proxy.md\n"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    [failure] = json.loads(result.stdout)["failures"]
    assert failure["id"] == "rknn-server-unreachable" and failure["line"] == 1
    assert failure["diagnosis"].endswith(" (also lines 2, 9)")
    assert "Catch exception when init runtime!" in failure["context"]


def test_toolkit1_traceback_frames_under_an_e_prefix_are_one_report(tmp_path):
    """toolkit1 prints its traceback's frames as ``E   File "…"``: the runtime's line and the
    exception after them are one failure (rknn_model_zoo issue 99), not two."""
    text = (
        "E RKNNAPI: rknn_init,  msg_load_ack fail, ack = 1(ACK_FAIL), expect 0(ACK_SUCC)!\n"
        "E Catch exception when init runtime!\n"
        "E Traceback (most recent call last):\n"
        'E   File "rknn/api/rknn_base.py", line 1008, in rknn.api.rknn_base.RKNNBase.init_runtime\n'
        "E Exception: RKNN init failed. error code: RKNN_ERR_MODEL_INVALID\n"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    [failure] = json.loads(result.stdout)["failures"]
    assert failure["text"].startswith("rknn_init,  msg_load_ack fail, ack = 1(ACK_FAIL)")
    assert "RKNN init failed. error code: RKNN_ERR_MODEL_INVALID" in failure["context"]


def test_failure_only_input_in_the_terminal_prints_no_report(tmp_path):
    result = run(
        ["analyze"], fixture("failure_rv1106_unsupported_op.txt").encode(), tmp_path, False
    )
    assert result.exit_code == 3 and result.stdout == ""
    assert "GridSample" in result.stderr


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_failure_beside_a_table_is_a_finding(tmp_path, variant, via_stdin):
    (profile,) = profiles(
        VARIANTS[variant](fixture("failure_core_mask_with_table.txt")), tmp_path, via_stdin
    )
    assert profile["total_time_us"] == 153 and len(profile["layers"]) == 3
    [failure] = profile["failures"]
    assert (failure["id"], failure["line"]) == ("invalid-core-mask", 3)
    [finding] = [f for f in profile["findings"] if f["code"] == "RKN080"]
    assert finding["severity"] == "warning" and finding["est_saving_us"] == 0
    assert finding["message"].startswith("line 3: core mask 3 is not valid for this NPU")


def test_the_2x_wording_of_a_model_for_another_soc():
    # github.com/alexw914/RK_VideoPipe issue 17 (an RK3588 model on an RK3576); the answer:
    # convert the model for RK3576
    line = "E RKNN: [16:06:38.734] This rknn model is for RK3588, but current platform is RK3576"
    block = KnownFailureParser().opens(Line(1, line))
    assert block is not None
    [event] = block.close()
    assert event.failure.id == "model-platform-mismatch"
    assert "another NPU" in event.failure.diagnosis


def test_the_drivers_line_in_logcat_is_known(tmp_path):
    """Android's logcat takes the kernel driver's ``RKNPU`` into the tag (k2-fsa/sherpa-onnx
    issue 2721, an RK3568 on driver 0.7.2); the line is the same failure as in dmesg."""
    text = (
        "10-24 15:42:23.264 12496 12609 E RKNN    : failed to submit, op id: 42, op name: "
        "Split:/Gather_88_2sl_2sp, flags: 0x5, task start: 19, task number: 4, run task "
        "counter: 0, int status: 0\n"
        "10-24 15:42:23.266     0     0 E RKNPU   : job timeout, irq status: 0x0, raw status: "
        "0x0, require mask: 0x300, task counter: 0x0\n"
        "10-24 15:42:23.266     0     0 I RKNPU   : soft reset\n"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    failures = json.loads(result.stdout)["failures"]
    assert [(f["line"], f["id"]) for f in failures] == [
        (1, "submit-failed"),
        (2, "npu-job-timeout"),
    ]
    # a line of another tag keeps the text as it is
    assert KnownFailureParser().opens(Line(1, "job timeout, irq status: 0x0")) is None


def test_a_known_warning_is_told_before_an_unknown_error(tmp_path):
    """RKLLM 1.3.0 on driver 0.8.2 (the rkllm demo's lines): with an error the catalogue does
    not know, the driver warning (a catalogue entry with a fix) is the headline and the
    unknown error follows in the JSON. The demo's real error, ``matmul(w8a8) run failed``, is
    catalogued (rknn-llm issue 413: the driver is too old): it is the headline, the warning
    second."""
    head = (
        "rkllm init start\n"
        "W rkllm: Warning: Your rknpu driver version is too low, please upgrade to 0.9.7\n"
        "I rkllm: rkllm-runtime version: 1.3.0, rknpu driver version: 0.8.2, platform: RK3588\n"
        "rkllm init success\n"
    )
    result = run(
        ["analyze", "-f", "json"], (head + "E rkllm: decode 0 failed\n").encode(), tmp_path, False
    )
    assert result.exit_code == 3
    assert ": line 2: the RKNPU kernel driver is older than this runtime wants" in result.stderr
    failures = json.loads(result.stdout)["failures"]
    assert [(f["line"], f["id"]) for f in failures] == [(2, "driver-too-old"), (5, "unknown")]
    text = head + "E rkllm: matmul(w8a8) run failed\n"
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert ": line 5: librkllmrt's w8a8 matmul failed on the NPU" in result.stderr
    assert "update the board's RKNPU driver to 0.9.8 or newer" in result.stderr
    failures = json.loads(result.stdout)["failures"]
    assert [(f["line"], f["id"]) for f in failures] == [
        (5, "rkllm-matmul-failed"),
        (2, "driver-too-old"),
    ]


def test_errno_14_names_another_process_holding_the_npu():
    """A public RK3588 notes page: old demo services started at boot held the NPU's IOVA space
    (the kernel's ``RKNPU: failed to allocate IOVA``); stopping them fixed errno 14 with the
    driver and runtime already current. The cause and fix say so."""
    text = (
        "E RKNN: [01:13:18.648] failed to allocate handle, ret: -1, errno: 14, errstr: Bad address"
    )
    block = KnownFailureParser().opens(Line(1, text, None))
    assert block is not None
    [event] = block.close()
    assert event.failure.id == "npu-address-space-full"
    assert "another process holding the NPU's address space" in event.failure.cause
    assert "stop other processes that use the NPU" in event.failure.fix


def test_errno_14_after_the_runtime_asks_for_a_newer_driver_leads_with_it(tmp_path):
    """RKLLM 1.3.0 on driver 0.9.2 (a public RK3588 notes page): the runtime's own line asks for
    0.9.7, then the 4 GB model fails with errno 14. The fix led with base_domain_id (for
    several models; one was loaded): it now leads with the driver the runtime asked for."""
    text = (
        "W rkllm: Warning: Your rknpu driver version is too low, please upgrade to 0.9.7\n"
        "I rkllm: rkllm-runtime version: 1.3.0, rknpu driver version: 0.9.2, platform: RK3588\n"
        "E RKNN: failed to allocate handle, ret: -1, errno: 14, errstr: Bad address\n"
        "E rkllm: rkllm_init failed\n"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    first = json.loads(result.stdout)["failures"][0]
    assert first["id"] == "npu-address-space-full"
    assert first["diagnosis"].endswith(
        "; the runtime asks for a newer RKNPU driver (line 1), a likely cause"
    )
    assert first["fix"].startswith(
        "first update the RKNPU driver to what the runtime asks for (0.9.7 or later); if it "
        "still fails: give each large model its own domain"
    )


def test_a_run_that_only_warned_says_what_it_holds_first(tmp_path):
    """RKLLM 1.3.0 on driver 0.8.2 that went on to ``rkllm init success``: a warning, no
    failure. The exit-3 line gave the warning alone, as if the run had failed, and lost the
    versions the log does hold."""
    text = (
        "rkllm init start\n"
        "W rkllm: Warning: Your rknpu driver version is too low, please upgrade to 0.9.7\n"
        "I rkllm: rkllm-runtime version: 1.3.0, rknpu driver version: 0.8.2, platform: RK3588\n"
        "rkllm init success\n"
    )
    result = run(["analyze"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    assert ": runtime information only (librkllmrt 1.3.0, driver 0.8.2, rk3588), no per-layer " in (
        result.stderr
    )
    assert "table; a warning, line 2: the RKNPU kernel driver is older than this runtime" in (
        result.stderr
    )


def test_a_long_failure_line_is_quoted_to_a_word_boundary():
    """rknn-toolkit2 issue 447's line (264 characters) was quoted cut inside its URL ("… from:
    htt"), which read as the runtime's own text; it is cut at a word, with an ellipsis."""
    from rknnprof.parsers.known_failures import MAX_QUOTE, quoted

    line = (
        "E RKNN: [07:24:22.771] failed to submit!, op id: 1, op name: Conv:Conv_0, flags: 0x1, "
        "task start: 1301, task number: 68, run task counter: 0, int status: 0, If using rknn, "
        "update to the latest toolkit2 and runtime from: https://console.zbox.filez.com/l/I00fc3 "
        "(PWD: rknn)."
    )
    said = quoted(line)
    assert len(said) <= MAX_QUOTE and said.endswith("…")
    kept = said[:-1]
    assert line.startswith(kept) and line[len(kept)] == " "  # (cut where a word ends)
    assert "https" not in said
    assert quoted("E RKNN: short line ") == "E RKNN: short line"


def test_the_drivers_busy_register_region_is_a_warning_beside_what_the_log_holds(tmp_path):
    """ophub/fnnas issue 620: an RK3576 whose runtime could not open the NPU posted its NPU
    load, its driver version and dmesg; the driver's `can't request region` lines read as
    nothing at all. They are a warning (the driver maps the registers anyway and initialises,
    the next line), told after what the log holds."""
    text = (
        "seeed@seeed:/$ sudo cat /proc/rknpu/load \n"
        "NPU load:  Core0:  0%, Core1:  0%,\n"
        "[    4.028645] RKNPU 27700000.npu: RKNPU: rknpu iommu is enabled, using iommu mode\n"
        "[    4.028876] RKNPU 27700000.npu: error -EBUSY: can't request region for resource "
        "[mem 0x27700000-0x27707fff]\n"
        "[    4.028898] RKNPU 27700000.npu: error -EBUSY: can't request region for resource "
        "[mem 0x27708000-0x2770ffff]\n"
        "[    4.029443] [drm] Initialized rknpu 0.9.8 for 27700000.npu on m"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    [failure] = json.loads(result.stdout)["failures"]
    assert (failure["id"], failure["line"], failure["severity"]) == (
        "npu-register-region-busy",
        4,
        "warning",
    )
    assert failure["diagnosis"] == (
        "the RKNPU driver could not reserve the NPU registers at 0x27700000-0x27707fff "
        "(-EBUSY: another device claims them), and maps them without the reservation "
        "(also line 5)"
    )
    assert "runtime information (driver 0.9.8) and NPU load readings only" in result.stderr
    assert "; a warning, line 4: the RKNPU driver could not reserve the NPU registers" in (
        result.stderr
    )


def test_a_broken_load_on_a_toolkit1_board_is_the_failure_not_its_exception(tmp_path):
    """rknn_model_zoo issue 317: yamnet through RKNN-Toolkit1 on an RV1126, whose rknn_server
    connection broke while the model loaded; the line read as unknown, with a fix to search the
    trackers. It is the catalogue's, the exception after it its context."""
    text = (
        "E RKNNAPI: rknn_init,  recv(MsgLoadAck) fail, -9(ERROR_PIPE) != 368!\n"
        "E Catch exception when init runtime!\n"
        "E Traceback (most recent call last):\n"
        'E   File "rknn/api/rknn_base.py", line 1008, in rknn.api.rknn_base.RKNNBase.init_runtime\n'
        'E   File "rknn/api/rknn_runtime.py", line 340, in rknn.api.rknn_runtime.RKNNRuntime.'
        "build_graph\n"
        "E Exception: RKNN init failed. error code: RKNN_ERR_DEVICE_UNAVAILABLE\n"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    [failure] = json.loads(result.stdout)["failures"]
    assert (failure["id"], failure["line"]) == ("rknn-server-lost-during-load", 1)
    assert failure["source"] == "https://github.com/airockchip/rknn_model_zoo/issues/317"
    assert "RKNN_ERR_DEVICE_UNAVAILABLE" in " ".join(failure["context"])
    assert failure["fix"].startswith("check that rknn_server still runs on the board")


def test_an_rknn3_init_that_lost_its_coprocessor_is_told_before_the_transfer_lines(tmp_path):
    """rknn3-model-zoo issue 13: Qwen3 on an RK1828 coprocessor (librknn3_api V1.0.4); the
    transfer's own error lines come first, then rknn3_init's `recv(MsgInitAck) fail`, which
    read as unknown. The catalogue line is the failure, the transfer lines its context."""
    text = (
        "--> init qwen3 llm model\n"
        "D RKNNAPI(2095): rknn3_init, try connect device: 0004:41:00.0\n"
        "E NPUTransfer(2095): ERROR: socket read fd = 4, n = -1: Resource temporarily "
        "unavailable, errno=11\n"
        "E NPUTransfer(2095): recv  TransferClient recv failed, client fd: 4, ret = -1\n"
        "E RKNNAPI(2095): rknn3_init,  recv(MsgInitAck) fail, -9(ERROR_PIPE) != 256!\n"
        "rknn_init fail ret=-10\n"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    failures = json.loads(result.stdout)["failures"]
    assert (failures[0]["id"], failures[0]["line"]) == ("coprocessor-lost-during-init", 5)
    assert any("socket read fd = 4" in c for c in failures[0]["context"])
    assert ": line 5: the RKNN3 runtime lost the RK182x coprocessor" in result.stderr


def test_the_busy_register_region_is_not_blamed_on_an_old_driver(tmp_path):
    """The Rock 5B boot log of openFyde/overlay-rock5b-openfyde issue 1 (driver 0.7.2) prints the
    same region line; beside runtime 2.3.2 its warning read "the log's RKNPU driver 0.7.2 is
    older than 0.8.8 …, a likely cause": of a line the driver goes on after. No note."""
    text = (
        "I RKNN: [10:00:00.000] RKNN Runtime Information, librknnrt version: 2.3.2 "
        "(429f97ae6b@2025-04-09T09:09:27)\n"
        "[    0.649286] RKNPU fdab0000.npu: can't request region for resource [mem "
        "0xfdab0000-0xfdabffff]\n"
        "[    0.649438] [drm] Initialized rknpu 0.7.2 20220428 for fdab0000.npu on minor 1\n"
    )
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    [failure] = json.loads(result.stdout)["failures"]
    assert failure["id"] == "npu-register-region-busy"
    assert failure["diagnosis"].endswith("and maps them without the reservation")


def test_an_unreadable_npu_type_after_a_dev_rknpu_symlink(tmp_path):
    """rknn-toolkit2 issue 534 (RK3576, Buildroot, driver 0.9.7): /dev/rknpu made a symlink to
    the NPU's render node, then librknnrt's `Meet unsupported target type: 0xffffffff` and a
    segmentation fault; the line read as unknown. The fix removes the symlink (the reporter's
    confirmed fix of invisiofficial/rk-llama.cpp issue 19)."""
    text = (
        "[6.356354] [drm] Initialized rknpu 0.9.7 20240424 for 27700000.npu on minor 1\n"
        "ln -s /dev/dri/renderD129 /dev/rknpu\n"
        "rknn_common_test /usr/share/model/RK3576/mobilenet_v1.rknn dog.jpg\n"
        "→ E RKNN: Meet unsupported target type: 0xffffffff\n"
        "→ Segmentation fault\n"
    )
    result = run(["analyze"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    assert ": line 4: librknnrt read no NPU type it knows from the device it opened" in (
        result.stderr
    )
    assert "; fix: remove a /dev/rknpu symlink to a /dev/dri node" in result.stderr


def test_an_unknown_errors_fix_reads_as_one_sentence(tmp_path):
    """The fix of an error the catalogue does not know read "on the board RKNN_LOG_LEVEL=4
    (RKLLM_LOG_LEVEL=2), when converting RKNN(verbose=True), prints more of what led to it":
    which setting goes where, said plainly."""
    text = "E RKNN: [08:00:00.000] rknn_init, load model failed!\n"
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert result.exit_code == 3
    [failure] = json.loads(result.stdout)["failures"]
    assert failure["id"] == "unknown"
    assert failure["fix"] == (
        "search the line in the rknn-toolkit2 / rknn-llm issue trackers; set RKNN_LOG_LEVEL=4 "
        "on the board (RKLLM_LOG_LEVEL=2 for RKLLM), or RKNN(verbose=True) when converting, to "
        "print more of what led to it"
    )


@pytest.mark.parametrize(
    ("errno", "entry"),
    [(12, "npu-memory-allocation"), (14, None), (24, None), (121, None), (125, None), (140, None)],
)
def test_an_errno_is_read_whole(errno, entry):
    """``errno: 125`` (ECANCELED) was diagnosed as errno 12, 'the NPU could not allocate
    memory', and ``errno: 140`` as errno 14: the number ends at a word boundary now."""
    text = f"E RKNN: rknn_run, errno: {errno}, something went wrong"
    block = KnownFailureParser().opens(Line(1, text, None))
    found = None
    if block is not None:
        [event] = block.close()
        found = event.failure.id
    if entry is not None:
        assert found == entry
    elif errno in (121, 125, 140):
        assert found not in (
            "npu-memory-allocation",
            "npu-address-space-full",
            "too-many-open-files",
        )


def test_a_harmless_kernel_line_beside_a_table_is_information(tmp_path):
    """A vendor kernel prints `RKNPU …: can't request region …` at every boot and the driver
    goes on (the entry's fix: none for this line): beside a whole table it was an RKN080
    warning, which failed `--fail-on warning` and severity budgets."""
    from rknnprof.api import load

    sample = Path(__file__).resolve().parents[2] / "sample_logs" / "yolov5s_rk3588_perf.txt"
    line = (
        "[    4.028645] RKNPU 27700000.npu: error -EBUSY: can't request region for resource "
        "[mem 0x27700000-0x27707fff]\n"
    )
    path = tmp_path / "boot.txt"
    path.write_text(line + sample.read_text(encoding="utf-8"), encoding="utf-8")
    [profile] = load(str(path))
    [finding] = [f for f in profile.findings if f.code == "RKN080"]
    assert finding.severity.value == "info"
    assert "could not reserve the NPU registers at 0x27700000-0x27707fff" in finding.message


def test_a_fallback_warning_for_an_op_the_whole_table_runs_on_the_npu_is_not_advice(tmp_path):
    """The conversion warns that an op falls back, but the table printed after it, whole,
    shows every row of that op on the NPU: the table says where it ran (RKN001 warned, and a
    `findings` budget failed on it). A warned op the table does not show is still advice."""
    from rknnprof.api import load

    sample = Path(__file__).resolve().parents[2] / "sample_logs" / "yolov5s_rk3588_perf.txt"
    warnings = (
        "W RKNN: [13:52:53.504] Concat will fallback to CPU, because input shape has exceed "
        "the max limit, height(32) * width(8192) = 262144, required product no larger than "
        "16384!\n"
        "W RKNN: [13:52:53.505] Gather will fallback to CPU, because its axis is not supported!\n"
    )
    path = tmp_path / "warned.txt"
    path.write_text(warnings + sample.read_text(encoding="utf-8"), encoding="utf-8")
    [profile] = load(str(path))
    said = [f.message for f in profile.findings if f.code == "RKN001"]
    assert not any("Concat falls back" in m for m in said), said
    assert any(m.startswith("the log warns that Gather falls back to the CPU") for m in said)


def test_a_long_line_whose_match_lies_far_in_is_quoted_around_it():
    """A failure line in `journalctl -o json` (hostile round): the message sat past a 200-
    character cursor field, and the quote held the cursor alone, nothing of what matched."""
    from rknnprof.parsers.known_failures import MAX_QUOTE, quoted

    message = "E RKNN: [10:00:00.000] Meet unsupported target type: 0xffffffff"
    line = '{"__CURSOR":"s=' + "a1b2c3d4" * 30 + '","MESSAGE":"' + message + '","PRIORITY":"3"}'
    at = line.index("Meet unsupported")
    said = quoted(line, at)
    assert len(said) <= MAX_QUOTE and said.startswith("…")
    assert "Meet unsupported target type: 0xffffffff" in said
    assert quoted(line) == quoted(line, 0) and "Meet" not in quoted(line)  # (no match given)
    block = KnownFailureParser().opens(Line(1, line, None))
    assert block is not None
    [event] = block.close()
    assert "Meet unsupported target type" in event.failure.text


def test_a_cpu_fallback_whose_reason_names_a_single_core_is_a_cpu_fallback(tmp_path):
    """`Compiler: Gather: Axis not support in single core mode Target:NPU, turn to Target:CPU
    implement.` read as a multi-core fallback (its reason says "single core"): RKN030 said
    Gather could not split across cores, and cpu_fallback_layers did not count it."""
    from rknnprof.api import load
    from rknnprof.model import is_multicore_fallback

    path = tmp_path / "gather.txt"
    path.write_text(
        "I RKNN: Compiler: Gather: Axis not support in single core mode Target:NPU, turn to "
        "Target:CPU implement.\n",
        encoding="utf-8",
    )
    [profile] = load(str(path))
    said = [(f.code, f.message) for f in profile.findings]
    assert any(c == "RKN001" and "Gather falls back to the CPU" in m for c, m in said), said
    assert not any(c == "RKN030" for c, _ in said), said
    assert is_multicore_fallback("using 3Core fallback to single core mode")
    assert not is_multicore_fallback("Axis not support in single core mode Target:NPU")
