"""Frames printed again (``Profile.frames_repeated``): the same inference's table printed twice
(its perf detail queried twice), or a capture holding its output twice (a file appended to
itself, overlapping ``adb logcat -d`` dumps). :class:`~rknnprof.assemble.inferences.ModelFrames`
hands each frame of a model to :class:`Repeats`, which says which frames to count.

A frame repeats another when it equals it to the microsecond in every row's Time(us) and in its
total line. Equal frames are evidence only when the model's rows carry enough of it: rows of
:data:`COPY_ROW_US` or more, whose times real inferences never all repeat, and never by chance
over long captures (any two of thousands of frames may meet). So a repeat is told

* of the frame just before it, when the model has :data:`MIN_COPY_ROWS` such rows (one
  inference printed twice): the adjacent pairs are as few as the frames;
* of an earlier stretch, only as a run: frames that repeat, in order, consecutive earlier
  frames, at least two of them different, whose different frames hold :data:`MIN_COPY_ROWS`
  such rows between them (a capture appended to itself; frames that all read alike, a model
  whose times never move, tell nothing). The frames of a run too short to tell are held back
  and counted as new once the run breaks.

A model whose frames have no such row is never judged. Only the first :data:`MAX_REMEMBERED`
frames are remembered to be repeated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rknnprof.parsers.events import RankingEvent, TableEvent

    Frame = tuple[TableEvent, RankingEvent | None]

MIN_COPY_ROWS = 16
"""Rows of :data:`COPY_ROW_US` or more that equal frames must hold between them to be one
inference printed again (two inferences' layers of that size never all take the same
microseconds: DDR traffic and the runtime's timer move them)."""
COPY_ROW_US = 20.0
MAX_REMEMBERED = 10_000


class Repeats:
    """One model's frames, watched for repeats (see the module doc)."""

    __slots__ = (
        "count",
        "first",
        "first_repeat",
        "held",
        "last",
        "lines",
        "order",
        "run_next",
        "sized",
        "told",
    )

    def __init__(self) -> None:
        self.order: list[int] = []
        """The hash of each frame counted, in order (the first :data:`MAX_REMEMBERED`)."""
        self.lines: list[int] = []
        """The first line of each of those frames."""
        self.first: dict[int, int] = {}
        """A hash -> where in :attr:`order` it first is."""
        self.last: int | None = None
        """The hash of the last frame counted."""
        self.sized: int | None = None
        """The rows of :data:`COPY_ROW_US` or more in the model's first frame."""
        self.held: list[tuple[TableEvent, RankingEvent | None, int]] = []
        """The frames of a run not told yet (each with its hash)."""
        self.run_next = -1
        """Where in :attr:`order` the open run's next frame must repeat (-1: no run)."""
        self.told = False
        """The open run is told: its frames are repeats."""
        self.count = 0
        """Frames told to be repeats."""
        self.first_repeat: tuple[int, int] | None = None
        """(line, line of the frame it repeats) of the first repeat told."""

    def feed(self, table: TableEvent, ranking: RankingEvent | None) -> list[Frame]:
        """The frames to count now, in order: this one, none (held, or a repeat), or the frames
        of a run too short to tell, then this one."""
        times = table.row_times
        if self.sized is None:
            self.sized = sum(1 for t in times if t is not None and t >= COPY_ROW_US)
        if not self.sized:
            return [(table, ranking)]
        key = hash((table.reported_total_time_us, times))
        out: list[Frame] = []
        if self.run_next >= 0:
            if self.run_next < len(self.order) and self.order[self.run_next] == key:
                self.run_next += 1
                if self.told:
                    self._repeat(table.line, self.run_next - 1)
                    return out
                self.held.append((table, ranking, key))
                distinct = len({held_key for _, _, held_key in self.held})
                if distinct >= 2 and distinct * self.sized >= MIN_COPY_ROWS:
                    start = self.run_next - len(self.held)
                    for at, (held, _, _) in enumerate(self.held, start):
                        self._repeat(held.line, at)
                    self.held, self.told = [], True
                return out
            out = self.release()
        if key == self.last and self.sized >= MIN_COPY_ROWS:  # (printed twice, one after the other)
            self._repeat(table.line, len(self.order) - 1)
            return out
        earlier = self.first.get(key)
        if earlier is not None:
            self.run_next, self.held, self.told = earlier + 1, [(table, ranking, key)], False
            return out
        self._keep(key, table.line)
        out.append((table, ranking))
        return out

    def release(self) -> list[Frame]:
        """The held frames of a run that ended too short to tell: new frames after all."""
        out: list[Frame] = []
        for table, ranking, key in self.held:
            self._keep(key, table.line)
            out.append((table, ranking))
        self.held, self.run_next, self.told = [], -1, False
        return out

    def _keep(self, key: int, line: int) -> None:
        self.last = key
        if len(self.order) < MAX_REMEMBERED:
            self.first.setdefault(key, len(self.order))
            self.order.append(key)
            self.lines.append(line)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Repeats) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__
        )

    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def _repeat(self, line: int, of: int) -> None:
        self.count += 1
        self.first_repeat = self.first_repeat or (line, self.lines[of])
