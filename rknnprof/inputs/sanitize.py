"""The sanitising boundary: the one place where log text is made safe before any parser, the
model or a message sees it.

Every decoded read of the input passes through :func:`clean` (called by
:mod:`~rknnprof.inputs.lines`, before the text is split into lines):

* escape sequences are **removed**: CSI (colours, cursor moves), OSC (titles, ``ESC ] 8``
  hyperlinks) ended by BEL or ST, every other ``ESC`` sequence (``ESC c`` reset, ``ESC ( 0``
  line drawing, ``ESC # 8`` screen fill: intermediates 0x20-0x2F then one final byte), and the
  8-bit CSI (U+009B) and OSC (U+009D) forms;
* form feeds (PDF extraction) and NULs are removed;
* every other control character (C0 but tab and newline, DEL, C1, a lone ESC) and the Unicode
  line and paragraph separators (U+2028, U+2029) become U+FFFD, the same visible mark as an
  undecodable byte, one character for one, so columns stay put.

Length is capped by the reader (``MAX_LINE_CHARS`` per line). Text that does not come through
here (saved JSON reports, budgets files) is escaped again by each output format
(:mod:`rknnprof.reporters._escape`).

Speed: a read without any control character (almost every read) costs one ``in`` test per
control character, about 20 us per 64 KB read (a line read alone: one search); only a read
that has one goes through the substitutions.
"""

from __future__ import annotations

from rknnprof.inputs.lazy_re import LazyPattern

_ESCAPES = LazyPattern(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves
    r"|\x1b\][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)"  # OSC: titles, hyperlinks
    r"|\x1b[ -/]*[0-~]"  # every other escape: ESC c, ESC ( 0, ESC # 8, ESC 7 ...
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|\x9d[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)"  # 8-bit OSC
)
_REMOVED = LazyPattern(r"[\x00\x0c]")
_CONTROL = LazyPattern(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
REPLACEMENT = "\ufffd"
_ASCII_CONTROLS = tuple(chr(c) for c in (*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F))
_C1_CONTROLS = (*(chr(c) for c in range(0x80, 0xA0)), "\u2028", "\u2029")
"""C1, and the Unicode line and paragraph separators: ``str.splitlines`` breaks a line at
them (and at NEL, U+0085), so a log's text could start a line of its own in a report (a GitHub
workflow command at column 0)."""


SHORT = 512
"""Texts shorter than this are searched with one regular expression (about 2 ns a character)
rather than one ``in`` test per control character (about 1 us whatever the length)."""


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character :func:`clean` would change (tab and newline do not
    count)."""
    if len(text) < SHORT:
        return _CONTROL.search(text) is not None
    if any(map(text.__contains__, _ASCII_CONTROLS)):
        return True
    return not text.isascii() and any(map(text.__contains__, _C1_CONTROLS))


def clean(text: str) -> str:
    """``text`` with escape sequences, form feeds and NULs removed and every other control
    character replaced by U+FFFD (tab and newline kept)."""
    if not has_control(text):
        return text
    if "\x1b" in text or "\x9b" in text or "\x9d" in text:
        text = _ESCAPES.sub("", text)
    text = _REMOVED.sub("", text)
    return _CONTROL.sub(REPLACEMENT, text)
