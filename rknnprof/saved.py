"""Saved JSON reports (``rknnprof analyze -f json`` output) read back into model objects.

``compare`` and ``check`` accept either a log or a saved report on each side; a saved report is
recognised by its content (a JSON object with ``schema_version``), never by its suffix.

The dict <-> model conversion (and ``SCHEMA_VERSION``) is :mod:`rknnprof.schema`'s, shared with
the JSON reporter; this module reads files. A file that is not valid JSON raises
:class:`~rknnprof.errors.InputError` with a one-line message, like every schema error.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from rknnprof import model
from rknnprof.errors import InputError
from rknnprof.inputs.compressed import read_start
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

MAX_REPORT_BYTES = 64 * 1024 * 1024
"""Largest saved report read, in bytes: a 20,000-layer table's report is about 20 MB, and the
decoder holds about three times the file's size, so memory stays bounded by this."""

MAX_MAGNITUDE = 1e18
"""Largest number a saved report may hold: no figure of ours comes near it (a cycle count has
12 digits), and every sum, difference and ratio of such numbers stays a finite float."""


def looks_like_saved_report(head: str) -> bool:
    """True when ``head`` (the start of a file) is a JSON object naming a ``schema_version``."""
    text = head.lstrip("\ufeff \t\r\n")
    return text.startswith("{") and '"schema_version"' in text[:_SNIFF_BYTES]


_WRITTEN: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("HTML", lambda head: head.startswith("<!DOCTYPE html>") and "<title>rknnprof" in head),
    ("Markdown", lambda head: head.startswith("# rknnprof report")),
    ("CSV", lambda head: head.startswith("profile_index,source_path,format,platform,")),
    ("trace", lambda head: head.startswith('{"displayTimeUnit"') and '"rknnprof ' in head),
    ("JUnit", lambda head: head.startswith("<?xml") and '<testsuites name="rknnprof' in head),
)
"""Reports rknnprof writes, told by their first bytes (a JSON report: :func:`is_saved_report`)."""


def written_by_rknnprof(path: str | os.PathLike[str]) -> str | None:
    """``JSON``, ``HTML``, ``Markdown``, ``CSV``, ``trace`` or ``JUnit`` when the regular file at
    ``path`` is a report rknnprof wrote; else None (a FIFO or a device is not read ahead)."""
    if str(path) == "-" or not os.path.isfile(path):
        return None
    try:
        head = read_start(str(path), _SNIFF_BYTES).decode("utf-8", errors="replace")
    except (OSError, InputError):
        return None
    if looks_like_saved_report(head):
        return "JSON"
    head = head.lstrip("\ufeff")
    return next((kind for kind, told in _WRITTEN if told(head)), None)


def is_saved_report(path: str | os.PathLike[str]) -> bool:
    """Sniff the first few KB of ``path`` (``False`` for ``-`` and unreadable files)."""
    if str(path) == "-":
        return False
    try:
        head = read_start(str(path), _SNIFF_BYTES)  # (a gzip'd report too)
    except (OSError, InputError):
        return False
    return looks_like_saved_report(head.decode("utf-8", errors="replace"))


def load_saved_report(path: str | os.PathLike[str]) -> model.Report:
    """Read a saved report from ``path``; :class:`InputError` when it is not one we can read."""
    import json  # here: a log's analysis never needs the decoder (1 ms of every start)

    try:
        size = os.stat(path).st_size  # a regular file: refused before any read
        data_bytes = b""
        if size <= MAX_REPORT_BYTES:  # (compressed: its text is counted as it is read)
            data_bytes = read_start(str(path), MAX_REPORT_BYTES + 1)
        if size > MAX_REPORT_BYTES or len(data_bytes) > MAX_REPORT_BYTES:
            mb, rest = divmod(MAX_REPORT_BYTES, 1024 * 1024)
            limit = f"{mb} MB" if not rest else f"{MAX_REPORT_BYTES:,} bytes"
            raise InputError(f"saved report larger than {limit}", str(path))
        text = data_bytes.decode("utf-8-sig")
        del data_bytes
    except OSError as e:
        raise InputError(f"cannot read saved report: {e.strerror or e}", str(path)) from None
    except UnicodeDecodeError as e:
        raise InputError(
            f"cannot read saved report: not UTF-8 ({e.reason} at byte {e.start})", str(path)
        ) from None
    try:
        data = _clean_strings(
            json.loads(
                text,
                parse_constant=_refuse_constant,
                parse_float=_bounded_float,
                parse_int=_bounded_int,
            )
        )
    except json.JSONDecodeError as e:
        raise InputError(f"not a valid JSON report: {e.msg}", str(path), e.lineno) from None
    except ValueError as e:  # NaN / Infinity: not JSON, and no figure of ours is one
        raise InputError(f"not a valid JSON report: {e}", str(path)) from None
    except RecursionError:
        raise InputError("not a valid JSON report: nested too deeply", str(path)) from None
    return report_from_dict(data, str(path))


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _bounded_float(text: str) -> float:
    """A JSON number with a fraction or exponent; one past :data:`MAX_MAGNITUDE` (``1e400``,
    which ``float`` reads as infinity) is refused."""
    value = float(text)
    if not abs(value) <= MAX_MAGNITUDE:  # also NaN
        raise ValueError(f"number {_short(text)} is out of range")
    return value


def _bounded_int(text: str) -> int:
    """A JSON integer; one past :data:`MAX_MAGNITUDE` is refused before it is converted (a
    4,000-digit integer costs quadratic time, and no float holds it)."""
    if len(text) > 20 or abs(value := int(text)) > MAX_MAGNITUDE:
        raise ValueError(f"number {_short(text)} is out of range")
    return value


def _short(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:12]}…({len(text):,} characters)"


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
