"""The "Operator Time Consuming Ranking Table" (2.x: GPU column, ``%`` ratios, a ``Total`` row
from later 2.x on) and the 1.5 ``Operator Time-Consuming Ranking:`` (no GPU column, no ``%``, no
``Total`` row). Columns come from the header; doc-edited headers with ``...`` in place of some
columns are read by name (a missing CPUTime is derived as Total - NPU - GPU, and said so).

Speed (a capture holds one ranking table per inference): a row's values are checked by one
regex over the values joined by spaces, not one per value, and converted with ``map(float)``.
What one line is (titles, header cells, values, the row tests the bulk path shares) is in
:mod:`~rknnprof.parsers.ranking_lines`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rknnprof.model import OpTypeStat, SkippedRow, tidy_number
from rknnprof.parsers.base import MAX_PASSED_OVER, Block, BlockParser, passed_over
from rknnprof.parsers.events import RankingEvent
from rknnprof.parsers.failure_catalogue import match as known_failure
from rknnprof.parsers.ranking_lines import (
    HEADER_NAMES,
    HEADER_RE,
    VALUE_RE,
    VALUES_RE,
    cut_header,
    damaged_header,
    foreign_cut,
    has_title,
    header_columns,
    passable,
    refuses,
    resumes,
    rounding,
    row_keys,
    row_like,
    row_shaped,
    sentence,
    stat_of,
)
from rknnprof.parsers.table.tokens import is_rule, to_float

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line

_SUM_KEYS = frozenset({"cpu", "npu", "total"})
_DEFAULT_COLUMNS = {
    6: ["calls", "cpu", "gpu", "npu", "total", "ratio"],  # 2.x
    5: ["calls", "cpu", "npu", "total", "ratio"],  # 1.5
}
"""Columns assumed, by the number of values in a row, when the header line is missing."""
RATIO_TOLERANCE_PCT = 0.05
"""TimeRatio is printed with 1 or 2 decimals: allow that rounding, in percentage points."""
TIME_TOLERANCE_US = 0.5
_COLUMN_KEYS = {"cpu_time_us": "cpu", "npu_time_us": "npu", "total_time_us": "total"}
"""The ranking stat's time fields by their column keys."""
MAX_INTRUDERS = 4
"""Foreign lines held inside a split ranking row before the row is given up (a debugger's
stop prints a few: the stop line, its prompt, ``Continuing.``)."""


class RankingBlock(Block):
    def __init__(self, line: Line) -> None:
        self.stream = line.stream
        self.first_line = self.last_line = line.number
        self.columns: list[str] | None = None
        self.stats: list[OpTypeStat] = []
        self.ranked: set[str] = set()
        """The op types in ``stats``."""
        self.total: OpTypeStat | None = None
        self.skipped: list[SkippedRow] = []
        self.notes: list[tuple[int, str]] = []
        self.derived_cpu = False
        self.prefix_len = 0
        self.lines: list[int] = []
        """Input line of each entry of ``stats``."""
        self.total_line: int | None = None
        self.slack: dict[str, float] = {}
        """Column key -> how far its values printed in exponent form (the Total row's too) may
        be from the times they stand for (us), summed."""
        self.pending: tuple[Line, list[str]] | None = None
        """A row cut short (too few values), waiting for its continuation."""
        self.intruders: list[int] = []
        """Lines of foreign lines read while ``pending`` waited (spliced into the row)."""
        self.held = 0
        """Foreign lines held since the last piece of the pending row."""
        self.cut: tuple[int, bool] | None = None
        """When foreign text cut the pending row on its own line and no rest came yet:
        ``last_line`` and ``closed`` before that line."""
        self.cut_cells = 0
        """Cells of the row before the foreign text on its line."""
        self.closed = False
        """A rule line came after the last row (the runtime closes every ranking with one)."""
        self.passed: list[int] = []
        """Lines passed over since the last line taken (:meth:`passes_over`)."""
        if HEADER_RE.search(line.text):
            self._header(line)

    def _header(self, line: Line) -> None:
        self.columns = list(header_columns(line.text))  # cached: every frame prints it
        self.prefix_len = line.text.index("OpType")
        if "..." in line.text:
            self.notes.append((line.number, "ranking header has elided columns (`...`)"))
        if "cpu" not in self.columns and "total" in self.columns:
            self.derived_cpu = True
            self.notes.append(
                (
                    line.number,
                    "ranking has no CPUTime column: CPU time taken as "
                    "TotalTime - NPUTime - GPUTime",
                )
            )

    def damaged(self, line: Line, reason: str) -> None:
        self.skipped.append(SkippedRow(line.number, line.text.strip()[:200], reason))

    def refuses(self, text: str) -> bool:
        """Whether :meth:`feed` would return False for a line ``text`` without changing the
        block (the bulk reader asks before it reads a frame in the block's place). False
        when unsure."""
        return refuses(
            text, bool(self.stats), self.columns is not None and self.pending is None, self._tokens
        )

    def _row(self, line: Line, tokens: list[str]) -> None:
        assert self.columns is not None
        op, values = tokens[0], tokens[1:]
        keys = row_keys(op, self.columns)
        joined = " ".join(values)  # tokens hold no blanks: one fullmatch checks every value
        if len(values) != len(keys) or values and VALUES_RE.fullmatch(joined) is None:
            bad = next((v for v in values if not VALUE_RE.match(v)), None)
            why = (
                f"{bad!r} is not a number"
                if bad is not None
                else f"{len(values)} values for {len(keys)} columns"
            )
            self.skipped.append(SkippedRow(line.number, " ".join(tokens)[:200], why))
            return
        # a value holds at most one "%", at its end
        v = dict(zip(keys, map(to_float, joined.replace("%", "").split())))
        stat = stat_of(op, v, lambda: sum(s.calls for s in self.stats))
        # (times from 1 s on are printed to six digits: the checks allow their rounding)
        slack = 0.0
        if "e" in joined:
            for key, token in zip(keys, values):
                if "e" in token:
                    self.slack[key] = self.slack.get(key, 0.0) + rounding(token)
                    slack += rounding(token)
        if op == "Total":
            self.total, self.total_line = stat, line.number
        else:
            if op in self.ranked:
                self.notes.append((line.number, f"ranking row {op}: the op type is ranked twice"))
            self.ranked.add(op)
            self.stats.append(stat)
            self.lines.append(line.number)
        if (
            _SUM_KEYS <= v.keys()
            and abs(v["cpu"] + v.get("gpu", 0.0) + v["npu"] - v["total"])
            > TIME_TOLERANCE_US + slack
        ):
            self.notes.append(
                (
                    line.number,
                    (
                        f"ranking row {op}: CPU + GPU + NPU time is "
                        f"{tidy_number(v['cpu'] + v.get('gpu', 0.0) + v['npu'])} us but TotalTime "
                        "says "
                        f"{tidy_number(v['total'])} us"
                    ),
                )
            )

    def _tokens(self, text: str) -> list[str]:
        """Row tokens, without the pasted prefix the header had (``D RKNN: [..] ``, indentation)."""
        body = text[self.prefix_len :] if len(text) > self.prefix_len else ""
        if self.prefix_len and body[:1].strip() and not text[: self.prefix_len].isspace():
            return body.split()
        return text.split()

    def passes_over(self, line: Line) -> bool:
        """A foreign line after the ranking's header, among its rows or before its Total row
        (another thread's or the application's output, a failure line, a debugger's stop):
        the ranking stays
        open while scan reads the line on its own, and goes on if its next line continues it
        (:meth:`_resumes`)."""
        if (
            len(self.passed) >= MAX_PASSED_OVER
            or self.columns is None
            or self.total is not None
            or self.pending is not None
            or not passable(line.text, self._tokens(line.text))
        ):
            return False
        self.passed.append(line.number)
        return True

    def _resumes(self, text: str) -> bool:
        """After lines passed over: ``text`` continues the ranking (the row of an op type not
        ranked yet, the Total row) or ends it (a rule, taken as the ranking's last line); after
        the rule that closes the rows, only the Total row continues it."""
        s = text.strip()
        if not s:
            return False
        closed = self.closed and bool(self.stats)  # (not the rule under the header)
        if is_rule(s):
            return not closed
        return resumes(self._tokens(text), self.ranked, closed)

    def feed(self, line: Line) -> bool:
        s = line.text.strip()
        if self.passed:
            if not self._resumes(line.text):
                return False
            if not is_rule(s):  # (a rule after them ends the ranking: they came after it)
                self.notes.append((self.passed[0], passed_over(self.passed, "ranking")))
            self.passed = []
        if not s or is_rule(s) or has_title(s):
            if self.stats and has_title(s):
                return False  # the next table's title
            self.closed = self.closed or (bool(s) and is_rule(s) and self.columns is not None)
            self.last_line = line.number
            return True
        if self.columns is None:
            if HEADER_RE.search(line.text) or damaged_header(line.text):
                self._header(line)
            elif cut_header(line.text):
                self.notes.append((line.number, f"ranking header cut short: {s!r}"))
            elif not self._headerless(line):
                return False
            self.last_line = line.number
            return True
        tokens = self._tokens(line.text)
        if self.pending is not None and self._splice(line, tokens):
            self.closed = False
            self.last_line = line.number
            return True
        # (the Total row is the last; a rule after rows closes the table, not the header's)
        ended = self.total is not None or self.closed and bool(self.stats)
        cut = None if ended else foreign_cut(line.text, tokens, len(self.columns))
        if cut is not None:  # a row cut by a foreign program's text: wait for the rest
            self.pending, self.intruders, self.held = (line, tokens[:cut]), [line.number], 0
            self.cut, self.cut_cells = (self.last_line, self.closed), cut
            self.last_line = line.number
            return True
        if not row_shaped(tokens):
            if not row_like(tokens):
                return False
        elif sentence(tokens):
            return False  # words after a number (`Frame 1 done`, a debugger's stop): no row
        if ended and (self.total is not None or tokens[0] != "Total"):
            return False  # after its Total row, or the rule after its rows, only a Total row
        if self._short(tokens):
            self.pending = (line, tokens)
        else:
            self._row(line, tokens)
        self.closed = False  # a row: the rule that closes the table is still to come
        self.last_line = line.number
        return True

    def _short(self, tokens: list[str]) -> bool:
        """A row with fewer values than the columns, all of them numbers: cut (maybe spliced)."""
        assert self.columns is not None
        values = tokens[1:]
        return (
            tokens[0] != "Total"
            and 0 < len(values) < len(self.columns)
            and all(VALUE_RE.match(v) for v in values)
        )

    def _splice(self, line: Line, tokens: list[str]) -> bool:
        """With a row cut short pending: rejoin it with this line when the two make one row,
        or keep this line's values when they still leave the row short (a row split over three
        lines by interleaved output); hold foreign lines in between (up to
        :data:`MAX_INTRUDERS` in a row); else skip the cut row (it is warned about) and let this
        line be read as usual (False)."""
        assert self.pending is not None and self.columns is not None
        first, head = self.pending
        if tokens and all(VALUE_RE.match(t) for t in tokens):
            have = len(head) - 1 + len(tokens)
            if have <= len(self.columns):
                self.cut = None  # (a row cut by foreign text: its rest came)
            if have == len(self.columns):
                self.pending = None
                if self.intruders:
                    self.notes.append(
                        (
                            first.number,
                            f"ranking row {head[0]}: {self._foreign(first)} spliced into it; "
                            f"rejoined with line {line.number}",
                        )
                    )
                self.intruders, self.held = [], 0
                self._row(first, head + tokens)
                return True
            if have < len(self.columns):
                self.pending = (first, head + tokens)
                self.held = 0
                return True
        if self.held < MAX_INTRUDERS and not row_like(tokens) and known_failure(line.text) is None:
            self.intruders.append(line.number)
            self.held += 1
            return True
        self._drop_pending()
        return False

    def _foreign(self, first: Line) -> str:
        """What foreign output the pending row (from line ``first``) took in."""
        lines = [n for n in self.intruders if n != first.number]
        cells = "its op type" if self.cut_cells == 1 else f"its first {self.cut_cells} cells"
        said = (
            [f"foreign text after {cells} (line {first.number})"]
            if len(lines) < len(self.intruders)
            else []
        )
        if len(lines) == 1:
            said.append(f"a foreign line (line {lines[0]})")
        elif lines:
            said.append(f"foreign lines (lines {', '.join(map(str, lines))})")
        return " and ".join(said) + (" were" if len(self.intruders) > 1 else " was")

    def _drop_pending(self) -> None:
        if self.cut is not None:  # no rest came: a line of prose after the rows, not a row
            self.last_line, self.closed = self.cut
        elif self.pending is not None:
            first, head = self.pending
            self._row(first, head)  # too few values: a skipped row, with its reason
            for intruder in self.intruders:
                if intruder != first.number:
                    self.notes.append((intruder, "foreign line inside the ranking (not read)"))
        self.pending, self.intruders, self.held, self.cut = None, [], 0, None

    def _headerless(self, line: Line) -> bool:
        """Rows after the title without a header line: assume the columns from the row width."""
        tokens = line.text.split()
        columns = _DEFAULT_COLUMNS.get(len(tokens) - 1)
        if (
            columns is None
            or VALUE_RE.match(tokens[0])
            or not all(VALUE_RE.match(tok) for tok in tokens[1:])
        ):
            return False
        self.columns = list(columns)
        self.notes.append(
            (
                line.number,
                (
                    "ranking rows without a header line: assumed the columns OpType "
                    + " ".join(HEADER_NAMES[c] for c in columns)
                ),
            )
        )
        self._row(line, tokens)
        return True

    def _check_ratios(self) -> None:
        """TimeRatio against TotalTime: every row's ratio / time must be the same (1 / total)."""
        rated = [
            (s, n)
            for s, n in zip(self.stats, self.lines, strict=True)
            if s.share is not None and s.total_time_us > 0
        ]
        if not rated:
            return
        if self.total is not None and self.total.total_time_us > 0:
            denominator = float(self.total.total_time_us)
        else:  # the largest row gives the most precise estimate
            top = max(rated, key=lambda item: item[0].total_time_us)[0]
            denominator = top.total_time_us / top.share if top.share else 0.0
        if not denominator:
            return
        for stat, number in rated:
            expected = 100 * stat.total_time_us / denominator
            if abs(100 * stat.share - expected) > RATIO_TOLERANCE_PCT:  # type: ignore[operator]  # rated keeps only rows with a share
                total = tidy_number(round(denominator))
                self.notes.append(
                    (
                        number,
                        (
                            # rated keeps only rows with a share
                            f"ranking row {stat.op_type}: TimeRatio {100 * stat.share:.2f}% does "  # type: ignore[operator]
                            "not "
                            f"match its TotalTime ({expected:.2f}% of {total} us)"
                        ),
                    )
                )

    def _check_total_row(self) -> None:
        """The ``Total`` row against the column sums."""
        if self.total is None or self.total_line is None or not self.stats:
            return
        for name, label in (
            ("cpu_time_us", "CPUTime"),
            ("npu_time_us", "NPUTime"),
            ("total_time_us", "TotalTime"),
        ):
            column = sum(getattr(s, name) for s in self.stats)
            printed = getattr(self.total, name)
            key = _COLUMN_KEYS[name]
            if abs(column - printed) > TIME_TOLERANCE_US + self.slack.get(key, 0.0):
                self.notes.append(
                    (
                        self.total_line,
                        (
                            f"ranking Total row: {label} {tidy_number(printed)} us but the rows "
                            "above "
                            f"sum to {tidy_number(column)} us"
                        ),
                    )
                )

    def close(self) -> list[RankingEvent]:
        self._drop_pending()
        if not self.stats and self.total is None:
            if not self.skipped:
                return []
        else:
            self._check_ratios()
            self._check_total_row()
        return [
            RankingEvent(
                line=self.first_line,
                last_line=self.last_line,
                stats=tuple(self.stats),
                total=self.total,
                stream=self.stream,
                skipped=tuple(self.skipped),
                notes=tuple(self.notes),
                cut=bool(self.stats) and self.total is None and not self.closed,
            )
        ]


class RankingParser(BlockParser):
    family: ClassVar[str] = "toolkit2-ranking"
    detection: ClassVar[str] = (
        "'Operator Time Consuming Ranking Table' / 'Operator Time-Consuming Ranking:' or an "
        "'OpType CallNumber ...' header"
    )
    fields: ClassVar[str] = "per op type: calls, CPU/GPU/NPU/total time, time ratio; the Total row"

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if has_title(text) or ("OpType" in text and HEADER_RE.search(text)):
            return RankingBlock(line)
        return None
