"""Lines about how the run was taken, not profile data: one line = one :class:`RunLineEvent`.

* clock readings the runtime, toolkit or a board script prints, in Hz, kHz, MHz or GHz::

      Get DDR frequency: 528MHz
      NPU current frequency: 1000000000 Hz
      CPU0 freq: 1800000 KHz

* a debugger stopped inside the run (gdb, lldb)::

      Thread 1 "app" hit Breakpoint 1, 0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6
      Breakpoint 2, rknn_mem_sync (ctx=…) at …
      Thread 1 "app" received signal SIGINT, Interrupt.
      0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6
      #0  0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6
      (gdb) continue
      * thread #1, stop reason = breakpoint 1.1

  (a prompt that sets up or starts the program, ``(gdb) run``, comes before the run: not one);

* trace lines: strace's ``ioctl(3, DRM_IOCTL_RKNPU_MEM_SYNC, …) = 0``, an ltrace / uprobe call
  line ``rknn_mem_sync(0x…, …)``;
* the runtime dumping every tensor (``RKNN_LOG_LEVEL`` debugging with tensor dumps on)::

      D RKNN: [14:34:05.201] dump npy tensor to: /userdata/dumps/025_ConvClip_385_shape_….npy

* eval_mem on: ``init_runtime(…, eval_mem=True)`` echoed, the toolkit's warning ``Flag
  eval_mem has been set``, or its ``Memory Profile Info Dump`` banner that only an eval_mem
  run prints.

A clean RKNN_LOG_LEVEL=4 capture prints none of the debugger, trace or dump lines: each one
inside a run means its times are not a measurement of the model.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import RunLineEvent

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "run-conditions"
MAX_TEXT = 200

_CLOCK = LazyPattern(
    r"\b(?P<domain>NPU|DDR|DMC|CPU)\d*\b[^:=\n]{0,24}?\bfreq(?:uency)?\b[^:=\n]{0,12}[:=]\s*"
    r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>[KMG]?Hz)\b",
    re.IGNORECASE,
)
_UNIT_TO_MHZ = {"hz": 1e-6, "khz": 1e-3, "mhz": 1.0, "ghz": 1e3}
_DEBUGGER = LazyPattern(
    r"(?:^|\bhit )(?:Breakpoint|Catchpoint|Watchpoint) \d+(?:\.\d+)?,"
    r"|^\((?:gdb|lldb)\)"
    r"|\bstop reason = (?:breakpoint|watchpoint)"
    r"|\breceived signal SIG[A-Z0-9]+"
    r"|^(?:#\d+\s+)?0x[0-9a-fA-F]+ in \S+ \(.*\)(?: (?:from|at) \S+)?$"
    r"|^#\d+\s+\S+ \(.*\) (?:from|at) \S+$"
)
_TRACE = LazyPattern(
    r"^(?:\[pid\s+\d+\]\s+)?(?:\d+(?:\.\d+)?\s+)?ioctl\(\d+,"
    r"|\bDRM_IOCTL_RKNPU_\w+"
    r"|\brknn_mem_sync\(\s*0x"
)
_DUMP = LazyPattern(r"\bdump npy tensor to:")
_EVAL_MEM = LazyPattern(
    r"\beval_mem\s*=\s*True\b|\bMemory Profile Info Dump\b|\bFlag eval_mem has been set\b"
)

_DEBUGGER_WORDS = (
    "reakpoint",
    "atchpoint",
    "gdb",
    "lldb",
    "stop reason",
    "received signal",
    ") from ",
    ") at ",
)
"""Words one of which a debugger line holds (the pattern is tried only then): a stop's
location and a backtrace frame (``0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6``,
``#0  rknn_run (ctx=1) at rknn_api.cc:120``), a signal (``Thread 1 "app" received signal
SIGINT, Interrupt.``)."""
_BEFORE_START = LazyPattern(
    r"^\((?:gdb|lldb)\)\s*(?:$|(?:r|run|start|starti|b|br|break|tbreak|rbreak|catch|set|"
    r"settings|file|exec-file|symbol-file|target|dir|directory|handle|process launch|"
    r"breakpoint set|quit|q)\b)"
)
"""A debugger prompt whose command sets up or starts the program (or an empty one): typed
before it runs, it holds nothing up. A prompt after a stop (``continue``, ``bt``) is one."""


class _RunLine(Block):
    """A single line: ends at the next line."""

    def __init__(self, event: RunLineEvent) -> None:
        self.event = event

    def feed(self, line: Line) -> bool:
        return False

    def close(self) -> list[Event]:
        return [self.event]


def read_run_line(text: str) -> tuple[str, str | None, float | None] | None:
    """(kind, clock domain, MHz) of a line about how the run was taken, or None."""
    if ("req" in text or "REQ" in text) and (m := _CLOCK.search(text)) is not None:
        domain = m.group("domain").upper()
        mhz = float(m.group("value")) * _UNIT_TO_MHZ[m.group("unit").lower()]
        return "clock", "DDR" if domain == "DMC" else domain, mhz
    if "dump npy" in text and _DUMP.search(text):
        return "dump", None, None
    if "eval_mem" in text or "Memory Profile" in text:
        if _EVAL_MEM.search(text):
            return "eval-mem", None, None
    if ("ioctl" in text or "IOCTL" in text or "mem_sync(" in text) and _TRACE.search(text):
        return "trace", None, None
    if any(word in text for word in _DEBUGGER_WORDS) and _DEBUGGER.search(stripped := text.strip()):
        if _BEFORE_START.search(stripped):
            return None
        return "debugger", None, None
    return None


class RunLineParser(BlockParser):
    family: ClassVar[str] = FAMILY
    detection: ClassVar[str] = (
        "clock lines ('Get DDR frequency: 528MHz'), debugger lines (gdb/lldb breakpoints and "
        "prompts), trace lines (strace ioctl, rknn_mem_sync calls), 'dump npy tensor to:', "
        "eval_mem"
    )
    fields: ClassVar[str] = (
        "NPU/DDR/CPU clocks (MHz); debugger, trace and dump lines inside the run; eval_mem"
    )

    def opens(self, line: Line) -> Block | None:
        found = read_run_line(line.text)
        if found is None:
            return None
        kind, domain, mhz = found
        event = RunLineEvent(
            line=line.number,
            kind=kind,
            text=line.text.strip()[:MAX_TEXT],
            stream=line.stream,
            domain=domain,
            mhz=mhz,
        )
        return _RunLine(event)
