"""The reporter contract: render a finished :class:`~rknnprof.model.Report` to a text stream.

Reporters only read the report: no analysis, no parsing, no printing outside ``out``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TextIO

if TYPE_CHECKING:
    from rknnprof.model import Report


@dataclass(frozen=True)
class RenderOptions:
    top: int = 15
    """How many layers the top-layers list shows."""
    color: bool = False
    """Colour and styles (terminal reporters only)."""
    width: int | None = None
    """Terminal width in columns; None = detect (80 when not a terminal)."""


class Reporter(ABC):
    name: ClassVar[str]
    """Name for ``--format`` (its suffixes and description are in
    :mod:`rknnprof.reporters.registry`, so choosing a format imports no reporter)."""

    @abstractmethod
    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        """Write the whole report to ``out``."""
