"""Parsing, the stage between input lines and assembly: clean lines -> events.

``PARSERS`` is an explicit tuple; order matters only where two families could open on the same
line (the first one wins). ``scan`` keeps one open :class:`~rknnprof.parsers.base.Block` per
stream key (logcat ``(pid, tid)``, or ``None`` for plain text), so tables printed by different
threads of one process do not mix. The events go on to :mod:`rknnprof.assemble` (never imported
here): frames merged into profiles.

Where to add a parser: one module here with one ``BlockParser`` (contract: ``base.py``; a literal
``in`` test first in ``opens``), emitting ``events.py`` records, placed in ``PARSERS`` where its
first line must win; tests with values read from a log in ``tests/parsers/``.
A table reader reads cells with ``table/tokens.py`` and makes layers with
``table/layer.py:build_layer`` (a printed toolkit2 layout: a header rule in ``table/columns.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from rknnprof.inputs.claims import Claim
from rknnprof.inputs.lines import Line
from rknnprof.parsers.app_time import AppTimeParser
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.benchmark import BenchmarkParser
from rknnprof.parsers.build_table import BuildTableParser
from rknnprof.parsers.error_reports import ErrorReportParser
from rknnprof.parsers.eval_perf_csv import EvalPerfCsvParser
from rknnprof.parsers.events import Event, Stream
from rknnprof.parsers.fallback_warnings import FallbackWarningParser
from rknnprof.parsers.fastpath.frame import BulkFrame
from rknnprof.parsers.fastpath.scan_state import ScanState
from rknnprof.parsers.fastpath.skipper import FrameSkipper
from rknnprof.parsers.fastpath.skipper import enabled as fastpath_enabled
from rknnprof.parsers.known_failures import KnownFailureParser
from rknnprof.parsers.markdown_table import MarkdownTableParser
from rknnprof.parsers.memory_tables import MemoryTableParser
from rknnprof.parsers.npu_load import NpuLoadParser
from rknnprof.parsers.orphan_rows import OrphanRowsParser
from rknnprof.parsers.ranking import RankingParser
from rknnprof.parsers.rkllm import RkllmParser
from rknnprof.parsers.run_lines import RunLineParser
from rknnprof.parsers.runtime_info import RuntimeInfoParser
from rknnprof.parsers.shell_commands import ShellCommandParser
from rknnprof.parsers.table.tokens import NumberOutOfRange
from rknnprof.parsers.toolkit1 import Toolkit1TableParser
from rknnprof.parsers.toolkit2_table import Toolkit2TableParser
from rknnprof.parsers.toolkit2_v15 import Toolkit2V15Parser
from rknnprof.parsers.totals import TotalsParser

PARSERS: tuple[BlockParser, ...] = (
    # one-line records with a literal test first: cheap, and their words can sit inside other
    # families' lines only as whole messages; the catalogue's failures before the error and
    # version lines they also are
    KnownFailureParser(),
    FallbackWarningParser(),
    NpuLoadParser(),
    RunLineParser(),
    # RKLLM statistics and init lines (before runtime info, which would take their versions)
    RkllmParser(),
    AppTimeParser(),
    # measured per-layer tables: their headers are the most specific lines (a pipe-table header
    # is a header line with its own cell syntax)
    MarkdownTableParser(),
    Toolkit2TableParser(),
    Toolkit2V15Parser(),
    Toolkit1TableParser(),
    EvalPerfCsvParser(),
    # the build-time estimate: after the measured tables, which decline its Time-less header
    BuildTableParser(),
    RankingParser(),
    TotalsParser(),
    # look-alike tables with no timing (SRAM / tensor memory): recognised, never layers
    MemoryTableParser(),
    # before runtime info: the benchmark's `rknn_api/rknnrt version:` line belongs to its block
    BenchmarkParser(),
    # a shell prompt's command (run as root?), and the versions or SoC it names, before runtime
    # info, which would take a command naming them
    ShellCommandParser(),
    RuntimeInfoParser(),
    # error lines and tracebacks, which only explain an empty result
    ErrorReportParser(),
    # last: table or ranking rows no header introduced (reported as skipped rows, never read)
    OrphanRowsParser(),
)


MAX_REMEMBERED = 4096
"""Distinct lines that opened no block remembered by ``scan`` (then it starts over)."""


def scan(
    lines: Iterable[Line | Claim], path: str | None = None, skipper: FrameSkipper | None = None
) -> Iterator[Event]:
    """Events found in ``lines``, in input order per stream. Streams: nothing is read ahead.

    ``path`` is accepted for symmetry with ``assemble`` (events carry line numbers only).
    ``skipper``: the :class:`~rknnprof.parsers.fastpath.skipper.FrameSkipper` given to the reader
    (``read_lines(..., skipper=)``), if any: ``scan`` shows it the frames read exactly (so it
    learns the stream's frame) and takes the frames it read in bulk (:class:`BulkFrame`).
    """
    state = skipper.state if skipper is not None else ScanState()
    open_blocks: dict[Stream, Block] = state.open_blocks
    carried = state.carried  # the last hand_over per stream/class
    opened_nothing = state.opened_nothing  # logcat repeats many messages
    recording = state.recording  # frames the skipper learns from
    aside = state.aside  # blocks opened on lines an open block passed over

    def close(key: Stream, block: Block) -> Sequence[Event]:
        events = block.close()
        handed = block.hand_over()
        if handed is not None:
            carried[key, type(block)] = handed
        rec = recording.get(key)
        if rec is not None:
            rec.closed(block, events)
            if rec.done:
                del recording[key]
        return events

    def opened(line: Line, key: Stream, record: bool = True) -> Block | None:
        """The block ``line`` opens (its stream's carried state handed to it), if any;
        ``record``: a frame the skipper learns from may start there."""
        seen = (line.text, line.level, line.tag)
        if seen in opened_nothing:
            return None
        for parser in PARSERS:
            try:
                new = parser.opens(line)
            except NumberOutOfRange:  # a damaged first line opens nothing
                continue
            if new is not None:
                handed = carried.get((key, type(new)))
                if handed is not None:
                    new.take_over(handed)
                    if record and skipper and (rec := skipper.recording(key, handed, line)):
                        recording[key] = rec
                return new
        if len(opened_nothing) >= MAX_REMEMBERED:
            opened_nothing.clear()
        opened_nothing.add(seen)
        return None

    def fed(block: Block, line: Line) -> bool:
        try:
            return block.feed(line)
        except NumberOutOfRange as e:  # a 400-digit figure: damage, the line is skipped
            block.damaged(line, str(e))
            return True

    for line in lines if skipper is None else skipper.checked(lines):
        if line.__class__ is not Line:  # a frame the skipper read, fitting the stream's state
            frame: BulkFrame = line  # type: ignore[assignment]
            key = frame.stream
            block = open_blocks.pop(key, None)
            if block is not None:
                yield from close(key, block)
            if key in aside:  # (the skipper takes no frame while one is open: see _state_fits)
                yield from close(key, aside.pop(key))
            recording.pop(key, None)
            yield frame.table
            open_blocks[key] = frame.ranking
            continue
        key = line.stream
        rec = recording.get(key)
        if rec is not None:
            rec.lines.append(line)
        block = open_blocks.get(key)
        if block is not None:
            try:
                taken = block.feed(line)
            except NumberOutOfRange as e:  # a 400-digit figure: damage, the line is skipped
                block.damaged(line, str(e))
                taken = True
            if taken:
                if aside and key in aside:  # the block goes on after the lines it passed over
                    yield from close(key, aside.pop(key))
                continue
            if block.passes_over(line):  # read on its own, beside the open block
                other = aside.get(key)
                if other is not None:
                    if fed(other, line):
                        continue
                    del aside[key]
                    yield from close(key, other)
                new = opened(line, key, record=False)
                if new is not None:
                    aside[key] = new
                continue
            del open_blocks[key]
            yield from close(key, block)
            other = aside.pop(key, None)
            if other is not None:  # the block ended where it was: what it passed over goes on
                if fed(other, line):
                    open_blocks[key] = other
                    continue
                yield from close(key, other)
        new = opened(line, key)
        if new is not None:
            open_blocks[key] = new
    for key, block in list(open_blocks.items()):
        yield from close(key, block)
        if key in aside:
            yield from close(key, aside.pop(key))


def families() -> tuple[BlockParser, ...]:
    """The registered parsers, for ``rknnprof formats``."""
    return PARSERS


__all__ = ["PARSERS", "FrameSkipper", "Line", "families", "fastpath_enabled", "scan"]
