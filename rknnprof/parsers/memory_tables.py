"""Tables that look like layer tables but hold no timing: recognised so nothing misreads them.

* RKNN_LOG_LEVEL=3 SRAM allocation table (06)::

      Total allocated Internal SRAM Size: 524288, Addr: [0xff3e0000, 0xff460000)
      ID  User           Tensor   DataType OrigShape      NativeShape      |     [Start       End)       Size |    SramHit
      1   ConvRelu       input0   INT8     (1,3,224,224)  (1,1,224,224,3)  | 0xff3b0000 0xff3d4c00 0x00024c00 | \\
      …
      Total Weight Memory Size: 4260864
      Predict Internal Memory RW Amount: 11068320

* The build-time tensor memory table (35), header not captured::

      67  OutputOperator output  INT8  NC1HWC2  (1,255,80,80)  (1,16,80,80,16)  | 0x001db000 0x0036b000 0x00190000

Both have ``|``-separated address groups with hex numbers, which no profile table has. The block
swallows the whole table (rules, header, rows, summary lines, a cut last row) and emits one
``NoteEvent(kind="table")`` saying what it was.
"""  # noqa: E501 (the quoted log lines keep their width)

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import NoteEvent
from rknnprof.parsers.table.tokens import is_int, is_op_type

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "memory-table"

_RULE = LazyPattern(r"^\s*[-+]{20,}\s*$")
_ADDRESS_ROW = LazyPattern(r"^\s*\d+\s.*\|\s*0x[0-9a-fA-F]+[\s*]+0x[0-9a-fA-F]+")
_HEADER = LazyPattern(r"^\s*ID\s+User\s+Tensor\s+DataType\b.*\|")
_SUMMARY = LazyPattern(
    r"^\s*(?:Total (?:allocated Internal SRAM|Weight Memory|Internal Memory) Size|"
    r"Predict [\w ]+ RW Amount)\s*:"
)


class _MemoryTable(Block):
    def __init__(self, line: Line) -> None:
        self.first_line = self.last_line = line.number
        self.stream = line.stream
        self.rows = 0
        self.sram = False
        self._take(line)

    def _take(self, line: Line) -> bool:
        text = line.text
        if _ADDRESS_ROW.match(text):
            self.rows += 1
        elif _HEADER.match(text) or _SUMMARY.match(text):
            self.sram = self.sram or "Sram" in text or "SRAM" in text
        elif _RULE.match(text):
            pass
        elif self.rows and self._is_cut_row(text):
            pass
        else:
            return False
        self.last_line = line.number
        return True

    @staticmethod
    def _is_cut_row(text: str) -> bool:
        tokens = text.split()
        return len(tokens) >= 2 and is_int(tokens[0]) and is_op_type(tokens[1]) and "|" not in text

    def feed(self, line: Line) -> bool:
        return self._take(line)

    def close(self) -> list[Event]:
        what = (
            "RKNN_LOG_LEVEL=3 SRAM allocation table"
            if self.sram
            else "tensor memory allocation table"
        )
        message = f"{what} ({self.rows} rows, addresses only, no timing)"
        return [NoteEvent(FAMILY, self.first_line, self.last_line, "table", message, self.stream)]


class MemoryTableParser(BlockParser):
    family = FAMILY
    detection = (
        "`|`-separated hex address columns (`| 0x… 0x… 0x…`), the `ID User Tensor DataType … |` "
        "header, or `Total … Memory Size:` / `Predict … RW Amount:` lines"
    )
    fields = "nothing to analyze: a note that an SRAM / tensor memory table was skipped"

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if ("|" in text and (_ADDRESS_ROW.match(text) or _HEADER.match(text))) or (
            ("Size" in text or "Amount" in text) and _SUMMARY.match(text)
        ):
            return _MemoryTable(line)
        return None
