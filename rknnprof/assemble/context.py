"""What a profile takes from the rest of its log: runtime info, frequencies, fallback warnings.

Info, frequency, fallback-warning and NPU-load events are not profiles; the assembler attaches
them to the profiles of their stream (:func:`applies_to`: same pid under logcat, every profile for
plain text). Here are :class:`ContextEvents`, which keeps them in bounded memory, the small
mergers of versions and frequency lists, and the rules that give a fallback warning to the
profiles (and layers) it names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import fields
from typing import Any

from rknnprof.model import Frequencies, Layer, Profile, RunLine, Target, Versions
from rknnprof.model.record import replace
from rknnprof.parsers.events import (
    AppTimeEvent,
    FallbackWarningEvent,
    FrequencyEvent,
    InfoEvent,
    NpuLoadEvent,
    RunLineEvent,
    Stream,
)
from rknnprof.parsers.runtime_info import GUESS

MAX_CONTEXT_RECORDS = 1_000
"""Distinct runtime-info, frequency, fallback-warning and NPU-load records (a repeat of one on
another line is kept once; NPU load: the latest per stream) and (stream, call) app timings kept
per input; the rest are not read (one warning)."""

INSIDE_RUN_KINDS = frozenset({"debugger", "trace", "dump"})
"""Run lines that say something about a run only when they stand inside it."""

ContextEvent = (
    InfoEvent | FrequencyEvent | FallbackWarningEvent | NpuLoadEvent | AppTimeEvent | RunLineEvent
)


class ContextEvents:
    """The info, frequency, fallback-warning, NPU-load and app-time events of one input, in
    memory that does not grow with repeats: a runtime that prints its versions, frequencies or
    NPU load once per inference adds nothing after the first. Each store keeps the order the
    events came in (first seen; for NPU load, latest reading last)."""

    def __init__(self) -> None:
        self.infos: dict[Hashable, InfoEvent] = {}
        self.freqs: dict[Hashable, FrequencyEvent] = {}
        self.fallbacks: dict[Hashable, FallbackWarningEvent] = {}
        self.loads: dict[Hashable, NpuLoadEvent] = {}
        self.run_lines: dict[Hashable, RunLineEvent] = {}
        """(kind, domain, MHz, stream) -> the first such line."""
        self.run_line_counts: Counter[Hashable] = Counter()
        """(kind, domain, MHz, stream) -> how many such lines."""
        self.before_info: dict[Hashable, tuple[RunLineEvent, int]] = {}
        """Debugger lines no runtime info line of their stream came before, (kind, domain,
        MHz, stream) -> (the first, how many), until one comes."""
        self.before_load: list[tuple[RunLineEvent, int, int]] = []
        """(first, how many, the info line after them) of debugger lines a runtime info line
        of their stream came after: the program stopped (at ``main``) before the runtime
        loaded a model (:meth:`run_lines_for`)."""
        self.app_times: dict[tuple[Stream, str | None, str], Counter[float]] = {}
        """(stream, call, run) -> how often each time (microseconds) was printed; ``run`` is
        :attr:`AppTimeEvent.run` (``single`` or ``average``; a cold ``first`` run is not
        kept)."""
        self.impossible_loads: dict[str, tuple[int, int]] = {}
        """An ``NPU load:`` core reading above 100% as printed (``Core2: 429496%``) -> (the first
        line that printed it, how many did): never kept as a load."""
        self.capped_line: int | None = None
        """Line of the first record not kept (:data:`MAX_CONTEXT_RECORDS` reached)."""

    def add(self, event: ContextEvent) -> None:
        match event:
            case InfoEvent():
                info = (event.versions, event.platform, event.platform_evidence, event.stream)
                self._keep(self.infos, info, event)
                if self.before_info:
                    self._loaded(event)
            case FrequencyEvent():
                self._keep(self.freqs, (event.frequencies, event.stream), event)
            case FallbackWarningEvent():
                warning = (event.kind, event.subject, event.reason, event.details, event.stream)
                self._keep(self.fallbacks, warning, event)
            case NpuLoadEvent(impossible=()):
                self.loads.pop(event.stream, None)  # the latest reading goes last
                self._keep(self.loads, event.stream, event)
            case NpuLoadEvent():  # a core above 100%: no reading (a warning says so)
                for said in event.impossible:
                    at, seen = self.impossible_loads.get(said, (event.line, 0))
                    if seen or self._room(event.line):
                        self.impossible_loads[said] = (at, seen + 1)
            case RunLineEvent():
                key = (event.kind, event.domain, event.mhz, event.stream)
                if event.kind == "debugger" and not self._info_before(event.stream):
                    first, count = self.before_info.get(key, (event, 0))
                    self.before_info[key] = (first, count + 1)
                    return
                self._keep(self.run_lines, key, event)
                if key in self.run_lines:
                    self.run_line_counts[key] += 1
            case AppTimeEvent(run="first"):
                pass  # the demos' cold first run: warm-up included, not what a frame costs
            case AppTimeEvent():
                call = (event.stream, event.call, event.run)
                if call in self.app_times or self._room(event.line):
                    self.app_times.setdefault(call, Counter())[event.time_us] += 1

    def _info_before(self, stream: Stream) -> bool:
        """A runtime info line of ``stream`` came already."""
        return any(applies_to(stream, info.stream) for info in self.infos.values())

    def _loaded(self, info: InfoEvent) -> None:
        """The debugger lines no info line of their stream came before, now one has."""
        for key, (first, count) in list(self.before_info.items()):
            if applies_to(first.stream, info.stream):
                del self.before_info[key]
                self.before_load.append((first, count, info.line))

    def _room(self, line: int) -> bool:
        kept = (
            len(self.infos)
            + len(self.freqs)
            + len(self.fallbacks)
            + len(self.loads)
            + len(self.run_lines)
            + len(self.app_times)
            + len(self.impossible_loads)
        )
        if kept < MAX_CONTEXT_RECORDS:
            return True
        if self.capped_line is None:
            self.capped_line = line
        return False

    def _keep(self, store: dict[Hashable, Any], key: Hashable, event: ContextEvent) -> None:
        if key not in store and self._room(event.line):
            store[key] = event

    def versions_for(self, stream: Stream) -> Versions:
        """The versions the info lines of ``stream`` name (:func:`applies_to`; None: all)."""
        versions = Versions()
        for info in self.infos.values():
            if applies_to(info.stream, stream):
                versions = merge_versions(versions, info.versions)
        return versions

    def version_conflicts(self, stream: Stream) -> list[tuple[int, str]]:
        """(line, message) for each version of ``stream``'s info lines (:func:`applies_to`)
        that a later line names otherwise: the first is the one reports show."""
        first: dict[str, tuple[str, int]] = {}
        found: dict[str, tuple[int, str]] = {}  # (one warning a version)
        for info in self.infos.values():
            if not applies_to(info.stream, stream):
                continue
            for f in fields(Versions):
                value = getattr(info.versions, f.name)
                if value is None:
                    continue
                shown, line = first.setdefault(f.name, (value, info.line))
                if value != shown and f.name not in found:
                    label = Versions(**{f.name: value}).named()[0][0]
                    found[f.name] = (
                        info.line,
                        f"the log names two {label} versions, {shown} (line {line}) and "
                        f"{value} (here): the first is the one reported",
                    )
        return list(found.values())

    def platform_for(self, stream: Stream) -> tuple[str | None, str | None, dict[str, int]]:
        """(platform, evidence, other SoC -> line) for ``stream``: the first line that names the
        SoC, the board's own word first (:func:`_authority`), else the first guess (a model's
        per-SoC folder); the other SoCs lines name."""
        named = [i for i in self.infos.values() if i.platform and applies_to(i.stream, stream)]
        sure = [i for i in named if not (i.platform_evidence or "").startswith(GUESS)]
        if not named:
            return None, None, {}
        chosen = min(sure or named, key=_authority)
        others = {i.platform: i.line for i in sure if i.platform != chosen.platform}
        return chosen.platform, chosen.platform_evidence, others  # type: ignore[return-value]  # named: a platform

    def app_time_counts(self, stream: Stream, call: str | None) -> Counter[float]:
        """The times printed for ``call`` (None: the whole inference) by the application of
        ``stream`` (:func:`applies_to`): its own averages over a loop when it printed any, else
        its single runs."""
        by_run: dict[str, Counter[float]] = {"average": Counter(), "single": Counter()}
        for (other, which, run), times in self.app_times.items():
            if which == call and applies_to(other, stream):
                by_run[run].update(times)
        return by_run["average"] or by_run["single"]

    def run_lines_for(
        self, stream: Stream, first_line: int | None, last_line: int | None
    ) -> tuple[RunLine, ...]:
        """The run lines of ``stream`` (:func:`applies_to`) as ``Profile.run_lines``: clocks
        wherever they stand; debugger, trace and dump lines when the first came before
        ``last_line`` (the end of the profile's table: inside the run), but debugger lines
        that came before a runtime info line of the stream printed before ``first_line`` (the
        table's start): stopped at ``main`` and continued before the runtime loaded the model,
        they held up nothing the table measured."""
        found = {key: (event, self.run_line_counts[key]) for key, event in self.run_lines.items()}
        placed = [
            (first, count)
            for first, count, info in self.before_load
            if first_line is None or info >= first_line
        ]
        for first, count in [*placed, *self.before_info.values()]:
            key = (first.kind, first.domain, first.mhz, first.stream)
            other, more = found.get(key, (first, 0))
            found[key] = (min(first, other, key=_line), count + more)
        kept = []
        for event, count in sorted(found.values(), key=lambda item: item[0].line):
            if not applies_to(event.stream, stream):
                continue
            if event.kind in INSIDE_RUN_KINDS and last_line is not None and event.line > last_line:
                continue
            kept.append(
                RunLine(
                    kind=event.kind,
                    line=event.line,
                    text=event.text,
                    count=count,
                    domain=event.domain,
                    mhz=event.mhz,
                )
            )
        return tuple(kept)

    def load_warnings(self) -> list[tuple[int, str]]:
        """(line, message) of each impossible ``NPU load:`` reading (:attr:`impossible_loads`)."""
        return [
            (
                line,
                f"`NPU load:` reads `{said}`{f' on {count:,} lines' if count > 1 else ''}, an "
                "impossible load (a core is busy 0-100% of the time): the driver's counter for "
                f"{_core_of(said)} wrapped or was damaged; that line's readings are not kept "
                "(npu_load_pct)",
            )
            for said, (line, count) in self.impossible_loads.items()
        ]

    def loads_for(self, stream: Stream) -> Iterator[NpuLoadEvent]:
        """NPU load readings that describe ``stream``'s profiles, the latest last."""
        return (ev for ev in self.loads.values() if applies_to(ev.stream, stream))


def _core_of(said: str) -> str:
    """``Core2: 429496%`` -> ``Core2``; a single-core reading (``250%``) -> ``the NPU``."""
    return said.partition(":")[0] if ":" in said else "the NPU"


def _line(event: RunLineEvent) -> int:
    return event.line


def applies_to(info_stream: Stream, profile_stream: Stream) -> bool:
    """Info from ``info_stream`` describes profiles of ``profile_stream`` (same pid)."""
    return info_stream is None or profile_stream is None or info_stream[0] == profile_stream[0]


def merge_versions(a: Versions, b: Versions) -> Versions:
    """Each version from ``a``, else from ``b``."""
    return Versions(**{f.name: getattr(a, f.name) or getattr(b, f.name) for f in fields(Versions)})


def _names_layer(event: FallbackWarningEvent, profile: Profile) -> bool:
    """The warning names a layer of ``profile``: its op type (CPU fallback, on a CPU row) or its
    FullName (multi-core fallback)."""
    if event.kind == "multicore":
        return any(la.full_name == event.subject for la in profile.layers)
    on_cpu = any(la.op_type == event.subject and la.target is Target.CPU for la in profile.layers)
    return on_cpu or any(s.op_type == event.subject and s.cpu_time_us > 0 for s in profile.ranking)


def fallback_belongs(
    event: FallbackWarningEvent, profile: Profile, profiles: list[Profile]
) -> bool:
    """A warning goes to the profiles whose layers it names; when no profile's table names it,
    to every profile of its stream (same pid)."""
    named = [p for p in profiles if _names_layer(event, p)]
    if named:
        return any(p is profile for p in named)
    return applies_to(event.stream, profile.pid_tid)


def attach_fallbacks(
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


def merge_frequencies(a: Frequencies | None, b: Frequencies) -> Frequencies:
    """Each frequency list from ``a``, else from ``b``."""
    if a is None:
        return b
    return Frequencies(
        cpu_khz=a.cpu_khz or b.cpu_khz, npu_hz=a.npu_hz or b.npu_hz, ddr_hz=a.ddr_hz or b.ddr_hz
    )


def _authority(info: InfoEvent) -> int:
    """How surely a line names the board's SoC (lower: surer): the board itself (the toolkit's
    ``Get hardware info: target_platform = rv1103``, RKLLM's ``platform: RK3576``), then the
    model's target (``target platform: rk3588``), then the target the user passed (``target set
    by user is: rv1106``), which the toolkit refuses when it is not the board's."""
    evidence = (info.platform_evidence or "").lower()
    if evidence.startswith(("target_platform", "platform:")):
        return 0
    return 1 if evidence.startswith("target platform") else 2
