"""The commands. Thin: parse options, call the library, pick a reporter. The group turns
:class:`~rknnprof.errors.RknnprofError` into an exit code inside a command;
:mod:`~rknnprof.cli.runner` does it for anything raised outside one."""

from __future__ import annotations

import gc
import io
import os
from dataclasses import replace
from typing import Any

import click

from rknnprof import __version__
from rknnprof.analysis.classify import DEFAULT_BOUND_RATIO
from rknnprof.cli.options import (
    LEVELS,
    FiniteFloatRange,
    color_option,
    fail_on_option,
    format_option,
    model_size,
    output_option,
    platform_option,
    quiet_option,
    rule_code_argument,
    rule_expectation,
    rule_option_option,
    rule_prefix_option,
    summary_option,
    top_option,
)
from rknnprof.errors import EXIT_FAILED, NoProfileDataError, RknnprofError
from rknnprof.model import Report
from rknnprof.reporters._escape import message_line
from rknnprof.units import signed_percent_beside


class _Group(click.Group):
    """Turns :class:`RknnprofError` into its one-line message and exit code for every command,
    also under ``CliRunner`` (``main`` does the same for anything raised outside a command),
    and a reader that went away into exit 141, where click would exit 1."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:  # --help and --version print while the arguments are parsed
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            from rknnprof.cli.output import reader_gone

            reader_gone()

    def invoke(self, ctx: click.Context) -> object:
        try:
            try:
                return super().invoke(ctx)
            except RknnprofError as e:
                from rknnprof.cli.output import echo_err

                echo_err(f"Error: {message_line(e)}")
                ctx.exit(e.exit_code)
        except BrokenPipeError:  # click's own handler would exit 1
            from rknnprof.cli.output import reader_gone

            reader_gone()


@click.group(
    cls=_Group,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="rknnprof")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Profile analyzer for Rockchip RKNN NPUs.

    Reads rknn.eval_perf() / RKNN_LOG_LEVEL=4 / adb logcat output, labels every layer as
    compute- or bandwidth-bound, flags CPU fallback and says what to change first.

    \b
    Start with:
        rknnprof analyze perf.txt      # the report of one log
        rknnprof COMMAND --help        # every option of a command
    """
    if ctx.invoked_subcommand is None:  # bare ``rknnprof``: the help, as ``--help`` prints it
        click.echo(ctx.get_help())


# -- analyze ---------------------------------------------------------------------------------


@cli.command()
@click.argument(
    "paths",
    nargs=-1,
    metavar="[PATH|-]...",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True),
)
@format_option("analyze")
@output_option()
@top_option("How many layers the top-layers list shows.")
@color_option()
@quiet_option()
@platform_option()
@click.option(
    "--bound-ratio",
    type=FiniteFloatRange(min=1.0, min_open=True),
    default=DEFAULT_BOUND_RATIO,
    show_default=True,
    help="DDR/NPU cycle ratio above which a layer counts as bandwidth-bound "
    "(and NPU/DDR for compute-bound).",
)
@fail_on_option(
    LEVELS,
    "never",
    "Exit 1 when a finding has this severity or a higher one "
    "(each is named on stderr; JUnit marks them as failures).",
)
@rule_prefix_option(
    "--select", "Only run rules whose code starts with PREFIX (repeat or comma-separate)."
)
@rule_prefix_option(
    "--ignore", "Skip rules whose code starts with PREFIX (the longer prefix wins)."
)
@rule_option_option()
@click.option(
    "--metric",
    type=click.Choice(("time", "bound", "target", "mac")),
    default="time",
    show_default=True,
    help="The value -f model-explorer gives each ONNX node.",
)
@click.option(
    "--graph-id",
    default=None,
    metavar="NAME",
    help="For -f model-explorer: key the node data by this graph name (Model Explorer then "
    "applies it to that graph only). Default: the graph-independent form, which any graph takes.",
)
@click.option(
    "--model-size",
    callback=model_size,
    metavar="SIZE",
    default=None,
    help="An RKLLM model's size (1.9GB, 1900MB, bytes): the bytes each decode step "
    "reads, for the decode verdict against the DDR bandwidth (RKN090).",
)
def analyze(
    paths: tuple[str, ...],
    fmt: str | None,
    output: str | None,
    top: int,
    color: str,
    platform: str | None,
    bound_ratio: float,
    fail_on: str,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    rule_option: dict[str, float],
    metric: str,
    graph_id: str | None,
    model_size: float | None,
) -> None:
    """Parse RKNN profiling logs, label every layer, rank what to fix.

    PATH is a log file (eval_perf output, RKNN_LOG_LEVEL=4 log, adb logcat capture); '-' or no
    PATH with a pipe reads stdin.
    """
    if model_size is not None:
        rule_option = {**rule_option, "RKN090.model_size_gb": model_size}
    from rknnprof.api import analyze as run_analysis
    from rknnprof.cli import ci_outputs
    from rknnprof.cli.gate import gate_findings, gate_line
    from rknnprof.cli.options import choose_format
    from rknnprof.cli.output import (
        echo_err,
        one_terminal,
        print_report_warnings,
        refuse_overwrite,
        require_stdin,
        stdin_is_terminal,
        stdout_is_terminal,
        stream,
        use_color,
    )
    from rknnprof.reporters import RenderOptions, renderer
    from rknnprof.rules import select_rules

    _startup_done()
    if not paths:
        if stdin_is_terminal():
            raise click.UsageError("give a log PATH, or '-' to read stdin")
        paths = ("-",)
    to_file = output not in (None, "-")
    fmt = choose_format("analyze", fmt, output)
    if fmt != "model-explorer" and (metric != "time" or graph_id is not None):
        given = "--metric" if metric != "time" else "--graph-id"
        echo_err(f"Warning: {given} applies to -f model-explorer only: ignored for -f {fmt}")
    rules = select_rules(select, ignore) if (select or ignore) else True
    require_stdin(paths)
    refuse_overwrite(paths, o=output)
    options = RenderOptions(
        top=top,
        color=use_color(color, not to_file and stdout_is_terminal()),
        fail_on=fail_on,
        metric=metric,
        graph_id=graph_id,
    )
    try:
        report = run_analysis(
            paths, platform=platform, bound_ratio=bound_ratio, rules=rules, rule_options=rule_option
        )
    except NoProfileDataError as e:  # every machine format still writes its document
        failed = e.report
        if fmt != "table" and isinstance(failed, Report):  # its warnings are in it
            render_failed = renderer("analyze", fmt)
            stream(lambda out: render_failed(failed, out, options), output, options.color)
        raise
    if not (fmt == "table" and output in (None, "-") and one_terminal()):
        print_report_warnings(report.warnings)  # (the table on the terminal shows them already)
    # written as it is rendered: a long capture's trace (megabytes) is never held whole
    render = renderer("analyze", fmt)
    stream(lambda out: render(report, out, options), output, options.color)
    tripped = gate_findings(report, fail_on)
    for profile, finding in tripped:
        echo_err(f"Error: {gate_line(profile, finding, fail_on)}")
    ci_outputs.annotate_errors(
        [
            (
                f"rknnprof {finding.code} {finding.name}",
                gate_line(profile, finding, fail_on, width=1000),
                profile.source.path,
                profile.source.first_line,
            )
            for profile, finding in tripped
        ],
        fmt,
        output,
    )
    if tripped:
        raise click.exceptions.Exit(EXIT_FAILED)


@cli.command("rules")
@rule_code_argument()
def rules_command(code: str | None) -> None:
    """List the advice rules, or print one rule's full doc.

    \b
    Example:
        rknnprof rules                  # code, severity, name, summary
        rknnprof rules RKN001           # what it finds, why, example, fix, estimate, source
        rknnprof rules activation-swap  # the same, by the rule's name
    """
    from rknnprof.rules import RULES, by_code

    if code is None:
        import shutil
        import sys
        import textwrap

        # (wrapped on a terminal; piped, one line a rule, for grep)
        on_tty = sys.stdout.isatty()
        width = shutil.get_terminal_size((100, 24)).columns if on_tty else 10_000
        for rule in RULES:
            head = f"{rule.code}  {rule.severity.value:<7}  {rule.name:<22}  "
            lines = textwrap.wrap(rule.summary, max(30, width - len(head))) or [""]
            click.echo(head + lines[0])
            for line in lines[1:]:  # (wrapped under the summary's column)
                click.echo(" " * len(head) + line)
        return
    found = by_code(code) or next((r for r in RULES if r.name == code), None)  # or its name
    if found is None:
        raise click.UsageError(f"unknown rule code {code!r}; run `rknnprof rules` for the list")
    rule = found
    from rknnprof.cli.output import wrapped

    click.echo(f"# {rule.name} ({rule.code}, {rule.severity.value})\n")
    click.echo(wrapped(f"{rule.summary}\n"))
    click.echo(wrapped(rule.doc))
    click.echo(
        wrapped(
            "\nPlatform facts (limits, clocks, multi-core op types) come from "
            "rknnprof/platforms/*.yaml; the source keys they cite (OPL232, SCALE, DS-RK3588…) "
            "are defined in docs/sources.md of the rknnprof source tree, with title, version, "
            "section and public URL."
        )
    )


@cli.command("formats")
def formats_command() -> None:
    """List the input families rknnprof understands and how each is detected, then the output
    formats of every command and the -o suffixes that pick them.

    Families are tried in this order on every line outside a block; the first that recognises
    the line reads the block.
    """
    from rich.console import Console
    from rich.table import Table

    from rknnprof.cli.output import emit, stdout_is_terminal, use_color
    from rknnprof.parsers import families
    from rknnprof.reporters.registry import FORMATS

    inputs = Table(title="Inputs", title_justify="left", show_lines=True, expand=False)
    inputs.add_column("#", justify="right")
    inputs.add_column("Family", no_wrap=True)
    inputs.add_column("Detected by", overflow="fold")  # (a long token folds: never cut)
    inputs.add_column("Yields", overflow="fold")
    for order, parser in enumerate(families(), start=1):
        inputs.add_row(str(order), parser.family, parser.detection, parser.fields)
    outputs = Table(
        title="Outputs (-f NAME, or -o FILE with one of the suffixes)",
        title_justify="left",
        expand=False,
    )
    for head in ("Command", "Format", "Suffixes", "What"):
        outputs.add_column(head, no_wrap=head != "What")
    for command, formats in FORMATS.items():
        for fmt in formats.values():
            outputs.add_row(command, fmt.name, " ".join(fmt.suffixes), fmt.description)
    color = use_color("auto", stdout_is_terminal())
    console = Console(highlight=False, no_color=not color, soft_wrap=False)
    with console.capture() as captured:  # written by emit: a closed pipe exits 141, not 1
        console.print(inputs)
        console.print(outputs)
    emit(captured.get(), None, color)


# -- compare and check (CI gate) -------------------------------------------------------------


@cli.command()
@click.argument("base", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.argument("current", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@format_option("compare")
@output_option()
@click.option(
    "--fail-over",
    type=FiniteFloatRange(min=0, percent=True),
    metavar="PCT",
    help=(
        "Exit 1 when the total time grew by more than PCT percent (5 or 5%; not judged, with a "
        "warning, when a run shows part of the model, has a damaged table, is no measurement "
        "or gives no time per frame)."
    ),
)
@click.option(
    "--expect",
    "expects",
    multiple=True,
    metavar="CODE[:SHARE]",
    callback=lambda ctx, param, values: [rule_expectation(v) for v in values],
    help="Exit 1 unless BASE's finding CODE was fixed: gone from CURRENT's advice and "
    "delivered (at least SHARE of its promised saving, e.g. RKN070:50%, when given). "
    "Repeatable.",
)
@top_option("Rows per table (table, markdown and html).")
@summary_option("Markdown")
@color_option()
@quiet_option()
def compare(
    base: str,
    current: str,
    fmt: str | None,
    output: str | None,
    fail_over: float | None,
    expects: list[tuple[str, float | None]],
    top: int,
    summary: bool,
    color: str,
) -> None:
    """Layer-by-layer diff of two runs: BASE and CURRENT are logs or saved JSON reports.

    Layers are aligned by FullName, then by op type and shapes, then by order. Differences in
    platform, versions, NPU frequency, cores or frames are printed as warnings.
    """
    from rknnprof.api import load_report
    from rknnprof.cli import ci_outputs
    from rknnprof.cli.options import choose_format
    from rknnprof.cli.output import (
        echo_err,
        emit,
        one_terminal,
        print_warnings,
        refuse_overwrite,
        render_options,
    )
    from rknnprof.compare import compare_reports
    from rknnprof.reporters import renderer

    _startup_done()
    if base == current == "-":
        raise click.UsageError("BASE and CURRENT cannot both be stdin ('-')")
    refuse_overwrite((base, current), o=output)
    fmt = choose_format("compare", fmt, output)
    base_report, after_report = load_report(base), load_report(current)
    result = compare_reports(base_report, after_report, base, current)
    if not (fmt == "table" and output in (None, "-") and one_terminal()):
        print_warnings(result.warnings)  # (the table on the terminal shows them already)
    buf = io.StringIO()
    options = replace(
        render_options(color, output, top), fail_over=fail_over, expects=tuple(expects)
    )
    renderer("compare", fmt)(result, buf, options)
    emit(buf.getvalue(), output, color=options.color)
    if summary:
        ci_outputs.summarize_compare(result, top)
    if fail_over is not None:
        for comp in result.comparisons:
            if comp.unjudged:
                echo_err(
                    f"Warning: {message_line(comp.model or current)}: --fail-over not judged: "
                    f"{'; '.join(comp.unjudged)}"
                )
    if expects:
        from rknnprof.compare import unmet_expectations

        unmet = unmet_expectations(
            [(dict(c.still_advised), c.advice) for c in result.comparisons], expects
        )
        advised = {o.code for c in result.comparisons for o in c.advice}
        for code, _ in expects:
            if code not in advised:
                echo_err(
                    f"Warning: --expect {code}: BASE's advice holds no {code} finding that "
                    "promised a saving: nothing to check"
                )
        for line in unmet:
            echo_err(f"Error: {message_line(line)} (--expect)")
        if unmet:
            raise SystemExit(EXIT_FAILED)
    if fail_over is not None and (slow := result.slowed_by_more_than(fail_over)):
        errors = [
            (
                f"{message_line(comp.model or current)}: total time grew "
                f"{signed_percent_beside((comp.delta_pct or 0.0) / 100, fail_over / 100)} "
                f"(more than --fail-over {fail_over:g}%)"
            )
            for comp in slow
        ]
        for error in errors:
            echo_err(f"Error: {error}")
        ci_outputs.annotate_errors(
            [("rknnprof compare --fail-over", e, current, None) for e in errors], fmt, output
        )
        raise SystemExit(EXIT_FAILED)


@cli.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "--budgets",
    "budgets_path",
    type=click.Path(exists=True, dir_okay=False),
    help="Budgets YAML (default: ./rknnprof.yaml, ./.rknnprof.yaml or ./.rknnprof.yml).",
)
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Saved JSON report or log to judge max_increase against (overrides the "
    "file's baseline:; - reads a log from stdin). A missing file makes relative budgets "
    "inconclusive.",
)
@click.option(
    "--save-baseline",
    type=click.Path(dir_okay=False),
    help="Also write this run's JSON report here (the next run's baseline).",
)
@click.option(
    "--allow-incomplete",
    is_flag=True,
    help="Judge a profile that cannot support a verdict (a cut, elided or fragmentary "
    "table, frames that disagree with their total line, a run under a debugger) instead of "
    "calling its budgets inconclusive.",
)
@click.option(
    "--fail-on-inconclusive",
    is_flag=True,
    help="Exit 1 when a budget is inconclusive (a broken capture, no baseline, a metric "
    "the log lacks) instead of letting it pass.",
)
@format_option("check")
@output_option("the verdict")
@fail_on_option(
    LEVELS[1:],
    "error",
    "Exit 1 on a failed budget of this level or a higher one (warn is taken for warning).",
)
@summary_option("the Markdown verdict")
@color_option()
@quiet_option()
def check(
    path: str,
    budgets_path: str | None,
    baseline: str | None,
    save_baseline: str | None,
    allow_incomplete: bool,
    fail_on_inconclusive: bool,
    fmt: str | None,
    output: str | None,
    fail_on: str,
    summary: bool,
    color: str,
) -> None:
    """CI gate: judge PATH (a log or a saved JSON report) against the budgets file.

    Exit 1 when an error-level budget fails (with --fail-on warning, also a warn-level one),
    0 otherwise; inconclusive budgets (a cut or elided table, no baseline, metric not in the
    log) do not fail unless --fail-on-inconclusive. With GITHUB_ACTIONS=true, failures become
    ::error annotations, and warn verdicts, unjudged budgets and input warnings ::warning.
    """
    from rknnprof.budgets import failing_statuses
    from rknnprof.cli import ci_outputs
    from rknnprof.cli.gate import BUDGET_FILES, find_budgets_file, run_check
    from rknnprof.cli.options import choose_format
    from rknnprof.cli.output import (
        emit,
        one_terminal,
        print_warnings,
        refuse_overwrite,
        render_options,
        require_stdin,
    )
    from rknnprof.reporters import renderer

    _startup_done()
    fmt = choose_format("check", fmt, output)
    if budgets_path is None:
        budgets_path = find_budgets_file()
        if budgets_path is None:
            raise click.UsageError(
                f"no --budgets given and none of {', '.join(BUDGET_FILES)} in the current folder"
            )
    require_stdin((path,))
    refuse_overwrite((path, budgets_path, *([baseline] if baseline else [])), o=output)
    # (--save-baseline over --baseline is the ratchet: the baseline is read first)
    refuse_overwrite((path, budgets_path), save_baseline=save_baseline)
    if save_baseline == "-":
        raise click.UsageError(
            "--save-baseline - would mix the baseline's JSON into the verdict on stdout: give a "
            "file"
        )
    if (
        save_baseline
        and output
        and output != "-"
        and os.path.abspath(save_baseline) == (os.path.abspath(output))
    ):
        raise click.UsageError(f"-o and --save-baseline are both {output}: give two files")
    result = run_check(path, budgets_path, baseline, save_baseline, allow_incomplete)
    if not (fmt == "table" and output in (None, "-") and one_terminal()):
        print_warnings(result.warnings)  # (the table on the terminal shows them already)
    buf = io.StringIO()
    options = replace(
        render_options(color, output), fail_on=fail_on, fail_on_inconclusive=fail_on_inconclusive
    )
    renderer("check", fmt)(result, buf, options)
    emit(buf.getvalue(), output, color=options.color)
    ci_outputs.annotate_check(result, fmt, output, fail_on_inconclusive, fail_on == "warning")
    if summary:
        ci_outputs.summarize_check(result, fail_on, fail_on_inconclusive)
    failing = failing_statuses(fail_on, fail_on_inconclusive)
    if any(result.count(status) for status in failing):
        raise SystemExit(EXIT_FAILED)


# -- the console script ----------------------------------------------------------------------


def _startup_done() -> None:
    """A command's modules are imported: when ``main`` paused the cyclic collector, freeze what
    exists (it lives until exit) and let the collector run again, for the input's objects."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
