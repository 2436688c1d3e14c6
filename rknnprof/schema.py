"""The JSON contract: :data:`SCHEMA_VERSION` and the conversion between model objects and the
plain dicts that ``json`` reads and writes. ``docs/json.md`` documents every key.

Both directions are generic over :mod:`rknnprof.model`: every dataclass field is a key of the
same name (enums as their string values, tuples as lists, nested dataclasses as objects), so the
writer (the JSON reporter, ``check --save-baseline``) and the reader (saved reports given to
``compare`` and ``check``) can never disagree. The exceptions are named here:

* :data:`PROFILE_ORDER`: the contract's profile keys come first, in this order; the rest follow
  in declaration order. ``total_time_us`` (a property of the model) is written, never read.
* :data:`AS_OBJECT`: (id, value) pair lists written as a JSON object ``{"<id>": value}``.

The reader ignores keys the model does not know (``total_time_us``, fields of a newer writer),
gives missing optional fields their defaults, and raises :class:`~rknnprof.errors.InputError`
with a one-line message for a wrong ``schema_version`` or a value of the wrong type.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any

from rknnprof import __version__, model
from rknnprof.errors import InputError

SCHEMA_VERSION = 1
"""The ``schema_version`` written, and the only one the reader accepts."""

PROFILE_ORDER = (
    "source",
    "format",
    "measured",
    "platform",
    "versions",
    "frames",
    "total_time_us",
    "reported_total_time_us",
    "layers",
    "findings",
)
"""The contract's first profile keys, in order."""

WRITTEN_PROPERTIES: dict[type, tuple[str, ...]] = {model.Profile: ("total_time_us",)}
"""Properties written beside the fields (whole floats as ints); the reader ignores them."""

AS_OBJECT: frozenset[tuple[type, str]] = frozenset({(model.Finding, "saving_by_layer")})
"""Fields of (id, value) pairs written as an object keyed by the id's text."""


# ---- writer ---------------------------------------------------------------------------------


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""Types written as they are (tested first: most values are)."""


@cache
def _written_fields(cls: type) -> tuple[tuple[str, bool], ...] | None:
    """A dataclass's (field name, written as an object) pairs, in order; None for any other
    type. Cached per class: ``dataclasses.fields`` for each of a report's ~5,000 values was
    most of the writer's time."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple((f.name, (cls, f.name) in AS_OBJECT) for f in dataclasses.fields(cls))


def to_jsonable(value: Any) -> Any:
    """Dataclasses -> dicts by field name, enums -> values, tuples -> lists."""
    cls: type = type(value)
    if cls in _PLAIN:
        return value
    fields = _written_fields(cls)
    if fields is not None:
        return {
            name: (
                _pairs_object(getattr(value, name))
                if as_object
                else to_jsonable(getattr(value, name))
            )
            for name, as_object in fields
        }
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


def _pairs_object(pairs: tuple[tuple[Any, Any], ...]) -> dict[str, Any]:
    return {str(key): to_jsonable(value) for key, value in pairs}


def _whole(x: float | None) -> float | None:
    return int(x) if isinstance(x, float) and x.is_integer() else x


def profile_to_dict(profile: model.Profile) -> dict[str, Any]:
    """One profile as the contract writes it: :data:`PROFILE_ORDER` first."""
    body = to_jsonable(profile)
    for name in WRITTEN_PROPERTIES[model.Profile]:
        body[name] = _whole(getattr(profile, name))
    ordered = {key: body.pop(key) for key in PROFILE_ORDER}
    ordered.update(body)
    return ordered


def report_to_dict(report: model.Report) -> dict[str, Any]:
    """The whole report as the contract writes it (``json.dump`` it)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "rknnprof_version": __version__,
        "profiles": [profile_to_dict(p) for p in report.profiles],
        "warnings": [to_jsonable(w) for w in report.warnings],
        "failures": [to_jsonable(f) for f in report.failures],
        "no_profile": report.no_profile,
    }


# ---- the keys, for docs/json.md ----------------------------------------------------------------


def contract() -> dict[str, dict[str, str | None]]:
    """Every object the writer produces, by class name, with its keys in writing order; each
    key maps to the class name of the object(s) it holds, or None for a plain value. The
    top-level object is ``Report``."""
    objects: dict[str, dict[str, str | None]] = {}

    def visit(cls: type) -> None:
        if cls.__name__ in objects:
            return
        keys: dict[str, str | None] = {}
        objects[cls.__name__] = keys
        for f in dataclasses.fields(cls):
            child = _dataclass_in(_hints(cls)[f.name])
            keys[f.name] = child.__name__ if child is not None else None
            if child is not None:
                visit(child)
        for name in WRITTEN_PROPERTIES.get(cls, ()):
            keys[name] = None
        if cls is model.Profile:
            objects[cls.__name__] = {k: keys[k] for k in (*PROFILE_ORDER, *keys)}

    visit(model.Report)
    objects["Report"] = {"schema_version": None, "rknnprof_version": None, **objects["Report"]}
    return objects


def _dataclass_in(tp: Any) -> type | None:
    """The dataclass a field type holds (through ``X | None`` and ``tuple[X, ...]``), if any."""
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return tp
    for arg in typing.get_args(tp):
        found = _dataclass_in(arg)
        if found is not None:
            return found
    return None


# ---- reader ---------------------------------------------------------------------------------


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
        kind = data.get("kind")
        if kind in ("check", "compare"):
            raise InputError(
                f"a {kind} report, not a saved analysis: give the log, or the report "
                "'rknnprof analyze -f json' wrote of it",
                path,
            )
        raise InputError("saved report has no 'profiles' list", path)
    report: model.Report = _build(model.Report, data, path, "")
    return report


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
        value = data[f.name]
        if (cls, f.name) in AS_OBJECT and isinstance(value, dict):
            value = [[_object_key(k, path, _join(where, f.name)), v] for k, v in value.items()]
        kwargs[f.name] = _convert(hints[f.name], value, path, _join(where, f.name))
    return cls(**kwargs)


def _object_key(key: str, path: str, where: str) -> int:
    try:
        return int(key)
    except ValueError:
        raise InputError(f"{where}: key {key!r} is not a layer id", path) from None


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
        return tuple(
            _convert(a, v, path, f"{where}[{i}]")
            for i, (a, v) in enumerate(zip(args, value, strict=True))
        )
    if dataclasses.is_dataclass(tp):
        return _build(tp, value, path, where)  # type: ignore[arg-type]  # tp is a field's type: a class, not an instance
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in tp)
            raise InputError(f"{where}: {value!r} is not one of {allowed}", path) from None
    return _plain(tp, value, path, where)


def _plain(tp: Any, value: object, path: str, where: str) -> Any:
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
