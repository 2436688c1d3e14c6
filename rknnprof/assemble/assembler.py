"""Events -> :class:`~rknnprof.model.Profile` objects: the :class:`Assembler`.

Per stream (logcat ``(pid, tid)``, or ``None``): a :class:`TableEvent` and the
:class:`RankingEvent` after it make one *frame*. Frames of the same model — same stream, same
layer signature (op types + full names, input rows' shapes) — merge into one Profile (how:
:mod:`.inferences`).
Different models give separate profiles, in order of first appearance.

A ranking table alone (or after a lone total line) gives a profile without layers. Totals and
benchmark events give profiles of their own. Info, frequency, fallback-warning and NPU-load
events are not profiles: they are attached to the profiles of their stream (same pid under
logcat; every profile for plain text; the rules: :mod:`.context`) and, when nothing
else is found, named in the "no profile data" message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rknnprof.assemble.context import (
    MAX_CONTEXT_RECORDS,
    ContextEvents,
    applies_to,
    attach_fallbacks,
    fallback_belongs,
    merge_frequencies,
)
from rknnprof.assemble.counters import median_of, percentile_of
from rknnprof.assemble.failures import (
    after_fd_exhaustion,
    no_profile_failures,
    one_per_entry,
    tell,
    undiagnosed_errors,
)
from rknnprof.assemble.frame_notes import MAX_WARNINGS_PER_MODEL, frame_notes
from rknnprof.assemble.inferences import (
    MAX_FRAME_TIMES,
    RANKING_FAMILY,
    ModelFrames,
)
from rknnprof.assemble.leftovers import describe_leftovers
from rknnprof.assemble.llm import llm_profile, llm_warnings
from rknnprof.assemble.partial_frames import damaged_copies, drop_cut_frames, drop_partial_frames
from rknnprof.assemble.signatures import FrameSignature, frame_signature
from rknnprof.model import (
    WARNINGS_ONLY_FORMAT,
    KnownFailure,
    Profile,
    ReportWarning,
    SkippedRow,
    SourceSpan,
    is_multicore_fallback,
    tidy_number,
)
from rknnprof.model.record import Record, record, replace
from rknnprof.parsers.events import (
    AppTimeEvent,
    BenchmarkEvent,
    CommandEvent,
    Event,
    FailureEvent,
    FallbackWarningEvent,
    FrequencyEvent,
    InfoEvent,
    InputShapes,
    LlmStatsEvent,
    MissingHeader,
    NoteEvent,
    NpuLoadEvent,
    Placements,
    RankingEvent,
    RowNames,
    RunLineEvent,
    Stream,
    TableEvent,
    TotalsEvent,
)
from rknnprof.parsers.orphan_rows import ORPHAN_NOTE
from rknnprof.parsers.runtime_info import GUESS
from rknnprof.parsers.table.block import HEADERLESS_NOTE_START

OTHER_SOC = "the log also names another SoC: "
SKIPPED_ROW = "skipped row: "
"""How an unreadable row's warning begins (the reason follows)."""


@record
class Assembly(Record):
    """What one input produced."""

    profiles: list[Profile]
    warnings: list[ReportWarning]
    found: list[tuple[str, str]]
    """Non-profile things seen, as (kind, detail) for the "no profile data" message."""
    written: str | None = None
    """The kind of report rknnprof wrote that the input is (``JSON``, ``HTML``…): not read."""
    lines: int = 0
    """Lines read from the input (set by the reader; 0 = empty input)."""
    failures: tuple[KnownFailure, ...] = ()
    """Known failures of an input without profiles (one per catalogue entry, log order)."""
    binary: bool = False
    """The input's first bytes hold NULs (set by the reader): a model or another binary file."""


MAX_PROFILES = 1_000
"""Distinct models (profiles) per input; more is damage or a flood, not a capture."""
MAX_LOOSE_WARNINGS = 100
"""Warnings about tables that make no profile (a header without rows, a ranking without
readable rows) and their entries in ``Assembly.found``; the rest are counted."""
MAX_GENERATIONS = 10_000
"""RKLLM stage tables read per stream (the rest are counted in a warning)."""


APP_CALLS = ("rknn_inputs_set", "rknn_run", "rknn_outputs_get")
"""The runtime calls an application times, in the order ``Profile.app_calls`` keeps them."""


class Assembler:
    """Feed events one by one (``feed``), then ``finish``.

    Use :func:`assemble` for a whole stream."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.pending: dict[Stream, tuple[TableEvent | None, RankingEvent | None]] = {}
        self.models: dict[tuple[Stream, FrameSignature], ModelFrames] = {}
        self.said_versions: set[tuple[int, str]] = set()
        """Versions named twice in the log, warned of once (``ContextEvents.version_conflicts``)."""
        self.recent: dict[
            Stream, tuple[RowNames, InputShapes, Placements, tuple[str, bool], ModelFrames]
        ] = {}
        """Per stream, its last model with rows: the frame's row names, input shapes and
        placements (the objects), family and measured, which pick it again without hashing a
        signature."""
        self.extra_profiles: list[tuple[int, Profile]] = []
        self.warnings: list[ReportWarning] = []
        self.context = ContextEvents()
        self.notes: list[NoteEvent] = []
        self.failures: list[FailureEvent] = []
        self.failures_met: Counter[tuple[str, Stream]] = Counter()
        """Lines of each catalogue entry in each stream, past the ones kept."""
        self.last_failure: dict[Stream, KnownFailure] = {}
        self.last_command: dict[Stream, CommandEvent] = {}
        """The last shell command of each stream (``user@host:~$ sudo …``)."""
        self.root_lines: dict[int, int] = {}
        """A kept failure's line -> the line of the command run as root just before it."""
        self.llm: dict[Stream, list[LlmStatsEvent]] = {}
        self.found: list[tuple[str, str]] = []
        self.profiles_capped = False
        self.loose = 0
        """Tables that made no profile, and their warnings (past MAX_LOOSE_WARNINGS: counted)."""
        self.generations_dropped: dict[Stream, int] = {}

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
            case (
                InfoEvent()
                | FrequencyEvent()
                | FallbackWarningEvent()
                | NpuLoadEvent()
                | RunLineEvent()
                | AppTimeEvent()
            ):
                self.context.add(event)
            case NoteEvent():
                if len(self.notes) < MAX_WARNINGS_PER_MODEL:
                    self.notes.append(event)
            case LlmStatsEvent():
                self._generation(event)
            case FailureEvent():
                before = self.last_failure.get(event.stream)
                if (failure := after_fd_exhaustion(event.failure, before)) is not event.failure:
                    event = FailureEvent(failure, event.stream)
                self.last_failure[event.stream] = event.failure
                self.failures_met[event.failure.id, event.stream] += 1  # all: the count is told
                if len(self.failures) < MAX_WARNINGS_PER_MODEL:
                    self.failures.append(event)
                    if (typed := self.last_command.get(event.stream)) and typed.as_root:
                        self.root_lines[event.failure.line] = typed.line
            case CommandEvent():
                self.last_command[event.stream] = event

    def _flush(self, stream: Stream) -> None:
        table, ranking = self.pending.pop(stream, (None, None))
        if table is not None or ranking is not None:
            self._frame(stream, table, ranking)

    def _frame(
        self, stream: Stream, table: TableEvent | None, ranking: RankingEvent | None
    ) -> None:
        first = table.line if table is not None else ranking.line  # type: ignore[union-attr]  # _flush passes a table or a ranking
        recent = self.recent.get(stream)
        if (
            recent is not None
            and table is not None
            and recent[0] is table.signature
            and recent[1] is table.input_shapes
            and recent[2] is table.placements
            and recent[3] == (table.family, table.measured)
            and table.layers
        ):
            self._add(recent[4], table, ranking)  # the stream's last model (its signature's
            return  # objects: the same frame shape), without hashing the signature again
        signature = frame_signature(table, ranking)
        if signature is None and table is None:  # a ranking table whose rows were all unreadable
            assert ranking is not None
            self._found(
                "a ranking table without readable rows",
                f"line {first}, {len(ranking.skipped)} unreadable row(s)",
            )
            self._notes(None, ranking.notes, ranking.skipped)
            return
        if signature is None:  # a table title/header without rows or totals
            assert table is not None
            if ranking is not None:
                self._notes(None, ranking.notes, ranking.skipped)
            untitled = table.missing_header is MissingHeader.TITLE_ONLY
            orphans = table.missing_header is MissingHeader.ORPHAN_ROWS
            cut = "unread" if orphans else "cut"
            rows = f", {len(table.skipped)} {cut} row(s)" if table.skipped else ""
            kind = (
                "a perf table title without its header"
                if untitled
                else "rows without a header"
                if orphans
                else "a perf table header without complete rows"
                if table.measured
                else "a build-time estimate table header (not a measurement) without complete rows"
            )
            self._found(kind, f"line {first}{rows}")
            self._notes(None, table.notes, table.skipped)
            return
        key = (stream, signature)
        model = self.models.get(key)
        if model is None:
            family = table.family if table is not None else RANKING_FAMILY
            measured = table.measured if table is not None else True
            if not self._profile_room(first):  # 100k distinct tiny tables: memory, time
                return
            model = self.models[key] = ModelFrames(stream, family, measured, first, first)
        if signature.kind == "layers":
            assert table is not None  # (a layers signature is a table's)
            self.recent[stream] = (
                table.signature,
                table.input_shapes,
                table.placements,
                (table.family, table.measured),
                model,
            )
        self._add(model, table, ranking)

    def _add(
        self, model: ModelFrames, table: TableEvent | None, ranking: RankingEvent | None
    ) -> None:
        model.add(table, ranking)
        if table is not None and (table.notes or table.skipped):
            self._notes(model, table.notes, table.skipped)
        if ranking is not None and (ranking.notes or ranking.skipped):
            self._notes(model, ranking.notes, ranking.skipped)

    def _profile_room(self, line: int) -> bool:
        """Whether one more profile fits under MAX_PROFILES (else one warning, once)."""
        if len(self.models) + len(self.extra_profiles) + len(self.llm) < MAX_PROFILES:
            return True
        if not self.profiles_capped:
            self.profiles_capped = True
            self.warnings.append(
                ReportWarning(
                    self.path,
                    line,
                    (
                        f"more than {MAX_PROFILES:,} distinct tables (models or streams): this "
                        "one and the rest are not read"
                    ),
                )
            )
        return False

    def _found(self, kind: str, detail: str) -> None:
        self.loose += 1
        if self.loose <= MAX_LOOSE_WARNINGS:
            self.found.append((kind, detail))

    def _notes(
        self,
        model: ModelFrames | None,
        notes: Iterable[tuple[int, str]],
        skipped: Iterable[SkippedRow],
    ) -> None:
        items = [
            *notes,
            # (rows without a header: their block's one note names them)
            *((s.line, f"{SKIPPED_ROW}{s.reason}") for s in skipped if s.reason != ORPHAN_NOTE),
        ]
        for line, message in items:
            if model is not None:
                model.warnings += 1
                if model.warnings > MAX_WARNINGS_PER_MODEL:
                    continue
            elif self.loose > MAX_LOOSE_WARNINGS:
                continue
            self.warnings.append(ReportWarning(self.path, line, message))

    def _generation(self, event: LlmStatsEvent) -> None:
        kept = self.llm.get(event.stream)
        if kept is None and not self._profile_room(event.line):
            return
        if kept is None:
            kept = self.llm[event.stream] = []
        if len(kept) < MAX_GENERATIONS:
            kept.append(event)
        else:
            dropped = self.generations_dropped.get(event.stream, 0)
            self.generations_dropped[event.stream] = dropped + 1

    def _totals(self, event: TotalsEvent) -> None:
        key = (event.stream, FrameSignature("totals", event.family))
        model = self.models.get(key)
        if model is None:
            if not self._profile_room(event.line):
                return
            model = ModelFrames(event.stream, event.family, True, event.line, event.line)
            self.models[key] = model
        model.frames += 1
        model.last_line = max(model.last_line, event.line)
        if event.total_time_us is not None:
            model.add_reported_total(event.total_time_us)
            model.add_frame_time(event.total_time_us)
            model.total_line = model.total_line or event.line
        if event.fps is not None:
            model.add_fps(event.fps)

    def _benchmark(self, event: BenchmarkEvent) -> None:
        if not self._profile_room(event.line):
            return
        self.warnings.extend(ReportWarning(self.path, n, message) for n, message in event.notes)
        run = event.run
        times = run.run_times_ms
        total = (
            run.avg_time_ms * 1000
            if run.avg_time_ms is not None
            else (median_of(Counter(times)) * 1000 if times else None)
        )
        runs = len(times) > 1
        counts = Counter(tidy_number(round(t * 1000, 3)) for t in times) if runs else Counter()
        if len(times) > MAX_FRAME_TIMES:
            self.warnings.append(
                ReportWarning(
                    self.path,
                    event.line,
                    (
                        f"{len(times):,} runs: frame_times_us keeps the first {MAX_FRAME_TIMES:,} "
                        "(frames, p50 and p90 count them all)"
                    ),
                )
            )
        profile = Profile(
            source=SourceSpan(self.path, event.line, event.last_line),
            format="benchmark",
            frames=max(len(times), 1),
            reported_total_time_us=tidy_number(round(total, 3)) if total is not None else None,
            frame_times_us=(
                tuple(tidy_number(round(t * 1000, 3)) for t in times[:MAX_FRAME_TIMES])
                if runs
                else ()
            ),
            frame_time_p50_us=percentile_of(counts, 50),
            frame_time_p90_us=percentile_of(counts, 90),
            model_name=event.model_name,
            benchmark=run,
            pid_tid=event.stream,
        )
        self.extra_profiles.append((event.line, profile))

    # -- result ----------------------------------------------------------------------------
    def finish(self, cut_line: int | None = None) -> Assembly:
        """The profiles and what else the log held. ``cut_line``: the input's last line, when
        it ended without a newline (cut inside it)."""
        for stream in list(self.pending):
            self._flush(stream)
        for model in self.models.values():
            model.close()
        if cut_line is not None:
            self.warnings += [
                ReportWarning(self.path, *found) for found in drop_cut_frames(self.models, cut_line)
            ]
        self._drop_partial_frames()
        self._limit_warnings()
        self.warnings += [ReportWarning(self.path, *said) for said in self.context.load_warnings()]
        for m in self.models.values():
            self.warnings += [ReportWarning(self.path, line, text) for line, text in frame_notes(m)]
        numbered = [(m.first_line, m.profile(self.path)) for m in self.models.values()]
        numbered += self.extra_profiles
        numbered += [(ev[0].line, llm_profile(self.path, ev)) for ev in self.llm.values()]
        self.warnings += [w for ev in self.llm.values() for w in llm_warnings(self.path, ev)]
        ordered = [p for _, p in sorted(numbered, key=lambda item: item[0])]
        warned = None
        if not ordered and (warned := self._cpu_fallback_profile()) is not None:
            ordered = [warned]
        profiles = [self._decorate(p, ordered) for p in ordered]
        profiles, failures = self._failures(profiles, warned is not None)
        return Assembly(profiles, self.warnings, self.found, failures=failures)

    def _failures(
        self, profiles: list[Profile], warned: bool
    ) -> tuple[list[Profile], tuple[KnownFailure, ...]]:
        """What the log's failures make of the assembly: the profiles (none when a failure is
        the news of a log of fallback warnings, ``warned``), and the input's failures when no
        profile is left; an error no catalogue entry explains beside a table is a warning."""
        errors = [n for n in self.notes if n.kind == "error"]
        known = [ev.failure for ev in self.failures]
        if warned:  # (no table: the log's errors are all it says beside the warning)
            told = no_profile_failures(known, errors, self._failures_met(None))
            if any(f.severity == "error" for f in told):
                # a build that failed (on a Loop) beside the warnings: the failure is the log's
                # news, an input without data (exit 3), the warnings among what it holds
                profiles = []
            else:
                profiles = [replace(profiles[0], failures=told)]
        elif profiles and (said := undiagnosed_errors(known, errors)) is not None:
            self.warnings.append(ReportWarning(self.path, *said))
        if profiles:
            return profiles, ()
        first, rest = describe_leftovers(self.context, self.notes)
        self.found = [*first, *self.found, *rest]
        failures = no_profile_failures(known, errors, self._failures_met(None))
        platform = self.context.platform_for(None)[0]
        return [], tell(failures, self.context.versions_for(None), platform, self.root_lines)

    def _other_socs(self, platform: str, others: dict[str, int]) -> None:
        """One warning when the log's lines name another SoC than the one taken (the user's
        target against the board's, say): which is right, the user says."""
        if any(w.message.startswith(OTHER_SOC) for w in self.warnings):
            return
        shown = ", ".join(f"{soc} (line {line})" for soc, line in list(others.items())[:3])
        if len(others) > 3:
            shown += f" and {len(others) - 3} more"
        self.warnings.append(
            ReportWarning(
                self.path,
                next(iter(others.values())),
                f"{OTHER_SOC}{shown} beside {platform}, which the report uses: pass --platform "
                "to choose",
            )
        )

    def _failures_met(self, stream: Stream) -> Counter[str]:
        """Lines of each catalogue entry in ``stream`` (:func:`applies_to`; None: all)."""
        met: Counter[str] = Counter()
        for (entry, where), count in self.failures_met.items():
            if applies_to(where, stream):
                met[entry] += count
        return met

    def _cpu_fallback_profile(self) -> Profile | None:
        """A log holding CPU-fallback warnings and no table: a profile of its own with no
        layers, so the rules can advise on the one actionable fact in it (RKN001: reshape or
        chunk the op to the limit the warning prints). Multi-core -> single-core warnings
        alone are not enough: they say nothing about where the op runs."""
        warned = [
            ev for ev in self.context.fallbacks.values() if not is_multicore_fallback(ev.reason)
        ]
        if not warned:
            return None
        lines = [ev.line for ev in warned]
        return Profile(
            source=SourceSpan(self.path, min(lines), max(lines)),
            format=WARNINGS_ONLY_FORMAT,
            measured=False,
            frames=0,
        )

    def _limit_warnings(self) -> None:
        """One warning per limit of this module that the input reached."""
        if self.loose > MAX_LOOSE_WARNINGS:
            self.warnings.append(
                ReportWarning(
                    self.path,
                    1,
                    (
                        f"{self.loose - MAX_LOOSE_WARNINGS:,} more table(s) without profile data "
                        "and "
                        f"their warnings not shown (first {MAX_LOOSE_WARNINGS} above)"
                    ),
                )
            )
        if self.context.capped_line is not None:
            self.warnings.append(
                ReportWarning(
                    self.path,
                    self.context.capped_line,
                    (
                        f"more than {MAX_CONTEXT_RECORDS:,} distinct runtime-info, frequency, "
                        "fallback, "
                        "NPU-load and app-time records: this one and the rest are not read"
                    ),
                )
            )
        for stream, dropped in self.generations_dropped.items():
            self.warnings.append(
                ReportWarning(
                    self.path,
                    self.llm[stream][-1].last_line,
                    (
                        f"{dropped:,} more RKLLM stage table(s) of this stream not read (the first "
                        f"{MAX_GENERATIONS:,} are)"
                    ),
                )
            )

    def _drop_partial_frames(self) -> None:
        """Partial first and last frames (:mod:`.partial_frames`) are dropped, each with a
        warning; a first frame's warning replaces its rows' note of the assumed layout."""
        dropped = drop_partial_frames(self.models)
        firsts = {d.line for d in dropped if d.first}
        cut_rows = frozenset().union(*(d.skipped_lines for d in dropped))
        if firsts or cut_rows:
            self.warnings = [
                w
                for w in self.warnings
                if not (w.line in firsts and w.message.startswith(HEADERLESS_NOTE_START))
                and not (w.line in cut_rows and w.message.startswith(SKIPPED_ROW))
            ]
        self.warnings += [ReportWarning(self.path, d.line, d.message) for d in dropped]
        self.warnings += [ReportWarning(self.path, *found) for found in damaged_copies(self.models)]

    def _decorate(self, profile: Profile, profiles: list[Profile]) -> Profile:
        stream = profile.pid_tid
        context = self.context
        versions, freqs = context.versions_for(stream), None
        for line, message in context.version_conflicts(stream):
            if (line, message) not in self.said_versions:
                self.said_versions.add((line, message))
                self.warnings.append(ReportWarning(self.path, line, message))
        platform, evidence, others = context.platform_for(stream)
        if platform is not None and others:
            self._other_socs(platform, others)
        for ev in context.freqs.values():
            if applies_to(ev.stream, stream):
                freqs = merge_frequencies(freqs, ev.frequencies)
        belonging = [
            ev for ev in context.fallbacks.values() if fallback_belongs(ev, profile, profiles)
        ]
        fallbacks = tuple(dict.fromkeys((ev.subject, ev.reason) for ev in belonging))
        loads = [ev.load_pct for ev in context.loads_for(stream)]
        failures = one_per_entry(
            (ev.failure for ev in self.failures if applies_to(ev.stream, stream)),
            self._failures_met(stream),
        )
        app = context.app_time_counts(stream, None)
        timed = bool(profile.layers or profile.ranking or profile.reported_total_time_us)
        calls = tuple(
            (call, tidy_number(median_of(times)))
            for call in APP_CALLS
            if (times := context.app_time_counts(stream, call))
        )
        return replace(
            profile,
            layers=attach_fallbacks(profile.layers, belonging),
            versions=versions,
            platform=platform,
            platform_basis=(
                None
                if not evidence
                else evidence
                if evidence.startswith(GUESS)
                else f"log: {evidence}"
            ),
            frequencies=freqs,
            fallback_warnings=fallbacks,
            npu_load_pct=loads[-1] if loads else (),
            app_time_us=tidy_number(median_of(app)) if app and timed else None,
            app_calls=calls if timed else (),
            failures=failures,
            # (a table without its total line was not seen to end: a debugger line after its
            # last row, where its missing rows stood, was inside its run)
            run_lines=context.run_lines_for(
                stream,
                profile.source.first_line,
                None if _open_ended(profile) else profile.source.last_line,
            ),
        )


def _open_ended(profile: Profile) -> bool:
    """A measured table with rows but no total line: where its run ended cannot be told."""
    return bool(profile.layers) and profile.measured and profile.reported_total_time_us is None


def assemble(events: Iterable[Event], path: str) -> Assembly:
    """Profiles, warnings and leftovers from an event stream (consumed lazily)."""
    assembler = Assembler(path)
    for event in events:
        assembler.feed(event)
    return assembler.finish()
