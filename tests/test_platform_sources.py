"""Every platform value names a public source, and the values match what those sources say.

The expected values below were read from the documents themselves (docs/sources.md gives each
key's title, version and URL): the operator list V2.3.2 (OPL232) chapter per platform, the
datasheets' feature lists and "Max NPU frequency" rows, the model zoo's scaling_frequency.sh
(SCALE). The test holds each YAML value to that figure AND to the key its ``sources:`` entry
cites, and every cited key to docs/sources.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
PLATFORMS = REPO / "rknnprof" / "platforms"
YAML_FILES = sorted(PLATFORMS.glob("*.yaml"))
NOT_FACTS = {"family", "display_name", "members", "sources"}
TAG = re.compile(r"^\[(DERIVED|MEASURED)\]\s*")

LIMITS = {  # identical in every chapter of OPL232 (Convolution, Depthwise, pools, Resize, exMatMul)
    "conv_max_kernel": 31,
    "conv_max_stride": 7,
    "conv_max_pad": 15,
    "depthwise_max_kernel": 8,
    "pool_max_kernel": 7,
    "pool_max_stride": 8,
    "pool_max_pad": 7,
    "resize_factor_min": 2,
    "resize_factor_max": 8,
    "exmatmul_max_k": 8192,
}
FUSED = {"ConvSigmoid", "ConvTanh", "ConvSoftplus", "ConvHardSigmoid", "ConvHardSwish"}
FUSED |= {"ConvElu", "ConvExSwish", "ConvExMish"}

# family -> [(field, expected value, source key the entry must cite)]
FACTS: dict[str, list[tuple[str, Any, str]]] = {
    "rk3588": [
        ("npu_cores", 3, "DS-RK3588"),
        ("npu_max_freq_mhz", 1000, "DS-RK3588"),
        ("fixed_freq_mhz", 1000, "SCALE"),
        ("ddr_max_freq_mhz", 2112, "SCALE"),
        ("npu_buffer_kb_per_core", 384, "DS-RK3588"),
        ("macs_per_cycle_per_core.int8", 1024, "RE-RKNN"),
        ("macs_per_cycle_per_core.float16", 512, "RE-RKNN"),
        ("limits.global_avg_pool_max_hw", 7, "OPL232"),
        ("limits.transpose_max_hw", 8192, "OPL232"),
        ("op_dtypes.Conv", ["int8", "float16"], "OPL232"),
        ("features.sram", True, "UG230"),
    ],
    "rk3576": [
        ("npu_cores", 2, "DS-RK3576"),
        ("npu_max_freq_mhz", 950, "DS-RK3576"),
        ("fixed_freq_mhz", 1000, "SCALE"),
        ("ddr_max_freq_mhz", 2112, "SCALE"),
        ("features.sram", True, "UG250"),
        ("limits.transpose_max_hw", 2**28, "OPL232"),
        ("limits.global_avg_pool_max_hw", 7, "OPL232"),
        ("npu_ops_absent", ["exSwooshR", "exSwooshL"], "OPL232"),
    ],
    "rk3562": [
        ("fixed_freq_mhz", 1000, "SCALE"),
        ("ddr_max_freq_mhz", 1560, "SCALE"),
        ("ddr_bandwidth_gbs", 12.5, "DS-RK3562"),  # 32-bit x 1560 MHz x 2 = 12.48 GB/s
        ("limits.global_avg_pool_max_hw", 7, "OPL232"),
        ("npu_ops_absent", ["Min", "exSwooshR", "exSwooshL"], "OPL232"),
    ],
    "rk3566_rk3568": [
        ("npu_max_freq_mhz", 1000, "DS-RK3568"),
        ("fixed_freq_mhz", 1000, "SCALE"),
        ("member_overrides.rk3566.ddr_max_freq_mhz", 1056, "SCALE"),
        ("member_overrides.rk3568.ddr_max_freq_mhz", 1560, "SCALE"),
        ("limits.global_avg_pool_max_hw", 7, "OPL232"),
        ("limits.transpose_max_hw", 8192, "OPL232"),
    ],
    "rv1106_rv1103": [
        ("fixed_freq_mhz", 500, "SCALE"),
        ("ddr_max_freq_mhz", 924, "SCALE"),
        ("op_dtypes.Conv", ["int8"], "OPL232"),
        ("op_dtypes.Resize", ["int8"], "OPL232"),
        ("op_dtypes.exMatMul", ["int8"], "OPL232"),
        ("limits.global_avg_pool_max_hw", 7, "OPL232"),
    ],
    "rv1106b_rv1103b": [
        ("op_dtypes.Conv", ["int8"], "OPL232"),
        ("limits.global_avg_pool_max_hw", None, "OPL232"),  # not an NPU op: made a conv
    ],
    "rv1126b": [
        ("fixed_freq_mhz", 950, "SCALE"),
        ("multi_core_ops", [], "OPL232"),  # "RK3576 支持/RV1126B 不支持"
        ("limits.global_avg_pool_max_hw", 7, "OPL232"),
    ],
    "rk2118": [
        ("op_dtypes.Conv", ["float16"], "OPL232"),
        ("int8_supported", False, "OPL232"),
        ("cpu_ops", [], "OPL232"),
    ],
    "rk1808": [
        ("npu_cores", 1, "DS-RK1808"),
        ("fixed_freq_mhz", 792, "SCALE"),
        ("npu_buffer_kb_per_core", 512, "DS-RK1808"),
        ("macs_per_cycle_per_core.int8", 1920, "DS-RK1808"),
        ("macs_per_cycle_per_core.int16", 192, "DS-RK1808"),
        ("macs_per_cycle_per_core.float16", 64, "DS-RK1808"),
        ("ddr_bandwidth_gbs", 6.4, "DS-RK1808"),  # 32-bit x DDR3-1600
    ],
    "rv1126_rv1109": [
        ("fixed_freq_mhz", 934, "SCALE"),
        ("member_overrides.rv1109.fixed_freq_mhz", 594, "SCALE"),
    ],
}


def _defined_keys() -> set[str]:
    """The keys docs/sources.md defines: the backticked first cell of its tables' rows."""
    text = (REPO / "docs" / "sources.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([^`]+)` \|", text, flags=re.M))


def _cited_keys(entry: str) -> list[str]:
    """The source keys a ``sources:`` entry cites: the first word of each ``; `` part."""
    return [TAG.sub("", part.strip()).split()[0] for part in entry.split("; ")]


def _is_claim(value: Any) -> bool:
    """A value that says something: not null, not empty, not a mapping of nulls."""
    if value is None or value in ([], {}):
        return False
    if isinstance(value, dict):
        return any(_is_claim(v) for v in value.values())
    return True


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def _get(data: dict[str, Any], dotted: str) -> Any:
    value: Any = data
    for part in dotted.split("."):
        value = value[part]
    return value


def test_every_family_is_held_to_its_sources() -> None:
    assert {p.stem for p in YAML_FILES} == set(FACTS)


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.stem)
def test_every_value_cites_a_key_defined_in_docs_sources(path: Path) -> None:
    data, keys = _load(path), _defined_keys()
    assert {"OPL232", "SCALE", "UG230", "UG250", "DS-RK3588", "GH"} <= keys
    sources = data["sources"]
    for field, value in data.items():
        if field in NOT_FACTS or not _is_claim(value):
            continue
        assert field in sources, f"{path.name}: {field} has a value but no source"
    for field, entry in sources.items():
        assert field in data, f"{path.name}: sources.{field} names no field"
        for key in _cited_keys(entry):
            assert key in keys, f"{path.name}: sources.{field} cites {key!r}, not in sources.md"


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.stem)
def test_values_match_the_documents(path: Path) -> None:
    data = _load(path)
    for dotted, expected, key in FACTS[path.stem]:
        assert _get(data, dotted) == expected, f"{path.name}: {dotted}"
        entry = data["sources"][dotted.split(".")[0]]
        assert key in _cited_keys(entry), f"{path.name}: {dotted} should cite {key}"


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.stem)
def test_size_limits_of_every_operator_list_chapter(path: Path) -> None:
    data = _load(path)
    if not data["limits"]:  # toolkit1 SoCs: the operator list does not cover them
        assert data["family"] in ("rk1808", "rv1126_rv1109")
        return
    for name, value in LIMITS.items():
        assert data["limits"][name] == value, f"{path.name}: limits.{name}"
    assert "OPL232" in _cited_keys(data["sources"]["limits"])


def test_rk3576_fused_convolutions_split_and_rk3588_ones_do_not() -> None:
    rk3576 = set(_load(PLATFORMS / "rk3576.yaml")["multi_core_ops"])
    rk3588 = set(_load(PLATFORMS / "rk3588.yaml")["multi_core_ops"])
    assert FUSED | {"Mul", "MulRelu", "exSDPAttention"} <= rk3576
    assert not (FUSED | {"exSDPAttention"}) & rk3588


def test_no_machine_path_and_no_file_outside_the_repository_is_named() -> None:
    package = REPO / "rknnprof"
    pattern = re.compile(r"/work/|shared/|DOMAIN\.md|/home/|/tmp/")
    for path in [*package.rglob("*.py"), *package.rglob("*.yaml")]:
        assert not pattern.search(path.read_text(encoding="utf-8")), path
