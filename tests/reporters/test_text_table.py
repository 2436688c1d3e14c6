"""The terminal report's own table layout: the same lines as rich's ``Table``, or ``None``."""

from __future__ import annotations

import itertools

import pytest
from rich.console import Console, Group
from rich.text import Text

from rknnprof.reporters.table import rich_table
from rknnprof.reporters.text_table import Spec, column_widths, table_lines

SPECS = [
    Spec("ID", "right", None, 2, 3),
    Spec("Op type", "left", None, 6, 16),
    Spec("Name", "left", None, None, 24),
    Spec("Time us", "right", None, 6, 9),
    Spec("", "left", 8, None, None),
    Spec("Bound", "left", None, 5, 10),
]
NAMES = ["Conv:/model.0/conv/Conv", "/model.22/dfl/Reshape_and_the_rest_of_it", "", "出力/層"]
OPS = ["ConvExSwish", "InputOperator-with-a-long-name", "Add", ""]
BOUNDS = [("compute", "cyan"), ("bandwidth", "magenta"), ("CPU", "bold red"), ("", "")]


def _rows(count: int) -> list[list[Text]]:
    """Cells of every kind the report draws: plain, styled, too long, empty, double-width."""
    rows: list[list[Text]] = []
    for n in range(count):
        bound, style = BOUNDS[n % len(BOUNDS)]
        rows.append(
            [
                Text(str(n * 7)),
                Text(OPS[n % len(OPS)]),
                Text(NAMES[n % len(NAMES)]),
                Text(f"{n * 1234:,}", style="red" if n % 3 == 0 else ""),
                Text("█" * (n % 9) + ("▍" if n % 2 else ""), style="magenta"),
                Text(bound, style=style),
            ]
        )
    return rows


def _printed(renderable: object, width: int, color: bool) -> str:
    console = Console(
        width=width,
        color_system="truecolor" if color else None,
        force_terminal=color or None,
        no_color=not color,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


@pytest.mark.parametrize(
    ("count", "width", "color"),
    list(itertools.product((0, 1, 5, 12), (80, 100, 120), (False, True))),
)
def test_lines_are_rich_tables_lines(count: int, width: int, color: bool) -> None:
    rows = _rows(count)
    lines = table_lines(SPECS, rows, width)
    assert lines is not None
    assert _printed(Group(*lines), width, color) == _printed(rich_table(SPECS, rows), width, color)


def test_widths_follow_the_widest_cell_within_the_bounds() -> None:
    rows = [[Text("7"), Text("Add"), Text("a"), Text("12"), Text(""), Text("cpu")]]
    # ID: "ID" (2) within 2-3; Op type: the head (7); Name: the head (4); Time us: head 7;
    # the bar its fixed 8; Bound: "Bound" (5)
    assert column_widths(SPECS, rows) == [2, 7, 4, 7, 8, 5]
    rows[0][2] = Text("x" * 40)
    rows[0][1] = Text("出力出力出力出力出力")  # 10 double-width characters: 20 cells
    assert column_widths(SPECS, rows)[1:3] == [16, 24]


def test_a_long_cell_is_cut_with_an_ellipsis() -> None:
    rows = [
        [
            Text("1"),
            Text("Op"),
            Text("abcdefghijklmnopqrstuvwxyz0123"),
            Text("9"),
            Text(""),
            Text(""),
        ]
    ]
    lines = table_lines(SPECS, rows, 120)
    assert lines is not None
    assert "abcdefghijklmnopqrstuvw…" in lines[2].plain


def test_no_lines_when_the_table_does_not_fit_or_a_cell_breaks() -> None:
    rows = _rows(12)
    widths = column_widths(SPECS, rows)
    natural = sum(widths) + 2 * (len(widths) - 1)
    assert table_lines(SPECS, rows, natural) is not None
    assert table_lines(SPECS, rows, natural - 1) is None
    broken = [[*row[:2], Text("two\nlines"), *row[3:]] for row in rows]
    assert table_lines(SPECS, broken, 200) is None
    tabbed = [[*row[:2], Text("a\tb"), *row[3:]] for row in rows]
    assert table_lines(SPECS, tabbed, 200) is None
    assert table_lines([], [], 80) is None
