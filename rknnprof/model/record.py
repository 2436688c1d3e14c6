"""Frozen dataclasses whose methods are ordinary code, not code compiled at every start.

``dataclasses`` writes each method it generates as source text and compiles it when the class
is made, at every start (no bytecode cache holds that code): six methods a frozen class. A
class declared ``@record`` (or ``@record(slots=False)``) on :class:`Record` is a dataclass whose
methods all come from code that is compiled once into its bytecode cache, like any module (a
mutable one, ``@record(frozen=False)`` on :class:`MutableRecord`, likewise but for the frozen
attributes: it is unhashable, as ``dataclasses`` makes it):

* ``__eq__``, ``__hash__``, ``__repr__``, ``__setattr__``, ``__delattr__`` (frozen) and the
  pickling pair are :class:`Record`'s, read from the class's fields once per class;
* ``__init__`` is the class's function in :mod:`rknnprof.model._inits`, a module written by
  ``python -m rknnprof.model.write_inits`` and committed; ``record`` gives it the defaults of
  the class's fields. A class the module does not hold as it is now (a field added and the
  module not written again) gets the ``__init__`` ``dataclasses`` makes, so it is never wrong,
  only slower; ``tests/test_record.py`` fails until the module is written again.

Every method has the meaning ``dataclasses`` gives it for ``frozen=True``: the tests hold each
class's methods equal to the ones ``dataclasses`` generates for a twin class. :func:`replace` is
``dataclasses.replace`` with the fields read in one call (analysis replaces every layer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING as _MISSING
from dataclasses import FrozenInstanceError, dataclass, fields, make_dataclass
from dataclasses import field as _field
from dataclasses import replace as _dataclasses_replace
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

from rknnprof.model import _inits

_Values = Callable[[Any], tuple[Any, ...]]
_T = TypeVar("_T", bound=type)
_R = TypeVar("_R")


class Record:
    """Base of the classes declared ``@record`` (see the module doc)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = _methods(self.__class__)[0]
        return compared(self) == compared(other)

    def __hash__(self) -> int:
        return hash(_methods(self.__class__)[1](self))

    def __repr__(self) -> str:
        shown = _methods(self.__class__)[2]
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({values})"

    def __setattr__(self, name: str, value: Any) -> None:
        if _frozen(self, name):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if _frozen(self, name):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    def __getstate__(self) -> list[Any]:
        return [getattr(self, f.name) for f in fields(self)]  # type: ignore[arg-type]

    def __setstate__(self, state: list[Any]) -> None:
        for f, value in zip(fields(self), state, strict=True):  # type: ignore[arg-type]
            object.__setattr__(self, f.name, value)


class MutableRecord:
    """Base of the classes declared ``@record(frozen=False)``: equality and ``repr`` as
    :class:`Record`'s, unhashable."""

    __slots__ = ()

    __eq__ = Record.__eq__
    __repr__ = Record.__repr__
    __hash__ = None  # type: ignore[assignment]  # as dataclasses makes a mutable class with eq


def _frozen(obj: Record, name: str) -> bool:
    """What a frozen dataclass refuses: any attribute of the class's own instances, a field's
    of a subclass's."""
    cls = type(obj)
    own = "__dataclass_fields__" in cls.__dict__
    return own or name in getattr(cls, "__dataclass_fields__", ())


@overload
def record(cls: _T, /) -> _T: ...
@overload
def record(*, slots: bool = True, frozen: bool = True) -> Callable[[_T], _T]: ...
@dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(_field,))
def record(cls: Any = None, /, *, slots: bool = True, frozen: bool = True) -> Any:
    """``@dataclass(frozen=frozen, slots=slots)`` for a :class:`Record` subclass (a
    :class:`MutableRecord` one when not frozen), its methods made as the module doc says."""

    def make(cls: type) -> type:
        if not issubclass(cls, Record if frozen else MutableRecord):
            base = "Record" if frozen else "MutableRecord"
            raise TypeError(f"@record{'' if frozen else '(frozen=False)'} needs a {base} subclass")
        made: type = dataclass(init=False, eq=False, repr=False, slots=slots)(cls)
        made.__init__ = _init(made)  # type: ignore[misc]
        return made

    return make if cls is None else make(cls)


def _init(cls: type) -> Callable[..., None]:
    """``cls``'s ``__init__``: its function in ``_inits`` given the fields' defaults, or the one
    ``dataclasses`` makes when ``_inits`` does not hold the class as it is now."""
    every = fields(cls)
    key = f"{cls.__module__}.{cls.__qualname__}"
    init = _inits.INITS.get(key)
    if init is None or _inits.FIELDS[key] != fingerprint(cls):
        init = _made_init(cls)
    else:
        init.__defaults__ = tuple(
            _inits.FACTORY if f.default is _MISSING else f.default
            for f in every
            if f.default is not _MISSING or f.default_factory is not _MISSING
        )
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def fingerprint(cls: type) -> str:
    """What ``__init__`` depends on of a dataclass: its fields' names in order, each marked
    ``=`` (a default) or ``=factory()``, and ``__post_init__`` when it has one."""
    parts = []
    for f in fields(cls):
        if f.default is not _MISSING:
            parts.append(f"{f.name}=")
        elif f.default_factory is not _MISSING:
            parts.append(f"{f.name}=factory()")
        else:
            parts.append(f.name)
    if hasattr(cls, "__post_init__"):
        parts.append("__post_init__")
    return " ".join(parts)


def _made_init(cls: type) -> Callable[..., None]:
    """The ``__init__`` ``dataclasses`` generates for a frozen twin of ``cls`` (same fields,
    defaults and ``__post_init__``), compiled now: it sets each field with
    ``object.__setattr__``, right for a mutable class too."""
    specs = [
        (f.name, f.type, _field(default=f.default, default_factory=f.default_factory))
        for f in fields(cls)
    ]
    namespace = {"__post_init__": cls.__post_init__} if hasattr(cls, "__post_init__") else {}
    twin = make_dataclass(cls.__name__, specs, frozen=True, eq=False, namespace=namespace)
    return twin.__init__  # type: ignore[no-any-return,misc]


_METHODS: dict[type, tuple[_Values, _Values, tuple[str, ...]]] = {}


def _methods(cls: type) -> tuple[_Values, _Values, tuple[str, ...]]:
    """The compared values, the hashed values and the shown names of ``cls``, made on first
    use."""
    found = _METHODS.get(cls)
    if found is None:
        every = fields(cls)
        compared = _values([f.name for f in every if f.compare])
        hashed = _values([f.name for f in every if (f.compare if f.hash is None else f.hash)])
        found = _METHODS[cls] = (compared, hashed, tuple(f.name for f in every if f.repr))
    return found


def _values(names: list[str]) -> _Values:
    """A function giving the tuple of an object's ``names`` attributes (``attrgetter``: one C
    call, as fast as the tuple a generated method builds)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


_INIT_FIELDS: dict[type, tuple[tuple[str, ...], _Values] | None] = {}


def replace(obj: _R, /, **changes: Any) -> _R:
    """``dataclasses.replace(obj, **changes)``: a new object of ``obj``'s class, ``changes``
    given to ``__init__`` with every other field's value. A record whose fields are all plain
    (each an ``__init__`` argument) reads them in one call instead of one field at a time;
    anything else is ``dataclasses.replace``'s."""
    cls = obj.__class__
    try:
        plan = _INIT_FIELDS[cls]
    except KeyError:
        plan = _INIT_FIELDS[cls] = _init_fields(cls)
    if plan is None:
        return _dataclasses_replace(obj, **changes)  # type: ignore[type-var]  # any dataclass
    names, values = plan
    given = dict(zip(names, values(obj)))
    given.update(changes)
    return cls(**given)


def _init_fields(cls: type) -> tuple[tuple[str, ...], _Values] | None:
    """The names of a record's fields and a function giving their values, when every one of
    them is an ``__init__`` argument (no ``init=False`` field, no ``InitVar``); else None."""
    if not issubclass(cls, (Record, MutableRecord)):
        return None
    declared = getattr(cls, "__dataclass_fields__", {})
    every = fields(cls)  # type: ignore[arg-type]  # a record is a dataclass
    if len(every) < 2 or len(every) != len(declared) or not all(f.init for f in every):
        return None
    names = tuple(f.name for f in every)
    return names, _values(list(names))
