"""Lines about how the run was taken (parsers/run_lines.py), written from each tool's grammar:
the clock lines boards and demos print, gdb/lldb stops, strace and call traces, the runtime's
tensor dumps, eval_mem."""

from __future__ import annotations

import pytest
from parser_helpers import lines_of, run

from rknnprof.parsers.events import RunLineEvent
from rknnprof.parsers.run_lines import RunLineParser, read_run_line


@pytest.mark.parametrize(
    ("text", "domain", "mhz"),
    [
        ("Get DDR frequency: 528MHz", "DDR", 528.0),
        ("get ddr frequency : 2112 MHz", "DDR", 2112.0),
        ("NPU current frequency: 1000000000 Hz", "NPU", 1000.0),
        ("CPU4 freq: 2256000 KHz", "CPU", 2256.0),
        ("dmc frequency = 1.56 GHz", "DDR", 1560.0),
    ],
)
def test_clock_lines_are_read_in_mhz(text: str, domain: str, mhz: float) -> None:
    assert read_run_line(text) == ("clock", domain, pytest.approx(mhz))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            'Thread 1 "rknn_demo" hit Breakpoint 1, 0x0000007fb7e4c9a8 in ioctl () from '
            "/lib/aarch64-linux-gnu/libc.so.6",
            "debugger",
        ),
        (
            "Breakpoint 2, rknn_mem_sync (context=0x55a0, mem=0x55b0, mode=1) at demo.cc:88",
            "debugger",
        ),
        ("(gdb) continue", "debugger"),
        ("(gdb) bt", "debugger"),  # a prompt after a stop
        ("(lldb) thread continue", "debugger"),
        ("* thread #1, name = 'demo', stop reason = breakpoint 1.1", "debugger"),
        ('Thread 1 "rknn_demo" received signal SIGINT, Interrupt.', "debugger"),
        ("Program received signal SIGSEGV, Segmentation fault.", "debugger"),
        ("0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6", "debugger"),  # where it stopped
        ("#0  0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6", "debugger"),  # a backtrace
        ("#1  rknn_run (ctx=1, extend=0x0) at rknn_api.cc:120", "debugger"),
        ("ioctl(3, DRM_IOCTL_RKNPU_MEM_SYNC, 0x7fc3a1b2c0) = 0", "trace"),
        ("[pid  4242] ioctl(5, _IOC(_IOC_READ|_IOC_WRITE, 0x64, 0x41, 0x28), 0x7f) = 0", "trace"),
        ("rknn_mem_sync(0x55a0c0, 0x55a1f0, 1) = 0", "trace"),
        (
            "dump npy tensor to: /userdata/dumps/025_ConvClip_385_shape_1_384_14_14_float.npy",
            "dump",
        ),
        ("rknn.init_runtime(target='rk3588', perf_debug=True, eval_mem=True)", "eval-mem"),
        ("                          Memory Profile Info Dump", "eval-mem"),
        # toolkit2 1.5's own warning at init_runtime (a public bit-brick docs page), lines before
        # the dump the eval_mem line pointed at
        (
            "W init_runtime: Flag eval_mem has been set, it will affect the performance of "
            "inference!",
            "eval-mem",
        ),
    ],
)
def test_debugger_trace_dump_and_eval_mem_lines(text: str, kind: str) -> None:
    found = read_run_line(text)
    assert found is not None and found[0] == kind


@pytest.mark.parametrize(
    "text",
    [
        "CPU Current Frequency List:",  # the eval_perf list: runtime_info reads it
        "    - 1800000",
        "rknn_run",
        "set breakpoint at main",
        "(gdb) run",  # prompts typed before the program runs hold nothing up
        "(gdb) break rknn_run",
        "(lldb) process launch -- model.rknn",
        "(gdb) ",
        "I RKNN: [10:00:00.000] dump the model to a file",
        "eval_mem=False",
        "Total Operator Elapsed Per Frame Time(us): 1030",
        "#1 frame done in 12 ms",  # a numbered print, not a backtrace frame
        "loaded model (yolov5s) from /userdata in 0.2 s",
        "0x1f in input 3 (tensor) at offset 0",  # no function called
    ],
)
def test_ordinary_lines_are_not_run_lines(text: str) -> None:
    assert read_run_line(text) is None


def test_one_event_per_line_with_its_number() -> None:
    events = run(RunLineParser(), lines_of("rknn_run\nGet DDR frequency: 528MHz\n(gdb) c"))
    assert [(e.line, e.kind, e.domain, e.mhz) for e in events if isinstance(e, RunLineEvent)] == [
        (2, "clock", "DDR", 528.0),
        (3, "debugger", None, None),
    ]
