"""A click usage error in rknnprof's own one-line style (``--top: 0 is not in the range x>=1``)."""

from __future__ import annotations

import os

import click

from rknnprof.inputs.lazy_re import LazyPattern


def usage_text(e: click.UsageError) -> str:
    """A usage error in rknnprof's own style, ``<what>: <why>`` in lower case without a closing
    full stop, as every other ``Error:`` line (``--top: 0 is not in the range x>=1``), never
    click's ``Invalid value for '--top': 0 is not in the range x>=1.``."""
    text = e.format_message()
    if isinstance(e, click.BadParameter) and not isinstance(e, click.MissingParameter):
        given = e.param_hint
        hint = " / ".join(given) if given is not None and not isinstance(given, str) else given
        if hint is None and e.param is not None and e.ctx is not None:
            hint = e.param.get_error_hint(e.ctx)
        if isinstance(e.param, click.Argument):  # a path argument: its message names the file
            hint = None
        message = _lower_first(e.message.rstrip().removesuffix("."))
        text = f"{hint.replace(chr(39), '')}: {message}" if hint else message
    text = text.rstrip().removesuffix(".").replace(". (Did you mean", " (did you mean")
    return _lower_first(_folder(_dangling_link(text)))


_MISSING = LazyPattern(r"^([Ff]ile) '(.+)' does not exist$")


def _dangling_link(text: str) -> str:
    """``file 'x' does not exist`` for a symbolic link that is there but leads nowhere (a
    loop, a target gone): said so, it is no typo."""
    m = _MISSING.match(text)
    if m is None or not os.path.islink(m.group(2)):
        return text
    return (
        f"{m.group(1)} '{m.group(2)}' is a symbolic link to nothing (a loop, or its target is gone)"
    )


def _lower_first(text: str) -> str:
    """``File 'x' does not exist`` -> ``file 'x' does not exist``; ``RKN010 …`` and ``FP16 …``
    stay as they are."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


_FOLDER = LazyPattern(r"^([Ff]ile) '(.+)' is a directory$")


def _folder(text: str) -> str:
    """``file 'logs/' is a directory``, with how to give its logs."""
    m = _FOLDER.match(text)
    if m is None:
        return text
    folder = m.group(2).rstrip("/")
    return f"{text}: give the logs in it ({folder}/*.txt)"
