"""The failures catalogue: error and warning lines users post instead of a profile, each with its
cause, its fix, a public source and how firm that source is. Data only;
``parsers/known_failures.py`` reads lines with it.

Built from a survey of public issue threads (``docs/errors.md`` lists every thread and the entry
it backs). An entry matches a line when one of its ``needles`` (literal, case-sensitive) is in
the line and its ``pattern`` then matches; the pattern's named groups fill ``{name}`` fields of
``diagnosis`` and ``fix`` (``?`` when a wording lacks the value). Entries are tried in order: put
the more specific first. Every entry has a test with a real line of its source thread and a
variant in another SDK version's wording (``tests/grammars/test_failures.py``). The record is
:class:`~rknnprof.parsers.failure_entry.Entry`; the entries of the link to a runtime elsewhere
(the board's rknn_server, an RKNN3 coprocessor) are written in :mod:`.failure_catalogue_link`.
"""

from __future__ import annotations

from rknnprof.parsers.failure_catalogue_link import LINK
from rknnprof.parsers.failure_entry import LLM as _LLM
from rknnprof.parsers.failure_entry import OLD_TK2 as _OLD_TK2
from rknnprof.parsers.failure_entry import RKNPU2 as _RKNPU2
from rknnprof.parsers.failure_entry import TK1 as _TK1
from rknnprof.parsers.failure_entry import TK2 as _TK2
from rknnprof.parsers.failure_entry import ZOO as _ZOO
from rknnprof.parsers.failure_entry import Entry
from rknnprof.parsers.failure_entry import regex as _re

_REDUCED = (
    "RV1106/RV1103 run the reduced runtime (librknnmrt), which implements only a few ops on the "
    "CPU and only the zero-copy API"
)

DEVICE_RIGHTS = (
    "run as root or add the user to the device's group (`ls -l /dev/dri`, then `sudo usermod "
    "-aG video,render $USER`)"
)
"""device-not-opened's first step; ``assemble.failures.device_access`` leaves it out when the
log shows the command ran as root."""
DEVICE_DRIVER = (
    "`dmesg | grep -i rknpu` must show the driver: else use a kernel with CONFIG_ROCKCHIP_RKNPU"
)
"""device-not-opened's next step; ``assemble.failures.device_access`` gives another when the
log reads the driver's version (the driver is there)."""

# (every run of a pattern that a later literal must follow is bounded, ``\w{1,64}``: a line of
# ``rknn_`` repeated 13,000 times took 4 s to fail ``rknn_\w+, context config invalid`` from each
# start; tests/hostile/test_backtracking.py feeds every entry such lines)
CATALOGUE: tuple[Entry, ...] = (
    # -- reduced runtimes (librknnmrt, RV1106/RV1103) ------------------------------------------
    Entry(
        "unsupported-cpu-op",
        ("unsupport cpu",),
        _re(r"unsupport cpu (?P<op>\S+) op"),
        "the runtime has no CPU kernel for the {op} op the model put on the CPU",
        _REDUCED + "; an op the compiler could not place on the NPU (unsupported there, float "
        "on an int8-only NPU, or beyond an NPU size limit such as Transpose h*w) has nowhere to "
        "run",
        "change the model so that the op runs on the NPU (within the platform's limits in the "
        "Operator List, quantised) or remove it; put the librknnmrt of the toolkit's version on "
        "the board",
        _TK2 + "145",
        "medium",
    ),
    Entry(
        "cpu-fallback-failed",
        ("rknn fallback cpu failed",),
        _re(r"rknn fallback cpu failed"),
        "the runtime could not run a CPU-placed op (rknn fallback cpu failed)",
        _REDUCED + "; the `unsupport cpu … op` line before this one names the op",
        "make every op of the model run on the NPU for this platform (Operator List limits), or "
        "replace the op; update librknnmrt to the toolkit's version",
        _TK2 + "145",
        "medium",
    ),
    Entry(
        "reduced-runtime-api",
        ("context config invalid",),
        _re(r"(?P<call>rknn_\w{1,64}), context config invalid"),
        "{call} is refused by this runtime (context config invalid)",
        _REDUCED + ": rknn_inputs_set / rknn_outputs_get are not there",
        "use rknn_create_mem + rknn_set_io_mem for inputs and outputs, as the rknpu2 "
        "RV1106_RV1103 examples do",
        _TK2 + "335",
        "medium",
    ),
    # -- core masks ----------------------------------------------------------------------------
    Entry(
        "core-mask-model-mismatch",
        ("is not match with npu core number",),
        _re(r"core_mask (?P<mask>\w+) is not match with npu core number (?P<cores>\d+)"),
        "core mask {mask} does not match the model's NPU core count ({cores})",
        "the RKNN3 runtime (RK182x / RK3572 generation NPUs) fixes how many NPU cores a model "
        "uses when it is exported; a core mask naming other cores is refused",
        "export the model for the number of NPU cores you run it on, or pass the core mask "
        "that matches its export",
        "https://github.com/airockchip/rknn3-model-zoo/issues/2",
    ),
    Entry(
        "invalid-core-mask",
        ("core mask",),
        _re(r"(?:Not support core mask|failed to set core mask):\s*(?P<mask>\d+)"),
        "core mask {mask} is not valid for this NPU or model: the runtime falls back to one NPU "
        "core (single-core auto mode)",
        "only multi-core NPUs take a core mask (RK3588: 3 cores, masks 1-7; RK3576: 2 cores); "
        "RK3566/RK3568/RK3562 and RV1106 have one; a model built by an old toolkit (`NN "
        "Compiler/Model Version is 1.3.0 now`), the matmul API of older runtimes and RK3588S "
        "boards with an RKNPU driver before 0.9.6 refuse multi-core masks (the runtime falls "
        "back to single-core auto mode)",
        "use RKNN_NPU_CORE_AUTO (0) on single-core SoCs; with the matmul API (`NN "
        "Compiler/Model Version is 0.0.0`: no model), update librknnrt, whose older matmul API "
        "runs on one core; else rebuild the model with the toolkit of the board's runtime and "
        "update the RKNPU driver (0.9.6 or newer)",
        _TK2 + "7",
        "medium",
        warning=True,
    ),
    Entry(
        "core-mask-unavailable",
        ("unavailable core mask",),
        _re(r"unavailable core mask found for current platform!?\s*max core mask = (?P<max>\d+)"),
        "the core mask asks for NPU cores this SoC does not have (its highest mask is {max})",
        "a mask names cores by bit: RK3588's three cores take masks up to 7, RK3576's two up to "
        "3; a core count or mask written for RK3588 (an RKLLM demo's 3 cores, "
        "RKNN_NPU_CORE_0_1_2) asks RK3576 for a core it lacks, and the runtime goes on with the "
        "cores it has",
        "set the cores the SoC has (RK3576: RKNN_NPU_CORE_0_1, or 2 in an RKLLM demo's core "
        "count); a mask within the highest one the line names",
        # (no thread answers this wording: the line's own figure, and the Runtime API
        # Reference's rknn_set_core_mask, which lists each SoC's cores)
        "https://github.com/airockchip/rknn-toolkit2/blob/v2.3.2/doc/"
        "04_Rockchip_RKNPU_API_Reference_RKNNRT_V2.3.2_EN.pdf",
        "low",
        warning=True,
    ),
    # -- toolkit / runtime / driver / header / NPU generation mismatches -----------------------
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
        ("does not match the RKNPU hardware", "but current platform is"),
        _re(
            r"does not match the RKNPU hardware"
            r"|model is for (?P<model>\w+), but current platform is (?P<board>\w+)"
        ),
        "the model was built for another NPU than this board's",
        "rknn.config(target_platform=…) at build named a different SoC family than the board",
        "rebuild the model with target_platform set to the board's SoC (rk3566/rk3568 share one, "
        "rk3588 another)",
        _RKNPU2 + "25",
    ),
    Entry(
        "unsupported-split",
        ("Meet unsupported split",),
        _re(r"Meet unsupported split"),
        "librknnrt cannot run a Split of this model (Meet unsupported split) and aborts",
        "the model was converted by an rknn-toolkit2 older than 1.4.0, whose Split the runtime "
        "cannot execute (two reports, an FP16 openpilot model on RK3588); the maintainers' first "
        "question was whether the Split's inputs and outputs are quantized alike",
        "update rknn-toolkit2 to 1.4.0 or later (the maintainers tested it there) and librknnrt "
        "to the same version, convert the model again and run it with that runtime",
        _RKNPU2 + "34",
    ),
    Entry(
        "old-toolkit-platform-mismatch",
        ("while current platform is",),
        _re(r"target platform\[\d+\] is (?P<model>\w+), while current platform is (?P<board>\w+)"),
        "the model was built for {model} but the board is {board} (RKNN-Toolkit1 runtime)",
        "RKNN-Toolkit1 models carry their target platform and librknn_runtime refuses another "
        "(error -13); an RK3399 without Pro has no NPU at all",
        "rebuild with RKNN-Toolkit1 and rknn.config(target_platform=[…]) naming the board "
        "(rk1808, rk3399pro, rv1109, rv1126); on an RK3399 run on the CPU or use an RK3399Pro",
        _TK1 + "133",
    ),
    Entry(
        "toolkit-generation-mismatch",
        ("Invalid target_platform",),
        _re(r"Invalid target_platform '(?P<platform>[^']{0,64})'"),
        "this toolkit cannot build for {platform}",
        "RKNN-Toolkit2 builds only for RKNPU2 SoCs (RK3562/RK3566/RK3568/RK3576/RK3588, "
        "RV1103/RV1106, RV1126B); RV1109/RV1126/RK1808/RK3399Pro belong to RKNN-Toolkit1 and its "
        "runtime",
        "use RKNN-Toolkit1 v1.7.x for RV1109/RV1126/RK1808/RK3399Pro, or a target_platform of "
        "the board's RKNPU2 SoC",
        _ZOO + "191",
    ),
    # -- the link to a runtime elsewhere (rknn_server on a connected board, an RKNN3
    # coprocessor): parsers/failure_catalogue_link.py
    *LINK,
    Entry(
        "api-header-mismatch",
        ("info_len(",),
        _re(r"(?P<call>rknn_\w{1,64}), info_len\((?P<got>\d+)\) < sizeof\((?P<struct>\w+)\)"),
        "the application was built with another rknn_api.h than this librknnrt ({struct}: "
        "{got} bytes passed)",
        "the sizes of rknn_api.h structures change between SDK versions; an application "
        "compiled against one header and run with another librknnrt passes structures of the "
        "wrong size",
        "compile the application against the rknn_api.h of the board's librknnrt version (or "
        "install the librknnrt of the header's version)",
        _TK1 + "440",
        "medium",
    ),
    Entry(
        "input-size-mismatch",
        ("param input size(",),
        _re(r"param input size\((?P<got>\d+)\) < model input size\((?P<want>\d+)\)"),
        "the input buffer is smaller than the model input ({got} bytes given, {want} expected)",
        "rknn_input.type defaults to float32, so the runtime expects 4 bytes per element "
        "(4x a uint8 image); or the buffer was sized for another input shape or type",
        "set rknn_input.type (RKNN_TENSOR_UINT8 / INT8 for images) and fmt, and size the buffer "
        "from rknn_query(RKNN_QUERY_INPUT_ATTR) for that type",
        _RKNPU2 + "9",
        "medium",
    ),
    # -- model file integrity -------------------------------------------------------------------
    Entry(
        "rkllm-model-invalid",
        ("invalid rknn llm model magic", "invalid magic characters", "invalid rkllm model"),
        # (rkllm 1.2.1's wording: ``invalid rkllm model!``, rkllama issue 55)
        _re(r"invalid rknn llm model magic|invalid magic characters|invalid rkllm model\b"),
        "librkllmrt cannot read the model file (invalid magic)",
        "the .rkllm was converted by an rkllm-toolkit version this runtime does not read, or is "
        "not a complete .rkllm file (rkllm-runtime 1.0 also rejects model families it lacks)",
        "convert the model with the rkllm-toolkit of the board's librkllmrt version (the "
        "`rkllm-runtime version:` line) and check the file is complete",
        _LLM + "235",
    ),
    Entry(
        "rkllm-matmul-failed",
        ("run failed",),
        _re(r"matmul\((?P<kind>\w+)\) run failed"),
        "librkllmrt's {kind} matmul failed on the NPU",
        "the RKNPU kernel driver is older than this librkllmrt needs (the maintainers' answer "
        "for driver 0.8.2)",
        "update the board's RKNPU driver to 0.9.8 or newer (`cat /sys/kernel/debug/rknpu/"
        "version` shows the current one)",
        _LLM + "413",
    ),
    Entry(
        "rknn-model-invalid",
        ("Invalid RKNN format", "invalid RKNN_MAGIC", "Invalid RKNN fromat"),
        _re(r"Invalid RKNN (?:format|fromat)|invalid RKNN_MAGIC"),
        "the runtime cannot read the model file (not an RKNN model it knows)",
        "the file is not an .rknn this runtime reads: damaged or cut (an unfinished copy, a Git "
        "LFS pointer of ~130 bytes), an RKNN-Toolkit1 model given to an RKNPU2 runtime or the "
        "reverse, or a model much newer than the runtime",
        "compare the file's size with the converted one; convert it with the RKNN-Toolkit2 "
        "version of the board's librknnrt and load it with the runtime of the board's NPU "
        "generation (rknn-toolkit-lite2 on RKNPU2 boards)",
        _TK2 + "405",
        "low",
    ),
    # -- device access and drivers --------------------------------------------------------------
    Entry(
        "device-not-opened",
        ("failed to open rknpu module", "failed to open rknn device", "Device is not available"),
        _re(r"failed to open rknpu module|failed to open rknn device|Device is not available"),
        "the runtime could not open the NPU device",
        "the process may not open the NPU's device node (not root, not in the group owning "
        "/dev/dri/card* and renderD*, an SELinux policy), or the rknpu kernel driver is not "
        "loaded",
        f"{DEVICE_RIGHTS}; if root fails too, {DEVICE_DRIVER}",
        _RKNPU2 + "17",
    ),
    Entry(
        "npu-type-unreadable",
        ("Meet unsupported target type",),
        _re(r"Meet unsupported target type:\s*(?P<type>0x[0-9a-fA-F]{1,16}|-?\d{1,20})"),
        "librknnrt read no NPU type it knows from the device it opened (Meet unsupported "
        "target type: {type})",
        # (0xffffffff: -1, no hardware version read)
        "reported (the cited thread, no answer) on an RK3576 with librknnrt 2.0.0b0, after "
        "/dev/rknpu was made a symlink to the NPU's DRM render node (`ln -s /dev/dri/renderD129 "
        "/dev/rknpu`), then a segmentation fault; such a symlink sends librknnrt down its legacy "
        "/dev/rknpu ioctls, which the DRM node does not answer (hw_version -1 in "
        "invisiofficial/rk-llama.cpp#19)",
        "remove a /dev/rknpu symlink to a /dev/dri node: without /dev/rknpu librknnrt finds the "
        "NPU among /dev/dri/card* itself (the fix confirmed in invisiofficial/rk-llama.cpp#19); "
        "let the process open /dev/dri/card* and renderD* (in a container, pass /dev/dri/* "
        "through, as that thread does)",
        _TK2 + "534",
        "low",
    ),
    Entry(
        "too-many-open-files",
        ("Too many open files", "errno: 24"),
        _re(r"errno: 24\b|Too many open files"),
        "the process ran out of file descriptors (errno 24): each NPU buffer holds one",
        "large models (LLMs) map thousands of NPU buffers, each a file descriptor; the default "
        "limit (1024) is too small",
        "raise the limit before starting: `ulimit -n 102400` (LimitNOFILE= in a service unit)",
        _LLM + "17",
    ),
    Entry(
        "npu-address-space-full",
        ("errno: 14",),
        _re(r"errno: 14\b"),
        "the NPU could not map a buffer (errno 14, Bad address)",
        "a large model's weights (GBs) do not fit the NPU's IOMMU address domain: two large "
        "models in one domain, another process holding the NPU's address space (a demo "
        "service started at boot; the kernel logs `RKNPU: failed to allocate IOVA`), too "
        "little free memory, or an RKNPU driver older than the runtime wants",
        "give each large model its own domain (RKLLMParam.extend_param.base_domain_id 0 for "
        "one, 1 for the next), stop other processes that use the NPU (`fuser -v /dev/dri/*`), "
        "free memory or use a smaller model, and update the RKNPU driver and the runtime to "
        "their latest versions",
        _LLM + "437",
        "medium",
    ),
    Entry(
        "npu-memory-allocation",
        ("errno: 12", "failed to malloc npu memory", "swiotlb buffer", "RKNN_ERR_MALLOC_FAIL"),
        _re(r"errno: 12\b|failed to malloc npu memory|swiotlb buffer is full|RKNN_ERR_MALLOC_FAIL"),
        "the NPU could not allocate memory",
        "NPU buffers come from the IOMMU domain or, without an IOMMU, from the DMA heap / CMA; "
        "a firmware with the RKNPU IOMMU disabled leaves only a few MB, a small CMA or a full "
        "swiotlb bounce buffer (RK356x) fails large models, and large LLMs exceed the memory",
        "check `dmesg | grep -i npu` (`iommu is disabled` means non-IOMMU mode): use a firmware "
        "with the RKNPU IOMMU enabled or a larger CMA/DMA heap, free memory, or a smaller model",
        _OLD_TK2 + "44",
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
        _LLM + "62",
        warning=True,
    ),
    Entry(
        "npu-register-region-busy",
        ("can't request region for resource",),
        _re(
            r"RKNPU:? \S{1,64}: (?:error -EBUSY: )?can't request region for resource "
            r"\[mem (?P<range>0x[0-9a-fA-F]{1,16}-0x[0-9a-fA-F]{1,16})\]"
        ),
        "the RKNPU driver could not reserve the NPU registers at {range} (-EBUSY: another "
        "device claims them), and maps them without the reservation",
        # (the cause names no "driver": the driver is what prints it, not what to suspect, so
        # no driver-version note is added to it; assemble.failures.beside_an_old_driver)
        "as it starts (its probe), rknpu reserves each NPU core's register range; when the range "
        "is already claimed the kernel refuses (-EBUSY), and the probe maps the registers "
        "anyway and goes on: `[drm] Initialized rknpu …` follows. The cited thread shows it on "
        "an RK3576 (kernel 6.18, rknpu 0.9.8) whose runtime then failed with `failed to open "
        "rknn device`; no one there has answered",
        "none for this line, which the driver goes on after; where a run fails, the runtime's "
        "own error line says why (the cited thread's: `failed to open rknn device`), with its "
        "own fix",
        "https://github.com/ophub/fnnas/issues/620",
        "low",
        warning=True,
        notice=True,
    ),
    # -- submit failures ------------------------------------------------------------------------
    Entry(
        "submit-failed",
        ("failed to submit",),
        # (1.4's `failed to submit! op id: 1, op name: …`, lite2's `failed to submit! Op id:3 ,
        # op name: …`: the comma after `!` and the spaces around the id vary)
        _re(
            r"failed to submit!?(?:,?\s{0,8}[Oo]p id:\s{0,8}(?P<op_id>\d{1,20})\s{0,8},\s{0,8}"
            r"op name:\s{0,8}(?P<op>[^,]{1,256}))?"
        ),
        "an NPU task did not complete (failed to submit, op {op})",
        "the NPU job of that op failed or timed out: most often a runtime bug or a toolkit, "
        "runtime and driver of different versions (fixed by newer releases), also inputs of "
        "another type than the model's (float data to an int8 model), one context used from "
        "several threads, or a kernel whose RKNPU driver/IOMMU setup the runtime does not suit",
        "convert and run with the same, latest toolkit2 and librknnrt (and the RKNPU driver "
        "they want); check the input type and size against rknn_query; use one context per "
        "thread; try the board vendor's kernel",
        _OLD_TK2 + "30",
        "medium",
    ),
    Entry(
        "npu-job-timeout",
        ("RKNPU: job timeout", "RKNPU: failed to wait job", "RKNPU: job abort"),
        _re(r"RKNPU: (?P<what>job timeout|failed to wait job|job abort)"),
        "the RKNPU kernel driver gave up on an NPU job ({what})",
        "the kernel's side of the runtime's `failed to submit`: the NPU raised no completion "
        "interrupt in time (task counter 0: none of the job's tasks ran), and the driver soft-"
        "resets the NPU; reported with a toolkit, runtime and driver of different versions and "
        "with kernels whose RKNPU driver the runtime does not suit; `ret = -512` is a wait cut "
        "short by a signal (the process was stopped or killed)",
        "find the application's `failed to submit` line of the same time (it names the op); run "
        "the same, latest toolkit2 and librknnrt with the RKNPU driver they want, one context per "
        "thread; if it recurs after a reboot, try the board vendor's kernel",
        _OLD_TK2 + "320",
        "low",
    ),
    # -- RKLLM init -----------------------------------------------------------------------------
    Entry(
        "rkllm-cpus-below-npu-cores",
        ("number of enabled CPUs must be",),
        _re(r"number of enabled CPUs must be greater than or equal to the number of NPU cores"),
        "librkllmrt refused to start: fewer CPUs are enabled than the NPU cores the model was "
        "exported for",
        "the model was exported for N NPU cores (rkllm-toolkit's num_npu_core: the "
        "`npu_core_num:` of the init lines), and librkllmrt wants at least one enabled CPU per "
        "NPU core (the `Enabled cpus num:` line shows fewer)",
        "set RKLLMParam.extend_param.enabled_cpus_num (and as many CPUs in enabled_cpus_mask) "
        "to at least the model's NPU core count (the `npu_core_num:` line), or export the model "
        "for fewer NPU cores (rkllm-toolkit's num_npu_core)",
        _LLM + "271",
    ),
    Entry(
        "rkllm-init-failed",
        ("rkllm_init failed", "rkllm init failed"),
        _re(r"rkllm_init failed|rkllm init failed"),
        "rkllm_init failed",
        "the lines before it say why: the NPU device could not be opened (permissions, "
        "SELinux), the model could not be loaded (toolkit and runtime versions), NPU memory, or "
        "an RKNPU driver older than the runtime wants",
        "read the first E line above it; `export RKLLM_LOG_LEVEL=2` prints more; compare `cat "
        "/sys/kernel/debug/rknpu/version` with the runtime's requirement",
        _LLM + "437",
        "low",
    ),
    Entry(
        "rkllm-unsupported-platform",
        ("Platform error: must be either",),
        _re(r"Platform error: must be either (?P<supported>[^.]{1,256})"),
        "RKLLM does not run on this SoC (librkllmrt supports {supported})",
        "librkllmrt runs only on the SoCs it names; RK3566/RK3568 (which it reports as `lite`) "
        "are not among them",
        "run the LLM on one of the SoCs the runtime names, or on this board's CPU; RKNN models "
        "(librknnrt) still run on its NPU",
        _LLM + "416",
        "medium",
    ),
    Entry(
        "rkllm-query-platform",
        ("Query platform error",),
        _re(r"Query platform error"),
        "librkllmrt could not identify the SoC (Query platform error!)",
        "rkllm-runtime 1.0.1 does not recognise the platform through the RKNPU drivers boards "
        "ship now (reported with drivers 0.9.6 and 0.9.8); a newer runtime does",
        "update librkllmrt to 1.1.4 or later and convert the model with the rkllm-toolkit of "
        "the same version (a model converted with 1.0.1 is converted again)",
        _LLM + "154",
    ),
    Entry(
        "rkllm-aborted",
        ("GGML_ASSERT(", "ggml_calloc: failed to allocate"),
        _re(r"(?P<what>GGML_ASSERT\(.{0,80}|ggml_calloc: failed to allocate)"),
        "librkllmrt aborted: a check inside its ggml core failed ({what})",
        "no public thread has a confirmed answer; reports show it after the model failed to load "
        "(`invalid rknn llm model magic` just before, the demo going on regardless) and on board "
        "images with an older runtime than the model's toolkit",
        "read the lines before it: a model load error there is the cause; else convert the model "
        "with the rkllm-toolkit of the board's librkllmrt version (the `rkllm-runtime version:` "
        "line), keep max_context_len within the model's, check free memory (`free -m`), and "
        "update librkllmrt",
        _LLM + "183",
        "low",
    ),
    # -- conversion (rknn.build) ------------------------------------------------------------------
    Entry(
        "register-field-overflow",
        ("REGTASK: The bit width",),
        _re(
            r"REGTASK: The bit width of field value exceeds the limit"
            r"[^\n]{0,200}?limit: 0x1fff, value: (?P<value>0x[0-9a-fA-F]{1,8})"
        ),
        "an op's size does not fit the NPU's 13-bit register field (value {value}, limit "
        "0x1fff = 8,191)",
        "the compiler writes each op's sizes into 13-bit register fields (at most 8,191, "
        "0x1fff); a tensor whose compiled layout needs more along one axis (a high input "
        "resolution, an elementwise op over a long flattened tensor) overflows it, and the "
        "conversion may still write a model whose op computes wrong values",
        "keep every axis the op sees under 8,192: a lower input resolution, or split or reshape "
        "the tensor; an elementwise multiply or divide over a long tensor can become a 1x1 "
        "convolution (the reporter's fix in the cited thread); then compare the converted "
        "model's outputs with the original's (rknn.accuracy_analysis); RKNN(verbose=True) "
        "prints the passes before the error",
        _TK2 + "347",
        "medium",
    ),
    Entry(
        "argb-layer-config-failed",
        ("failed to config argb mode layer",),
        _re(r"failed to config argb mode layer"),
        "the compiler could not lay out a layer in its ARGB mode (failed to config argb mode "
        "layer), and the build aborted",
        "reported converting YOLOv8 for RK3588 with rknn-toolkit2 1.6.0: the DFL head's "
        "Softmax, newly run on the RK3588 NPU in that release, fails to compile (the same "
        "model converts for RK3562/RK3566/RK3568)",
        "export the model with airockchip/ultralytics_yolov8 (its ONNX leaves the DFL decoding "
        "to post-processing), or convert with a newer rknn-toolkit2; RKNN(verbose=True) names "
        "the passes before the error",
        _OLD_TK2 + "272",
        "medium",
    ),
    # -- eval_perf and perf queries -------------------------------------------------------------
    Entry(
        "perf-too-many-clients",
        ("ACK_PERF_TOO_MANY_CLIENT",),
        _re(r"ACK_PERF_TOO_MANY_CLIENT"),
        "the NPU refused another perf-debug client (ACK_PERF_TOO_MANY_CLIENT)",
        "only one context at a time may run with perf debug (perf_debug=True / the perf flags "
        "of rknn_init) on the RKNN-Toolkit1 NPU",
        "drop the perf debug flags from rknn_init (perf_debug=False) in every context but the "
        "one you profile",
        "https://github.com/rockchip-linux/rknpu/issues/9",
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
                groups = {k: v.strip() for k, v in found.groupdict().items() if v is not None}
                return entry, groups
    return None


def by_id(entry_id: str) -> Entry | None:
    return next((e for e in CATALOGUE if e.id == entry_id), None)
