"""SoC facts as data (placeholder: the advice work fills ``*.yaml`` and this loader).

``resolve(log_platform, override)`` returns the :class:`Platform` to use and why.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Platform:
    name: str
    """Lower-case SoC name, e.g. ``rk3588``."""
    ddr_bandwidth_gbs: float | None = None
    """Estimated usable DDR bandwidth, GB/s (1e9 bytes per second); None when unknown."""


def resolve(log_platform: str | None, override: str | None = None) -> tuple[Platform | None, str | None]:
    """The platform to judge a profile by, and the reason (``--platform``, ``log: …``)."""
    if override:
        return Platform(override.lower()), "--platform"
    if log_platform:
        return Platform(log_platform.lower()), f"log: target platform: {log_platform}"
    return None, None
