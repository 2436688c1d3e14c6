"""The RKNPU kernel driver version rknnprof holds as current enough, for every SoC: read by
RKN050 (a profile's driver) and by the assembler (a failure beside an old driver)."""

from __future__ import annotations

import re

MIN_DRIVER = (0, 8, 8)
"""Drivers older than this are flagged: the RKNN SDK User Guide (§8.1.1) recommends at least
0.8.8, and librknnrt 2.x says so at init beside an older one (``Current driver version:
0.8.2, recommend to upgrade the driver to the new version: >= 0.8.8``, airockchip/rknn-toolkit2
issue 95). librknnrt 1.x ran with 0.8.x drivers (issue 38: 1.6.0 on 0.8.2 runs the MobileNet
demo)."""
ASKING_RUNTIME = (2, 0)
"""librknnrt from this version asks for :data:`MIN_DRIVER` itself."""
FIXED_BY: dict[tuple[int, ...], str] = {(0, 9, 3): "0.9.6"}
"""RKNPU driver releases with a public ``failed to submit`` report that a later one fixed ->
that one: 0.9.3 (Radxa's Linux 6.1 images) fails rknn_mobilenet_demo's first conv under
librknnrt 1.6.0, where 0.8.2 runs it, and 0.9.6 fixes it (radxa/kernel issue 312,
airockchip/rknn-toolkit2 issue 38)."""


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


def fixed_by(driver: str | None) -> str | None:
    """The release that fixed ``driver``'s known ``failed to submit`` bug (:data:`FIXED_BY`)."""
    found = version_tuple(driver)
    return None if found is None else FIXED_BY.get(found)


def old_for_runtime(driver: str | None, runtime: str | None) -> bool:
    """Whether ``driver`` is older than what ``runtime`` works with: older than
    :data:`MIN_DRIVER` beside a librknnrt that asks for it (2.x) or of unknown version, or
    older than 0.8 beside any (a 1.x runtime ran with 0.8.x drivers)."""
    found, rt = version_tuple(driver), version_tuple(runtime)
    if found is None or found >= MIN_DRIVER:
        return False
    return rt is None or rt >= ASKING_RUNTIME or found < (0, 8, 0)
