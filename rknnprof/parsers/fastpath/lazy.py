"""A sequence built on first use (:class:`Lazy`): the layers of a repeated table, the layers and
ranking stats of a frame read in bulk. Each behaves as the tuple it stands for (equal to it, same
length, order and items), so nothing downstream sees the difference."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class Lazy(Sequence[T]):
    """The tuple :meth:`_make` returns, made on first use. Subclasses that know their length
    without making the tuple override ``__len__``."""

    __slots__ = ("_built",)

    def __init__(self) -> None:
        self._built: tuple[T, ...] | None = None

    def _make(self) -> tuple[T, ...]:
        raise NotImplementedError

    def built(self) -> tuple[T, ...]:
        """The tuple, made now if it was not yet."""
        if self._built is None:
            self._built = self._make()
        return self._built

    def __len__(self) -> int:
        return len(self.built())

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...
    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self.built()[index]

    def __iter__(self) -> Iterator[T]:
        return iter(self.built())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lazy):
            other = other.built()
        return isinstance(other, tuple) and self.built() == other

    def __hash__(self) -> int:
        return hash(self.built())

    def __repr__(self) -> str:
        return repr(self.built())
