"""Runtime, driver, model and toolkit versions, the target platform, and the eval_perf
frequency lists.

Version lines (one line = one :class:`InfoEvent`):

* ``RKNN Runtime Information: librknnrt version: 1.4.0 (…)`` (1.4/1.5 colon form) and
  ``RKNN Runtime Information, librknnrt version: 2.0.0b0 (…)`` (2.x comma form)
* ``RKNN Driver Information[:,] version: 0.9.8``
* ``RKNN Model Information, version: 6, toolkit version: 2.3.0(compiler version: …), …,
  target platform: rk3588, …``
* C demos: ``sdk version: 2.0.0b0 (…) driver version: 0.7.2``, ``driver version: 0.9.3, API
  version: 1.6.0 (…)`` (librknnrt's), the toolkit's banner ``rknn-toolkit2 version: 1.5.0``;
  rknn_benchmark:
  ``rknn_api/rknnrt version: 2.1.0 (…), driver version: 0.9.6``
* toolkit2 1.x through rknn_server (``D RKNNAPI:`` block): ``API: 1.5.0 (…)``,
  ``DRV: rknnrt: 1.5.0 (…)``; toolkit1's block: ``DRV: 1.7.3 (…)``, the board's NPU driver
* ``rknn-toolkit-lite2 version: 2.1.0`` (the board's Python package), ``target soc is RK3588``
* the driver: the kernel's ``[drm] Initialized rknpu 0.9.8 20240828 for …`` (dmesg), its name,
  version and date quoted alone (``rknpu 0.9.8 20240828``), its debugfs ``RKNPU driver: v0.9.8``
* rknn_server's (logcat tag ``SERVER``): ``rknn_server version: 2.3.2 (…)`` and
  ``server & runtime version: rknn_server: 2.3.2 (…)``, then the runtime, ``rknnrt: 2.3.2 (…)``

A version a line ends with is completed by the next line when that one starts with its rest
(an 80-column wrap: ``…, Driver version:0.8`` then ``.2 Number inputs=1``).

Frequency lists (one block = one :class:`FrequencyEvent`)::

    CPU Current Frequency List:
        - 1800000          (kHz)
    NPU Current Frequency List:
        - 1000000000       (Hz)
    DDR Current Frequency List:
        - Unknown
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Frequencies, Versions
from rknnprof.model.record import replace
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import FrequencyEvent, InfoEvent
from rknnprof.parsers.table.tokens import to_int

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line

_V = r"([0-9][0-9A-Za-z_.\-+]*?)\.?(?=[\s(,]|$)"
"""A version as printed: ASCII digits and letters (``2.0.0b0``, ``1.5.0+1fa95b5c``), up to a
space, a parenthesis or a comma; a sentence's full stop after it is not part of it."""
_PATTERNS: tuple[tuple[str, str, LazyPattern[str]], ...] = (
    # (librknnmrt: the reduced runtime of RV1106/RV1103)
    ("librknn", "runtime", LazyPattern(rf"librknnm?rt version:\s*{_V}")),
    # FastDeploy's RKNPU2 backend: ``rknpu2 runtime version: 1.5.1b19 (…)``
    ("rknpu2 runtime", "runtime", LazyPattern(rf"\brknpu2 runtime version:\s*{_V}")),
    ("Driver Information", "driver", LazyPattern(rf"Driver Information[:,]\s*version:\s*{_V}")),
    ("Model Information", "model", LazyPattern(rf"Model Information, version:\s*{_V}")),
    ("toolkit version", "toolkit", LazyPattern(rf"toolkit version:\s*{_V}")),
    # the toolkit's own banner (``W __init__: rknn-toolkit2 version: 1.5.0+1fa95b5c``)
    ("toolkit2 version", "toolkit", LazyPattern(rf"\brknn-toolkit2 version:\s*{_V}")),
    # C demos' rknn_query(RKNN_QUERY_SDK_VERSION): its api_version is librknnrt's
    ("API version", "runtime", LazyPattern(rf"\bAPI version:\s*{_V}")),
    ("rknnrt version", "runtime", LazyPattern(rf"rknn_api/rknnrt version:\s*{_V}")),
    # (not ``\b``: a demo's own words run into it, ``板子的sdk version: 2.3.2``)
    ("sdk", "runtime", LazyPattern(rf"(?<![A-Za-z0-9_])sdk (?:api )?version:\s*{_V}", re.I)),
    ("driver version", "driver", LazyPattern(rf"\bdriver version:\s*{_V}", re.IGNORECASE)),
    ("API:", "api", LazyPattern(rf"^(?:\S*\s*RKNNAPI:)?\s*API:\s*{_V}")),
    ("DRV:", "runtime", LazyPattern(rf"DRV:\s*rknnrt:\s*{_V}")),
    # toolkit1's banner: ``DRV: 1.7.1 (…)``, the board's driver (rknn_api.h's drv_version, "the
    # version of rknn driver"), which the toolkit's API version must equal
    ("DRV:", "driver", LazyPattern(rf"DRV:\s*{_V}")),
    # rknn_server's own lines (Android logcat, tag SERVER): ``rknn_server version: 2.3.2 (…)``,
    # ``server & runtime version: rknn_server: 2.3.2 (…)`` and the runtime it loaded, ``rknnrt:
    # 2.3.2 (…)``; its start script's ``start rknn server, version:2.3.0 (…)``
    ("server", "server", LazyPattern(rf"\brknn[_ ]server(?:,? version)?:\s*{_V}")),
    ("rknnrt:", "runtime", LazyPattern(rf"(?<![\w/])rknnrt:\s*{_V}")),
    ("lite2 version", "lite", LazyPattern(rf"rknn-toolkit-lite2 version:\s*{_V}")),
    # the kernel's own line (dmesg): "[drm] Initialized rknpu 0.9.8 20240828 for fdab0000.npu"
    ("Initialized rknpu", "driver", LazyPattern(rf"\[drm\] Initialized rknpu\s+{_V}")),
    # the driver's name, version and date as a user quotes them (``rknpu 0.9.8 20240828``), and
    # its debugfs file (``cat /sys/kernel/debug/rknpu/version``: ``RKNPU driver: v0.9.8``)
    ("rknpu ", "driver", LazyPattern(r"(?<![\w/.-])rknpu\s+v?(\d+\.\d+\.\d+)\s+\d{8}\b")),
    ("RKNPU driver:", "driver", LazyPattern(rf"\bRKNPU driver:\s*v?{_V}")),
)
_PLATFORM_RE = LazyPattern(r"(target platform|target soc is):?\s*([A-Za-z]+\d+[A-Za-z]*)")
_SOC_RE = LazyPattern(
    # the board the toolkit found (``Get hardware info: target_platform = rv1126b``), the target
    # set (``target set by user is: rv1106``, ``target is RK3568``, the command line's
    # ``--target rk3588``, toolkit1's ``Init runtime environment,target = RK3399PRO``), RKLLM's
    # (``platform: RK3576``): only a Rockchip SoC's name counts after these words
    r"(target_platform\s*[=:]|target set by user is:?|target is|target\s*=|platform:|"
    r"--target[=\s])\s*((?:rk|rv)\d{4}(?:pro|[a-z])?)(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_FREQ_HEAD_RE = LazyPattern(r"^(CPU|NPU|DDR) Current Frequency List:\s*$")
_FREQ_ITEM_RE = LazyPattern(r"^-\s*(\d+|Unknown)\s*$")


GUESS = "guess: "
"""How a platform evidence that only suggests the SoC begins (``platform_basis`` keeps it)."""
_MODEL_PATH_RE = LazyPattern(
    # rknpu2's examples and vendor images keep a model per SoC: model/RK3588/yolov5s.rknn,
    # /usr/share/model/RK3562/mobilenet_v1.rknn, model/RK3566_RK3568/…
    # (from the folder on: a run of path characters before it would be scanned again from
    # every start, quadratic in a long line)
    r"/((?:rk|rv)\d{4}[a-z]?)(?:_(?:rk|rv)\d{4}[a-z]?)*/[\w.-]+\.rknn\b",
    re.IGNORECASE,
)


def model_path_platform(text: str) -> tuple[str, str] | None:
    """(platform, evidence) guessed from an .rknn path in a per-SoC folder, or None. A folder
    shared by several SoCs (``RK3566_RK3568``) names one only when their facts agree: the
    first one's DDR figures were taken for an RK3568 board."""
    m = _MODEL_PATH_RE.search(text)
    if m is None:
        return None
    from rknnprof.platforms import all_platforms, normalize  # (their data: only for such a line)

    named = [normalize(soc) for soc in _SOC_IN_FOLDER.findall(m.group(0).split("/")[1])]
    known = all_platforms()
    if any(soc not in known for soc in named):
        return None  # (a folder named like a SoC rknnprof has no data for: no guess)
    from dataclasses import replace

    first = replace(known[named[0]], name="")
    if any(replace(known[soc], name="") != first for soc in named[1:]):
        return None  # (members that differ, in DDR above all: --platform says which)
    return named[0], f"{GUESS}the model's path …{m.group(0)} (pass --platform to be sure)"


_SOC_IN_FOLDER = LazyPattern(r"(?:rk|rv)\d{4}[a-z]?", re.IGNORECASE)
"""Each SoC a per-SoC folder's name holds (``RK3566_RK3568``: two)."""


Info = tuple[Versions, str | None, str | None]
"""(versions, platform, evidence) one line names."""


def parse_info(text: str) -> Info | None:
    """(versions, platform, evidence) named on one line, or None when it names nothing."""
    return _parse(text)[0]


def _parse(text: str) -> tuple[Info | None, str | None]:
    """(:func:`parse_info`'s answer, the field whose version the line ends with, no full stop
    after it: a version an 80-column wrap may have cut, ``Driver version:0.8`` before a line
    ``.2 Number inputs=1``)."""
    found: dict[str, str] = {}
    cut = None
    lower = text.lower()
    end = len(text.rstrip())
    for literal, field_name, pattern in _PATTERNS:
        if field_name in found or (literal not in text and literal not in lower):
            continue
        if m := pattern.search(text):
            found[field_name] = m.group(1)
            if m.end(1) == end:
                cut = field_name
    platform = evidence = None
    if "target" in text and (m := _PLATFORM_RE.search(text)):
        platform, evidence = m.group(2).lower(), m.group(0)
    elif ("target" in text or "platform:" in text) and (m := _SOC_RE.search(text)):
        platform, evidence = m.group(2).lower(), m.group(0)
    elif ".rknn" in text and (guess := model_path_platform(text)) is not None:
        platform, evidence = guess
    if not found and platform is None:
        return None, None
    return (Versions(**found), platform, evidence), cut


_CONTINUED = LazyPattern(rf"^\.{_V}")
"""The rest of a version an 80-column wrap cut, at the start of the next line: ``.2`` of
``0.8`` / ``.2 Number inputs=1`` (a C demo's ``Driver version:0.8.2`` at column 80)."""


class _InfoBlock(Block):
    """A single line: ends at the next line, but for the rest of a version the line ends with
    when the next line starts with it (:data:`_CONTINUED`): ``0.8`` / ``.2`` reads 0.8.2."""

    def __init__(self, line: Line, info: Info, cut: str | None = None) -> None:
        versions, platform, evidence = info
        self.event = InfoEvent(
            line=line.number,
            versions=versions,
            platform=platform,
            platform_evidence=evidence,
            stream=line.stream,
        )
        self.cut = cut

    def feed(self, line: Line) -> bool:
        cut, self.cut = self.cut, None
        if cut is None or line.number != self.event.line + 1:
            return False
        if (m := _CONTINUED.match(line.text)) is None:
            return False
        versions = self.event.versions
        joined = f"{getattr(versions, cut)}.{m.group(1)}"
        self.event = self.event._replace(versions=replace(versions, **{cut: joined}))
        return True

    def close(self) -> list[InfoEvent]:
        return [self.event]


class _FrequencyBlock(Block):
    def __init__(self, line: Line, kind: str) -> None:
        self.line = line.number
        self.stream = line.stream
        self.kind = kind
        self.values: dict[str, list[int | None]] = {"CPU": [], "NPU": [], "DDR": []}

    def feed(self, line: Line) -> bool:
        s = line.text.strip()
        if (m := _FREQ_HEAD_RE.match(s)) is not None:
            self.kind = m.group(1)
            return True
        if (m := _FREQ_ITEM_RE.match(s)) is not None:
            self.values[self.kind].append(None if m.group(1) == "Unknown" else to_int(m.group(1)))
            return True
        return False

    def close(self) -> list[FrequencyEvent]:
        freqs = Frequencies(
            cpu_khz=tuple(self.values["CPU"]),
            npu_hz=tuple(self.values["NPU"]),
            ddr_hz=tuple(self.values["DDR"]),
        )
        return [FrequencyEvent(line=self.line, frequencies=freqs, stream=self.stream)]


class RuntimeInfoParser(BlockParser):
    family: ClassVar[str] = "runtime-info"
    detection: ClassVar[str] = (
        "'RKNN Runtime/Driver/Model Information' lines (colon or comma form), 'sdk version: … "
        "driver version:', 'rknn_api/rknnrt version:', RKNNAPI 'API:'/'DRV:' lines, "
        "rknn_server's 'rknn_server version:' and 'rknnrt:' lines, the "
        "kernel's '[drm] Initialized rknpu 0.9.8' (dmesg), 'rknpu 0.9.8 20240828', 'RKNPU "
        "driver: v0.9.8' (debugfs), '<CPU|NPU|DDR> Current Frequency "
        "List:'"
    )
    fields: ClassVar[str] = (
        "runtime, driver, rknn_server, toolkit, API and model versions; target platform; CPU "
        "(kHz), NPU and "
        "DDR (Hz) frequencies"
    )

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if (
            "ersion" in text
            or "API:" in text
            or "DRV:" in text
            or "rknnrt:" in text
            or "target" in text
            or "rknpu " in text
            or "RKNPU driver:" in text
            or ".rknn" in text
        ):
            info, cut = _parse(text)
            if info is not None and not (line.level == "E" and info[0] == Versions()):
                # (an error naming a SoC, ``E init_runtime: get target_platform is rv1106, …``,
                # is an error, not the SoC's line; ``E rknn-toolkit2 version:`` still counts)
                return _InfoBlock(line, info, cut)
        if "Frequency List" in text and (m := _FREQ_HEAD_RE.match(text.strip())):
            return _FrequencyBlock(line, m.group(1))
        return None
