"""The prefix grammar of :func:`rknnprof.inputs.lines.read_lines`: logcat layouts, runtime prefixes.

Applied to each clean line (decoded, split, trailing whitespace stripped) by the reader:

* **Prefixes stripped** (anchored at the start of the line only; pasted prefixes such as
  `` |  ``, ``---> `` or markdown indentation are left for the table parsers):

  - ``adb logcat -v`` threadtime, time, brief, tag, thread, process, long and raw, with the
    year / usec / nsec / epoch / monotonic / uid / zone modifiers, collapsed whitespace, padded
    or long tags, and Android Studio's copies: ``date time pid-tid tag package P msg`` and the
    older window's ``date time pid-tid/package L/tag: msg`` (package optional).
    ``Line.stream`` is ``(pid, tid)``; formats that only give a pid (brief, time, process) use
    ``(pid, 0)`` -- tid 0 is never a user thread, so it reads as "tid unknown" and never collides
    with a real (pid, tid). ``tag`` and ``raw`` give no stream (None).
  - ``-v long``: the ``[ date time pid:tid L/TAG ]`` header is consumed (no Line) and the message
    lines after it carry its stream/level/tag until the blank line that ends the entry (that
    blank line is consumed too). A blank line *inside* a long message therefore ends it early.
  - the runtime's ``L RKNN: [hh:mm:ss.mmm] `` and the toolkit's ``L name: `` prefixes, where
    ``name`` is one token (``RKNN``, ``RKNNAPI``, ``NPUTransfer(81617)``, ``eval_perf``,
    ``init_runtime``...). Messages whose words merely follow a level letter
    (``W rknn-toolkit-lite2 version: 2.1.0``, ``I target set by user is: rk3588``) are NOT
    prefixes and pass through untouched, level None.
  - inside a logcat message, a repeated runtime stamp ``[hh:mm:ss.mmm] `` or a whole
    runtime / toolkit prefix (``L RKNN: [hh:mm:ss.mmm] ``, or ``L RKNN: `` without the stamp,
    as in plain text) is stripped as well.

* **Dropped lines** (no Line is yielded; they still count in line numbers and in
  :class:`~rknnprof.inputs.lines.ReadStats`): logcat dividers ``--------- beginning of main`` /
  ``switch to``, and logd ``chatty`` lines (``uid=1000(system) app identical 12 lines``).
  Chatty lines are dropped so a table is not cut in two by them; ``ReadStats.chatty`` keeps
  them so callers can warn that rows were squashed. A table's own dash rules (``-----...``) are
  not dividers and pass through.

Lines without a recognised prefix have ``stream``, ``level`` and ``tag`` None (``-v thread``
gives no tag).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.inputs.records import Line

if TYPE_CHECKING:
    from rknnprof.inputs.records import ReadStats

# --- grammar (ECOSYSTEM.md 1.2 / 1.8 / 2.1) ------------------------------------------------
# Possessive quantifiers (``++``, ``{m,n}+``) wherever what follows cannot start with what
# they repeat (a blank after digits, a digit after blanks): giving characters back could never
# lead to a match, so they only spare the engine its backtracking bookkeeping (about a fifth of
# the threadtime regex's time). Every use of _TS is followed by a blank.
_TS = r"(?:(?:\d{4}-)?\d\d-\d\d\s++\d\d:\d\d:\d\d\.\d{3,9}+|\d++\.\d{3,9}+)(?:\s++[+-]\d{4})?"
_PRI = r"([VDIWEFS?])"
_UIDP = r"\(\s*+(?:[^:()]++:)?\s*+"  # "(" + optional "uid:" of the brief/time/thread/process forms
_PAD = r"\s{0,64}+"
"""The blanks between a tag and what ends it (logcat pads a tag to 8 characters): bounded, so a
line of blanks where no tag ends costs each character 64 steps at most, not the rest of the
line (an unbounded blank run after a lazy tag is quadratic in the blanks)."""
_END = r"(?: |$)"  # exactly one blank eaten: the message (the rest) keeps its leading spaces


# threadtime (the default layout), matched over a whole chunk at once (re.M; blanks are
# [ \t] so that no match crosses a line end): one tuple per line, optional prefix.
def _id(digits: str) -> int:
    """A pid or tid; a number no kernel gives (over 18 digits, damage) is -1, an unknown id,
    rather than an int() that Python refuses past 4300 digits."""
    return int(digits) if len(digits) <= 18 else -1


# groups: ids ("pid tid", "" when the line is not threadtime), level, tag, msg or whole line
_H = r"[ \t]"
THREADTIME_CHUNK = LazyPattern(
    r"^(?:"
    + _H
    + "*+"
    + _TS.replace(r"\s", _H)
    + _H
    + r"++(?:\S+"
    + _H
    + r"+)??(\d++"
    + _H
    + r"++\d++)"
    + _H
    + r"++"
    + _PRI
    + r"[ \t](.*?)"
    + _H
    + r"{0,64}+:"
    + _END
    + r")?(.*)$",
    re.M,
)
# The per-line layouts match the prefix only; the message is the rest of the line.
# groups: level, tag, pid
_TIME = LazyPattern(r"\s*+" + _TS + r"\s++" + _PRI + r"/(.*?)" + _PAD + _UIDP + r"(\d+)\):" + _END)
_BRIEF = LazyPattern(_PRI + r"/(.*?)" + _PAD + _UIDP + r"(\d+)\):" + _END)
# groups: level, tag
_TAG = LazyPattern(_PRI + r"/(.*?)" + _PAD + ":" + _END)
# groups: level, pid, tid
_THREAD = LazyPattern(_PRI + _UIDP + r"(\d++):\s*+(\d++)\)" + _END)
# the tag comes last; groups: level, pid, msg, tag
# (the tag follows the last "  (": the lookahead first checks the line ends with ")", so a line
# of many "  (" that does not is refused in one pass)
_PROCESS = LazyPattern(_PRI + _UIDP + r"(\d++)\) (?=.*\)$)(.*)  \(((?:(?!  \().)*)\)$")
# groups: pid, tid, level, tag
_LONG_HEADER = LazyPattern(
    r"\[ " + _TS + r"\s++(?:\S+?:?\s+)??(\d++):\s*+(\d++)\s++" + _PRI + r"/(.*?)" + _PAD + r"\]$"
)
# Android Studio copy "date time  pid-tid  tag  package  P  msg"; groups: ids, tag, level
_STUDIO = LazyPattern(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+(\d+-\d+)\s+(\S+)\s+(?:\S+\s+)??"
    r"([VDIWEFA])(?:\s\s?|$)"
)
# the older Android Studio window (before its 2022 redesign) "date time pid-tid/package L/tag: msg",
# the package (or "?") hidden when the header leaves it out; groups: ids, level, tag
_STUDIO_CLASSIC = LazyPattern(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s++(\d++-\d++)(?:/\S*+)?\s++([VDIWEFA])/(.*?)"
    + _PAD
    + ":"
    + _END
)
# runtime / toolkit "L name: [hh:mm:ss.mmm] " (stamp optional, name one token); groups: level, tag
_RUNTIME = LazyPattern(
    r"([VDIWEF]) ([A-Za-z_][\w.-]*)(?:\(\d+\))?:"
    + _END
    + r"(?:\[\d\d:\d\d:\d\d(?:\.\d{1,9})?\]"
    + _END
    + ")?"
)
RKNN_STAMPED = LazyPattern(r"[VDIWEF] RKNN: \[\d\d:\d\d:\d\d(?:\.\d{1,9})?\]" + _END)
_STAMP = LazyPattern(r"\[\d\d:\d\d:\d\d(?:\.\d{1,9})?\](?: |$)")
_DIVIDER = LazyPattern(r"-{9} (?:beginning of|switch to) \w+$")
_CHATTY = LazyPattern(r"uid=\d+.* (?:identical|expire) \d+ lines?$")
_new_line = tuple.__new__  # Line(...) without the generated __new__'s Python frame
NESTED_FIRST = frozenset("[VDIWEF")
"""First characters of a logcat message that may hold a repeated runtime stamp/prefix."""


class OtherLayouts:
    """Every layout but threadtime, one line at a time; keeps the ``-v long`` entry state."""

    def __init__(self, stats: ReadStats) -> None:
        self.stats = stats
        self.streams: dict[str, tuple[int, int]] = {}  # "pid tid" text -> shared tuple
        # (stream, level, tag) of an open long entry
        self.long_entry: tuple[tuple[int, int] | None, str, str | None] | None = None
        self.kept: dict[tuple[bytes, bytes], tuple[Any, ...] | str] = {}
        """Readings of threadtime lines a skipper left inside claimed runs (lines.py)."""

    def remember(self, ids: str) -> tuple[int, int]:
        """The (pid, tid) of a ``"pid tid"`` / ``"pid-tid"`` text, cached (bounded)."""
        if len(self.streams) > 4096:
            self.streams.clear()
        pid, tid = ids.replace("-", " ").split()
        key = self.streams[ids] = (_id(pid), _id(tid))
        return key

    def line(self, number: int, s: str) -> Line | None:
        stats = self.stats
        if self.long_entry is not None:
            if not s:
                self.long_entry = None  # the blank line that ends a long entry
                return None
            if s[0] != "[" or _LONG_HEADER.match(s) is None:
                return logcat_line(number, s, *self.long_entry, stats)
        if not s:
            return _new_line(Line, (number, "", None, None, None))
        first = s[0]
        if first in _TIME_FIRST and (s[2:3] == "-" or s[4:5] == "-" or "." in s[:24]):
            # time / Android Studio (the cheap test spares plain table rows two regexes)
            m = _TIME.match(s)
            if m is not None:
                level, tag, pid = m.groups()
                return logcat_line(number, s[m.end() :], (_id(pid), 0), level, tag, stats, "time")
            m = _STUDIO.match(s)
            if m is not None:
                ids, tag, level = m.groups()
                key = self.streams.get(ids) or self.remember(ids)
                return logcat_line(number, s[m.end() :], key, level, tag, stats, "android-studio")
            m = _STUDIO_CLASSIC.match(s)
            if m is not None:
                ids, level, tag = m.groups()
                key = self.streams.get(ids) or self.remember(ids)
                return logcat_line(number, s[m.end() :], key, level, tag, stats, "android-studio")
        elif first in _LEVEL_FIRST and len(s) > 1:
            return _level_first(number, s, stats)
        elif first == "[":
            m = _LONG_HEADER.match(s)
            if m is not None:
                pid, tid, level, tag = m.groups()
                self.long_entry = ((_id(pid), _id(tid)), level, tag)
                stats.logcat_format = stats.logcat_format or "long"
                return None
        elif first == "-" and s.startswith("--------- ") and _DIVIDER.match(s):
            stats.dividers += 1
            return None
        return _new_line(Line, (number, s, None, None, None))


_TIME_FIRST = frozenset("0123456789 \t")
_LEVEL_FIRST = frozenset("VDIWEFS?")


def _level_first(number: int, s: str, stats: ReadStats) -> Line | None:
    """A line starting with a level letter: brief, tag, thread, process, or runtime/toolkit."""
    second = s[1]
    if second == "/":
        m = _BRIEF.match(s)
        if m is not None:
            level, tag, pid = m.groups()
            return logcat_line(number, s[m.end() :], (_id(pid), 0), level, tag, stats, "brief")
        m = _TAG.match(s)
        if m is not None:
            level, tag = m.groups()
            return logcat_line(number, s[m.end() :], None, level, tag, stats, "tag")
    elif second == "(":
        m = _THREAD.match(s)
        if m is not None:
            level, pid, tid = m.groups()
            key = (_id(pid), _id(tid))
            return logcat_line(number, s[m.end() :], key, level, None, stats, "thread")
        m = _PROCESS.match(s)
        if m is not None:
            level, pid, msg, tag = m.groups()
            return logcat_line(number, msg, (_id(pid), 0), level, tag, stats, "process")
    elif second == " ":
        m = _RUNTIME.match(s)
        if m is not None:
            level, tag = m.groups()
            return _new_line(Line, (number, s[m.end() :], None, level, tag))
    return _new_line(Line, (number, s, None, None, None))


def logcat_line(
    number: int,
    msg: str | None,
    key: tuple[int, int] | None,
    level: str,
    tag: str | None,
    stats: ReadStats,
    layout: str | None = None,
) -> Line | None:
    """The Line of one logcat message: a repeated runtime stamp/prefix is stripped, chatty
    lines are recorded and dropped (None)."""
    if layout is not None and stats.logcat_format is None:
        stats.logcat_format = layout
    if not msg:
        msg = ""
    elif msg[0] == "[":
        m = _STAMP.match(msg)
        if m is not None:
            msg = msg[m.end() :]
    elif msg[0] in NESTED_FIRST:
        m = _RUNTIME.match(msg)  # the plain-text grammar: the same log reads the same in logcat
        if m is not None:
            level, tag = m.groups()
            msg = msg[m.end() :]
    if tag == "chatty" and _CHATTY.match(msg):
        stats.add_chatty(number, msg, key[0] if key else None)
        return None
    return _new_line(Line, (number, msg, key, level, tag))
