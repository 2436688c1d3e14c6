"""The reporter registry. Modules are imported only when their format is used, so that
``rknnprof --help`` and the terminal report never import pandas or the HTML stack."""

from __future__ import annotations

import importlib
from pathlib import PurePath

from rknnprof.reporters.base import RenderOptions, Reporter

# name -> "module:Class"; the order is the order of ``--format`` choices.
REPORTERS: dict[str, str] = {
    "table": "rknnprof.reporters.table:TableReporter",
    "json": "rknnprof.reporters.json_report:JsonReporter",
    "markdown": "rknnprof.reporters.markdown:MarkdownReporter",
    "csv": "rknnprof.reporters.csv_report:CsvReporter",
    "html": "rknnprof.reporters.html:HtmlReporter",
    "trace": "rknnprof.reporters.trace:TraceReporter",
    "junit": "rknnprof.reporters.junit:JunitReporter",
}

# -o suffix -> reporter name (kept here, not in the modules, so no import is needed to pick one)
SUFFIXES: dict[str, str] = {
    ".txt": "table",
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
    ".csv": "csv",
    ".html": "html",
    ".htm": "html",
    ".trace": "trace",
    ".perfetto.json": "trace",
    ".xml": "junit",
}


def get_reporter(name: str) -> Reporter:
    module_name, class_name = REPORTERS[name].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls()


def for_suffix(path: str) -> str | None:
    """The reporter for ``path``'s suffix; a compound suffix (``.perfetto.json``) wins over its
    last part (``.json``)."""
    suffixes = [s.lower() for s in PurePath(path).suffixes]
    for start in range(len(suffixes)):
        name = SUFFIXES.get("".join(suffixes[start:]))
        if name:
            return name
    return None


__all__ = ["REPORTERS", "SUFFIXES", "RenderOptions", "Reporter", "for_suffix", "get_reporter"]
