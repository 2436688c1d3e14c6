"""RKN071's fix is another input size: ``compare`` judges it on the whole frame, where every other
finding of the pair cannot be told (rknnprof/compare/advice.py, ``Rule.fix_changes``).

CURRENT logs are built from corpus 01 (yolov8n at 1920x1920 on one RK3588 core): every shape's
height and width of 60 or more divided by 3 (1920 -> 640, 960 -> 320 ... 60 -> 20: 1/9 of the
pixels), every NPU row's time divided by ``shrink``, the CPU rows kept, the total line set to the
new sum and the ranking dropped (the fixed model would print its own). Expected verdicts follow
from the arithmetic on the log: BASE's frame is 128,441 us, its 98 NPU rows 127,303 us, and
RKN071 promises 8/9 of those, 113,158 us (±40%, medium confidence).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rknnprof.api import analyze
from rknnprof.compare import compare_reports
from tests.compare.log_edits import rewrite
from tests.conftest import CORPUS

LOG01 = CORPUS / "01_toolkit2-rt-perfdetail_yolov8n-1920_rk3588_single-core.txt"
pytestmark = pytest.mark.skipif(not LOG01.is_file(), reason="corpus folder is absent")

FRAME_US, NPU_US, CPU_US = 128441, 127303, 1138
PROMISE_US = NPU_US * 8 / 9
_ROW = re.compile(r"^(\d+)(\s+)(\S+)(\s+)(\S+)(\s+)(CPU|NPU)")
_SHAPE = re.compile(r"\((\d+),(\d+),(\d+),(\d+)\)")


def _third(m: re.Match[str]) -> str:
    n, c, h, w = (int(g) for g in m.groups())
    if h >= 60 and w >= 60:
        h, w = h // 3, w // 3
    return f"({n},{c},{h},{w})"


def shrunk(shrink: float) -> str:
    """Corpus 01 at a third of the height and width, NPU rows ``shrink`` times faster."""
    lines, times = [], {}
    for line in LOG01.read_text(encoding="utf-8").splitlines():
        row = _ROW.match(line)
        if row:
            line = _SHAPE.sub(_third, line)
            if row.group(7) == "NPU":  # ID OpType DataType Target In Out Cycles Time
                times[int(row.group(1))] = (None, int(line.split()[7]) / shrink)
        lines.append(line)
    return rewrite("\n".join(lines) + "\n", times)


@pytest.fixture(scope="module")
def before():
    return analyze([str(LOG01)])


def _outcomes(tmp_path: Path, before, text: str):
    path = tmp_path / "after.txt"
    path.write_text(text, encoding="utf-8")
    comp = compare_reports(before, analyze([str(path)])).comparisons[0]
    return {o.code: o for o in comp.advice}, comp


def test_the_shrunk_log_is_a_complete_table_at_640(tmp_path, before):
    path = tmp_path / "after.txt"
    path.write_text(shrunk(9.0), encoding="utf-8")
    profile = analyze([str(path)]).profiles[0]
    assert profile.validity is not None and profile.validity.complete, profile.validity
    assert profile.layers[0].output_shapes[0] == (1, 3, 640, 640)


def test_the_promise_is_eight_ninths_of_the_npu_rows(before):
    [found] = [f for f in before.profiles[0].findings if f.code == "RKN071"]
    assert found.est_saving_us == pytest.approx(PROMISE_US)


def test_resolution_at_the_pixels_rate_is_delivered_on_the_frame(tmp_path, before):
    outcomes, comp = _outcomes(tmp_path, before, shrunk(9.0))
    assert any(
        d.startswith("input shape: (1,3,1920,1920) vs (1,3,640,640)") for d in comp.differences
    )
    resolution = outcomes["RKN071"]
    assert resolution.verdict == "delivered"
    # the frame lost 8/9 of the NPU rows' time (each row rounded to 1 us); the CPU rows stayed
    assert resolution.measured_us == pytest.approx(PROMISE_US, abs=100)
    assert resolution.delivered_share == pytest.approx(1.0, abs=0.01)
    assert "the whole frame (input shape is the fix): 128,441 us in BASE" in resolution.reason
    # every other finding rests on layers that changed shape: cannot tell, and says why
    others = [o for code, o in outcomes.items() if code != "RKN071"]
    assert others and {o.verdict for o in others} == {"cannot-tell"}
    assert all(
        "not like for like: input shape: (1,3,1920,1920) vs (1,3,640,640)" in o.reason
        for o in others
    )


def test_resolution_that_bought_half_its_promise_is_partly(tmp_path, before):
    # NPU rows 1.8x faster instead of 9x: 127,303 x (1 - 1/1.8) = 56,579 us, 50% of the promise
    outcomes, _ = _outcomes(tmp_path, before, shrunk(1.8))
    resolution = outcomes["RKN071"]
    assert resolution.verdict == "partly"
    assert resolution.delivered_share == pytest.approx(0.5, abs=0.01)


def test_resolution_against_a_cut_table_cannot_tell(tmp_path, before):
    # the frame is judged only where everything but the input shape is like for like: CURRENT
    # cut after its row 100 (no total line) shows part of the model
    lines = shrunk(9.0).splitlines()
    cut = next(n for n, line in enumerate(lines) if line.startswith("101 "))
    outcomes, _ = _outcomes(tmp_path, before, "\n".join(lines[:cut]) + "\n")
    resolution = outcomes["RKN071"]
    assert resolution.verdict == "cannot-tell"
    assert "not like for like: CURRENT shows part of the model" in resolution.reason


def test_an_unchanged_run_leaves_resolution_not_made(tmp_path, before):
    outcomes, _ = _outcomes(tmp_path, before, LOG01.read_text(encoding="utf-8"))
    assert outcomes["RKN071"].verdict == "not-made"
