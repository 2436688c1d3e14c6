"""RKLLM runtime statistics (rknn-llm on the same NPU, ``RKLLM_LOG_LEVEL=1``), every line behind
``I rkllm: `` (stripped by ``lines`` into level ``I``, tag ``rkllm``):

* init lines: ``rkllm-runtime version: 1.2.1, rknpu driver version: 0.9.8, platform: RK3588``
  and ``rkllm-toolkit version: 1.2.1, max_context_limit: 4096, npu_core_num: 3, …`` -> an
  :class:`~rknnprof.parsers.events.InfoEvent` (runtime = librkllmrt, driver, toolkit, platform);
* the stage table after each generation, in the known variants:

  - v1.1: ``Stage  Total Time (ms)  Tokens  Time per Token (ms)  Tokens per Second``, rows
    ``Init  189073.94  /  /  /``, ``Prefill  1523.53  47  32.42  30.85``, ``Generate …``, then
    ``Memory Usage (GB)`` and its value on the next line;
  - v1.2: ``Model init time (ms)  3361.48`` before the table (no Init row), ``Peak Memory
    Usage (GB)`` after it;
  - 1.3.0: as v1.2 with ``Peak Memory Usage (MB)``;
  - rows pasted without their header (``Prefill  196.36  4  49.09  20.37``, all five
    columns): read in the runtime's column order, as a fragment (a warning says so).

  -> one :class:`~rknnprof.parsers.events.LlmStatsEvent` per table, with the Tokens per Second
  columns as printed (the assembler takes the rates from them).

The driver-too-low warning (``Warning: Your rknpu driver version is too low, please upgrade
to 0.9.7``) is a line of the failures catalogue (``known_failures``), not read here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model import Versions
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import InfoEvent, LlmStatsEvent
from rknnprof.parsers.table.tokens import is_rule

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "rkllm-runtime"
_RUNTIME = LazyPattern(
    r"rkllm-runtime version:\s*(?P<runtime>[\w.]+)"
    r"(?:.*?rknpu driver version:\s*(?P<driver>[\w.]+))?"
    r"(?:.*?platform:\s*(?P<platform>\w+))?"
)
_TOOLKIT = LazyPattern(
    r"rkllm-toolkit version:\s*(?P<toolkit>[\w.]+)"
    r"(?:.*?target_platform:\s*(?P<platform>\w+))?"
    r"(?:.*?model_dtype:\s*(?P<dtype>\w+))?"
)
_HEADER = LazyPattern(r"^\s*Stage\s+Total Time \(ms\)\s+Tokens\b")
_NUM = r"\d+(?:\.\d+)?"
_ROW = LazyPattern(
    rf"^\s*(?P<stage>Init|Prefill|Generate)\s+(?P<ms>{_NUM})\s+(?P<tokens>\d+\b|/)"
    rf"(?:\s+(?:{_NUM}|/)\s+(?P<tps>{_NUM}|/))?"
)
_LONE_ROW = LazyPattern(rf"^\s*(?:Prefill|Generate)\s+{_NUM}\s+\d+\s+{_NUM}\s+{_NUM}\s*$")
"""A stage row with all five columns: one that may open a table without its header."""
_INIT_TIME = LazyPattern(r"^\s*Model init time \(ms\)\s+(?P<ms>\d+(?:\.\d+)?)")
_MEMORY = LazyPattern(r"^\s*(?:Peak )?Memory Usage \((?P<unit>GB|MB)\)\s*$")
_NUMBER = LazyPattern(r"^\s*(?P<value>\d+(?:\.\d+)?)\s*$")
_OWN_PREFIX = LazyPattern(r"^[ \t]{0,16}[DIWE] rkllm: ?")


def _text(line: Line) -> str:
    """The line without an ``I rkllm: `` left behind another prefix (``lines`` strips one)."""
    text = line.text
    return _OWN_PREFIX.sub("", text, count=1) if "rkllm:" in text else text


def _info(line: Line) -> InfoEvent | None:
    text = line.text
    if "rkllm-runtime version" in text and (m := _RUNTIME.search(text)):
        versions = Versions(llm_runtime=m["runtime"], driver=m["driver"])
    elif "rkllm-toolkit version" in text and (m := _TOOLKIT.search(text)):
        versions = Versions(llm_toolkit=m["toolkit"], llm_dtype=m["dtype"])
    else:
        return None
    platform = m["platform"].lower() if m["platform"] else None
    evidence = f"platform: {m['platform']}" if platform else None
    return InfoEvent(line.number, versions, platform, evidence, line.stream)


class _InfoLine(Block):
    def __init__(self, event: InfoEvent) -> None:
        self.event = event

    def feed(self, line: Line) -> bool:
        return False

    def close(self) -> list[Event]:
        return [self.event]


class _StageTable(Block):
    """``Model init time`` (v1.2+), the stage table, the memory lines, and their rules."""

    def __init__(self, line: Line, fragment: bool = False) -> None:
        self.stream = line.stream
        self.first_line = self.last_line = line.number
        self.values: dict[str, float | int | None] = {}
        self.memory_unit: str | None = None
        """``GB``/``MB`` after a memory title line, until its value line."""
        self.saw_table = fragment
        self.fragment = fragment
        """Rows without their header row: read in the runtime's column order."""
        self.feed(line)

    def feed(self, line: Line) -> bool:
        text = _text(line)
        s = text.strip()
        if not s or is_rule(s):
            pass
        elif self.memory_unit is not None and (m := _NUMBER.match(text)):
            value = float(m["value"])
            self.values["peak_memory_mb"] = value * 1024 if self.memory_unit == "GB" else value
            self.memory_unit = None
        elif m := _INIT_TIME.match(text):
            if self.saw_table:  # the next generation's statistics
                return False
            self.values["init_ms"] = float(m["ms"])
        elif _HEADER.match(text):
            if self.saw_table:
                return False
            self.saw_table = True
        elif self.saw_table and (m := _ROW.match(text)):
            key = m["stage"].lower()
            if f"{key}_ms" in self.values:  # the next generation's rows
                return False
            self.values[f"{key}_ms"] = float(m["ms"])
            if m["tokens"] != "/":
                self.values[f"{key}_tokens"] = int(m["tokens"])
            if m["tps"] and m["tps"] != "/":
                self.values[f"{key}_tps"] = float(m["tps"])
        elif self.saw_table and (m := _MEMORY.match(text)):
            self.memory_unit = m["unit"]
        else:
            return False
        self.last_line = line.number
        return True

    def close(self) -> list[Event]:
        if not self.saw_table:
            return []
        v = self.values
        return [
            LlmStatsEvent(
                line=self.first_line,
                last_line=self.last_line,
                prefill_ms=v.get("prefill_ms"),
                prefill_tokens=v.get("prefill_tokens"),  # type: ignore[arg-type]  # the *_tokens keys hold ints, *_ms floats
                generate_ms=v.get("generate_ms"),
                generate_tokens=v.get("generate_tokens"),  # type: ignore[arg-type]  # the *_tokens keys hold ints, *_ms floats
                init_ms=v.get("init_ms"),
                peak_memory_mb=v.get("peak_memory_mb"),
                stream=self.stream,
                prefill_tokens_per_s=v.get("prefill_tps"),
                generate_tokens_per_s=v.get("generate_tps"),
                fragment=self.fragment,
            )
        ]


class RkllmParser(BlockParser):
    family: ClassVar[str] = FAMILY
    detection: ClassVar[str] = (
        "`I rkllm:` lines: `rkllm-runtime version: 1.2.1, rknpu driver version: 0.9.8, "
        "platform: RK3588`, and the stage table `Stage  Total Time (ms)  Tokens  Time per Token "
        "(ms)  Tokens per Second` (v1.1 Init row; v1.2 `Model init time (ms)`, `Peak Memory "
        "Usage (GB)`; 1.3.0 `(MB)`; rows without the header)"
    )
    fields: ClassVar[str] = (
        "an LLM profile: each generation's prefill and decode tokens/s (the printed columns), "
        "time to first token, their medians, init time, peak memory, runtime/driver/toolkit "
        "versions and platform"
    )

    def opens(self, line: Line) -> Block | None:
        text = _text(line)
        if "rkllm" in text and (info := _info(line)) is not None:
            return _InfoLine(info)
        if "Model init time" in text and _INIT_TIME.match(text):
            return _StageTable(line)
        if "Total Time (ms)" in text and _HEADER.match(text):
            return _StageTable(line)
        if ("Prefill" in text or "Generate" in text) and _LONE_ROW.match(text):
            return _StageTable(line, fragment=True)
        return None
