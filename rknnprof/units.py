"""How times and shares are written: one rule for every reporter and every finding message.

* A **frame's** time -- a total, a frame percentile, a benchmark run, the advice's total at
  stake -- in milliseconds with two decimals: ``28.02 ms`` (:func:`frame_ms`).
* A **part** of a frame -- a layer, an op type, a group of layers, one finding's saving -- in
  microseconds with a thousands separator and no decimals: ``6,030 us`` (:func:`part_us`).
* A table column carries the unit in its header (``Time us``) and the number alone:
  ``6,030`` (:func:`cell`).
* A share of the frame: a percentage with one decimal, ``21.5%`` (:func:`percent`).

Values are microseconds in and text out; ``-`` stands for unknown. The model, the rules and the
reporters all import this module, so the same number is spelled the same way everywhere.
"""

from __future__ import annotations

UNKNOWN = "-"


def frame_ms(value_us: float | None) -> str:
    """A frame-level time: ``28021.4`` -> ``28.02 ms``; ``-`` when unknown."""
    if value_us is None:
        return UNKNOWN
    return f"{value_us / 1000:,.2f} ms"


def part_us(value_us: float | None) -> str:
    """A part of a frame: ``6030.4`` -> ``6,030 us``; ``-`` when unknown."""
    if value_us is None:
        return UNKNOWN
    return f"{value_us:,.0f} us"


def cell(value: float | None) -> str:
    """A table cell under a unit header: ``1,888`` (``1,888.5`` with a fraction), ``-``."""
    if value is None:
        return UNKNOWN
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def percent(fraction: float | None) -> str:
    """A fraction 0..1 of the frame: ``0.2148`` -> ``21.5%``; ``<0.1%`` for a part too small
    to show (a 135 us saving of a 1.18 s frame is not ``0.0%``); ``-`` when unknown."""
    if fraction is None:
        return UNKNOWN
    if 0 < fraction < 0.0005:
        return "<0.1%"
    return f"{fraction * 100:.1f}%"


def signed_percent_beside(share: float, limit: float) -> str:
    """``+6.9%`` for the fraction ``share``, with more digits where one decimal would read as
    ``limit`` (a fraction) itself: a pass at +4.996 % and a fail at +5.004 % both read
    ``+5.0%``."""
    for digits in (1, 2, 3):
        text = f"{share * 100:+.{digits}f}"
        if float(text) != round(limit * 100, digits) or share == limit:
            return text + "%"
    return text + "%"
