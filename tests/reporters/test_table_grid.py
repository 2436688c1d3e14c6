"""The terminal report lays out its tables itself when they fit (``grid_lines``): the same
characters and styles rich's ``Table`` draws, for every table of every corpus log, the hand
reports and damaged names, at many widths, with and without colour."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.text import Text

from rknnprof import api
from rknnprof.errors import RknnprofError
from rknnprof.model import Profile
from rknnprof.reporters import _views as V
from rknnprof.reporters.table import Spec, TableReporter, bar_text, grid_lines, rich_table
from tests.conftest import CORPUS

from .report_samples import HAND_REPORT, NO_LAYERS_REPORT

WIDTHS = (40, 79, 80, 100, 140, 200)


def _corpus_profiles() -> list[Profile]:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is absent (set RKNNPROF_CORPUS)")
    profiles: list[Profile] = []
    for path in sorted(CORPUS.iterdir()):
        if path.suffix == ".md":
            continue
        try:
            profiles.extend(api.analyze(path).profiles)
        except RknnprofError:
            continue
    return profiles


def _views(profile: Profile) -> Iterator[V.TableView]:
    for view in (
        V.layer_table(profile, 15),
        V.layer_table(profile, 1000),
        V.op_table(profile),
        V.waterfall_table(profile),
    ):
        if view is not None:
            yield view


def _cells(renderable: RenderableType, width: int, color: bool) -> list[list[tuple[str, Style]]]:
    """Each line as (character, style) pairs, trailing blanks dropped: what a terminal shows."""
    console = Console(
        width=width,
        color_system="truecolor" if color else None,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )
    out = []
    for line in console.render_lines(renderable, console.options, pad=False):
        chars = [
            (ch, seg.style or Style.null()) for seg in line if not seg.control for ch in seg.text
        ]
        while chars and chars[-1][0] == " ":
            chars.pop()
        # a blank's style shows nothing (no background, underline or reverse is used)
        out.append([(ch, style if ch != " " else Style.null()) for ch, style in chars])
    return out


def _check(specs: list[Spec], rows: list[list[Text]], width: int) -> bool:
    """Both layouts of one table at ``width`` agree, in colour and without; False when the
    table does not fit (rich draws it)."""
    lines = grid_lines(specs, rows, width)
    if lines is None:
        return False
    for color in (False, True):
        ours = _cells(Group(*lines), width, color)
        theirs = _cells(rich_table(specs, rows), width, color)
        assert ours == theirs, (
            width,
            color,
            "\n".join("".join(c for c, _ in line) for line in ours),
        )
    return True


def test_every_corpus_table_is_drawn_as_rich_draws_it() -> None:
    reporter = TableReporter()
    laid_out = drawn_by_rich = 0
    for profile in [*_corpus_profiles(), *HAND_REPORT.profiles, *NO_LAYERS_REPORT.profiles]:
        for view in _views(profile):
            for width in WIDTHS:
                specs, rows = reporter.layout(view, width)
                if _check(specs, rows, width):
                    laid_out += 1
                else:
                    drawn_by_rich += 1
    assert laid_out > 200  # most of the corpus's tables, at most widths
    assert drawn_by_rich > 0  # and at 40 columns some do not fit: rich shrinks them


def _text(s: str, style: str = "") -> Text:
    return Text(s, style=style)


@pytest.mark.parametrize("width", [30, 50, 80])
def test_cut_padded_and_wide_cells(width: int) -> None:
    """Cells longer than their column (cut with an ellipsis), right-justified cells with
    trailing blanks, East Asian wide characters, empty cells and styled cells."""
    specs = [
        Spec("ID", "right", None, 2, 4),
        Spec("Op type", "left", None, 6, 10),
        Spec("Name", "left", None, None, 12),
        Spec("", "left", 6, None, None),
        Spec("Bound", "left", None, 5, 9),
    ]
    rows = [
        [
            _text("7"),
            _text("ConvolutionTranspose"),
            _text("模型/卷积层/很长的名字"),
            _text(bar_text(0.4, 0.5, 6), "cyan"),
            _text("bandwidth", "magenta"),
        ],
        [_text("1234567"), _text(""), _text("x  "), _text(""), _text("cpu", "bold red")],
        [
            _text("12  "),
            _text("Add", "dim"),
            _text("/m/add"),
            _text(bar_text(0.5, 0.5, 6)),
            _text(""),
        ],
    ]
    assert _check(specs, rows, width) == (width >= 50)


def test_a_cell_with_a_tab_or_line_break_is_left_to_rich() -> None:
    specs = [Spec("A", "left", None, None, 10), Spec("B", "left", None, None, 10)]
    for odd in ("a\tb", "a\nb"):
        assert grid_lines(specs, [[_text(odd), _text("x")]], 80) is None


def test_bars_are_rich_bars() -> None:
    from rich.bar import Bar

    console = Console(width=40, color_system=None)
    for share in (0.0, 0.0001, 0.013, 0.2, 0.33, 0.5, 0.999, 1.0):
        for width in (8, 12, 20):
            with console.capture() as capture:
                console.print(Bar(size=1.0, begin=0, end=share, width=width))
            assert capture.get().rstrip() == bar_text(share, 1.0, width), (share, width)
