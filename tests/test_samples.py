"""The sample logs we ship (sample_logs/): expected numbers read from the files with awk."""

from __future__ import annotations

from pathlib import Path

from rknnprof import Bound, Target, analyze, load

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def test_yolov5s_2x_table_with_cpu_fallback():
    report = analyze(SAMPLES / "yolov5s_rk3588_perf.txt")
    (p,) = report.profiles
    assert len(p.layers) == 89 and p.total_time_us == 28023 == p.reported_total_time_us
    assert p.reported_total_line == 100
    cpu = [(la.id, la.op_type, la.time_us) for la in p.layers if la.target is Target.CPU]
    assert cpu == [
        (1, "InputOperator", 9),
        (60, "Resize", 1873),
        (69, "OutputOperator", 66),
        (79, "OutputOperator", 18),
        (89, "OutputOperator", 6),
    ]
    assert p.versions.runtime == "2.3.2" and p.versions.driver == "0.9.8"
    assert p.platform == "rk3588" and p.platform_basis.startswith("log: target platform")
    resize = next(s for s in p.ranking if s.op_type == "Resize")
    assert (resize.cpu_time_us, resize.npu_time_us) == (1873, 90)
    assert all(la.bound is Bound.CPU for la in p.layers if la.target is Target.CPU)
    assert report.warnings == ()


def test_loglevel4_three_frames_merge_to_medians():
    (p,) = load(SAMPLES / "yolov5s_rk3588_loglevel4_3frames.txt")
    assert p.frames == 3 and len(p.layers) == 89
    layers = {la.id: la for la in p.layers}
    assert (layers[2].time_us, layers[2].time_min_us, layers[2].time_max_us) == (5895, 5772, 5971)
    assert (layers[60].time_us, layers[60].time_min_us, layers[60].time_max_us) == (
        1910,
        1873,
        1947,
    )
    assert p.reported_total_time_us == 27905  # median of 27905, 27777, 28003
    assert len(p.frame_times_us) == 3


def test_v15_mobilenetv2():
    report = analyze(SAMPLES / "mobilenetv2_rk3588_eval_perf_v15.txt")
    (p,) = report.profiles
    assert p.format == "toolkit2-perf-table-v15"
    assert len(p.layers) == 58 and p.total_time_us == 4376 == p.reported_total_time_us
    broken = next(la for la in p.layers if la.id == 23)
    assert broken.line == 30 and broken.full_name == "Conv:conv8_expand"
    assert (broken.ddr_cycles, broken.npu_cycles) == (11056, 4704)
    assert next(la for la in p.layers if la.id == 2).full_name is None
    assert [la.op_type for la in p.layers if la.target is Target.CPU] == [
        "InputOperator",
        "exSoftmax13",
        "OutputOperator",
    ]
    assert [(w.line, w.message) for w in report.warnings] == [
        (31, "row 23 continues on this line (the row was wrapped: read whole)")
    ]


def test_every_corpus_file_analyses_or_says_no_data():
    """No corpus file may crash load/analyze: it yields profiles or a NoProfileDataError."""
    import pytest
    from conftest import CORPUS

    from rknnprof.errors import NoProfileDataError

    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is absent")
    for path in sorted(CORPUS.glob("[0-9]*.txt")):
        try:
            report = analyze(path)
        except NoProfileDataError as e:
            assert str(e).startswith(f"{path}: ") and "\n" not in str(e)
        else:
            assert report.profiles
