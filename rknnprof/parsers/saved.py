"""Saved JSON reports (``rknnprof analyze -f json`` output) read back into model objects.

``compare`` and ``check`` accept either a log or a saved report on each side; a saved report is
recognised by its content (a JSON object with ``schema_version``), never by its suffix.

The dict <-> model conversion (and ``SCHEMA_VERSION``) is :mod:`rknnprof.schema`'s, shared with
the JSON reporter; this module reads files. A file that is not valid JSON raises
:class:`~rknnprof.errors.InputError` with a one-line message, like every schema error.
"""

from __future__ import annotations

import os
from pathlib import Path

from rknnprof import model
from rknnprof.errors import InputError
from rknnprof.inputs.lines import MAX_LINE_CHARS
from rknnprof.inputs.sanitize import clean
from rknnprof.schema import SCHEMA_VERSION, report_from_dict, report_to_dict

__all__ = [
    "SCHEMA_VERSION",
    "is_saved_report",
    "load_saved_report",
    "looks_like_saved_report",
    "report_from_dict",
    "report_to_dict",
]

_SNIFF_BYTES = 4096


def looks_like_saved_report(head: str) -> bool:
    """True when ``head`` (the start of a file) is a JSON object naming a ``schema_version``."""
    text = head.lstrip("\ufeff \t\r\n")
    return text.startswith("{") and '"schema_version"' in text[:_SNIFF_BYTES]


def is_saved_report(path: str | os.PathLike[str]) -> bool:
    """Sniff the first few KB of ``path`` (``False`` for ``-`` and unreadable files)."""
    if str(path) == "-":
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(_SNIFF_BYTES)
    except OSError:
        return False
    return looks_like_saved_report(head.decode("utf-8", errors="replace"))


def load_saved_report(path: str | os.PathLike[str]) -> model.Report:
    """Read a saved report from ``path``; :class:`InputError` when it is not one we can read."""
    import json  # here: a log's analysis never needs the decoder (1 ms of every start)

    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read saved report: {e}", str(path)) from None
    try:
        data = _clean_strings(json.loads(text, parse_constant=_refuse_constant))
    except json.JSONDecodeError as e:
        raise InputError(f"not a valid JSON report: {e.msg}", str(path), e.lineno) from None
    except ValueError as e:  # NaN / Infinity: not JSON, and no figure of ours is one
        raise InputError(f"not a valid JSON report: {e}", str(path)) from None
    except RecursionError:
        raise InputError("not a valid JSON report: nested too deeply", str(path)) from None
    return report_from_dict(data, str(path))


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _clean_strings(value: object) -> object:
    """Every string of a loaded report through the input boundary (``inputs.sanitize``) and
    the log reader's length cap: a saved report is as foreign as a log, and its names reach
    the terminal too."""
    if isinstance(value, str):  # capped as a log line is (inputs.lines.MAX_LINE_CHARS)
        return clean(value[:MAX_LINE_CHARS])
    if isinstance(value, dict):
        return {clean(k): _clean_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_strings(v) for v in value]
    return value
