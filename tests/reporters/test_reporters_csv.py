"""CSV: one row per layer with every Layer field; pandas reads back the same numbers."""

from __future__ import annotations

import io
from dataclasses import fields

import pandas as pd

import rknnprof
from rknnprof.model import Layer

from .report_samples import HAND_LAYERS, HAND_REPORT, NO_LAYERS_REPORT, render


def test_round_trip_with_pandas() -> None:
    df = pd.read_csv(io.StringIO(render("csv", HAND_REPORT)))
    assert list(df.columns)[:6] == [
        "profile_index",
        "source_path",
        "format",
        "platform",
        "frames",
        "measured",
    ]
    assert list(df.columns)[6:] == [f.name for f in fields(Layer)]
    assert len(df) == 12
    assert df["time_us"].sum() == 11640
    assert list(df["id"]) == list(range(1, 13))
    assert df.loc[df.id == 2, "ddr_cycles"].item() == 164250
    assert df.loc[df.id == 2, "input_shapes"].item() == "1x3x640x640;16x3x3x3;16"
    assert df.loc[df.id == 7, "workload_pct"].item() == "33.3;33.3;33.3"
    assert df.loc[df.id == 8, "full_name"].item() == "Transpose:/model.22/dfl/Transpose|a"
    assert df.loc[df.id == 8, "target"].item() == "CPU"
    assert pd.isna(df.loc[df.id == 1, "input_shapes"].item())  # "\" in the log
    assert set(df["bound"]) == {"cpu", "compute", "bandwidth", "unknown", "balanced"}
    for layer in HAND_LAYERS:
        row = df[df.id == layer.id].iloc[0]
        assert row["time_us"] == layer.time_us
        assert row["rw_kb"] == layer.rw_kb


def test_only_layer_profiles_give_rows() -> None:
    df = pd.read_csv(io.StringIO(render("csv", NO_LAYERS_REPORT)))
    assert list(df["profile_index"]) == [3, 3, 3]  # only the estimate has layers
    assert not df["measured"].any()


def test_profile_to_frame() -> None:
    frame = rknnprof.to_frame(HAND_REPORT.profiles[0])
    assert len(frame) == 12
    assert str(frame["ddr_cycles"].dtype) == "Int64"
    assert frame["time_us"].sum() == 11640
