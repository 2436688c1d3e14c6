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
    "junit": "rknnprof.reporters.junit:JunitReporter",
}

# -o suffix -> reporter name (kept here, not in the modules, so no import is needed to pick one)
SUFFIXES: dict[str, str] = {
    ".txt": "table",
    ".json": "json",
    ".xml": "junit",
}


def get_reporter(name: str) -> Reporter:
    module_name, class_name = REPORTERS[name].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls()


def for_suffix(path: str) -> str | None:
    return SUFFIXES.get(PurePath(path).suffix.lower())


__all__ = ["REPORTERS", "SUFFIXES", "RenderOptions", "Reporter", "for_suffix", "get_reporter"]
