"""Every class declared ``@record`` (``model.record``) has the methods ``dataclasses`` generates
for a frozen dataclass: equality, hash and ``repr`` from ``Record``, ``__init__`` from the
committed ``model/_inits.py``, frozen attributes and pickling. Each class is checked against a
twin dataclass that ``dataclasses`` makes with the same fields, defaults and flags."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from rknnprof.model import _inits, write_inits
from rknnprof.model.record import MutableRecord, Record, record, replace

CLASSES = write_inits.record_classes()
FROZEN = [c for c in CLASSES if issubclass(c, Record)]
MUTABLE = [c for c in CLASSES if issubclass(c, MutableRecord)]


def _twin(cls: type) -> type:
    """``cls``'s fields with their flags, on a dataclass whose methods ``dataclasses`` makes."""
    specs = [
        (f.name, f.type, dataclasses.field(compare=f.compare, hash=f.hash, repr=f.repr))
        for f in dataclasses.fields(cls)
    ]
    twin = dataclasses.make_dataclass(cls.__name__, specs, frozen=issubclass(cls, Record))
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
    assert {"Template", "ModelFrames"} <= {c.__qualname__ for c in MUTABLE}
    for cls in CLASSES:
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert not params.init and not params.eq and not params.repr, cls


def test_the_generated_inits_are_written_from_the_classes_as_they_are():
    """``_inits.py`` is what ``python -m rknnprof.model.write_inits`` writes now: run it after
    changing a ``@record`` class's fields."""
    assert write_inits.TARGET.read_text(encoding="utf-8") == write_inits.text()


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_every_class_takes_its_init_from_the_generated_module(cls):
    generated = _inits.INITS[write_inits.key_of(cls)]
    assert cls.__init__.__code__ is generated.__code__
    assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
    # a docstring of its own: without one, dataclasses reads the signature of the class (with
    # no __init__ of its own yet) through the tokenizer, ~15 ms at the first class
    assert not cls.__doc__.startswith(f"{cls.__name__}("), "give the class a docstring"


def _full_twin(cls: type) -> type:
    """A frozen dataclass ``dataclasses`` makes with ``cls``'s fields and defaults."""
    specs = [
        (f.name, f.type, dataclasses.field(default=f.default, default_factory=f.default_factory))
        for f in dataclasses.fields(cls)
    ]
    return dataclasses.make_dataclass(cls.__name__, specs, frozen=True)


def _values_of(obj: object) -> dict[str, object]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_init_is_the_one_dataclasses_generates(cls):
    """Positional and keyword arguments, every default and default factory, the same errors:
    ``__post_init__`` left out of both (its effect is the class's own)."""
    twin = _full_twin(cls)
    every = dataclasses.fields(cls)
    required = [f.name for f in every if f.default is f.default_factory is dataclasses.MISSING]
    given = {name: (name, i) for i, name in enumerate(required)}
    post_init = getattr(cls, "__post_init__", None)
    if post_init is not None:
        cls.__post_init__ = lambda self: None
    try:
        made, made_twin = cls(**given), twin(**given)
        assert _values_of(made) == _values_of(made_twin)
        for f in every:  # a factory makes a new value each time, as the twin's does
            if f.default_factory is not dataclasses.MISSING:
                assert getattr(made, f.name) is not getattr(cls(**given), f.name)
        everything = {f.name: ("given", f.name) for f in every}
        assert _values_of(cls(*everything.values())) == everything
        assert _values_of(cls(**everything)) == everything
        with pytest.raises(TypeError, match=r"__init__\(\) got an unexpected keyword"):
            cls(**given, not_a_field=1)
        if required:
            with pytest.raises(TypeError, match=r"__init__\(\) missing"):
                cls()
    finally:
        if post_init is not None:
            cls.__post_init__ = post_init
    assert inspect.signature(cls).parameters.keys() == inspect.signature(twin).parameters.keys()


@pytest.mark.parametrize("cls", MUTABLE, ids=lambda c: c.__qualname__)
def test_a_mutable_record_is_set_and_unhashable_as_a_mutable_dataclass(cls):
    values = {f.name: ("v", f.name) for f in dataclasses.fields(cls)}
    obj = _made(cls, values)
    name = dataclasses.fields(cls)[0].name
    setattr(obj, name, 1)
    assert getattr(obj, name) == 1
    with pytest.raises(TypeError, match="unhashable"):
        hash(obj)
    assert _values_of(copy.deepcopy(obj)) == {**values, name: 1}


@pytest.mark.parametrize("cls", FROZEN, ids=lambda c: c.__qualname__)
def test_frozen_copied_and_pickled_as_a_frozen_dataclass(cls):
    values = {f.name: ("v", f.name) for f in dataclasses.fields(cls)}
    obj = _made(cls, values)
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{name}'"):
        setattr(obj, name, 1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'other'"):
        obj.other = 1  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{name}'"):
        delattr(obj, name)
    assert _values_of(copy.copy(obj)) == values
    assert _values_of(copy.deepcopy(obj)) == values
    if cls.__module__ != "rknnprof.rules.base":  # (a rule holds its check function)
        assert _values_of(pickle.loads(pickle.dumps(obj))) == values
    assert dataclasses.replace(obj, **{name: 2}).__getattribute__(name) == 2


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_replace_is_dataclasses_replace(cls):
    """``record.replace`` gives what ``dataclasses.replace`` gives: the same values, or the same
    error (a ``__post_init__`` refusing these values)."""
    values = {f.name: ("v", f.name) for f in dataclasses.fields(cls)}
    name = dataclasses.fields(cls)[-1].name
    results = []
    for replacing in (replace, dataclasses.replace):
        try:
            results.append(_values_of(replacing(_made(cls, values), **{name: 2})))
        except Exception as error:  # noqa: BLE001 - the errors are compared
            results.append(type(error))
    assert results[0] == results[1]
    if isinstance(results[0], dict):
        assert results[0] == {**values, name: 2}


def test_replace_leaves_other_fields_to_dataclasses():
    """A field that is no ``__init__`` argument: ``dataclasses.replace``'s own error; a class
    that is no record: ``dataclasses.replace``'s result."""

    @record
    class WithDerived(Record):
        kept: int
        derived: int = dataclasses.field(init=False, default=0)

    with pytest.raises(ValueError, match="init=False"):
        replace(WithDerived(kept=1), derived=2)
    assert replace(WithDerived(kept=1), kept=3).kept == 3

    @dataclasses.dataclass(frozen=True)
    class Plain:
        a: int
        b: int

    assert replace(Plain(1, 2), b=5) == Plain(1, 5)
    with pytest.raises(TypeError):
        replace(Plain(1, 2), c=5)


def test_a_class_the_module_does_not_hold_gets_the_init_dataclasses_makes():
    """A class declared after the module was written (a field added, say) is never wrong: it
    gets the ``__init__`` ``dataclasses`` generates, with its defaults and ``__post_init__``."""

    @record
    class Later(Record):
        """A class ``_inits.py`` does not know."""

        a: int
        b: tuple[int, ...] = dataclasses.field(default_factory=lambda: (1, 2))
        c: str = "c"

        def __post_init__(self) -> None:
            object.__setattr__(self, "c", self.c * 2)

    assert "Later" not in " ".join(_inits.INITS)
    made = Later(1)
    assert (made.a, made.b, made.c) == (1, (1, 2), "cc")
    assert Later(1, (3,), "x") == Later(a=1, b=(3,), c="x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Later()  # type: ignore[call-arg]


def test_record_refuses_a_class_of_the_other_base():
    with pytest.raises(TypeError, match="needs a Record subclass"):
        record(type("Plain", (MutableRecord,), {"__doc__": "x"}))
    with pytest.raises(TypeError, match=r"record\(frozen=False\) needs a MutableRecord"):
        record(frozen=False)(type("Plain", (Record,), {"__doc__": "x"}))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_equality_hash_and_repr_are_the_generated_ones(cls):
    twin = _twin(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    values = {name: (name, i) for i, name in enumerate(names)}
    a, b = _made(cls, values), _made(cls, dict(values))
    ta, tb = _made(twin, values), _made(twin, dict(values))
    own_repr = "__repr__" in cls.__dict__  # (a class's own repr is kept, as dataclasses keeps it)
    assert own_repr or repr(a) == repr(ta)
    assert (a == b) is (ta == tb) is True
    hashable = cls not in MUTABLE  # (dataclasses makes a mutable class with eq unhashable)
    assert hashable or cls.__hash__ is twin.__hash__ is None
    assert not hashable or hash(a) == hash(b)
    assert (a == ta) is False  # another class is never equal, as dataclasses has it
    for f in dataclasses.fields(cls):
        changed = {**values, f.name: ("other", f.name)}
        c, tc = _made(cls, changed), _made(twin, changed)
        assert (a == c) is (ta == tc), f.name
        assert not hashable or (hash(a) == hash(c)) is (hash(ta) == hash(tc)), f.name
        assert own_repr or repr(c) == repr(tc)
