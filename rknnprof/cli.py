"""The command line. Thin: parse options, call the library, pick a reporter. This is the only
module that turns :class:`~rknnprof.errors.RknnprofError` into an exit code."""

from __future__ import annotations

import sys

import click

from rknnprof import __version__
from rknnprof.errors import RknnprofError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="rknnprof")
def cli() -> None:
    """Profile analyzer for Rockchip RKNN NPUs.

    Reads rknn.eval_perf() / RKNN_LOG_LEVEL=4 / adb logcat output, labels every layer as
    compute- or bandwidth-bound, flags CPU fallback and says what to change first.
    """


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except RknnprofError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
