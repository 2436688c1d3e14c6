"""ReadStats.last_line: the number of the last Line yielded (what "no profile data in N
line(s)" counts), with dropped lines (dividers, chatty) at the end and early closing."""

from __future__ import annotations

import io
from itertools import islice

from rknnprof.inputs.lines import ReadStats, read_lines

DIVIDER = "--------- beginning of main"
CHATTY = (
    "11-30 10:00:00.500   561   602 I chatty  : uid=1000(system) Binder:561_2 identical 3 lines"
)
NOISE = "11-30 10:00:00.500   561   602 I ActivityManager: Start proc 4321"


def _last(text: str, take: int | None = None) -> tuple[int, int]:
    stats = ReadStats()
    lines = read_lines(io.BytesIO(text.encode()), stats)
    got = [line.number for line in islice(lines, take)]
    lines.close()
    return stats.last_line, (got[-1] if got else 0)


def test_last_line_is_the_last_yielded_one() -> None:
    assert _last("") == (0, 0)
    assert _last(DIVIDER + "\n") == (0, 0)
    assert _last("\n".join([NOISE, DIVIDER, CHATTY, CHATTY])) == (1, 1)
    assert _last("\n".join([DIVIDER, NOISE, CHATTY, NOISE, CHATTY, DIVIDER])) == (4, 4)
    assert _last("\n".join([NOISE] * 5)) == (5, 5)


def test_last_line_after_closing_early() -> None:
    assert _last("\n".join([NOISE] * 5), take=2) == (2, 2)
    assert _last("\n".join([DIVIDER, CHATTY, NOISE, NOISE]), take=1) == (3, 3)
