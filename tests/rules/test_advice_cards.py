"""Advice cards: what rknnprof tells the user on every corpus log with per-layer rows, read as
an RKNPU engineer would (issue #17). Each card is the codes in rank order, each finding's
saving range and the words of its fix that carry the change. Figures come from the logs:

* 01 (yolov8n 1920, one core): ranking Add 3,156 us, Concat 11,349 us, Split 4,818 us (8 Splits,
  each after its C2f cv1 conv; the two half-convs remove (4c - Cin) / 4c of each: 1,647 us).
  Multi-core latency at the corpus speed-ups: 3156 x (1 - 1/1.65) + 11349 x (1 - 1/1.56) = 1243
  + 4074 = 5,317 us, plus its INT8 plain Convs at the per-cycle speed-up of the public
  one-core/three-core yolov8n pair (894 us) -- not 127 ms x 2/3.
* 01 input (1,3,1920,1920), 9x 640x640: its 98 NPU rows take 128,441 - 1,134 - 4 = 127,303 us
  (the frame less the CPU's Output/InputOperators), 8/9 of it is 113,158 us.
* 07 (yolov5n, core 0): Concat 999, Add 415: 359 + 163 = 522 us, plus the UINT8 stem Conv (810
  us, 409,600 cycles: 1.77x) 352 us.
* 08 (FusionNet FP16, core_mask 1): one frame, and five layers at least twice a same-shape,
  same-cycle twin: #26 Concat 8445 vs #38 3526, #24 Concat 5672 vs #36 2321, #29 Add 4037 vs #41
  1835, #32 LeakyRelu 4104 vs #44 1921, #22 LeakyRelu 2977 vs #34 1388 (re-measure); every saving
  counts them at the twin's time, 4919 + 3351 + 2202 + 2183 + 1589 = 14,244 us less. 49 FP16 NPU
  layers, 163,602 us, at the twins' times 163,602 - 14,244 = 149,358 us: half is 74,679 us (not
  81,801). Multi-core latency only for the Adds and Concats not at the DDR's rate: Adds #10 2131,
  #19 2093 (4,224 us) and Concats #5 2837, #7 4277, #14 2884, #16 4135 (14,133 us): 4224 x (1 -
  1/1.65) + 14133 x (1 - 1/1.56) = 1664 + 5073 = 6,737 us; #36, #38, #41, #45 move 11.6-11.9 GB/s
  (bandwidth-bound), and so do #24, #26, #29 at their twins' times: none (before: #24, #26, #29
  at their one-frame times, 13,395 us). Standalone LeakyRelu after ConvAdd #22, #32, #34, #44 at
  1388 + 1921 + 1388 + 1921 = 6,618 us (their one-frame 10,390 us). Its 9 Concats take
  2837 + 4277 + 2884 + 4135 + 5672 + 8445 + 2321 + 3526 + 3307 = 37,404 us (22.8%), 29,134 us
  with #24 and #26 at their twins' 2,321 and 3,526 us: a copy each, no change the log can price
  (info, after the priced findings).
* 36 (yolo26n, core 0): Concat 1645, Add 580: 591 + 228 = 819 us (plus 71 us of INT8 plain
  convs); 9 C3k2 Splits 590 us, 206.75 us of which the two half-convs remove (#60, #148 follow a
  Reshape: not C2f); two exSDPAttention 1338 + 1,336 us, no latency claim.
* 03 (three cores, elided): #7 ConvExSwish 3,973 us on core 0 alone under the mask.
* 04: Softmax on the NPU only in the ranking (rows elided), 248 us.
* 05: exSoftmax13 on the CPU only in the ranking, 387 us. 37: #56 Reshape on the CPU, 61 us.
  38: #8 Softmax on the CPU, no time printed.

None of the review's false positives may appear: no RKN011 (RGB stem, 16-channel convs, head
outputs, depthwise), no RKN010 on FP16 layers, no "Focus", "fold", "widen", no pooling/Pad fix,
no 3x multi-core latency, no "imbalance" on a single-core run.
"""

from __future__ import annotations

import pytest

from rknnprof.api import load
from tests.conftest import corpus_file

# prefix -> [(code, (min us, max us), words of the fix)]; RKN050 (the profiling caveat, 0 us)
# closes every card (the measurement caveats come after the advice of equal saving they qualify)
CARDS: dict[str, list[tuple[str, tuple[float, float], str]]] = {
    "01_": [
        ("RKN071", (113157, 113159), "export the model at 640x640"),
        ("RKN070", (35000, 45000), "ReLU"),
        ("RKN030", (6210, 6212), "one context per core"),
        ("RKN020", (1646, 1648), "two convs that each produce one half"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
    "03_": [
        ("RKN070", (500, 2000), "ReLU"),
        ("RKN030", (0, 0), "one context per core"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
    "04_": [
        ("RKN060", (248, 248), "before the softmax/decode"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
    "05_": [
        ("RKN001", (387, 387), "end the exported model before the softmax"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
    "07_": [
        ("RKN070", (3000, 4500), "ReLU"),
        ("RKN030", (873, 876), "one context per core"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
    "08_": [
        ("RKN002", (74679, 74679), "quantized_dtype='w8a8'"),
        ("RKN030", (6737, 6738), "one context per core"),
        ("RKN023", (6618, 6618), "ReLU"),
        ("RKN073", (0, 0), "fewer or narrower dense connections"),
        ("RKN050", (0, 0), "rknn_benchmark"),
        ("RKN050", (0, 0), "re-measure"),
    ],
    "09_": [("RKN050", (0, 0), "rknn_benchmark")],
    "10_": [
        ("RKN070", (600, 1000), "ReLU"),
        ("RKN020", (54.5, 54.5), "two convs that each produce one half"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
    "11_": [("RKN070", (150, 500), "ReLU"), ("RKN050", (0, 0), "rknn_benchmark")],
    "14_": [],  # a build-time estimated table: no advice is priced from estimates
    "36_": [
        ("RKN070", (5000, 7500), "ReLU"),
        ("RKN030", (889, 891), "one context per core"),
        ("RKN020", (206.75, 206.75), "two convs that each produce one half"),
        ("RKN061", (0, 0), "one context per core"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
    "37_": [
        ("RKN001", (61, 61), "end the exported model before this reshape"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
    "38_": [
        ("RKN001", (0, 0), "end the exported model before the softmax"),
        ("RKN050", (0, 0), "rknn_benchmark"),
    ],
}
FALSE_POSITIVES = (
    "Focus",
    "space-to-depth",
    "fold it into",
    "widen",
    "strided Conv",
    "regular (or grouped) conv",
    "imbalance",
    "up to 3x the latency",
)


def _profile(prefix: str):
    [profile] = [p for p in load(corpus_file(prefix)) if p.layers]
    return profile


@pytest.mark.parametrize("prefix", sorted(CARDS))
def test_advice_card(prefix: str) -> None:
    findings = _profile(prefix).findings
    card = CARDS[prefix]
    assert [f.code for f in findings] == [code for code, _, _ in card]
    for finding, (code, (low, high), words) in zip(findings, card):
        assert low - 0.5 <= finding.est_saving_us <= high + 0.5, (code, finding.est_saving_us)
        assert words in finding.fix, (code, finding.fix)
        text = finding.message + " " + finding.fix
        assert not any(fp in text for fp in FALSE_POSITIVES), (code, text)
    assert not [f for f in findings if f.code in ("RKN010", "RKN011")]


def test_every_corpus_log_with_layers_has_a_card() -> None:
    from rknnprof.errors import RknnprofError
    from tests.conftest import CORPUS

    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is absent (set RKNNPROF_CORPUS)")
    with_layers = set()
    for path in CORPUS.glob("*.txt"):
        try:
            profiles = load(path)
        except RknnprofError:
            continue
        if any(p.layers for p in profiles):
            with_layers.add(path.name[:3])
    assert with_layers == set(CARDS)


@pytest.mark.parametrize("prefix", ["01_", "07_", "36_"])
def test_activation_swap_comes_first_on_silu_models(prefix: str) -> None:
    assert "RKN070" in [f.code for f in _profile(prefix).findings[:2]]


def test_int8_comes_first_on_the_fp16_model() -> None:
    first = _profile("08_").findings[0]
    assert first.code == "RKN002" and first.severity.value == "error"


@pytest.mark.parametrize("prefix", ["01_", "07_", "08_", "36_"])
def test_idle_cores_are_throughput_not_latency(prefix: str) -> None:
    [cores] = [f for f in _profile(prefix).findings if f.code == "RKN030"]
    assert cores.throughput_gain is not None and cores.throughput_gain.factor == 3
    assert "1 of rk3588's 3 NPU cores" in cores.message
    assert "Add 1.65x, Concat 1.56x" in cores.basis
