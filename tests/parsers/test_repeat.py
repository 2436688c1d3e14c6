"""The repeated-frame fast path (parsers/fastpath/repeat.py) finds exactly what the usual path finds.

Each table is scanned twice: inside a multi-frame log (where it may repeat the table before it)
and alone, with the same line numbers (always the usual path). The events must be equal.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rknnprof.inputs.lines import Line
from rknnprof.parsers import scan
from rknnprof.parsers.events import TableEvent
from rknnprof.parsers.fastpath.repeat import RepeatedLayers

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import generate  # noqa: E402


def _scan(lines: list[tuple[int, str]]) -> list[TableEvent]:
    return [e for e in scan(Line(n, t) for n, t in lines) if isinstance(e, TableEvent)]


def _frames(*tables: list[str]) -> tuple[list[TableEvent], list[TableEvent]]:
    """(events of all tables in one log, events of each table scanned alone)."""
    numbered, alone, n = [], [], 0
    for table in tables:
        part = [(n + i, text) for i, text in enumerate(table, 1)]
        n += len(table)
        numbered += part
        alone += _scan(part)
    return _scan(numbered), alone


def test_repeated_frames_equal_the_usual_path_and_stay_lazy() -> None:
    together, alone = _frames(*(generate.table(12, seed=f, jitter=0.2) for f in range(4)))
    assert len(together) == 4
    assert [type(e.layers) for e in together] == [tuple] + [RepeatedLayers] * 3
    assert together[1].layers.times == tuple(la.time_us for la in alone[1].layers)
    assert together == alone


def test_a_frame_that_differs_is_read_in_full() -> None:
    def frame(seed: int) -> list[str]:
        return generate.table(12, seed=seed, jitter=0.2)

    def changed(lines: list[str]) -> list[str]:  # row 6 has another full name
        return [text.replace("/model.6/", "/model.66/") for text in lines]

    row6 = next(i for i, text in enumerate(frame(1)) if text.startswith("6 "))
    shorter = [text for text in frame(1) if not text.startswith("9 ")]
    cut = [text[:60] if i == row6 else text for i, text in enumerate(frame(1))]
    together, alone = _frames(
        frame(0),
        frame(1),
        changed(frame(1)),
        changed(frame(2)),
        frame(3),
        shorter,
        frame(4),
        cut,
        frame(5),
    )
    assert together == alone
    # the template is the last table read in full; a table that differs becomes the next one
    assert [isinstance(e.layers, RepeatedLayers) for e in together] == [
        False,
        True,
        False,
        True,
        False,
        False,
        False,
        False,
        False,
    ]
    assert together[7].skipped  # the cut row is reported, as alone


def test_a_row_after_the_closing_rule_is_not_taken_by_a_repeated_table() -> None:
    plain = generate.table(12, seed=0, jitter=0.2)
    lines = generate.table(12, seed=1, jitter=0.2)
    end = max(i for i, text in enumerate(lines) if text.startswith("12 "))
    stray = [*lines[: end + 2], lines[end - 3], "app print"]  # a row after the closing rule
    together, alone = _frames(plain, stray)
    assert together == alone
    assert isinstance(together[1].layers, RepeatedLayers)
    assert [len(e.layers) for e in together] == [12, 12, 1]


def test_full_names_with_blanks_and_non_ascii_rows() -> None:
    def frame(seed: int, name: str) -> list[str]:
        lines = generate.table(12, seed=seed, jitter=0.2)
        return [text.replace("/model.3/", name) for text in lines]

    spaced = [frame(seed, "/model 3  with\tblanks/") for seed in range(3)]
    accented = [frame(seed, "/modèle.3/") for seed in range(3)]
    together, alone = _frames(*spaced, *accented)
    assert together == alone
    assert together[1].layers[2].full_name == "Conv:/model 3 with blanks/convexswish/ConvExSwish"
    # non-ASCII rows are read in full (the fast path needs character = byte positions)
    assert [isinstance(e.layers, RepeatedLayers) for e in together] == [
        False,
        True,
        True,
        False,
        False,
        False,
    ]


def test_pasted_prefixes_and_rows_that_move() -> None:
    def frame(seed: int, prefix: str = " |  ") -> list[str]:
        return [prefix + text for text in generate.table(12, seed=seed, jitter=0.2)]

    moved = [text.replace(" |  5 ", "5 ", 1) for text in frame(3)]  # one row lost its prefix
    together, alone = _frames(frame(0), frame(1), frame(2), moved, frame(4), frame(5, "  "))
    assert together == alone
    # a row without the prefix is still the same row; another header prefix is another table
    assert [isinstance(e.layers, RepeatedLayers) for e in together] == [
        False,
        True,
        True,
        True,
        True,
        False,
    ]
