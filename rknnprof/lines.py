"""Bytes in, clean message lines out.

``read_lines`` reads a binary stream *incrementally* (a file, stdin, or a live ``adb logcat``
pipe: each line is yielded as soon as its newline arrives) and yields one :class:`Line` per
physical line, with the transport prefix removed and its facts (pid/tid, level, tag) kept.

What it does, in order:

* **Encoding** is sniffed from the first bytes: UTF-8 BOM, UTF-16 LE/BE BOM (Windows
  PowerShell ``>``), UTF-16 without BOM when NUL bytes sit on every other byte; else UTF-8.
  Invalid bytes become U+FFFD, never an exception. NUL characters are dropped.
* **Line ends**: ``\\n``, ``\\r\\n``, ``\\r\\r\\n`` (adb PTY) and a lone ``\\r`` each end one
  line (a run of ``\\r`` with an optional ``\\n`` is one separator). ``str.splitlines`` is never
  used. A last line without a newline is yielded at EOF.
* **Clean-up**: form feeds (0x0C, PDF extraction) and ANSI escape sequences (CSI, OSC, lone
  ESC + char, C1 CSI) are removed; then **trailing whitespace is stripped** (``rstrip``) from
  every line. Leading whitespace is kept: table parsers rely on nothing either way.
* **Length cap**: a line longer than :data:`MAX_LINE_CHARS` characters keeps its first
  ``MAX_LINE_CHARS`` characters; the rest up to the next newline is read and discarded, so memory
  stays bounded (about one read chunk plus the cap) whatever the input.
* **Prefixes stripped** (anchored at the start of the line only; pasted prefixes such as
  `` |  ``, ``---> `` or markdown indentation are left for the table parsers):

  - ``adb logcat -v`` threadtime, time, brief, tag, thread, process, long and raw, with the
    year / usec / nsec / epoch / monotonic / uid / zone modifiers, collapsed whitespace, padded
    or long tags, and Android Studio's ``date time pid-tid tag package P msg`` copies.
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
    ``L RKNN: [hh:mm:ss.mmm] `` prefix is stripped as well.

* **Dropped lines** (no Line is yielded; they still count in line numbers and in
  :class:`ReadStats`): logcat dividers ``--------- beginning of main`` / ``switch to``, and
  logd ``chatty`` lines (``uid=1000(system) app identical 12 lines``). Chatty lines are dropped
  so a table is not cut in two by them; ``ReadStats.chatty`` keeps them so callers can warn that
  rows were squashed. A table's own dash rules (``-----...``) are not dividers and pass through.

Lines without a recognised prefix have ``stream``, ``level`` and ``tag`` None (``-v thread``
gives no tag). ``Line.number`` counts every physical line, dropped ones included. A ``\r`` that
ends a read is held until the next read (it may be half of ``\r\n``), so on a live pipe a line
ended by a lone ``\r`` waits for the next byte.

Speed: threadtime lines (logcat's default) are matched a whole read at a time with one
``findall``, and ``D RKNN: [..]`` lines by a literal test before one small regex; other layouts
are tried per line after a first-character dispatch.
"""

from __future__ import annotations

import codecs
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, NamedTuple

from rknnprof.errors import InputError

MAX_LINE_CHARS = 65536
"""Longest line kept, in characters; the excess of a longer line is discarded."""
CHUNK_BYTES = MAX_LINE_CHARS - 4
"""Largest read, in bytes. On a pipe a read returns what is available, so lines are not delayed.
Kept below the cap so that only the line straddling two reads can exceed it."""
KEEP_EXAMPLES = 100
"""How many truncated-line numbers / chatty lines ReadStats remembers (counts are exact)."""


class Line(NamedTuple):
    number: int
    """1-based physical line number in the input (``\\n``, ``\\r\\n`` or a lone ``\\r`` end one)."""
    text: str
    """The message: logcat / runtime prefixes stripped, trailing whitespace and newline removed."""
    stream: tuple[int, int] | None = None
    """logcat (pid, tid) when the prefix gives them; (pid, 0) when it gives only a pid."""
    level: str | None = None
    """Log level letter (V/D/I/W/E/F, ``?`` for unknown) when a prefix gives one."""
    tag: str | None = None
    """logcat tag or runtime component (``RKNN``, ``RKNNAPI``, ``eval_perf``) from a prefix."""


@dataclass
class ReadStats:
    """What :func:`read_lines` saw besides the lines (filled while iterating)."""

    encoding: str = "utf-8"
    """Codec used: ``utf-8``, ``utf-16-le`` or ``utf-16-be``."""
    bom: bool = False
    lines: int = 0
    """Physical lines read (including dropped ones)."""
    logcat_format: str | None = None
    """First ``adb logcat -v`` layout recognised (``threadtime``, ``brief``, ``long``...)."""
    dividers: int = 0
    truncated_count: int = 0
    truncated: list[int] = field(default_factory=list)
    """Line numbers of over-long lines that were cut (first KEEP_EXAMPLES)."""
    chatty_count: int = 0
    chatty: list[tuple[int, str]] = field(default_factory=list)
    """(line number, message) of dropped logd ``chatty`` lines (first KEEP_EXAMPLES)."""
    last_line: int = 0
    """``Line.number`` of the last Line yielded (0: none); set when reading ends or the reader
    is closed (``close()`` after an interruption)."""


def open_input(path: str) -> BinaryIO:
    """Open ``path`` for :func:`read_lines`; ``"-"`` is standard input (binary)."""
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=path) from None


# --- prefix grammar (ECOSYSTEM.md 1.2 / 1.8 / 2.1) -------------------------------------------
# Possessive quantifiers (``++``, ``{m,n}+``) wherever what follows cannot start with what
# they repeat (a blank after digits, a digit after blanks): giving characters back could never
# lead to a match, so they only spare the engine its backtracking bookkeeping (about a fifth of
# the threadtime regex's time). Every use of _TS is followed by a blank.
_TS = (
    r"(?:(?:\d{4}-)?\d\d-\d\d\s++\d\d:\d\d:\d\d\.\d{3,9}+|\d++\.\d{3,9}+)(?:\s++[+-]\d{4})?"
)
_PRI = r"([VDIWEFS?])"
_UIDP = r"\(\s*(?:[^:()]+:)?\s*"  # "(" + optional "uid:" of the brief/time/thread/process forms
_END = r"(?: |$)"  # exactly one blank eaten: the message (the rest) keeps its leading spaces

# threadtime (the default layout), matched over a whole chunk at once (re.M; blanks are
# [ \t] so that no match crosses a line end): one tuple per line, optional prefix.
# groups: ids ("pid tid", "" when the line is not threadtime), level, tag, msg or whole line
_H = r"[ \t]"
_THREADTIME_CHUNK = re.compile(
    r"^(?:" + _H + "*+" + _TS.replace(r"\s", _H) + _H + r"++(?:\S+" + _H + r"+)??(\d++" + _H
    + r"++\d++)" + _H + r"++" + _PRI + r"[ \t](.*?)" + _H + r"*:" + _END + r")?(.*)$",
    re.M,
)
# The per-line layouts match the prefix only; the message is the rest of the line.
# groups: level, tag, pid
_TIME = re.compile(r"\s*" + _TS + r"\s+" + _PRI + r"/(.*?)\s*" + _UIDP + r"(\d+)\):" + _END)
_BRIEF = re.compile(_PRI + r"/(.*?)\s*" + _UIDP + r"(\d+)\):" + _END)
# groups: level, tag
_TAG = re.compile(_PRI + r"/(.*?)\s*:" + _END)
# groups: level, pid, tid
_THREAD = re.compile(_PRI + _UIDP + r"(\d+):\s*(\d+)\)" + _END)
# the tag comes last; groups: level, pid, msg, tag
_PROCESS = re.compile(_PRI + _UIDP + r"(\d+)\) (.*)  \((.*)\)$")
# groups: pid, tid, level, tag
_LONG_HEADER = re.compile(
    r"\[ " + _TS + r"\s+(?:\S+?:?\s+)??(\d+):\s*(\d+)\s+" + _PRI + r"/(.*?)\s*\]$"
)
# Android Studio copy "date time  pid-tid  tag  package  P  msg"; groups: ids, tag, level
_STUDIO = re.compile(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+(\d+-\d+)\s+(\S+)\s+(?:\S+\s+)??"
    r"([VDIWEFA])(?:\s\s?|$)"
)
# runtime / toolkit "L name: [hh:mm:ss.mmm] " (stamp optional, name one token); groups: level, tag
_RUNTIME = re.compile(
    r"([VDIWEF]) ([A-Za-z_][\w.-]*)(?:\(\d+\))?:" + _END + r"(?:\[\d\d:\d\d:\d\d(?:\.\d{1,9})?\]"
    + _END + ")?"
)
_RKNN_STAMPED = re.compile(r"[VDIWEF] RKNN: \[\d\d:\d\d:\d\d(?:\.\d{1,9})?\]" + _END)
# the same with the stamp required (used inside logcat messages)
_RUNTIME_STAMPED = re.compile(
    r"([VDIWEF]) ([A-Za-z_][\w.-]*)(?:\(\d+\))?: \[\d\d:\d\d:\d\d(?:\.\d{1,9})?\]" + _END
)
_STAMP = re.compile(r"\[\d\d:\d\d:\d\d(?:\.\d{1,9})?\](?: |$)")
_DIVIDER = re.compile(r"-{9} (?:beginning of|switch to) \w+$")
_CHATTY = re.compile(r"uid=\d+.* (?:identical|expire) \d+ lines?$")
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves
    r"|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)"  # OSC: titles, hyperlinks
    r"|\x1b[@-Z\\-_]"  # other two-byte escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_SEPARATORS = re.compile(r"\r+\n?")
_END_OF_LINE = re.compile(r"[\r\n]")
_new_line = tuple.__new__  # Line(...) without the generated __new__'s Python frame
_NESTED_FIRST = frozenset("[VDIWEF")


def read_lines(stream: BinaryIO, stats: ReadStats | None = None) -> Iterator[Line]:
    """Yield clean :class:`Line` records from a binary stream, incrementally (see the module
    docstring for what is stripped, dropped and kept). ``stats``, when given, is filled while
    iterating: encoding, logcat layout, truncated and chatty lines.

    A paste wrapped in single back-ticks (sample 40) loses the opening one here, so a table
    header on the first line still reads as a header; the closing one is left to the parsers
    (it would need a line of look-ahead)."""
    lines = _read_lines(stream, stats)
    first = next(lines, None)
    if first is None:
        return
    if first.text.startswith("`") and not first.text.startswith("``"):
        first = first._replace(text=first.text[1:])
    yield first
    yield from lines


def _read_lines(stream: BinaryIO, stats: ReadStats | None) -> Iterator[Line]:
    if stats is None:
        stats = ReadStats()
    read = getattr(stream, "read1", None) or stream.read
    other = _OtherLayouts(stats)
    streams = other.streams
    number = 0
    dropped, dropped_from = -1, 0  # the last run of dropped lines, for stats.last_line
    try:
        for body in _bodies(read, stats):
            for ids, level, tag, msg in _THREADTIME_CHUNK.findall(body):
                number += 1
                if ids:  # threadtime: the hot path
                    key = streams.get(ids)
                    if key is None:
                        key = other.remember(ids)
                        stats.logcat_format = stats.logcat_format or "threadtime"
                    msg = msg.rstrip()
                    if msg and msg[0] in _NESTED_FIRST or tag == "chatty":
                        line = _logcat(number, msg, key, level, tag, stats)
                        if line is not None:
                            yield line
                        else:
                            dropped_from = dropped_from if dropped == number - 1 else number
                            dropped = number
                    else:
                        yield _new_line(Line, (number, msg, key, level, tag))
                else:
                    s = msg.rstrip()
                    if (
                        s.startswith("RKNN: [", 2)
                        and other.long_entry is None
                        and (m := _RKNN_STAMPED.match(s)) is not None
                    ):
                        # the runtime's own "D RKNN: [hh:mm:ss.mmm] " (RKNN_LOG_LEVEL=4): hot too
                        yield _new_line(Line, (number, s[m.end() :], None, s[0], "RKNN"))
                        continue
                    line = other.line(number, s)
                    if line is not None:
                        yield line
                    else:
                        dropped_from = dropped_from if dropped == number - 1 else number
                        dropped = number
        stats.lines = number
    finally:
        # suspended at a yield (closed early), the last line was yielded; else lines after the
        # last yielded one may have been dropped
        stats.last_line = dropped_from - 1 if dropped == number else number


class _OtherLayouts:
    """Every layout but threadtime, one line at a time; keeps the ``-v long`` entry state."""

    def __init__(self, stats: ReadStats) -> None:
        self.stats = stats
        self.streams: dict[str, tuple[int, int]] = {}  # "pid tid" text -> shared tuple
        self.long_entry: tuple | None = None  # (stream, level, tag) of an open long entry

    def remember(self, ids: str) -> tuple[int, int]:
        """The (pid, tid) of a ``"pid tid"`` / ``"pid-tid"`` text, cached (bounded)."""
        if len(self.streams) > 4096:
            self.streams.clear()
        pid, tid = ids.replace("-", " ").split()
        key = self.streams[ids] = (int(pid), int(tid))
        return key

    def line(self, number: int, s: str) -> Line | None:
        stats = self.stats
        if self.long_entry is not None:
            if not s:
                self.long_entry = None  # the blank line that ends a long entry
                return None
            if s[0] != "[" or _LONG_HEADER.match(s) is None:
                return _logcat(number, s, *self.long_entry, stats)
        if not s:
            return _new_line(Line, (number, "", None, None, None))
        first = s[0]
        if first in _TIME_FIRST and (s[2:3] == "-" or s[4:5] == "-" or "." in s[:24]):
            # time / Android Studio (the cheap test spares plain table rows two regexes)
            m = _TIME.match(s)
            if m is not None:
                level, tag, pid = m.groups()
                return _logcat(number, s[m.end() :], (int(pid), 0), level, tag, stats, "time")
            m = _STUDIO.match(s)
            if m is not None:
                ids, tag, level = m.groups()
                key = self.streams.get(ids) or self.remember(ids)
                return _logcat(number, s[m.end() :], key, level, tag, stats, "android-studio")
        elif first in _LEVEL_FIRST and len(s) > 1:
            return _level_first(number, s, stats)
        elif first == "[":
            m = _LONG_HEADER.match(s)
            if m is not None:
                pid, tid, level, tag = m.groups()
                self.long_entry = ((int(pid), int(tid)), level, tag)
                stats.logcat_format = stats.logcat_format or "long"
                return None
        elif first == "-" and s.startswith("--------- ") and _DIVIDER.match(s):
            stats.dividers += 1
            return None
        return _new_line(Line, (number, s, None, None, None))


_TIME_FIRST = frozenset("0123456789 \t")
_LEVEL_FIRST = frozenset("VDIWEFS?")


def _level_first(number: int, s: str, stats: ReadStats) -> Line:
    """A line starting with a level letter: brief, tag, thread, process, or runtime/toolkit."""
    second = s[1]
    if second == "/":
        m = _BRIEF.match(s)
        if m is not None:
            level, tag, pid = m.groups()
            return _logcat(number, s[m.end() :], (int(pid), 0), level, tag, stats, "brief")
        m = _TAG.match(s)
        if m is not None:
            level, tag = m.groups()
            return _logcat(number, s[m.end() :], None, level, tag, stats, "tag")
    elif second == "(":
        m = _THREAD.match(s)
        if m is not None:
            level, pid, tid = m.groups()
            key = (int(pid), int(tid))
            return _logcat(number, s[m.end() :], key, level, None, stats, "thread")
        m = _PROCESS.match(s)
        if m is not None:
            level, pid, msg, tag = m.groups()
            return _logcat(number, msg, (int(pid), 0), level, tag, stats, "process")
    elif second == " ":
        m = _RUNTIME.match(s)
        if m is not None:
            level, tag = m.groups()
            return _new_line(Line, (number, s[m.end() :], None, level, tag))
    return _new_line(Line, (number, s, None, None, None))


def _logcat(
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
    elif msg[0] in _NESTED_FIRST:
        m = _RUNTIME_STAMPED.match(msg)
        if m is not None:
            level, tag = m.groups()
            msg = msg[m.end() :]
    if tag == "chatty" and _CHATTY.match(msg):
        stats.chatty_count += 1
        if len(stats.chatty) < KEEP_EXAMPLES:
            stats.chatty.append((number, msg))
        return None
    return _new_line(Line, (number, msg, key, level, tag))


def _bodies(read: Callable[[int], bytes], stats: ReadStats) -> Iterator[str]:
    """Decode and split the input; yield, per read, the text of the lines it completed, joined
    by ``\n`` (separators normalised; form feeds, NULs and ANSI escapes removed; over-long lines
    cut). A body of n newlines holds n + 1 lines."""
    head = _read_head(read)
    encoding, bom = _sniff(head)
    stats.encoding, stats.bom = encoding, bom > 0
    decode = codecs.getincrementaldecoder(encoding)(errors="replace").decode
    data = head[bom:] if bom else head
    final = not head  # end of input (data may be empty before it, e.g. after a lone BOM)
    carry = ""  # the incomplete last line (at most MAX_LINE_CHARS + held CRs)
    discarding = False  # carry is the kept head of an over-long line; drop text until its end
    done = 0  # lines yielded so far (for line numbers in stats)
    while True:
        text = decode(data, final)
        if discarding:
            m = _END_OF_LINE.search(text)
            if m is not None:
                text = carry + text[m.start() :]
                discarding = False
            elif final:
                text = carry
            else:
                data = read(CHUNK_BYTES)
                final = not data
                continue
        elif carry:
            text = carry + text
        hold = ""
        if "\r" in text:
            if not final and text[-1] == "\r":  # may be the first half of "\r\n"
                kept = text.rstrip("\r")
                hold, text = text[len(kept) :], kept
            text = _SEPARATORS.sub("\n", text)
        if final:
            if not text:
                return
            body, carry = (text[:-1] if text[-1] == "\n" else text), ""
        else:
            cut = text.rfind("\n")
            body, carry = (None, text) if cut < 0 else (text[:cut], text[cut + 1 :])
            if len(carry) > MAX_LINE_CHARS:  # an over-long line still open
                complete = 0 if body is None else body.count("\n") + 1
                _truncated(stats, done + complete + 1)
                carry = carry[:MAX_LINE_CHARS]
                discarding = not hold  # a held CR already ended the line
            carry += hold
        if body is not None:
            first_end = body.find("\n")
            if first_end > MAX_LINE_CHARS or first_end < 0 and len(body) > MAX_LINE_CHARS:
                # only the line begun in an earlier read can be too long (CHUNK_BYTES < cap)
                _truncated(stats, done + 1)
                body = body[:MAX_LINE_CHARS] + (body[first_end:] if first_end >= 0 else "")
            if "\x1b" in body or "\x9b" in body:
                body = _ANSI.sub("", body)
            if "\x0c" in body:
                body = body.replace("\x0c", "")
            if "\x00" in body:
                body = body.replace("\x00", "")
            done += body.count("\n") + 1
            yield body
        if final:
            return
        data = read(CHUNK_BYTES)
        final = not data


def _truncated(stats: ReadStats, number: int) -> None:
    stats.truncated_count += 1
    if len(stats.truncated) < KEEP_EXAMPLES:
        stats.truncated.append(number)


def _read_head(read: Callable[[int], bytes]) -> bytes:
    """The first read, extended only while it is too short to tell the encoding."""
    head = b""
    while True:
        chunk = read(CHUNK_BYTES)
        if not chunk:
            return head
        head += chunk
        if len(head) < 3 and (codecs.BOM_UTF8.startswith(head) or head in (b"\xff", b"\xfe")):
            continue
        if len(head) < 32 and b"\x00" in head:
            continue
        return head


def _sniff(head: bytes) -> tuple[str, int]:
    """(codec, BOM length in bytes) from the first bytes of the input."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8", 3
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le", 2
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be", 2
    sample = head[:512]
    pairs = len(sample) // 2
    if pairs >= 2 and b"\x00" in sample:
        even = sample[0 : 2 * pairs : 2].count(0)
        odd = sample[1 : 2 * pairs : 2].count(0)
        if odd * 10 >= pairs * 6 and even * 10 <= pairs:
            return "utf-16-le", 0
        if even * 10 >= pairs * 6 and odd * 10 <= pairs:
            return "utf-16-be", 0
    return "utf-8", 0
