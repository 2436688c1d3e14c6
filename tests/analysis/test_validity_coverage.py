"""Coverage of ``Profile.validity``: one case per class, each log written from the grammar
(corpus/FORMATS.md: the 2.x table, the ranking, the toolkit1 table, the eval_perf CSV side
file, the build-time table), whole and then damaged the way real pastes and captures are."""

from __future__ import annotations

from pathlib import Path

import pytest
from synthetic_logs import RULE, layer_row, table

from rknnprof.api import load
from rknnprof.model import Coverage, Profile
from rknnprof.reporters._views import layer_table

TIMES = [10, 500, 300, 200, 20]
"""InputOperator, three convolutions, OutputOperator: 1,030 us."""


def profile_of(tmp_path: Path, lines: list[str]) -> Profile:
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(str(path), rules=False)
    assert profile.validity is not None
    return profile


def coverage(tmp_path: Path, lines: list[str]) -> Coverage:
    validity = profile_of(tmp_path, lines).validity
    assert validity is not None
    return validity.coverage


def test_a_whole_table_is_complete(tmp_path: Path) -> None:
    profile = profile_of(tmp_path, table(TIMES))
    assert profile.validity is not None and profile.validity.complete
    assert "5 rows" in profile.validity.coverage_reason


def test_elision_lines_make_it_elided(tmp_path: Path) -> None:
    t = table(TIMES)
    lines = [*t[:6], "......", *t[8:]]  # rows 2 and 3 replaced by the author's ``......``
    assert coverage(tmp_path, lines) is Coverage.ELIDED


def test_ids_that_jump_are_a_documents_gap(tmp_path: Path) -> None:
    t = table(TIMES)
    rows = [
        layer_row(1, "InputOperator", 10, "in", "CPU"),
        layer_row(2, "ConvRelu", 500, "c2"),
        layer_row(30, "ConvRelu", 300, "c30"),
        layer_row(131, "ConvRelu", 200, "c131"),
        layer_row(132, "OutputOperator", 20, "out", "CPU"),
    ]
    validity = profile_of(tmp_path, [*t[:5], *rows, *t[10:]]).validity
    assert validity is not None and validity.coverage is Coverage.ELIDED
    assert "skip from 2 to 30" in validity.coverage_reason


def test_rows_without_their_header_are_a_fragment(tmp_path: Path) -> None:
    assert coverage(tmp_path, table(TIMES)[5:10]) is Coverage.FRAGMENT


def test_a_table_without_its_total_line_is_cut(tmp_path: Path) -> None:
    t = table(TIMES)
    assert coverage(tmp_path, t[:8]) is Coverage.CUT  # header and three rows, then nothing
    assert coverage(tmp_path, [*t[:7], t[7][:60]]) is Coverage.CUT  # the third row cut mid-line


def test_a_table_printed_twice_under_one_header_is_damaged(tmp_path: Path) -> None:
    t = table(TIMES)
    rows = t[5:10]
    lines = [*t[:5], *rows, *rows, t[10], "Total Operator Elapsed Per Frame Time(us): 2060"]
    validity = profile_of(tmp_path, [*lines, *t[12:]]).validity
    assert validity is not None and validity.coverage is Coverage.DAMAGED
    assert "repeats" in validity.coverage_reason


def test_a_duplicated_row_with_a_total_forged_to_match_is_damaged(tmp_path: Path) -> None:
    t = table(TIMES)
    forged = "Total Operator Elapsed Per Frame Time(us): 1530"  # 1,030 + the repeated 500
    assert coverage(tmp_path, [*t[:7], t[6], *t[7:11], forged, *t[12:]]) is Coverage.DAMAGED


def test_rows_that_disagree_with_their_total_line_are_damaged(tmp_path: Path) -> None:
    t = table(TIMES)
    lines = [*t[:11], "Total Operator Elapsed Per Frame Time(us): 1500", *t[12:]]
    validity = profile_of(tmp_path, lines).validity
    assert validity is not None and validity.coverage is Coverage.DAMAGED
    assert "1,030" in validity.coverage_reason and "1,500" in validity.coverage_reason


RANKING_RULE = "-" * 99
RANKING_HEADER = (
    f"{'OpType':<19}{'CallNumber':<13}{'CPUTime(us)':<13}{'GPUTime(us)':<13}"
    f"{'NPUTime(us)':<13}{'TotalTime(us)':<15}{'TimeRatio(%)':<14}"
)


def ranking_row(op: str, calls: int, cpu: int, npu: int, ratio: float) -> str:
    return f"{op:<19}{calls:<13}{cpu:<13}{0:<13}{npu:<13}{cpu + npu:<15}{f'{ratio:.2f}%':<14}"


def ranking(rows: list[str]) -> list[str]:
    return [
        RANKING_RULE,
        f"{'Operator Time Consuming Ranking Table':^99}",
        RANKING_RULE,
        RANKING_HEADER,
        RANKING_RULE,
        *rows,
    ]


def test_a_whole_ranking_is_complete_and_one_cut_after_its_first_row_is_cut(
    tmp_path: Path,
) -> None:
    rows = [
        ranking_row("Pow", 19, 8800, 0, 64.0),
        ranking_row("Conv", 72, 0, 3000, 21.82),
        ranking_row("Mul", 79, 0, 1950, 14.18),
    ]
    assert coverage(tmp_path, [*ranking(rows), RANKING_RULE]) is Coverage.COMPLETE
    assert coverage(tmp_path, ranking(rows[:1])) is Coverage.CUT


TOOLKIT1_HEADER = "Layer ID    Name                                         Operator            Uid       Time(us)"


def toolkit1_row(i: int, name: str, op: str, uid: int, time_us: int) -> str:
    return f"{i:<12}{name:<45}{op:<20}{uid:<10}{time_us}"


def test_a_toolkit1_table_cut_before_its_total_time_line_is_cut(tmp_path: Path) -> None:
    head = ["=" * 72, f"{'Performance':^72}", "=" * 72, TOOLKIT1_HEADER]
    rows = [
        toolkit1_row(0, "conv0", "CONVOLUTION", 1, 920),
        toolkit1_row(1, "pool", "POOLING", 2, 80),
    ]
    whole = [*head, *rows, "Total Time(us): 1000", "FPS: 1000.00", "=" * 72]
    assert coverage(tmp_path, whole) is Coverage.COMPLETE
    assert coverage(tmp_path, [*head, *rows]) is Coverage.CUT


def test_the_eval_perf_csv_side_file_cannot_tell(tmp_path: Path) -> None:
    rows = [
        f'{i},ConvRelu,INT8,NPU,"(1,8,8,8)","(1,8,8,8)",10,20,20,{5 * i},1.00,'
        f"100.0%/0.0%/0.0%,-,Up:0.0%,1,0,12.00,Conv:c{i}"
        for i in range(1, 11)
    ]
    validity = profile_of(tmp_path, rows).validity
    assert validity is not None and validity.coverage is Coverage.UNKNOWN
    assert "cannot tell" in validity.coverage_reason


@pytest.mark.parametrize("prefix", ["", "D RKNN: [10:00:00.000] "])
def test_a_build_time_table_is_an_estimate(tmp_path: Path, prefix: str) -> None:
    header = (
        f"{'ID':<5}{'OpType':<17}{'DataType':<9}{'Target':<7}{'InputShape':<41}"
        f"{'OutputShape':<23}{'Cycles(DDR/NPU/Total)':<25}{'RW(KB)':<13}FullName"
    )
    rows = [
        f"{i:<5}{'ConvRelu':<17}{'INT8':<9}{'NPU':<7}{'(1,8,64,64),(8,8,3,3),(8)':<41}"
        f"{'(1,8,64,64)':<23}{'20000/90000/90000':<25}{64:<13}Conv:c{i}"
        for i in (1, 2, 3)
    ]
    lines = [RULE, header, RULE, *rows, RULE]
    assert coverage(tmp_path, [prefix + line for line in lines]) is Coverage.ESTIMATE


def test_a_placement_table_without_cycles_says_so(tmp_path: Path) -> None:
    """toolkit2 2.3.2's build table of a pure-CPU model (a public tutorial): no cycles column,
    so the estimate holds op placement only, not "cycles"."""
    lines = [
        "D RKNN: detect pure cpu op model.",
        "D RKNN: Network Layer Information Table",
        "D RKNN: ID   OpType         DataType Target InputShape OutputShape FullName",
        "D RKNN: 0    InputOperator  FLOAT16  CPU    \\          (1,5)      InputOperator:input",
        "D RKNN: 1    Acos           FLOAT16  CPU    (1,5)      (1,5)      Acos:acos",
        "D RKNN: 2    OutputOperator FLOAT16  CPU    (1,5)      \\          OutputOperator:output",
    ]
    profile = profile_of(tmp_path, lines)
    assert profile.validity is not None and profile.validity.coverage is Coverage.ESTIMATE
    assert profile.validity.coverage_reason == ("3 rows of op placement only, no cycles or time")


def test_a_build_table_of_zero_cycles_says_so_and_ranks_nothing(tmp_path: Path) -> None:
    """toolkit2 1.5's build statistics on RV1106 (a vendor wiki): every cycle count and time is
    0. The verdict says so, and the terminal lists the rows in table order instead of a "top
    by cycles" of zeros."""
    header = (
        f"{'ID':<5}{'OpType':<17}{'DataType':<9}{'Target':<7}{'InputShape':<41}"
        f"{'OutputShape':<23}{'Cycles(DDR/NPU/Total)':<25}{'RW(KB)':<13}FullName"
    )
    rows = [
        f"{i:<5}{'ConvClip':<17}{'INT8':<9}{'NPU':<7}{'(1,8,64,64),(8,8,3,3),(8)':<41}"
        f"{'(1,8,64,64)':<23}{'0/0/0':<25}{64:<13}Conv:c{i}"
        for i in (1, 2, 3)
    ]
    profile = profile_of(tmp_path, [RULE, header, RULE, *rows, RULE])
    assert profile.validity is not None and profile.validity.coverage is Coverage.ESTIMATE
    assert profile.validity.coverage_reason == (
        "3 rows of op placement only (every cycle count 0), no time"
    )
    view = layer_table(profile, 15)
    assert view is not None and view.title == "All 3 layers"
    assert view.note.startswith("every cycle count and time in the table is 0")


def test_fallback_warnings_alone_are_no_table_not_an_estimate(tmp_path: Path) -> None:
    # corpus 31's line (rknn-toolkit2 issue 490): a warning, no table; the verdict said "a
    # build-time estimate (0 rows): cycles, no measured time", though there are no cycles
    line = (
        "W RKNN: [13:52:53.504] Transpose will fallback to CPU, because input shape has "
        "exceeded the max limit, height(256) * width(2560) = 655360, required product no "
        "larger than 8192!"
    )
    profile = profile_of(tmp_path, [line])
    assert profile.validity is not None
    assert profile.validity.coverage is Coverage.NO_TABLE and not profile.validity.complete
    assert profile.validity.coverage_reason == "the log holds CPU-fallback warnings, no times"


def test_a_benchmark_cut_before_its_timed_runs_is_cut(tmp_path: Path) -> None:
    """rknn_benchmark's output ending in ``Begin p`` after five warm-up runs (corpus 20): the
    figures are the warm-up's, so the log is cut (it said complete)."""
    lines = [
        "rknn_api/rknnrt version: 2.1.0 (967d001cc8@2024-08-07T19:28:19), driver version: 0.9.6",
        "Warmup ...",
        *(f"   {i}: Elapse Time = 27.{50 + i}ms, FPS = 36.3{i}" for i in range(5)),
        "Begin p",
    ]
    profile = profile_of(tmp_path, lines)
    assert profile.validity is not None and profile.validity.coverage is Coverage.CUT
    assert profile.validity.coverage_reason == (
        "the log ends after 5 warm-up run(s), before the timed runs: the figures are the warm-up's"
    )


def ranking_of_times(total_us: int) -> list[str]:
    """The ranking of ``table(TIMES)``'s frame, its Total row saying ``total_us``."""
    rows = [
        ranking_row("ConvRelu", 3, 0, 1000, 97.09),
        ranking_row("OutputOperator", 1, 20, 0, 1.94),
        ranking_row("InputOperator", 1, 10, 0, 0.97),
    ]
    total = f"{'Total':<19}{'':<13}{30:<13}{0:<13}{total_us - 30:<13}{total_us:<15}"
    return [*ranking(rows), total, RANKING_RULE]


def test_a_table_without_its_total_line_is_held_to_its_rankings_total_row(
    tmp_path: Path,
) -> None:
    # (a single frame: no "other frames" print a total line)
    lines = [line for line in table(TIMES) if not line.startswith("Total Operator Elapsed")]
    profile = profile_of(tmp_path, [*lines, *ranking_of_times(1030)])
    assert profile.validity is not None and profile.validity.complete
    assert profile.validity.coverage_reason == (
        "5 rows, agreeing with the ranking's Total row (the table's total line is missing)"
    )
    assert profile.reported_total_time_us == 1030 and profile.reported_total_line is None
    # a row's time damaged (500 -> 400): the rows no longer sum to the ranking's Total row
    lines = [line for line in table([10, 400, 300, 200, 20]) if not line.startswith("Total Op")]
    damaged = profile_of(tmp_path, [*lines, *ranking_of_times(1030)]).validity
    assert damaged is not None and damaged.coverage is Coverage.DAMAGED
    assert "930" in damaged.coverage_reason and "1,030" in damaged.coverage_reason


def profiles_of(tmp_path: Path, lines: list[str]) -> list[Profile]:
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load(str(path), rules=False)


def test_a_frame_one_row_apart_from_the_frames_around_it_is_damaged(tmp_path: Path) -> None:
    # the runtime prints one model's table the same way every inference: a frame among its
    # frames with one FullName changed (or one row lost) is damaged in the log
    frame = table(TIMES)
    renamed = [line.replace("Conv:/m/conv3/Conv", "Conv:/m/convX/Conv") for line in frame]
    lost = [line for line in frame if "Conv:/m/conv3/Conv" not in line]
    lost = [
        line.replace("Time(us): 1030", "Time(us): 730") if line.startswith("Total Op") else line
        for line in lost
    ]
    for damaged, change in (
        (renamed, "row 3 reads 'Conv:/m/convX/Conv' for 'Conv:/m/conv3/Conv'"),
        (lost, "row 3 (ConvRelu 'Conv:/m/conv3/Conv') missing"),
    ):
        whole, part = profiles_of(tmp_path, [*frame * 3, *damaged, *frame * 2])
        assert whole.frames == 5 and whole.validity is not None and whole.validity.complete
        assert part.frames == 1 and part.validity is not None
        assert part.validity.coverage is Coverage.DAMAGED
        assert part.validity.coverage_reason == (
            f"1 frame(s) disagree with the 5 frames of the model at line {whole.source.first_line} "
            f"around them ({change}): a frame damaged in the log"
        )


def test_two_models_of_one_stream_are_no_damage(tmp_path: Path) -> None:
    # an application running a detector and a classifier in turn: each model's own frames
    detector, classifier = table(TIMES, "det"), table([10, 40, 30, 5], "cls")
    profiles = profiles_of(tmp_path, [*detector, *classifier, *detector, *detector])
    assert [p.frames for p in profiles] == [3, 1]
    assert all(p.validity is not None and p.validity.complete for p in profiles)


def test_a_frame_one_us_off_its_total_line_is_damaged_as_a_single_table_is(
    tmp_path: Path,
) -> None:
    # the runtime's total line is the sum of the Time(us) column it prints: 1 us off is a
    # damaged row in a single table, and was let through in frame 3 of 5 (1 us allowed there)
    frame = table(TIMES)
    off = [line.replace("Time(us): 1030", "Time(us): 1031") for line in frame]
    single = profile_of(tmp_path, off).validity
    assert single is not None and single.coverage is Coverage.DAMAGED
    merged = profile_of(tmp_path, [*frame * 2, *off, *frame * 2])
    assert merged.validity is not None and merged.validity.coverage is Coverage.DAMAGED
    assert merged.validity.coverage_reason.startswith("1 of 5 frame(s) disagree")


def test_a_table_whose_every_row_is_unreadable_is_damaged(tmp_path: Path) -> None:
    """Every Cycles cell reads ``n/a``: five rows skipped, none read. It was 'complete: a
    whole-run figure' (and passed a findings budget at 0)."""
    lines = [line.replace("/", "?", 2) if line[:1].isdigit() else line for line in table(TIMES)]
    profile = profile_of(tmp_path, lines)
    assert profile.layers == () and len(profile.skipped_rows) == 5
    assert profile.validity is not None and profile.validity.coverage is Coverage.DAMAGED
    assert profile.validity.coverage_reason.startswith("none of the table's rows could be read")


def _ranking_only(rows: list[tuple[str, int, int, int, int, str]]) -> list[str]:
    """A ranking-only paste: (op type, calls, CPU, NPU, TotalTime, TimeRatio) rows, no Total."""
    rule = "-" * 99
    head = (
        "OpType             CallNumber   CPUTime(us)  GPUTime(us)  NPUTime(us)  TotalTime(us)  "
        "TimeRatio(%)"
    )
    body = [
        f"{op:<19}{calls:<13}{cpu:<13}{0:<13}{npu:<13}{total:<15}{ratio:<14}"
        for op, calls, cpu, npu, total, ratio in rows
    ]
    return [rule, f"{'Operator Time Consuming Ranking Table':^99}", rule, head, rule, *body, rule]


def test_a_ranking_that_contradicts_itself_is_damaged(tmp_path: Path) -> None:
    """TimeRatio adding up to 300 % (218 + 78 + 3 + 2 %), or a row whose CPU + NPU (700 us)
    is not its TotalTime (7,000 us): 'complete: their TimeRatio adding up' before."""
    ratio = _ranking_only(
        [
            ("ConvRelu", 2, 0, 700, 700, "217.62%"),
            ("Add", 1, 0, 250, 250, "77.73%"),
            ("InputOperator", 1, 9, 0, 9, "2.79%"),
            ("OutputOperator", 1, 6, 0, 6, "1.86%"),
        ]
    )
    row = _ranking_only(
        [
            ("ConvRelu", 2, 0, 700, 7000, "96.35%"),
            ("Add", 1, 0, 250, 250, "3.44%"),
            ("InputOperator", 1, 9, 0, 9, "0.12%"),
            ("OutputOperator", 1, 6, 0, 6, "0.08%"),
        ]
    )
    for lines, said in (
        (ratio, "the ranking's TimeRatio column adds up to 300.0% of one frame"),
        (row, "ranking row ConvRelu: CPU + GPU + NPU time is 700 us but its TotalTime says 7,000"),
    ):
        validity = profile_of(tmp_path, lines).validity
        assert validity is not None and validity.coverage is Coverage.DAMAGED
        assert validity.coverage_reason.startswith(said), validity.coverage_reason
    whole = _ranking_only(
        [
            ("ConvRelu", 2, 0, 700, 700, "72.54%"),
            ("Add", 1, 0, 250, 250, "25.91%"),
            ("InputOperator", 1, 9, 0, 9, "0.93%"),
            ("OutputOperator", 1, 6, 0, 6, "0.62%"),
        ]
    )
    assert coverage(tmp_path, whole) is Coverage.COMPLETE


def test_a_layer_faster_than_its_cycles_allow_is_damage(tmp_path: Path) -> None:
    """A conv of 90,000 NPU cycles in 3 us (30 GHz on one core; an RK3588 NPU runs at 1 GHz)
    was a complete measurement; every row at 0 us with a total line of 0, too."""
    validity = profile_of(tmp_path, table([10, 500, 3, 200, 20])).validity
    assert validity is not None and validity.coverage is Coverage.DAMAGED
    assert validity.coverage_reason.startswith(
        "layer #3 ConvRelu: 90,000 cycles in 3 us, 30x faster than its cycles"
    ), validity.coverage_reason
    validity = profile_of(tmp_path, table([0, 0, 0, 0, 0])).validity
    assert validity is not None and validity.coverage is Coverage.DAMAGED
    assert "every row reads 0 us and so does the total line" in validity.coverage_reason


def test_shares_over_a_whole_layer_are_damage(tmp_path: Path) -> None:
    """A conv whose WorkLoad reads 100%/100%/100% (300 % of one layer) or whose MacUsage reads
    450 % was a complete measurement (the compute roof tripled, RKN030 spoke of a multi-core
    mask). Clean public tables print 99.9-100 % and at most 84 %."""
    for old, new, said in (
        ("100.0%/0.0%/0.0%", "100.0%/100.0%/100.0%", "its WorkLoad adds up to 300.0% of the"),
        ("12.50/0.00/0.00", "450.00/0.00/0.00", "MacUsage 450%, above every MAC there is"),
    ):
        lines = table(TIMES)
        [row] = [i for i, line in enumerate(lines) if line.startswith("3 ")]
        lines[row] = lines[row].replace(old, new.ljust(len(old)), 1)
        validity = profile_of(tmp_path, lines).validity
        assert validity is not None and validity.coverage is Coverage.DAMAGED
        assert validity.coverage_reason.startswith(f"layer #3 ConvRelu: {said}"), (
            validity.coverage_reason
        )


def test_a_damaged_table_promises_no_throughput_either(tmp_path: Path) -> None:
    """WorkLoad 100%/100%/100% on a conv read as a multi-core run, and RKN030 promised up to 3x
    the frames per second on the damaged table that priced nothing else."""
    lines = table(TIMES)
    [row] = [i for i, line in enumerate(lines) if line.startswith("3 ")]
    lines[row] = lines[row].replace("100.0%/0.0%/0.0%", "100.0%/100.0%/100.0%", 1)
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(str(path))
    assert profile.validity is not None and profile.validity.coverage is Coverage.DAMAGED
    assert profile.findings
    assert all(f.throughput_gain is None and not f.est_saving_us for f in profile.findings)


def test_a_view_that_moves_none_of_its_counted_bytes_is_no_damage(tmp_path: Path) -> None:
    """A Reshape of 53,032 DDR cycles and no NPU cycles in 1 us: the cycles count the bytes the
    compiler would move, and a view moves none (a clean public FP16 table prints a Reshape at
    8.4 TB/s): no faster-than-its-cycles damage."""
    lines = table(TIMES)
    [row] = [i for i, line in enumerate(lines) if line.startswith("3 ")]
    lines[row] = (
        lines[row]
        .replace("ConvRelu  ", "Reshape   ", 1)
        .replace("20000/90000/90000", "53032/0/53032    ", 1)
    )
    total = [i for i, line in enumerate(lines) if "Per Frame Time" in line]
    lines = [
        line.replace(" 300 ", " 1   ", 1) if i == row else line for i, line in enumerate(lines)
    ]
    lines[total[0]] = lines[total[0]].replace("1030", str(1030 - 299))
    profile = profile_of(tmp_path, lines)
    [reshape] = [la for la in profile.layers if la.id == 3]
    assert (reshape.op_type, reshape.time_us, reshape.ddr_cycles) == ("Reshape", 1, 53032)
    assert profile.validity is not None and profile.validity.coverage is Coverage.COMPLETE, (
        profile.validity.coverage_reason
    )
