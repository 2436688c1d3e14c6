"""rknnprof: profiler and log analyzer for Rockchip RKNN NPUs."""

from __future__ import annotations

__version__ = "0.1.0"
