"""A total line read whole or not at all: a figure with thousands separators (an edited log's
``28,023``) is that number, never the digits before its comma; a capture that ends inside its
last total line (a file cut, Ctrl-C on a live pipe) leaves that frame out as cut, instead of
reading the cut figure as the frame's total and calling the capture damaged.

The inputs are the bundled sample (one frame: total line 28,023 us, RW 94,940.13 KB)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rknnprof.api import analyze, load
from rknnprof.model import Coverage
from tests.hostile.helpers import SAMPLE, distinct

TOTAL = "Total Operator Elapsed Per Frame Time(us): 28023"
RW = "Total Memory Read/Write Per Frame Size(KB): 94940.13"


def sample_with(tmp_path: Path, *swaps: tuple[str, str]) -> Path:
    text = SAMPLE.read_text(encoding="utf-8")
    for old, new in swaps:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "edited.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_total_line_with_thousands_separators_is_read_whole(tmp_path: Path) -> None:
    """``28,023`` was read as 28 us (the frame then disagreed with it: damaged), and
    ``94,940.13`` KB as 94 KB without a word."""
    path = sample_with(tmp_path, (TOTAL, TOTAL[:-5] + "28,023"), (RW, RW[:-8] + "94,940.13"))
    [profile] = load(path, rules=False)
    assert profile.reported_total_time_us == 28023
    assert profile.reported_rw_kb == 94940.13
    assert profile.validity is not None and profile.validity.coverage is Coverage.COMPLETE


def test_a_figure_that_is_no_grouped_number_is_not_read(tmp_path: Path) -> None:
    """``28,02`` is no number: the digits before its comma are not the frame's total."""
    path = sample_with(tmp_path, (TOTAL, TOTAL[:-5] + "28,02"))
    [profile] = load(path, rules=False)
    assert profile.reported_total_time_us != 28


def frames(tmp_path: Path, count: int, cut_at: int) -> Path:
    """The sample's table ``count`` times, each frame its own, the input cut ``cut_at``
    characters into the last total line's figure (no newline after it)."""
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    head, table = lines[:4], lines[4:118]
    text = "\n".join(head + [line for i in range(count) for line in distinct(table, i)]) + "\n"
    end = text.rindex(TOTAL) + len(TOTAL) - 5 + cut_at
    path = tmp_path / "cut.txt"
    path.write_text(text[:end], encoding="utf-8")
    return path


def test_a_capture_cut_inside_its_last_total_line_leaves_that_frame_out(tmp_path: Path) -> None:
    """Five frames, the input ending at ``...Time(us): 28``: four frames, complete, and a
    warning that the last one is cut (it was: "its total line says 28 us", the capture
    damaged, nothing priced)."""
    [profile] = load(frames(tmp_path, 5, 2), rules=False)
    assert profile.frames == 4
    assert profile.validity is not None and profile.validity.coverage is Coverage.COMPLETE
    assert profile.frame_times_us == (28023,) * 4


def test_the_cut_line_is_said_on_a_live_pipe_too(tmp_path: Path) -> None:
    path = frames(tmp_path, 3, 3)
    run = subprocess.run(
        [sys.executable, "-m", "rknnprof", "analyze", "-"],
        input=path.read_bytes(),
        capture_output=True,
        check=False,
    )
    err = run.stderr.decode()
    assert run.returncode == 0, err
    assert "the input ends inside the last frame's total line (its figure 280 us" in err
    assert "complete" in run.stdout.decode() and "DAMAGED" not in run.stdout.decode()


def test_a_whole_total_line_without_a_newline_is_read(tmp_path: Path) -> None:
    """A file saved without a last newline ends on a whole total line: it is read, no word of a
    cut (its rows agree with it)."""
    [profile] = load(frames(tmp_path, 2, 5), rules=False)
    assert profile.frames == 2 and profile.frame_times_us == (28023, 28023)


def test_a_lone_table_cut_inside_its_total_line_is_cut_not_damaged(tmp_path: Path) -> None:
    """One table, the input ending at ``...Time(us): 280``: its rows (28,023 us) stand, the
    table read without the total line the cut took: cut short, not damaged by its rows."""
    report = analyze(frames(tmp_path, 1, 3), rules=False)
    [profile] = report.profiles
    assert profile.validity is not None and profile.validity.coverage is Coverage.CUT
    assert profile.total_time_us == 28023 and profile.reported_total_time_us is None
    assert any(
        w.message.endswith(
            "(its figure 280 us, no newline after it): a cut line; the table is read without it"
        )
        for w in report.warnings
    )
