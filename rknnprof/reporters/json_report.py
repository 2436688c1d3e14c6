"""``--format json``: the JSON contract (``docs/json.md``), written by :mod:`rknnprof.schema`.

The text is :func:`indented`: the bytes of ``json.dumps(value, indent=2, ensure_ascii=False,
allow_nan=False)``, written by one recursive function instead of the standard library's
generators (with an indent, ``json`` does not use its C encoder; the saving is in
benchmarks/README.md).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from rknnprof.reporters.base import RenderOptions, Reporter
from rknnprof.schema import report_to_dict

if TYPE_CHECKING:
    from rknnprof.model import Report


class JsonReporter(Reporter):
    name: ClassVar[str] = "json"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        # one write of the whole text: json.dump writes each of its tens of thousands of pieces
        # on its own (the same bytes)
        out.write(indented(report_to_dict(report)))
        out.write("\n")


def indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)``. Plain data (dicts
    with ``str`` keys, lists, tuples, ``str``, ``int``, finite ``float``, ``bool``, ``None``, of
    exactly these types) is written here; anything else is left to ``json.dumps`` whole, so the
    text and the errors (``ValueError`` for a NaN) are always the standard library's."""
    parts: list[str] = []
    try:
        _write(value, "\n", parts)
    except _NotPlain:
        return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    return "".join(parts)


class _NotPlain(Exception):
    """A value :func:`_write` leaves to ``json``."""


def _write(o: Any, indent: str, parts: list[str]) -> None:
    """Append the text of ``o`` to ``parts``; ``indent`` is a newline plus the indentation of
    the line ``o`` starts on."""
    t = type(o)
    if t is str:
        parts.append(encode_basestring(o))
    elif t is dict:
        _write_dict(o, indent, parts)
    elif t is int:
        parts.append(int.__repr__(o))
    elif t is float and o - o == 0.0:  # not NaN, not an infinity
        parts.append(float.__repr__(o))
    elif o is None:
        parts.append("null")
    elif o is True:
        parts.append("true")
    elif o is False:
        parts.append("false")
    elif t is list or t is tuple:
        _write_list(o, indent, parts)
    else:
        raise _NotPlain


def _write_dict(o: dict[str, Any], indent: str, parts: list[str]) -> None:
    if not o:
        parts.append("{}")
        return
    inner = indent + "  "
    separator = "{" + inner
    for key, value in o.items():
        if type(key) is not str:
            raise _NotPlain
        parts.append(separator)
        parts.append(encode_basestring(key))
        parts.append(": ")
        _write(value, inner, parts)
        separator = "," + inner
    parts.append(indent + "}")


def _write_list(o: list[Any] | tuple[Any, ...], indent: str, parts: list[str]) -> None:
    if not o:
        parts.append("[]")
        return
    inner = indent + "  "
    numbers = _numbers(o)
    if numbers is not None:  # one piece for the list (a long capture's frame times)
        parts.append("[" + inner + ("," + inner).join(numbers) + indent + "]")
        return
    separator = "[" + inner
    for value in o:
        parts.append(separator)
        _write(value, inner, parts)
        separator = "," + inner
    parts.append(indent + "]")


def _numbers(o: list[Any] | tuple[Any, ...]) -> list[str] | None:
    """The texts of ``o`` when every item is an ``int`` or a finite ``float`` (not a bool), else
    None."""
    texts = []
    for value in o:
        t = type(value)
        if t is int:
            texts.append(int.__repr__(value))
        elif t is float and value - value == 0.0:
            texts.append(float.__repr__(value))
        else:
            return None
    return texts
