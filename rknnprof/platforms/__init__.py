"""SoC facts as data: one YAML file per SoC family beside this module, read with ``yaml.safe_load``.

Every value in the YAML files names its public source in the file's ``sources:`` mapping, by a
key (``OPL232 §3.5``, ``DS-RK3576 §3.2``, ``SCALE rk3576``) that ``docs/sources.md`` of the source
tree defines with the document's title, version, section and URL. Values no public source gives
are ``null`` and stay ``None`` here -- nothing is guessed.

``resolve(log_platform, override, profile=...)`` picks the :class:`Platform` to judge a profile
by and says why:

1. ``--platform NAME`` (``override``) wins; an unknown name is a :class:`ConfigError` that lists
   the valid names.
2. The log's own ``target platform: rk3588`` (``log_platform``).
3. A GUESS from the table shape, only when ``profile`` is given: a 3-slot ``WorkLoad(0/1/2)``
   column is printed by RK3588 runtimes (the only 3-core RKNPU; the user guide V2.3.0 §3.2.3
   calls the column "RK3588 platform only"), a 2-slot one is documented for RK3576. Whether
   single-core SoCs also print 3 slots is NOT known, so the basis says ``guess`` and tells the
   user to pass ``--platform``. Callers that want no guessing pass ``profile=None``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rknnprof.errors import ConfigError

if TYPE_CHECKING:
    from rknnprof.model import Profile

DATA_DIR = Path(__file__).resolve().parent

REQUIRED_KEYS = (
    "family",
    "display_name",
    "members",
    "npu_cores",
    "npu_max_freq_mhz",
    "fixed_freq_mhz",
    "ddr_max_freq_mhz",
    "npu_buffer_kb_per_core",
    "macs_per_cycle_per_core",
    "ddr_bandwidth_gbs",
    "ddr_achieved_gbs",
    "member_overrides",
    "channel_alignment",
    "c2",
    "features",
    "quantized_dtypes",
    "int8_supported",
    "npu_ops_absent",
    "op_dtypes",
    "multi_core_ops",
    "limits",
    "cpu_ops",
    "sources",
)
"""Keys every platform YAML must have (values may be null)."""

_DTYPE_KEYS = {
    "INT8": "int8",
    "UINT8": "int8",
    "INT4": "int8",
    "FLOAT16": "float16",
    "FP16": "float16",
    "FLOAT": "float16",
    "INT16": "int16",
    "UINT16": "int16",
    "BFLOAT16": "bfloat16",
    "TFLOAT32": "tfloat32",
    "FLOAT32": "tfloat32",
}


def dtype_key(data_type: str | None) -> str | None:
    """Map a log DataType (``UINT8``, ``INT8``, ``FLOAT16``…) to the tables' key
    (``int8``, ``float16``…); ``None`` when unknown."""
    if not data_type:
        return None
    return _DTYPE_KEYS.get(data_type.strip().upper())


def dtype_bytes(data_type: str | None) -> int | None:
    """Bytes per element of a log DataType (1 for int8, 2 for float16/int16/bfloat16)."""
    key = dtype_key(data_type)
    return {"int8": 1, "float16": 2, "int16": 2, "bfloat16": 2, "tfloat32": 4}.get(key or "")


@dataclass(frozen=True)
class ChannelAlignment:
    """One row of the user guide's channel-alignment tables (V2.3.0 §8.5.1 Tables 8-1..8-4),
    channels."""

    conv_in: int
    conv_out: int
    depthwise: int
    """Depthwise Conv input and output channel alignment."""
    other: int
    """Other ops' input and output channel alignment."""


@dataclass(frozen=True)
class Platform:
    """The facts about one SoC the rules use. ``None`` means the sources do not say."""

    name: str
    """Lower-case SoC name, e.g. ``rk3588`` (a member of ``family``)."""
    ddr_bandwidth_gbs: float | None = None
    """THEORETICAL DDR peak, GB/s (1e9 bytes per second); None when unknown. [DERIVED] bus width
    x transfer rate (the YAML says which sources); no layer gets near it (RK3588: 33.8, the best
    real row 12.9). A RW(KB)/Time above it means the op moved no data through DDR (a view)."""
    ddr_achieved_gbs: float | None = None
    """The DDR rate a layer has been MEASURED to achieve on this SoC, GB/s (1e9 bytes per second):
    the fastest RW(KB)/Time of a real row in the corpus (RK3588: 12.9, corpus 03 row 8, an Add on
    three cores); None when no log of this SoC shows one. The reference for "bandwidth-bound"."""
    family: str | None = None
    """YAML file stem, e.g. ``rk3566_rk3568``."""
    display_name: str | None = None
    npu_cores: int | None = None
    npu_max_freq_mhz: float | None = None
    """Datasheet maximum NPU clock, MHz."""
    fixed_freq_mhz: float | None = None
    """NPU clock the model zoo's fixed-frequency script (``scaling_frequency.sh``) sets, MHz."""
    ddr_max_freq_mhz: float | None = None
    """DDR controller (dmc) clock the fixed-frequency script sets, the SoC's highest, MHz: a log's
    DDR frequency line far below it means the run was not measured at full bandwidth."""
    npu_buffer_kb_per_core: int | None = None
    """The NPU's internal buffer per core, KB (RK3588: 384)."""
    macs_per_cycle_per_core: Mapping[str, int | None] = field(default_factory=dict)
    """MACs per cycle per NPU core, keyed ``int8`` / ``float16`` / ``int16`` / ``bfloat16`` /
    ``tfloat32``."""
    channel_alignment: Mapping[str, ChannelAlignment] = field(default_factory=dict)
    """Keyed by dtype key; empty when the platform has no table."""
    c2: Mapping[str, int | None] = field(default_factory=dict)
    """NC1HWC2 C2 per dtype key (UG230 §5.1 Table 5-1)."""
    features: Mapping[str, Any] = field(default_factory=dict)
    """``multi_core``, ``core_masks``, ``sram``, ``sparse_inference``, ``perf_debug``,
    ``flash_attention``, ``dynamic_shape`` (bool or None when unknown)."""
    quantized_dtypes: tuple[str, ...] = ()
    int8_supported: bool | None = None
    npu_ops_absent: frozenset[str] = frozenset()
    """Op types (log / operator-list spelling) that have no NPU implementation on this SoC."""
    op_dtypes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Data types (dtype keys) the NPU implements, per log op type, where the operator list
    gives them (``Conv``, ``Resize``, ``exMatMul``); an op type not listed: not stated."""
    multi_core_ops: frozenset[str] = frozenset()
    """Op types whose work the runtime splits across NPU cores."""
    limits: Mapping[str, Any] = field(default_factory=dict)
    """Size/attribute limits beyond which an op falls back to the CPU (the operator list)."""
    cpu_ops: frozenset[str] | None = None
    """CPU op types the runtime has; ``None`` means not limited to a per-SoC list (the operator
    list's full chapter 4, ``all`` in the YAML) or no list published (toolkit1 SoCs)."""
    sources: Mapping[str, str] = field(default_factory=dict)

    def feature(self, key: str) -> Any:
        """A feature flag, ``None`` when unknown."""
        return self.features.get(key)

    def limit(self, key: str) -> Any:
        """A limit value, ``None`` when unknown."""
        return self.limits.get(key)

    def macs_per_cycle(self, data_type: str | None) -> int | None:
        """MACs per cycle per core for a log DataType, or ``None`` when unknown."""
        key = dtype_key(data_type)
        return self.macs_per_cycle_per_core.get(key) if key else None

    def alignment(self, data_type: str | None) -> ChannelAlignment | None:
        """The channel-alignment row for a log DataType, or ``None`` when unknown."""
        key = dtype_key(data_type)
        return self.channel_alignment.get(key) if key else None

    def npu_dtypes(self, op_type: str) -> tuple[str, ...] | None:
        """The dtype keys the NPU implements ``op_type`` in, or ``None`` when not stated."""
        return self.op_dtypes.get(op_type)

    @property
    def freq_mhz(self) -> float | None:
        """The highest NPU clock the sources name: the datasheet maximum, else the fixed-frequency
        script's clock. A ceiling to hold a log's clock against; cycles -> time uses the clock
        the run was fixed at instead (``analysis.clock``)."""
        return self.npu_max_freq_mhz or self.fixed_freq_mhz


def _load_file(path: Path) -> dict[str, Any]:
    import yaml

    # libyaml's loader when PyYAML has it: the same data, 7x faster (startup of `analyze`)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with path.open(encoding="utf-8") as fh:
        data = yaml.load(fh, Loader=loader)  # noqa: S506 - a safe loader
    if not isinstance(data, dict):
        raise ConfigError("platform file is not a mapping", path=str(path))
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise ConfigError(f"platform file lacks keys: {', '.join(missing)}", path=str(path))
    return data


def _build(member: str, data: Mapping[str, Any]) -> Platform:
    merged = dict(data)
    merged.update((data.get("member_overrides") or {}).get(member) or {})
    alignment = {
        dtype: ChannelAlignment(**row) for dtype, row in (merged["channel_alignment"] or {}).items()
    }
    cpu_ops = merged["cpu_ops"]
    return Platform(
        name=member,
        ddr_bandwidth_gbs=merged["ddr_bandwidth_gbs"],
        ddr_achieved_gbs=merged["ddr_achieved_gbs"],
        family=merged["family"],
        display_name=merged["display_name"],
        npu_cores=merged["npu_cores"],
        npu_max_freq_mhz=merged["npu_max_freq_mhz"],
        fixed_freq_mhz=merged["fixed_freq_mhz"],
        ddr_max_freq_mhz=merged["ddr_max_freq_mhz"],
        npu_buffer_kb_per_core=merged["npu_buffer_kb_per_core"],
        macs_per_cycle_per_core=dict(merged["macs_per_cycle_per_core"] or {}),
        channel_alignment=alignment,
        c2=dict(merged["c2"] or {}),
        features=dict(merged["features"] or {}),
        quantized_dtypes=tuple(merged["quantized_dtypes"] or ()),
        int8_supported=merged["int8_supported"],
        npu_ops_absent=frozenset(merged["npu_ops_absent"] or ()),
        op_dtypes={op: tuple(types) for op, types in (merged["op_dtypes"] or {}).items()},
        multi_core_ops=frozenset(merged["multi_core_ops"] or ()),
        limits=dict(merged["limits"] or {}),
        cpu_ops=None if cpu_ops in ("all", None) else frozenset(cpu_ops),
        sources=dict(merged["sources"] or {}),
    )


CACHE = DATA_DIR / "__pycache__" / "platforms.marshal"
"""The platform files' data, as read, cached like bytecode: ``import yaml`` and the reads cost
about a tenth of an ``analyze`` of one log, and every analysis needs a platform."""


def _all_data() -> list[dict[str, Any]]:
    """The data of every platform file, in file-name order: from :data:`CACHE` when it was
    written from files of the same names, sizes and modification times by this Python, else
    read (and the cache rewritten unless ``sys.dont_write_bytecode``)."""
    import marshal
    import sys

    paths = sorted(DATA_DIR.glob("*.yaml"))
    stamp = (sys.version, tuple((p.name, (st := p.stat()).st_size, st.st_mtime_ns) for p in paths))
    try:
        cached_stamp, cached = marshal.loads(CACHE.read_bytes())
        if cached_stamp == stamp:
            return cached  # type: ignore[no-any-return]  # marshal gives Any: the dict this function wrote
    except (OSError, ValueError, EOFError, TypeError):
        pass
    datas = [_load_file(path) for path in paths]
    if not sys.dont_write_bytecode:
        try:
            CACHE.parent.mkdir(exist_ok=True)
            partial = CACHE.with_suffix(f".{os.getpid()}.tmp")
            partial.write_bytes(marshal.dumps((stamp, datas)))
            os.replace(partial, CACHE)
        except (OSError, ValueError):  # read-only install, or data marshal cannot write
            pass
    return datas


@functools.cache
def all_platforms() -> dict[str, Platform]:
    """Every known SoC by lower-case name (``rk3566`` and ``rk3568`` are separate entries)."""
    platforms: dict[str, Platform] = {}
    for data in _all_data():
        for member in data["members"]:
            platforms[str(member).lower()] = _build(str(member).lower(), data)
    return platforms


def names() -> list[str]:
    """Valid ``--platform`` names, sorted."""
    return sorted(all_platforms())


def normalize(name: str) -> str:
    """``RK3588`` / ``rk-3588`` / `` rk3588 `` -> ``rk3588``."""
    return name.strip().lower().replace("-", "").replace(" ", "")


def get(name: str) -> Platform:
    """The platform called ``name``; :class:`ConfigError` listing the valid names otherwise."""
    platform = all_platforms().get(normalize(name))
    if platform is None:
        raise ConfigError(f"unknown platform {name!r}; valid names: {', '.join(names())}")
    return platform


def guess_from_profile(profile: Profile) -> tuple[str | None, str | None]:
    """A platform name guessed from the table's WorkLoad column width, and why (see module doc)."""
    slots = {len(la.workload_pct) for la in profile.layers if la.workload_pct}
    if slots == {3}:
        split = any(la.workload_pct and la.workload_pct[2] > 0 for la in profile.layers)
        why = "work on core 2" if split else "3-slot WorkLoad(0/1/2) column"
        return "rk3588", (
            f"guess: {why}; RK3588 is the only 3-core RKNPU (pass --platform to be sure)"
        )
    if slots == {2}:
        return "rk3576", (
            "guess: 2-slot WorkLoad(0/1) column, documented for RK3576 (pass --platform)"
        )
    return None, None


def resolve(
    log_platform: str | None,
    override: str | None = None,
    *,
    profile: Profile | None = None,
) -> tuple[Platform | None, str | None]:
    """The platform to judge a profile by, and the reason.

    ``override`` (``--platform``) must name a known SoC, else :class:`ConfigError`. A log platform
    rknnprof has no data for (``rk1808``) gives ``(None, "log: target platform: rk1808 (no
    platform data)")``. With ``profile`` and nothing explicit, a guess may be made (module doc).
    """
    if override:
        return get(override), "--platform"
    if log_platform:
        platform = all_platforms().get(normalize(log_platform))
        if platform is None:
            return None, f"log: target platform: {log_platform} (no platform data)"
        return platform, f"log: target platform: {log_platform}"
    if profile is not None:
        guessed, basis = guess_from_profile(profile)
        if guessed:
            return all_platforms()[guessed], basis
    return None, None
