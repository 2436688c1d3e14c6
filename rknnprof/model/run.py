"""What a log says about the run besides the table: versions, clocks, benchmark timings, RKLLM
statistics and known failure lines."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Versions:
    """Software versions the log names; ``None`` where it does not say."""

    runtime: str | None = None
    """librknnrt version, e.g. ``2.3.2`` (hash and date dropped)."""
    driver: str | None = None
    """RKNPU kernel driver version, e.g. ``0.9.8``."""
    toolkit: str | None = None
    """rknn-toolkit(2) / compiler version that built the model."""
    api: str | None = None
    """Toolkit API version (``D RKNNAPI: API:`` lines, toolkit2 1.x)."""
    model: str | None = None
    """RKNN model format version (``RKNN Model Information, version: 6``)."""


@dataclass(frozen=True, slots=True)
class Frequencies:
    """The eval_perf frequency lists. CPU in kHz, NPU and DDR in Hz (User Guide); ``None``
    entries stand for ``Unknown``."""

    cpu_khz: tuple[int | None, ...] = ()
    npu_hz: tuple[int | None, ...] = ()
    ddr_hz: tuple[int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class RunLine:
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


@dataclass(frozen=True, slots=True)
class BenchmarkRun:
    """rknn_benchmark / rknn_common_test output."""

    run_times_ms: tuple[float, ...] = ()
    """``Elapse Time`` of each timed run (after warm-up), milliseconds."""
    warmup_times_ms: tuple[float, ...] = ()
    """``Elapse Time`` of each warm-up run, milliseconds."""
    avg_time_ms: float | None = None
    """``Avg Time`` as printed, milliseconds."""
    avg_fps: float | None = None
    """``Avg FPS`` as printed, frames per second."""


@dataclass(frozen=True, slots=True)
class LlmRun:
    """RKLLM runtime statistics (rknn-llm, ``RKLLM_LOG_LEVEL=1``): the stage table printed
    after each generation, merged over the generations of one log (medians)."""

    generations: int = 1
    """How many stage tables were merged."""
    prefill_ms: float | None = None
    """``Prefill`` row Total Time, milliseconds (time to the first token)."""
    prefill_tokens: int | None = None
    """``Prefill`` row Tokens: prompt tokens."""
    prefill_tokens_per_s: float | None = None
    """prefill_tokens / prefill time, tokens per second."""
    generate_ms: float | None = None
    """``Generate`` row Total Time, milliseconds."""
    generate_tokens: int | None = None
    """``Generate`` row Tokens: generated tokens (the first comes out of the prefill)."""
    decode_steps: int | None = None
    """generate_tokens - 1: the decode steps the Generate time covers."""
    decode_tokens_per_s: float | None = None
    """decode_steps / generate time, tokens per second; None without a decode step."""
    init_ms: float | None = None
    """Model init time, milliseconds (v1.1 ``Init`` row, v1.2+ ``Model init time (ms)``)."""
    peak_memory_mb: float | None = None
    """Peak memory, MB (v1.2 ``Peak Memory Usage (GB)`` x 1024, 1.3.0 ``(MB)``; v1.1
    ``Memory Usage (GB)``)."""


@dataclass(frozen=True, slots=True)
class KnownFailure:
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
    """A public page showing the line and its cause or fix."""
