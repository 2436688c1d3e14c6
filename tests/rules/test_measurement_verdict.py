"""The rules read the verdict (``Profile.validity``): nothing priced from a run that is not a
measurement or from a stalled layer, and the first finding says so and what to do."""

from __future__ import annotations

from pathlib import Path

import pytest
from synthetic_logs import cycles_row, debugger_capture, table_of

from rknnprof.api import load
from rknnprof.model import Profile, Severity


def advised(tmp_path: Path, lines: list[str], platform: str | None = None) -> Profile:
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(str(path), platform=platform)
    return profile


def test_a_debugger_capture_prices_nothing_and_says_to_remeasure_first(tmp_path: Path) -> None:
    profile = advised(tmp_path, debugger_capture())
    assert profile.findings
    assert all(f.est_saving_us == 0 and f.saving_by_layer == () for f in profile.findings)
    assert profile.potential_saving_us == 0
    first = profile.findings[0]
    assert first.code == "RKN051" and first.severity is Severity.ERROR
    assert "not a measurement" in first.message
    assert "without the debugger and the tensor dumps" in first.fix
    assert "scaling_frequency.sh" in first.fix and "rknn_benchmark" in first.fix


def test_the_ddr_clock_is_a_finding_and_rkn050_no_longer_says_no_frequency(
    tmp_path: Path,
) -> None:
    profile = advised(tmp_path, debugger_capture())
    assert any(f.code == "RKN051" and "DDR at 528 MHz" in f.message for f in profile.findings)
    assert not any("no CPU/NPU/DDR frequency list" in f.message for f in profile.findings)


def test_a_stalled_layer_is_not_priced_and_the_first_finding_says_so(tmp_path: Path) -> None:
    # a conv whose 20,000 cycles explain 20 us of 2,000 us at 1 GHz, beside a conv of
    # 900 us its cycles explain: only the second may be priced
    rows = [
        cycles_row(1, "ConvRelu", 12000, 20000, 2000, "Conv:/stalled/Conv"),
        cycles_row(2, "ConvRelu", 300000, 900000, 1000, "Conv:/slow/Conv"),
    ]
    profile = advised(tmp_path, table_of(rows, 3000), platform="rk3588")
    assert profile.validity is not None and profile.validity.stalled_layer_ids == (1,)
    assert all(1 not in dict(f.saving_by_layer) for f in profile.findings)
    first = profile.findings[0]
    assert first.code == "RKN051" and "stalled" in first.message and first.layer_ids == (1,)


PRICE_WORDS = ("could save", "that cuts", "would take about", "NPU estimate", "could cut about")
"""How the rules' messages state what a change would save or cost (``rules._util.claim``)."""


@pytest.mark.parametrize("fp16", [False, True], ids=["int8", "fp16"])
def test_no_finding_of_a_debugger_capture_states_a_saving(tmp_path: Path, fp16: bool) -> None:
    # the capture as it is (RKN010's DDR ceiling, RKN030's multi-core cut) and with its conv in
    # FP16 (RKN002 fires instead of RKN010): the conv's 112 ms are the debugger's, so "INT8
    # could save up to 56,000 us" is fiction
    lines = [
        line.replace("INT8     NPU", "FLOAT16  NPU")
        if fp16 and "Conv:/conv1/Conv" in line
        else line
        for line in debugger_capture()
    ]
    profile = advised(tmp_path, lines)
    codes = {f.code for f in profile.findings}
    assert {"RKN051", "RKN030", "RKN002" if fp16 else "RKN010"} <= codes
    for finding in profile.findings:
        if finding.code == "RKN051":
            continue
        assert not any(word in finding.message for word in PRICE_WORDS), finding.message
        assert "saving above" not in finding.fix, finding.fix  # (RKN030's fix pointed to one)
    seen = "1 FLOAT16 NPU layer(s) take 112,000 us" if fp16 else "layer(s) take 112,000 us"
    assert any(seen in f.message for f in profile.findings)  # what the log shows stays


def test_a_stalled_layer_is_left_out_of_the_saving_a_message_states(tmp_path: Path) -> None:
    # two FP16 convs: #1's 20,000 cycles explain 20 us of its 2,000 us (stalled), #2's explain
    # 900 of 1,000 us; INT8's 50 % may be claimed on #2 only: 500 us, in the text as in the
    # figure (the text said 1,500 us while the figure was 500)
    rows = [
        cycles_row(i, "ConvRelu", ddr, npu, t, name).replace("INT8     NPU", "FLOAT16  NPU")
        for i, ddr, npu, t, name in (
            (1, 12000, 20000, 2000, "Conv:/stalled/Conv"),
            (2, 300000, 900000, 1000, "Conv:/slow/Conv"),
        )
    ]
    profile = advised(tmp_path, table_of(rows, 3000), platform="rk3588")
    fp16 = next(f for f in profile.findings if f.code == "RKN002")
    assert fp16.est_saving_us == 500 and dict(fp16.saving_by_layer) == {2: 500}
    assert "INT8 could save up to 500 us" in fp16.message
    assert "stalled layer(s) #1 not priced (RKN051)" in fp16.message


def test_rkn030_leaves_a_stalled_layer_out_and_names_it(tmp_path: Path) -> None:
    # one conv stalled (20,000 cycles for 6,000 us at 1 GHz) among six whose cycles explain
    # their 1,000 us each, on one of the RK3588's three cores
    rows = [cycles_row(1, "ConvRelu", 12000, 20000, 6000, "Conv:/stalled/Conv")] + [
        cycles_row(i, "ConvRelu", 300000, 900000, 1000, f"Conv:/c{i}/Conv") for i in range(2, 8)
    ]
    profile = advised(tmp_path, table_of(rows, 12000), platform="rk3588")
    cores = next(f for f in profile.findings if f.code == "RKN030")
    assert 1 not in dict(cores.saving_by_layer) and set(dict(cores.saving_by_layer)) == set(
        range(2, 8)
    )
    assert "stalled layer(s) #1 not priced (RKN051)" in cores.message
    assert "only ConvRelu split" in cores.message and " 0 us" not in cores.message
