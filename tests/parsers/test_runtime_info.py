from __future__ import annotations

import io

from rknnprof.inputs.lines import Line, read_lines
from rknnprof.model import Frequencies
from rknnprof.parsers import scan
from rknnprof.parsers.events import FrequencyEvent, InfoEvent
from rknnprof.parsers.runtime_info import parse_info


def infos(path):
    with open(path, "rb") as f:
        return [e for e in scan(read_lines(f)) if isinstance(e, InfoEvent)]


def test_colon_form_40(corpus):
    evs = infos(corpus("40_"))
    assert [(e.line, e.versions.runtime, e.versions.driver) for e in evs] == [
        (4, "1.4.0", None),
        (5, None, "0.8.2"),
    ]


def test_comma_form_and_model_line_34(corpus):
    evs = infos(corpus("34_"))
    model = next(e for e in evs if e.versions.model)
    assert (model.versions.model, model.versions.toolkit, model.platform) == (
        "6",
        "2.3.0",
        "rk3588",
    )
    assert model.platform_evidence == "target platform: rk3588"
    assert any(e.versions.runtime == "2.3.0" for e in evs)
    assert any(e.versions.driver == "0.9.8" for e in evs)


def test_24_lite2_and_runtime(corpus):
    evs = infos(corpus("24_"))
    # (the board's Python package, not an API of librknnrt: it printed as "api 2.1.0")
    assert [e.versions.lite for e in evs if e.versions.lite] == ["2.1.0"]
    assert not [e for e in evs if e.versions.api]
    assert [e.versions.runtime for e in evs if e.versions.runtime] == ["2.0.0b0"]


def test_other_wordings():
    assert (
        parse_info("sdk version: 2.0.0b0 (35a6907d79@2024-03-24T10:30:08) driver version: 0.7.2")[
            0
        ].runtime
        == "2.0.0b0"
    )
    v = parse_info(
        "rknn_api/rknnrt version: 2.1.0 (967d001cc8@2024-08-07T19:28:19), driver version: 0.9.6"
    )[0]
    assert (v.runtime, v.driver) == ("2.1.0", "0.9.6")
    assert (
        parse_info("D RKNNAPI:   API: 1.5.0 (8d5d8cd build: 2023-05-18 21:48:57)")[0].api == "1.5.0"
    )
    assert parse_info("  DRV: rknnrt: 1.5.0 (e6fe0c678@2023-05-25T08:09:20)")[0].runtime == "1.5.0"
    assert parse_info("hello world") is None
    # a demo's own words run into "sdk" (rknn-toolkit2 issue 447)
    v = parse_info(
        "板子的sdk version: 2.3.2 (429f97ae6b@2025-04-09T09:09:27) driver version: 0.7.2"
    )
    assert v is not None and (v[0].runtime, v[0].driver) == ("2.3.2", "0.7.2")
    assert parse_info("hsdk version: 1.0") is None  # a word ending in "sdk" is not it
    # rknn-toolkit2 issue 38: a demo's rknn_query(SDK_VERSION), whose API version is librknnrt's
    v = parse_info("driver version: 0.9.3, API version: 1.6.0 (9a7b5d24c@2023-12-13T17:31:11)")
    assert v is not None and (v[0].driver, v[0].runtime) == ("0.9.3", "1.6.0")
    # the toolkit's own banner (a public bit-brick docs page, toolkit2 1.5.0)
    v = parse_info("W __init__: rknn-toolkit2 version: 1.5.0+1fa95b5c")
    assert v is not None and v[0].toolkit == "1.5.0+1fa95b5c"
    # toolkit1's RKNNAPI block: DRV is the board's driver (rknn_api.h: drv_version, "the
    # version of rknn driver"), not its runtime (airockchip/rknn-toolkit issue 8, RK3399Pro)
    v = parse_info("D RKNNAPI:   DRV: 1.7.1 (0cfd4a1 build: 2021-11-24 09:05:48)")[0]
    assert (v.driver, v.runtime) == ("1.7.1", None)
    # (toolkit2 1.5 through rknn_server, as corpus sample 42 prints it: its own line)
    v = parse_info("D RKNNAPI:   DRV: rknn_server: 1.5.0 (17f0f2b build@2023-05-22T11:30:13)")[0]
    assert (v.server, v.driver, v.runtime) == ("1.5.0", None, None)


def test_the_kernels_driver_line():
    # dmesg as users paste it: rknn-llm issue 530 (0.9.8) and ezrknpu issue 4 (0.9.6)
    line = "[    9.926311] [drm] Initialized rknpu 0.9.8 20240828 for fdab0000.npu on minor 1"
    assert parse_info(line)[0].driver == "0.9.8"
    line = "[   11.691367] [drm] Initialized rknpu 0.9.6 20240322 for fdab0000.npu on minor 1"
    assert parse_info(line)[0].driver == "0.9.6"


def test_frequency_block():
    text = [
        "CPU Current Frequency List:",
        "    - 1800000",
        "    - 2400000",
        "NPU Current Frequency List:",
        "    - 1000000000",
        "DDR Current Frequency List:",
        "    - Unknown",
        "",
        "Warning: ...",
    ]
    (ev,) = scan(Line(i, t) for i, t in enumerate(text, 1))
    assert isinstance(ev, FrequencyEvent) and ev.line == 1
    assert ev.frequencies == Frequencies((1800000, 2400000), (1000000000,), (None,))


def test_the_boards_and_targets_other_wordings():
    """Lines from public RV1106, RV1126B, RK3568 and RK3576 logs that name the SoC without
    "target platform:"; only a Rockchip SoC's name counts after the looser words."""
    cases = {
        "I Get hardware info: target_platform = rv1126b, os = Linux, aarch = aarch64": "rv1126b",
        "I target set by user is: rv1106": "rv1106",
        "I Starting ntp or adb, target is RK3568": "rk3568",
        "I rkllm: rkllm-runtime version: 1.2.3, rknpu driver version: 0.9.8, platform: RK3576": (
            "rk3576"
        ),
        # the command line pasted above an eval_perf run (Rockchip's Quick Start, 4.1.3.2)
        "python mobilenet.py --target rk3588 --eval_perf": "rk3588",
        "python3 convert.py --target=rv1106": "rv1106",
    }
    for line, platform in cases.items():
        info = parse_info(line)
        assert info is not None and info[1] == platform, line
    assert parse_info("the target is ready") is None
    assert parse_info("target is x86_64 version: none") is None
    assert parse_info("cmake --target install") is None


def test_the_reduced_runtime_of_rv1106():
    """RV1106/RV1103 print librknnmrt (rknn-toolkit2 issue 557)."""
    line = "I RKNN: RKNN Runtime Information, librknnmrt version: 2.3.2 (429f97ae6b@2025-04-09T09:11:49)"
    assert parse_info(line)[0].runtime == "2.3.2"  # type: ignore[index]


def test_a_model_in_a_per_soc_folder_suggests_the_soc():
    """rknpu2's examples keep a model per SoC (model/RV1106/…); a vendor image keeps
    /usr/share/model/RK3562/…: a guess, said to be one."""
    info = parse_info("# ./rknn_yolov5_demo model/RV1106/yolov5s-640-640.rknn ./model/bus.jpg")
    assert info is not None and info[1] == "rv1106"
    assert info[2] == (
        "guess: the model's path …/RV1106/yolov5s-640-640.rknn (pass --platform to be sure)"
    )
    # a folder two SoCs share names neither when their facts differ (RK3566's DDR is 8.4 GB/s,
    # RK3568's 12.5: an OK3568 board's run was judged by RK3566's)
    assert parse_info("./demo /usr/share/model/RK3566_RK3568/mobilenet_v1.rknn") is None
    assert parse_info("./demo model/RV1106_RV1103/yolov5s.rknn") is None
    assert parse_info("./demo models/yolov5s.rknn") is None
    assert parse_info("./demo model/RK9999/yolov5s.rknn") is None  # no data: no guess


def test_an_error_naming_a_soc_is_not_the_socs_line():
    """``E init_runtime: get target_platform is rv1106, while required target_platform = …``
    (rknn_model_zoo issue 408) is an error, not the line that names the board; an error-level
    line that names a version still gives it."""
    from rknnprof.parsers.runtime_info import RuntimeInfoParser

    parser = RuntimeInfoParser()
    error = "required target_platform = rv1103 (the target given: rv1106)"
    assert parser.opens(Line(9, error, None, "E", "init_runtime")) is None
    assert parser.opens(Line(9, error, None, "I", "init_runtime")) is not None
    versions = "RKNN Runtime Information, librknnrt version: 2.3.2 (429f97ae6b@2025-04-09)"
    block = parser.opens(Line(12, versions, None, "E", "RKNN"))
    assert block is not None
    [event] = block.close()
    assert event.versions.runtime == "2.3.2"


def test_rknn_servers_own_lines_in_logcat():
    """airockchip/rknn-toolkit2 issue 403, an Android board's logcat (tag SERVER): rknn_server
    names its own version, then the librknnrt it loaded; a log of them read as no RKNN data."""
    text = (
        "07-21 18:23:13.178 2322 2322 D SERVER : librknnrt path = /vendor/lib64/librknnrt.so \n"
        "07-21 18:23:13.495 2322 2322 D SERVER : rknn_server version: 2.3.2 (1842325 "
        "build@2025-03-30T09:54:16) \n"
        "07-21 18:23:13.495 2322 2322 D SERVER : server & runtime version: rknn_server: 2.3.2 "
        "(1842325 build@2025-03-30T09:54:16) \n"
        "07-21 18:23:13.495 2322 2322 D SERVER : rknnrt: 2.3.2 (429f97ae6b@2025-04-09T09:08:16) \n"
    )
    evs = [e for e in scan(read_lines(io.BytesIO(text.encode()))) if isinstance(e, InfoEvent)]
    assert [(e.line, e.versions.server, e.versions.runtime) for e in evs] == [
        (2, "2.3.2", None),
        (3, "2.3.2", None),
        (4, None, "2.3.2"),
    ]
    # the board's start script (airockchip/rknn-toolkit2 issue 301), and no version in its
    # complaint that the server is too old
    v = parse_info("start rknn server, version:2.3.0 (e80ac5c build@2024-11-07T12:52:53)")
    assert v is not None and v[0].server == "2.3.0"
    v = parse_info(
        "E RKNNAPI: rknn_server version is too old, please update rknn_server to at least 2.3.0"
    )
    assert v is None or v[0].server is None


def test_the_driver_as_users_quote_it():
    """airockchip/rknn-toolkit2 issue 405 gives the driver as its name, version and date
    (``rknpu 0.9.8 20240828``, behind its own words in the description); ophub/fnnas issue 620
    as `cat /sys/kernel/debug/rknpu/version` prints it. Neither was read."""
    for line in (
        "rknpu 0.9.8 20240828",
        "NPU驱动的版本是 ：rknpu 0.9.8 20240828",
        "RKNPU driver: v0.9.8",
    ):
        v = parse_info(line)
        assert v is not None and v[0].driver == "0.9.8", line
    # the driver's other lines name no version
    for line in (
        "[    4.028645] RKNPU 27700000.npu: RKNPU: rknpu iommu is enabled, using iommu mode",
        "rknpu_dev.2.auto",
        "seeed@seeed:/$ sudo cat /sys/kernel/debug/rknpu/version",
    ):
        assert parse_info(line) is None, line


def test_a_full_stop_after_a_version_is_not_part_of_it():
    """A user's sentence ends at the version (``RKNPU driver: v0.9.8.``): it read ``0.9.8.``,
    and compare saw two drivers (``0.9.8 vs 0.9.8.``). Digits are ASCII: ``٠.٩.٨`` (Arabic-
    Indic) is not a version."""
    for line, driver in (
        ("RKNPU driver: v0.9.8.", "0.9.8"),
        ("the board's driver version: 0.9.6. The runtime is newer", "0.9.6"),
        ("driver version: 0.9.6b1, API version: 2.3.2", "0.9.6b1"),
    ):
        v = parse_info(line)
        assert v is not None and v[0].driver == driver, line
    v = parse_info("RKNPU driver: v\u0660.\u0669.\u0668")
    assert v is None or v[0].driver is None


def test_a_version_an_80_column_wrap_cut_is_read_whole():
    """rockchip-linux/rknn-toolkit2 issue 135: a C demo's `Driver version:0.8.2` wrapped at
    column 80, `…, Driver version:0.8` then `.2 Number inputs=1, …`, read as a clean driver
    0.8. The rest at the start of the next line completes it; a next line that does not start
    with it leaves the version as the line has it."""
    from rknnprof.parsers.runtime_info import RuntimeInfoParser

    lines = [  # https://github.com/rockchip-linux/rknn-toolkit2/issues/135
        "Loaded model reports as follows:",
        "RKNN SDK - API version:1.4.0 (a10f100eb@2022-09-09T09:07:14), Driver version:0.8",
        ".2 Number inputs=1, Number outputs=1",
        "Tensor input layer 0 attributes:",
    ]
    assert len(lines[1]) == 80
    data = io.BytesIO("".join(f"{line}\n" for line in lines).encode())
    [info] = [e for e in scan(read_lines(data)) if isinstance(e, InfoEvent)]
    assert (info.versions.runtime, info.versions.driver) == ("1.4.0", "0.8.2")
    block = RuntimeInfoParser().opens(Line(1, "RKNN Driver Information, version: 0.9.8"))
    assert block is not None and not block.feed(Line(2, "Number inputs=1"))
    [alone] = block.close()
    assert alone.versions.driver == "0.9.8"


def test_toolkit1s_init_runtime_target_names_the_platform():
    """airockchip/rknn-toolkit issue 8 (RKNN-Toolkit-lite 1.7.5): `--> Init runtime
    environment,target = RK3399PRO,device_id = None` names the board; it was not read."""
    info = parse_info("--> Init runtime environment,target = RK3399PRO,device_id = None")
    assert info is not None and info[1:] == ("rk3399pro", "target = RK3399PRO")


def test_a_toolkit1_banner_reads_driver_api_and_board(tmp_path):
    """airockchip/rknn-toolkit issue 8: the exit-3 line said `runtime 1.7.1, api 1.7.5`."""
    import pytest

    from rknnprof.api import analyze
    from rknnprof.errors import NoProfileDataError

    path = tmp_path / "tk1.txt"
    path.write_text(  # https://github.com/airockchip/rknn-toolkit/issues/8
        "--> Init runtime environment,target = RK3399PRO,device_id = None\n"
        "I NPUTransfer: Starting NPU Transfer Client, Transfer version 2.1.0 "
        "(b5861e7@2020-11-23T11:50:51)\n"
        "D RKNNAPI: ==============================================\n"
        "D RKNNAPI: RKNN VERSION:\n"
        "D RKNNAPI:   API: 1.7.5 (bb79b30 build: 2023-06-20 09:32:18)\n"
        "D RKNNAPI:   DRV: 1.7.1 (0cfd4a1 build: 2021-11-24 09:05:48)\n"
        "D RKNNAPI: ==============================================\n",
        encoding="utf-8",
    )
    with pytest.raises(NoProfileDataError) as raised:
        analyze(str(path))
    assert raised.value.message == (
        "runtime information only (driver 1.7.1, api 1.7.5, rk3399pro), no per-layer table"
    )
