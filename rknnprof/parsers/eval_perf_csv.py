"""The ``eval_perf.csv`` side file that toolkit2 1.5 writes next to the printed table (sample 08).

One line per layer, usually no header and no summary; shapes double-quoted; n/a is ``\\``. The
1.5 ``WorkLoad(0/1/2)-ImproveTherical`` cell ``100.0%/0.0%/0.0% - Up:0.0%`` comes out as three
fields (``100.0%/0.0%/0.0%``, ``-``, ``Up:0.0%``) because of its inner blanks::

    3,ConvLeakyRelu,FLOAT16,NPU,"(1,1,160,640),(16,1,3,3),(16)","(1,16,160,640)",589106,28800,589106,1435,2.01,100.0%/0.0%/0.0%,-,Up:0.0%,3,0,3402.31,Conv:Conv_0

Fields: ID, OpType, DataType, Target, InputShape, OutputShape, DDR/NPU/Total cycles, Time(us),
MacUsage, WorkLoad (+ ``-``, ``Up:``), then the tail columns of the board runtime — two
(``Task Number``, ``Lut Number``) or three (``Task Number``, ``Task Size``, ``Regcmd Size``) —
then RW(KB) and FullName. Tail values go to ``Layer.extra``. A header line (``ID,OpType,…``) is
accepted too; a ``SparseRatio`` column is recognised by header name or by value shape.
Each line is split with the :mod:`csv` module. Times in microseconds, RW in KB.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.model import Layer, SkippedRow
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import TableEvent
from rknnprof.parsers.table.layer import build_layer
from rknnprof.parsers.table.rows import TableLimits
from rknnprof.parsers.table.tokens import (
    is_int,
    is_number,
    is_shape_list,
    is_sparse_ratio,
    is_target,
    sparse_column_index,
)

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "toolkit2-eval_perf-csv"

_MIN_FIELDS = 15
_TAIL_NAMES = {
    2: ("Task Number", "Lut Number"),
    3: ("Task Number", "Task Size", "Regcmd Size"),
}


def _fields(text: str) -> list[str]:
    import csv  # here: only a line that looks like the CSV's needs it

    text = text.strip().removesuffix("`")  # the closing back-tick of a wrapped paste
    try:
        return [field.strip() for field in next(csv.reader([text]))]
    except (csv.Error, StopIteration):
        return []


def _looks_like_row(fields: list[str]) -> bool:
    return (
        len(fields) >= _MIN_FIELDS
        and is_int(fields[0])
        and is_target(fields[3])
        and is_shape_list(fields[4])
        and is_shape_list(fields[5])
        and all(is_int(value) for value in fields[6:10])
    )


def _is_header(fields: list[str]) -> bool:
    names = [f.lower() for f in fields[:4]]
    return names == ["id", "optype", "datatype", "target"]


def parse_row(fields: list[str], line: int, sparse_index: int | None = None) -> Layer:
    """One CSV row -> Layer. Raises ValueError / IndexError when the row is malformed."""
    workload = fields[11]
    improve = None
    rest = 12
    if " - Up:" in workload:  # one quoted field instead of three
        workload, improve = (part.strip() for part in workload.split(" - ", 1))
    elif len(fields) > 13 and fields[12] == "-" and fields[13].startswith("Up:"):
        improve, rest = fields[13], 14
    has_sparse = sparse_index is not None and sparse_index < len(fields)
    sparse = fields[sparse_index] if has_sparse else None  # type: ignore[index]  # has_sparse means sparse_index is an int
    tail = [v for i, v in enumerate(fields[rest:-2], start=rest) if i != sparse_index]
    if sparse is None:
        shaped = [value for value in tail if is_sparse_ratio(value)]
        if shaped:
            sparse = shaped[0]
            tail.remove(sparse)
    names = _TAIL_NAMES.get(len(tail), tuple(f"tail{i + 1}" for i in range(len(tail))))
    values = dict(
        zip(
            (
                "id",
                "op_type",
                "data_type",
                "target",
                "input",
                "output",
                "ddr",
                "npu",
                "total",
                "time",
                "mac",
            ),
            fields,
            strict=False,
        )
    )
    if "%" in workload:
        values["workload"] = workload
    if improve is not None:
        values["improve"] = improve.removeprefix("Up:")
    values.update((f"extra:{name}", value) for name, value in zip(names, tail, strict=True))
    rw_token = fields[-2]
    if not is_number(rw_token):
        raise ValueError(f"RW(KB) is not a number: {rw_token!r}")
    values["rw"], values["full_name"] = rw_token, fields[-1]
    if sparse is not None:
        values["sparse"] = sparse
    return build_layer(values, line, rw_float=True)


class _CsvTable(Block):
    def __init__(self, line: Line, header: list[str] | None) -> None:
        self.first_line = self.last_line = line.number
        self.stream = line.stream
        self.sparse_index = sparse_column_index(header) if header else None
        self.layers: list[Layer] = []
        self.skipped: list[SkippedRow] = []
        self.notes: list[tuple[int, str]] = []
        self.limits = TableLimits()

    def feed(self, line: Line) -> bool:
        text = line.text.strip()
        if not text:
            return True
        fields = _fields(text)
        if _looks_like_row(fields):
            if self.limits.full(len(self.layers), line.number, self.notes):
                pass
            else:
                try:
                    self.layers.append(parse_row(fields, line.number, self.sparse_index))
                except (ValueError, IndexError) as error:
                    self.limits.skip(
                        self.skipped,
                        SkippedRow(line.number, text[:200], f"bad CSV row: {error}"),
                        self.notes,
                    )
        elif len(fields) >= 2 and is_int(fields[0]) and self.layers:
            self.limits.skip(
                self.skipped,
                SkippedRow(line.number, text[:200], f"CSV row with {len(fields)} fields (cut?)"),
                self.notes,
            )
        else:
            return False
        self.last_line = line.number
        return True

    def close(self) -> list[Event]:
        return [
            TableEvent(
                family=FAMILY,
                line=self.first_line,
                last_line=self.last_line,
                layers=tuple(self.layers),
                skipped=tuple(self.skipped),
                notes=tuple(self.notes),
                stream=self.stream,
            )
        ]


class EvalPerfCsvParser(BlockParser):
    family = FAMILY
    detection = (
        'a comma-separated line shaped like ID, OpType, DataType, Target, "(shape)", '
        '"(shape)", DDR, NPU, Total, Time, … (or its ID,OpType,DataType,Target header)'
    )
    fields = "every column of the 1.5 table: shapes, cycles, time, MacUsage, WorkLoad, RW, FullName"

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if text.count(",") < _MIN_FIELDS - 1:
            return None
        fields = _fields(text)
        if _is_header(fields):
            return _CsvTable(line, fields)
        if _looks_like_row(fields):
            block = _CsvTable(line, None)
            block.feed(line)
            return block
        return None
