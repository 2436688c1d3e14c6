"""Every rule on its fixture logs, through the public ``rknnprof.api.load``: ``RKNxxx.txt``
raises the rule, ``RKNxxx_ok.txt`` does not. The fixtures are written by
``tests/data/rules/make_fixtures.py``; expected numbers below are read off the fixture text."""

from __future__ import annotations

from pathlib import Path

import pytest

from rknnprof.api import load
from rknnprof.rules import RULES

DATA = Path(__file__).resolve().parent.parent / "data" / "rules"


def findings(name: str, code: str) -> list:
    profiles = load(DATA / f"{name}.txt")
    return [f for p in profiles for f in p.findings if f.code == code]


@pytest.mark.parametrize("code", [r.code for r in RULES])
def test_fixture_triggers_and_ok_fixture_does_not(code: str) -> None:
    assert findings(code, code), f"{code}.txt does not raise {code}"
    assert not findings(f"{code}_ok", code), f"{code}_ok.txt raises {code}"


def test_fixtures_are_up_to_date() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_fixtures", DATA / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, lines in module.fixtures().items():
        assert (DATA / f"{name}.txt").read_text(encoding="utf-8") == "\n".join(lines) + "\n", name


SILENT = sorted(p.stem for p in DATA.glob("silent_RKN*.txt"))


@pytest.mark.parametrize("name", SILENT)
def test_false_positives_of_the_review_stay_silent(name: str) -> None:
    """``silent_RKNxxx_what.txt``: a case the expert review called a false positive (a
    depthwise conv, an RGB stem, a head output, a narrow conv, stride-1 pools, a head's box/class
    split). Each raised its rule before the savings rebuild; none may now."""
    code = name.split("_")[1]
    assert not findings(name, code), f"{name}.txt raises {code}"


def test_there_is_a_silent_fixture_for_each_false_positive_of_the_review() -> None:
    assert SILENT == [
        "silent_RKN011_depthwise",
        "silent_RKN011_head",
        "silent_RKN011_narrow",
        "silent_RKN011_rgb_stem",
        "silent_RKN020_head_split",
        "silent_RKN020_stride1_pools",
    ]


def test_a_deliberate_single_core_run_claims_throughput_not_latency() -> None:
    """The review: RKN030 called a core-0 run an "imbalance" and claimed a perfect 3x split as
    latency, also on bandwidth-bound layers. The fixture's four ConvRelu layers (3,750 us each,
    DDR cycles 3x their NPU cycles) split under a multi-core mask but share one DDR."""
    [finding] = findings("latency_RKN030_single_core", "RKN030")
    # the four DDR-bound ConvRelus (#3-#6) claim nothing; only the small compute-bound convs
    # (#2, #7, #8: 144, 288, 144 us) are priced at the measured per-cycle conv speed-up
    assert not {3, 4, 5, 6} & {i for i, _ in finding.saving_by_layer}
    assert {i for i, _ in finding.saving_by_layer} <= {2, 7, 8}
    assert finding.est_saving_us < (144 + 288 + 144) * (1 - 1 / 1.84)
    assert finding.throughput_gain is not None and finding.throughput_gain.factor == 3
    assert "imbalance" not in finding.message
    assert "4 bandwidth-bound layer(s) 15,000 us (the cores share one DDR)" in finding.message
