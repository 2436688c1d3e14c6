"""The contract between the reader and a *skipper*: a later stage that recognises, in the raw
bytes, runs of lines it has already learnt to read (the next frame of a repeated table) and
reads them itself, in bulk, instead of line by line.

:func:`~rknnprof.inputs.lines.read_lines` given a :class:`Skipper` asks it, at line starts of
UTF-8 input without carriage returns, for the next place where such a run may begin
(:meth:`Skipper.find`) and then whether it claims the run there (:meth:`Skipper.claim`). A claimed
run is not decoded or split by the reader: the reader yields the skipper's :class:`Claim` in its
place, and the lines inside the run that the skipper did not claim (lines of other logcat
streams, interleaved), read as usual with their own line numbers, all in line order (a claim
at its first line's number). A claim may also take lines past the run's end (the rest of a
frame whose title is inside the run): the skipper then claims the next run at the run's end
and leaves those lines out of it. Anything the skipper is not
sure of, it declines: the reader then reads those bytes line by line, so a skipper changes how
fast the input is read, never what is read.

The reader is a lazy generator: when it calls the skipper, every line before the run has been
yielded and consumed, so a skipper may base its answer on what the consumer has seen so far.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple, Protocol

from rknnprof.inputs.records import Line

if TYPE_CHECKING:
    from rknnprof.inputs._prefixes import OtherLayouts
    from rknnprof.inputs.records import ReadStats


class Claim:
    """Base class of what a skipper yields through the reader in place of a run of lines."""

    __slots__ = ()
    number: int
    """Line number of the run's first line."""


class Claimed(NamedTuple):
    """A run of lines claimed at offset ``start`` of the data."""

    end: int
    """Offset just after the run's last line (its newline included)."""
    lines: int
    """Physical lines from ``start`` to ``end``, unclaimed ones included."""
    claims: tuple[Claim, ...]
    """What the skipper read, in line order (by ``Claim.number``)."""
    kept: tuple[tuple[int, bytes], ...]
    """(line number, raw line) of the lines inside the run that the skipper did not claim, in
    order: the reader reads them as usual and yields them among ``claims`` by line number."""


NEED_MORE = "more"
"""What :meth:`Skipper.claim` returns when the run may go on past the data it was given."""

ReadLine = Callable[[bytes, int], Line | None]
"""The reader's own reading of one raw line (without its newline) at a line number: the
:class:`Line` it would yield, or None for a line it drops (a logcat divider or chatty line)."""


class Skipper(Protocol):
    version: int
    """Changes when what the skipper looks for changes (a place :meth:`find` did not find
    before may be found now)."""

    def find(self, data: bytes, start: int) -> int:
        """Offset of the first line start at or after ``start`` where a run may begin, or -1."""

    def claim(
        self, data: bytes, start: int, number: int, final: bool, read_line: ReadLine
    ) -> Claimed | str | None:
        """Claim the run of lines beginning at ``start`` (a line start; ``number`` is that
        line's number): a :class:`Claimed`, :data:`NEED_MORE` (give me more data; never when
        ``final``, the end of input), or None (not a run: read it line by line)."""

    def reads(self, read: Callable[[int], bytes], stats: ReadStats, other: OtherLayouts) -> Reads:
        """The reads of an input with this skipper's runs taken out (``read``: the input's;
        ``stats`` and ``other``: the reader's counts and layout state)."""


class Reads(Protocol):
    """The reads :func:`~rknnprof.inputs.lines.read_lines` makes through a skipper."""

    def start(self, encoding: str, head: bytes) -> bytes:
        """After the first read (its encoding sniffed): what of ``head`` the reader decodes
        now; the skipper may claim runs from there on."""

    def read(self, size: int) -> bytes | Claimed:
        """The next bytes of the input, or a run claimed at a line start."""

    def lines(self, claimed: Claimed) -> Iterator[Line | Claim]:
        """A claimed run's claims and the lines it kept (read as the reader reads them), in
        line order."""
