"""Errors the log reports instead of a profile: ``E`` lines, Python tracebacks, a failed perf run.

Seen in 21 (``IOCTL_CMD_PERF_RUN fail``), 22 (``E eval_perf: … detail is empty!`` + traceback),
25 (``format_perf_detail`` -> ``ValueError: substring not found``), 39 (logcat ``E RKNN``), 40
(``Invalid RKNN model version`` + traceback). Consecutive error lines, traceback frames and their
indented continuations form one block; it emits ``NoteEvent(kind="error")`` whose message is the
most telling line: the exception line (``ValueError: …``) if there is one, else the first error
message. ``analyze`` uses it to say why there is no profile (exit 3).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import NoteEvent
from rknnprof.parsers.failure_catalogue import match as known_failure

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "error-report"

_E_PREFIX = re.compile(r"(?:^|\s)E (?P<tag>[\w.-]+)\s*:\s*(?:\[[\d:.]+\]\s*)?(?P<msg>.*)$")
_E_BARE = re.compile(r"^E (?P<msg>[A-Z].*)$")
_TRACEBACK = "Traceback (most recent call last):"
_FRAME = re.compile(r'^\s+File "[^"]*", line \d+')
_EXCEPTION = re.compile(r"^(?:[\w.]+\.)?(?P<name>\w*(?:Error|Exception))(?::\s*(?P<msg>.*))?$")
_PERF_RUN_FAIL = "IOCTL_CMD_PERF_RUN fail"
_IGNORED_E = ("rknn-toolkit", "version:")
"""``E rknn-toolkit2 version: 2.3.2`` is printed at E level but is not an error."""


def _error_message(line: Line) -> str | None:
    """The message of an error-level line, or None."""
    text = line.text.strip()
    if line.level == "E" and text:
        return text
    if _PERF_RUN_FAIL in text:
        return text[text.index(_PERF_RUN_FAIL) :]
    if "E " not in text:  # both patterns need it; this runs on every line outside a block
        return None
    match = _E_PREFIX.search(text) or _E_BARE.match(text)
    if match is None:
        return None
    message = match.group("msg").strip()
    if not message or all(part in text for part in _IGNORED_E):
        return None
    return message


class _ErrorReport(Block):
    def __init__(self, line: Line) -> None:
        self.first_line = self.last_line = line.number
        self.stream = line.stream
        self.first_message: str | None = None
        self.exception: str | None = None
        self.done = False
        self.feed(line)

    def feed(self, line: Line) -> bool:
        if self.done:
            return False
        text = line.text
        if known_failure(text) is not None:  # a catalogue line says more: its own block
            return False
        stripped = text.strip()
        exception = _EXCEPTION.match(stripped)
        if exception and not text[:1].isspace():
            self.exception = stripped
            self.done = True  # the exception line ends a traceback
        elif _TRACEBACK in text or _FRAME.match(text):
            pass
        elif (message := _error_message(line)) is not None:
            if _TRACEBACK not in message and self.first_message is None:
                self.first_message = message
        elif text[:1].isspace() and stripped and self.last_line == line.number - 1:
            pass  # a traceback's source line or an indented continuation
        else:
            return False
        self.last_line = line.number
        return True

    def close(self) -> list[Event]:
        message = self.exception or self.first_message
        if message is None:
            return []
        return [
            NoteEvent(FAMILY, self.first_line, self.last_line, "error", message[:200], self.stream)
        ]


class ErrorReportParser(BlockParser):
    family = FAMILY
    detection = (
        "error-level lines (`E RKNN: …`, `E eval_perf: …`, logcat level E), Python tracebacks, "
        "`IOCTL_CMD_PERF_RUN fail`"
    )
    fields = "nothing to analyze: a note with the error, used to explain an empty result"

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if _TRACEBACK in text or _FRAME.match(text) or _error_message(line) is not None:
            return _ErrorReport(line)
        return None
