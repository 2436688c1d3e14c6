"""The RKNPU kernel driver version rknnprof holds as current enough, for every SoC: read by
RKN050 (a profile's driver) and by the assembler (a failure beside an old driver)."""

from __future__ import annotations

import re

MIN_DRIVER = (0, 9, 2)
"""Drivers older than this are flagged (User Guide §8.1.1 recommends at least 0.8.8)."""


def version_tuple(text: str | None) -> tuple[int, ...] | None:
    """``0.9.8`` -> (0, 9, 8); ``v1.2`` -> (1, 2, 0); None when ``text`` names no version."""
    match = re.match(r"\s*v?(\d+)\.(\d+)(?:\.(\d+))?", text or "")  # (re's own cache)
    return tuple(int(g) for g in match.groups(default="0")) if match else None


def min_driver_text() -> str:
    return ".".join(map(str, MIN_DRIVER))


def driver_too_old(driver: str | None) -> bool:
    """Whether ``driver`` (as the log prints it) is older than :data:`MIN_DRIVER`."""
    found = version_tuple(driver)
    return found is not None and found < MIN_DRIVER
