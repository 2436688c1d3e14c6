"""The methods ``dataclasses`` generates, compiled once per install instead of at every start.

A frozen dataclass costs about 0.5 ms to create, nearly all of it in ``compile``: the
``dataclasses`` module writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` as source text and compiles it. ``analyze`` creates about 50
(the model, the events, the rules' records): a fifth of its CPU on one table.

:func:`install` gives the ``dataclasses`` module an ``exec`` of its own (a module global, which
its functions find before the builtin) that looks the source text up in a cache of code objects
and compiles only the texts it has not seen; when it compiled one, :func:`save` writes the
cache back to :data:`CACHE` (marshal, beside the bytecode, one file per Python version), unless
the process writes no bytecode (``PYTHONDONTWRITEBYTECODE``). The key is the whole text, so
the same text gives the same code, and a class whose text changed is compiled as before: the
classes are the ones ``dataclasses`` makes without the cache. An unreadable or damaged cache
is ignored (and rewritten); a read-only install compiles every time.

The command line installs it when :mod:`rknnprof.cli` is imported, before its commands import
the model, and saves at exit (:func:`rknnprof.cli.commands.main`). It imports nothing of
rknnprof.
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

CACHE = (
    Path(__file__).parent / "__pycache__" / f"dataclasses.{sys.implementation.cache_tag}.marshal"
)
"""Source text -> code object of the generated methods the commands used (one file per Python:
marshal's format and the compiler's output are the interpreter's)."""

MAX_ENTRIES = 2000
"""Texts kept at most (a command uses about 300): past it only the texts this process used are
written, so that texts of classes since changed, or a test session's many dataclasses, do not
grow the file without bound."""

_cache: dict[str, CodeType] = {}
_used: dict[str, CodeType] = {}
_compiled = 0
"""Texts compiled by this process that the cache did not have."""


def _exec(
    source: Any, globals_: dict[str, Any] | None = None, locals_: dict[str, Any] | None = None
) -> None:
    """``exec`` as ``dataclasses`` calls it, with the compiled text looked up first."""
    global _compiled
    if type(source) is str:
        code = _cache.get(source)
        if code is None:
            code = compile(source, "<string>", "exec")
            _cache[source] = code
            _compiled += 1
        _used[source] = code
        source = code
    builtins.exec(source, globals_, locals_)


def install() -> None:
    """Read :data:`CACHE` and route the ``dataclasses`` module's ``exec`` through it (once)."""
    import dataclasses

    if getattr(dataclasses, "exec", None) is _exec:
        return
    try:
        loaded = marshal.loads(CACHE.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        loaded = None
    if isinstance(loaded, dict):
        _cache.update((k, v) for k, v in loaded.items() if type(k) is str and type(v) is CodeType)
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # a module global shadowing the builtin


def save() -> None:
    """Write the cache when this process compiled a text it did not have: every text (those of
    the other commands too), or past :data:`MAX_ENTRIES` the ones this process used."""
    global _compiled
    if not _compiled or sys.dont_write_bytecode:
        return
    _compiled = 0
    kept = _cache if len(_cache) <= MAX_ENTRIES else _used
    if len(kept) > MAX_ENTRIES:
        return
    try:
        CACHE.parent.mkdir(exist_ok=True)
        partial = CACHE.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(marshal.dumps(kept))
        os.replace(partial, CACHE)
    except (OSError, ValueError):  # read-only install
        pass
