"""Per-layer table rows that no header introduced (a paste that lost its header line, a 1.5
table whose header was cut off). Registered last: only lines no other family wanted arrive here.

Columns cannot be known without the header (the 1.5 layout's tail varies between builds), so the
rows are not read: each becomes a :class:`~rknnprof.model.SkippedRow` and one warning names the
lines, instead of the rows vanishing silently. Headerless rows with the unambiguous 2.x shape
(``a/b/c`` cycles) never get here: :mod:`~rknnprof.parsers.toolkit2_table` reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rknnprof.parsers import _table as t
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import TableEvent

if TYPE_CHECKING:
    from rknnprof.lines import Line

ORPHAN_NOTE = "table rows without a header line: columns unknown, rows not read"


def _row_start(text: str) -> bool:
    m = t.ROW_SEARCH_RE.search(text)
    return m is not None and m.start(1) <= t.MAX_PREFIX


class OrphanRowsBlock(Block):
    def __init__(self, line: Line) -> None:
        self.stream = line.stream
        self.first_line = self.last_line = line.number
        self.rows = [t.skipped(line.number, line.text, ORPHAN_NOTE)]

    def feed(self, line: Line) -> bool:
        s = line.text.strip()
        if s and not _row_start(line.text) and not t.ELISION_RE.match(s):
            return False
        if s and not t.ELISION_RE.match(s):
            self.rows.append(t.skipped(line.number, line.text, ORPHAN_NOTE))
        self.last_line = line.number
        return True

    def close(self) -> list[TableEvent]:
        return [TableEvent(
            family=t.FAMILY_15, line=self.first_line, last_line=self.last_line, layers=(),
            skipped=tuple(self.rows), stream=self.stream,
            notes=((self.first_line, f"{len(self.rows)} {ORPHAN_NOTE}"),),
        )]


class OrphanRowsParser(BlockParser):
    family: ClassVar[str] = "orphan-rows"
    detection: ClassVar[str] = (
        "'<ID> <OpType> <DataType> <NPU|CPU|GPU> ...' rows that no table header introduced "
        "(reported, not read)")
    fields: ClassVar[str] = "nothing: a warning naming the lines"

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if ("NPU" in text or "CPU" in text or "GPU" in text) and _row_start(text):
            return OrphanRowsBlock(line)
        return None
