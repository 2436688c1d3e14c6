"""A saving's share says what it is a share of: the headline and each finding of a table that
only shows some rows (no total line) say "of the rows shown", as the finding's own text does."""

from __future__ import annotations

from pathlib import Path

from rknnprof.api import analyze
from rknnprof.reporters._facts import biggest_win, saving_text


def test_an_elided_table_without_a_total_line_gives_shares_of_the_rows_shown(corpus) -> None:
    # corpus 03: rows 7-9 between '......' lines, no total line; they sum to 3,973 + 573 +
    # 1,283 = 5,829 us, and RKN070 prices 37.5 % of the 3,973 us ConvExSwish (1,490 us, the
    # model zoo's 26.8 % over the SiLU convs' 71.4 % of a public yolov5s frame): 25.6 % of that
    [profile] = analyze(str(corpus("03_"))).profiles
    assert biggest_win(profile) == (
        "biggest win: RKN070 activation-swap saves ~1,490 us (25.6% of the rows shown), advice 1"
    )


def test_a_whole_table_gives_a_share_of_the_frame(corpus) -> None:
    # corpus 07: a complete table with its total line: no qualifier
    [profile] = analyze(str(corpus("07_"))).profiles
    text = saving_text(profile.findings[0], profile)
    assert text.startswith("saves ~") and text.endswith("%)") and "rows shown" not in text


def test_a_placement_table_says_how_to_get_times(tmp_path) -> None:
    """A build-time table of Target only (toolkit2 2.3.2's, no cycles, no Time column) read
    'per-layer times not in the log (Time column removed)', as if the user had cut it."""
    from rknnprof.reporters._views import layer_table

    lines = [
        "D RKNN: Network Layer Information Table",
        "D RKNN: ID   OpType         DataType Target InputShape OutputShape FullName",
        "D RKNN: 0    InputOperator  FLOAT16  CPU    \\          (1,5)      InputOperator:input",
        "D RKNN: 1    Acos           FLOAT16  CPU    (1,5)      (1,5)      Acos:acos",
        "D RKNN: 2    OutputOperator FLOAT16  CPU    (1,5)      \\          OutputOperator:output",
    ]
    path = tmp_path / "build.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = analyze(str(path)).profiles
    view = layer_table(profile, 15)
    assert view is not None and "Time column removed" not in view.note
    assert view.note == (
        "no per-layer times: a build-time table of where each op runs; time them on the board "
        "with eval_perf(perf_debug=True) or RKNN_LOG_LEVEL=4"
    )


def test_an_op_type_whose_printed_ratio_rounds_to_zero_is_under_a_tenth(corpus) -> None:
    """corpus 27's ranking prints InputOperator 4 us at 0.00% and Slice 42 us at 0.02%: both
    are under 0.1 % of its 183,003 us; the table showed the first as 0.0%, the second <0.1%."""
    from rknnprof.reporters._views import op_table

    [profile] = analyze(str(corpus("27_"))).profiles
    view = op_table(profile)
    assert view is not None
    share = dict(zip((s.op_type for s in profile.ranking), view.shares, strict=True))
    assert 0 < share["InputOperator"] < 0.001 and 0 < share["Slice"] < 0.001


def test_the_headline_says_when_the_biggest_win_is_an_assumption(corpus) -> None:
    # corpus 27 (UNet FP16, ranking only): RKN072 leads at 27,731 us (its two Transposes), an
    # estimate its own card calls an assumption (low confidence); the bundled sample's RKN070
    # rests on a cited figure (medium) and says nothing more
    [profile] = analyze(str(corpus("27_"))).profiles
    assert biggest_win(profile) == (
        "biggest win: RKN072 norm-transposes saves ~27,731 us (15.2%) (low confidence: an "
        "assumption), advice 1"
    )
    [sample] = analyze(str(Path(__file__).resolve().parents[2] / "sample_logs" /
                           "yolov5s_rk3588_perf.txt")).profiles  # fmt: skip
    assert "confidence" not in biggest_win(sample)
