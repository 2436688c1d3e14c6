"""The public library API: :func:`load`, :func:`analyze` and :func:`load_report` (and the live
progress line, :class:`Progress`, of a streamed stdin).

Input is streamed: bytes -> :func:`rknnprof.inputs.lines.read_lines` ->
:func:`rknnprof.parsers.scan` -> :class:`rknnprof.assemble.Assembler`; no file is read
whole. ``"-"`` is stdin; a first Ctrl-C while reading stdin stops reading and keeps what was
read.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from rknnprof.analysis import DEFAULT_BOUND_RATIO, DEFAULT_RW_SHARE, analyze_profile
from rknnprof.assemble import Assembler, Assembly
from rknnprof.errors import InputError, NoProfileDataError
from rknnprof.inputs.compressed import READ as COMPRESSION_READ
from rknnprof.inputs.compressed import compression_of_file, unreadable
from rknnprof.inputs.lines import ReadStats, read_lines
from rknnprof.inputs.records import KEEP_PIDS
from rknnprof.model import Profile, Report, ReportWarning
from rknnprof.model.record import replace
from rknnprof.parsers import FrameSkipper, fastpath_enabled, scan
from rknnprof.parsers.events import TableEvent
from rknnprof.units import frame_ms

if TYPE_CHECKING:
    from rknnprof.parsers.events import Event
    from rknnprof.platforms import Platform
    from rknnprof.rules.base import Rule

STDIN = "-"
STDIN_NAME = "<stdin>"

PathLike = str | os.PathLike[str]


def _paths(path_or_paths: PathLike | Iterable[PathLike]) -> list[str]:
    if isinstance(path_or_paths, str | os.PathLike):
        return [os.fspath(path_or_paths)]
    return [os.fspath(p) for p in path_or_paths]


# ---- the live progress line ------------------------------------------------------------------


def _quiet() -> bool:
    """True under ``rknnprof … -q`` (the click context's flag; False outside the CLI)."""
    import click

    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get("rknnprof.quiet"))


class Progress:
    """``frames: N  last frame: X us`` on one rewritten stderr line, only on a terminal."""

    def __init__(self, stream: IO[str] | None = None, enabled: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:  # (no stderr at all with 2>&-: nothing to show)
            enabled = self.stream is not None and self.stream.isatty() and not _quiet()
        self.enabled = enabled
        self.frames = 0
        self.last_frame_us: float | None = None
        self._shown = False

    def count(self, events: Iterable[Event]) -> Iterator[Event]:
        """Pass ``events`` through, updating the line for every measured table (a frame)."""
        for event in events:
            if isinstance(event, TableEvent) and event.measured and event.layers:
                self.frames += 1
                last = event.reported_total_time_us
                if not last:  # the rows' sum, when the table prints no total
                    times = [x for x in event.row_times if x is not None]
                    last = sum(times) if times else None
                self.last_frame_us = last
                self._show()
            yield event

    def _show(self) -> None:
        if not self.enabled:
            return
        last = frame_ms(self.last_frame_us)
        self.stream.write(f"\r\x1b[2Kframes: {self.frames}  last frame: {last}")
        self.stream.flush()
        self._shown = True

    def finish(self) -> None:
        """End the live line so the report starts on a fresh line."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False


def parse_stream(
    stream: BinaryIO, name: str, *, interruptible: bool = False, progress: Progress | None = None
) -> Assembly:
    """Parse one binary stream into profiles (not yet analysed), warnings and leftovers.

    ``progress`` (live pipes) sees every event as it is found."""
    assembler = Assembler(name)
    stats = ReadStats()
    skipper = FrameSkipper() if fastpath_enabled() else None  # off: RKNNPROF_NO_FASTPATH=1
    lines = read_lines(stream, stats, skipper)
    events = scan(lines, name, skipper)
    if progress is not None and progress.enabled:  # (not on a pipe or a file: nothing to show)
        events = progress.count(events)
    try:
        for event in events:
            assembler.feed(event)
    except KeyboardInterrupt:
        if not interruptible:
            raise
        assembler.warnings.append(
            ReportWarning(name, None, "interrupted: the report covers what was read before Ctrl-C")
        )
    finally:
        lines.close()  # sets stats.last_line also when reading stopped early
        if progress is not None:
            progress.finish()
    if stats.compressed is not None:  # (stdin, or a file compressed twice)
        raise InputError(unreadable(stats.compressed, piped=True), name)
    cut = stats.last_line if stats.unterminated else None
    assembly = assembler.finish(cut)
    pieces = sum(1 for p in assembly.profiles if p.incomplete and p.layers)
    if stats.logcat_format in WITHOUT_THREADS and pieces:
        assembly.warnings.insert(
            0,
            ReportWarning(
                name,
                None,
                (
                    f"{pieces} table(s) damaged or read in pieces in a logcat layout without "
                    f"thread ids (`-v {stats.logcat_format}`): if several threads printed "
                    "tables at once, their rows interleave there; capture with `adb logcat -v "
                    "threadtime`, which keeps them apart"
                ),
            ),
        )
    squashed = _chatty_runs(stats, assembly)
    if squashed is not None:
        runs, first = squashed
        assembly.warnings.append(
            ReportWarning(
                name,
                first,
                (
                    f"logd squashed {runs} run(s) of identical lines (`chatty`): "
                    "repeated table rows may be missing"
                ),
            )
        )
    return replace(assembly, lines=stats.last_line, binary=stats.binary)


WITHOUT_THREADS = frozenset({"brief", "time", "tag"})
"""``adb logcat -v`` layouts that print no thread id: two threads of one process (or, for
``tag``, any two processes) printing tables at once cannot be told apart."""


def _chatty_runs(stats: ReadStats, assembly: Assembly) -> tuple[int, int | None] | None:
    """(runs, first line) of the logd ``chatty`` lines that may have squashed table rows: those
    of the processes that printed the tables (every one when a table or the layout names no
    process, or past the processes ``ReadStats`` keeps); None without any. A busy phone's
    ``Binder:561_2 identical 3 lines`` is another process's."""
    if not stats.chatty_count:
        return None
    pids = {p.pid_tid[0] if p.pid_tid else None for p in assembly.profiles}
    if not assembly.profiles or None in pids or len(stats.chatty_pids) >= KEEP_PIDS:
        first = stats.chatty[0][0] if stats.chatty else None
        return stats.chatty_count, first
    ours = [stats.chatty_pids[pid] for pid in pids if pid in stats.chatty_pids]
    if not ours:
        return None
    return sum(runs for runs, _ in ours), min(first for _, first in ours)


def parse_live_stdin() -> Assembly:
    """Standard input, read as a live pipe (``adb logcat | rknnprof analyze -``): lines are
    parsed as they arrive, a progress line shows on a terminal stderr, and the first Ctrl-C
    stops reading and keeps what was read (a second one exits 130; see
    :mod:`rknnprof.inputs.live`)."""
    from rknnprof.inputs.live import InterruptibleInput

    source = InterruptibleInput(sys.stdin.buffer)
    with source.armed():
        # the source reads like a BinaryIO (iteration, read1)
        assembly = parse_stream(
            source,  # type: ignore[arg-type]
            STDIN_NAME,
            interruptible=True,
            progress=Progress(),
        )
    if source.interrupted:
        assembly.warnings.append(
            ReportWarning(
                STDIN_NAME,
                None,
                ("interrupted (Ctrl-C): the report covers what was read before it"),
            )
        )
    return assembly


def parse_path(path: str) -> Assembly:
    """Parse a file (or ``-`` for stdin)."""
    if path == STDIN:
        try:
            return parse_live_stdin()
        except BrokenPipeError:  # a write (progress on stderr), not the read
            raise
        except OSError as e:  # EIO from a terminal that went away, a device's read error
            raise InputError(f"cannot read: {e.strerror or e}", STDIN_NAME) from None
    try:
        with open(path, "rb") as f:
            if _binary_device(f):
                raise InputError(
                    "a device that gives binary data, not a log: give a capture file, or pipe "
                    "the device's text",
                    path,
                )
            kind = compression_of_file(f)
            if kind is not None and kind not in COMPRESSION_READ:
                raise InputError(unreadable(kind, piped=False), path)
            return _parse_file(f, path, kind)
    except InputError as e:  # (damaged compressed data: the reader does not know the path)
        if e.path is None:
            e.path = path
        raise
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a directory", path) from None
    except PermissionError:
        raise InputError("permission denied", path) from None
    except BrokenPipeError:  # a write (progress on stderr), not the read
        raise
    except OSError as e:  # a read that fails after the open: EIO, EINVAL (/proc/self/mem)
        raise InputError(f"cannot read: {e.strerror or e}", path) from None


def _binary_device(f: BinaryIO) -> bool:
    """A character device other than a terminal whose first bytes are binary (``/dev/zero``,
    ``/dev/urandom``): it never ends, so it is refused before it is read. A serial console
    (a terminal) or ``/dev/kmsg`` (text) is read."""
    import stat

    from rknnprof.inputs.lines import looks_binary

    status = os.fstat(f.fileno())
    if not stat.S_ISCHR(status.st_mode) or os.isatty(f.fileno()):
        return False
    return looks_binary(f.peek(512)[:512])  # type: ignore[attr-defined]  # open(..., "rb")


def _parse_file(f: BinaryIO, path: str, compression: str | None) -> Assembly:
    """A file, with a progress bar on a terminal stderr when it is long
    (:mod:`rknnprof.inputs.progress`: it counts the file's bytes, compressed or not)."""
    from rknnprof.inputs.progress import FileProgress

    if not FileProgress.wanted(f, sys.stderr, _quiet()):
        return _parse_text(f, path, compression)
    with FileProgress(f, os.path.basename(path), sys.stderr) as watched:
        return _parse_text(watched, path, compression)  # type: ignore[arg-type]  # wraps the file with the reads parse_stream uses


def _parse_text(raw: BinaryIO, path: str, compression: str | None) -> Assembly:
    """The file's text: its bytes, or what they decompress to
    (:mod:`rknnprof.inputs.compressed`); compressed data that ends early is read up to there,
    and a warning says so."""
    if compression is None:
        return parse_stream(raw, path)
    from rknnprof.inputs.compressed import Decompressed

    text = Decompressed(raw, compression)
    assembly = parse_stream(text, path)  # type: ignore[arg-type]  # read and read1
    if text.cut is not None:
        assembly.warnings.append(
            ReportWarning(
                path,
                None,
                f"{text.cut} after {text.given:,} bytes of text: the log is cut there, and the "
                "report covers what came before it",
            )
        )
    return assembly


def no_data_message(assembly: Assembly) -> str:
    """One line naming what an input without profile data did hold: the diagnosis and fix of
    its first known failure, when it has one (a warning only, after what else the log holds,
    which may be nothing: an RKLLM run that warned of its driver and went on to ``rkllm init
    success``, a core mask the runtime fell back from)."""
    if assembly.written is not None:
        if assembly.written == "JSON":
            readers = (
                "'rknnprof compare' and 'rknnprof check' read it; analyze reads the log it came "
                "from"
            )
        else:
            readers = "give the log it came from (compare and check also read its -f json report)"
        return f"a report rknnprof wrote ({assembly.written}), not a log: {readers}"
    if assembly.failures:
        first = assembly.failures[0]
        more = len(assembly.failures) - 1
        also = f" (and {more} more failure(s), in the JSON `failures`)" if more else ""
        told = f"line {first.line}: {first.diagnosis}: `{first.text}`; fix: {first.fix}{also}"
        if any(f.severity != "warning" for f in assembly.failures):  # (what else it holds after)
            if not assembly.found:
                return told
            others = [
                f"{kind}{f' ({detail})' if detail else ''}"
                for kind, detail in assembly.found
                if "error" not in kind
            ]
            return f"{told}; the log also holds {', '.join(others)}" if others else told
        return f"{_found(assembly)}; a warning, {told}"
    return _found(assembly)


def _found(assembly: Assembly) -> str:
    """What an input without profile data holds, in words."""
    if not assembly.found:
        if not assembly.lines:
            return "empty input, no RKNN profile data"
        if assembly.binary:
            return (
                "a binary file, not a log (control bytes at its start: an .rknn model?); "
                "rknnprof reads the text a run prints: eval_perf(), RKNN_LOG_LEVEL=4, adb logcat"
            )
        return (
            f"no RKNN profile data in {assembly.lines} line(s) (no per-layer table, ranking, "
            "totals or benchmark output)"
        )
    if len(assembly.found) == 1:
        kind, detail = assembly.found[0]
        return f"{kind} only{f' ({detail})' if detail else ''}, no per-layer table"
    parts = [f"{kind}{f' ({detail})' if detail else ''}" for kind, detail in assembly.found]
    return f"{', '.join(parts[:-1])} and {parts[-1]} only, no per-layer table"


def finish_profile(
    profile: Profile,
    *,
    platform: str | None = None,
    bound_ratio: float = DEFAULT_BOUND_RATIO,
    rw_share: float = DEFAULT_RW_SHARE,
    rule_options: dict[str, Any] | None = None,
    rules: bool | Sequence[Rule] = True,
    busy_cores: frozenset[int] = frozenset(),
) -> tuple[Profile, list[ReportWarning]]:
    """Platform resolution, analysis and rules for one parsed profile.

    ``rules``: True runs every rule, False none, a sequence (from ``select_rules``) those.
    ``busy_cores``: the NPU cores other processes of the same model used in the same input
    (``RuleContext.busy_cores``, from :func:`busy_cores_of`)."""
    from rknnprof import platforms
    from rknnprof.rules import potential_saving_us, run_rules
    from rknnprof.rules.base import RuleContext

    said, said_basis = profile.platform, profile.platform_basis
    resolved, basis = platforms.resolve(profile.platform, platform, profile=profile)
    overridden = None
    if (
        platform
        and said
        and said_basis
        and said_basis.startswith("log: ")
        and resolved is not None
        and platforms.normalize(said) != resolved.name
    ):
        overridden = ReportWarning(
            profile.source.path,
            profile.source.first_line,
            f"--platform {resolved.name} overrides the log's own {said} "
            f"({said_basis.removeprefix('log: ')}): its figures are judged by {resolved.name}'s",
        )
    unlike_cores = _cores_unlike(profile, resolved) if platform else None
    if resolved is not None:
        profile = replace(profile, platform=resolved.name, platform_basis=basis)
    elif basis:  # a SoC the log names and rknnprof has no data for: said so
        profile = replace(profile, platform_basis=basis)
    profile, warnings = analyze_profile(
        profile, platform=resolved, bound_ratio=bound_ratio, rw_share=rw_share
    )
    if unlike_cores is not None:
        where = (profile.source.path, profile.source.first_line)
        warnings = [ReportWarning(*where, unlike_cores), *warnings]
    if overridden is not None:
        warnings = [overridden, *warnings]
    if rules:
        context = RuleContext(
            platform=resolved, options=dict(rule_options or {}), busy_cores=busy_cores
        )
        chosen = None if rules is True else rules
        findings = run_rules(profile, context, chosen)
        profile = replace(
            profile, findings=findings, potential_saving_us=potential_saving_us(findings, profile)
        )
    return profile, warnings


def _cores_unlike(profile: Profile, platform: Platform | None) -> str | None:
    """Why the log's WorkLoad column cannot be ``platform``'s (given by ``--platform``), or None:
    work on a core it does not have, or a multi-core SoC's column of another width (RK3588
    prints 3 slots, RK3576 2: the platforms' module doc)."""
    cores = platform.npu_cores if platform is not None else None
    loads = [la.workload_pct for la in profile.layers if la.workload_pct]
    if platform is None or not cores or not loads:
        return None
    busy = max((i for load in loads for i, w in enumerate(load) if w > 0), default=-1)
    slots = {len(load) for load in loads}
    if busy >= cores:
        why = f"work on core {busy}"
    elif cores > 1 and slots != {cores}:
        why = f"{'/'.join(map(str, sorted(slots)))} slots a row"
    else:
        return None
    return (
        f"--platform {platform.name} has {cores} NPU core(s), but the log's WorkLoad column shows "
        f"{why}: the log looks like another SoC's, and the core advice would not fit it"
    )


def busy_cores_of(profiles: Sequence[Profile]) -> list[frozenset[int]]:
    """For each profile of one input, the NPU cores the other processes of its model (the same
    op types and names, another stream) put work on: several processes each pinned to a core
    (one context per core) show as one model on several single cores."""
    from rknnprof.rules._util import cores_of

    by_model: dict[tuple[tuple[str, str | None], ...], list[int]] = {}
    for i, profile in enumerate(profiles):
        if profile.layers and profile.pid_tid is not None:
            model = tuple((la.op_type, la.full_name) for la in profile.layers)
            by_model.setdefault(model, []).append(i)
    busy = [frozenset[int]() for _ in profiles]
    for members in by_model.values():
        if len(members) > 1:
            cores = {i: cores_of(profiles[i]) for i in members}
            for i in members:
                stream = profiles[i].pid_tid
                busy[i] = frozenset().union(
                    *(cores[j] for j in members if profiles[j].pid_tid != stream)
                )
    return busy


def analyze(
    paths: PathLike | Iterable[PathLike],
    *,
    platform: str | None = None,
    bound_ratio: float = DEFAULT_BOUND_RATIO,
    rw_share: float = DEFAULT_RW_SHARE,
    rule_options: dict[str, Any] | None = None,
    rules: bool | Sequence[Rule] = True,
) -> Report:
    """Parse, analyse and advise on every input; one :class:`Report` for all of them.

    Raises :class:`NoProfileDataError` (exit 3) when no input holds profile data; inputs
    without data next to inputs with data only add a warning.
    """
    profiles: list[Profile] = []
    warnings: list[ReportWarning] = []
    empty: list[tuple[str, Assembly]] = []
    for path in _paths(paths):
        written = _written_report(path)
        if written is not None:  # (its rule texts would read as failures, its rows as a log's)
            empty.append((path, replace(Assembly([], [], []), written=written)))
            continue
        assembly = parse_path(path)
        warnings.extend(assembly.warnings)
        if not assembly.profiles:
            empty.append((STDIN_NAME if path == STDIN else path, assembly))
        busy = busy_cores_of(assembly.profiles)
        for parsed, others in zip(assembly.profiles, busy, strict=True):
            profile, extra = finish_profile(
                parsed,
                platform=platform,
                bound_ratio=bound_ratio,
                rw_share=rw_share,
                rule_options=rule_options,
                rules=rules,
                busy_cores=others,
            )
            profiles.append(profile)
            warnings.extend(extra)
    failures = tuple(f for _, assembly in empty for f in assembly.failures)
    if not profiles:
        name, assembly = empty[0] if empty else ("<no input>", Assembly([], [], []))
        error = NoProfileDataError(no_data_message(assembly), name)
        error.report = Report(
            profiles=(), warnings=tuple(warnings), failures=failures, no_profile=error.message
        )
        raise error
    for name, assembly in empty:
        warnings.append(ReportWarning(name, None, no_data_message(assembly)))
    return Report(profiles=tuple(profiles), warnings=tuple(warnings), failures=failures)


def _written_report(path: str) -> str | None:
    """The kind of report rknnprof wrote that ``path`` is (``JSON``, ``HTML``…), else None."""
    if path == STDIN:
        return None
    from rknnprof.saved import written_by_rknnprof

    return written_by_rknnprof(path)


def load(
    path_or_paths: PathLike | Iterable[PathLike],
    *,
    platform: str | None = None,
    bound_ratio: float = DEFAULT_BOUND_RATIO,
    rw_share: float = DEFAULT_RW_SHARE,
    rules: bool | Sequence[Rule] = True,
) -> list[Profile]:
    """The analysed profiles of one or more logs (``-`` = stdin), warnings dropped.

    Use :func:`analyze` to keep the warnings. Raises :class:`NoProfileDataError` like it.
    """
    report = analyze(
        path_or_paths, platform=platform, bound_ratio=bound_ratio, rw_share=rw_share, rules=rules
    )
    return list(report.profiles)


def load_report(path: PathLike) -> Report:
    """One run for ``compare`` and ``check``: a log (parsed and analysed with the defaults) or a
    saved JSON report (read back as it was analysed), decided by the file's content."""
    from rknnprof.saved import is_saved_report, load_saved_report

    name = os.fspath(path)
    if is_saved_report(name):
        return load_saved_report(name)
    return analyze([name])
