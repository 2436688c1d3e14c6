"""The reporter contract: render a finished :class:`~rknnprof.model.Report` to a text stream.

Reporters only read the report: no analysis, no parsing, no printing outside ``out``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar, TextIO

from rknnprof.model import Severity
from rknnprof.model.record import Record, record

if TYPE_CHECKING:
    from rknnprof.model import Report


MIN_WIDTH = 40
"""The narrowest a terminal report is drawn, columns: ``COLUMNS=1`` printed one character a
line; narrower terminals wrap its 40-column lines instead."""


def console_width(width: int | None) -> int | None:
    """The width to draw a terminal report at: ``width`` (or what ``COLUMNS`` and the
    terminal say, when None) but at least :data:`MIN_WIDTH`; None leaves it to rich."""
    import shutil

    detected = width if width is not None else shutil.get_terminal_size((80, 24)).columns
    return MIN_WIDTH if detected < MIN_WIDTH else width


@record(slots=False)
class RenderOptions(Record):
    """How a report is drawn: what the command line asked for, and the terminal's size."""

    top: int = 15
    """How many layers the top-layers list shows."""
    color: bool = False
    """Colour and styles (terminal reporters only)."""
    width: int | None = None
    """Terminal width in columns; None = detect (80 when not a terminal)."""
    fail_on: str = "never"
    """``analyze --fail-on``: the lowest finding severity that fails the run (``info``,
    ``warning``, ``error``) or ``never``; the JUnit report marks exactly those findings as
    failures, so it agrees with the exit code (:func:`fails`)."""
    fail_on_inconclusive: bool = False
    """``check --fail-on-inconclusive``: inconclusive budgets fail the run (and are JUnit
    failures)."""
    metric: str = "time"
    """``analyze --metric``: the per-layer value the model-explorer format writes (``time``,
    ``bound``, ``target``, ``mac``)."""
    fail_over: float | None = None
    """``compare --fail-over PCT``: the growth of the total time, percent, that fails the run
    (the JUnit report marks exactly that as a failure)."""
    expects: tuple[tuple[str, float | None], ...] = ()
    """``compare --expect CODE[:SHARE]``: BASE's findings the team set out to fix, each with
    the least share of its promise to deliver (``None``: what the verdict calls delivered)."""
    graph_id: str | None = None
    """``analyze --graph-id``: the ONNX graph name the model-explorer file keys its nodes by;
    ``None`` (the default): the graph-independent form, which any graph takes."""


def fails(severity: Severity, fail_on: str) -> bool:
    """True when a finding of ``severity`` trips ``--fail-on fail_on`` (``never``: none)."""
    return fail_on != "never" and severity.rank >= Severity(fail_on).rank


class Reporter(ABC):
    name: ClassVar[str]
    """Name for ``--format`` (its suffixes and description are in
    :mod:`rknnprof.reporters.registry`, so choosing a format imports no reporter)."""

    @abstractmethod
    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        """Write the whole report to ``out``."""
