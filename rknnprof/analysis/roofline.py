"""The roofline of a profile: each conv layer's achieved MAC rate against its arithmetic
intensity, under the platform's compute and bandwidth roofs.

Per layer (stored by analysis on ``Layer``; ``None`` for a layer that is not a conv with usable
shapes, or has no RW / no time):

* ``arith_intensity = macs / (rw_kb * 1024)`` -- MACs per byte moved (``macs`` as
  :func:`~rknnprof.analysis.mac.conv_macs` counts them from the shapes);
* ``achieved_macs_per_s = macs / (time_us * 1e-6)``.

Corpus 36 row 2 (ConvExSwish ``(1,3,640,640),(16,3,3,3) -> (1,16,320,320)``, 1888 us, RW 1202
KB): ``macs = 16*320*320*3*3*3 = 44,236,800``; intensity ``44,236,800 / (1202*1024) = 35.9``
MACs/byte; rate ``44,236,800 / 1888e-6 = 2.34e10`` MACs/s.

Roofs (:func:`roofs`): compute, per data type, ``MACs/cycle/core x NPU clock x cores`` of the
run's mask (:func:`~rknnprof.analysis.mac.mask_cores`; RK3588 INT8 at 1000 MHz on one core:
1.024e12 MACs/s); bandwidth, MACs/s ``= intensity x GB/s x 1e9``, for the platform's
theoretical DDR peak, its measured ``ddr_achieved_gbs``, and the fastest RW(KB)/Time of a layer
of this log (RW above the theoretical peak is a view, not a rate, and is left out).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rknnprof.analysis.mac import conv_macs, mask_cores, npu_clock_mhz
from rknnprof.model import Layer, Profile, Target

if TYPE_CHECKING:
    from rknnprof.platforms import Platform


def with_roofline(layer: Layer) -> Layer:
    """``layer`` with ``arith_intensity`` and ``achieved_macs_per_s`` filled where they exist."""
    if layer.target is not Target.NPU:
        return layer
    macs = conv_macs(layer)
    if not macs:
        return layer
    intensity = macs / (layer.rw_kb * 1024.0) if layer.rw_kb else None
    rate = macs / (layer.time_us * 1e-6) if layer.time_us else None
    if intensity is None and rate is None:
        return layer
    return replace(layer, arith_intensity=intensity, achieved_macs_per_s=rate)


@dataclass(frozen=True, slots=True)
class Roof:
    """One roof: ``kind`` ``compute`` (``value`` MACs/s) or ``bandwidth`` (``value`` bytes/s);
    ``label`` for the chart's legend."""

    kind: str
    label: str
    value: float


def measured_peak_gbs(profile: Profile, platform: Platform | None) -> float | None:
    """The fastest RW(KB)/Time of an NPU layer of ``profile``, GB/s (1e9 bytes/s); rates above the
    platform's theoretical peak are views and are skipped. ``None`` without RW and time."""
    peak = platform.ddr_bandwidth_gbs if platform is not None else None
    rates = [
        la.rw_kb * 1024.0 / (la.time_us * 1e-6) / 1e9
        for la in profile.layers
        if la.target is Target.NPU and la.rw_kb and la.time_us
    ]
    usable = [r for r in rates if peak is None or r <= peak]
    return max(usable, default=None)


def roofs(profile: Profile, platform: Platform | None) -> list[Roof]:
    """The compute roofs (one per data type of the plotted layers) and bandwidth roofs."""
    found: list[Roof] = []
    mhz = npu_clock_mhz(profile, platform)
    cores = mask_cores(profile)
    if platform is not None and mhz:
        types = sorted(
            {
                la.data_type
                for la in profile.layers
                if la.achieved_macs_per_s is not None and la.data_type
            }
        )
        seen: set[int] = set()
        for data_type in types:
            per_cycle = platform.macs_per_cycle(data_type)
            if per_cycle and per_cycle not in seen:
                seen.add(per_cycle)
                found.append(
                    Roof(
                        "compute",
                        f"{data_type}: {per_cycle} MACs/cycle x "
                        f"{mhz:g} MHz x {cores} core{'s' if cores > 1 else ''}",
                        per_cycle * mhz * 1e6 * cores,
                    )
                )
    if platform is not None and platform.ddr_bandwidth_gbs:
        found.append(
            Roof(
                "bandwidth",
                f"DDR theoretical {platform.ddr_bandwidth_gbs:g} GB/s",
                platform.ddr_bandwidth_gbs * 1e9,
            )
        )
    if platform is not None and platform.ddr_achieved_gbs:
        found.append(
            Roof(
                "bandwidth",
                f"DDR achieved {platform.ddr_achieved_gbs:g} GB/s",
                platform.ddr_achieved_gbs * 1e9,
            )
        )
    measured = measured_peak_gbs(profile, platform)
    if measured:
        found.append(
            Roof("bandwidth", f"fastest layer of this log {measured:.1f} GB/s", measured * 1e9)
        )
    return found
