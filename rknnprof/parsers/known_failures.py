"""Known failures: one line of the failures catalogue (:mod:`.failure_catalogue`), e.g.
``E RKNN: unsupport cpu Gather op, op name: …`` on RV1106, ``Invalid RKNN model version 6``,
``failed to allocate handle, ret: -1, errno: 12``. Each line is one block and one
:class:`~rknnprof.parsers.events.FailureEvent` with the entry's diagnosis, cause and fix.

Registered first: these lines are also error-level lines (``error_reports``) or version lines
(``runtime_info``), and the diagnosis says more than either. The assembler attaches the failures
to the profiles of their stream (an RKN080 finding each); an input with no profile exits 3 with
the first failure's diagnosis and fix.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, ClassVar

from rknnprof.model import KnownFailure
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import FailureEvent
from rknnprof.parsers.failure_catalogue import match
from rknnprof.parsers.failure_entry import Entry

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "known-failure"


MAX_QUOTE = 200
"""Characters of a failure's line kept in ``KnownFailure.text``."""


def quoted(text: str, at: int = 0) -> str:
    """The line, cut at a word boundary to at most :data:`MAX_QUOTE` characters with ``…``
    when longer (a cut in the middle of a word or URL read as the line's own text); when what
    matched (at ``at`` in ``text``) lies past half of that, the quote is a window that starts a
    little before it, ``…`` on each side cut (a JSON journal line quoted only its cursor)."""
    s = text.strip()
    if len(s) <= MAX_QUOTE:
        return s
    at -= len(text) - len(text.lstrip())
    begin = 0
    if at > MAX_QUOTE // 2:
        begin = s.find(" ", max(0, at - _LEAD), at) + 1 or max(0, at - _LEAD)
    window = s[begin:]
    if len(window) > MAX_QUOTE - 2:
        cut = window.rfind(" ", 0, MAX_QUOTE - 2)
        window = window[: cut if cut > MAX_QUOTE // 2 else MAX_QUOTE - 3].rstrip(" ,;:") + "…"
    return ("…" if begin else "") + window


_LEAD = 40
"""Characters of the line kept before what matched, in a window (:func:`quoted`)."""


def failure_of(entry: Entry, groups: dict[str, str], line: int, text: str) -> KnownFailure:
    """The record of one matching line: the entry's texts with the line's values filled in."""
    values = defaultdict(lambda: "?", groups)
    found = entry.pattern.search(text)
    return KnownFailure(
        id=entry.id,
        line=line,
        text=quoted(text, found.start() if found is not None else 0),
        diagnosis=entry.diagnosis.format_map(values),
        cause=entry.cause,
        fix=entry.fix.format_map(values),
        source=entry.source,
        confidence=entry.confidence,
        severity="warning" if entry.warning else "error",
    )


class _FailureLine(Block):
    def __init__(self, event: FailureEvent, line: Line) -> None:
        self.event = event
        self.last = line.number
        self.tag = line.tag

    def feed(self, line: Line) -> bool:
        """Takes the message's indented continuation, which toolkit2 1.4 prints under the same
        prefix (``E init_runtime:                https://…``): not an error of its own."""
        text = line.text
        if (
            line.number == self.last + 1
            and line.tag is not None
            and line.tag == self.tag
            and text[:4].isspace()
            and text.strip()
            and _match(line) is None
        ):
            self.last = line.number
            return True
        return False

    def close(self) -> list[Event]:
        return [self.event]


class KnownFailureParser(BlockParser):
    family: ClassVar[str] = FAMILY
    detection: ClassVar[str] = (
        "a line of the failures catalogue: `unsupport cpu <Op> op`, `rknn fallback cpu failed`, "
        "`Not support core mask: 3`, `Invalid RKNN model version 6`, `errno: 12`, `undefined "
        "symbol: rknn_get_run_time`, `detail is empty`, `failed to submit`, … "
        "(docs/errors.md lists them)"
    )
    fields: ClassVar[str] = (
        "the diagnosis, cause, fix and source of each (JSON `failures`); a finding (RKN080) on "
        "the profile of the same log, or exit 3 with the diagnosis when there is none"
    )

    def opens(self, line: Line) -> Block | None:
        found = _match(line)
        if found is None:
            return None
        entry, groups = found
        failure = failure_of(entry, groups, line.number, line.text)
        return _FailureLine(FailureEvent(failure, line.stream), line)


def _match(line: Line) -> tuple[Entry, dict[str, str]] | None:
    """The catalogue entry of ``line``. The kernel driver's lines are matched as dmesg prints
    them (``RKNPU: job timeout``) also when logcat took the ``RKNPU`` into its tag."""
    found = match(line.text)
    if found is None and line.tag == "RKNPU":
        found = match("RKNPU: " + line.text)
    return found


def matches(line: Line) -> bool:
    """Whether ``line`` is a catalogue line (other blocks end before it)."""
    return _match(line) is not None
