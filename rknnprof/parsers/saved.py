"""Saved JSON reports (``rknnprof analyze -f json`` output) read back into model objects.

``compare`` and ``check`` accept either a log or a saved report on each side; a saved report is
recognised by its content (a JSON object with ``schema_version``), never by its suffix.

The reader is generic over :mod:`rknnprof.model`: every dataclass field is read from the key of
the same name, enums from their string values, shapes from lists. Keys the model does not know
(``total_time_us``, fields of a newer writer) are ignored; missing optional fields take their
defaults. A file that is not valid JSON, has the wrong ``schema_version`` or holds a value of the
wrong type raises :class:`~rknnprof.errors.InputError` with a one-line message.

``report_to_dict`` is the matching writer (the JSON reporter's), kept here for symmetry.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from rknnprof import model
from rknnprof.errors import InputError

SCHEMA_VERSION = 1
"""The ``schema_version`` this reader understands."""

_SNIFF_BYTES = 4096


def looks_like_saved_report(head: str) -> bool:
    """True when ``head`` (the start of a file) is a JSON object naming a ``schema_version``."""
    text = head.lstrip("\ufeff \t\r\n")
    return text.startswith("{") and '"schema_version"' in text[:_SNIFF_BYTES]


def is_saved_report(path: str | Path) -> bool:
    """Sniff the first few KB of ``path`` (``False`` for ``-`` and unreadable files)."""
    if str(path) == "-":
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(_SNIFF_BYTES)
    except OSError:
        return False
    return looks_like_saved_report(head.decode("utf-8", errors="replace"))


def load_saved_report(path: str | Path) -> model.Report:
    """Read a saved report from ``path``; :class:`InputError` when it is not one we can read."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read saved report: {e}", str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"not a valid JSON report: {e.msg}", str(path), e.lineno) from None
    return report_from_dict(data, str(path))


def report_from_dict(data: object, path: str = "<report>") -> model.Report:
    """Build a :class:`~rknnprof.model.Report` from a decoded JSON report."""
    if not isinstance(data, dict):
        raise InputError("not a saved rknnprof report (top level is not an object)", path)
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise InputError(
            f"unsupported schema_version {version!r} (this rknnprof reads {SCHEMA_VERSION})", path
        )
    if not isinstance(data.get("profiles"), list):
        raise InputError("saved report has no 'profiles' list", path)
    return _build(model.Report, data, path, "")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(model))


def _build(cls: type, data: object, path: str, where: str) -> Any:
    if not isinstance(data, dict):
        raise InputError(f"{where or 'report'}: expected an object, got {_kind(data)}", path)
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise InputError(f"{where + '.' if where else ''}{f.name}: missing", path)
            continue
        kwargs[f.name] = _convert(hints[f.name], data[f.name], path, _join(where, f.name))
    return cls(**kwargs)


def _convert(tp: Any, value: object, path: str, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(tp)
        if value is None and type(None) in options:
            return None
        errors: list[InputError] = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _convert(option, value, path, where)
            except InputError as e:
                errors.append(e)
        raise errors[0]
    if origin is tuple:
        args = typing.get_args(tp)
        if isinstance(value, dict) and args and args[-1] is Ellipsis:
            value = list(value.items())  # {"Task Number": "3"} for tuple[tuple[str, str], ...]
        if not isinstance(value, list | tuple):
            raise InputError(f"{where}: expected a list, got {_kind(value)}", path)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, path, f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise InputError(f"{where}: expected {len(args)} items, got {len(value)}", path)
        return tuple(_convert(a, v, path, f"{where}[{i}]")
                     for i, (a, v) in enumerate(zip(args, value, strict=True)))
    if dataclasses.is_dataclass(tp):
        return _build(tp, value, path, where)
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in tp)
            raise InputError(f"{where}: {value!r} is not one of {allowed}", path) from None
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    elif tp is str:
        if isinstance(value, str):
            return value
    elif tp is Any or tp is object:
        return value
    raise InputError(f"{where}: expected {getattr(tp, '__name__', tp)}, got {_kind(value)}", path)


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), f"a {type(value).__name__}"
    )


# ---- writer ---------------------------------------------------------------------------------


def report_to_dict(report: model.Report) -> dict[str, Any]:
    """The DESIGN.md JSON contract for ``report``: the JSON reporter's writer, so that what
    ``check --save-baseline`` writes and ``analyze -f json`` prints can never differ."""
    from rknnprof.reporters.json_report import report_dict

    return report_dict(report)
