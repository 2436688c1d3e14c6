"""The ranking half of the bulk path (:mod:`rknnprof.parsers.fastpath.skipper`): the checks a
frame's ranking table passes to be read in bulk, and the ranking block a frame read in bulk
leaves open on its stream (:class:`BulkRanking`), with its stats read on first use
(:class:`LazyStats`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import add, mul, sub, truediv
from typing import TYPE_CHECKING

from rknnprof.model import OpTypeStat
from rknnprof.parsers.base import MAX_PASSED_OVER, Block
from rknnprof.parsers.events import RankingEvent
from rknnprof.parsers.fastpath.lazy import Lazy
from rknnprof.parsers.fastpath.template import MAX_SHAPES, SHAPE, Template, same_line
from rknnprof.parsers.ranking import RATIO_TOLERANCE_PCT, TIME_TOLERANCE_US, RankingBlock
from rknnprof.parsers.ranking_lines import (
    SHARE_DIGITS,
    passable,
    plain_row,
    refuses,
    rounding,
    row_shaped,
    stat_of,
)
from rknnprof.parsers.table.tokens import is_rule

if TYPE_CHECKING:
    from rknnprof.inputs.claims import ReadLine
    from rknnprof.inputs.records import Line

_NO_SLACK = {"cpu": 0.0, "npu": 0.0, "total": 0.0}
"""A Total row printed whole: no rounding to allow."""
MARGIN = 1e-6
"""How far inside a ranking tolerance a value must be for a frame to be read in bulk."""
_ROUNDING = 100 * 0.5 * 10.0**-SHARE_DIGITS + 1e-9
"""How far a printed ratio (percent) can be from 100x the share kept for it (rounded to
``SHARE_DIGITS`` digits of a fraction), float error included."""


def ranking_total(
    t: Template, mine: list[bytes], number: int, index: Sequence[int], read_line: ReadLine
) -> tuple[OpTypeStat | None] | None:
    """``(the ranking's Total stat or None,)`` when its rows are complete rows, each op type once,
    and the checks the ranking block makes of the values pass (with :data:`MARGIN`); else
    None (the frame is read line by line)."""
    slots = t.rank_slots
    shapes = list(map(bytes.translate, map(mine.__getitem__, slots), repeat(SHAPE)))
    if not t.ranks_seen.issuperset(shapes):
        for i, shape in zip(slots, shapes):
            if shape not in t.ranks_seen:
                line = read_line(mine[i], number + index[i])
                if (
                    line is None
                    or not same_line(line, mine[i], t.lines[0], t.prefix)
                    or not plain_row(line.text, t.columns)
                ):
                    return None
                if len(t.ranks_seen) >= MAX_SHAPES:
                    t.ranks_seen.clear()
                t.ranks_seen.add(shape)
    p = t.prefix
    width = 1 + len(t.columns)
    # the values' "%" signs dropped first: from an op type too, which can only make two op
    # types alike or one "Total" (the frame is then read line by line)
    # (a row's time in exponent form is checked without its rounding: stricter, never looser)
    joined = b" ".join([raw[p:] for raw in mine[t.ranks.start : t.ranks.stop]])
    flat = joined.replace(b"%", b"").split()
    n = len(t.ranks)
    ops = flat[0::width]
    if len(flat) != width * n or len(set(ops)) != n or b"Total" in ops:
        return None  # (an op type ranked twice gets a note; their order may change)
    del flat[0::width]  # the op types: the values are left, row by row
    values = list(map(float, flat))
    cols = {key: values[k :: width - 1] for k, key in enumerate(t.columns)}
    cpu, npu, tot = cols["cpu"], cols["npu"], cols["total"]
    gpu = cols.get("gpu", [0.0] * n)
    limit = TIME_TOLERANCE_US - MARGIN
    if max(map(abs, map(sub, map(add, map(add, cpu, gpu), npu), tot))) > limit:
        return None  # CPU + GPU + NPU against TotalTime, row by row
    ratios = cols["ratio"]
    total: OpTypeStat | None = None
    if t.rank_total is not None:
        raw_total = mine[t.rank_total][p:]
        total_tokens = raw_total.split()
        total_keys = t.total_keys
        if total_tokens[0] != b"Total" or len(total_tokens) != 1 + len(total_keys):
            return None
        tv = dict(zip(total_keys, map(float, total_tokens[1:])))
        # (a frame of a second or more prints its Total in exponent form, six digits: the
        # checks allow that rounding, as the ranking block does, column by column)
        slack = _NO_SLACK
        if b"e" in raw_total:
            slack = {
                key: rounding(token.decode()) if b"e" in token else 0.0
                for key, token in zip(total_keys, total_tokens[1:])
            }
        if abs(tv["cpu"] + tv.get("gpu", 0.0) + tv["npu"] - tv["total"]) > limit + sum(
            slack.values()
        ):
            return None
        for key in ("cpu", "npu", "total"):  # the Total row against the column sums
            if abs(sum(cols[key]) - tv[key]) > limit + slack[key]:
                return None
        denominator = tv["total"]
        if not denominator > 0:
            return None
        calls = cols.get("calls", [])
        total = stat_of("Total", tv, lambda: sum(map(int, calls)))
    else:  # as RankingBlock._check_ratios: the largest row gives the most precise estimate
        top = max(tot)
        if not top > 0:
            return (None,)  # no row has a time: no ratio is checked
        share = round(ratios[tot.index(top)] / 100, SHARE_DIGITS)
        denominator = top / share if share else 0.0
        if not denominator:
            return (None,)
    return (total,) if ratios_fit(ratios, tot, denominator) else None


def ratios_fit(ratios: list[float], times: list[float], denominator: float) -> bool:
    """TimeRatio against TotalTime, as ``RankingBlock._check_ratios`` computes it on the shares
    it keeps (the ratio / 100 rounded to ``SHARE_DIGITS`` digits: in percent, within 5e-5 of
    the ratio), with
    :data:`MARGIN`. Rows with no time, which it skips, are held to it too: stricter, never
    looser. The printed ratios are checked first (in C); only a frame within 5e-5 of the
    tolerance on either side is checked on the rounded shares."""
    limit = RATIO_TOLERANCE_PCT - MARGIN
    expected = list(map(truediv, map(mul, repeat(100), times), repeat(denominator)))
    off = max(map(abs, map(sub, ratios, expected)))
    if off > limit + _ROUNDING:
        return False
    if off <= limit - _ROUNDING:
        return True
    shares = map(round, map(truediv, ratios, repeat(100)), repeat(6))
    return bool(max(map(abs, map(sub, map(mul, repeat(100), shares), expected))) <= limit)


class LazyStats(Lazy[OpTypeStat]):
    """The ranking's op-type stats of a frame read in bulk, read exactly on first use."""

    __slots__ = ("_read", "rows")

    def __init__(self, rows: int, read: Callable[[], tuple[OpTypeStat, ...]]) -> None:
        super().__init__()
        self.rows = rows
        """How many stats (the ranking's op-type rows): known without reading them."""
        self._read = read

    def _make(self) -> tuple[OpTypeStat, ...]:
        return self._read()

    def __len__(self) -> int:
        return self.rows


class BulkRanking(Block):
    """The ranking block of a frame read in bulk, left open on its stream as a ranking block
    would be: it takes what a ranking block with these rows takes, refuses the next title, and
    closes into the ranking's event. A line it cannot answer for makes it read the ranking's
    lines exactly into a :class:`RankingBlock` and hand everything to that."""

    def __init__(
        self,
        t: Template,
        total: OpTypeStat | None,
        line: int,
        last_line: int,
        lines: Callable[[], list[Line]],
    ) -> None:
        self.template = t
        self.total = total
        self.first_line = line
        self.last_line = last_line
        self._lines = lines
        self.real: RankingBlock | None = None
        self.passed: list[int] = []
        """Lines passed over before the ranking was read exactly (``RankingBlock.passed``)."""

    def _exact(self) -> RankingBlock:
        if self.real is None:
            lines = self._lines()
            real = RankingBlock(lines[0])
            for line in lines[1:]:
                fed = real.feed(line)
                assert fed
            real.last_line = self.last_line
            real.passed, self.passed = self.passed, []
            self.real = real
        return self.real

    def refuses(self, text: str) -> bool:
        if self.real is not None:
            return self.real.refuses(text)
        # rows, columns, nothing pending, no pasted prefix
        return refuses(text, True, True)

    def feed(self, line: Line) -> bool:
        if self.real is None and self.passed and not self._may_resume(line.text):
            return False
        if self.real is None and not self.passed:
            if refuses(line.text, True, True):
                return False
            s = line.text.strip()
            if not s or is_rule(s):
                self.last_line = line.number
                return True
        return self._exact().feed(line)

    def passes_over(self, line: Line) -> bool:
        # (as the ranking block would say, from the line alone: a frame read in bulk has rows,
        # columns, nothing pending and no pasted prefix)
        if self.real is not None:
            return self.real.passes_over(line)
        if (
            self.total is not None
            or len(self.passed) >= MAX_PASSED_OVER
            or not passable(line.text, line.text.split())
        ):
            return False
        self.passed.append(line.number)
        return True

    def _may_resume(self, text: str) -> bool:
        """After lines passed over: whether ``text`` may continue the ranking (the ranking
        block read exactly decides; ``ranking_lines.resumes``)."""
        s = text.strip()
        if not s:
            return False
        if is_rule(s):
            return not self.template.rank_closed
        return row_shaped(text.split())

    def damaged(self, line: Line, reason: str) -> None:
        self._exact().damaged(line, reason)

    def close(self) -> list[RankingEvent]:
        if self.real is not None:
            return self.real.close()
        t = self.template
        stats = LazyStats(len(t.ranks), lambda: tuple(self._exact().close()[0].stats))
        return [
            RankingEvent(
                line=self.first_line,
                last_line=self.last_line,
                stats=stats,
                total=self.total,
                stream=t.stream,
            )
        ]
