"""Column tables as rich ``Text`` lines, without ``rich.table``, for the tables that fit.

The terminal report's tables are single-line cells in columns of known widths, drawn in one
box style (a rule under the head, no outer edges, one blank of padding and one blank divider
after each column but the last). :func:`table_lines` lays such a table out as rich ``Text``
lines (rich still renders every style to the terminal) when its columns fit the width at their
natural size, and returns ``None`` otherwise: rich's ``Table`` then shrinks the columns
(:func:`rknnprof.reporters.table.rich_table`). The lines are the same, to the character and
the colour code, as rich's ``Table`` draws for the same columns (``tests/reporters/
test_text_table.py`` holds them equal); rich's table costs more than the rest of the report
to import and lay out, for a layout that needs no search.

Contract: a column's width is its widest cell (head included, in terminal cells), raised to
``min_width`` and cut to ``max_width``, or ``width`` when given; a cell is cut with an
ellipsis to its column and justified in it; the head is bold.
"""

from __future__ import annotations

from typing import Literal

from rich.cells import cell_len
from rich.text import Text

from rknnprof.model.record import Record, record

HEAD_STYLE = "bold"
"""The head row's style (rich's ``table.header``)."""
RULE = "─"
"""The rule under the head, one per column of the table."""


@record(slots=False)
class Spec(Record):
    """One column of a terminal table, as ``Table.add_column`` takes it (every column is
    ``no_wrap`` with ``overflow="ellipsis"``); widths in terminal cells."""

    head: str
    justify: Literal["left", "right"]
    width: int | None
    min_width: int | None
    max_width: int | None


def column_widths(specs: list[Spec], rows: list[list[Text]]) -> list[int]:
    """Each column's width in cells, padding and divider not included."""
    widths: list[int] = []
    for index, spec in enumerate(specs):
        if spec.width is not None:
            widths.append(spec.width)
            continue
        natural = max([_width(spec.head), *(_width(row[index].plain) for row in rows)])
        if spec.min_width is not None:
            natural = max(natural, spec.min_width)
        if spec.max_width is not None:
            natural = min(natural, spec.max_width)
        widths.append(natural)
    if widths and widths[-1] == 0:
        widths[-1] = 1  # a column is never drawn narrower than one cell
    return widths


def _width(text: str) -> int:
    """``text``'s width in terminal cells (printable ASCII: one a character)."""
    return len(text) if text.isascii() and text.isprintable() else cell_len(text)


def _fitted_plain(text: str, width: int, justify: Literal["left", "right"]) -> str | None:
    """What :func:`_fitted` makes of printable ASCII text; ``None`` for any other text."""
    if not (text.isascii() and text.isprintable()):
        return None
    if justify == "right":
        text = text.rstrip()
    if len(text) > width:
        text = text[: width - 1] + "…"
    return text.ljust(width) if justify == "left" else text.rjust(width)


def _fitted(cell: Text, width: int, justify: Literal["left", "right"]) -> Text:
    """``cell`` cut to ``width`` with an ellipsis and justified in it."""
    if not cell.spans:
        plain = _fitted_plain(cell.plain, width, justify)
        if plain is not None:
            return Text(plain, style=cell.style)
    line = cell.copy()
    if justify == "left":
        line.truncate(width, overflow="ellipsis", pad=True)
    else:
        line.rstrip()
        line.truncate(width, overflow="ellipsis")
        line.pad_left(width - cell_len(line.plain))
    return line


def table_lines(specs: list[Spec], rows: list[list[Text]], max_width: int) -> list[Text] | None:
    """The table's lines (head, rule, rows), or ``None`` when it does not fit ``max_width``
    cells at its columns' widths or a cell holds a line break or a tab."""
    if not specs:
        return None
    for row in rows:
        if any("\n" in cell.plain or "\t" in cell.plain for cell in row):
            return None
    if any("\n" in spec.head or "\t" in spec.head for spec in specs):
        return None
    widths = column_widths(specs, rows)
    total = sum(widths) + 2 * (len(widths) - 1)
    if total > max_width:
        return None
    last = len(specs) - 1
    head = Text(no_wrap=True)  # every line fits: nothing to wrap
    for index, (spec, width) in enumerate(zip(specs, widths, strict=True)):
        cell = _fitted(Text(spec.head), width, spec.justify)
        head.append(cell.plain, style=HEAD_STYLE)
        if index < last:
            head.append(" ", style=HEAD_STYLE)
            head.append(" ")
    lines = [head, Text(RULE * total, no_wrap=True)]
    for row in rows:
        line = Text(no_wrap=True)
        for index, (spec, width, cell) in enumerate(zip(specs, widths, row, strict=True)):
            line.append_text(_fitted(cell, width, spec.justify))
            if index < last:
                line.append("  ")
        lines.append(line)
    return lines
