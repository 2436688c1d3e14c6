"""Ranking tables: expected rows read from the logs."""

from __future__ import annotations

from rknnprof.inputs.lines import read_lines
from rknnprof.parsers import scan
from rknnprof.parsers.events import RankingEvent


def ranking(path) -> RankingEvent:
    with open(path, "rb") as f:
        found = [e for e in scan(read_lines(f)) if isinstance(e, RankingEvent)]
    assert len(found) == 1
    return found[0]


def test_01_no_total_row(corpus):
    r = ranking(corpus("01_"))
    assert r.total is None
    assert [s.op_type for s in r.stats][:3] == ["ConvExSwish", "Concat", "Split"]
    out = next(s for s in r.stats if s.op_type == "OutputOperator")
    assert (out.calls, out.cpu_time_us, out.npu_time_us, out.total_time_us) == (9, 1134, 0, 1134)
    assert abs(out.share - 0.0088) < 1e-9
    assert len(r.stats) == 11 and sum(s.calls for s in r.stats) == 108


def test_07_total_row(corpus):
    r = ranking(corpus("07_"))
    assert len(r.stats) == 9
    assert (
        r.total.cpu_time_us,
        r.total.gpu_time_us,
        r.total.npu_time_us,
        r.total.total_time_us,
    ) == (108, 0, 14370, 14478)


def test_19_cut_last_row_is_skipped(corpus):
    r = ranking(corpus("19_"))
    assert len(r.stats) == 8
    pow_ = r.stats[0]
    assert (pow_.op_type, pow_.calls, pow_.cpu_time_us, pow_.share) == ("Pow", 19, 88001, 0.6413)
    assert [s.line for s in r.skipped] == [14]


def test_27_28_43(corpus):
    r27 = ranking(corpus("27_"))
    resize = next(s for s in r27.stats if s.op_type == "Resize")
    assert (resize.cpu_time_us, resize.npu_time_us) == (23583, 0)
    assert (r27.total.cpu_time_us, r27.total.total_time_us) == (23690, 183003)
    r28 = ranking(corpus("28_"))
    assert any(s.op_type == "BatchNormalization" and s.total_time_us == 761 for s in r28.stats)
    assert r28.total.total_time_us == 13578
    r43 = ranking(corpus("43_"))  # trailing blanks stripped
    reshape = next(s for s in r43.stats if s.op_type == "Reshape")
    assert (reshape.calls, reshape.cpu_time_us, reshape.npu_time_us, reshape.total_time_us) == (
        5,
        1065,
        7,
        1072,
    )
    assert r43.total.total_time_us == 131201 and len(r43.stats) == 16


def test_15_layout_without_gpu_and_percent(corpus):
    r = ranking(corpus("04_"))
    assert [s.op_type for s in r.stats] == [
        "ConvRelu",
        "ConvAdd",
        "Conv",
        "exDataConvert",
        "Softmax",
        "OutputOperator",
        "InputOperator",
    ]
    assert (r.stats[0].calls, r.stats[0].npu_time_us, r.stats[0].share) == (36, 9338, 0.66)
    assert r.stats[0].gpu_time_us == 0
    soft = next(s for s in ranking(corpus("05_")).stats if s.op_type == "exSoftmax13")
    assert (soft.cpu_time_us, soft.npu_time_us) == (387, 0)


def test_37_elided_columns_derive_cpu_time(corpus):
    r = ranking(corpus("37_"))
    assert len(r.stats) == 6
    reshape = next(s for s in r.stats if s.op_type == "Reshape")
    assert (reshape.calls, reshape.npu_time_us, reshape.total_time_us, reshape.cpu_time_us) == (
        1,
        0,
        61,
        61,
    )
    assert any("CPU time" in m for _, m in r.notes)
