"""Reporters: render a finished result (``analyze``'s Report, ``compare``'s CompareResult,
``check``'s CheckResult) to text. Modules are imported only when their format is used, so that
``rknnprof --help`` and the terminal report never import pandas or the HTML stack.

Where to add an output format: write the renderer (for ``analyze`` a
:class:`~rknnprof.reporters.base.Reporter` subclass in its own module; for ``compare`` / ``check``
a ``render(result, out, options)`` function in ``compare_views`` / ``check_views``), then add
one :class:`~rknnprof.reporters.registry.Format` line (command, name, ``module:attr``, ``-o``
suffixes, description) to ``_ALL`` in :mod:`rknnprof.reporters.registry`. ``--format``, the
suffix lookup and the exhaustiveness test (``tests/reporters/test_registry.py``) follow it.
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
    return FORMATS["analyze"][name].load()()  # type: ignore[no-any-return]


__all__ = ["FORMATS", "REPORTERS", "SUFFIXES", "RenderOptions", "Reporter", "for_suffix",
           "get_reporter", "renderer"]
