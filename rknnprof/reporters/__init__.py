"""Reporters: render a finished result (``analyze``'s Report, ``compare``'s CompareResult,
``check``'s CheckResult) to text. Modules are imported only when their format is used, so that
``rknnprof --help`` and the terminal report never import pandas or the HTML stack.

Where to add a reporter (a new ``analyze`` format): a :class:`~rknnprof.reporters.base.Reporter`
subclass in its own module, plus one ``Format(...)`` line in ``_ALL`` of :mod:`.registry`.

Where to add a ``compare`` / ``check`` format: a ``render(result, out, options)`` function (in
``compare_views`` / ``check_views``, or its own module like ``gate_html``), plus one ``Format``
line. ``--format``, the ``-o`` suffixes, ``rknnprof formats`` and ``tests/reporters/
test_registry.py`` (every format reachable by name and suffix) all read that one table.
"""

from __future__ import annotations

from rknnprof.reporters.base import RenderOptions, Reporter
from rknnprof.reporters.registry import FORMATS, for_suffix, renderer, suffix_map

REPORTERS: dict[str, str] = {name: f.target for name, f in FORMATS["analyze"].items()}
"""``analyze``'s formats: name -> ``module:Class``, in ``--format`` order."""

SUFFIXES: dict[str, str] = suffix_map("analyze")
"""``analyze``'s ``-o`` suffixes: suffix -> format name."""


def get_reporter(name: str) -> Reporter:
    """A new instance of ``analyze``'s reporter for format ``name``."""
    return FORMATS["analyze"][name].load()()  # type: ignore[no-any-return]  # load() finds the class by name: Any


__all__ = [
    "FORMATS",
    "REPORTERS",
    "SUFFIXES",
    "RenderOptions",
    "Reporter",
    "for_suffix",
    "get_reporter",
    "renderer",
]
