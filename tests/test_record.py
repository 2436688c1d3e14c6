"""``model.record.Record`` gives every frozen dataclass declared on it (``eq=False,
repr=False``) the equality, hash and ``repr`` that ``dataclasses`` would have generated for it:
each class is checked against a twin dataclass generated with the same fields and flags."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil

import pytest

import rknnprof
from rknnprof.model.record import Record


def _record_classes() -> list[type]:
    for info in pkgutil.walk_packages(rknnprof.__path__, "rknnprof."):
        if info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    found: list[type] = []
    todo = list(Record.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__qualname__}")


CLASSES = _record_classes()


def _twin(cls: type) -> type:
    """``cls``'s fields with their flags, on a dataclass whose methods ``dataclasses`` makes."""
    specs = [
        (f.name, f.type, dataclasses.field(compare=f.compare, hash=f.hash, repr=f.repr))
        for f in dataclasses.fields(cls)
    ]
    twin = dataclasses.make_dataclass(cls.__name__, specs, frozen=True)
    twin.__qualname__ = cls.__qualname__
    return twin


def _made(cls: type, values: dict[str, object]) -> object:
    """An instance with these field values, made without ``__init__`` (no defaults, no checks)."""
    obj = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(obj, name, value)
    return obj


def test_the_declared_classes_are_found():
    names = {c.__qualname__ for c in CLASSES}
    assert {"Layer", "Profile", "Finding", "Report", "TableEvent", "Platform"} <= names
    for cls in CLASSES:
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen and not params.eq and not params.repr, cls


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_equality_hash_and_repr_are_the_generated_ones(cls):
    twin = _twin(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    values = {name: (name, i) for i, name in enumerate(names)}
    a, b = _made(cls, values), _made(cls, dict(values))
    ta, tb = _made(twin, values), _made(twin, dict(values))
    assert repr(a) == repr(ta)
    assert (a == b) is (ta == tb) is True
    assert hash(a) == hash(b)
    assert (a == ta) is False  # another class is never equal, as dataclasses has it
    for f in dataclasses.fields(cls):
        changed = {**values, f.name: ("other", f.name)}
        c, tc = _made(cls, changed), _made(twin, changed)
        assert (a == c) is (ta == tc), f.name
        assert (hash(a) == hash(c)) is (hash(ta) == hash(tc)), f.name
        assert repr(c) == repr(tc)
