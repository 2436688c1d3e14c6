"""Options that several commands share, declared once: ``-f/--format`` (choices from the format
registry), ``-o/--output``, ``--top``, ``--summary/--no-summary`` and ``--color``; and the rule
that turns ``-f`` / ``-o`` into one format.

Only click and the format registry are imported here, so ``rknnprof --help`` stays light.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from rknnprof.reporters.registry import for_suffix, format_names

F = TypeVar("F", bound=Callable[..., object])

COLORS = ("auto", "always", "never")
DEFAULT_TOP = 15


def format_option(command: str) -> Callable[[F], F]:
    """``-f/--format NAME``: the formats :mod:`~rknnprof.reporters.registry` gives ``command``."""
    return click.option("-f", "--format", "fmt", type=click.Choice(format_names(command)),
                        default=None, help="Report format (default: from the -o suffix, else "
                                           "table).")


def output_option(what: str = "the report") -> Callable[[F], F]:
    """``-o/--output FILE``; ``what`` names what is written (``the report``, ``the verdict``)."""
    return click.option("-o", "--output", default=None, metavar="FILE",
                        help=f"Write {what} to FILE ('-' = stdout); the format follows its "
                             "suffix.")


def top_option(help: str) -> Callable[[F], F]:  # noqa: A002 - click's own keyword
    """``--top N`` (at least 1, default :data:`DEFAULT_TOP`)."""
    return click.option("--top", default=DEFAULT_TOP, show_default=True,
                        type=click.IntRange(min=1), help=help)


def summary_option(what: str) -> Callable[[F], F]:
    """``--summary/--no-summary`` (on by default); ``what`` names the Markdown appended."""
    return click.option("--summary/--no-summary", default=True,
                        help=f"Append {what} to $GITHUB_STEP_SUMMARY when it is set.")


def color_option(help: str = "Colour in terminal output (NO_COLOR is honoured).",  # noqa: A002
                 ) -> Callable[[F], F]:
    """``--color auto|always|never``."""
    return click.option("--color", type=click.Choice(COLORS), default="auto", show_default=True,
                        help=help)


def choose_format(command: str, fmt: str | None, output: str | None) -> str:
    """``--format`` when given; else the format ``-o``'s suffix names for ``command``; else
    ``table`` (no ``-o``, or ``-o -``). A file whose suffix names none of ``command``'s formats
    is a usage error (exit 2), so a report is never written in a format its name belies.
    ``--format`` that disagrees with the suffix (``-f json -o x.html``) is written as asked, with
    a warning (a trace is JSON, so ``.json`` suits it)."""
    if fmt is not None:
        implied = None if output in (None, "-") else for_suffix(output, command)
        if implied not in (None, fmt) and not (fmt == "trace" and implied == "json"):
            click.echo(f"Warning: {output}: the suffix means {implied}, but the report is {fmt} "
                       f"(--format {fmt}); written as {fmt}", err=True)
        return fmt
    if output in (None, "-"):
        return "table"
    guess = for_suffix(output, command)
    if guess is None:
        raise click.BadParameter(f"cannot tell the format from {output!r}; use --format",
                                 param_hint="'-o'")
    return guess
