"""One model's inferences merged into one :class:`~rknnprof.model.Profile`.

A *frame* is one inference as the log shows it: its per-layer table and/or the ranking table
after it (``Profile.frames`` counts them). A :class:`ModelFrames` collects the frames that share
a stream and a signature (:mod:`rknnprof.assemble.signatures`: each row's op type, full name,
data type and target, and the input shapes): per
layer the median time (with min/max) from a ``Counter`` of its times, so memory grows with the
number of distinct times, not frames. While frames come in, their row times wait in one flat
list (a frame is one ``list +=``, a loop in C); every :data:`COUNT_EVERY` frames each row's
times are counted into its counter by one ``Counter.update`` of a slice of that list (C again),
instead of a Python loop over every frame's rows (medians of such counters:
:mod:`rknnprof.assemble.counters`).

The frame totals are kept the same way: p50 and p90 over every frame come from a ``Counter``,
and only the first :data:`MAX_FRAME_TIMES` totals are kept in order
(``Profile.frame_times_us``). Frames that disagree with their total line are counted, the first
:data:`MAX_FRAME_NOTES` + 1 kept for the warnings; their times wait outside the counters, and
stay out when they are few among frames that agree (:meth:`ModelFrames.settle`: a value damaged
in the log, not the model's time). What the frames make it say, in words, is
:mod:`rknnprof.assemble.frame_notes`'s.

So memory grows with the distinct times a log prints, not with its frames; and that is bounded
too: past :data:`MAX_DISTINCT_TIMES` distinct values (a log whose every frame prints new
times), times are counted on a grid of 1 us, then 10, 100 … (``ModelFrames.time_step``), so
medians and percentiles are rounded to it, and a warning says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field
from typing import NamedTuple, cast

from rknnprof.assemble.counters import median_of, percentile_of, regrid
from rknnprof.assemble.repeats import Repeats
from rknnprof.model import (
    ROW_SUM_TOLERANCE_US,
    BenchmarkRun,
    Layer,
    OpTypeStat,
    Profile,
    SkippedRow,
    SourceSpan,
    tidy_number,
)
from rknnprof.model.record import MutableRecord, record, replace
from rknnprof.parsers.events import (
    MissingHeader,
    RankingEvent,
    Stream,
    TableEvent,
)

RowTimes = tuple[float | None, ...]
"""A frame's rows' Time(us), microseconds (None: the row has no time)."""

RANKING_FAMILY = "toolkit2-ranking"
COUNT_EVERY = 256
"""Frames whose row times wait in a flat list before they are counted per row."""
MAX_PENDING_TIMES = 1 << 20
"""Row times that wait at most (fewer than COUNT_EVERY frames of a table with over 4,096
rows): 8 MB of references, whatever the table's size."""

MAX_SKIPPED = 50
"""Skipped rows kept per profile (later ones are counted in a warning)."""
TOTALLED_FAMILIES = frozenset(
    {"toolkit2-perf-table", "toolkit2-perf-table-v15", "toolkit1-perf-table"}
)
"""Printed tables the runtime always ends with a total line: one without it was cut (toolkit1
ends its table with ``Total Time(us):`` and ``FPS:``, FORMATS §3's perf_debug output)."""
UNTOTALLED_FAMILIES = frozenset({"toolkit2-eval_perf-csv"})
"""Formats that carry no total line (the eval_perf CSV side file): whether rows are missing
cannot be told, and one warning says so."""
RANKING_RATIO_SLACK = 0.002
"""How far below 100 % a ranking's TimeRatio column may add up (plus the rounding of each row,
:data:`RANKING_ROW_ROUNDING`) before the table counts as cut short."""
RANKING_ROW_ROUNDING = 0.0005
"""A printed TimeRatio's rounding, as a fraction: at most half of 0.1 % (the 1.5 layout's one
decimal; the 2.x layout prints two)."""
MAX_FRAME_TIMES = 10_000
"""Frame totals kept in order in ``Profile.frame_times_us`` (the first ones; a warning says
when more were seen). ``frames`` and the p50/p90 still count every frame."""
MAX_FRAME_NOTES = 5
"""Frames that disagree with their total line named one by one (the rest are counted)."""
MAX_SET_ASIDE = 5
"""Frames that disagree with their own total set aside at most (``Profile.frames_set_aside``):
a value damaged in the log now and then, not a table the runtime prints otherwise."""
SET_ASIDE_SHARE = 10
"""...and at most one frame in this many: more, and every frame is merged and the profile is
damaged (which total is right cannot be told)."""
MAX_DISTINCT_TIMES = 200_000
"""Distinct (row, time) pairs, frame totals or total-line figures a model keeps exactly (a real
capture has a few thousand); past it they go on a ten times coarser grid until half are free."""


class _Aside(NamedTuple):
    """The times of a frame set aside (:meth:`ModelFrames.settle`), to merge it after all."""

    position: int
    """Where its total goes in ``frame_times``, among the frames before it."""
    row_times: RowTimes | None
    frame_time: float | None
    total: float | None


@record(frozen=False, slots=False)
class ModelFrames(MutableRecord):
    """Running statistics of one model's frames."""

    stream: Stream
    family: str
    measured: bool
    first_line: int
    last_line: int
    template: tuple[Layer, ...] = ()
    row_times: list[float | None] = field(default_factory=list)
    """The rows' Time(us) of the frames not counted into ``counts`` yet, frame after frame
    (None: the row had no time): counted every :data:`COUNT_EVERY` frames, one C-level
    ``Counter.update`` per row."""
    counts: list[Counter[float | None]] = field(default_factory=list)
    """How often each row showed each Time(us) (None: the row had no time)."""
    frame_times: list[float] = field(default_factory=list)
    """The first :data:`MAX_FRAME_TIMES` frame totals, microseconds, in order."""
    frame_time_counts: Counter[float] = field(default_factory=Counter)
    """Every frame total (microseconds) -> how often: the p50/p90, past the cap too."""
    reported_totals: Counter[float] = field(default_factory=Counter)
    total_line: int | None = None
    reported_rw: float | None = None
    ranking: tuple[OpTypeStat, ...] = ()
    ranking_total: OpTypeStat | None = None
    ranking_line: int | None = None
    skipped: list[SkippedRow] = field(default_factory=list)
    skipped_total: int = 0
    """Skipped rows seen, including those beyond MAX_SKIPPED."""
    elided: int = 0
    headerless: bool = False
    """The first frame's rows were read without their header (``Profile.headerless``)."""
    frames: int = 0
    warnings: int = 0
    fps: Counter[float] = field(default_factory=Counter)
    """``FPS:`` of perf_debug=False totals (shown as the profile's benchmark avg_fps)."""
    untotalled_line: int | None = None
    """Last line of the first table without its total line (a printed family's: cut)."""
    untold_line: int | None = None
    """First line of a table in a format without a total line (cannot tell if rows are
    missing)."""
    ranking_short: tuple[int, str] | None = None
    """(last line, why) of a ranking without a Total row that was cut after its last row
    shown: its TimeRatio adds up to well under 100 %, or no rule closes it."""
    ranking_disagrees: tuple[int, float, float] | None = None
    """(line, the Total row's TotalTime, the rows' sum) of the first ranking-only frame whose
    Total row disagrees with its rows (a value damaged: which one is right cannot be told)."""
    mismatched: list[tuple[int, float, float]] = field(default_factory=list)
    """(total line, sum of the rows, the total line's figure) of the first
    :data:`MAX_FRAME_NOTES` + 1 frames that disagree."""
    damaged: str | None = None
    """Why these frames are a damaged copy of another model's (``partial_frames``), or None."""
    total_lines: int = 0
    """Frames whose table printed its own total line."""
    ranking_totalled: int = 0
    """Frames whose table printed no total line, held to their ranking's Total row."""
    mismatched_total: int = 0
    """Frames that disagree with their total line, all of them."""
    aside: list[_Aside] = field(default_factory=list)
    """The frames that disagree with their own total, left out of the counters until
    :meth:`settle` (at most :data:`MAX_SET_ASIDE`)."""
    template_aside: bool = False
    """The layers (``template``) come from a frame set aside: the next frame kept replaces
    them."""
    repeats: Repeats = field(default_factory=Repeats)
    """Which frames repeat earlier ones (:mod:`rknnprof.assemble.repeats`): counted once."""
    time_step: int = 0
    """0: times counted as printed; else the grid (us) the counters round them to, set when
    they held more than :data:`MAX_DISTINCT_TIMES` distinct values."""

    def add_frame_time(self, time_us: float) -> None:
        """One frame's total, microseconds: counted, and kept in order (as printed) up to the
        cap."""
        self.frame_time_counts[self._on_grid(time_us)] += 1
        if len(self.frame_times) < MAX_FRAME_TIMES:
            self.frame_times.append(time_us)
        if len(self.frame_time_counts) > MAX_DISTINCT_TIMES:
            self._bound()

    def add_reported_total(self, time_us: float) -> None:
        """One frame's own total line, microseconds."""
        self.reported_totals[self._on_grid(time_us)] += 1
        if len(self.reported_totals) > MAX_DISTINCT_TIMES:
            self._bound()

    def add_fps(self, fps: float) -> None:
        """``FPS:`` of a perf_debug=False total (past MAX_DISTINCT_TIMES values, new ones are
        not counted)."""
        if fps in self.fps or len(self.fps) < MAX_DISTINCT_TIMES:
            self.fps[fps] += 1

    def add(self, table: TableEvent | None, ranking: RankingEvent | None) -> None:
        """One frame (its table, its ranking, or both): counted, unless it repeats an earlier
        one (:class:`~rknnprof.assemble.repeats.Repeats`; its lines stay in the span)."""
        if table is None:
            self.close()
            self._add(table, ranking)
            return
        for frame in self.repeats.feed(table, ranking):
            self._add(*frame)
        last = ranking.last_line if ranking is not None else 0
        self.last_line = max(self.last_line, table.last_line, last)

    def close(self) -> None:
        """Every frame is in: those held back as a possible repeat are counted."""
        for frame in self.repeats.release():
            self._add(*frame)

    @property
    def repeated(self) -> int:
        """Frames that repeat earlier ones (``Profile.frames_repeated``)."""
        return self.repeats.count

    def _add(self, table: TableEvent | None, ranking: RankingEvent | None) -> None:
        self.frames += 1
        rows_sum: float | None = None
        reported: float | None = None  # the frame's own total: its total line, or its ranking's
        held: tuple[int, float] | None = None  # (line, total) the rows are held to
        if table is not None:
            if not self.template or self.template_aside:
                self.template = tuple(table.layers)
                self.headerless = table.missing_header is MissingHeader.ASSUMED_LAYOUT
            row_times = table.row_times
            if len(row_times) != len(self.template):
                raise ValueError("a frame of a model with a different number of rows")
            try:  # (a sum over every row at once; a row without a time raises TypeError)
                rows_sum = sum(row_times) if row_times else None  # type: ignore[arg-type]  # None raises
            except TypeError:  # rows without a time (None): the others are summed
                times = [x for x in row_times if x is not None]
                rows_sum = sum(times) if times else None
            reported = table.reported_total_time_us
            if reported is None:
                self._untotalled(table)
            else:
                self.total_lines += 1
                self.total_line = self.total_line or table.total_line
                held = (table.total_line or table.last_line, reported)
            if table.family in UNTOTALLED_FAMILIES and self.untold_line is None:
                self.untold_line = table.line
            if self.reported_rw is None:
                self.reported_rw = table.reported_rw_kb
            self.elided = max(self.elided, table.elided_rows)
            room = MAX_SKIPPED - len(self.skipped)
            self.skipped.extend(table.skipped[: max(room, 0)])
            self.skipped_total += len(table.skipped)
            self.last_line = max(self.last_line, table.last_line)
        if ranking is not None:
            if not self.ranking and self.ranking_total is None:
                self.ranking, self.ranking_total = tuple(ranking.stats), ranking.total
                self.ranking_line = ranking.line
                self.ranking_short = _ranking_short(ranking)
            self.skipped.extend(ranking.skipped[: max(MAX_SKIPPED - len(self.skipped), 0)])
            self.skipped_total += len(ranking.skipped)
            self.last_line = max(self.last_line, ranking.last_line)
            if table is None or table.reported_total_time_us is None:
                reported = _ranking_total(ranking)
                if table is not None and ranking.total is None:
                    reported = None  # (rows summed by op type: no total of the frame's own)
                if table is not None and reported is not None:  # its Total row totals the table
                    self.ranking_totalled += 1
                    held = (ranking.last_line, reported)
                if (
                    table is None
                    and self.ranking_disagrees is None
                    and ranking.total is not None
                    and reported != ranking.total.total_time_us
                ):
                    self.ranking_disagrees = (
                        ranking.last_line,
                        ranking.total.total_time_us,
                        reported or 0.0,
                    )
        frame_time = tidy_number(rows_sum) if rows_sum is not None else reported
        rows = table.row_times if table is not None else None
        if held is not None and self._disagrees(held, rows_sum, table):
            if self.mismatched_total <= MAX_SET_ASIDE:
                self.aside.append(_Aside(len(self.frame_times), rows, frame_time, reported))
                # (the layers' other columns come from a frame kept: the next one's)
                self.template_aside = self.template_aside or self.frames - len(self.aside) == 0
                return
            self._count_back()  # (too many to set aside: every frame is merged)
        self.template_aside = False
        self._count_times(rows, frame_time, reported)

    def _count_times(
        self, row_times: RowTimes | None, frame_time: float | None, total: float | None
    ) -> None:
        """One frame's times into the counters: its rows', its own (the rows' sum, else its
        total), and its total line's (or its ranking Total row's)."""
        if row_times is not None:
            self.row_times += row_times
            if len(self.row_times) >= min(COUNT_EVERY * len(row_times), MAX_PENDING_TIMES):
                self._count()
        if frame_time is not None:
            self.add_frame_time(frame_time)
        if total is not None:
            self.add_reported_total(total)

    def _count_back(self) -> None:
        """The frames set aside merged after all (each frame total back in its place)."""
        for shift, frame in enumerate(self.aside):
            self._count_times(frame.row_times, None, frame.total)
            if frame.frame_time is not None:
                self.frame_time_counts[self._on_grid(frame.frame_time)] += 1
                at = frame.position + shift
                if at < MAX_FRAME_TIMES:
                    self.frame_times.insert(at, frame.frame_time)
                    del self.frame_times[MAX_FRAME_TIMES:]
        self.aside.clear()
        self._bound()

    def settle(self) -> None:
        """Once every frame is in: the frames that disagree with their own total stay set
        aside when they are few (at most :data:`MAX_SET_ASIDE`, at most one in
        :data:`SET_ASIDE_SHARE` of the frames), others agree, and each one's rows and its total
        line both put it among the frames kept (a frame either says is slow is not dropped from
        the percentiles for a digit); else they are merged, and the profile is damaged
        (:meth:`incomplete`)."""
        # (once the frames are all in, as often as asked: the frames kept do not change)
        self.close()
        kept = self.frame_time_counts
        if self.aside and (
            self.mismatched_total > len(self.aside)
            or self.mismatched_total * SET_ASIDE_SHARE > self.frames
            or not kept
            or not all(_within(frame, min(kept), max(kept)) for frame in self.aside)
        ):
            self._count_back()

    @property
    def set_aside(self) -> int:
        """Frames left out of the merge for good (``Profile.frames_set_aside``): those still
        aside once :meth:`settle` ran (it runs here: ask once every frame is in)."""
        self.settle()
        return len(self.aside)

    def _count(self) -> None:
        """Count the pending row times into the per-row counters."""
        pending, n = self.row_times, len(self.template)
        if not self.counts:
            self.counts = [Counter() for _ in range(n)]
        for index, counter in enumerate(self.counts):
            times = pending[index::n]
            counter.update(map(self._row_on_grid, times) if self.time_step else times)
        pending.clear()
        self._bound()

    def _on_grid(self, time_us: float) -> float:
        step = self.time_step
        return round(time_us / step) * step if step else time_us  # an int on the grid

    def _row_on_grid(self, time_us: float | None) -> float | None:
        return None if time_us is None else self._on_grid(time_us)

    def _distinct(self) -> int:
        return max(
            sum(map(len, self.counts)), len(self.frame_time_counts), len(self.reported_totals)
        )

    def _bound(self) -> None:
        """Keep the counters under MAX_DISTINCT_TIMES: a ten times coarser grid each time
        (1 us first), until half of the room is free."""
        if self._distinct() <= MAX_DISTINCT_TIMES:
            return
        while self._distinct() > MAX_DISTINCT_TIMES // 2 and self.time_step < 10**19:
            self.time_step = self.time_step * 10 if self.time_step else 1
            self.counts = [regrid(c, self._row_on_grid) for c in self.counts]
            self.frame_time_counts = regrid(self.frame_time_counts, self._on_grid)
            self.reported_totals = regrid(self.reported_totals, self._on_grid)

    def _untotalled(self, table: TableEvent) -> None:
        """A printed table without its total line was cut (the first such is kept)."""
        if (
            table.family in TOTALLED_FAMILIES
            and table.measured
            and not table.elided_rows
            and self.untotalled_line is None
        ):
            self.untotalled_line = table.last_line

    def _disagrees(
        self, held: tuple[int, float], rows_sum: float | None, table: TableEvent | None
    ) -> bool:
        """Whether a frame's rows disagree with its total (its total line, or its ranking's Total
        row, at ``line``) beyond rounding: each frame is held to its own total (a damaged row in
        one of many merged frames hides in the medians); counted, the first few kept."""
        line, total = held
        if (
            rows_sum is None
            or table is None
            or table.elided_rows
            or abs(rows_sum - total) <= ROW_SUM_TOLERANCE_US
        ):
            return False
        self.mismatched_total += 1
        if len(self.mismatched) <= MAX_FRAME_NOTES:
            self.mismatched.append((line, rows_sum, total))
        return True

    def drop_cut_frame(self, line: int) -> tuple[float, bool] | None:
        """The last frame, when its total line is ``line``, the input's last line cut inside
        it, and its rows disagree with the figure (it was set aside): left out beside other
        frames, or, the only frame, read as a table without its total line. (Its figure,
        whether it was left out), else None."""
        if not (
            self.aside
            and self.mismatched_total <= MAX_SET_ASIDE
            and self.mismatched
            and self.mismatched[-1][0] == line
        ):
            return None
        figure = self.mismatched.pop()[2]
        frame = self.aside.pop()
        self.mismatched_total -= 1
        self.total_lines -= 1
        if self.frames > len(self.aside) + 1:
            self.frames -= 1
            return figure, True
        # the only frame: its rows stand, without the total line the cut took
        self.total_line = None if self.total_line == line else self.total_line
        self.untotalled_line = line
        self.template_aside = False
        self._count_times(frame.row_times, frame.frame_time, None)
        return figure, False

    def incomplete(self) -> str | None:
        """Why the profile may not cover the whole run (``Profile.incomplete``), or None."""
        self.settle()
        if self.damaged is not None:
            return self.damaged
        if self.untotalled_line is not None and not self.reported_totals:  # (nor a ranking's)
            # (a frame merged with others has their rows; when some of them printed a total
            # line, one without it lost that line alone, the last frame of a cut log too)
            return (
                f"no total line after the table (line {self.untotalled_line}): the log may be cut"
            )
        if self.mismatched and not self.set_aside:
            return (
                f"{self.mismatched_total} of {self.frames} frame(s) disagree with their own "
                f"total line (first: line {self.mismatched[0][0]})"
            )
        if self.ranking_disagrees is not None:
            line, said, rows = self.ranking_disagrees
            return (
                f"the ranking's Total row and its rows disagree (line {line}: {said:,.0f} us "
                f"against {rows:,.0f} us): a value damaged"
            )
        if self.elided:
            return (
                f"the log elided rows ({self.elided} elision line(s) in the table): its "
                "figures cover the rows shown only"
            )
        if self.ranking_short is not None and not self.template:
            line, why = self.ranking_short
            return f"the ranking table stops at line {line} with no Total row, {why}: cut"
        if self.untold_line is not None:
            return "an eval_perf CSV side file has no total line: missing rows cannot be told"
        return None

    def profile(self, path: str) -> Profile:
        self.settle()
        layers = self.template
        merged = self.frames - self.set_aside
        if merged > 1:
            self._count()
            for counter in self.counts:
                counter.pop(None, None)  # rows without a time in some frames
            counters = cast("list[Counter[float]]", self.counts)
            layers = tuple(
                replace(la, time_us=median_of(c), time_min_us=min(c), time_max_us=max(c))
                if c
                else la
                for la, c in zip(self.template, counters, strict=True)
            )
        return Profile(
            source=SourceSpan(path, self.first_line, self.last_line),
            format=self.family if layers or not self.ranking else RANKING_FAMILY,
            measured=self.measured,
            layers=layers,
            frames=merged,
            frames_set_aside=self.set_aside,
            frames_repeated=self.repeated,
            reported_total_time_us=(
                median_of(self.reported_totals) if self.reported_totals else None
            ),
            reported_rw_kb=self.reported_rw,
            frame_times_us=tuple(self.frame_times) if merged > 1 else (),
            frame_time_p50_us=percentile_of(self.frame_time_counts, 50) if merged > 1 else None,
            frame_time_p90_us=percentile_of(self.frame_time_counts, 90) if merged > 1 else None,
            ranking=self.ranking,
            skipped_rows=tuple(self.skipped),
            pid_tid=self.stream,
            reported_total_line=self.total_line,
            elided_rows=self.elided,
            headerless=self.headerless,
            ranking_line=self.ranking_line,
            ranking_cut=self.ranking_short is not None,
            incomplete=self.incomplete(),
            benchmark=BenchmarkRun(avg_fps=median_of(self.fps)) if self.fps else None,
        )


def _within(frame: _Aside, low: float, high: float) -> bool:
    """Whether a frame set aside is among the frames kept by its rows' sum and by its total
    alike: whichever of the two is right, the frame was no faster or slower than the others, so
    leaving it out moves no percentile (a frame whose rows say 10x slower and its total line
    not could be either)."""
    return all(low <= t <= high for t in (frame.frame_time, frame.total) if t is not None)


def _ranking_short(ranking: RankingEvent) -> tuple[int, str] | None:
    """(last line, why) when a ranking without a Total row was cut: its TimeRatio cells add up
    to well under 100 %, or its rows stop with no closing rule after them; else None."""
    stats = ranking.stats
    if ranking.total is not None or not stats:
        return None
    if all(s.share is not None for s in stats):
        ratio = sum(s.share or 0.0 for s in stats)
        if ratio < 1 - RANKING_RATIO_SLACK - RANKING_ROW_ROUNDING * len(stats):
            return ranking.last_line, f"its TimeRatio adding up to {ratio:.1%}"
    if ranking.cut:
        return ranking.last_line, "nor the rule that closes it"
    return None


RANKING_TOTAL_SLACK_US = 1.0
"""A Total row within this (or 1e-5 of the rows' sum: six printed digits) of its rows agrees."""


def _ranking_total(ranking: RankingEvent) -> float | None:
    """The ranking's frame time: its Total row's, unless that row disagrees with the rows
    above it (a damaged ``0e+00``, a ``2e+06`` for 1,183,132 us: its own warning says so), then
    the rows' sum, which the TimeRatio column is checked against."""
    rows = tidy_number(sum(s.total_time_us for s in ranking.stats)) if ranking.stats else None
    if ranking.total is not None:
        total = ranking.total.total_time_us
        if rows is None or abs(total - rows) <= max(RANKING_TOTAL_SLACK_US, rows * 1e-5):
            return total
    return rows
