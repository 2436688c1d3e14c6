"""The click group run as the ``rknnprof`` program: every way a run ends, as one line on stderr
and its documented exit code (``RknnprofError``, usage errors, Ctrl-C, a reader that went away),
and the cyclic collector paused while the commands import (:func:`main`).

:func:`rknnprof.cli.main` imports this module inside its Ctrl-C guard; the commands are in
:mod:`rknnprof.cli.commands`.
"""

from __future__ import annotations

import atexit
import gc
import sys

import click

from rknnprof.cli.commands import cli
from rknnprof.cli.usage import usage_text
from rknnprof.errors import RknnprofError
from rknnprof.reporters._escape import message_line


def main() -> None:
    """The console script. Startup creates ~25,000 objects the cyclic collector tracks (modules,
    classes, functions, compiled regexes) that live until exit: the collector is paused while
    the commands import them, and they are frozen (``gc.freeze``) before a command reads its
    input and again at exit, so that no collection walks them, the one at shutdown included
    (the saving is in benchmarks/README.md). Called in process (the tests), it
    leaves the collector as it found it: running, nothing frozen."""
    gc.disable()
    atexit.register(gc.freeze)
    try:
        _main()
    finally:
        gc.unfreeze()
        gc.enable()


def _main() -> None:
    try:
        try:
            _run()
        finally:  # here, not at exit: a reader that went away is seen, whatever the exit code
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
    except BrokenPipeError:
        from rknnprof.cli.output import reader_gone

        reader_gone()


def _run() -> None:
    try:
        rc = cli.main(prog_name="rknnprof", standalone_mode=False)
        if isinstance(rc, int) and rc:  # ctx.exit(n) returns n when standalone_mode is off
            sys.exit(rc)
    except RknnprofError as e:
        _say(f"Error: {message_line(e)}")
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        _say("Aborted.")
        sys.exit(130)
    except click.exceptions.NoArgsIsHelpError as e:  # a group called bare: its help, not an error
        click.echo(e.ctx.get_help() if e.ctx is not None else e.format_message())
        sys.exit(0)
    except click.UsageError as e:  # one line, not click's usage + hint + blank + error
        command = e.ctx.command_path if e.ctx is not None else "rknnprof"
        _say(f"Error: {message_line(usage_text(e))} (see '{command} --help')")
        sys.exit(e.exit_code)
    except click.ClickException as e:
        _say(f"Error: {message_line(e.format_message())}")
        sys.exit(e.exit_code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)


def _say(line: str) -> None:
    """``line`` on stderr, whatever stderr can take (:func:`rknnprof.cli.output.echo_err`)."""
    from rknnprof.cli.output import echo_err

    echo_err(line)
