"""Parser registry and the streaming dispatcher.

``PARSERS`` is an explicit tuple; order matters only where two families could open on the same
line (the first one wins). ``scan`` keeps one open :class:`~rknnprof.parsers.base.Block` per
stream key (logcat ``(pid, tid)``, or ``None`` for plain text), so tables printed by different
threads of one process do not mix.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rknnprof.lines import Line
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import Event, Stream
from rknnprof.parsers.orphan_rows import OrphanRowsParser
from rknnprof.parsers.ranking import RankingParser
from rknnprof.parsers.runtime_info import RuntimeInfoParser
from rknnprof.parsers.toolkit2_table import Toolkit2TableParser
from rknnprof.parsers.toolkit2_v15 import Toolkit2V15Parser

PARSERS: tuple[BlockParser, ...] = (
    # measured per-layer tables first: their headers are the most specific lines
    Toolkit2TableParser(),
    Toolkit2V15Parser(),
    RankingParser(),
    # other families (toolkit1, eval_perf.csv, estimated tables, totals, benchmark, fallback
    # warnings, NPU load) go here
    RuntimeInfoParser(),
    # last: table rows no header introduced (reported as skipped rows, never read)
    OrphanRowsParser(),
)


def scan(lines: Iterable[Line], path: str | None = None) -> Iterator[Event]:
    """Events found in ``lines``, in input order per stream. Streams: nothing is read ahead.

    ``path`` is accepted for symmetry with the assembler (events carry line numbers only).
    """
    open_blocks: dict[Stream, Block] = {}
    for line in lines:
        key = line.stream
        block = open_blocks.get(key)
        if block is not None:
            if block.feed(line):
                continue
            del open_blocks[key]
            yield from block.close()
        for parser in PARSERS:
            new = parser.opens(line)
            if new is not None:
                open_blocks[key] = new
                break
    for block in open_blocks.values():
        yield from block.close()


def families() -> tuple[BlockParser, ...]:
    """The registered parsers, for ``rknnprof formats``."""
    return PARSERS


__all__ = ["PARSERS", "Line", "families", "scan"]
