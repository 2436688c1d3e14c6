"""rknn_benchmark / rknn_common_test output (and the C demos' console header).

Grammar (rknpu2 ``rknn_benchmark.cpp``, samples 20 and 41)::

    ./rknn_benchmark ../yolov5s.rknn ../cat.jpg 10 1        <- shell prompt line, when pasted
    rknn_api/rknnrt version: 2.1.0 (967d001cc8@2024-08-07T19:28:19), driver version: 0.9.6
    total weight size: …, total internal size: …
    total dma used size: …
    model input num: 1, output num: 3
    input tensors:
      index=0, name=images, …
    output tensors:
      …
    custom string:
    Warmup ...
       0: Elapse Time = 27.64ms, FPS = 36.18
    Begin perf ...
       0: Elapse Time = 12.31ms, FPS = 81.23

    Avg Time 12.34ms, Avg FPS = 81.037
    ---- Top5 ----
    0.935059 - 156

Older builds print only ``Avg FPS = x``; other demos print ``Avg elapse Time = x.xxxms``. Elapse
lines before ``Begin perf ...`` (after ``Warmup ...``) are warm-up runs. The C demos print
``sdk version: 2.0.0b0 (…) driver version: 0.7.2`` instead of the rknnrt line (13).

Emits a BenchmarkEvent (times in milliseconds, as printed) when any run or average was read, and
an InfoEvent when the version line was read. The core mask is an argument of the command and is
not echoed; the model file name is taken from the pasted command line when present.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import BenchmarkRun, Versions
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import BenchmarkEvent, InfoEvent
from rknnprof.parsers.runtime_info import model_path_platform
from rknnprof.parsers.table.tokens import to_float

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "benchmark"

_VERSION = LazyPattern(
    r"(?:rknn_api/rknnrt|sdk) version:\s*+(?P<runtime>[\w.]++)(?:\s*+\([^)]*+\))?,?\s*+"
    r"driver version:\s*(?P<driver>[\w.]+)"
)
_COMMAND = LazyPattern(r"(?:rknn_benchmark|rknn_common_test|_demo)\S*\s+(?P<model>\S+\.rknn)\b")
_ELAPSE = LazyPattern(r"^\s*\d+:\s*Elapse Time\s*=\s*(?P<ms>\d+(?:\.\d+)?)\s*ms")
_AVG_TIME = LazyPattern(r"Avg (?:elapse )?Time\s*+=?\s*+(?P<ms>\d+(?:\.\d+)?)\s*ms", re.IGNORECASE)
_AVG_FPS = LazyPattern(r"Avg FPS\s*=\s*(?P<fps>\d+(?:\.\d+)?)")
_TENSOR = LazyPattern(
    r"^\s*index=\d+, name=(?P<name>[^,]*), n_dims=\d+, dims=\[(?P<dims>[\d, ]*)\]"
)
"""An ``input tensors:`` line (rknn_benchmark's ``dump_tensor_attr``): its name and dims."""
MAX_INPUTS = 16
"""Input (and output) tensors kept per benchmark (a model's are a handful)."""
_RUN_START = LazyPattern(r"^\s*\d+(?::|$)")
"""The start of a run line (``   3: Elapse …``), also one the input cut short."""
_TOP_ROW = LazyPattern(r"^\s*-?\d+(?:\.\d+)?(?:e-?\d+)?\s+-\s+\d+\s*$")
_OWN_PREFIXES = (
    "total weight size",
    "total internal size",
    "total dma used size",
    "model input num",
    "input tensors:",
    "output tensors:",
    "index=",
    "custom string:",
    "model is ",
    "model input ",
    "---- Top5",
    "Loading mode",
    "post process config",
)


def _opens_on(text: str) -> bool:
    return (
        "version:" in text
        and _VERSION.search(text) is not None
        or "Elapse Time" in text
        and _ELAPSE.match(text) is not None
        or text.strip() in ("Warmup ...", "Begin perf ...")
        or "Avg " in text
        and (_AVG_FPS.search(text) or _AVG_TIME.search(text)) is not None
        or ".rknn" in text
        and _COMMAND.search(text) is not None
    )


MAX_RUNS = 100_000
"""Run (and warm-up) times kept per benchmark; a longer run is counted no further (one
warning). rknn_benchmark runs are tens to thousands."""


class _Benchmark(Block):
    def __init__(self, line: Line) -> None:
        self.first_line = self.last_line = line.number
        self.stream = line.stream
        self.version_line: int | None = None
        self.versions: Versions | None = None
        self.model_name: str | None = None
        self.inputs: list[str] = []
        self.outputs: list[str] = []
        self.tensors = ""
        """``input`` or ``output``: the tensor list being printed, else ``""``."""
        self.platform_guess: tuple[int, str, str] | None = None
        """(line, platform, evidence) from the command's model path (model/RV1106/x.rknn)."""
        self.in_warmup = False
        self.warmup: list[float] = []
        self.runs: list[float] = []
        self.runs_capped = 0
        """Line of the first run time past :data:`MAX_RUNS` (0: none)."""
        self.avg_time_ms: float | None = None
        self.avg_fps: float | None = None
        self.followed = False
        """A line other than a run time came after the timed runs (Avg, Top5, the next
        program): the output was not cut inside the runs' loop."""

    @property
    def _has_results(self) -> bool:
        averages = (self.avg_fps, self.avg_time_ms)
        return bool(self.runs or self.warmup) or any(v is not None for v in averages)

    def feed(self, line: Line) -> bool:
        text = line.text
        stripped = text.strip()
        if not stripped:
            return True
        if self.runs and not _RUN_START.match(text):
            self.followed = True
        if (version := _VERSION.search(text)) is not None:
            if self.versions is not None or self._has_results:
                return False  # the next run of a program
            self.versions = Versions(
                runtime=version.group("runtime"), driver=version.group("driver")
            )
            self.version_line = line.number
        elif (command := _COMMAND.search(text)) is not None:
            if self.versions is not None or self._has_results:
                return False
            self.model_name = PurePosixPath(command.group("model")).name
            if (guess := model_path_platform(text)) is not None:
                self.platform_guess = (line.number, *guess)
        elif stripped == "Warmup ...":
            self.in_warmup = True
        elif stripped == "Begin perf ...":
            self.in_warmup = False
        elif (elapse := _ELAPSE.match(text)) is not None:
            times = self.warmup if self.in_warmup else self.runs
            if len(times) < MAX_RUNS:
                times.append(to_float(elapse.group("ms")))
            elif not self.runs_capped:
                self.runs_capped = line.number
        elif "Avg" in text and (_AVG_FPS.search(text) or _AVG_TIME.search(text)):
            if (avg_time := _AVG_TIME.search(text)) is not None:
                self.avg_time_ms = to_float(avg_time.group("ms"))
            if (avg_fps := _AVG_FPS.search(text)) is not None:
                self.avg_fps = to_float(avg_fps.group("fps"))
        elif stripped in ("input tensors:", "output tensors:"):
            self.tensors = stripped.split()[0]
        elif stripped.startswith("index=") and (tensor := _TENSOR.match(text)) is not None:
            listed = self.inputs if self.tensors == "input" else self.outputs
            if self.tensors and len(listed) < MAX_INPUTS:
                dims = ",".join(d.strip() for d in tensor.group("dims").split(","))
                listed.append(f"{tensor.group('name').strip()} [{dims}]")
        elif stripped.startswith(_OWN_PREFIXES) or _TOP_ROW.match(stripped):
            pass
        else:
            return False
        self.last_line = line.number
        return True

    def close(self) -> list[Event]:
        events: list[Event] = []
        if self.versions is not None and self.version_line is not None:
            events.append(InfoEvent(self.version_line, self.versions, stream=self.stream))
        if self.platform_guess is not None:
            line, platform, evidence = self.platform_guess
            events.append(InfoEvent(line, Versions(), platform, evidence, stream=self.stream))
        if self._has_results:
            run = BenchmarkRun(
                run_times_ms=tuple(self.runs),
                warmup_times_ms=tuple(self.warmup),
                avg_time_ms=self.avg_time_ms,
                avg_fps=self.avg_fps,
                inputs=tuple(self.inputs),
                outputs=tuple(self.outputs),
            )
            notes: tuple[tuple[int, str], ...] = (
                (
                    (
                        self.runs_capped,
                        f"more than {MAX_RUNS:,} run times in one benchmark: the "
                        "rest are not counted",
                    ),
                )
                if self.runs_capped
                else ()
            )
            if self.runs and not self.followed and self.avg_time_ms is None:
                runs = (
                    "its first timed run, with no Avg line or output after it"
                    if len(self.runs) == 1
                    else f"{len(self.runs)} timed runs, with no Avg line or output after them"
                )
                notes += (
                    (
                        self.last_line,
                        f"the benchmark stops after {runs}: the log may be cut inside the loop, "
                        "so its figures cover the runs shown only",
                    ),
                )
            avg = self.avg_time_ms
            if self.runs and avg is not None and not _within_runs(avg, self.runs):
                notes += (
                    (
                        self.last_line,
                        f"the benchmark's Avg Time {avg:g} ms lies outside its "
                        f"{len(self.runs)} timed run(s), {min(self.runs):g}-{max(self.runs):g} "
                        "ms: an edited log, or an average of other runs (the gate judges the "
                        "runs)",
                    ),
                )
            events.append(
                BenchmarkEvent(
                    self.first_line, self.last_line, run, self.model_name, self.stream, notes
                )
            )
        return events


def _within_runs(avg_ms: float, runs_ms: list[float]) -> bool:
    """An average of these runs, to their printed rounding (0.01 ms) and 1 %."""
    slack = max(0.01, 0.01 * max(runs_ms))
    return min(runs_ms) - slack <= avg_ms <= max(runs_ms) + slack


class BenchmarkParser(BlockParser):
    family = FAMILY
    detection = (
        "`rknn_api/rknnrt version: …, driver version: …`, `Warmup ...`/`Begin perf ...`, "
        "`N: Elapse Time = x ms, FPS = y` or `Avg … FPS =` lines"
    )
    fields = "per-run times (warm-up and timed, ms), Avg Time/FPS, runtime and driver versions"

    def opens(self, line: Line) -> Block | None:
        if not _opens_on(line.text):
            return None
        block = _Benchmark(line)
        block.feed(line)
        return block
