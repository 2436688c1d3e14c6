"""One escaping rule per output format, for text that came from a log, a saved report or a
budgets file (layer names, op types, warnings quoting a row, paths).

The input reader already replaces control characters (see :mod:`rknnprof.sanitize`); these
rules are the second line, because saved JSON reports and budgets files do not pass through it,
and because each format has characters of its own that text must never be read as:

=========== ===================================================================================
terminal    :func:`terminal`: control characters (C0, DEL, C1), bidi overrides and zero-width
            characters become visible escapes (``\\x1b``, ``\\u202e``, ``\\u200b``); the
            result goes into ``rich.text.Text``, never into a markup string, so ``[link=…]``
            or ``[/]`` is shown as typed.
HTML        :func:`html` at every interpolation, in text and in attributes: ``html.escape``
            (quotes included) of the text with its control and bidi characters shown as on
            the terminal (tab, LF and CR kept: white space to HTML); the report holds no
            inline JSON and no log text in script.
Markdown    :func:`markdown` (punctuation, ``|``, ``<``, ``&`` backslash-escaped) or
            :func:`markdown_code` (a code span: backticks swapped, pipes escaped).
CSV         :func:`csv_cell`: a text cell starting ``=``, ``+``, ``-``, ``@``, tab or CR gets a
            leading ``'`` (OWASP); numbers are not text cells and stay as they are.
XML         ``xml.etree`` escaping plus :func:`xml_text` (characters XML 1.0 forbids removed);
            JUnit's text is :func:`page_text` first (CI servers show it on a page).
annotations :func:`annotation_data` / :func:`annotation_property` (GitHub workflow commands).
=========== ===================================================================================
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern

if TYPE_CHECKING:
    from rich.text import Text

_ZERO_WIDTH = (
    # the Unicode format characters (general category Cf, Unicode 15)
    r"\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    r"\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    r"\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
    # and the characters that print as nothing without being one: the combining grapheme
    # joiner, Hangul fillers, Khmer inherent vowels, Mongolian and other variation selectors
    r"\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
)
"""Characters that take no room or reorder the text around them (a tag character made two
layer names print alike): escaped wherever log text is shown, CSV cells included."""
_INVISIBLE = LazyPattern(r"[\x00-\x1f\x7f-\x9f\u2028\u2029" + _ZERO_WIDTH + "]")
"""Characters that move the cursor, change the terminal's state, reorder the text around them
or take no room: C0 (tab and newline included: a cell or message is one line), DEL, C1, the
Unicode line and paragraph separators (``str.splitlines`` breaks at them), the bidi controls,
and the zero-width ones (two layer names that differ by a U+200B looked the
same)."""
_PAGE_INVISIBLE = LazyPattern(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029" + _ZERO_WIDTH + "]"
)
"""What a page must not take as it is: :data:`_INVISIBLE` but tab, LF and CR."""
_MARKDOWN_SPECIAL = LazyPattern(r"([\\`*_\[\]<>|&~])")
_XML_FORBIDDEN = r"[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
"""Compiled on first use (``re``'s cache), not at import: a class spanning the whole of Unicode
takes about 3 ms to compile, which every command paid, ``--help`` included."""
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
MAX_MESSAGE_CHARS = 2000
"""Longest ``Error:`` / ``Warning:`` message printed; the rest is cut with ``…``."""


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def terminal(text: object) -> str:
    """``text`` with every control and bidi character shown as an escape (``\\x1b``)."""
    s = str(text)
    return _INVISIBLE.sub(_visible, s) if _INVISIBLE.search(s) else s


def terminal_text(text: object, style: str = "") -> Text:
    """A rich :class:`Text` of :func:`terminal` (never parsed as markup)."""
    from rich.text import Text

    return Text(terminal(text), style=style)


def page_text(text: object) -> str:
    """``text`` for a page a person reads (HTML, a CI server's test report): every control and
    bidi character but tab, LF and CR shown as an escape (``\\u202e``). A bidi override would
    otherwise reorder the text around it."""
    s = str(text)
    return _PAGE_INVISIBLE.sub(_visible, s) if _PAGE_INVISIBLE.search(s) else s


def html(text: object) -> str:
    """``text`` for an HTML page, in text or in an attribute: :func:`page_text`, then
    ``html.escape`` (quotes included)."""
    from html import escape  # (html.entities' table: only for the pages)

    return escape(page_text(text))


def message_line(text: object) -> str:
    """An ``Error:`` / ``Warning:`` line's text: :func:`terminal`, cut to
    :data:`MAX_MESSAGE_CHARS`."""
    s = terminal(text)
    return s if len(s) <= MAX_MESSAGE_CHARS else s[: MAX_MESSAGE_CHARS - 1] + "…"


def markdown(text: object) -> str:
    """Backslash-escape Markdown punctuation, pipes and ``<``/``&``; newlines become spaces."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", one_line(str(text)))


def markdown_code(text: str) -> str:
    """An inline code span safe inside a table cell (pipes escaped, backticks swapped)."""
    if not text:
        return ""
    return "`" + one_line(text).replace("`", "'").replace("|", "\\|") + "`"


def one_line(text: str) -> str:
    """``text`` on one line: CR and LF become spaces, other controls and invisible characters
    escapes (``\\u200b``: dropped, two names differing by one printed alike)."""
    s = text.replace("\r", " ").replace("\n", " ")
    return _INVISIBLE.sub(_visible, s) if _INVISIBLE.search(s) else s


def csv_cell(value: object) -> object:
    """A text cell with its control and bidi characters shown as escapes (:func:`page_text`:
    an ESC from a path or a log reaches no terminal a CSV is printed on, colour or not), and a
    leading ``'`` when a spreadsheet would read it as a formula; anything else (numbers, empty
    cells) is returned unchanged."""
    if not isinstance(value, str):
        return value
    value = page_text(value)
    return "'" + value if value.startswith(_FORMULA_START) else value


def xml_text(text: object) -> str:
    """``text`` without the characters XML 1.0 forbids (``xml.etree`` escapes the rest)."""
    s = str(text)
    return re.sub(_XML_FORBIDDEN, "", s) if re.search(_XML_FORBIDDEN, s) else s


def annotation_data(text: str) -> str:
    """A GitHub workflow command's message: ``%``, CR and LF escaped, other controls dropped."""
    s = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return _INVISIBLE.sub("", s) if _INVISIBLE.search(s) else s


def annotation_property(text: str) -> str:
    """A workflow command's property value: as :func:`annotation_data`, plus ``:`` and ``,``."""
    return annotation_data(text).replace(":", "%3A").replace(",", "%2C")
