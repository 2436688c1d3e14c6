"""The reports read right on the corpus logs that are not plain per-layer tables.

Expected numbers come from reading the logs:

* 19 (ranking, cut short): 8 rows, TotalTime 88001+12220+11523+5791+5231+3097+2876+2621 =
  131360 us; TimeRatio 64.13+8.90+8.40+4.22+3.81+2.26+2.10+1.91 = 95.73 %, so the frame is
  131360 / 0.9573 = 137,219 us; Pow is 88001 us on the CPU, TimeRatio 64.13 %; line 14
  (``Concat 5 2098``) is cut.
* 27 (ranking with a Total row): Resize CPUTime 23583, Total 183003 us -> 12.9 %.
* 38 (doc example, Time column removed): 9 layers, ``Total Operator Elapsed Time(us): 591``,
  Softmax (#8) on the CPU.
* 14 (build-time estimate): 6 complete rows, cycles DDR/NPU/Max; Max column 52317, 51200,
  230400, 51200, 230400, 69266 = 684,783; #14 and #16 have the most (230400).
* 09 (toolkit1): 5 layers, no Target column, 361+920+896+1106+430 = 3713 us.
* 41 (rknn_common_test): 10 runs 2.58..2.85 ms, median (2.64+2.68)/2 = 2.66 ms.
* 20 (rknn_benchmark cut at ``Begin p``): 5 warm-up runs 27.49..27.64 ms, no timed run.
* 29/30 (perf_debug=False totals): 18642 us / 53.64 FPS and 7140 us / 140.06 FPS.
"""

from __future__ import annotations

import re

import pytest
from conftest import corpus_file
from rich.cells import cell_len

from rknnprof import api  # noqa: E402
from rknnprof.analysis.optypes import aggregate, ranking_cut_short, ratio_total_us
from rknnprof.model import Layer, OpTypeStat, Target
from rknnprof.reporters._facts import profile_title, shorten_path
from rknnprof.reporters.table import fit_parts

from .report_samples import render


def report_of(prefix: str):
    return api.analyze([str(corpus_file(prefix))])


def table(prefix: str, width: int = 100) -> str:
    return render("table", report_of(prefix), width=width)


# -- 1. the first line never wraps ---------------------------------------------------------------
@pytest.mark.parametrize("width", [80, 100, 160])
@pytest.mark.parametrize(("prefix", "span"), [("38_", ":1-23"), ("19_", ":2-14"), ("20_", ":1-18")])
def test_first_line_keeps_the_file_name_end_and_the_span(prefix: str, span: str, width: int):
    lines = table(prefix, width).splitlines()
    assert cell_len(lines[0]) <= width
    assert lines[0].endswith(span) or lines[0].endswith(span + ")")
    assert ".txt" in lines[0]
    assert not lines[1].startswith(("txt", "4", ")"))  # no wrapped tail on the second line


def test_shorten_path_cuts_the_middle() -> None:
    path = "/work/shared/corpus/38_runtime-loglevel4-doc-edited_lenet_formfeed.txt"
    short = shorten_path(path, 40)
    assert len(short) == 40 and "…" in short
    assert short.startswith("/work/") and short.endswith("_formfeed.txt")
    assert shorten_path(path, 200) == path


def test_profile_title_fits_with_a_model_name() -> None:
    report = report_of("20_")
    title = profile_title(report.profiles[0], 60)
    assert len(title) == 60 and title.startswith("yolov5s.rknn (") and title.endswith(":1-18)")


# -- 2. ranking-only profiles --------------------------------------------------------------------
def test_cut_short_ranking_uses_the_logs_time_ratio() -> None:
    text = table("19_")
    assert "Time by op type (the log's ranking table, cut short after 8 rows)" in text
    assert "aggregated from the layers" not in text
    assert "rows shown sum to 131.36 ms · frame ~137.22 ms by TimeRatio" in text
    # the finding's share agrees with the TimeRatio printed for Pow (64.13 %)
    assert "saves ~88,001 us (64.1%)" in text and "(67.0%)" not in text
    pow_row = next(line for line in text.splitlines() if line.startswith("Pow "))
    assert "88,001" in pow_row and "64.1%" in pow_row


def test_complete_ranking_keeps_its_total() -> None:
    text = table("27_")
    assert "Time by op type (the log's ranking table)" in text and "cut short" not in text
    assert "total 183.00 ms" in text
    assert "saves ~23,583 us (12.9%)" in text  # 23583 / 183003


def test_ratio_total_and_cut_short_from_the_rows() -> None:
    rows = (
        OpTypeStat("Pow", 19, 88001, 0, 88001, share=0.6413),
        OpTypeStat("Conv", 72, 0, 12220, 12220, share=0.089),
    )
    assert ranking_cut_short(rows)
    assert ratio_total_us(rows) == pytest.approx(100221 / 0.7303)
    complete = (
        OpTypeStat("Conv", 1, 0, 60, 60, share=0.6),
        OpTypeStat("Add", 1, 0, 40, 40, share=0.4),
    )
    assert not ranking_cut_short(complete) and ratio_total_us(complete) == pytest.approx(100)
    assert ratio_total_us((OpTypeStat("Conv", 1, 0, 60, 60),)) is None  # 1.5 layout: no ratio


# -- 3. a skipped row is listed once -------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_skipped_row_listed_once(fmt: str) -> None:
    text = render(fmt, report_of("19_"), width=100)
    assert text.count("2 values for 6 columns") == 1
    assert "1 skipped row" in text and "0 warnings" not in text


# -- 4. layers without times ---------------------------------------------------------------------
def test_layers_without_times_listed_in_table_order() -> None:
    text = table("38_")
    assert "Top 0" not in text and "Time by op type" not in text
    assert "All 9 layers" in text
    assert "per-layer times not in the log (Time column removed)" in text
    assert "total 0.59 ms (log)" in text
    rows = [line.split() for line in text.splitlines() if re.match(r"\s*\d+\s+[A-Z]", line)]
    assert [r[0] for r in rows[:9]] == [str(i) for i in range(1, 10)]
    assert rows[7][:3] == ["8", "Softmax", "CPU"]
    assert "WorkLoad" in text and "48.1%/51.9%/0%" in text


# -- 5. build-time estimates ---------------------------------------------------------------------
def test_estimates_ranked_by_cycles() -> None:
    text = table("14_")
    assert "ESTIMATE: build-time table" in text
    assert "Top 6 of 6 layers by ESTIMATED cycles" in text
    assert "est. 684,783 cycles" in text
    assert "Time by op type" not in text and "Top 0" not in text
    rows = [line.split() for line in text.splitlines() if re.match(r"\s*1\d\s", line)]
    assert {rows[0][0], rows[1][0]} == {"14", "16"} and "230,400" in " ".join(rows[0])
    assert rows[2][0] == "17"  # Concat: 69266 DDR cycles


# -- 6/7. toolkit1: no Target column -------------------------------------------------------------
def test_toolkit1_time_is_not_called_npu() -> None:
    text = table("09_")
    ops = text.split("Time by op type")[1].split("Advice")[0]
    assert "NPU us" not in ops and "CPU us" not in ops and "Time us" in ops
    assert "2,026" in ops  # CONVOLUTION: 920 + 1106
    assert "unknown 100.0%" not in text and "bound:" not in text
    # the table is cut before its Total Time(us) line: 3.71 ms is what the rows shown add to
    assert "rows shown sum to 3.71 ms" in text and "verdict: CUT SHORT" in text
    assert "no Target or cycle columns in this log" in text


def test_aggregate_keeps_unknown_targets_apart() -> None:
    layers = (
        Layer(1, "Conv", Target.UNKNOWN, time_us=30.0),
        Layer(2, "Conv", Target.NPU, time_us=10.0),
        Layer(3, "Conv", Target.CPU, time_us=5.0),
    )
    (conv,) = aggregate(layers, 45.0)
    assert (conv.npu_time_us, conv.cpu_time_us, conv.unknown_time_us) == (10, 5, 30)
    assert conv.total_time_us == 45 and conv.share == 1.0


# -- 8. benchmark and totals-only profiles -------------------------------------------------------
@pytest.mark.parametrize(
    ("prefix", "expected", "note"),
    [
        ("41_", "median 2.66 ms per run · 10 runs 2.58-2.85 ms", "benchmark runs only"),
        (
            "20_",
            "5 warm-up runs 27.49-27.64 ms; the timed runs are not in the log",
            "benchmark runs only",
        ),
        ("29_", "total 18.64 ms · 53.64 FPS", "totals only"),
        ("30_", "total 7.14 ms · 140.06 FPS", "totals only"),
    ],
)
def test_benchmark_and_totals_summaries(prefix: str, expected: str, note: str) -> None:
    text = table(prefix, width=160)
    assert expected in text and note in text
    assert "frames" not in text and "p50" not in text  # the run range says it once


# -- 9. the main corpus logs at 100 columns ------------------------------------------------------
@pytest.mark.parametrize("prefix", ["01_", "36_"])
def test_readable_at_100_columns(prefix: str) -> None:
    lines = table(prefix, 100).splitlines()
    assert all(cell_len(line) <= 100 for line in lines)
    assert lines[1].startswith("verdict: complete")  # the verdict first, then the summary
    assert lines[2].startswith("RK3588") and " · total " in lines[2]
    # (the first convolution takes the UINT8 image: both 8-bit, named together)
    bound = next(i for i, line in enumerate(lines) if line.startswith("bound: "))
    assert "INT8/UINT8 on the NPU" in "\n".join(lines[2:bound])
    shares = [float(m) for m in re.findall(r"(\d+\.\d)%", lines[bound])]
    assert shares == sorted(shares, reverse=True)  # largest first
    top = lines.index("Top 15 of {} layers by time".format(108 if prefix == "01_" else 168))
    # the weak-label key (corpus 01 and 36 have `compute?` rows) sits between title and header
    assert lines[top + 1] == (
        "? = weak label: cycles explain under half its time (the rest: a fused SiLU, fixed costs)"
    )
    assert "Output" in lines[top + 2] and "Bound" in lines[top + 2]
    assert re.search(r" (compute|bandwidth|balanced)\?$", "\n".join(lines[top:]), re.M)


def test_fit_parts_breaks_between_parts_only() -> None:
    parts = [
        "RK3588",
        "rows shown 435 us of the log's 14.15 ms (rows elided)",
        "NPU 98.4% / CPU 1.6%",
    ]
    assert fit_parts(parts, 80) == [
        "RK3588 · rows shown 435 us of the log's 14.15 ms (rows elided)",
        "NPU 98.4% / CPU 1.6%",
    ]
    assert fit_parts(parts, 200) == [" · ".join(parts)]


def test_an_elided_table_shows_op_types_from_the_logs_whole_ranking() -> None:
    """Corpus 37 prints 7 of its layers (``....`` elides the rest) and a complete ranking: the
    op-type view is the ranking's (ConvClip 35 calls 8436 us, 66.79 %; ConvAdd 10 calls 2013 us,
    though no printed layer is a ConvAdd), not the 7 printed layers' sums."""
    report = report_of("37_")
    for fmt in ("table", "markdown", "html"):
        out = render(fmt, report, width=100)
        assert "ranking table; the layer table elides rows" in out, fmt  # (HTML escapes ')
        assert "aggregated from the printed layers" not in out, fmt
    rows = render("table", report, width=100).splitlines()
    convclip = next(line for line in rows if line.startswith("ConvClip "))
    convadd = next(line for line in rows if line.startswith("ConvAdd "))
    assert convclip.split()[1:3] == ["35", "8,436"] and "66.8%" in convclip
    assert convadd.split()[1:3] == ["10", "2,013"] and "15.9%" in convadd


def test_the_split_of_an_elided_table_says_what_it_covers() -> None:
    """Corpus 37: the ranking's NPUTime 8436 + 2093 + 2013 = 12542 us and TotalTime - NPUTime
    61 + 17 + 11 = 89 us of 12631 us: NPU 99.3 % / CPU 0.7 % of the frame (the 7 printed
    layers alone would say CPU 5.9 %). Corpus 03 has no ranking: its split is of the rows shown."""
    text = render("table", report_of("37_"), width=100)
    assert "NPU 99.3% / CPU 0.7% by the ranking" in text
    # the bound needs cycles, which only printed rows have (no cycles here: unknown / CPU)
    assert "bound of the rows shown: unknown 94.1%  CPU 5.9%" in text
    text = render("table", report_of("03_"), width=100)
    assert "NPU 100.0% of the rows shown" in text and "bound of the rows shown: compute" in text
    # (the NPU's data types, read from the rows shown, are said to be theirs)
    assert "INT8 on the NPU in the rows shown" in text
    assert "time by bound of the rows shown (the table elides rows)" in render(
        "html", report_of("03_")
    )


# -- 10. one wording in every format -------------------------------------------------------------
@pytest.mark.parametrize("prefix", ["19_", "38_", "14_", "09_"])
def test_table_markdown_and_html_say_the_same(prefix: str) -> None:
    report = report_of(prefix)
    text, md, html = (render(fmt, report, width=100) for fmt in ("table", "markdown", "html"))
    titles = [line for line in text.splitlines() if line.startswith(("Top ", "All ", "Time by"))]
    assert titles
    for title in titles:
        assert f"### {title}".replace("_", "\\_") in md or title in md
    summary = next(line for line in text.splitlines() if line.startswith(("platform", "RK")))
    assert summary.split(" · ")[-1] in html


# -- HTML: the same views as charts --------------------------------------------------------------
def test_html_for_ranking_estimate_no_time_and_toolkit1() -> None:
    html = render("html", report_of("19_"))
    assert "saves ~88,001 us (64.1%)" in html and "cut short after 8 rows" in html
    html = render("html", report_of("14_"))
    assert "Layer ESTIMATED cycles" in html and html.count('class="layer-bar ') == 6
    assert "Time by op type" not in html and "<th>Time us</th>" not in html  # no empty column
    html = render("html", report_of("38_"))
    assert 'class="layer-bar ' not in html and "per-layer times not in the log" in html
    assert 'class="stack"' not in html  # no time, so no time-by-bound bar
    assert "<th>Workload %</th>" in html and "<th>DDR cyc</th>" not in html
    html = render("html", report_of("09_"))
    legend = html.split('class="ops"')[1]
    assert "target unknown" in legend and ">NPU<" not in legend
    assert 'class="stack"' not in html and "<th>Bound</th>" not in html  # all unknown


def test_a_ranking_cut_before_its_total_row_is_not_called_the_total(tmp_path) -> None:
    """airockchip/rknn-toolkit2 issue 402's ranking (RKNN_LOG_LEVEL=4, blanks collapsed) stops
    after its 16th row, no Total row, no closing rule: CUT. Its rows' ratios add up to nearly
    100 %, yet the summary said ``total 175.63 ms``: it says what the rows shown add to."""
    # (its first four rows, with the ratios they would print on their own: 99.99 %)
    rows = [
        ("Gather", 4, 0, 59192, "41.12"),
        ("LSTM", 4, 0, 54359, "37.76"),
        ("Transpose", 15, 12618, 6833, "13.51"),
        ("exNorm", 4, 0, 10947, "7.60"),
    ]
    prefix = "D RKNN: [19:41:05.496] "
    lines = [
        f"{prefix}Operator Time Consuming Ranking Table",
        f"{prefix}{'-' * 101}",
        f"{prefix}OpType CallNumber CPUTime(us) GPUTime(us) NPUTime(us) TotalTime(us) TimeRatio(%)",
        f"{prefix}{'-' * 101}",
        *(f"{prefix}{op} {n} {cpu} 0 {npu} {cpu + npu} {r}%" for op, n, cpu, npu, r in rows),
    ]
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n")
    text = render("table", api.analyze(path), width=100)
    assert "verdict: CUT SHORT" in text
    assert "rows shown sum to 143.95 ms" in text and "total 143.95 ms" not in text
