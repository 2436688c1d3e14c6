"""The failures catalogue: error and warning lines users post instead of a profile, each with its
cause, its fix and a public source. Data only; ``parsers/known_failures.py`` reads lines with it.

An entry matches a line when one of its ``needles`` (literal, case-sensitive) is in the line and
its ``pattern`` then matches; the pattern's named groups fill ``{name}`` fields of ``diagnosis``.
Entries are tried in order: put the more specific first. Every entry has a test with a line of
its grammar (``tests/grammars/test_failures.py``); ``docs/errors.md`` lists them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rknnprof.inputs.lazy_re import LazyPattern


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    """Stable kebab-case name, e.g. ``unsupported-cpu-op``; the JSON ``failures[].id``."""
    needles: tuple[str, ...]
    """Literals one of which a matching line contains (the cheap test before the pattern)."""
    pattern: LazyPattern
    diagnosis: str
    """One line: what failed, with ``{group}`` fields from ``pattern``."""
    cause: str
    fix: str
    source: str
    """A public page that shows the line and its cause or fix."""


def _re(text: str) -> LazyPattern:
    return LazyPattern(text)


_TK2 = "https://github.com/airockchip/rknn-toolkit2/issues/"
_OLD_TK2 = "https://github.com/rockchip-linux/rknn-toolkit2/issues/"

CATALOGUE: tuple[Entry, ...] = (
    Entry(
        "unsupported-cpu-op",
        ("unsupport cpu",),
        _re(r"unsupport cpu (?P<op>\S+) op"),
        "the runtime has no CPU kernel for the {op} op the model put on the CPU",
        "RV1106/RV1103 run the reduced runtime (librknnmrt), which implements only a few ops on "
        "the CPU; an op the compiler could not place on the NPU (unsupported there, or beyond "
        "an NPU size limit such as Transpose h*w) has nowhere to run",
        "change the model so that the op runs on the NPU (within the platform's limits in the "
        "Operator List) or remove it; build with the same rknn-toolkit2 version as the board's "
        "librknnmrt",
        _TK2 + "482",
    ),
    Entry(
        "cpu-fallback-failed",
        ("rknn fallback cpu failed",),
        _re(r"rknn fallback cpu failed"),
        "the runtime could not run a CPU-placed op (rknn fallback cpu failed)",
        "the reduced runtime of RV1106/RV1103 has no CPU kernel for an op of the model (the "
        "`unsupport cpu … op` line before it names the op)",
        "make every op of the model run on the NPU for this platform (Operator List limits), or "
        "replace the op; update librknnmrt to the toolkit's version",
        _TK2 + "145",
    ),
    Entry(
        "invalid-core-mask",
        ("core mask",),
        _re(r"(?:Not support core mask|failed to set core mask): (?P<mask>\d+)"),
        "core mask {mask} is not valid for this NPU",
        "only multi-core NPUs take a core mask (RK3588: 3 cores, masks 1-7; RK3576: 2 cores); "
        "RK3566/RK3568/RK3562 and RV1106 have one core, and some runtimes or model versions "
        "refuse multi-core masks (the runtime falls back to single-core auto mode)",
        "use RKNN_NPU_CORE_AUTO (0) on single-core SoCs, a mask within the SoC's cores "
        "otherwise, and a runtime and model built by the same toolkit version",
        _TK2 + "7",
    ),
    Entry(
        "runtime-too-old-for-model",
        ("Invalid RKNN model version",),
        _re(r"Invalid RKNN model version (?P<version>\d+)"),
        "librknnrt is too old for this model (model format version {version})",
        "the model was built by a newer rknn-toolkit2 than the board's librknnrt (the model "
        "format version is newer than the runtime knows)",
        "install the librknnrt (and rknn_server) of the toolkit version that built the model, or "
        "rebuild the model with the toolkit matching the board's runtime",
        _OLD_TK2 + "212",
    ),
    Entry(
        "model-platform-mismatch",
        ("does not match the RKNPU hardware",),
        _re(r"does not match the RKNPU hardware"),
        "the model was built for another NPU than this board's",
        "rknn.config(target_platform=…) at build named a different SoC family than the board",
        "rebuild the model with target_platform set to the board's SoC (rk3566/rk3568 share one, "
        "rk3588 another)",
        "https://github.com/rockchip-linux/rknpu2/issues/25",
    ),
    Entry(
        "driver-too-old",
        ("driver version is too low", "recommend to upgrade the driver"),
        _re(r"(?:please upgrade to|new version: >=)\s*(?P<version>\d+(?:\.\d+)+)"),
        "the RKNPU kernel driver is older than this runtime wants (upgrade to {version})",
        "librknnrt / librkllmrt needs features of a newer RKNPU driver; with an old driver some "
        "models fail to load or run slower",
        "flash a kernel (or board image) with RKNPU driver {version} or newer; "
        "`cat /sys/kernel/debug/rknpu/version` shows the current one",
        "https://github.com/airockchip/rknn-llm/issues/62",
    ),
    Entry(
        "npu-memory-allocation",
        ("errno: 12", "failed to malloc npu memory", "swiotlb buffer", "RKNN_ERR_MALLOC_FAIL"),
        _re(r"errno: 12|failed to malloc npu memory|swiotlb buffer is full|RKNN_ERR_MALLOC_FAIL"),
        "the NPU could not allocate memory",
        "NPU buffers come from the IOMMU domain or, without an IOMMU, from the DMA heap / CMA; "
        "a firmware with the RKNPU IOMMU disabled leaves only a few MB, a small CMA or a full "
        "swiotlb bounce buffer (RK356x) fails large models, and large LLMs exceed the memory",
        "check `dmesg | grep -i npu` (`iommu is disabled` means non-IOMMU mode): use a firmware "
        "with the RKNPU IOMMU enabled or a larger CMA/DMA heap, free memory, or a smaller model",
        _OLD_TK2 + "44",
    ),
    Entry(
        "perf-debug-not-enabled",
        ("undefined symbol: rknn_get_run_time",),
        _re(r"undefined symbol: rknn_get_run_time"),
        "eval_perf could not read per-layer times (undefined symbol: rknn_get_run_time)",
        "the per-layer perf query is only there when the runtime was initialised with perf_debug",
        "call rknn.init_runtime(target=…, perf_debug=True) before eval_perf (C API: set "
        "RKNN_LOG_LEVEL=4 or query RKNN_QUERY_PERF_DETAIL after rknn_init with "
        "RKNN_FLAG_COLLECT_PERF_MASK)",
        _TK2 + "302",
    ),
    Entry(
        "perf-detail-empty",
        ("detail is empty", "Performance information is empty"),
        _re(r"detail is empty|Performance information is empty"),
        "the runtime returned an empty per-layer perf detail",
        "perf_debug was off, or the runtime does not implement the perf query (the reduced "
        "librknnmrt of RV1106/RV1103)",
        "call rknn.init_runtime(…, perf_debug=True) (C API: RKNN_LOG_LEVEL=4); on RV1106/RV1103 "
        "time rknn_run on the board instead of eval_perf",
        _TK2 + "437",
    ),
    Entry(
        "perf-run-failed",
        ("IOCTL_CMD_PERF_RUN fail",),
        _re(r"IOCTL_CMD_PERF_RUN fail"),
        "the whole-model perf run failed (IOCTL_CMD_PERF_RUN fail)",
        "the runtime could not time the run: the perf query is not supported by the reduced "
        "librknnmrt (RV1106/RV1103) or was not called after rknn_outputs_get",
        "on RV1106/RV1103 time rknn_run on the board (rknn_benchmark-style loop); elsewhere call "
        "eval_perf after an inference, with perf_debug=True for per-layer times",
        _TK2 + "437",
    ),
    Entry(
        "npu-frequency-unreadable",
        ("Failed to get NPU freq", "failed to get npu freq"),
        _re(r"(?i)failed to get npu freq"),
        "the NPU frequency could not be read",
        "no read access to the NPU devfreq nodes (not root) or a kernel without NPU devfreq; "
        "the frequency during the run is then unknown and may have been scaled down",
        "run as root and lock the CPU/DDR/NPU frequencies before profiling (rknn_model_zoo "
        "scaling_frequency.sh); compare only runs taken at the same frequencies",
        "https://github.com/airockchip/rknn_model_zoo/blob/main/scaling_frequency.sh",
    ),
    Entry(
        "eval-perf-on-simulator",
        ("simulator", "Simulator"),
        _re(r"(?i)(?:eval_perf|perf).*simulator|simulator.*(?:eval_perf|perf)"),
        "eval_perf ran on the PC simulator: no board, so no measured per-layer times",
        "init_runtime() without a target runs the model in the toolkit's simulator on the PC; "
        "performance is only measured on a connected board",
        "connect the board (adb, rknn_server running) and call rknn.init_runtime(target='rk3588' "
        "(your SoC), perf_debug=True) before eval_perf",
        "https://github.com/rockchip-linux/rknn-toolkit/issues/388",
    ),
)
"""Every entry, in matching order (the more specific first)."""

NEEDLES: tuple[str, ...] = tuple(dict.fromkeys(n for e in CATALOGUE for n in e.needles))


def match(text: str) -> tuple[Entry, dict[str, str]] | None:
    """The first entry whose needle and pattern match ``text``, with the pattern's groups."""
    if not any(needle in text for needle in NEEDLES):
        return None
    for entry in CATALOGUE:
        if any(needle in text for needle in entry.needles):
            found = entry.pattern.search(text)
            if found is not None:
                groups = {k: v for k, v in found.groupdict().items() if v is not None}
                return entry, groups
    return None


def by_id(entry_id: str) -> Entry | None:
    return next((e for e in CATALOGUE if e.id == entry_id), None)
