"""The command line and its plumbing: everything between the shell and the library.

* :mod:`~rknnprof.cli.commands`: the click group and its commands (``analyze``, ``compare``,
  ``check``, ``rules``, ``formats``) and :func:`main`, the console script;
* :mod:`~rknnprof.cli.output`: where a report goes (``-o`` file or stdout, colour, warnings);
* :mod:`~rknnprof.cli.ci_outputs`: GitHub Actions step summary and annotations;
* :mod:`~rknnprof.cli.gate`: ``check``'s inputs (budgets file, run, baseline).

Only this package turns :class:`~rknnprof.errors.RknnprofError` into an exit code.

Where to add a command: a function in ``commands.py`` under ``@cli.command()``, taking the shared
options from ``options.py``; it calls the library through :mod:`rknnprof.api`, renders through
the format registry (:mod:`rknnprof.reporters.registry`) and writes with ``output.emit``.
"""

from rknnprof.cli.commands import cli, main

__all__ = ["cli", "main"]
