"""What an input without a profile held: the kinds of content :class:`Assembler` names in the
one line an input without profile data exits with (``runtime information only (runtime
2.0.0b0, driver 0.9.2), no per-layer table``), besides the kinds scan reported itself."""

from __future__ import annotations

from collections.abc import Sequence

from rknnprof.assemble.context import ContextEvents
from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import is_multicore_fallback
from rknnprof.parsers.error_reports import APP_ERROR
from rknnprof.parsers.events import NoteEvent
from rknnprof.platforms.drivers import min_driver_text, old_for_runtime

Found = tuple[str, str]
"""(kind, detail) of one kind of content: ``("frequency lists", "")``."""

_EXCEPTION_WORDS = LazyPattern(r"^\w*(?:Error|Exception)\b")


def describe_leftovers(
    context: ContextEvents, notes: Sequence[NoteEvent]
) -> tuple[list[Found], list[Found]]:
    """(what to name before, what after) the kinds scan found: the runtime information first,
    then frequency lists, fallback warnings, NPU load readings, an eval_memory report, table
    notes, an error report and the application's own error."""
    first: list[Found] = []
    rest: list[Found] = []
    versions = context.versions_for(None)
    if context.infos:
        detail = ", ".join(f"{n} {v}" for n, v in versions.named())
        platform = context.platform_for(None)[0]  # (the board's word first)
        if platform:
            detail = f"{detail}, {platform}" if detail else platform
        if versions.runtime and old_for_runtime(versions.driver, versions.runtime):
            # (what RKN050 says of a profile's: no rule runs without one)
            detail += (
                f"; its RKNPU driver {versions.driver} is older than {min_driver_text()} beside "
                f"runtime {versions.runtime}: update the board's kernel and driver"
            )
        first.append(("runtime information", detail))
    if context.freqs:
        rest.append(("frequency lists", ""))
    warned = list(context.fallbacks.values())
    cpu = [ev for ev in warned if not is_multicore_fallback(ev.reason)]
    cores = [ev for ev in warned if is_multicore_fallback(ev.reason)]
    if cpu:
        rest.append(("fallback warnings", ", ".join(dict.fromkeys(ev.subject for ev in cpu))))
    if cores:
        # (the layer runs on one NPU core while the rest of the model splits: no CPU fallback)
        subjects = list(dict.fromkeys(ev.subject for ev in cores))
        runs = "runs" if len(subjects) == 1 else "run"
        rest.append(
            (
                "multi-core fallback warnings",
                f"{', '.join(subjects)} {runs} on one NPU core (`{cores[0].reason}`) while the "
                "rest of the model splits",
            )
        )
    if context.loads or context.impossible_loads:
        said = [f"`{s}`: impossible, not kept" for s in context.impossible_loads]
        rest.append(("NPU load readings", ", ".join(said[:3])))
    memory = [ev for ev in context.run_lines.values() if ev.kind == "eval-mem"]
    if memory:  # (memory, not time: eval_memory() or init_runtime(eval_mem=True))
        rest.append(("an eval_memory report", f"line {min(ev.line for ev in memory)}"))
    tables = {n.message: n for n in notes if n.kind == "table"}  # (each message once)
    rest.extend((f"{note.message} at line {note.line}", "") for note in tables.values())
    errors = [n for n in notes if n.kind == "error"]
    if errors:
        # the exception line of a traceback says most; else the first error message
        best = next((n for n in errors if _EXCEPTION_WORDS.search(n.message)), None)
        where = best.last_line if best is not None else errors[0].line  # the exception ends it
        best = best or errors[0]
        rest.append(("an error report", f"line {where}: {best.message}"))
    own = [n for n in notes if n.kind == APP_ERROR]
    if own:
        rest.append(("the application's own error", f"line {own[0].last_line}: {own[0].message}"))
    return first, rest
