"""The "Operator Time Consuming Ranking Table" (2.x: GPU column, ``%`` ratios, a ``Total`` row
from later 2.x on) and the 1.5 ``Operator Time-Consuming Ranking:`` (no GPU column, no ``%``, no
``Total`` row). Columns come from the header; doc-edited headers with ``...`` in place of some
columns are read by name (a missing CPUTime is derived as Total - NPU - GPU, and said so).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from rknnprof.model import OpTypeStat, SkippedRow
from rknnprof.parsers._table import RULE_RE
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import RankingEvent

if TYPE_CHECKING:
    from rknnprof.lines import Line

_TITLES = ("Operator Time Consuming Ranking Table", "Operator Time-Consuming Ranking:")
_HEADER_RE = re.compile(r"(?:^|\s)OpType\s+Call\s?Number\s")
_VALUE_RE = re.compile(r"^\d+(?:\.\d+)?%?$")
_ALIASES = {
    "callnumber": "calls", "cputime(us)": "cpu", "gputime(us)": "gpu",
    "nputime(us)": "npu", "totaltime(us)": "total", "timeratio(%)": "ratio",
}


def _has_title(text: str) -> bool:
    return _TITLES[0] in text or _TITLES[1] in text  # not any(): this runs on every line


def _header_columns(text: str) -> list[str]:
    """Canonical column keys after OpType; ``...`` columns are dropped (they hold no values)."""
    start = text.index("OpType") + len("OpType")
    rest = re.sub(r"(Call|CPU|GPU|NPU|Total|Time)\s+(Number|Time|Ratio)", r"\1\2", text[start:])
    keys = []
    for word in rest.split():
        if set(word) == {"."}:
            continue
        keys.append(_ALIASES.get(word.lower(), word))
    return keys


def _num(tok: str) -> float:
    return float(tok.rstrip("%"))


class RankingBlock(Block):
    def __init__(self, line: Line) -> None:
        self.stream = line.stream
        self.first_line = self.last_line = line.number
        self.columns: list[str] | None = None
        self.stats: list[OpTypeStat] = []
        self.total: OpTypeStat | None = None
        self.skipped: list[SkippedRow] = []
        self.notes: list[tuple[int, str]] = []
        self.derived_cpu = False
        self.prefix_len = 0
        if _HEADER_RE.search(line.text):
            self._header(line)

    def _header(self, line: Line) -> None:
        self.columns = _header_columns(line.text)
        self.prefix_len = line.text.index("OpType")
        if "..." in line.text:
            self.notes.append((line.number, "ranking header has elided columns (`...`)"))
        if "cpu" not in self.columns and "total" in self.columns:
            self.derived_cpu = True
            self.notes.append((line.number, "ranking has no CPUTime column: CPU time taken as "
                               "TotalTime - NPUTime - GPUTime"))

    def _row(self, line: Line, tokens: list[str]) -> None:
        assert self.columns is not None
        op, values = tokens[0], tokens[1:]
        bad = next((v for v in values if not _VALUE_RE.match(v)), None)
        if op == "Total":
            keys = [k for k in self.columns if k not in ("calls", "ratio")]
        else:
            keys = self.columns
        if bad is not None or len(values) != len(keys):
            why = (f"{bad!r} is not a number" if bad is not None
                   else f"{len(values)} values for {len(keys)} columns")
            self.skipped.append(SkippedRow(line.number, " ".join(tokens)[:200], why))
            return
        v = {k: _num(x) for k, x in zip(keys, values, strict=True)}
        total = v.get("total", v.get("cpu", 0.0) + v.get("gpu", 0.0) + v.get("npu", 0.0))
        cpu = v["cpu"] if "cpu" in v else max(0.0, total - v.get("npu", 0.0) - v.get("gpu", 0.0))
        stat = OpTypeStat(
            op_type=op,
            calls=int(v.get("calls", sum(s.calls for s in self.stats))),
            cpu_time_us=_int(cpu),
            npu_time_us=_int(v.get("npu", 0.0)),
            total_time_us=_int(total),
            gpu_time_us=_int(v.get("gpu", 0.0)),
            share=round(v["ratio"] / 100, 6) if "ratio" in v else None,
        )
        if op == "Total":
            self.total = stat
        else:
            self.stats.append(stat)

    def _tokens(self, text: str) -> list[str]:
        """Row tokens, without the pasted prefix the header had (``D RKNN: [..] ``, indentation)."""
        body = text[self.prefix_len:] if len(text) > self.prefix_len else ""
        if self.prefix_len and body[:1].strip() and not text[: self.prefix_len].isspace():
            return body.split()
        return text.split()

    def feed(self, line: Line) -> bool:
        s = line.text.strip()
        if not s or RULE_RE.match(s) or _has_title(s):
            if self.stats and _has_title(s):
                return False  # the next table's title
            self.last_line = line.number
            return True
        if self.columns is None:
            if not _HEADER_RE.search(line.text):
                return False
            self._header(line)
            self.last_line = line.number
            return True
        tokens = self._tokens(line.text)
        if len(tokens) < 2 or not _VALUE_RE.match(tokens[1]) or _VALUE_RE.match(tokens[0]):
            return False
        self._row(line, tokens)
        self.last_line = line.number
        return True

    def close(self) -> list[RankingEvent]:
        if not self.stats and self.total is None:
            return []
        return [RankingEvent(
            line=self.first_line, last_line=self.last_line, stats=tuple(self.stats),
            total=self.total, stream=self.stream, skipped=tuple(self.skipped),
            notes=tuple(self.notes),
        )]


def _int(x: float) -> float:
    """Keep integral values as ``int`` so JSON prints ``1134``, not ``1134.0``."""
    return int(x) if float(x).is_integer() else x


class RankingParser(BlockParser):
    family: ClassVar[str] = "toolkit2-ranking"
    detection: ClassVar[str] = (
        "'Operator Time Consuming Ranking Table' / 'Operator Time-Consuming Ranking:' or an "
        "'OpType CallNumber ...' header")
    fields: ClassVar[str] = "per op type: calls, CPU/GPU/NPU/total time, time ratio; the Total row"

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if _has_title(text) or ("OpType" in text and _HEADER_RE.search(text)):
            return RankingBlock(line)
        return None
