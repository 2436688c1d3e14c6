"""What :func:`rknnprof.parsers.scan` knows of each stream, shared with the bulk path's skipper
(:mod:`rknnprof.parsers.table.bulk`), which checks a frame against it before it claims one."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rknnprof.parsers.base import Block
    from rknnprof.parsers.events import Stream


class ScanState:
    """What :func:`rknnprof.parsers.scan` knows of each stream (shared with the skipper)."""

    def __init__(self) -> None:
        self.open_blocks: dict[Stream, Block] = {}
        self.carried: dict[tuple[Stream, type[Block]], object] = {}
        """The last ``hand_over`` per stream and block class."""
        self.opened_nothing: set[tuple[str, str | None, str | None]] = set()
        """(text, level, tag) of lines no parser opened a block on (scan passes over them)."""
        self.recording: dict[Stream, object] = {}
        """Streams whose frame scan is recording for the skipper."""
