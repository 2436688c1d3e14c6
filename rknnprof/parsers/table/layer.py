"""A :class:`~rknnprof.model.Layer` from the tokens of one table row: the one place every table
reader (printed toolkit2 tables, eval_perf.csv, build estimate, toolkit 1.x) builds layers.

A reader puts the row's tokens, as printed, under the printed tables' column keys
(:class:`~rknnprof.parsers.table.columns.Column`): ``id``, ``op_type``, ``data_type``,
``target``, ``input``, ``output``, ``cycles`` (``DDR/NPU/Total``) or ``ddr``/``npu``/``total``,
``time`` (us), ``mac`` (%), ``workload`` (%), ``rw`` (KB), ``full_name``, ``sparse``, ``improve``
(the 1.5 ``Up:`` value, with its ``%``) and ``extra:<header>`` for every other column, in printed
order. A key that is absent is a value the row does not give (None in the layer).
"""

from __future__ import annotations

from collections.abc import Mapping

from rknnprof.model import Layer, SkippedRow, Target
from rknnprof.parsers.table.tokens import (
    parse_cycles,
    parse_mac_usage,
    parse_shapes,
    parse_target,
    parse_workload,
    to_float,
    to_int,
    to_number,
)

_NO_SHAPES = (None, False)


def build_layer(values: Mapping[str, str], line: int, *, rw_float: bool = False) -> Layer:
    """The layer of a complete row (``line``: its 1-based input line). A number beyond the
    token bounds raises :class:`~rknnprof.parsers.table.tokens.NumberOutOfRange`.

    ``rw_float``: RW(KB) as a ``float`` even when integral (the eval_perf.csv and build-estimate
    readers have always stored it so; JSON prints ``19200.0``); else as printed (``19200``)."""
    cycles = values.get("cycles")
    ddr: int | None
    npu: int | None
    total: int | None
    if cycles is not None:
        ddr, npu, total = parse_cycles(cycles)
    else:
        ddr = to_int(values["ddr"]) if "ddr" in values else None
        npu = to_int(values["npu"]) if "npu" in values else None
        total = to_int(values["total"]) if "total" in values else None
    inputs, in_trunc = parse_shapes(values["input"]) if "input" in values else _NO_SHAPES
    outputs, out_trunc = parse_shapes(values["output"]) if "output" in values else _NO_SHAPES
    workload = values.get("workload")
    rw = values.get("rw")
    extra = [(k[6:], v) for k, v in values.items() if k.startswith("extra:")]
    if "improve" in values:
        extra.insert(0, ("ImproveTherical", values["improve"]))
    return Layer(
        id=to_int(values["id"]),
        op_type=values["op_type"],
        target=parse_target(values["target"]) if "target" in values else Target.UNKNOWN,
        data_type=values.get("data_type") or None,
        input_shapes=inputs,
        input_shapes_truncated=in_trunc,
        output_shapes=outputs,
        output_shapes_truncated=out_trunc,
        ddr_cycles=ddr,
        npu_cycles=npu,
        total_cycles=total,
        time_us=to_number(values["time"]) if "time" in values else None,
        mac_usage_pct=parse_mac_usage(values.get("mac")),
        workload_pct=parse_workload(workload) if workload else None,
        rw_kb=None if rw is None else to_float(rw) if rw_float else to_number(rw),
        full_name=values.get("full_name") or None,
        sparse_ratio=values.get("sparse"),
        extra=tuple(extra),
        line=line,
    )


def skipped(line: int, text: str, reason: str) -> SkippedRow:
    """A row that could not be read (``text`` stripped, cut at 200 characters)."""
    return SkippedRow(line=line, text=text.strip()[:200], reason=reason)
