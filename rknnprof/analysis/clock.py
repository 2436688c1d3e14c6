"""The NPU clock that turns a profile's cycles into time (``Profile.npu_clock``).

Cycles -> time follows what the run was FIXED at, tried in this order:

1. ``log``: the log's own NPU frequency: eval_perf's "NPU Current Frequency List" (Hz; the
   highest core's when several), else an NPU clock line (``Profile.run_lines``, e.g. a
   frequency read from the driver): the clock the run actually had. A reading no clock of the
   SoC can have (:func:`plausible_clock`: 0 MHz, 5 GHz on an RK3588) is none: validity says
   so, and the next source is taken.
2. ``fixed-frequency-script``: the NPU rate the model zoo's ``scaling_frequency.sh`` fixes the
   SoC at (``Platform.fixed_freq_mhz``), the procedure the SDK guide tells users to run before
   measuring. RK3576: 1000 MHz, although its datasheet gives 950 (docs/sources.md ``SCALE``,
   ``DS-RK3576``).
3. ``datasheet``: the SoC's maximum NPU clock (``Platform.npu_max_freq_mhz``).

Computed once, in analysis; every cycles->time figure (``Layer.cycles_explained``, the MAC
model, the savings) reads it from the profile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.model import NpuClock

if TYPE_CHECKING:
    from rknnprof.model import Profile
    from rknnprof.platforms import Platform

LOG = "log"
SCRIPT = "fixed-frequency-script"
DATASHEET = "datasheet"


MIN_CLOCK_MHZ = 10.0
"""A clock reading under this (``0 MHz``, a frequency of 1 Hz) is no reading: an NPU or DDR
clock steps down to a few hundred MHz, never to nothing."""
ABOVE_MAXIMUM = 1.10
"""...nor one above the SoC's maximum by more than 10 %."""


def plausible_clock(mhz: float, peak: float | None) -> bool:
    """Whether a clock the log prints can be the SoC's: over :data:`MIN_CLOCK_MHZ`, and under
    its maximum by :data:`ABOVE_MAXIMUM` when the maximum is known."""
    return mhz >= MIN_CLOCK_MHZ and (peak is None or mhz <= peak * ABOVE_MAXIMUM)


def npu_clock(profile: Profile, platform: Platform | None) -> NpuClock | None:
    """The clock for ``profile`` (module doc), or ``None`` when nothing gives one."""
    peak = platform.freq_mhz if platform is not None else None
    if profile.frequencies is not None:
        # (a reading no NPU can have, 0 or 5 GHz, is none: validity says so)
        known = [hz for hz in profile.frequencies.npu_hz if hz and plausible_clock(hz / 1e6, peak)]
        if known:
            mhz = max(known) / 1e6
            return NpuClock(mhz, LOG, f"the log's NPU frequency list: {mhz:g} MHz")
    lines = [run for run in profile.run_lines if run.kind == "clock" and run.domain == "NPU"]
    readings = [run for run in lines if run.mhz and plausible_clock(run.mhz, peak)]
    if readings:
        first = min(readings, key=lambda run: run.line)
        mhz = max(run.mhz or 0.0 for run in readings)
        return NpuClock(mhz, LOG, f"the log's NPU clock line {first.line}: {mhz:g} MHz")
    if platform is None:
        return None
    sheet = platform.npu_max_freq_mhz
    if platform.fixed_freq_mhz:
        mhz = float(platform.fixed_freq_mhz)
        beside = f" (datasheet maximum {sheet:g} MHz)" if sheet and sheet != mhz else ""
        return NpuClock(
            mhz, SCRIPT, f"{platform.name}: scaling_frequency.sh fixes {mhz:g} MHz{beside}"
        )
    if sheet:
        return NpuClock(
            float(sheet), DATASHEET, f"{platform.name}: datasheet maximum {sheet:g} MHz"
        )
    return None
