"""Platform YAML files: every file loads with the required keys; the loader and resolve()."""

from __future__ import annotations

import pytest
import yaml

import rknnprof
from rknnprof import platforms
from rknnprof.analysis.classify import achieved_rate_gbs
from rknnprof.errors import ConfigError, RknnprofError
from rknnprof.model import Layer, Profile, SourceSpan, Target
from tests.conftest import corpus_file

YAML_FILES = sorted(platforms.DATA_DIR.glob("*.yaml"))
FAMILIES = {
    "rk3588",
    "rk3576",
    "rk3566_rk3568",
    "rk3562",
    "rv1106_rv1103",
    "rv1106b_rv1103b",
    "rv1126b",
    "rk2118",
}


def test_every_family_has_a_file() -> None:
    assert {p.stem for p in YAML_FILES} == FAMILIES


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.stem)
def test_yaml_has_required_keys_and_sources(path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(platforms.REQUIRED_KEYS) <= set(data)
    assert data["family"] == path.stem
    assert data["sources"], "every file names its sources"
    for section in ("features", "limits", "macs_per_cycle_per_core"):
        assert isinstance(data[section], dict)
    for dtype, row in (data["channel_alignment"] or {}).items():
        assert set(row) == {"conv_in", "conv_out", "depthwise", "other"}, dtype
        assert all(isinstance(v, int) and v > 0 for v in row.values())


def test_generated_data_matches_the_yaml() -> None:
    """``_data.py`` is what ``python -m rknnprof.platforms.generate`` writes from the YAML now
    (run it after editing a YAML file)."""
    from rknnprof.platforms import _data, generate

    assert generate.TARGET.read_text(encoding="utf-8") == generate.text()
    assert _data.DATA == [yaml.safe_load(p.read_text(encoding="utf-8")) for p in YAML_FILES]


def test_names_cover_every_member() -> None:
    assert platforms.names() == sorted(
        [
            "rk2118",
            "rk3562",
            "rk3566",
            "rk3568",
            "rk3576",
            "rk3588",
            "rk3588s",
            "rv1103",
            "rv1103b",
            "rv1106",
            "rv1106b",
            "rv1126b",
        ]
    )


def test_rk3588_facts_from_domain_md() -> None:
    p = platforms.get("rk3588")
    assert (p.npu_cores, p.npu_max_freq_mhz, p.ddr_bandwidth_gbs) == (3, 1000, 33.8)
    assert p.macs_per_cycle("INT8") == 1024 and p.macs_per_cycle("FLOAT16") == 512
    assert p.macs_per_cycle("UINT8") == 1024
    row = p.alignment("INT8")
    assert (row.conv_in, row.conv_out, row.depthwise, row.other) == (32, 32, 64, 16)
    assert p.limit("transpose_max_hw") == 8192
    assert p.feature("sram") is True


def test_member_overrides_and_unknowns_stay_null() -> None:
    assert platforms.get("rk3566").ddr_bandwidth_gbs == 8.4
    assert platforms.get("rk3568").ddr_bandwidth_gbs == 12.5
    assert platforms.get("rk3566").npu_max_freq_mhz is None
    assert platforms.get("rk3568").npu_max_freq_mhz == 1000
    assert platforms.get("rk3576").macs_per_cycle("INT8") is None
    assert platforms.get("rk3562").npu_max_freq_mhz is None


def test_rv1126b_shares_the_rk3588_rk3576_alignment_table() -> None:
    # RKNN2 SDK V2.5.0 guide §5.2.5.1: Table 5-2 is titled "RK3588/RK3576/RV1126B"
    rk3588, rv1126b = platforms.get("rk3588"), platforms.get("rv1126b")
    assert rv1126b.channel_alignment == rk3588.channel_alignment
    row = rv1126b.alignment("INT8")
    assert (row.conv_in, row.conv_out, row.depthwise, row.other) == (32, 32, 64, 16)
    assert rv1126b.alignment("FLOAT16").conv_out == 16


def test_rk3576_splits_the_fused_convolutions_too() -> None:
    # OPL232: Convolution and Add split on RK3576; the log names a Conv+Relu "ConvRelu"
    ops = platforms.get("rk3576").multi_core_ops
    assert {
        "Conv",
        "ConvRelu",
        "ConvClip",
        "ConvLeakyRelu",
        "ConvAdd",
        "ConvAddRelu",
        "Add",
        "AddRelu",
    } <= ops
    assert not {"ConvExSwish", "ConvSigmoid", "Concat", "Softmax"} & ops
    assert ops <= platforms.get("rk3588").multi_core_ops


def test_ddr_rates_theoretical_and_achieved_are_separate() -> None:
    p = platforms.get("rk3588")
    assert p.ddr_bandwidth_gbs == 33.8  # bus width x transfer rate
    assert p.ddr_achieved_gbs == 12.9  # corpus 03 row 8: 7200 KB in 573 us
    assert round(7200 * 1024 / 573e-6 / 1e9, 1) == p.ddr_achieved_gbs
    assert "ddr_achieved_gbs" in p.sources
    assert platforms.get("rk3576").ddr_achieved_gbs is None


def test_platform_differences_the_rules_use() -> None:
    assert platforms.get("rk3576").limit("transpose_max_hw") == 2**28
    assert "Softmax" in platforms.get("rk3568").npu_ops_absent
    assert "Softmax" not in platforms.get("rk3588").npu_ops_absent
    assert platforms.get("rk3576").feature("sparse_inference") is True
    assert platforms.get("rk3588").feature("sparse_inference") is False
    assert platforms.get("rk2118").int8_supported is False
    assert platforms.get("rk2118").cpu_ops == frozenset()
    assert "Softmax" in platforms.get("rv1106").cpu_ops
    assert platforms.get("rk3588").cpu_ops is None


def test_resolve_override_wins_and_is_normalised() -> None:
    platform, basis = platforms.resolve("rk3588", "RK3576")
    assert platform.name == "rk3576" and basis == "--platform"


def test_resolve_unknown_override_lists_valid_names() -> None:
    with pytest.raises(ConfigError, match="unknown platform 'rk9999'; valid names: rk2118, "):
        platforms.resolve(None, "rk9999")


def test_resolve_log_platform() -> None:
    platform, basis = platforms.resolve("RK3588", None)
    assert platform.name == "rk3588" and basis == "log: target platform: RK3588"


def test_resolve_unknown_log_platform_is_not_an_error() -> None:
    platform, basis = platforms.resolve("rk1808", None)
    assert platform is None and "no platform data" in basis


def _profile(workloads) -> Profile:
    layers = tuple(
        Layer(id=i, op_type="Conv", target=Target.NPU, workload_pct=w)
        for i, w in enumerate(workloads, 1)
    )
    return Profile(source=SourceSpan("x"), format="t", layers=layers)


def test_guess_from_three_slot_workload_says_guess() -> None:
    platform, basis = platforms.resolve(None, None, profile=_profile([(100.0, 0.0, 0.0)]))
    assert platform.name == "rk3588" and basis.startswith("guess:")
    _, basis = platforms.resolve(None, None, profile=_profile([(33.3, 33.3, 33.4)]))
    assert "work on core 2" in basis


def test_no_guess_without_profile_or_workload() -> None:
    assert platforms.resolve(None, None) == (None, None)
    assert platforms.resolve(None, None, profile=_profile([None])) == (None, None)
    # explicit log platform beats the guess
    platform, _ = platforms.resolve("rk3568", None, profile=_profile([(100.0, 0.0, 0.0)]))
    assert platform.name == "rk3568"


def test_rk3588_achieved_rate_is_the_fastest_real_row_of_the_corpus() -> None:
    # every corpus log with layers: the fastest NPU row under the theoretical peak is 03 #8 (Add,
    # 7200 KB / 573 us); only 36 #59 (a Reshape, 100 KB in 2 us = 51 GB/s) is faster: a view
    corpus = corpus_file("01_").parent
    peak = platforms.get("rk3588").ddr_bandwidth_gbs
    rates = []
    for path in sorted(corpus.glob("*.txt")):
        try:
            profiles = rknnprof.load(path)
        except RknnprofError:
            continue  # a log without a table
        for profile in profiles:
            for la in profile.layers:
                rate = achieved_rate_gbs(la)
                if rate and la.target is Target.NPU:
                    rates.append((rate, path.name[:2], la.id))
    rates.sort(reverse=True)
    assert [(name, lid) for rate, name, lid in rates if rate > peak] == [("36", 59)]
    fastest = next((rate, name, lid) for rate, name, lid in rates if rate <= peak)
    assert fastest[1:] == ("03", 8)
    assert round(fastest[0], 1) == platforms.get("rk3588").ddr_achieved_gbs
