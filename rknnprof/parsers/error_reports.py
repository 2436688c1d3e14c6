"""Errors the log reports instead of a profile: ``E`` lines, Python tracebacks, a failed perf run.

Seen in 21 (``IOCTL_CMD_PERF_RUN fail``), 22 (``E eval_perf: … detail is empty!`` + traceback),
25 (``format_perf_detail`` -> ``ValueError: substring not found``), 39 (logcat ``E RKNN``), 40
(``Invalid RKNN model version`` + traceback). Consecutive error lines, traceback frames and their
indented continuations form one block; it emits ``NoteEvent(kind="error")`` whose message is the
telling line: the first line of the runtime itself (``E RKNN:``, ``E RKNNAPI:``, ``E rkllm:``,
banners aside) over the exception it causes (``Exception: RKNN init failed``), which is over the
first other error message. The others are the note's ``context``. ``analyze`` uses it to say why
there is no profile (exit 3), as a failure of id ``unknown`` when the catalogue has no entry.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import NoteEvent
from rknnprof.parsers.failure_catalogue import match as known_failure

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "error-report"

_E_PREFIX = LazyPattern(r"(?:^|\s)E (?P<tag>[\w.-]+)\s*:\s*(?:\[[\d:.]+\]\s*)?(?P<msg>.*)$")
_E_BARE = LazyPattern(r"^E (?P<msg>[A-Z].*)$")
_TRACEBACK = "Traceback (most recent call last):"
_FRAME = LazyPattern(r'^(?:E )?\s+File "[^"]*", line \d+')
"""A traceback frame; toolkit1 prints its own under an ``E`` prefix (``E   File "…"``)."""
_EXCEPTION = LazyPattern(r"^(?:[\w.]+\.)?(?P<name>\w*(?:Error|Exception))(?::\s*(?P<msg>.*))?$")
_PERF_RUN_FAIL = "IOCTL_CMD_PERF_RUN fail"
_IGNORED_E = ("rknn-toolkit", "version:")
"""``E rknn-toolkit2 version: 2.3.2`` is printed at E level but is not an error."""
_RUNTIME_TAGS = frozenset({"RKNN", "RKNNAPI", "rkllm", "RKNPU"})
"""Components whose own lines say what failed (the rest report its consequences)."""
_NPU_WORDS = LazyPattern(r"rknn|rkllm|rknpu|(?<![a-z])npu", re.IGNORECASE)
"""Words that name the NPU's software (``npu`` not inside a word: ``input`` names nothing): an
error line of another logcat tag counts when it names one, and a traceback that names none is
the application's own."""
_BANNER = LazyPattern(r"^(?:=+|-+|RKNN VERSION:|(?:API|DRV):\s.*)$")
"""``E RKNNAPI: =====``, ``E RKNNAPI: RKNN VERSION:``, ``E RKNNAPI:   API: 1.7.5 (…)``."""
_MAX_CONTEXT = 5
APP_ERROR = "app-error"
"""``NoteEvent.kind`` of a traceback of the application's own, which names no NPU."""


def _error_tag(line: Line) -> str | None:
    """The component an error line names (``RKNN`` of ``E RKNN: …``), if any."""
    if line.tag is not None:
        return line.tag
    match = _E_PREFIX.search(line.text)
    return match.group("tag") if match is not None else None


def _error_message(line: Line) -> str | None:
    """The message of an error-level line, or None (a logcat line of another process's
    component, such as the camera's ``E Camera: Error 1``, is not the runtime's failure; the
    toolkit's own ``E eval_perf:`` lines have no pid and count)."""
    text = line.text.strip()
    if line.level == "E" and text:
        return text if line.stream is None or _about_the_npu(line.tag, text) else None
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


def _about_the_npu(tag: str | None, text: str) -> bool:
    """An error line of the runtime, or one that names it (an app's ``rknn_init fail!``)."""
    if tag is None or tag in _RUNTIME_TAGS:
        return True
    words = f"{tag} {text}".lower()
    return _NPU_WORDS.search(words) is not None


class _ErrorReport(Block):
    def __init__(self, line: Line) -> None:
        self.first_line = self.last_line = line.number
        self.stream = line.stream
        self.messages: list[tuple[int, str]] = []
        """(line, message) of each error line, in order."""
        self.runtime: tuple[int, str] | None = None
        """The first of them the runtime itself printed (not a banner)."""
        self.exception: tuple[int, str] | None = None
        self.traceback = False
        self.about_the_npu = False
        """A line of the block names rknn, npu or rkllm (a frame in the toolkit, a source line
        calling it, the message)."""
        self.done = False
        self.feed(line)

    def feed(self, line: Line) -> bool:
        if self.done:
            return False
        text = line.text
        if known_failure(text) is not None:  # a catalogue line says more: its own block
            return False
        stripped = text.strip()
        if not self.about_the_npu:
            self.about_the_npu = _NPU_WORDS.search(text) is not None
        if _TRACEBACK in text or _FRAME.match(text):  # (a SyntaxError prints a frame alone)
            self.traceback = True
        exception = _EXCEPTION.match(stripped)
        if exception and not text[:1].isspace():
            self.exception = (line.number, stripped)
            self.done = True  # the exception line ends a traceback
        elif _TRACEBACK in text or _FRAME.match(text):
            pass
        elif (message := _error_message(line)) is not None:
            if _TRACEBACK not in message:
                self._add(line, message)
        elif text[:1].isspace() and stripped and self.last_line == line.number - 1:
            pass  # a traceback's source line or an indented continuation
        else:
            return False
        self.last_line = line.number
        return True

    def _add(self, line: Line, message: str) -> None:
        if self.messages and _BANNER.match(message):
            return  # (a version banner's rules and lines: they filled the context before the
            # line that said RKNN_ERR_MODEL_INVALID)
        if len(self.messages) < _MAX_CONTEXT + 1:
            self.messages.append((line.number, message))
        if self.runtime is None and _error_tag(line) in _RUNTIME_TAGS:
            if not _BANNER.match(message) and not message.startswith("Catch exception"):
                self.runtime = (line.number, message)

    def close(self) -> list[Event]:
        first = self.messages[0] if self.messages else None
        telling = self.runtime or self.exception or first
        if telling is None:
            return []
        # (the exception first: the line that names the error code, before what led to it)
        others = [m for _, m in [*([self.exception] if self.exception else []), *self.messages]]
        context = tuple(dict.fromkeys(m[:200] for m in others if m != telling[1]))
        # a Python traceback none of whose lines names the NPU, without a runtime error line:
        # the application's own error (a json.dump of its results), not the runtime's failure
        own = self.traceback and not self.messages and not self.about_the_npu
        return [
            NoteEvent(
                FAMILY,
                self.first_line,
                self.last_line,
                APP_ERROR if own else "error",
                telling[1][:200],
                self.stream,
                message_line=telling[0],
                context=context[:_MAX_CONTEXT],
            )
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
