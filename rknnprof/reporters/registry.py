"""The one registry of output formats: for each command, its ``--format`` names, the ``-o``
suffixes that pick each one, and where its renderer lives.

Renderers are imported only when their format is used (``Format.target`` is a string), so that
``rknnprof --help`` and the terminal report never import pandas or the HTML stack. Every
renderer is called as ``render(result, out, options)``: ``result`` is the command's result (a
:class:`~rknnprof.model.Report`, :class:`~rknnprof.compare.CompareResult` or
:class:`~rknnprof.budgets.CheckResult`), ``out`` a text stream, ``options`` the
:class:`~rknnprof.reporters.base.RenderOptions`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import PurePath
from typing import Any, TextIO

from rknnprof.model.record import Record, record
from rknnprof.reporters.base import RenderOptions

COMMANDS = ("analyze", "compare", "check")
"""The commands that render a result, in the order ``--help`` lists them."""

Render = Callable[[Any, TextIO, RenderOptions], None]


@record
class Format(Record):
    """One output format of one command."""

    command: str
    """``analyze``, ``compare`` or ``check``."""
    name: str
    """The ``--format`` value."""
    target: str
    """``module:attribute``: a :class:`~rknnprof.reporters.base.Reporter` subclass, or a
    function called as ``render(result, out, options)``."""
    suffixes: tuple[str, ...]
    """``-o`` suffixes (lower case, with the dot) that pick this format when ``--format`` is
    absent; a compound one (``.perfetto.json``) wins over its last part."""
    description: str

    def load(self) -> Any:
        """Import the target's module and return the target (a class or a function)."""
        module_name, attribute = self.target.split(":")
        return getattr(importlib.import_module(module_name), attribute)

    def renderer(self) -> Render:
        """The function that renders this format (a Reporter's bound ``render``)."""
        obj = self.load()
        return obj().render if isinstance(obj, type) else obj  # type: ignore[no-any-return]  # load() finds it by name: Any


_ANALYZE = "rknnprof.reporters"
_COMPARE = "rknnprof.reporters.compare_views"
_CHECK = "rknnprof.reporters.check_views"
_GATE_HTML = "rknnprof.reporters.gate_html"

# The order within a command is the order of its ``--format`` choices.
_ALL: tuple[Format, ...] = (
    Format(
        "analyze",
        "table",
        f"{_ANALYZE}.table:TableReporter",
        (".txt",),
        "terminal tables (rich); plain aligned text without colour",
    ),
    Format(
        "analyze",
        "json",
        f"{_ANALYZE}.json_report:JsonReporter",
        (".json",),
        "the machine-readable report (the documented JSON contract), for tools",
    ),
    Format(
        "analyze",
        "markdown",
        f"{_ANALYZE}.markdown:MarkdownReporter",
        (".md", ".markdown"),
        "GitHub Markdown for PR comments and $GITHUB_STEP_SUMMARY",
    ),
    Format(
        "analyze",
        "csv",
        f"{_ANALYZE}.csv_report:CsvReporter",
        (".csv",),
        "one row per layer, every layer field plus the profile's source and platform",
    ),
    Format(
        "analyze",
        "html",
        f"{_ANALYZE}.html:HtmlReporter",
        (".html", ".htm"),
        "one self-contained HTML file with SVG charts and a sortable layer table",
    ),
    Format(
        "analyze",
        "trace",
        f"{_ANALYZE}.trace:TraceReporter",
        (".trace", ".perfetto.json"),
        "Chrome trace-event JSON for ui.perfetto.dev: one track per NPU core and the CPU",
    ),
    Format(
        "analyze",
        "model-explorer",
        f"{_ANALYZE}.model_explorer:ModelExplorerReporter",
        (".me.json",),
        "node data for Google's Model Explorer: one metric (--metric) per ONNX node",
    ),
    Format(
        "analyze",
        "junit",
        f"{_ANALYZE}.junit:JunitReporter",
        (".xml",),
        "JUnit XML for CI test tabs: one test case per rule, failing when a finding of that rule "
        "reaches --fail-on",
    ),
    Format(
        "compare",
        "table",
        f"{_COMPARE}:render_table",
        (".txt",),
        "terminal tables: the totals, the largest layer changes, op types",
    ),
    Format(
        "compare",
        "json",
        f"{_COMPARE}:render_json",
        (".json",),
        "every comparison, layer delta and op-type delta, for tools",
    ),
    Format(
        "compare",
        "markdown",
        f"{_COMPARE}:render_markdown",
        (".md", ".markdown"),
        "GitHub Markdown for PR comments and $GITHUB_STEP_SUMMARY",
    ),
    Format(
        "compare",
        "csv",
        f"{_COMPARE}:render_csv",
        (".csv",),
        "one row per aligned layer, both sides' time, target and data type",
    ),
    Format(
        "compare",
        "html",
        f"{_GATE_HTML}:render_compare_html",
        (".html", ".htm"),
        "one self-contained HTML page with the comparison's tables",
    ),
    Format(
        "compare",
        "junit",
        f"{_COMPARE}:render_junit",
        (".xml",),
        "JUnit XML for CI test tabs: the total time against --fail-over, one test case per "
        "finding of BASE, failing when --expect names it and it was not delivered",
    ),
    Format(
        "check",
        "table",
        f"{_CHECK}:render_table",
        (".txt",),
        "terminal table: one row per budget verdict",
    ),
    Format(
        "check",
        "json",
        f"{_CHECK}:render_json",
        (".json",),
        "every verdict with its value and baseline value, for tools",
    ),
    Format(
        "check",
        "markdown",
        f"{_CHECK}:render_markdown",
        (".md", ".markdown"),
        "GitHub Markdown for PR comments and $GITHUB_STEP_SUMMARY",
    ),
    Format(
        "check",
        "html",
        f"{_GATE_HTML}:render_check_html",
        (".html", ".htm"),
        "one self-contained HTML page with the verdicts",
    ),
    Format(
        "check",
        "junit",
        f"{_CHECK}:render_junit",
        (".xml",),
        "JUnit XML for CI test tabs: one test case per budget",
    ),
)

FORMATS: dict[str, dict[str, Format]] = {
    command: {f.name: f for f in _ALL if f.command == command} for command in COMMANDS
}
"""command -> format name -> :class:`Format`."""


def format_names(command: str) -> list[str]:
    """The ``--format`` choices of ``command``, in order."""
    return list(FORMATS[command])


def suffix_map(command: str) -> dict[str, str]:
    """``-o`` suffix -> format name, for ``command``."""
    return {suffix: f.name for f in FORMATS[command].values() for suffix in f.suffixes}


def for_suffix(path: str, command: str = "analyze") -> str | None:
    """The format of ``command`` that ``path``'s suffix names, or ``None``; a compound suffix
    (``.perfetto.json``) wins over its last part (``.json``)."""
    owner, name = _suffix_owner(path, command)
    return name if owner == command else None


def foreign_format(path: str, command: str) -> tuple[str, str] | None:
    """``(other command, format)`` when ``path``'s suffix names a format only another command
    writes (``compare -o x.me.json``: analyze's model-explorer), so ``x.me.json`` never means
    one thing for ``analyze`` and a JSON comparison for ``compare``; else ``None``."""
    owner, name = _suffix_owner(path, command)
    return (owner, name) if owner != command and name is not None else None


def _suffix_owner(path: str, command: str) -> tuple[str, str | None]:
    """The command and format the longest known suffix of ``path`` names, ``command``'s own
    first; ``(command, None)`` when no suffix is known."""
    suffixes = [s.lower() for s in PurePath(path).suffixes]
    for start in range(len(suffixes)):
        suffix = "".join(suffixes[start:])
        for owner in (command, *(c for c in COMMANDS if c != command)):
            name = suffix_map(owner).get(suffix)
            if name:
                return owner, name
    return command, None


def renderer(command: str, name: str) -> Render:
    """The function that renders ``command``'s result as format ``name``."""
    return FORMATS[command][name].renderer()
