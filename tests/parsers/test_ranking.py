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


_RULE = "-" * 99
_HEAD = (
    "OpType             CallNumber   CPUTime(us)  GPUTime(us)  NPUTime(us)  TotalTime(us)  "
    "TimeRatio(%)  "
)


def _ranking_text(total_row: str) -> str:
    """A toolkit2 2.3.2 ranking of a 1.18 s frame (a public SigLIP ViT profile's rows): the
    runtime prints its Total row's times with ``%g``, six significant digits."""
    rows = [
        "exSDPAttention     12           0            0            494854       494854         41.83%        ",
        "ConvAdd            25           0            0            292962       292962         24.76%        ",
        "Conv               40           0            0            268138       268138         22.66%        ",
        "ConvExGelu         12           0            0            87159        87159          7.37%         ",
        "exNorm             25           0            0            34664        34664          2.93%         ",
        "Reshape            52           0            0            3178         3178           0.27%         ",
        "Transpose          4            0            0            1582         1582           0.13%         ",
        "Add                1            0            0            342          342            0.03%         ",
        "Split              1            0            0            247          247            0.02%         ",
        "OutputOperator     1            4            0            0            4              0.00%         ",
        "InputOperator      1            2            0            0            2              0.00%         ",
    ]
    title = "                                 Operator Time Consuming Ranking Table            "
    lines = [_RULE, title, _RULE, _HEAD, _RULE, *rows, _RULE, total_row, _RULE]
    return "\n".join(lines) + "\n"


def test_a_total_row_in_exponent_form_is_read(tmp_path):
    """``Total  6  0  1.18313e+06  1.18313e+06``: the times from 1 s on in exponent form, six
    digits, are values (they were a skipped row), and their rounding (5 us here) is no
    disagreement with the rows' sum (1,183,132 us). A Total off by more than that is one."""
    path = tmp_path / "log.txt"
    path.write_text(
        _ranking_text(f"{'Total':<19}{'':<13}{'6':<13}{'0':<13}{'1.18313e+06':<13}1.18313e+06   ")
    )
    r = ranking(path)
    assert not r.skipped and not r.notes
    assert (r.total.cpu_time_us, r.total.npu_time_us, r.total.total_time_us) == (
        6,
        1183130,
        1183130,
    )
    assert len(r.stats) == 11
    path.write_text(
        _ranking_text(f"{'Total':<19}{'':<13}{'6':<13}{'0':<13}{'1.18303e+06':<13}1.18303e+06   ")
    )
    r = ranking(path)
    assert not r.skipped
    assert [m for _, m in r.notes] == [
        "ranking Total row: NPUTime 1183030 us but the rows above sum to 1183126 us",
        "ranking Total row: TotalTime 1183030 us but the rows above sum to 1183132 us",
    ]


def test_a_total_row_that_disagrees_with_its_rows_is_not_the_frame(tmp_path):
    """A damaged Total row (``0e+00``, ``2e+06`` for rows of 1,183,132 us) was the profile's
    total: ``total 0.00 ms`` (a budget passed) or 2,000 ms. It is warned about, and the frame
    is the rows' sum; a Total row within its six printed digits is kept as printed."""
    from rknnprof.api import analyze

    for printed in ("0e+00", "2e+06", "1.18303e+06"):
        path = tmp_path / "log.txt"
        row = f"{'Total':<19}{'':<13}{'6':<13}{'0':<13}{printed:<13}{printed}   "
        path.write_text(_ranking_text(row))
        report = analyze(str(path))
        [profile] = report.profiles
        assert profile.total_time_us == 1183132, printed
        assert any("ranking Total row: TotalTime" in w.message for w in report.warnings)
    path.write_text(
        _ranking_text(f"{'Total':<19}{'':<13}{'6':<13}{'0':<13}{'1.18313e+06':<13}1.18313e+06   ")
    )
    [profile] = analyze(str(path)).profiles
    assert profile.total_time_us == 1183130
