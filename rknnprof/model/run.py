"""What a log says about the run besides the table: versions, clocks, benchmark timings, RKLLM
statistics and known failure lines."""

from __future__ import annotations

from rknnprof.model.record import Record, record


@record
class Versions(Record):
    """Software versions the log names; ``None`` where it does not say."""

    runtime: str | None = None
    """librknnrt version, e.g. ``2.3.2`` (hash and date dropped)."""
    driver: str | None = None
    """RKNPU kernel driver version, e.g. ``0.9.8``."""
    toolkit: str | None = None
    """rknn-toolkit(2) / compiler version that built the model."""
    api: str | None = None
    """Toolkit API version (``D RKNNAPI: API:`` lines, toolkit2 1.x)."""
    lite: str | None = None
    """rknn-toolkit-lite2 version, the board's Python package (``rknn-toolkit-lite2
    version: 2.3.2``)."""
    server: str | None = None
    """rknn_server version, the board's server for the toolkit's connected runs
    (``rknn_server version: 2.3.2``); its own release, which may differ from librknnrt's."""
    model: str | None = None
    """RKNN model format version (``RKNN Model Information, version: 6``)."""
    llm_runtime: str | None = None
    """librkllmrt version (``rkllm-runtime version: 1.2.1``), e.g. ``1.2.1``."""
    llm_toolkit: str | None = None
    """rkllm-toolkit version that converted the model (``rkllm-toolkit version: 1.2.1``)."""
    llm_dtype: str | None = None
    """The RKLLM model's quantization as the runtime prints it (``model_dtype: W8A8``)."""

    def named(self) -> list[tuple[str, str]]:
        """(label, version) of each version the log names, in the order reports show them
        (``[("runtime", "2.3.2"), ("driver", "0.9.8")]``)."""
        labelled = (
            ("runtime", self.runtime),
            ("librkllmrt", self.llm_runtime),
            ("driver", self.driver),
            ("rknn_server", self.server),
            ("toolkit", self.toolkit),
            ("rkllm-toolkit", self.llm_toolkit),
            ("model", self.llm_dtype),
            ("api", self.api),
            ("toolkit-lite2", self.lite),
            ("model format", self.model),
        )
        return [(label, value) for label, value in labelled if value]


@record
class Frequencies(Record):
    """The eval_perf frequency lists. CPU in kHz, NPU and DDR in Hz (User Guide); ``None``
    entries stand for ``Unknown``."""

    cpu_khz: tuple[int | None, ...] = ()
    npu_hz: tuple[int | None, ...] = ()
    ddr_hz: tuple[int | None, ...] = ()


@record
class NpuClock(Record):
    """The NPU clock that converts a profile's cycles to time, and where it comes from."""

    mhz: float
    """NPU clock, MHz."""
    basis: str
    """``log`` (the log's own NPU frequency line: what the run was fixed at),
    ``fixed-frequency-script`` (the rate the model zoo's ``scaling_frequency.sh`` fixes the SoC
    at) or ``datasheet`` (the SoC's maximum NPU clock), tried in that order."""
    note: str = ""
    """One line naming the value and its source, e.g. ``rk3576: scaling_frequency.sh fixes
    1000 MHz (datasheet maximum 950 MHz)``."""


@record
class RunLine(Record):
    """A line of the log about how the run was taken, not profile data: a clock reading, a
    debugger, trace or tensor-dump line, eval_mem. Analysis turns these into
    ``Validity.conditions``."""

    kind: str
    """``clock``, ``debugger`` (gdb/lldb breakpoints and prompts), ``trace`` (strace ioctl or
    mem-sync call lines), ``dump`` (``dump npy tensor to: …``) or ``eval-mem``."""
    line: int
    """1-based line of the first such line (of this kind, domain and value)."""
    text: str
    """That line as read (prefixes stripped), cut to 200 characters."""
    count: int = 1
    """How many lines of this kind (and domain and value) the stream printed."""
    domain: str | None = None
    """``NPU``, ``DDR`` or ``CPU`` for a clock; ``None`` otherwise."""
    mhz: float | None = None
    """The clock read, MHz; ``None`` for other kinds."""


@record
class BenchmarkRun(Record):
    """rknn_benchmark / rknn_common_test output."""

    run_times_ms: tuple[float, ...] = ()
    """``Elapse Time`` of each timed run (after warm-up), milliseconds."""
    warmup_times_ms: tuple[float, ...] = ()
    """``Elapse Time`` of each warm-up run, milliseconds."""
    avg_time_ms: float | None = None
    """``Avg Time`` as printed, milliseconds."""
    avg_fps: float | None = None
    """``Avg FPS`` as printed, frames per second."""
    inputs: tuple[str, ...] = ()
    """The input tensors the program printed (``input tensors:``), each as its name and dims
    (``images [1,640,640,3]``): which model ran, where the log names no model file."""
    outputs: tuple[str, ...] = ()
    """The output tensors it printed (``output tensors:``), as :attr:`inputs`."""


@record
class LlmGeneration(Record):
    """One generation's RKLLM stage table (``RKLLM_LOG_LEVEL=1``), as printed."""

    line: int
    """1-based line of the table's first line."""
    prefill_ms: float | None = None
    """``Prefill`` row Total Time, milliseconds: from the request to the first token."""
    prefill_tokens: int | None = None
    """``Prefill`` row Tokens: the prompt tokens."""
    prefill_tokens_per_s: float | None = None
    """The row's Tokens per Second as printed (else tokens / time), tokens per second."""
    generate_ms: float | None = None
    """``Generate`` row Total Time, milliseconds: the decode steps after the first token."""
    generate_tokens: int | None = None
    """``Generate`` row Tokens: one per decode step (the prefill's token is not counted)."""
    decode_tokens_per_s: float | None = None
    """The Generate row's Tokens per Second as printed (else tokens / time), tokens per second."""
    ttft_ms: float | None = None
    """Time to first token, milliseconds: the Prefill row's Total Time (the runtime's clock;
    the application's own work before ``rkllm_run`` is not in it)."""


@record
class LlmRun(Record):
    """RKLLM runtime statistics (rknn-llm, ``RKLLM_LOG_LEVEL=1``): the stage table printed
    after each generation (``per_generation``), and the median of each figure over them."""

    generations: int = 1
    """How many stage tables the log holds (the medians are over them)."""
    prefill_ms: float | None = None
    """Median ``Prefill`` Total Time, milliseconds (this and the other prefill medians are
    None when the generations' prompts differ more than twofold: a prefill's time and rate
    follow its prompt's length; ``per_generation`` has each)."""
    prefill_tokens: int | None = None
    """Median ``Prefill`` Tokens (one generation's prompt only when ``generations`` is 1)."""
    prefill_tokens_per_s: float | None = None
    """Median of the generations' prefill rates, tokens per second."""
    generate_ms: float | None = None
    """Median ``Generate`` Total Time, milliseconds."""
    generate_tokens: int | None = None
    """Median ``Generate`` Tokens: decode steps."""
    decode_steps: int | None = None
    """Median decode steps: the Generate row's tokens (the prefill makes the first token)."""
    decode_tokens_per_s: float | None = None
    """Median of the generations' decode rates, tokens per second (the Generate row's Tokens
    per Second column)."""
    init_ms: float | None = None
    """Model init time, milliseconds (v1.1 ``Init`` row, v1.2+ ``Model init time (ms)``)."""
    peak_memory_mb: float | None = None
    """Peak memory, MB (v1.2 ``Peak Memory Usage (GB)`` x 1024, 1.3.0 ``(MB)``; v1.1
    ``Memory Usage (GB)``)."""
    ttft_ms: float | None = None
    """Median time to first token, milliseconds (the Prefill rows' Total Time)."""
    per_generation: tuple[LlmGeneration, ...] = ()
    """Each generation's figures, in log order."""


@record
class KnownFailure(Record):
    """An error or warning line of the failures catalogue (``parsers/failure_catalogue.py``)
    found in the log: what failed, why, and what to change."""

    id: str
    """The catalogue entry, e.g. ``unsupported-cpu-op`` (``docs/errors.md`` lists them)."""
    line: int
    """1-based line of the (first) matching line."""
    text: str
    """That line as read (prefixes stripped), cut to 200 characters."""
    diagnosis: str
    """One line: what failed, with the values the line gives (op, core mask, version)."""
    cause: str
    fix: str
    source: str
    """A public page showing the line and its cause or fix (``unknown``: empty)."""
    confidence: str = "high"
    """How firm the source is: ``high`` (a maintainer's answer or the reporter's confirmed
    fix), ``medium`` (a commenter's answer, or several threads agreeing), ``low`` (inferred,
    no confirmed answer); ``unknown`` entries: ``low``."""
    severity: str = "error"
    """``error`` (the runtime stopped) or ``warning`` (it went on: driver too old, core mask
    fallen back, frequency unreadable)."""
    context: tuple[str, ...] = ()
    """Other error lines around this one, as read (the traceback's exception, the lines the
    runtime printed before or after it), at most 5 of 200 characters each."""
