"""The :class:`Block` that reads one per-layer table (either toolkit2 layout) and its total lines.

States: ``pre`` (title, rules, banner; waiting for the header), ``rows``, ``after`` (total lines
and rules after the rows). A foreign line ends the block and is offered to the other parsers;
among rows with IDs it is passed over instead (:meth:`TableBlock.passes_over`: another
thread's or the application's output, a failure line, read on its own), and the table goes on
if its next line continues it.

A table that repeats the previous table of its stream (the next frame of the same model) is
read on the fast path of :mod:`rknnprof.parsers.fastpath.repeat`: its layers are built only when
used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.model.record import replace
from rknnprof.parsers.base import MAX_PASSED_OVER, Block, passed_over
from rknnprof.parsers.events import (
    MissingHeader,
    TableEvent,
    inputs_of,
    names_of,
    placements_of,
    times_of,
)
from rknnprof.parsers.failure_catalogue import match as known_failure
from rknnprof.parsers.fastpath.repeat import Carried, RepeatedLayers, RepeatedRows
from rknnprof.parsers.ranking_lines import has_title
from rknnprof.parsers.table.columns import (
    DEFAULT_2X_COLUMNS,
    ROW_REQUIRED,
    TITLE,
    TOTAL_RW_KB_RE,
    TOTAL_RW_MB_RE,
    TOTAL_TIME_RE,
    Column,
    RowParse,
    header_family,
    is_build_row,
    parse_header,
    parse_tokens,
    total_figure,
)
from rknnprof.parsers.table.layer import build_layer, skipped
from rknnprof.parsers.table.rows import (
    MAY_BE_EMPTY,
    TableLimits,
    body_of,
    damage_reason,
    is_total_line,
    missing_columns,
)
from rknnprof.parsers.table.tokens import (
    ELISION_RE,
    NumberOutOfRange,
    is_rule,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rknnprof.inputs.lines import Line
    from rknnprof.model import Layer, SkippedRow

_BANNER_WORDS = ("Performance", "####")
TITLE_ONLY_NOTE = "perf table title without a header"
HEADERLESS_NOTE_START = "rows without a table header"
"""How every note on rows read without their header begins (here and in build_table): the
assembler marks such a profile ``headerless``."""
BUILD_ESTIMATE_NOTE = (
    "build-time statistics (Time(us) 0 on every row, no total line): "
    "compiler cycles, not a measurement"
)
MAX_SHORT_ROW_NOTES = 5
"""Short rows named one by one per table; later ones are counted in one more note."""


class TableBlock(Block):
    def __init__(
        self,
        line: Line,
        family: str,
        *,
        state: str = "pre",
        header: tuple[int, tuple[Column, ...]] | None = None,
        headerless_prefix: str | None = None,
    ) -> None:
        self.family = family
        self.stream = line.stream
        self.first_line = self.last_line = line.number
        self.state = state
        self.columns: tuple[Column, ...] | None = None
        self.prefix_len = 0
        self.layers: list[Layer] = []
        self.skipped: list[SkippedRow] = []
        self.limits = TableLimits()
        self.notes: list[tuple[int, str]] = []
        self.assumed_layout = headerless_prefix is not None and header is None
        self.pending: tuple[int, list[str], RowParse] | None = None
        self.intruder: int | None = None
        """Line of a foreign line read while a row cut short was pending (spliced into it?)."""
        self.passed: list[int] = []
        """Lines passed over since the last line taken (:meth:`passes_over`)."""
        self.total_time: float | None = None
        self.total_line: int | None = None
        self.rw_kb: float | None = None
        self.elided = 0
        self.short_rows = 0
        self.saw_header = False
        self.handed_over = False
        """True when the header turned out to be another family's (the estimate table)."""
        self.carried: Carried | None = None
        """The previous table of this stream (``take_over``), while this one may repeat it."""
        self.repeated: RepeatedRows | None = None
        """The rows read on the fast path, while every row so far repeats ``carried``."""
        self.repeated_frame = False
        """True when the table, once closed, repeated ``carried`` row for row (its layers are
        lazy)."""
        self.result: TableEvent | None = None
        if header is not None:
            self._set_header(line, header)
        elif headerless_prefix is not None:
            self.columns = DEFAULT_2X_COLUMNS
            self.prefix_len = len(headerless_prefix)
            self.notes.append(
                (
                    line.number,
                    (
                        f"{HEADERLESS_NOTE_START}: assumed the 2.x column layout (ID OpType "
                        "DataType "
                        "Target InputShape OutputShape Cycles(DDR/NPU/Total) Time(us) MacUsage(%) "
                        "WorkLoad(0/1/2) RW(KB) FullName) from the row shape"
                    ),
                )
            )
            self._row(line, line.text[self.prefix_len :])
        elif state == "after":
            self._summary(line)

    # -- helpers ---------------------------------------------------------------------------
    def _set_header(self, line: Line, header: tuple[int, tuple[Column, ...]]) -> None:
        self.prefix_len, self.columns = header
        self.saw_header = True
        self.state = "rows"
        self.family = header_family(self.columns)
        if any(c.key == "elided" for c in self.columns):
            known = " ".join(c.header for c in self.columns if c.key != "elided")
            self.notes.append(
                (line.number, f"header has elided columns (`...`); known columns: {known}")
            )
        self._start_repeating()

    def _start_repeating(self) -> None:
        """Take the fast path when the header is the carried table's and nothing else was read."""
        c = self.carried
        if (
            c is not None
            and self.saw_header
            and c.template.family == self.family
            and c.prefix_len == self.prefix_len
            and c.columns == self.columns
            and not (self.layers or self.skipped or self.notes or self.pending or self.elided)
        ):
            self.repeated = RepeatedRows(c, MAY_BE_EMPTY)

    def _stop_repeating(self) -> None:
        """The rows read on the fast path become layers; the table goes on as usual."""
        if self.repeated is not None:
            self.layers[:0] = self.repeated.layers()
            self.repeated = None

    def _body(self, text: str) -> tuple[str, bool]:
        return body_of(text, self.prefix_len)

    def _summary(self, line: Line) -> bool:
        text = line.text
        if "Total " not in text:  # every total line names a Total; rows rarely do
            return False
        try:
            if (m := TOTAL_TIME_RE.search(text)) is not None:
                self.total_time = total_figure(m.group(1))
                self.total_line = line.number
            elif (m := TOTAL_RW_KB_RE.search(text)) is not None:
                self.rw_kb = total_figure(m.group(1))
            elif (m := TOTAL_RW_MB_RE.search(text)) is not None:
                mb = float(total_figure(m.group(1)))
                self.rw_kb = mb * 1024 if mb else None  # 1.5 runtimes print 0 when they do not
            else:
                return False
        except NumberOutOfRange as e:
            self.notes.append((line.number, f"total line not read: {e}"))
        return True

    def _flush(self) -> None:
        if self.pending is None:
            return
        number, tokens, parse = self.pending
        self.pending = None
        lost = [c.header for c in parse.missing if c.key in ROW_REQUIRED]
        if lost:
            self._skip(skipped(number, " ".join(tokens), f"row cut short: no {', '.join(lost)}"))
            return
        self._append(number, parse.values)

    def _append(self, number: int, values: dict[str, str]) -> None:
        """Keep the row; note (with its line) a row with fewer fields than the header."""
        assert self.columns is not None
        absent = missing_columns(values, self.columns)
        if absent:
            self.short_rows += 1
            if self.short_rows <= MAX_SHORT_ROW_NOTES:
                self.notes.append(
                    (
                        number,
                        (
                            f"row {values.get('id', '?')} has fewer fields than the header: no "
                            f"{', '.join(absent)} (kept with those values unknown)"
                        ),
                    )
                )
        try:
            layer = build_layer(values, number)
        except NumberOutOfRange as e:  # 400-digit times, 20-digit ids: damage, not data
            self._skip(skipped(number, " ".join(values.values()), str(e)))
            return
        if not self.limits.full(len(self.layers), number, self.notes):  # an endless stream
            self.layers.append(layer)

    def _skip(self, row: SkippedRow) -> None:
        self.limits.skip(self.skipped, row, self.notes)

    def damaged(self, line: Line, reason: str) -> None:
        self._skip(skipped(line.number, line.text, reason))

    def _row(self, line: Line, body: str) -> None:
        assert self.columns is not None
        if self.repeated is not None:
            if self.repeated.take(line.number, body, line.text):
                return
            self._stop_repeating()
        tokens = body.split()
        parse = parse_tokens(tokens, self.columns)
        if parse.error:
            self._skip(skipped(line.number, body, parse.error))
        elif parse.missing:
            self.pending = (line.number, tokens, parse)
        else:
            self._append(line.number, parse.values)

    def _continuation(self, line: Line, body: str) -> bool:
        """Join ``body`` to the held-back row when that makes a better row."""
        if self.pending is None or self.columns is None:
            return False
        number, tokens, old = self.pending
        joined = tokens + body.split()
        parse = parse_tokens(joined, self.columns)
        if parse.error or len(parse.missing) >= len(old.missing):
            return False
        self.pending = (number, joined, parse)
        self.notes.append(
            (
                line.number,
                f"row {old.values.get('id', '?')} continues on this line (the row was "
                "wrapped: read whole)",
            )
        )
        if not parse.missing:
            self._flush()
        return True

    # -- Block -------------------------------------------------------------------------------
    def feed(self, line: Line) -> bool:
        text = line.text
        if (
            self.state == "rows"
            and self.repeated is not None
            and self.repeated.take_line(line.number, text)
        ):  # a line of a shape read as a repeated row before
            self.last_line = line.number
            return True
        s = text.strip()
        if self.state == "pre":
            return self._feed_pre(line, s)
        if self.passed:
            if not self._resumes(text, s):
                return False
            self.notes.append((self.passed[0], passed_over(self.passed, "table")))
            self.passed = []
        if not s:
            self.last_line = line.number
            return True
        # rows pass the tests below on their way to _row: each starts with a literal test
        if s[-1] in "-=" and is_rule(s):
            self._flush()
            read_rows = self.layers or self.repeated is not None and self.repeated.rows
            if self.state == "rows" and (read_rows or self.skipped or self.elided):
                self.state = "after"
            self.last_line = line.number
            return True
        if "Total " in text and self._summary(line):
            self._flush()
            self.state = "after"
            self.last_line = line.number
            return True
        if (
            self.state == "after"
            or TITLE in s
            or ("OpType" in text and parse_header(text) is not None)
        ):
            return False
        if s.startswith((".", "…")) and ELISION_RE.match(s):
            self._flush()
            if not self.elided:
                self.notes.append((line.number, f"elided rows (`{s}`): the table is incomplete"))
            self.elided += 1
            self.last_line = line.number
            return True
        body, is_row = self._body(text)
        intruder, self.intruder = self.intruder, None
        if is_row:
            if not self.saw_header and is_build_row(body.split()):
                self._flush()  # headerless, and a build-estimate row: parsers/build_table.py's
                return False
            if self.pending is not None:
                self._flush()  # a row cut short and not continued: skipped, with its reason
                if intruder is not None:
                    self.notes.append((intruder, "foreign line inside the table (not read)"))
            self._row(line, body)
        elif self._continuation(line, body):
            if intruder is not None:
                self.notes.append(
                    (
                        intruder,
                        "a foreign line was spliced into the row above "
                        "it; the row was rejoined across it",
                    )
                )
        elif self.pending is not None and intruder is None and not known_failure(text):
            self.intruder = line.number  # a foreign line spliced into the pending row? held
        elif known_failure(text) is not None or not self._keep_as_skipped(line, body):
            self._flush()  # (a failure line is read as one, even when it names the NPU)
            return False
        self.last_line = line.number
        return True

    def passes_over(self, line: Line) -> bool:
        """A foreign line among rows with IDs (or between them and the total lines): another
        thread's or the application's output, a debugger's stop, a failure line (also one that
        names the NPU or holds a cycles-like cell). The table stays open while scan reads the
        line on its own, and goes on if its next line of its own continues it
        (:meth:`_resumes`); else it ends at its last row, as it would have."""
        if (
            len(self.passed) >= MAX_PASSED_OVER
            or self.pending is not None
            or self.columns is None
            or self.state not in ("rows", "after")
            or (self.state == "after" and self.total_time is not None and self.rw_kb is not None)
            or not any(c.key == "id" for c in self.columns)
        ):
            return False
        text = line.text
        if TITLE in text or has_title(text) or ("OpType" in text and parse_header(text)):
            return False  # another table begins
        body, is_row = self._body(text)
        if is_row:
            return False  # a row that does not continue this table's
        if (
            self.state == "rows"
            and known_failure(text) is None
            and damage_reason(body, self.columns) is not None
        ):
            return False  # (kept as a damaged row when it came: here it ended the rows)
        self._stop_repeating()
        if self._last_id() is None:
            return False
        self.passed.append(line.number)
        return True

    def _last_id(self) -> int | None:
        """The ID of the last row read: the last layer's, or a skipped row's after it."""
        last = self.layers[-1] if self.layers else None
        if self.skipped and (last is None or (last.line or 0) < self.skipped[-1].line):
            head = self.skipped[-1].text.split(None, 1)[:1]
            if head and head[0].isdigit() and len(head[0]) <= 9:
                return int(head[0])
        return None if last is None else last.id

    def _resumes(self, text: str, s: str) -> bool:
        """After lines passed over: ``text`` continues the table (the next row ID, the rule
        after the rows, a total line)."""
        if not s:
            return False
        if is_total_line(text):
            return True
        if self.state != "rows":
            return False
        if s[-1] in "-=" and is_rule(s):
            return True
        body, is_row = self._body(text)
        first = body.split(None, 1)[0] if is_row else ""
        last = self._last_id()
        return first.isdigit() and last is not None and int(first) == last + 1

    def _feed_pre(self, line: Line, s: str) -> bool:
        """Before the header: title, rules and banner lines are taken; the header starts the
        rows; anything else ends the block."""
        if not s or is_rule(s) or TITLE in s or s.startswith(_BANNER_WORDS):
            self.last_line = line.number
            return True
        header = parse_header(line.text)
        if header is None:
            return False
        if not {c.key for c in header[1]} & {"time", "mac", "workload"}:
            # a Time-less header is the build-time estimate (parsers/build_table.py): hand
            # the header over, and the title and rules read so far go with it
            self.handed_over = True
            return False
        self._set_header(line, header)
        self.last_line = line.number
        return True

    def _is_build_estimate(self, times: Sequence[float | None]) -> bool:
        """A table whose Time(us) column is 0 on every row and that has no total line: the
        compiler's statistics printed at build (``RKNNModelBuildPass: [Statistics]``), never
        a measurement (no inference takes 0 us on every layer)."""
        return self.total_time is None and len(times) >= 2 and all(t == 0 for t in times)

    def _keep_as_skipped(self, line: Line, body: str) -> bool:
        """A line among the rows that is neither a row nor a continuation: keep it as a skipped
        row when it looks like a damaged row (so the table goes on), else False (it ends the
        table)."""
        reason = damage_reason(body, self.columns or DEFAULT_2X_COLUMNS)
        if reason is None:
            return False
        self._flush()
        self._skip(skipped(line.number, body, reason))
        return True

    def take_over(self, carried: object) -> None:
        if isinstance(carried, Carried):
            self.carried = carried
            self._start_repeating()

    def hand_over(self) -> Carried | None:
        result = self.result
        if result is None or not result.layers or self.columns is None:
            return None
        if self.repeated_frame:
            return self.carried  # the template stays the last table read in full
        plans = self.carried.plans if self.carried and self.carried.columns == self.columns else {}
        return Carried(
            result,
            self.columns,
            self.prefix_len,
            plans,
            names=result.signature,
            inputs=result.input_shapes,
            placements=result.placements,
        )

    def close(self) -> list[TableEvent]:
        events = self._close()
        self.result = events[0] if events else None
        return events

    def _close(self) -> list[TableEvent]:
        self._flush()
        layers: Sequence[Layer] = self.layers
        if self.repeated is not None:
            clean = not (self.skipped or self.notes or self.elided or self.handed_over)
            if clean and self.repeated.complete():
                layers, self.repeated, self.repeated_frame = self.repeated.lazy(), None, True
            else:
                self._stop_repeating()
        if self.handed_over:
            return []
        if self.short_rows > MAX_SHORT_ROW_NOTES:
            self.notes.append(
                (
                    self.last_line,
                    (
                        f"{self.short_rows - MAX_SHORT_ROW_NOTES} more row(s) with fewer fields "
                        "than the "
                        "header"
                    ),
                )
            )
        untitled = False
        if not self.saw_header and not layers and self.total_time is None and self.rw_kb is None:
            if self.state == "pre":  # a title that never got its header
                untitled = True
                self.notes.append((self.first_line, TITLE_ONLY_NOTE))
            else:
                return []
        if isinstance(layers, RepeatedLayers):  # its times and names without building it
            times, names, inputs = layers.times, layers.names, layers.inputs
            placements = layers.placements
        else:
            layers = tuple(layers)
            times, names, inputs = times_of(layers), names_of(layers), inputs_of(layers)
            placements = placements_of(layers)
        measured = not self._is_build_estimate(times)
        if not measured:  # the compiler's zeros are no times: the layers keep only their cycles
            layers = tuple(replace(la, time_us=None) for la in layers)
            times = (None,) * len(layers)
            self.notes.insert(0, (self.first_line, BUILD_ESTIMATE_NOTE))
        return [
            TableEvent(
                family=self.family,
                line=self.first_line,
                last_line=self.last_line,
                layers=layers,
                measured=measured,
                reported_total_time_us=self.total_time,
                reported_rw_kb=self.rw_kb,
                skipped=tuple(self.skipped),
                notes=tuple(self.notes),
                missing_header=(
                    MissingHeader.TITLE_ONLY
                    if untitled
                    else MissingHeader.ASSUMED_LAYOUT
                    if self.assumed_layout
                    else None
                ),
                stream=self.stream,
                total_line=self.total_line,
                elided_rows=self.elided,
                row_times=times,
                signature=names,
                input_shapes=inputs,
                placements=placements,
            )
        ]
