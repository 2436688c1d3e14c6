"""Regular expressions compiled the first time they are used.

A pattern a module needs only for some logs (a failure line, an LLM run, a version banner) costs
its compilation at every start when it is compiled at import; ``LazyPattern`` compiles it at its
first ``search``/``match``/``sub`` and keeps it. Use it where a cheap literal test (``"x" in
text``) gates the pattern, so that most runs never compile it; keep ``re.compile`` for patterns
every run uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


class LazyPattern:
    """``re.compile(source, flags)``, done on first use."""

    __slots__ = ("_compiled", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled.match(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)

    def sub(self, repl: str, text: str, count: int = 0) -> str:
        return self.compiled.sub(repl, text, count=count)

    def __repr__(self) -> str:
        return f"LazyPattern({self.source!r}, {self.flags})"
