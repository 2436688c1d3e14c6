"""The command line and its plumbing: everything between the shell and the library.

* :mod:`~rknnprof.cli.commands`: the click group and its commands (``analyze``, ``compare``,
  ``check``, ``rules``, ``formats``);
* :mod:`~rknnprof.cli.runner`: the group run as the program (exit codes, Ctrl-C, closed pipes);
* :mod:`~rknnprof.cli.options`: the shared options and option value types;
* :mod:`~rknnprof.cli.output`: where a report goes (``-o`` file or stdout, colour, warnings);
* :mod:`~rknnprof.cli.ci_outputs`: GitHub Actions step summary and annotations;
* :mod:`~rknnprof.cli.gate`: ``check``'s inputs (budgets file, run, baseline).

Only this package turns :class:`~rknnprof.errors.RknnprofError` into an exit code.

Where to add a command: a function in ``commands.py`` under ``@cli.command()``, taking the shared
options from ``options.py``; it calls the library through :mod:`rknnprof.api`, renders through
the format registry (:mod:`rknnprof.reporters.registry`) and writes with ``output.emit``.
"""

from __future__ import annotations

import os
import sys

from rknnprof import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, NoReturn

    from rknnprof.cli.commands import cli

__all__ = ["cli", "console", "main"]


def main() -> None:
    """Run the command line. The commands are imported here, not with this package, so that a
    Ctrl-C while they load (the first ~0.1 s) ends the run as one at any later point does:
    ``Aborted.`` and exit 130, never a traceback."""
    try:
        import gc

        collecting = gc.isenabled()
        gc.disable()  # as ``runner.main`` does for the rest of startup (its doc says why)
        try:
            from rknnprof.cli.runner import main as run
        finally:
            if collecting:
                gc.enable()
        run()
    except KeyboardInterrupt:
        _aborted()
    except RuntimeError as e:  # a Ctrl-C inside a class body of an import (``__set_name__``)
        if isinstance(e.__cause__, KeyboardInterrupt):
            _aborted()
        raise


def console() -> None:
    """What the ``rknnprof`` script runs: :func:`main`, with two guards a library call must not
    get (in process, the tests call :func:`main`):

    * a Ctrl-C that Python could not raise where it landed (inside a weakref callback of the
      import machinery, which prints ``Exception ignored`` and carries on) is kept, and the run
      ends as an interrupted one: ``Aborted.`` and exit 130, not exit 0 with a traceback;
    * once the run is done, Ctrl-C is ignored while Python exits: the exit code and the output
      are decided, and a traceback from the interpreter's last steps would only confuse.
    """
    try:  # (a Ctrl-C from the first line on ends the run as one at any later point does)
        import signal

        swallowed: list[BaseException] = []
        default_hook = sys.unraisablehook

        def keep_interrupts(unraisable: Any) -> None:
            if isinstance(unraisable.exc_value, KeyboardInterrupt):
                swallowed.append(unraisable.exc_value)
            else:
                default_hook(unraisable)

        sys.unraisablehook = keep_interrupts
    except KeyboardInterrupt:
        _aborted()
    try:
        try:
            main()
        except SystemExit as e:
            if swallowed and not e.code:
                _aborted()
            raise
        if swallowed:
            _aborted()
    finally:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except KeyboardInterrupt:  # the last moment before the guard: still an interrupt
            _aborted()
        finally:
            sys.unraisablehook = default_hook


def _aborted() -> NoReturn:
    """Exit 130 with click's word for it, also when stderr is gone."""
    try:
        os.write(2, b"Aborted.\n")
    except OSError:
        pass
    sys.exit(130)


def __getattr__(name: str) -> Any:
    if name == "cli":  # the click group, for library callers and the tests
        from rknnprof.cli.commands import cli

        return cli
    raise AttributeError(name)
