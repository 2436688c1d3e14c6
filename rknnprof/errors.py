"""Errors that reach the user. Each carries its exit code; ``cli.py`` is the only place that
turns them into an exit (one line on stderr, ``Error: <path>:<line>: <what>``)."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
"""A budget, regression or ``--fail-on`` level failed."""
EXIT_USAGE = 2
"""Usage error, bad config, missing path (click's own code for usage errors)."""
EXIT_NO_DATA = 3
"""The input was read but holds no RKNN profile data."""
EXIT_INTERRUPTED = 130
"""A second Ctrl-C."""
EXIT_BROKEN_PIPE = 141
"""The reader of stdout went away (``| head``): 128 + SIGPIPE, as a killed process reports."""


class RknnprofError(Exception):
    """Base of every error rknnprof reports to the user."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return f"{where}{self.message}"


class NoProfileDataError(RknnprofError):
    """The input was read but holds nothing rknnprof can analyze (exit 3)."""

    exit_code = EXIT_NO_DATA
    report: object | None = None
    """The (profile-less) ``model.Report`` with the inputs' known failures and warnings, for a
    JSON report of the diagnosis; set by ``api.analyze``."""


class InputError(RknnprofError):
    """The input cannot be read (exit 2)."""

    exit_code = EXIT_USAGE


class ConfigError(RknnprofError):
    """A budgets file, platform name or option value is wrong (exit 2)."""

    exit_code = EXIT_USAGE
