"""Several frames of one model: each frame is held to its own total line as it is read, so the
sum of per-layer medians differing from the frames' total lines is no damage (frames differ in
which layer is slow), and the gates judge the median frame.

Five frames of 10 + 4 x 1,000 + 10 us (4,020 us) against five where a different conv takes
+1,500 us in each (5,520 us a frame, +37.3 %); the per-layer medians sum to 4,020 us in both."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from synthetic_logs import table

from rknnprof.api import load
from rknnprof.model import Coverage
from tests.hostile.helpers import run

BASE = [10, 1000, 1000, 1000, 1000, 10]


def frames(slow: bool) -> list[str]:
    lines = []
    for frame in range(5):
        times = list(BASE)
        if slow:
            times[1 + frame % 4] += 1500
        lines += table(times)
    return lines


def write(tmp_path: Path, name: str, slow: bool) -> str:
    path = tmp_path / name
    path.write_text("\n".join(frames(slow)) + "\n", encoding="utf-8")
    return str(path)


def _check_json(capsys, monkeypatch, log: str, budgets: Path, base: str) -> tuple[int, list]:
    """``check LOG --budgets B --baseline BASE -f json``: (exit code, its verdicts)."""
    code, out, _ = run(
        capsys, monkeypatch, "check", log, "--budgets", str(budgets), "--baseline", base,
        "-f", "json",
    )  # fmt: skip
    return code, json.loads(out)["verdicts"]


def test_frames_slow_in_different_layers_are_a_whole_table(tmp_path: Path) -> None:
    [profile] = load(write(tmp_path, "cur.txt", slow=True), rules=False)
    assert profile.frames == 5
    assert profile.total_time_us == 4020  # the per-layer medians
    assert profile.frame_time_p50_us == 5520  # every frame's own total
    assert profile.validity is not None
    assert profile.validity.coverage is Coverage.COMPLETE, profile.validity


def test_compare_judges_the_median_frame(tmp_path: Path, capsys, monkeypatch) -> None:
    base, cur = write(tmp_path, "base.txt", slow=False), write(tmp_path, "cur.txt", slow=True)
    code, out, err = run(capsys, monkeypatch, "compare", base, cur, "--fail-over", "5")
    assert code == 1, out + err
    assert "4.02 ms → 5.52 ms (+1,500 us, +37.3%)" in out
    assert "damaged" not in out + err


def test_check_fails_the_total_budget_on_the_median_frame(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    base, cur = write(tmp_path, "base.txt", slow=False), write(tmp_path, "cur.txt", slow=True)
    budgets = tmp_path / "b.yaml"
    budgets.write_text(
        "budgets:\n  - metric: total_time_us\n    max_increase: 5%\n"
        "  - metric: total_time_us\n    max: 5000\n",
        encoding="utf-8",
    )
    code, verdicts = _check_json(capsys, monkeypatch, cur, budgets, base)
    assert code == 1
    assert [(v["status"], v["value"], v["baseline_value"]) for v in verdicts] == [
        ("fail", 5520.0, 4020.0),
        ("fail", 5520.0, None),
    ]
    assert verdicts[0]["message"].startswith("total_time_us = 5.52 ms: +1,500 us (+37.3%)")


@pytest.mark.parametrize("slow", [False, True])
def test_a_frame_that_disagrees_with_its_own_total_line_is_still_damage(
    tmp_path: Path, slow: bool
) -> None:
    lines = frames(slow)
    totals = [i for i, line in enumerate(lines) if line.startswith("Total Operator Elapsed")]
    lines[totals[2]] = "Total Operator Elapsed Per Frame Time(us): 9999"
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(str(path), rules=False)
    assert profile.validity is not None
    assert profile.validity.coverage is Coverage.DAMAGED, profile.validity


SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "yolov5s_rk3588_perf.txt"


def test_a_log_cut_inside_the_ranking_keeps_its_whole_table(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """The bundled log cut in the middle of the ranking's Add row (no newline, as a capture
    stopped while printing): its 89 rows and total line are all there, so the table is whole
    and compare judges it; it read 'shows part of the model' and left --fail-over unjudged."""
    text = SAMPLE.read_text(encoding="utf-8")
    cut = text[: text.index("Add                7") + len("Add                7")]
    path = tmp_path / "cut.txt"
    path.write_text(cut, encoding="utf-8")
    [profile] = load(str(path), rules=False)
    assert profile.validity is not None and profile.validity.complete, profile.validity
    assert len(profile.layers) == 89 and profile.total_time_us == 28023
    code, out, err = run(capsys, monkeypatch, "compare", str(SAMPLE), str(path), "--fail-over", "5")
    assert code == 0 and "not judged" not in err and "part of the model" not in out + err
    # a cut inside the table itself is still a cut
    inside = text[: text.index("ConvSigmoid")]
    path.write_text(inside, encoding="utf-8")
    [profile] = load(str(path), rules=False)
    assert profile.validity is not None and not profile.validity.complete


RKLLM = Path(__file__).resolve().parent / "data" / "grammars" / "rkllm_v1_2.txt"


def test_fail_over_on_runs_without_a_frame_time_warns_it_is_not_judged(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """Two RKLLM runs, the second's first generation at a third of the prefill rate and half
    the decode rate (medians of the two generations: decode 10.38 -> 7.75 tokens/s): --fail-over
    has no time per frame to judge, and says so (it passed without a word)."""
    text = RKLLM.read_text(encoding="utf-8")
    for before, after in (
        ("Prefill       250.00           50        5.00                     200.00",
         "Prefill       750.00           50        15.00                    66.67"),
        ("Generate      2000.00          21        95.24                    10.50",
         "Generate      4000.00          21        190.48                   5.25"),
    ):  # fmt: skip
        assert before in text
        text = text.replace(before, after)
    slow = tmp_path / "slow.txt"
    slow.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, monkeypatch, "compare", str(RKLLM), str(slow), "--fail-over", "5")
    assert code == 0
    assert "decode 10.38 → 7.75 tokens/s (-25.3%)" in out
    assert (
        "--fail-over not judged: neither run gives a time per frame (RKLLM: its rates are "
        "compared, not gated)"
    ) in err


def _rknnprof(*args: str, stdin: bytes) -> tuple[int, str, str]:
    import subprocess

    child = subprocess.run(
        [sys.executable, "-m", "rknnprof", *args],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=120,
    )
    return child.returncode, child.stdout.decode(), child.stderr.decode()


def test_a_baseline_on_stdin_is_read(tmp_path: Path) -> None:
    """``--baseline -`` was a missing file (its budgets inconclusive, a regression passed);
    ``compare - CURRENT`` said the file '-' does not exist."""
    base, cur = write(tmp_path, "base.txt", slow=False), write(tmp_path, "cur.txt", slow=True)
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max_increase: 5%\n", "utf-8")
    stdin = Path(base).read_bytes()
    code, out, err = _rknnprof(
        "check", cur, "--budgets", str(budgets), "--baseline", "-", stdin=stdin
    )
    assert code == 1 and "not found" not in err
    assert out.rstrip().endswith("FAIL: 0 pass, 0 warn, 1 fail, 0 inconclusive")
    code, out, _ = _rknnprof("compare", "-", cur, "--fail-over", "5", stdin=stdin)
    assert code == 1 and "4.02 ms → 5.52 ms" in out
    code, _, err = _rknnprof("compare", "-", "-", stdin=stdin)
    assert code == 2 and "BASE and CURRENT cannot both be stdin" in err
    code, _, err = _rknnprof(
        "check", "-", "--budgets", str(budgets), "--baseline", "-", stdin=stdin
    )
    assert code == 2 and "PATH and --baseline cannot both be stdin" in err


def _threads(tmp_path: Path, name: str, runs: list[tuple[int, float]]) -> str:
    """One frame per thread of pid 100, in order: (tid, factor on the layers' times)."""
    from synthetic_logs import threadtime

    lines: list[str] = []
    for n, (tid, factor) in enumerate(runs):
        times = [round(t * factor) for t in (10, 1000, 2000, 3000, 10)]
        lines += threadtime(table(times, model="det"), 100, tid, start_ms=100 * n)
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("order", [[(110, 1.0), (111, 1.3)], [(111, 1.3), (110, 1.0)]])
def test_every_thread_running_the_model_is_judged(tmp_path, capsys, monkeypatch, order) -> None:
    """A model run by two threads (one profile each, logcat keys by pid and tid), the second
    30 % slower, against one thread's baseline: each thread is compared, so the regression
    fails whatever the print order (it passed when the slow thread came second: one thread
    was paired, the other noted as having no model of BASE with its layers)."""
    base = _threads(tmp_path, "base.txt", [(110, 1.0)])
    cur = _threads(tmp_path, "cur.txt", order)
    code, out, err = run(capsys, monkeypatch, "compare", base, cur, "--fail-over", "5")
    assert code == 1
    assert "pid 100 tid 110: total 6.02 ms → 6.02 ms (+0 us, +0.0%)" in out
    assert "pid 100 tid 111: total 6.02 ms → 7.83 ms (+1,806 us, +30.0%)" in out
    assert "has no model of BASE" not in err
    assert "runs the layers of BASE's model (line 2) as another run does" in err


def _benchmark(
    name: str, side: int, ms: float, output: str = "out", command: str | None = None
) -> list[str]:
    """One rknn_common_test run as it prints: versions, tensors, three timed runs, Avg
    (``command``: the pasted command line before it, naming the model file)."""
    return [
        *([f"# ./rknn_benchmark {command}.rknn"] if command else []),
        "rknn_api/rknnrt version: 2.3.2 (429f97ae6b@2025-04-09T09:09:27), driver version: 0.9.8",
        "model input num: 1, output num: 1",
        "input tensors:",
        f"  index=0, name={name}, n_dims=4, dims=[1, {side}, {side}, 3], n_elems=150528, "
        "size=150528, fmt=NHWC, type=INT8, qnt_type=AFFINE, zp=0, scale=0.007812",
        "output tensors:",
        f"  index=0, name={output}, n_dims=2, dims=[1, 1001, 0, 0], n_elems=1001, size=2002, "
        "fmt=UNDEFINED, type=FP16, qnt_type=AFFINE, zp=0, scale=1.000000",
        "custom string: ",
        "Begin perf ...",
        *(f"   {i}: Elapse Time = {ms:.2f}ms, FPS = {1000 / ms:.2f}" for i in range(3)),
        f"Avg Time {ms:.2f}ms, Avg FPS = {1000 / ms:.3f}",
    ]


def test_benchmarks_of_several_models_pair_by_their_input_tensors(
    tmp_path, capsys, monkeypatch
) -> None:
    """Two models benchmarked one after the other, in the other order in CURRENT, the
    mobilenet 90 % slower: paired by order, the mobilenet was held against the yolo and the
    regression passed."""
    base = tmp_path / "base.txt"
    base.write_text(
        "\n".join(_benchmark("mobilenet", 224, 10) + _benchmark("yolo", 640, 20)) + "\n", "utf-8"
    )
    cur = tmp_path / "cur.txt"
    cur.write_text(
        "\n".join(_benchmark("yolo", 640, 19) + _benchmark("mobilenet", 224, 19)) + "\n", "utf-8"
    )
    [first, _] = load(str(base), rules=False)
    assert first.benchmark is not None
    assert first.benchmark.inputs == ("mobilenet [1,224,224,3]",)
    code, out, err = run(capsys, monkeypatch, "compare", str(base), str(cur), "--fail-over", "5")
    assert code == 1
    assert "input mobilenet [1,224,224,3]: total 10.00 ms → 19.00 ms (+9,000 us, +90.0%)" in out
    assert "input yolo [1,640,640,3]: total 20.00 ms → 19.00 ms (-1,000 us, -5.0%)" in out


def test_the_fail_over_error_gives_the_digits_that_tell_it_from_the_limit(
    tmp_path, capsys, monkeypatch
) -> None:
    """+5.01 % read '+5.0% (more than --fail-over 5%)'. 10 + 4 x 1,000 + 10 us is 4,020 us;
    4,222 us is +5.02 %."""
    base = tmp_path / "base.txt"
    base.write_text("\n".join(table(BASE)) + "\n", encoding="utf-8")
    cur = tmp_path / "cur.txt"
    cur.write_text("\n".join(table([10, 1000, 1000, 1000, 1202, 10])) + "\n", encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, "compare", str(base), str(cur), "--fail-over", "5")
    assert code == 1
    assert "total time grew +5.02% (more than --fail-over 5%)" in err


def test_a_fail_over_error_names_the_run_of_an_unnamed_model(tmp_path, capsys, monkeypatch):
    """Two processes printing two unnamed models, the second 30 % slower: the error named
    only the file."""
    from synthetic_logs import interleave, threadtime

    def capture(name: str, factor: float) -> str:
        one = threadtime(table([10, 1000, 2000, 3000, 10], model="a"), 100, 101)
        two = threadtime(
            table([round(t * factor) for t in (10, 500, 500, 10)], model="b"), 200, 201
        )
        path = tmp_path / name
        path.write_text("\n".join(interleave(one, two)) + "\n", encoding="utf-8")
        return str(path)

    code, _, err = run(
        capsys, monkeypatch, "compare", capture("base.txt", 1.0), capture("cur.txt", 1.3),
        "--fail-over", "5",
    )  # fmt: skip
    assert code == 1
    assert "Error: pid 200 tid 201: total time grew +30.0% (more than --fail-over 5%)" in err


def test_a_timed_table_against_a_run_without_one_is_named_so(tmp_path, capsys, monkeypatch):
    """A per-layer table against a benchmark of the same model read 'only 0 of 6 layers align
    (different models?)' and 'frames merged: 1 vs 3'."""
    base = tmp_path / "base.txt"
    base.write_text("\n".join(table(BASE)) + "\n", encoding="utf-8")
    bench = tmp_path / "bench.txt"
    bench.write_text("\n".join(_benchmark("images", 640, 5)) + "\n", encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, "compare", str(base), str(bench))
    assert code == 0
    assert (
        "not like for like: per-layer table: timed layer by layer vs none (an uninstrumented "
        "run: its total only)"
    ) in err
    assert "align by FullName" not in err and "frames merged" not in err


def test_compare_and_check_fit_their_head_line_and_pad_no_lines(
    tmp_path, capsys, monkeypatch
) -> None:
    """At 100 columns compare printed a 221-character first line (two long paths) and padded
    23 lines with blanks to the width; check did the same."""
    monkeypatch.setenv("COLUMNS", "100")
    folder = tmp_path / ("a-long-folder-name-" * 4)
    folder.mkdir()
    base = folder / ("base-run-of-the-model-" * 3 + ".txt")
    base.write_text("\n".join(table(BASE)) + "\n", encoding="utf-8")
    cur = write(folder, "cur-run-of-the-model-" * 3 + ".txt", slow=True)
    budgets = folder / "b.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max_increase: 5%\n", "utf-8")
    for args in (
        ("compare", str(base), cur),
        ("check", cur, "--budgets", str(budgets), "--baseline", str(base)),
    ):
        _, out, _ = run(capsys, monkeypatch, *args)
        lines = out.splitlines()
        assert len(lines[0]) <= 100, lines[0]
        assert "…" in lines[0]
        assert not [line for line in lines if line != line.rstrip()]


def test_benchmarks_pair_by_file_on_one_side_and_tensors_on_the_other(
    tmp_path, capsys, monkeypatch
) -> None:
    """A baseline that pasted its command lines (model files named) against a run that did not:
    'nothing to compare' (exit 2) since the file names and the tensors were one namespace;
    models sharing their input (yolov5 and yolov8 both take images [1,640,640,3]) pair by
    their outputs too."""

    def log(name: str, runs: list[tuple[str, str, float]], named: bool) -> str:
        lines = []
        for model, output, ms in runs:
            lines += _benchmark("images", 640, ms, output, model if named else None)
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return str(path)

    base = log("base.txt", [("yolov5s", "output0", 20), ("yolov8n", "318", 30)], named=True)
    cur = log("cur.txt", [("yolov8n", "318", 30), ("yolov5s", "output0", 31)], named=False)
    code, out, err = run(capsys, monkeypatch, "compare", base, cur, "--fail-over", "5")
    assert code == 1, err
    flat = " ".join(out.split())
    assert "total 20.00 ms → 31.00 ms (+11,000 us, +55.0%)" in flat
    assert "total 30.00 ms → 30.00 ms (+0 us, +0.0%)" in flat
    # (named by the tensors that tell them apart: 'input images …' named both alike)
    assert "tensors images [1,640,640,3] -> output0 [1,1001,0,0]: total 20.00 ms" in flat


def test_a_ranking_cut_on_a_line_boundary_leaves_the_table_whole(tmp_path) -> None:
    """The bundled log cut after a whole ranking row (no Total row, no closing rule), its rows
    adding up to 99.5 %: the op types after the cut were read as 'has layers but is not
    ranked', a damaged table, and compare left a regression unjudged."""
    text = SAMPLE.read_text(encoding="utf-8")
    end = text.index("\n", text.index("MaxPool            3")) + 1
    path = tmp_path / "cut.txt"
    path.write_text(text[:end], encoding="utf-8")
    [profile] = load(str(path), rules=False)
    assert profile.ranking_cut
    assert profile.validity is not None and profile.validity.complete, profile.validity


def _runs(tmp_path: Path, name: str, runs: list[tuple[int, int, str, float]]) -> str:
    """One frame per (pid, tid, model, factor), printed one after the other: model ``det``
    (10 + 1,000 + 2,000 + 3,000 + 10 us) or ``cls`` (10 + 500 + 500 + 10 us)."""
    from synthetic_logs import threadtime

    lines: list[str] = []
    for n, (pid, tid, model, factor) in enumerate(runs):
        base = (10, 1000, 2000, 3000, 10) if model == "det" else (10, 500, 500, 10)
        times = [round(t * factor) for t in base]
        lines += threadtime(table(times, model=model), pid, tid, start_ms=100 * n)
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_two_models_in_several_threads_never_pair_by_order(tmp_path, capsys, monkeypatch):
    """BASE: det in two threads, cls in one; CURRENT: det in one, cls in two, one of them
    twice as slow. The layers paired det with det and cls with one cls, and the rest went to
    order: BASE's second det thread against the slow cls (-68.8 %), whose +100 % was never
    judged."""
    base = _runs(
        tmp_path, "base.txt", [(100, 101, "det", 1), (100, 102, "det", 1), (200, 201, "cls", 1)]
    )
    cur = _runs(
        tmp_path, "cur.txt", [(100, 101, "det", 1), (200, 201, "cls", 2), (200, 202, "cls", 1)]
    )
    code, out, err = run(capsys, monkeypatch, "compare", base, cur, "--fail-over", "5")
    assert code == 1
    assert "pid 200 tid 201: total 1.02 ms → 2.04 ms (+1,020 us, +100.0%)" in out
    assert "-68.8%" not in out and "align by FullName" not in err


def test_check_judges_a_thread_against_every_baseline_thread_of_its_model(
    tmp_path, capsys, monkeypatch
) -> None:
    """A baseline of the model in two threads (6.02 and 7.83 ms), one current thread at 7.83
    ms: check judged it against whichever baseline thread was paired last (print order)."""
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: total_time_us\n    max_increase: 5%\n", "utf-8")
    cur = _runs(tmp_path, "cur.txt", [(100, 101, "det", 1.3)])
    for order in ([(100, 101, "det", 1), (100, 102, "det", 1.3)],
                  [(100, 102, "det", 1.3), (100, 101, "det", 1)]):  # fmt: skip
        base = _runs(tmp_path, "base.txt", order)
        code, verdicts = _check_json(capsys, monkeypatch, cur, budgets, base)
        assert code == 1
        assert sorted((v["status"], v["baseline_value"]) for v in verdicts) == [
            ("fail", 6020.0),
            ("pass", 7826.0),
        ]
        assert {v["model"].rsplit(" vs baseline ", 1)[1] for v in verdicts} == {
            "pid 100 tid 101",
            "pid 100 tid 102",
        }


def test_runs_of_other_models_are_not_judged(capsys, monkeypatch) -> None:
    """yolov5s against mobilenetv2 (the bundled samples: no layer aligns): the total change
    is no regression of either; --fail-over says it cannot judge it (it failed at +84 %
    the other way round)."""
    mobilenet = SAMPLE.parent / "mobilenetv2_rk3588_eval_perf_v15.txt"
    code, out, err = run(
        capsys, monkeypatch, "compare", str(mobilenet), str(SAMPLE), "--fail-over", "5"
    )
    assert code == 0
    assert "— the runs are of other models" in out
    assert "--fail-over not judged: the runs are of other models (their layers barely align)" in err


@pytest.mark.parametrize("lost", [2, 4])
def test_a_frame_that_lost_only_its_total_line_is_no_cut(tmp_path, lost: int) -> None:
    """Five frames whose third (or last) lost its total line: its rows are as many as the
    other frames', which print theirs. It read 'the log may be cut' and left the gate
    unjudged, while a log cut one row earlier (the partial frame dropped) was judged."""
    lines = frames(True)
    totals = [i for i, line in enumerate(lines) if line.startswith("Total Operator Elapsed")]
    del lines[totals[lost]]
    path = tmp_path / "lost.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(str(path), rules=False)
    assert profile.frames == 5 and profile.frame_time_p50_us == 5520
    assert profile.validity is not None and profile.validity.complete, profile.validity


def test_a_single_frame_without_its_total_line_is_still_cut(tmp_path) -> None:
    lines = table(BASE)
    lines = [line for line in lines if not line.startswith("Total Operator Elapsed")]
    path = tmp_path / "one.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(str(path), rules=False)
    assert profile.validity is not None and not profile.validity.complete


def test_medians_that_hide_per_frame_spikes_are_said_so(tmp_path, capsys, monkeypatch) -> None:
    """Frames slow in a different layer each: compare said 'no layer changed' under a +37.3 %
    total, and an npu_time_us budget passed on the medians without a word."""
    base, cur = write(tmp_path, "base.txt", slow=False), write(tmp_path, "cur.txt", slow=True)
    _, out, _ = run(capsys, monkeypatch, "compare", base, cur)
    assert "no layer's median changed, yet the frame total did" in " ".join(out.split())
    budgets = tmp_path / "b.yaml"
    budgets.write_text("budgets:\n  - metric: npu_time_us\n    max: 4500\n", "utf-8")
    code, out, _ = run(capsys, monkeypatch, "check", cur, "--budgets", str(budgets), "-f", "json")
    [verdict] = json.loads(out)["verdicts"]
    assert verdict["status"] == "pass" and code == 0
    assert "they sum to 4.02 ms, the median frame takes 5.52 ms" in verdict["message"]


def test_one_thread_against_several_of_the_baselines_is_named_by_theirs(
    tmp_path, capsys, monkeypatch
) -> None:
    """One current thread against the baseline's two: each comparison was named 'pid 100 tid
    101' and 'pid 100 tid 102' though CURRENT has no tid 102; it is BASE's run that differs."""
    base = _runs(tmp_path, "base.txt", [(100, 101, "det", 1), (100, 102, "det", 1.3)])
    cur = _runs(tmp_path, "cur.txt", [(100, 101, "det", 1.3)])
    code, out, _ = run(capsys, monkeypatch, "compare", base, cur, "--fail-over", "5")
    assert code == 1
    assert "against BASE's pid 100 tid 101: total 6.02 ms → 7.83 ms" in out
    assert "against BASE's pid 100 tid 102: total 7.83 ms → 7.83 ms" in out


def _bench_log(tmp_path: Path, name: str, runs: list[tuple[str | None, float]]) -> str:
    """Benchmarks of models that print the same tensors, each named by its file or not."""
    lines: list[str] = []
    for model, ms in runs:
        lines += _benchmark("images", 640, ms, "output0", model)
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_a_renamed_model_file_pairs_by_what_is_left(tmp_path, capsys, monkeypatch) -> None:
    """Two models, one file renamed (yolov8s -> yolov8s_v2) and 50 % slower: the names paired
    yolov5s and stopped; yolov8s was 'only in BASE' and its +50 % never judged."""
    base = _bench_log(tmp_path, "base.txt", [("yolov5s", 20), ("yolov8s", 30)])
    cur = _bench_log(tmp_path, "cur.txt", [("yolov5s", 20), ("yolov8s_v2", 45)])
    code, out, _ = run(capsys, monkeypatch, "compare", base, cur, "--fail-over", "5")
    assert code == 1
    assert "yolov8s_v2.rknn: total 30.00 ms → 45.00 ms (+15,000 us, +50.0%)" in out


def test_models_nothing_tells_apart_are_not_paired_by_order(tmp_path, capsys, monkeypatch):
    """yolov5s and yolov5m named in BASE, unnamed and in the other order in CURRENT, with the
    same tensors: order held each against the other (+150 %, a clean run failed)."""
    base = _bench_log(tmp_path, "base.txt", [("yolov5s", 20), ("yolov5m", 50)])
    cur = _bench_log(tmp_path, "cur.txt", [(None, 50), (None, 20)])
    code, _, err = run(capsys, monkeypatch, "compare", base, cur, "--fail-over", "5")
    assert code == 2
    assert "nothing to compare: the models cannot be paired: BASE names them" in err
