"""Events -> :class:`~rknnprof.model.Profile` objects.

Per stream (logcat ``(pid, tid)``, or ``None``): a :class:`TableEvent` and the
:class:`RankingEvent` after it make one *frame*. Frames of the same model — same stream, same
layer signature (op types + full names) — merge into one Profile: per layer the median time
(with min/max) from a ``Counter`` of its times, so memory grows with the number of distinct
times, not frames. Different models give separate profiles, in order of first appearance.
While frames come in, the counts live in one ``Counter`` of (row index, time) pairs, so that a
frame is counted by one ``Counter.update`` (a loop in C) instead of a Python loop over its rows;
they are split into the per-layer counters when the profile is made.

A ranking table alone (or after a lone total line) gives a profile without layers. Totals and
benchmark events give profiles of their own. Info, frequency, fallback-warning and NPU-load
events are not profiles: they are attached to the profiles of their stream (same pid under
logcat; every profile for plain text) and, when nothing else is found, named in the
"no profile data" message.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from rknnprof.model import (
    BenchmarkRun,
    Frequencies,
    Layer,
    OpTypeStat,
    Profile,
    ReportWarning,
    SkippedRow,
    SourceSpan,
    Target,
    Versions,
    tidy_number,
)
from rknnprof.parsers._repeat import RepeatedLayers
from rknnprof.parsers._table_block import TITLE_ONLY_NOTE
from rknnprof.parsers.events import (
    BenchmarkEvent,
    Event,
    FallbackWarningEvent,
    FrequencyEvent,
    InfoEvent,
    NoteEvent,
    NpuLoadEvent,
    RankingEvent,
    Stream,
    TableEvent,
    TotalsEvent,
)
from rknnprof.parsers.orphan_rows import ORPHAN_NOTE

RANKING_FAMILY = "toolkit2-ranking"

MAX_SKIPPED = 50
"""Skipped rows kept per profile (later ones are counted in a warning)."""
MAX_WARNINGS_PER_MODEL = 20


@dataclass(frozen=True, slots=True)
class Assembly:
    """What one input produced."""

    profiles: list[Profile]
    warnings: list[ReportWarning]
    found: list[tuple[str, str]]
    """Non-profile things seen, as (kind, detail) for the "no profile data" message."""
    lines: int = 0
    """Lines read from the input (set by the reader; 0 = empty input)."""


def median_of(counter: Counter[float]) -> float:
    """Median of the multiset ``counter`` (value -> count)."""
    n = sum(counter.values())
    lo_i, hi_i = (n - 1) // 2, n // 2
    seen, lo = 0, None
    for value in sorted(counter):
        seen += counter[value]
        if lo is None and seen > lo_i:
            lo = value
        if seen > hi_i:
            return tidy_number((lo + value) / 2) if lo != value else value  # type: ignore[operator]
    raise ValueError("median of an empty counter")


@dataclass
class _Model:
    """Running statistics of one model's frames."""

    stream: Stream
    family: str
    measured: bool
    first_line: int
    last_line: int
    template: tuple[Layer, ...] = ()
    row_times: Counter[tuple[int, float | None]] = field(default_factory=Counter)
    """How often each (row index, Time(us)) pair was seen (None: the row had no time)."""
    frame_times: list[float] = field(default_factory=list)
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
    frames: int = 0
    warnings: int = 0
    fps: Counter[float] = field(default_factory=Counter)
    """``FPS:`` of perf_debug=False totals (shown as the profile's benchmark avg_fps)."""

    def add(self, table: TableEvent | None, ranking: RankingEvent | None) -> None:
        self.frames += 1
        if table is not None:
            if not self.template:
                self.template = tuple(table.layers)
            row_times = _row_times(table)
            if len(row_times) != len(self.template):
                raise ValueError("a frame of a model with a different number of rows")
            self.row_times.update(enumerate(row_times))
            times = [x for x in row_times if x is not None]
            if times:
                self.frame_times.append(tidy_number(sum(times)))
            elif table.reported_total_time_us is not None:
                self.frame_times.append(table.reported_total_time_us)
            if table.reported_total_time_us is not None:
                self.reported_totals[table.reported_total_time_us] += 1
                self.total_line = self.total_line or table.total_line
            if self.reported_rw is None:
                self.reported_rw = table.reported_rw_kb
            self.elided = max(self.elided, table.elided_rows)
            room = MAX_SKIPPED - len(self.skipped)
            self.skipped.extend(table.skipped[: max(room, 0)])
            self.skipped_total += len(table.skipped)
            self.last_line = max(self.last_line, table.last_line)
        if ranking is not None:
            if not self.ranking and self.ranking_total is None:
                self.ranking, self.ranking_total = ranking.stats, ranking.total
                self.ranking_line = ranking.line
            self.skipped.extend(ranking.skipped[: max(MAX_SKIPPED - len(self.skipped), 0)])
            self.skipped_total += len(ranking.skipped)
            self.last_line = max(self.last_line, ranking.last_line)
            if table is None or table.reported_total_time_us is None:
                total = _ranking_total(ranking)
                if total is not None:
                    self.reported_totals[total] += 1
                    self.frame_times.append(total)

    def profile(self, path: str) -> Profile:
        layers = self.template
        if self.frames > 1:
            counters: list[Counter[float]] = [Counter() for _ in self.template]
            for (index, time), count in self.row_times.items():
                if time is not None:
                    counters[index][time] = count
            layers = tuple(
                replace(la, time_us=median_of(c), time_min_us=min(c), time_max_us=max(c))
                if c else la
                for la, c in zip(self.template, counters, strict=True)
            )
        return Profile(
            source=SourceSpan(path, self.first_line, self.last_line),
            format=self.family if layers or not self.ranking else RANKING_FAMILY,
            measured=self.measured,
            layers=layers,
            frames=self.frames,
            reported_total_time_us=(
                median_of(self.reported_totals) if self.reported_totals else None
            ),
            reported_rw_kb=self.reported_rw,
            frame_times_us=tuple(self.frame_times) if self.frames > 1 else (),
            ranking=self.ranking,
            skipped_rows=tuple(self.skipped),
            pid_tid=self.stream,
            reported_total_line=self.total_line,
            elided_rows=self.elided,
            ranking_line=self.ranking_line,
            benchmark=BenchmarkRun(avg_fps=median_of(self.fps)) if self.fps else None,
        )


def _row_times(table: TableEvent) -> Sequence[float | None]:
    """Each row's time; a repeated frame's without building its layers."""
    if isinstance(table.layers, RepeatedLayers):
        return table.layers.times
    return [la.time_us for la in table.layers]


def _ranking_total(ranking: RankingEvent) -> float | None:
    if ranking.total is not None:
        return ranking.total.total_time_us
    if ranking.stats:
        return tidy_number(sum(s.total_time_us for s in ranking.stats))
    return None


def _signature(table: TableEvent | None, ranking: RankingEvent | None) -> tuple[object, ...] | None:
    if table is not None and table.layers:
        layers = table.layers
        names = (layers.names if isinstance(layers, RepeatedLayers)  # the template's, made once
                 else tuple((la.op_type, la.full_name) for la in layers))
        return ("layers", table.family, table.measured, names)
    if ranking is not None and (ranking.stats or ranking.total is not None):
        return ("ranking", tuple(s.op_type for s in ranking.stats))
    if table is not None and table.reported_total_time_us is not None:
        return ("totals", table.family)
    return None


def _applies(info_stream: Stream, profile_stream: Stream) -> bool:
    """Info from ``info_stream`` describes profiles of ``profile_stream`` (same pid)."""
    return info_stream is None or profile_stream is None or info_stream[0] == profile_stream[0]


def _merge_versions(a: Versions, b: Versions) -> Versions:
    return Versions(**{k: getattr(a, k) or getattr(b, k) for k in Versions.__slots__})


class Assembler:
    """Feed events one by one (``feed``), then ``finish``.

    Use :func:`assemble` for a whole stream."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.pending: dict[Stream, tuple[TableEvent | None, RankingEvent | None]] = {}
        self.models: dict[tuple[Stream, tuple[object, ...]], _Model] = {}
        self.extra_profiles: list[tuple[int, Profile]] = []
        self.warnings: list[ReportWarning] = []
        self.infos: list[InfoEvent] = []
        self.freqs: list[FrequencyEvent] = []
        self.fallbacks: list[FallbackWarningEvent] = []
        self.loads: list[NpuLoadEvent] = []
        self.notes: list[NoteEvent] = []
        self.found: list[tuple[str, str]] = []

    # -- events ----------------------------------------------------------------------------
    def feed(self, event: Event) -> None:
        match event:
            case TableEvent():
                self._flush(event.stream)
                self.pending[event.stream] = (event, None)
            case RankingEvent():
                table, ranking = self.pending.pop(event.stream, (None, None))
                if ranking is not None:
                    self._frame(event.stream, table, ranking)
                    table = None
                self._frame(event.stream, table, event)
            case TotalsEvent():
                self._totals(event)
            case BenchmarkEvent():
                self._benchmark(event)
            case InfoEvent():
                self.infos.append(event)
            case FrequencyEvent():
                self.freqs.append(event)
            case FallbackWarningEvent():
                self.fallbacks.append(event)
            case NpuLoadEvent():
                self.loads.append(event)
            case NoteEvent():
                if len(self.notes) < MAX_WARNINGS_PER_MODEL:
                    self.notes.append(event)

    def _flush(self, stream: Stream) -> None:
        table, ranking = self.pending.pop(stream, (None, None))
        if table is not None or ranking is not None:
            self._frame(stream, table, ranking)

    def _frame(
        self, stream: Stream, table: TableEvent | None, ranking: RankingEvent | None
    ) -> None:
        signature = _signature(table, ranking)
        first = table.line if table is not None else ranking.line  # type: ignore[union-attr]
        if signature is None and table is None:  # a ranking table whose rows were all unreadable
            assert ranking is not None
            self.found.append(("a ranking table without readable rows",
                               f"line {first}, {len(ranking.skipped)} unreadable row(s)"))
            self._notes(None, ranking.notes, ranking.skipped)
            return
        if signature is None:  # a table title/header without rows or totals
            assert table is not None
            if ranking is not None:
                self._notes(None, ranking.notes, ranking.skipped)
            untitled = any(m == TITLE_ONLY_NOTE for _, m in table.notes)
            orphans = any(m.endswith(ORPHAN_NOTE) for _, m in table.notes)
            cut = "unread" if orphans else "cut"
            rows = f", {len(table.skipped)} {cut} row(s)" if table.skipped else ""
            kind = ("a perf table title without its header" if untitled
                    else "rows without a header" if orphans
                    else "a perf table header without complete rows" if table.measured
                    else "a build-time estimate table header (not a measurement) without "
                         "complete rows")
            self.found.append((kind, f"line {first}{rows}"))
            self._notes(None, table.notes, table.skipped)
            return
        key = (stream, signature)
        model = self.models.get(key)
        if model is None:
            family = table.family if table is not None else RANKING_FAMILY
            measured = table.measured if table is not None else True
            model = self.models[key] = _Model(stream, family, measured, first, first)
        model.add(table, ranking)
        self._notes(model, table.notes if table else (), table.skipped if table else ())
        if ranking is not None:
            self._notes(model, ranking.notes, ranking.skipped)

    def _notes(self, model: _Model | None, notes: Iterable[tuple[int, str]],
               skipped: Iterable[SkippedRow]) -> None:
        items = [*notes, *((s.line, f"skipped row: {s.reason}") for s in skipped)]
        for line, message in items:
            if model is not None:
                model.warnings += 1
                if model.warnings > MAX_WARNINGS_PER_MODEL:
                    continue
            self.warnings.append(ReportWarning(self.path, line, message))

    def _totals(self, event: TotalsEvent) -> None:
        key = (event.stream, ("totals", event.family))
        model = self.models.get(key)
        if model is None:
            model = _Model(event.stream, event.family, True, event.line, event.line)
            self.models[key] = model
        model.frames += 1
        model.last_line = max(model.last_line, event.line)
        if event.total_time_us is not None:
            model.reported_totals[event.total_time_us] += 1
            model.frame_times.append(event.total_time_us)
            model.total_line = model.total_line or event.line
        if event.fps is not None:
            model.fps[event.fps] += 1

    def _benchmark(self, event: BenchmarkEvent) -> None:
        run = event.run
        times = run.run_times_ms
        total = run.avg_time_ms * 1000 if run.avg_time_ms is not None else (
            median_of(Counter(times)) * 1000 if times else None)
        profile = Profile(
            source=SourceSpan(self.path, event.line, event.last_line),
            format="benchmark",
            frames=max(len(times), 1),
            reported_total_time_us=tidy_number(round(total, 3)) if total is not None else None,
            frame_times_us=(
                tuple(tidy_number(round(t * 1000, 3)) for t in times) if len(times) > 1 else ()
            ),
            model_name=event.model_name,
            benchmark=run,
            pid_tid=event.stream,
        )
        self.extra_profiles.append((event.line, profile))

    # -- result ----------------------------------------------------------------------------
    def finish(self) -> Assembly:
        for stream in list(self.pending):
            self._flush(stream)
        for m in self.models.values():
            if m.warnings > MAX_WARNINGS_PER_MODEL:
                self.warnings.append(ReportWarning(self.path, m.first_line, (
                    f"{m.warnings - MAX_WARNINGS_PER_MODEL} more warning(s) about the table "
                    f"starting here not shown (first {MAX_WARNINGS_PER_MODEL} above)")))
            dropped = m.skipped_total - len(m.skipped)
            if dropped > 0:
                self.warnings.append(ReportWarning(self.path, m.first_line, (
                    f"{dropped} more skipped row(s) not kept in skipped_rows (first "
                    f"{MAX_SKIPPED} kept)")))
        numbered = [(m.first_line, m.profile(self.path)) for m in self.models.values()]
        numbered += self.extra_profiles
        ordered = [p for _, p in sorted(numbered, key=lambda item: item[0])]
        profiles = [self._decorate(p, ordered) for p in ordered]
        if not profiles:
            self._describe_leftovers()
        return Assembly(profiles, self.warnings, self.found)

    def _decorate(self, profile: Profile, profiles: list[Profile]) -> Profile:
        stream = profile.pid_tid
        versions, platform, evidence, freqs = Versions(), None, None, None
        for info in self.infos:
            if _applies(info.stream, stream):
                versions = _merge_versions(versions, info.versions)
                if platform is None and info.platform:
                    platform, evidence = info.platform, info.platform_evidence
        for ev in self.freqs:
            if _applies(ev.stream, stream):
                freqs = _merge_freqs(freqs, ev.frequencies)
        belonging = [ev for ev in self.fallbacks if _fallback_belongs(ev, profile, profiles)]
        fallbacks = tuple(dict.fromkeys((ev.subject, ev.reason) for ev in belonging))
        loads = [ev.load_pct for ev in self.loads if _applies(ev.stream, stream)]
        return replace(
            profile,
            layers=_attach_fallbacks(profile.layers, belonging),
            versions=versions,
            platform=platform,
            platform_basis=f"log: {evidence}" if evidence else None,
            frequencies=freqs,
            fallback_warnings=fallbacks,
            npu_load_pct=loads[-1] if loads else (),
        )

    def _describe_leftovers(self) -> None:
        versions = Versions()
        for info in self.infos:
            versions = _merge_versions(versions, info.versions)
        if self.infos:
            names = [("librknnrt", versions.runtime), ("driver", versions.driver),
                     ("toolkit", versions.toolkit), ("API", versions.api)]
            detail = ", ".join(f"{n} {v}" for n, v in names if v)
            platform = next((i.platform for i in self.infos if i.platform), None)
            if platform:
                detail = f"{detail}, {platform}" if detail else platform
            self.found.insert(0, ("runtime information", detail))
        if self.freqs:
            self.found.append(("frequency lists", ""))
        if self.fallbacks:
            subjects = ", ".join(dict.fromkeys(ev.subject for ev in self.fallbacks))
            self.found.append(("fallback warnings", subjects))
        if self.loads:
            self.found.append(("NPU load readings", ""))
        tables = [n for n in self.notes if n.kind == "table"]
        for note in {n.message: n for n in tables}.values():
            self.found.append((f"{note.message} at line {note.line}", ""))
        errors = [n for n in self.notes if n.kind == "error"]
        if errors:
            # the exception line of a traceback says most; else the first error message
            best = next((n for n in errors if _EXCEPTION_WORDS.search(n.message)), None)
            where = best.last_line if best is not None else errors[0].line  # the exception ends it
            best = best or errors[0]
            self.found.append(("an error report", f"line {where}: {best.message}"))


_EXCEPTION_WORDS = re.compile(r"^\w*(?:Error|Exception)\b")


def _names_layer(event: FallbackWarningEvent, profile: Profile) -> bool:
    """The warning names a layer of ``profile``: its op type (CPU fallback, on a CPU row) or its
    FullName (multi-core fallback)."""
    if event.kind == "multicore":
        return any(la.full_name == event.subject for la in profile.layers)
    on_cpu = any(la.op_type == event.subject and la.target is Target.CPU for la in profile.layers)
    return on_cpu or any(s.op_type == event.subject and s.cpu_time_us > 0 for s in profile.ranking)


def _fallback_belongs(
    event: FallbackWarningEvent, profile: Profile, profiles: list[Profile]
) -> bool:
    """A warning goes to the profiles whose layers it names; when no profile's table names it,
    to every profile of its stream (same pid)."""
    named = [p for p in profiles if _names_layer(event, p)]
    if named:
        return any(p is profile for p in named)
    return _applies(event.stream, profile.pid_tid)


def _attach_fallbacks(
    layers: tuple[Layer, ...], events: Sequence[FallbackWarningEvent]
) -> tuple[Layer, ...]:
    """``layers`` with :attr:`Layer.fallback` set from the warnings that name them: a cpu
    warning on every CPU layer of its op type, a multicore one on the layer of its FullName
    (the first warning wins when several name a layer). Once per profile, not per line."""
    if not events or not layers:
        return layers
    by_op: dict[str, str] = {}
    by_name: dict[str, str] = {}
    for ev in events:
        named = by_op if ev.kind == "cpu" else by_name
        named.setdefault(ev.subject.strip(), f"{ev.kind}: {ev.reason}")
    attached = []
    for layer in layers:
        text = by_op.get(layer.op_type) if layer.target is Target.CPU else None
        if text is None and layer.full_name:
            text = by_name.get(layer.full_name.strip())
        attached.append(replace(layer, fallback=text) if text is not None else layer)
    return tuple(attached)


def _merge_freqs(a: Frequencies | None, b: Frequencies) -> Frequencies:
    if a is None:
        return b
    return Frequencies(cpu_khz=a.cpu_khz or b.cpu_khz, npu_hz=a.npu_hz or b.npu_hz,
                       ddr_hz=a.ddr_hz or b.ddr_hz)


def assemble(events: Iterable[Event], path: str) -> Assembly:
    """Profiles, warnings and leftovers from an event stream (consumed lazily)."""
    assembler = Assembler(path)
    for event in events:
        assembler.feed(event)
    return assembler.finish()
