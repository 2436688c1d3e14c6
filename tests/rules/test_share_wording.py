"""What a share is of, in every message: the log's printed total when it has one (an elided
table printing its own total), else "of the rows shown" (a fragment without a total), never
"of the frame" for rows that are not the frame."""

from __future__ import annotations

from pathlib import Path

from synthetic_logs import cycles_row, table_of

from rknnprof.analysis.figures import FRAME, ROWS_SHOWN, share_basis
from rknnprof.api import load
from rknnprof.model import Profile


def advised(tmp_path: Path, lines: list[str]) -> Profile:
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(str(path), platform="rk3588")
    return profile


def rows() -> list[str]:
    """Six rows (IDs 40-45) of a larger model: a Reshape on the CPU among NPU convs, 3,000 us."""
    return [
        cycles_row(40, "ConvRelu", 200000, 400000, 500, "Conv:/c40/Conv"),
        cycles_row(41, "ConvRelu", 200000, 400000, 500, "Conv:/c41/Conv"),
        cycles_row(
            42, "Reshape", 0, 0, 1000, "Reshape:/r42", "CPU", ("(1,64,80,80)", "(1,6400,64)")
        ),
        cycles_row(43, "ConvRelu", 200000, 400000, 400, "Conv:/c43/Conv"),
        cycles_row(44, "ConvRelu", 200000, 400000, 300, "Conv:/c44/Conv"),
        cycles_row(45, "ConvRelu", 200000, 400000, 300, "Conv:/c45/Conv"),
    ]


def cpu_finding(profile: Profile) -> str:
    [finding] = [f for f in profile.findings if f.code == "RKN001"]
    return finding.message


def test_a_fragment_without_a_total_says_of_the_rows_shown(tmp_path: Path) -> None:
    profile = advised(tmp_path, rows())  # the rows alone: no header, no total
    assert share_basis(profile) == ROWS_SHOWN
    message = cpu_finding(profile)
    assert "(33.3% of the rows shown)" in message  # 1,000 of the 3,000 us shown
    assert "of the frame" not in " ".join(f.message for f in profile.findings)


def test_a_cut_table_without_a_total_says_of_the_rows_shown(tmp_path: Path) -> None:
    profile = advised(tmp_path, table_of(rows(), None)[:-1])
    assert "(33.3% of the rows shown)" in cpu_finding(profile)


def test_an_elided_table_takes_shares_of_its_printed_total(tmp_path: Path) -> None:
    # the author printed rows 40-45 between elision lines, and the run's total: 12,631 us
    lines = table_of(["......", *rows(), "......"], 12631)
    profile = advised(tmp_path, lines)
    assert profile.frame_total_us == 12631
    assert share_basis(profile) == FRAME
    assert "(7.9% of the frame)" in cpu_finding(profile)  # 1,000 / 12,631


def test_rows_that_sum_to_less_than_their_total_line_take_shares_of_the_total(
    tmp_path: Path,
) -> None:
    profile = advised(tmp_path, table_of(rows(), 4000))  # a row lost: 3,000 of 4,000 us
    assert profile.frame_total_us == 4000
    assert "(25.0% of the frame)" in cpu_finding(profile)


def test_a_whole_table_says_of_the_frame(tmp_path: Path) -> None:
    profile = advised(tmp_path, table_of(rows(), 3000))
    assert share_basis(profile) == FRAME
    assert "(33.3% of the frame)" in cpu_finding(profile)
