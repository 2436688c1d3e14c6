"""Value equality, hashing and ``repr`` for frozen dataclasses, read from their fields once per
class instead of generated for each class.

``dataclasses`` writes every method it generates as source text and compiles it when the class
is made, at every start (no bytecode cache holds that code): ``__eq__``, ``__hash__`` and
``__repr__`` are three of a frozen class's six. A class declared
``@dataclass(frozen=True, slots=True, eq=False, repr=False)`` on :class:`Record` gets the three
from here, with the meaning ``dataclasses`` gives them: equal when of the same class and every
``compare`` field is equal; hashed over the ``hash`` fields (``compare`` ones when unset);
``ClassName(field=value, ...)`` over the ``repr`` fields. ``tests/test_record.py`` holds every
such class's methods equal to the ones ``dataclasses`` would generate.
"""

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

_Values = Callable[[Any], tuple[Any, ...]]


class Record:
    """Base of frozen dataclasses declared with ``eq=False, repr=False`` (see the module doc)."""

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
