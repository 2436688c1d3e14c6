"""Profiles as pandas DataFrames: one row per layer, the column names of :class:`Layer`.

:func:`to_frame` is the notebook API (``rknnprof.to_frame(profile)``); the CSV reporter writes
:func:`report_frame`. pandas is imported inside the functions, so importing this module costs
nothing. Text forms
(also what the CSV reporter writes):

* shapes: ``1x3x640x640;16x3x3x3;16`` (``;...`` appended when the log elided more shapes);
* ``workload_pct``: ``100.0;0.0;0.0`` (percent per NPU core);
* ``extra``: ``Task Number=12;Lut Number=0``;
* ``onnx_nodes``: ``/model.0/conv/Conv;/model.0/act/Mul``;
* enums (``target``, ``bound``, ``bound_basis``): their string values.

Integer columns that may be missing (cycles, ids, line) use pandas' nullable ``Int64``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

from rknnprof.model import Layer, Profile, Report, Shape

if TYPE_CHECKING:
    import pandas as pd

PROFILE_COLUMNS: tuple[str, ...] = (
    "profile_index",
    "source_path",
    "format",
    "platform",
    "frames",
    "measured",
)
"""Columns that repeat the profile on every row, before the layer columns."""

LAYER_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Layer))
"""Every :class:`Layer` field, in declaration order."""

_INT_COLUMNS = ("id", "ddr_cycles", "npu_cycles", "total_cycles", "line", "profile_index", "frames")
_FLOAT_COLUMNS = ("time_us", "time_min_us", "time_max_us", "mac_usage_pct", "rw_kb", "time_share")


def shapes_text(shapes: tuple[Shape, ...] | None, truncated: bool = False) -> str | None:
    """``((1, 3, 640, 640), (16,))`` -> ``1x3x640x640;16``; None stays None."""
    if shapes is None:
        return None
    text = ";".join("x".join(str(d) for d in shape) for shape in shapes)
    return text + (";..." if truncated else "")


def _cell(name: str, value: Any) -> Any:
    if name in ("input_shapes", "output_shapes"):
        return shapes_text(value)
    if name == "workload_pct":
        return (
            None
            if value is None
            else ";".join(f"{v:g}" if v != int(v) else f"{v:.1f}" for v in value)
        )
    if name == "extra":
        return ";".join(f"{k}={v}" for k, v in value) or None
    if name == "onnx_nodes":
        return ";".join(value) or None
    if hasattr(value, "value") and not isinstance(value, (int, float)):
        return value.value  # StrEnum
    return value


def layer_records(profile: Profile, profile_index: int = 0) -> list[dict[str, Any]]:
    """One plain dict per layer with :data:`PROFILE_COLUMNS` + :data:`LAYER_COLUMNS`."""
    head: dict[str, Any] = {
        "profile_index": profile_index,
        "source_path": profile.source.path,
        "format": profile.format,
        "platform": profile.platform,
        "frames": profile.frames,
        "measured": profile.measured,
    }
    records = []
    for layer in profile.layers:
        row = dict(head)
        for name in LAYER_COLUMNS:
            row[name] = _cell(name, getattr(layer, name))
        if layer.input_shapes_truncated and row["input_shapes"] is not None:
            row["input_shapes"] += ";..."
        if layer.output_shapes_truncated and row["output_shapes"] is not None:
            row["output_shapes"] += ";..."
        records.append(row)
    return records


def _frame(records: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    df = pd.DataFrame.from_records(records, columns=[*PROFILE_COLUMNS, *LAYER_COLUMNS])
    for column in _INT_COLUMNS:
        df[column] = df[column].astype("Int64")
    for column in _FLOAT_COLUMNS:
        df[column] = df[column].astype("Float64")
    return df


def profile_frame(profile: Profile, profile_index: int = 0) -> pd.DataFrame:
    """One profile's layers as a DataFrame (empty, with all columns, when it has no layers)."""
    return _frame(layer_records(profile, profile_index))


def report_frame(report: Report) -> pd.DataFrame:
    """Every profile's layers stacked, ``profile_index`` telling them apart."""
    records = [row for i, p in enumerate(report.profiles) for row in layer_records(p, i)]
    return _frame(records)


def to_frame(data: Profile | Report) -> pd.DataFrame:
    """A profile's layers (or every profile's, for a report) as a DataFrame, the CSV's columns.

    ``rknnprof.to_frame(rknnprof.load("perf.txt")[0]).groupby("bound")["time_us"].sum()``."""
    if isinstance(data, Report):
        return report_frame(data)
    return profile_frame(data)
