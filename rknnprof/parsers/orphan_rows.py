"""Per-layer table rows, or ranking rows, that no header introduced (a paste that lost its header
line, a 1.5 table whose header was cut off, ranking rows after a damaged line ended the ranking).
Registered last: only lines no other family wanted arrive here.

Columns cannot be known without the header (the 1.5 layout's tail varies between builds), so the
rows are not read: each becomes a :class:`~rknnprof.model.SkippedRow` (its reason
:data:`ORPHAN_NOTE`) and one warning names the lines, instead of the rows vanishing silently.
Headerless rows with the unambiguous 2.x shape
(``a/b/c`` cycles) never get here: :mod:`~rknnprof.parsers.toolkit2_table` reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import MissingHeader, TableEvent
from rknnprof.parsers.table.columns import FAMILY_15, MAX_PREFIX
from rknnprof.parsers.table.layer import skipped
from rknnprof.parsers.table.tokens import ELISION_RE, ROW_SEARCH_RE

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line

ORPHAN_NOTE = "rows without a header line: columns unknown, rows not read"
_RANKING_VALUE_RE = LazyPattern(r"^\d+(?:\.\d+)?%?$")


def _row_start(text: str) -> bool:
    m = ROW_SEARCH_RE.search(text)
    return m is not None and m.start(1) <= MAX_PREFIX


def _ranking_row(text: str) -> bool:
    """``<OpType> <4 to 6 numbers, the last may end in %>``: a ranking row."""
    tokens = text.split()
    return (
        5 <= len(tokens) <= 7
        and not _RANKING_VALUE_RE.match(tokens[0])
        and all(_RANKING_VALUE_RE.match(tok) for tok in tokens[1:])
    )


def _kind(text: str) -> str | None:
    if ("NPU" in text or "CPU" in text or "GPU" in text) and _row_start(text):
        return "table"
    if _ranking_row(text):
        return "ranking"
    return None


class OrphanRowsBlock(Block):
    def __init__(self, line: Line, kind: str) -> None:
        self.kind = kind
        self.stream = line.stream
        self.first_line = self.last_line = line.number
        self.rows = [skipped(line.number, line.text, ORPHAN_NOTE)]

    def feed(self, line: Line) -> bool:
        s = line.text.strip()
        if s and _kind(line.text) != self.kind and not ELISION_RE.match(s):
            return False
        if s and not ELISION_RE.match(s):
            self.rows.append(skipped(line.number, line.text, ORPHAN_NOTE))
        self.last_line = line.number
        return True

    def _note(self) -> str:
        """One warning for the rows (they are not warned about one by one)."""
        first, last = self.rows[0].line, self.rows[-1].line
        where = f" (lines {first}-{last})" if last != first else ""
        return (
            f"{len(self.rows)} {self.kind} row{'s' if len(self.rows) > 1 else ''}{where} without "
            "a header line: columns unknown, not read"
        )

    def close(self) -> list[TableEvent]:
        return [
            TableEvent(
                family=FAMILY_15,
                line=self.first_line,
                last_line=self.last_line,
                layers=(),
                skipped=tuple(self.rows),
                stream=self.stream,
                notes=((self.first_line, self._note()),),
                missing_header=MissingHeader.ORPHAN_ROWS,
            )
        ]


class OrphanRowsParser(BlockParser):
    family: ClassVar[str] = "orphan-rows"
    detection: ClassVar[str] = (
        "'<ID> <OpType> <DataType> <NPU|CPU|GPU> ...' rows, or '<OpType> <numbers>' ranking rows, "
        "that no header introduced (reported, not read)"
    )
    fields: ClassVar[str] = "nothing: a warning naming the lines"

    def opens(self, line: Line) -> Block | None:
        kind = _kind(line.text)
        return OrphanRowsBlock(line, kind) if kind is not None else None
