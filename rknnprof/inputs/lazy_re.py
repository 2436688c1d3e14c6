"""Regular expressions compiled the first time they are used.

A pattern compiled at import costs its compilation at every start, whether the log needs it or
not (a failure line, an LLM run, a logcat prefix, a Markdown escape). ``LazyPattern(source,
flags)`` stands for ``re.compile(source, flags)`` and compiles it when one of its methods is
first looked up; from then on its methods *are* the compiled pattern's (bound methods kept in
the object's slots), so a use costs what a use of the compiled pattern costs, in a per-line loop
too. Patterns every run uses stay ``re.compile``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, AnyStr, Generic

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyPattern(Generic[AnyStr]):
    """``re.compile(pattern, flags)``, done on first use (see the module doc)."""

    __slots__ = ("flags", "pattern", *_METHODS)

    pattern: AnyStr
    flags: int
    search: Callable[..., re.Match[AnyStr] | None]
    match: Callable[..., re.Match[AnyStr] | None]
    fullmatch: Callable[..., re.Match[AnyStr] | None]
    finditer: Callable[..., Iterator[re.Match[AnyStr]]]
    findall: Callable[..., list[Any]]
    sub: Callable[..., AnyStr]
    subn: Callable[..., tuple[AnyStr, int]]
    split: Callable[..., list[AnyStr | Any]]

    def __init__(self, pattern: AnyStr, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        """Reached only for a method slot not set yet: compile, keep the compiled pattern's
        methods in the slots."""
        if name not in _METHODS:
            raise AttributeError(name)  # (a programming error, never a user's)
        compiled = re.compile(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self.flags})"
