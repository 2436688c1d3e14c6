"""Shared pieces of the hostile-input tests: a real log with one name replaced, and a way to
run the command line in process."""

from __future__ import annotations

import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "yolov5s_rk3588_perf.txt"
FIRST_CONV = "Conv:/model.0/conv/Conv"
"""Layer 2's FullName in the sample: the largest layer (6030 us), so it is in every top list."""
LAYER_11, LAYER_36 = "Conv:/model.3/conv/Conv", "Conv:/model.7/conv/Conv"
"""FullNames of two ConvExSwish rows of the sample, at 779 us and 766 us."""


def distinct(frame: list[str], i: int) -> list[str]:
    """Frame ``i`` (0-199) of a capture that repeats the sample's table, with ``i`` us moved from
    layer 36 (766 us) to layer 11 (779 us): real frames differ by microseconds, and a frame
    equal to an earlier one in every row is a copy, counted once. The rows' sum, the total
    line and the ranking's ConvExSwish row stay as printed."""
    assert 0 <= i < 200
    out = list(frame)
    for name, time in ((LAYER_11, 779 + i), (LAYER_36, 766 - i)):
        [k] = [k for k, line in enumerate(out) if line.endswith(name)]
        old = f"{779 if name == LAYER_11 else 766:<13}"
        assert old in out[k]
        out[k] = out[k].replace(old, f"{time:<13}", 1)
    return out


def log_with_name(
    tmp_path: Path, name: str, file: str = "hostile.txt", replace: str = FIRST_CONV
) -> str:
    """The sample log with layer 2's FullName (or ``replace``) swapped for ``name``."""
    text = SAMPLE.read_text(encoding="utf-8")
    assert replace in text
    path = tmp_path / file
    path.write_text(text.replace(replace, name, 1), encoding="utf-8", newline="")
    return str(path)


def run(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    """``rknnprof ARGS`` through ``main()``: (exit code, stdout, stderr)."""
    from rknnprof.cli import main

    monkeypatch.setattr(sys, "argv", ["rknnprof", *args])
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err
