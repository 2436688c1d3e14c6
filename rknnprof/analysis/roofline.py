"""The roofline of a profile: each conv layer's achieved MAC rate against its arithmetic
intensity, under compute and bandwidth roofs. Computed once by analysis and stored.

Per layer (on ``Layer``; ``None`` for a layer that is not an NPU conv with usable shapes, or
has no RW / no time):

* ``arith_intensity = macs / (rw_kb * 1024)``, MACs per byte moved (``macs`` as
  :func:`~rknnprof.analysis.mac.conv_macs` counts them from the shapes);
* ``achieved_macs_per_s = macs / (time_us * 1e-6)``;
* ``compute_roof_macs_per_s``: MACs/cycle/core of its data type x NPU clock x the cores its
  WorkLoad column shows it used (:func:`~rknnprof.analysis.mac.used_cores`): a layer on one core
  of a three-core mask is held to one core's roof.

Corpus 36 row 2 (ConvExSwish ``(1,3,640,640),(16,3,3,3) -> (1,16,320,320)``, 1888 us, RW 1202
KB): ``macs = 16*320*320*3*3*3 = 44,236,800``; intensity ``44,236,800 / (1202*1024) = 35.9``
MACs/byte; rate ``44,236,800 / 1888e-6 = 2.34e10`` MACs/s.

Roofs (``Profile.roofs``): one compute roof per (MACs/cycle, cores) of the placed layers
(RK3588 INT8 at 1000 MHz on one core: 1.024e12 MACs/s); bandwidth roofs, bytes/s, for the
platform's theoretical DDR peak, its measured ``ddr_achieved_gbs``, and the fastest RW(KB)/Time
of a layer of this log (RW above the theoretical peak is a view, not a rate, and is left out).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rknnprof.analysis.mac import conv_macs, npu_clock_mhz, used_cores
from rknnprof.model import Layer, Profile, Roof, Target

if TYPE_CHECKING:
    from rknnprof.platforms import Platform


def roofline_fields(layer: Layer, platform: Platform | None, mhz: float | None) -> dict[str, Any]:
    """The roofline figures of ``layer`` by field name (module doc), for ``dataclasses.replace``;
    empty for a layer that has none."""
    if layer.target is not Target.NPU:
        return {}
    macs = conv_macs(layer)
    if not macs:
        return {}
    intensity = macs / (layer.rw_kb * 1024.0) if layer.rw_kb else None
    rate = macs / (layer.time_us * 1e-6) if layer.time_us else None
    if intensity is None and rate is None:
        return {}
    per_cycle = platform.macs_per_cycle(layer.data_type) if platform is not None else None
    roof = per_cycle * mhz * 1e6 * used_cores(layer) if per_cycle and mhz and rate else None
    return {
        "arith_intensity": intensity,
        "achieved_macs_per_s": rate,
        "compute_roof_macs_per_s": roof,
    }


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


def roofs(profile: Profile, platform: Platform | None) -> tuple[Roof, ...]:
    """The compute roofs (one per MACs/cycle and core count of the placed layers) and the
    bandwidth roofs of ``profile``, whose layers have their roofline figures (module doc)."""
    found: list[Roof] = []
    mhz = npu_clock_mhz(profile, platform)
    if platform is not None and mhz:
        seen: set[tuple[int, int]] = set()
        placed = sorted(
            (la.data_type, used_cores(la))
            for la in profile.layers
            if la.compute_roof_macs_per_s is not None and la.data_type
        )
        for data_type, cores in placed:
            per_cycle = platform.macs_per_cycle(data_type)
            if per_cycle and (per_cycle, cores) not in seen:
                seen.add((per_cycle, cores))
                found.append(
                    Roof(
                        "compute",
                        f"{data_type}: {per_cycle} MACs/cycle x "
                        f"{mhz:g} MHz x {cores} core{'s' if cores > 1 else ''}",
                        per_cycle * mhz * 1e6 * cores,
                        data_type=data_type,
                        cores=cores,
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
    return tuple(found)
