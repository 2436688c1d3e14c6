"""One body of decoded, cleaned text -> :class:`~rknnprof.inputs.records.Line` records: the
reader's reading of lines once :mod:`~rknnprof.inputs.lines` has decoded and split its input
(the logcat and runtime prefixes: :mod:`~rknnprof.inputs._prefixes`), and of one raw line
alone (:func:`line_reader`, for the bulk path's checks)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.inputs.records import Line, ReadStats
from rknnprof.inputs.sanitize import clean

if TYPE_CHECKING:
    from rknnprof.inputs._prefixes import OtherLayouts
    from rknnprof.inputs.claims import ReadLine

MAX_LINE_CHARS = 65536
"""Longest line kept, in characters; the excess of a longer line is discarded."""
CHUNK_BYTES = MAX_LINE_CHARS - 4
"""Largest read, in bytes. On a pipe a read returns what is available, so lines are not delayed.
Kept below the cap so that only the line straddling two reads can exceed it."""
new_line = tuple.__new__  # Line(...) without the generated __new__'s Python frame


def body_lines(
    body: str,
    number: int,
    other: OtherLayouts,
    stats: ReadStats,
) -> Iterator[Line | int]:
    """The lines of ``body`` (the first is line ``number + 1``): a :class:`Line` each, or the
    line's number for a line that is dropped."""
    NESTED_FIRST, RKNN_STAMPED, THREADTIME_CHUNK, logcat_line = _grammar or _load_grammar()
    streams = other.streams
    for ids, level, tag, msg in THREADTIME_CHUNK.findall(body):
        number += 1
        if ids:  # threadtime: the hot path
            key = streams.get(ids)
            if key is None:
                key = other.remember(ids)
                stats.logcat_format = stats.logcat_format or "threadtime"
            msg = msg.rstrip()
            if msg and msg[0] in NESTED_FIRST or tag == "chatty":
                line = logcat_line(number, msg, key, level, tag, stats)
                yield number if line is None else line
            else:
                yield new_line(Line, (number, msg, key, level, tag))
        else:
            s = msg.rstrip()
            if (
                s.startswith("RKNN: [", 2)
                and other.long_entry is None
                and (m := RKNN_STAMPED.match(s)) is not None
            ):
                # the runtime's own "D RKNN: [hh:mm:ss.mmm] " (RKNN_LOG_LEVEL=4): hot too
                yield new_line(Line, (number, s[m.end() :], None, s[0], "RKNN"))
                continue
            if s[:1] == ">" and s[1:2] != ">":
                # a Markdown blockquote's marker (a log quoted in an issue; not ``>>>``, a
                # Python prompt): the line under it is read as it would be unquoted (a quoted
                # ``-v long`` entry's blank line ``>`` ends it)
                yield from body_lines(unquote(s), number - 1, other, stats)
                continue
            line = other.line(number, s)
            yield number if line is None else line


def unquote(line: str) -> str:
    """``line`` without its Markdown blockquote markers (``> `` or ``>``, nested ones too), in
    one cut (a line of 32,000 markers took 25 ms cut one at a time)."""
    m = _QUOTE_MARKERS.match(line)
    return line if m is None else line[m.end() :]


_QUOTE_MARKERS = LazyPattern(r"(?:>(?!>) ?)+")
"""Blockquote markers at a line's start; not ``>>``, a Python prompt's."""


_grammar: tuple[Any, ...] = ()
"""The prefix grammar's hot names (:mod:`~rknnprof.inputs._prefixes`), imported on first use:
its regular expressions are not compiled for ``--help``."""


def grammar() -> tuple[Any, ...]:
    """``(NESTED_FIRST, RKNN_STAMPED, THREADTIME_CHUNK, logcat_line)`` of the prefix grammar."""
    return _grammar or _load_grammar()


def _load_grammar() -> tuple[Any, ...]:
    global _grammar
    from rknnprof.inputs._prefixes import NESTED_FIRST, RKNN_STAMPED, THREADTIME_CHUNK, logcat_line

    _grammar = (NESTED_FIRST, RKNN_STAMPED, THREADTIME_CHUNK, logcat_line)
    return _grammar


def line_reader(stats: ReadStats, other: OtherLayouts | None = None) -> ReadLine:
    """The reader's reading of one raw UTF-8 line (no newline) as line ``number``: exactly what
    :func:`read_lines` yields for it, outside a ``-v long`` entry (None: a dropped line)."""
    from rknnprof.inputs._prefixes import OtherLayouts

    layouts = OtherLayouts(stats) if other is None else other

    def read_line(raw: bytes, number: int) -> Line | None:
        text = clean(raw.decode("utf-8", "replace")[:MAX_LINE_CHARS])  # cut, then cleaned
        for line in body_lines(text, number - 1, layouts, stats):
            return None if line.__class__ is int else line  # type: ignore[return-value]
        return None

    return read_line
