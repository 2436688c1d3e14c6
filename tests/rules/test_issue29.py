"""Issue 29: the expert's second review, patterns 2-9, on fixture logs written from the grammar
(``tests/data/rules/make_fixtures.py``, ``advice29_fixtures``). Every expected number is read
off the fixture text or follows from the physics named beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rknnprof.api import load
from rknnprof.cli import cli
from rknnprof.model import Confidence

DATA = Path(__file__).resolve().parent.parent / "data" / "rules"


def findings(name: str, code: str, platform: str | None = None) -> list:
    [profile] = load(DATA / f"{name}.txt", platform=platform)
    return [f for f in profile.findings if f.code == code]


# -- pattern 2: RKN020 prices the bytes the rewrite removes --------------------------------------
def test_c2f_split_saves_the_bytes_the_half_convs_do_not_read_again() -> None:
    # #4 Split 400 us after a 64 -> 64 conv: it moves 4c = 128 channels' worth, the two
    # half-convs read Cin = 64 again: (128 - 64) / 128 = half, 200 us. #6 Split 300 us after a
    # conv reading 128 channels: the half-convs' extra reads cancel the copy, 0
    [found] = findings("i29_RKN020_bytes", "RKN020")
    assert found.layer_ids == (4, 6)
    assert found.saving_by_layer == ((4, 200.0),) and found.est_saving_us == 200
    assert found.confidence is Confidence.LOW
    assert "upper end" in found.basis and "no log measures the rewrite" in found.basis
    assert "the rewrite removes up to 200 us of it" in found.message


# -- pattern 3: custom ops -------------------------------------------------------------------
def test_a_custom_norm_is_named_and_priced_at_the_logs_norm_path() -> None:
    # cstInstanceNorm on the CPU, 2,000 us, 2,048 KB; the log's NPU norm path: Transpose 300 +
    # exNorm 200 + Transpose 280 us for exNorm's 1,600 KB: 1,638,400 B / 780 us = 2.10 GB/s;
    # the custom op's bytes at that rate: 2,097,152 / 2,100.5 = 998.4 us
    [found] = findings("i29_custom_norm", "RKN001")
    rate_gbs = 1600 * 1024 / 780e-6 / 1e9
    assert found.est_saving_us == pytest.approx(2000 - 2048 * 1024 / (rate_gbs * 1e3))
    assert found.confidence is Confidence.HIGH
    assert "custom op you registered" in found.message
    assert "exNorm path with the 2 Transpose(s)" in found.basis
    assert "exNorm" in found.fix and "GPU" in found.fix and "channel shuffle" not in found.fix


def test_a_custom_norm_without_a_norm_path_in_the_log_takes_a_public_exnorm_rate() -> None:
    # no exNorm in the log: the public RF-DETR FP16 table's exNorm rate (rknn_model_zoo#366,
    # 152 KB in 168 us and in 165 us: 311,296 B / 333 us = 0.93 GB/s), never the log's generic
    # copy rate; the custom op's 2,048 KB take 2,097,152 / 934.8 = 2,243 us there, more than its
    # 2,000 us on the CPU: no saving, and the message says so
    # (an InstanceNorm, whose [2,3] axes need the two Transposes around exNorm that the peer's
    # rate leaves out: the saving is an upper end, and the fix keeps its axes)
    [found] = findings("i29_custom_norm_norate", "RKN001")
    assert found.est_saving_us == 0 and found.confidence is Confidence.MEDIUM
    assert "for this InstanceNorm the saving is an upper end" in found.basis
    assert "export the standard InstanceNormalization" in found.fix
    assert "over axes [1] or [1,2,3]: it becomes exNorm" not in found.fix
    assert "no faster on the NPU: its bytes at 0.93 GB/s take 2,243 us" in found.message
    assert "rknn_model_zoo#366" in found.message
    assert "custom op you registered" in found.message


def test_another_custom_op_is_told_to_move_to_the_gpu() -> None:
    [found] = findings("i29_custom_other", "RKN001")
    assert "cstBoxDecode is a custom op you registered" in found.message
    assert "GPU (OpenCL) kernel" in found.fix and "channel shuffle" not in found.fix
    assert found.confidence is Confidence.LOW


# -- pattern 4: Pad --------------------------------------------------------------------------
def test_a_pad_in_a_residual_block_is_one_finding_with_the_fixes_that_fit() -> None:
    # two CPU Pads (700 + 720 us) inside a block whose Add returns the Pad's input shape: a
    # ResnetBlock's reflect padding; RKN021 alone reports them (no RKN001 for the same layers)
    [found] = findings("i29_pad_block", "RKN021")
    assert findings("i29_pad_block", "RKN001") == []
    assert found.est_saving_us == 1420 and found.confidence is Confidence.LOW
    assert "residual block" in found.message and "reflect or replicate" in found.message
    assert "retrain" in found.fix and "Slice + Concat" in found.fix
    assert "set each Conv's pads" not in found.fix
    # the CPU Pads' 1,640 KB as Slice + Concat at the public yolov8n NPU Concat rate (no NPU
    # Concat in this log): 1,679,360 B / 5.16 GB/s = 325 us
    assert "would take about 325 us" in found.message


def test_the_conv_pads_fix_only_where_the_log_shows_zero_padding() -> None:
    [found] = findings("i29_pad_zero", "RKN021")
    assert found.fix.startswith("set each Conv's pads attribute")
    assert found.est_saving_us == 150 and found.confidence is Confidence.MEDIUM
    assert "pad with zeros (the FullName says so)" in found.message


# -- pattern 6: multi-core -------------------------------------------------------------------
def test_multi_core_prices_plain_int8_convs_and_never_splits_the_removed_decode() -> None:
    # one core; four ConvRelu 64 -> 64 3x3 at 160x160 (921,600 cycles, 1,152 us) split at the
    # measured 1.77x: 1,152 x (1 - 1/1.77) each, above their 230,400 DDR cycles' 230 us
    [found] = findings("i29_RKN030_decode", "RKN030", "rk3588")
    [decode] = findings("i29_RKN030_decode", "RKN060", "rk3588")
    assert not set(found.layer_ids) & set(decode.layer_ids)
    saved = dict(found.saving_by_layer)
    for i in (3, 4, 5, 6):
        assert saved[i] == pytest.approx(1152 * (1 - 1 / 1.77))
    assert "decode layer(s) RKN060 cuts out are left out" in found.message


# -- pattern 7: warning-only logs ------------------------------------------------------------
def test_a_fallback_warning_alone_gets_advice_and_exit_0() -> None:
    path = DATA / "i29_warning_only.txt"
    [found] = findings("i29_warning_only", "RKN001")
    assert found.est_saving_us == 0
    # the runtime printed 16384: the fix holds to the printed limit, not a table's 8192
    assert "at most 16,384 (the limit this runtime prints)" in found.fix
    assert "8192" not in found.fix and "8,192" not in found.fix
    result = CliRunner().invoke(cli, ["analyze", str(path)])
    assert result.exit_code == 0, result.output


# -- pattern 8: per-SoC notes ----------------------------------------------------------------
def test_the_driver_note_uses_the_socs_own_version_node() -> None:
    [old] = [f for f in findings("i29_rv1106_driver", "RKN050", "rv1106") if "driver" in f.message]
    assert "/proc/rknpu/version" in old.fix and "/sys/kernel/debug" not in old.fix
    assert "multi-core" not in old.message


def test_no_multi_core_reasoning_on_a_one_core_soc() -> None:
    [found] = findings("i29_rk3566_silu", "RKN070", "rk3566")
    assert "core" not in found.message and "splits across" not in found.fix


# -- pattern 9: RKN001 fix text by op class --------------------------------------------------
def test_rkn001_fix_fits_the_op_class() -> None:
    acos, reshape = sorted(findings("i29_cpu_classes", "RKN001"), key=lambda f: f.layer_ids)
    assert acos.layer_ids == (3,) and "elementwise function" in acos.fix
    assert reshape.layer_ids == (4,) and "keep the tensor 4-D" in reshape.fix  # (1,64,6400)
    assert not any("channel shuffle" in f.fix for f in (acos, reshape))
