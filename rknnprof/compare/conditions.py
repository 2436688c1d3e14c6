"""Like for like: the run conditions that differ between BASE and CURRENT (platform, versions,
NPU frequency, cores used, frames merged, measured vs estimated)."""

from __future__ import annotations

from rknnprof.model import Profile


def cores_used(profile: Profile) -> str | None:
    """``core0``, ``core0+1+2``…: the NPU cores with a non-zero workload in any layer."""
    cores: set[int] = set()
    seen = False
    for la in profile.layers:
        if la.workload_pct is not None:
            seen = True
            cores.update(k for k, share in enumerate(la.workload_pct) if share > 0)
    if not seen or not cores:
        return None
    return "core" + "+".join(str(k) for k in sorted(cores))


def _npu_mhz(profile: Profile) -> str | None:
    freqs = profile.frequencies.npu_hz if profile.frequencies else ()
    known = [f for f in freqs if f]
    return "/".join(f"{f / 1e6:g} MHz" for f in known) if known else None


def comparability(base: Profile, current: Profile) -> list[str]:
    """What differs between the runs' conditions, one ``what: base vs current`` line each.
    A value unknown on either side is not called a difference."""
    checks: list[tuple[str, object, object]] = [
        (
            "measured",
            "measured" if base.measured else "estimated",
            "measured" if current.measured else "estimated",
        ),
        ("platform", base.platform, current.platform),
        ("runtime version", base.versions.runtime, current.versions.runtime),
        ("driver version", base.versions.driver, current.versions.driver),
        ("NPU frequency", _npu_mhz(base), _npu_mhz(current)),
        ("NPU cores used", cores_used(base), cores_used(current)),
        ("frames merged", base.frames, current.frames),
    ]
    return [
        f"{what}: {b} vs {c}" for what, b, c in checks if b is not None and c is not None and b != c
    ]
