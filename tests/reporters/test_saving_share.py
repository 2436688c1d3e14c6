"""A saving's share says what it is a share of: the headline and each finding of a table that
only shows some rows (no total line) say "of the rows shown", as the finding's own text does."""

from __future__ import annotations

from rknnprof.api import analyze
from rknnprof.reporters._facts import biggest_win, saving_text


def test_an_elided_table_without_a_total_line_gives_shares_of_the_rows_shown(corpus) -> None:
    # corpus 03: rows 7-9 between '......' lines, no total line; they sum to 3,973 + 573 +
    # 1,283 = 5,829 us, and RKN070 prices 1,404 us of the ConvExSwish: 24.1 % of that
    [profile] = analyze(str(corpus("03_"))).profiles
    assert biggest_win(profile) == (
        "biggest win: RKN070 activation-swap saves ~1,404 us (24.1% of the rows shown), advice 1"
    )


def test_a_whole_table_gives_a_share_of_the_frame(corpus) -> None:
    # corpus 07: a complete table with its total line: no qualifier
    [profile] = analyze(str(corpus("07_"))).profiles
    text = saving_text(profile.findings[0], profile)
    assert text.startswith("saves ~") and text.endswith("%)") and "rows shown" not in text
