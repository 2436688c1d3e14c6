"""The failures catalogue's entries for the link to a runtime that runs the model elsewhere:
RKNN-Toolkit(2) on a PC sending it to the board's rknn_server through adb
(``init_runtime(target=…)``), the RKNN3 host runtime to an RK182x coprocessor. Data only, in the
form of :mod:`.failure_catalogue`, which places them after the toolkit and runtime mismatches
(no other entry's needle is in their lines, so the place decides no match).
"""

from __future__ import annotations

from rknnprof.parsers.failure_entry import OLD_TK2, TK2, ZOO, Entry, regex

LINK: tuple[Entry, ...] = (
    Entry(
        "rknn-server-version-mismatch",
        ("msg_ioctl_ack fail",),
        regex(r"msg_ioctl_ack fail, data_len = (?P<got>\d+), expect (?P<want>\d+)"),
        "the toolkit and the board's rknn_server disagree on the message size ({got} bytes, "
        "{want} expected)",
        "init_runtime(target=…) talks to rknn_server on the board; a toolkit (API) and an "
        "rknn_server/librknnrt (DRV) of different versions exchange structures of different sizes",
        "install the rknn_server and librknnrt of the toolkit's version on the board and restart "
        "rknn_server; the RKNNAPI banner's API and DRV versions must be equal",
        OLD_TK2 + "75",
    ),
    Entry(
        "rknn-server-too-old",
        ("rknn_server version is too old",),
        regex(
            r"rknn_server version is too old, please update rknn_server to at least "
            r"(?P<want>\d[\w.]*)"
        ),
        "the board's rknn_server is older than this toolkit accepts (at least {want})",
        "init_runtime(target=…) runs the model through rknn_server on the board, and the toolkit "
        "refuses an rknn_server older than its own release",
        "push the rknn_server and librknnrt of the toolkit's version to the board (rknpu2's "
        "runtime/<OS>/rknn_server and librknn_api) and restart rknn_server",
        TK2 + "229",
        confidence="medium",
    ),
    Entry(
        "rknn-server-unreachable",
        ("server connect fail", "device is abnormal, please start the rknn_server"),
        regex(
            r"server connect fail!?(?:\s*ret = (?P<ret>-?\d+)\((?P<why>\w+)\))?"
            r"|rknn_server on the con\w*ted device is abnormal"
        ),
        "the toolkit could not reach rknn_server on the board (server connect fail)",
        "init_runtime(target=…) runs the model through rknn_server on the board: it is not "
        "running, it died (ERROR_PIPE, connection reset), or the board started another copy "
        "than the one pushed (RV1126B, RV1106 and RV1103 start it from /oem/usr)",
        "start rknn_server on the board as the toolkit's doc/rknn_server_proxy.md says and check "
        "it stays up (`adb shell ps | grep rknn_server`), with the rknn_server and librknnrt of "
        "the toolkit's version; on RV1126B, RV1106 and RV1103 put them in /oem/usr/bin and "
        "/oem/usr/lib (the fix the reporter of airockchip/rknn-toolkit2#381 confirmed)",
        TK2 + "393",
        "medium",
    ),
    Entry(
        "device-unreachable",
        ("Connect to Device",),
        # (toolkit2 1.6 prints no device: `Connect to Device Failure (-1), Please check the
        # USB connection!`, rknn_model_zoo issue 120, after adb's own version clash)
        regex(r"Connect to Device (?:\((?P<device>[^)]{0,128})\) )?Failure \((?P<code>-?\d+)\)"),
        "the toolkit could not connect to the board through adb",
        "init_runtime(target=…) reaches the board through adb (USB or network): the board is "
        "not in `adb devices`, two adb versions fight over the server (`adb server version (41) "
        "doesn't match this client (40); killing...`), or another adb server holds port 5037 "
        "(`adb: error: cannot bind listener`, as under WSL with mirrored networking beside "
        "Windows' adb)",
        "check that `adb devices` lists the board (pass device_id= when several do); keep one adb "
        "on the PATH (the SDK's or the system's); with `cannot bind listener`, stop the other "
        "adb server (under WSL: turn mirrored networking off and attach the board with "
        "usbipd-win, the reporter's fix)",
        OLD_TK2 + "330",
        "medium",
    ),
    Entry(
        "target-platform-mismatch",
        ("while required target_platform",),
        regex(
            r"get target_platform is (?P<given>\w+), while required target_platform = "
            r"(?P<board>\w+)"
        ),
        "the target given to init_runtime ({given}) is not the connected board's SoC ({board})",
        "the toolkit checks the target against the SoC the board reports (`Get hardware info: "
        "target_platform = …`); RV1103 and RV1106 are separate targets",
        "pass target='{board}' to init_runtime and run a model converted for {board}",
        # (the thread has no answer: the line names both SoCs)
        ZOO + "408",
        "low",
    ),
    Entry(
        "board-refused-model",
        ("ACK_FAIL",),
        regex(r"msg_load_ack fail, ack = 1\(ACK_FAIL\)"),
        "the board's NPU runtime refused the model as it loaded it (msg_load_ack ACK_FAIL)",
        "RKNN-Toolkit1 connected to a board (RV1126/RV1109, RK1808) sends the model to the "
        "board's rknn_server, which loads it and answers only ACK_FAIL: the reason is in the "
        "board's log, not the PC's (a quantized layer its runtime rejects, rknn_QuantCheck, in "
        "the cited thread; a board runtime of another version than the toolkit's)",
        "run again with the board's rknn_server restarted under RKNN_LOG_LEVEL=5 and read its "
        "log for the layer it rejects; keep the board's rknn_server and librknn_runtime at the "
        "toolkit's version",
        ZOO + "215",
        "low",
    ),
    Entry(
        "rknn-server-lost-during-load",
        ("recv(MsgLoadAck) fail",),
        regex(r"recv\(MsgLoadAck\) fail, -?\d{1,9}\((?P<why>\w{1,32})\)"),
        "the toolkit lost rknn_server on the board while it loaded the model (recv(MsgLoadAck) "
        "{why})",
        "RKNN-Toolkit1 connected to a board (RV1126/RV1109, RK1808, RK3399Pro) sends the model "
        "to the board's rknn_server and waits for its answer to the load; the connection broke "
        "before it came (ERROR_PIPE): rknn_server stopped or dropped it while loading this model. "
        "Reported for one model where others load on the same board (yamnet on RV1126 in the "
        "cited thread; a 16-bit quantized model whose 8-bit build loads, "
        "rockchip-linux/rknn-toolkit#236; one precompiled model, rockchip-linux/rknn-toolkit#511) "
        "and after a board's boot image was updated (rockchip-linux/rknpu#41); no thread has an "
        "answer",
        "check that rknn_server still runs on the board after the failure (`adb shell ps | grep "
        "rknn_server`) and restart it; restarted under RKNN_LOG_LEVEL=5, its log on the board "
        "shows what it met loading the model; keep the board's rknn_server and librknn_runtime "
        "at the toolkit's version; where other models load, try another build of this one (its "
        "8-bit quantization loaded where the 16-bit one failed in rockchip-linux/rknn-toolkit#236)",
        ZOO + "317",
        "low",
    ),
    Entry(
        "coprocessor-lost-during-init",
        ("recv(MsgInitAck) fail",),
        regex(r"recv\(MsgInitAck\) fail, -?\d{1,9}\((?P<why>\w{1,32})\)"),
        "the RKNN3 runtime lost the RK182x coprocessor while it initialised the model "
        "(recv(MsgInitAck) {why})",
        "the RKNN3 runtime on the host sends the model to the RK182x coprocessor (over PCIe: "
        "`try connect device: 0004:41:00.0`) and waits for its answer to rknn3_init; the read "
        "timed out (the `E NPUTransfer … socket read … errno=11` line before it) and the "
        "connection broke (ERROR_PIPE). Reported with librknn3_api V1.0.4 for Qwen3 and Gemma4 "
        "on an RK1828 (the cited thread, closed without a written answer) and for a Qwen3-VL "
        "vision model on RK3588 + RK1828 (airockchip/rknn3-model-zoo#17, no answer)",
        "read the `E NPUTransfer` lines just before it (the connection's own error) and check "
        "that the device the runtime tried (`try connect device: …`) is the RK182x and still "
        "answers; no public thread has a confirmed fix yet",
        "https://github.com/airockchip/rknn3-model-zoo/issues/13",
        "low",
    ),
)
