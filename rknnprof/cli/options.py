"""Options that several commands share, declared once: ``-f/--format`` (choices from the format
registry), ``-o/--output``, ``--top``, ``--summary/--no-summary``, ``--color``, ``-q/--quiet``,
``--fail-on`` (one vocabulary for every command), ``--platform`` and the rule-code options (with
shell-completion values); the rule that turns ``-f`` / ``-o`` into one format; and the option
value types (finite floats, ``--model-size``, ``--expect CODE[:SHARE]``).

Only click and the format registry are imported here, so ``rknnprof --help`` stays light.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

from rknnprof.reporters.registry import for_suffix, foreign_format, format_names

F = TypeVar("F", bound=Callable[..., object])

COLORS = ("auto", "always", "never")
DEFAULT_TOP = 15
LEVELS = ("info", "warning", "error", "never")
"""``--fail-on`` values, lowest first: a finding (analyze) or verdict (check) at that level or
above fails the run; ``never`` fails nothing."""
LEVEL_ALIASES = {"warn": "warning"}
"""Other spellings ``--fail-on`` takes (the budgets file's ``level: warn``)."""


class Vocabulary(click.Choice[str]):
    """``click.Choice`` that also takes aliases (``warn`` for ``warning``); help and shell
    completion offer only the canonical names."""

    def __init__(self, choices: tuple[str, ...], aliases: dict[str, str]) -> None:
        super().__init__(choices, case_sensitive=False)
        self.aliases = aliases

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        if isinstance(value, str):
            value = self.aliases.get(value.lower(), value)
        return super().convert(value, param, ctx)


def fail_on_option(
    levels: tuple[str, ...],
    default: str,
    help: str,  # noqa: A002
) -> Callable[[F], F]:
    """``--fail-on LEVEL`` from :data:`LEVELS` (``warn`` accepted for ``warning``)."""
    return click.option(
        "--fail-on",
        type=Vocabulary(levels, LEVEL_ALIASES),
        default=default,
        show_default=True,
        help=help,
    )


def quiet_option() -> Callable[[F], F]:
    """``-q/--quiet``: no warnings and no progress on stderr (errors are still printed)."""

    def remember(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
        ctx.meta[QUIET_KEY] = value
        return value

    return click.option(
        "-q",
        "--quiet",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=remember,
        help="No warnings or progress on stderr; errors are still printed.",
    )


QUIET_KEY = "rknnprof.quiet"
"""Where ``-q`` leaves its value in the click context's ``meta``."""


def is_quiet() -> bool:
    """True when the running command was given ``-q/--quiet``."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(QUIET_KEY))


def _complete_platform(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[str]:
    from rknnprof import platforms

    return [n for n in platforms.names() if n.startswith(incomplete.lower())]


def _complete_rule_code(
    _ctx: click.Context, _param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    from click.shell_completion import CompletionItem

    from rknnprof.rules import RULES

    return [
        CompletionItem(r.code, help=r.summary)
        for r in RULES
        if r.code.startswith(incomplete.upper())
    ]


def _named_platform(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--platform ""`` names no SoC: refused (it was taken as no option at all)."""
    if value is not None and not value.strip():
        raise click.BadParameter("an empty name: give an SoC (rk3588, rk3576, ...)")
    return value


def platform_option() -> Callable[[F], F]:
    """``--platform SOC``; shell completion offers the known SoC names."""
    return click.option(
        "--platform",
        default=None,
        metavar="SOC",
        callback=_named_platform,
        shell_complete=_complete_platform,
        help="SoC to judge by (rk3588, rk3576, ...); overrides what the log says.",
    )


def rule_prefix_option(name: str, help: str) -> Callable[[F], F]:  # noqa: A002
    """``--select`` / ``--ignore PREFIX``; shell completion offers the rule codes."""
    return click.option(
        name, multiple=True, metavar="PREFIX", shell_complete=_complete_rule_code, help=help
    )


def rule_code_argument() -> Callable[[F], F]:
    """``rknnprof rules [CODE]``; shell completion offers the rule codes."""
    return click.argument("code", required=False, shell_complete=_complete_rule_code)


def format_option(command: str) -> Callable[[F], F]:
    """``-f/--format NAME``: the formats :mod:`~rknnprof.reporters.registry` gives ``command``."""
    return click.option(
        "-f",
        "--format",
        "fmt",
        type=click.Choice(format_names(command)),
        default=None,
        help="Report format (default: from the -o suffix, else table).",
    )


def output_option(what: str = "the report") -> Callable[[F], F]:
    """``-o/--output FILE``; ``what`` names what is written (``the report``, ``the verdict``)."""
    return click.option(
        "-o",
        "--output",
        default=None,
        metavar="FILE",
        help=f"Write {what} to FILE ('-' = stdout); the format follows its suffix.",
    )


def top_option(help: str) -> Callable[[F], F]:  # noqa: A002 - click's own keyword
    """``--top N`` (at least 1, default :data:`DEFAULT_TOP`)."""
    return click.option(
        "--top", default=DEFAULT_TOP, show_default=True, type=click.IntRange(min=1), help=help
    )


def summary_option(what: str) -> Callable[[F], F]:
    """``--summary/--no-summary`` (on by default); ``what`` names the Markdown appended."""
    return click.option(
        "--summary/--no-summary",
        default=True,
        help=f"Append {what} to $GITHUB_STEP_SUMMARY when it is set.",
    )


def color_option(
    help: str = "Colour in terminal output (NO_COLOR is honoured).",  # noqa: A002
) -> Callable[[F], F]:
    """``--color auto|always|never``."""
    return click.option(
        "--color", type=click.Choice(COLORS), default="auto", show_default=True, help=help
    )


def choose_format(command: str, fmt: str | None, output: str | None) -> str:
    """``--format`` when given; else the format ``-o``'s suffix names for ``command``; else
    ``table`` (no ``-o``, or ``-o -``). A file whose suffix names none of ``command``'s formats
    is a usage error (exit 2), so a report is never written in a format its name belies.
    ``--format`` that disagrees with the suffix (``-f json -o x.html``) is written as asked, with
    a warning (a trace is JSON, so ``.json`` suits it)."""
    if fmt is not None:
        implied = None if output in (None, "-") else for_suffix(output, command)
        json_like = fmt in ("trace", "model-explorer") and implied == "json"
        if implied not in (None, fmt) and not json_like:
            if not is_quiet():
                click.echo(
                    f"Warning: {output}: the suffix means {implied}, but the report is "
                    f"{fmt} (--format {fmt}); written as {fmt}",
                    err=True,
                )
        return fmt
    if output in (None, "-"):
        return "table"
    guess = for_suffix(output, command)
    if guess is None:
        foreign = foreign_format(output, command)
        hint = (
            f" ({foreign[0]}'s {foreign[1]} format, not one of {command}'s: "
            f"{', '.join(format_names(command))})"
            if foreign
            else ""
        )
        raise click.BadParameter(
            f"cannot tell the format from {output!r}{hint}; use --format", param_hint="'-o'"
        )
    return guess


OPTION_NAME = r"RKN\d{3}\.[a-z][a-z0-9_]*"
"""How a rule's doc names a threshold it reads (``RKN010.min_layer_share``)."""


def rule_option_names() -> list[str]:
    """Every threshold the rule docs name (``rknnprof rules CODE``), sorted: exactly what
    ``--rule-option`` accepts."""
    import re

    from rknnprof.rules import RULES

    return sorted(
        {m for r in RULES for m in re.findall(OPTION_NAME, r.doc) if m.startswith(r.code + ".")}
    )


def _parse_rule_options(
    _ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> dict[str, float]:
    import math

    known = rule_option_names() if values else []
    chosen: dict[str, float] = {}
    for value in values:
        name, eq, number = value.partition("=")
        name = name.strip()
        if name[:3].lower() == "rkn":
            name = name[:6].upper() + name[6:]
        if not eq:
            raise click.BadParameter(
                f"{value!r}: expected NAME=VALUE, e.g. RKN010.min_layer_share=0.005", param=param
            )
        if name not in known:
            raise click.BadParameter(
                f"unknown rule option {name!r}; the rules read {', '.join(known)}", param=param
            )
        number = number.strip()
        percent = number.endswith("%")
        try:
            chosen[name] = float(number[:-1] if percent else number) / (100 if percent else 1)
        except ValueError:
            chosen[name] = math.nan
        if not math.isfinite(chosen[name]) or chosen[name] < 0:
            raise click.BadParameter(
                f"{value!r}: the value must be a number >= 0 (or a percentage: 1%)", param=param
            )
        if name.endswith("share") and chosen[name] >= 1:
            raise click.BadParameter(
                f"{value!r}: a share is a fraction of the frame, under 1 (1 is the whole frame): "
                f"0.01 or 1% for 1 %; --ignore {name.split('.')[0]} turns the rule off",
                param=param,
            )
    return chosen


def _complete_rule_option(
    _ctx: click.Context, _param: click.Parameter, incomplete: str
) -> list[str]:
    return [f"{n}=" for n in rule_option_names() if n.lower().startswith(incomplete.lower())]


def rule_option_option() -> Callable[[F], F]:
    """``--rule-option RKN010.min_layer_share=0.005`` (repeatable): a threshold a rule's doc
    names; completion offers the names."""
    return click.option(
        "--rule-option",
        "rule_option",
        multiple=True,
        metavar="NAME=VALUE",
        callback=_parse_rule_options,
        shell_complete=_complete_rule_option,
        help="Set a rule threshold named in `rknnprof rules CODE`, e.g. "
        "RKN010.min_layer_share=0.005 (repeatable).",
    )


# -- option value types ----------------------------------------------------------------------


def rule_expectation(value: str) -> tuple[str, float | None]:
    """``RKN070`` -> ("RKN070", None); ``RKN070:50%`` / ``RKN070:0.5`` -> ("RKN070", 0.5)."""
    code, _, share = value.partition(":")
    code = code.strip().upper()
    if not re.fullmatch(r"RKN\d{3}", code):
        raise click.BadParameter(f"{value}: expected a rule code such as RKN070[:50%]")
    from rknnprof.rules import by_code

    if by_code(code) is None:
        raise click.BadParameter(f"{value}: no rule has the code {code} (see `rknnprof rules`)")
    if not share:
        return code, None
    text = share.strip()
    try:
        number = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        number = -1.0
    if not text.isascii() or "_" in text:
        number = -1.0
    if not text.endswith("%") and number > 1:  # (5 read as 500 %: budgets refuse it too)
        raise click.BadParameter(
            f"{value}: {text} would mean {number:.0%}; write {text}% or {number / 100:g}"
        )
    if not 0 <= number <= 10:
        raise click.BadParameter(f"{value}: the share must be like 50% or 0.5")
    return code, number


class FiniteFloatRange(click.FloatRange):
    """``click.FloatRange`` that also refuses ``nan`` and ``inf`` (a NaN passes every
    comparison test, so ``--bound-ratio nan`` relabelled most layers as balanced) and Python's
    digit separators (``1_0`` read as 10); with ``percent``, a trailing ``%`` is allowed
    (``--fail-over 5%``)."""

    def __init__(self, *args: Any, percent: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.percent = percent

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        import math

        if isinstance(value, str):
            if "_" in value or not value.isascii():  # (1_0, a fullwidth or Arabic-Indic 5)
                self.fail(f"{value!r} is not a number.", param, ctx)
            if self.percent and value.strip().endswith("%"):
                value = value.strip()[:-1]
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


_SIZE_UNITS = {
    "": 1e-9,
    "b": 1e-9,
    "kb": 1e-6,
    "mb": 1e-3,
    "gb": 1.0,
    "kib": 1024 / 1e9,
    "mib": 1024**2 / 1e9,
    "gib": 1024**3 / 1e9,
}


def model_size(_ctx: click.Context, param: click.Parameter, value: str | None) -> float | None:
    """``--model-size 1.9GB`` -> 1.9 (GB, decimal); bytes without a unit."""
    if value is None:
        return None
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgG]i?[bB]|[bB])?\s*", value)
    unit = (m.group(2) or "").lower() if m else ""
    if m is None or unit not in _SIZE_UNITS or float(m.group(1)) <= 0:
        raise click.BadParameter(
            f"{value!r}: expected a size such as 1.9GB, 1900MB or bytes", param=param
        )
    if not unit and ("." in m.group(1) or float(m.group(1)) < MIN_BARE_BYTES):
        why = "no whole number of bytes" if "." in m.group(1) else "too few bytes for a model"
        raise click.BadParameter(
            f"{value!r} without a unit is {why}: give its unit, such as 1.9GB or 1900MB",
            param=param,
        )
    return float(m.group(1)) * _SIZE_UNITS[unit]


MIN_BARE_BYTES = 1_000_000
"""A ``--model-size`` without a unit is bytes: below a megabyte (or with a fraction) it is a
size whose unit was left out (``--model-size 7.81`` meant 7.81 GB: it read as 7.81 bytes and
put the decode bound at 4 billion tokens/s)."""
