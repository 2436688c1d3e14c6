"""The failures of an input without a profile: its catalogue lines (one per entry) with the
error lines around each as context, and every other error report as a failure of id
``unknown``; the telling failure first: a catalogue entry before an unknown line (its diagnosis
and fix say what to do: an RKLLM run that fails after ``your rknpu driver version is too low``
is told to update the driver), then an error before a warning, then log order. What the rest
of the log says is added to the telling failure (:func:`tell`): an RKNPU driver the version
lines show too old, where its cause involves the driver (:func:`beside_an_old_driver`); a core
mask refused for a model built before multi-core models; the device-open steps the log has
taken already (:func:`device_access`); input/output operators alone failing a submit
(:func:`io_operators_first`); an RKLLM run's failed submit on RV1126B, with the fix its
maintainers gave (:func:`rkllm_on_rv1126b`). A ``failed to malloc npu memory`` just after an
errno-24 line is that fd exhaustion (:func:`after_fd_exhaustion`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import KnownFailure, Versions
from rknnprof.model.record import replace
from rknnprof.parsers.events import NoteEvent
from rknnprof.parsers.failure_catalogue import DEVICE_DRIVER, DEVICE_RIGHTS, match
from rknnprof.platforms.drivers import (
    fixed_by,
    min_driver_text,
    old_for_runtime,
    version_tuple,
)

UNKNOWN = "unknown"
_NEAR = 2
"""Lines between an error report and a catalogue line for the report to be its context."""
_MAX_CONTEXT = 5
_MAX_LINES = 5
"""Other lines of one catalogue entry named in its diagnosis (the rest counted)."""
UNKNOWN_DIAGNOSIS = "an error the failures catalogue does not know"
UNKNOWN_FIX = (
    "search the line in the rknn-toolkit2 / rknn-llm issue trackers; set RKNN_LOG_LEVEL=4 on "
    "the board (RKLLM_LOG_LEVEL=2 for RKLLM), or RKNN(verbose=True) when converting, to print "
    "more of what led to it"
)


def one_per_entry(
    failures: Iterable[KnownFailure], met: Mapping[str, int] | None = None
) -> tuple[KnownFailure, ...]:
    """The first failure of each catalogue entry, in log order; an entry met on several lines
    names the others (`` (also lines 8, 15)``), their text in its context when it differs
    (another op)."""
    first: dict[str, KnownFailure] = {}
    more: dict[str, list[KnownFailure]] = {}
    for failure in failures:
        if first.setdefault(failure.id, failure) is not failure:
            more.setdefault(failure.id, []).append(failure)
    out = []
    for entry, failure in first.items():
        lines = [f.line for f in more.get(entry, ())]
        # (the failures kept are the input's first ones; ``met`` counts every line)
        others_met = max(len(lines), (met or {}).get(entry, 0) - 1)
        if others_met:
            shown = lines[:_MAX_LINES]
            rest = others_met - len(shown)
            where = ", ".join(map(str, shown))
            also = (
                f" (also line{'s' * (others_met > 1)} {where}"
                + (f" +{rest:,} more)" if rest else ")")
                if shown
                else f" (also on {rest:,} more line{'s' * (rest > 1)})"
            )
            others = [f.text for f in more.get(entry, ()) if f.text != failure.text]
            failure = replace(
                failure,
                diagnosis=failure.diagnosis + also,
                context=tuple(dict.fromkeys((*others, *failure.context)))[:_MAX_CONTEXT],
            )
        out.append(failure)
    return tuple(out)


FD_EXHAUSTION = "too-many-open-files"
MEMORY = "npu-memory-allocation"


def after_fd_exhaustion(failure: KnownFailure, before: KnownFailure | None) -> KnownFailure:
    """``failure`` as the fd exhaustion it follows from: the runtime's ``failed to malloc npu
    memory`` (no errno of its own) within a line or two after an errno-24 line of its stream
    (``before``, itself or another such line) is the buffer that line could not give a file
    descriptor (rknn-llm issue 62 prints the pair five times), not memory the NPU lacked
    (errno 12, whose fix is the IOMMU and CMA)."""
    if (
        failure.id != MEMORY
        or before is None
        or before.id != FD_EXHAUSTION
        or not 0 < failure.line - before.line <= _NEAR
        or "failed to malloc npu memory" not in failure.text
        or "errno" in failure.text
    ):
        return failure
    return replace(
        failure,
        id=before.id,
        diagnosis=before.diagnosis,
        cause=before.cause,
        fix=before.fix,
        source=before.source,
        confidence=before.confidence,
        severity=before.severity,
    )


def unknown_failure(note: NoteEvent) -> KnownFailure:
    """An error report no catalogue entry matches, as a failure of id ``unknown``."""
    return KnownFailure(
        id=UNKNOWN,
        line=note.message_line or note.line,
        text=note.message,
        diagnosis=UNKNOWN_DIAGNOSIS,
        cause="",
        fix=UNKNOWN_FIX,
        source="",
        confidence="low",
        context=note.context[:_MAX_CONTEXT],
    )


def _near(note: NoteEvent, line: int) -> bool:
    return note.line - _NEAR <= line <= note.last_line + _NEAR


def undiagnosed_errors(
    known: Iterable[KnownFailure], errors: Sequence[NoteEvent]
) -> tuple[int, str] | None:
    """(line, warning) when a log that holds a profile also reports errors no catalogue entry
    explains (none near a catalogue line): they were told only when there was no profile."""
    known = list(known)
    unknown = [n for n in errors if not any(_near(n, f.line) for f in known)]
    if not unknown:
        return None
    first = unknown[0]
    more = f" ({len(unknown) - 1} more)" if len(unknown) > 1 else ""
    return (
        first.message_line or first.line,
        f"the log reports an error rknnprof does not diagnose: `{first.message}`{more}; "
        "read it before trusting the table beside it",
    )


def no_profile_failures(
    known: Iterable[KnownFailure],
    errors: Sequence[NoteEvent],
    met: Mapping[str, int] | None = None,
) -> tuple[KnownFailure, ...]:
    """Every failure of an input without a profile, the telling one first (``met``: lines of
    each entry in the input, the ones not kept too)."""
    known = list(known)
    failures = list(one_per_entry(known, met))
    index = {f.id: i for i, f in enumerate(failures)}
    context: dict[int, list[str]] = {i: list(f.context) for i, f in enumerate(failures)}
    unknown: list[KnownFailure] = []
    for note in errors:
        # (near any line of an entry: a traceback ending in the exception that repeats the
        # runtime's line belongs to it)
        owner = next((index[f.id] for f in known if _near(note, f.line)), None)
        if owner is None:
            unknown.append(unknown_failure(note))
        else:
            context[owner].extend((note.message, *note.context))
    for i, failure in enumerate(failures):
        lines = [c for c in dict.fromkeys(context[i]) if c != failure.text]
        failures[i] = replace(failure, context=tuple(lines[:_MAX_CONTEXT]))
    ordered = sorted(
        [*failures, *unknown],
        key=lambda f: (f.id == UNKNOWN, f.severity != "error", f.line),
    )
    return tuple(ordered)


_WANTED = LazyPattern(r"(?:upgrade to|>=)\s*(\d+(?:\.\d+)+)")
"""The driver version a runtime's 'driver version is too low' line asks for."""
DRIVER_TOO_OLD = "driver-too-old"
"""The failures catalogue's entry for the runtime's own 'driver version is too low'."""
SUBMIT_FAILED = "submit-failed"
JOB_TIMEOUT = "npu-job-timeout"
ASKED_DRIVER_LEADS = frozenset({"npu-memory-allocation"})
"""Entries whose cause names no driver, but which the runtime's own demand for a newer driver
(``please upgrade to 0.9.6``) leads all the same: RKNPU driver 0.9.6 added NPU allocations
over 4 GB (the rknn-llm maintainers, airockchip/rknn-llm#97), and the runtime saying its driver
is too low is its own word on the driver. The log's version lines alone
(:func:`beside_an_old_driver`'s other notes) do not tie these to the driver."""


def beside_an_old_driver(
    failures: tuple[KnownFailure, ...], versions: Versions
) -> tuple[KnownFailure, ...]:
    """The telling failure, when its catalogue cause names the driver among its causes and
    the runtime itself asked for a newer driver (``please upgrade to 0.9.7``), or the log's
    ``versions`` name one too old for the runtime (``drivers.old_for_runtime``) or a release
    with a known ``failed to submit`` bug (``drivers.FIXED_BY``), says so: ``failed to submit``
    beside librknnrt 2.3.2 and driver 0.7.2 points at the driver, beside driver 0.9.3 at its
    fix, errno 14 after the runtime asked for 0.9.7 leads its fix with it (errno 12 after it
    asked for 0.9.6 too: :data:`ASKED_DRIVER_LEADS`); ``Invalid RKNN model version`` does
    not."""
    if failures and failures[0].id != DRIVER_TOO_OLD and _asked_driver_may_cause(failures[0]):
        asked = next((f for f in failures if f.id == DRIVER_TOO_OLD), None)
        if asked is not None:  # the runtime said it wants a newer driver: that comes first
            first = failures[0]
            wanted = _WANTED.search(asked.text)
            version = f" ({wanted.group(1)} or later)" if wanted else ""
            return (
                replace(
                    first,
                    diagnosis=first.diagnosis
                    + f"; the runtime asks for a newer RKNPU driver (line {asked.line}), a "
                    "likely cause",
                    fix=f"first update the RKNPU driver to what the runtime asks for{version}; "
                    f"if it still fails: {first.fix}",
                ),
                *failures[1:],
            )
    if not failures or any(f.id == DRIVER_TOO_OLD for f in failures):
        return failures  # (the runtime said so itself)
    first = failures[0]
    if "driver" not in first.cause.lower():
        return failures  # a cause of its own (a model newer than the runtime, ...)
    fixed = fixed_by(versions.driver)
    if fixed is not None and first.id in (SUBMIT_FAILED, JOB_TIMEOUT):
        note = (
            f"; the log's RKNPU driver {versions.driver} fails NPU tasks that {fixed} runs "
            "(radxa/kernel#312), a likely cause"
        )
        fix = f"first update the RKNPU driver to {fixed} or later; if it still fails: {first.fix}"
        return (replace(first, diagnosis=first.diagnosis + note, fix=fix), *failures[1:])
    if not old_for_runtime(versions.driver, versions.runtime):
        return failures
    runtime = f" beside runtime {versions.runtime}" if versions.runtime else ""
    note = (
        f"; the log's RKNPU driver {versions.driver} is older than {min_driver_text()}"
        f"{runtime}, a likely cause"
    )
    return (replace(first, diagnosis=first.diagnosis + note), *failures[1:])


def _asked_driver_may_cause(failure: KnownFailure) -> bool:
    """Whether the runtime's own ``driver version is too low`` comes first in ``failure``'s
    fix: its cause names the driver, or it is among :data:`ASKED_DRIVER_LEADS`."""
    return "driver" in failure.cause.lower() or failure.id in ASKED_DRIVER_LEADS


INVALID_CORE_MASK = "invalid-core-mask"
_MODEL_VERSION = LazyPattern(r"Model Version is (\d+\.\d+\.\d+) now")
MULTI_CORE_MODELS = (1, 4, 0)
"""The rknn-toolkit2 whose models run on several RK3588 cores at once (rknpu2 1.4.0's release
notes: "RK3588 adds the function of running a single model on multiple cores at the same
time"; 1.3.0 ran several batches on several cores)."""


def core_mask_on_an_old_model(failures: tuple[KnownFailure, ...]) -> tuple[KnownFailure, ...]:
    """The telling failure, when it is a refused core mask whose lines name a model built
    before :data:`MULTI_CORE_MODELS` (``NN Compiler/Model Version is 1.3.0 now``,
    rockchip-linux/rknpu2 issue 105), leads its fix with rebuilding the model; ``0.0.0`` (the
    matmul API, no model) keeps the entry's fix."""
    if not failures or failures[0].id != INVALID_CORE_MASK:
        return failures
    first = failures[0]
    said = next((m for t in (first.text, *first.context) if (m := _MODEL_VERSION.search(t))), None)
    built = version_tuple(said.group(1)) if said is not None else None
    if built is None or built == (0, 0, 0) or built >= MULTI_CORE_MODELS:
        return failures
    assert said is not None  # (a version was read)
    note = (
        f"; the model was built by rknn-toolkit2 {said.group(1)}, before 1.4.0 let one model "
        "run on several cores, a likely cause"
    )
    fix = (
        "rebuild the model with rknn-toolkit2 1.4.0 or later and run it with the librknnrt of "
        "the same version; on a single-core SoC use RKNN_NPU_CORE_AUTO (0)"
    )
    return (replace(first, diagnosis=first.diagnosis + note, fix=fix), *failures[1:])


DEVICE_NOT_OPENED = "device-not-opened"


def device_access(
    failures: tuple[KnownFailure, ...], versions: Versions, root_line: int | None
) -> tuple[KnownFailure, ...]:
    """The telling failure, when the runtime could not open the NPU device, with the steps the
    log has not taken already: no "run as root" after a command run as root (``root_line``:
    ``sudo python3 …``, rockchip-linux/rknn-toolkit issue 507); no "use a kernel with
    CONFIG_ROCKCHIP_RKNPU" when the log reads the driver's version (the driver is loaded:
    ophub/amlogic-s9xxx-armbian issue 3123, ``RKNPU driver: v0.9.8``), but its device node to
    look for; and, first, a librknnrt of an older major version than the rknn-toolkit-lite2
    beside it (1.1.0 under 2.2.0), where the toolkit wants the librknnrt of its own version."""
    if not failures or failures[0].id != DEVICE_NOT_OPENED:
        return failures
    first = failures[0]
    node = (
        f"the RKNPU driver is loaded (the log reads driver {versions.driver}), so look for the "
        "device node the runtime opens: `ls -l /dev/dri /dev/rknpu*` must list the NPU's card "
        "and renderD nodes (or /dev/rknpu)"
    )
    as_root = f"the command ran as root (line {root_line})"
    if root_line is None:
        fix = (
            first.fix if versions.driver is None else f"{DEVICE_RIGHTS}; if root fails too, {node}"
        )
    elif versions.driver is None:
        fix = f"{as_root}, so the user's rights are not it: {DEVICE_DRIVER}"
    else:
        fix = f"{as_root} and {node}"
    diagnosis = first.diagnosis
    runtime, lite = version_tuple(versions.runtime), version_tuple(versions.lite)
    if runtime is not None and lite is not None and runtime[0] < lite[0]:
        diagnosis += (
            f"; its librknnrt {versions.runtime} is far older than the rknn-toolkit-lite2 "
            f"{versions.lite} beside it, a likely cause"
        )
        fix = (
            f"first install the librknnrt of rknn-toolkit-lite2's version ({versions.lite}) on "
            "the board (rknn-toolkit2's rknpu2/runtime/Linux/librknn_api/<arch>/librknnrt.so in "
            f"/usr/lib); if it still fails: {fix}"
        )
    return (replace(first, diagnosis=diagnosis, fix=fix), *failures[1:])


_IO_OPERATORS = frozenset({"InputOperator", "OutputOperator"})


def io_operators_only(failure: KnownFailure) -> bool:
    """Whether ``failure`` is ``failed to submit`` whose lines (its own and the other ops' in its
    context) name only the model's input and output operators (``OutputOperator:output``)."""
    if failure.id != SUBMIT_FAILED:
        return False
    ops = [
        found[1].get("op", "")
        for text in (failure.text, *failure.context)
        if (found := match(text)) is not None and found[0].id == SUBMIT_FAILED
    ]
    return bool(ops) and all(op.partition(":")[0] in _IO_OPERATORS for op in ops)


def io_operators_first(failures: tuple[KnownFailure, ...]) -> tuple[KnownFailure, ...]:
    """The telling failure, a ``failed to submit`` of the input and output operators alone,
    leads its fix with the buffers and tensors the application gives and takes: an output the
    runtime cannot fill as asked fails there (rockchip-linux/rknn-toolkit2 issue 87, fixed by
    reshaping the model's output), not a driver the version lines call old (the log keeps that
    as a note of what it holds)."""
    first = failures[0]
    return (
        replace(
            first,
            diagnosis=first.diagnosis + "; only the model's input and output operators failed",
            fix=(
                "first check each input and output against the model: the type and size of "
                "the buffers the application passes against rknn_query's "
                "RKNN_QUERY_INPUT_ATTR / RKNN_QUERY_OUTPUT_ATTR, and the output tensors' shape; "
                "if they match: " + first.fix
            ),
        ),
        *failures[1:],
    )


def tell(
    failures: tuple[KnownFailure, ...],
    versions: Versions,
    platform: str | None,
    root_lines: Mapping[int, int],
) -> tuple[KnownFailure, ...]:
    """The failures of an input without a profile with what the rest of the log says beside
    the telling one (``root_lines``: the line of a command run as root before a failure's
    line, by that line)."""
    root_line = root_lines.get(failures[0].line) if failures else None
    failures = device_access(core_mask_on_an_old_model(failures), versions, root_line)
    if failures and io_operators_only(failures[0]):
        failures = io_operators_first(failures)
    else:
        failures = beside_an_old_driver(failures, versions)
    return rkllm_on_rv1126b(failures, versions, platform)


def rkllm_on_rv1126b(
    failures: tuple[KnownFailure, ...], versions: Versions, platform: str | None
) -> tuple[KnownFailure, ...]:
    """The telling failure, when it is ``failed to submit`` in an RKLLM run (the log names
    librkllmrt) on RV1126B, gets the fix the rknn-llm maintainers gave for it there (an
    InternVL3 demo's first NPU task failed until ``base_domain_id`` was 0), cited in the fix:
    ``source`` stays the entry's one page."""
    if not failures or failures[0].id != SUBMIT_FAILED:
        return failures
    if versions.llm_runtime is None or (platform or "").lower() != "rv1126b":
        return failures
    first = failures[0]
    fix = (
        "on RV1126B set param.extend_param.base_domain_id = 0 before rkllm_init (the fix the "
        "rknn-llm maintainers gave for this failure there, confirmed by the reporter: "
        "https://github.com/airockchip/rknn-llm/issues/483); else " + first.fix
    )
    return (replace(first, fix=fix), *failures[1:])
