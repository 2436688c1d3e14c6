"""Conditions of the run in ``Profile.validity``: the debugger capture of issue 22, clock lines
against the SoC's maximum, stalled layers (one-layer tables too), varying frames."""

from __future__ import annotations

from pathlib import Path

from synthetic_logs import cycles_row, debugger_capture, runtime_prefixed, table, table_of

from rknnprof.api import load
from rknnprof.model import ConditionKind, Profile, Validity
from rknnprof.reporters._facts import gaps_note


def analysed(tmp_path: Path, lines: list[str], platform: str | None = None) -> Profile:
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [profile] = load(str(path), platform=platform, rules=False)
    return profile


def verdict(profile: Profile) -> Validity:
    assert profile.validity is not None
    return profile.validity


def test_debugger_trace_and_dumps_inside_the_run_spoil_its_times(tmp_path: Path) -> None:
    validity = verdict(analysed(tmp_path, debugger_capture()))
    assert not validity.is_measurement
    [debugger] = [c for c in validity.conditions if c.kind is ConditionKind.DEBUGGER]
    assert debugger.spoils_timing
    assert debugger.line == 4  # the breakpoint after the two info lines and the DDR line
    # the breakpoint and the (gdb) prompt, the ioctl trace, three dumps
    assert "6 debugger / trace / tensor-dump line(s)" in debugger.message
    assert validity.complete  # the table itself is whole


def test_a_program_run_under_gdb_without_a_stop_is_a_measurement(tmp_path: Path) -> None:
    # gdb's prompts that set up and start the program come before the run: nothing stops it
    session = [
        "Reading symbols from ./rknn_yolov5_demo...",
        "(gdb) break rknn_destroy",
        "Breakpoint 1 at 0x5555559a10",
        "(gdb) run",
        "Starting program: /userdata/rknn_yolov5_demo model/yolov5s.rknn model/bus.jpg",
        "[Thread debugging using libthread_db enabled]",
    ]
    validity = verdict(analysed(tmp_path, [*session, *table([10, 500, 300, 200, 20])]))
    assert validity.is_measurement
    assert not [c for c in validity.conditions if c.kind is ConditionKind.DEBUGGER]


def test_a_continue_before_the_table_says_the_program_was_stopped(tmp_path: Path) -> None:
    # (the stop's own line not pasted: the prompt that resumes it is inside the run)
    lines = ["(gdb) run", "I RKNN: [10:00:00.000] rknn_init", "(gdb) c", "Continuing."]
    validity = verdict(analysed(tmp_path, [*lines, *table([10, 500, 300, 200, 20])]))
    assert not validity.is_measurement
    [debugger] = [c for c in validity.conditions if c.kind is ConditionKind.DEBUGGER]
    assert debugger.line == 3 and "1 debugger line(s)" in debugger.message


GDB_AT_MAIN = [
    "(gdb) break main",
    "Breakpoint 1 at 0x5555559a10: file src/main.cc, line 42.",
    "(gdb) run",
    "Starting program: /userdata/rknn_yolov5_demo model/yolov5s.rknn model/bus.jpg",
    "Breakpoint 1, main (argc=3, argv=0x7ffffff5c8) at src/main.cc:42",
    "42\t  rknn_context ctx = 0;",
    "(gdb) c",
    "Continuing.",
]
RUNTIME_INFO = runtime_prefixed(
    [
        "RKNN Runtime Information, librknnrt version: 2.3.2 (429f97ae6b@2025-04-09T09:08:16)",
        "RKNN Driver Information, version: 0.9.8",
    ]
)


def test_a_stop_at_main_before_the_runtime_loaded_the_model_is_a_measurement(
    tmp_path: Path,
) -> None:
    # stopped at main and continued before rknn_init printed the runtime's version: the
    # inference ran without a stop
    lines = [*GDB_AT_MAIN, *RUNTIME_INFO, *table([10, 500, 300, 200, 20])]
    validity = verdict(analysed(tmp_path, lines))
    assert validity.is_measurement
    assert not [c for c in validity.conditions if c.kind is ConditionKind.DEBUGGER]


def test_a_stop_inside_the_run_after_one_at_main_is_counted_alone(tmp_path: Path) -> None:
    stop = (
        'Thread 1 "rknn_demo" hit Breakpoint 2, 0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6'
    )
    lines = [*GDB_AT_MAIN, *RUNTIME_INFO, stop, "(gdb) c", *table([10, 500, 300, 200, 20])]
    validity = verdict(analysed(tmp_path, lines))
    assert not validity.is_measurement
    [debugger] = [c for c in validity.conditions if c.kind is ConditionKind.DEBUGGER]
    # the stop at line 11 and its prompt; main's stop (line 5) and prompt (line 7) were before
    assert debugger.line == 11 and "2 debugger line(s)" in debugger.message


def test_a_stop_at_main_without_runtime_info_cannot_be_placed(tmp_path: Path) -> None:
    # no line of the runtime before the table: the stop may have held up the inference
    validity = verdict(analysed(tmp_path, [*GDB_AT_MAIN, *table([10, 500, 300, 200, 20])]))
    assert not validity.is_measurement
    [debugger] = [c for c in validity.conditions if c.kind is ConditionKind.DEBUGGER]
    assert debugger.line == 5 and "2 debugger line(s)" in debugger.message


def test_the_ddr_clock_line_is_read_and_held_against_the_rk3588_maximum(tmp_path: Path) -> None:
    validity = verdict(analysed(tmp_path, debugger_capture()))
    [clock] = [c for c in validity.conditions if c.kind is ConditionKind.CLOCK]
    assert clock.line == 3 and clock.below_maximum
    assert "DDR at 528 MHz" in clock.message and "2,112 MHz" in clock.message


def test_a_ddr_clock_at_its_maximum_is_read_without_concern(tmp_path: Path) -> None:
    lines = [
        "I RKNN: [10:00:00.000] RKNN Model Information, version: 6, target platform: rk3588",
        "Get DDR frequency: 2112MHz",
        *table([10, 500, 300, 200, 20]),
    ]
    [clock] = [
        c for c in verdict(analysed(tmp_path, lines)).conditions if c.kind is ConditionKind.CLOCK
    ]
    assert not clock.below_maximum and not clock.spoils_timing


def test_dumps_after_the_table_are_not_inside_the_run(tmp_path: Path) -> None:
    lines = [*table([10, 500, 300, 200, 20]), "dump npy tensor to: /tmp/out.npy"]
    validity = verdict(analysed(tmp_path, lines))
    assert validity.is_measurement
    assert not [c for c in validity.conditions if c.kind is ConditionKind.DEBUGGER]


def test_a_one_layer_table_whose_cycles_explain_a_hundredth_of_its_time_is_stalled(
    tmp_path: Path,
) -> None:
    # 20,000 NPU cycles at RK3588's 1 GHz explain 20 us of 2,000 us: 1/100
    rows = [cycles_row(7, "ConvRelu", 12000, 20000, 2000, "Conv:/c7/Conv")]
    profile = analysed(tmp_path, table_of(rows, 2000), platform="rk3588")
    validity = verdict(profile)
    assert validity.stalled_layer_ids == (7,)
    assert validity.is_measurement  # a stalled layer leaves the rest of a table priced
    [stalled] = [c for c in validity.conditions if c.kind is ConditionKind.STALLED]
    assert stalled.line == profile.layers[0].line


def test_a_slow_layer_that_its_cycles_explain_is_not_stalled(tmp_path: Path) -> None:
    # 900,000 cycles at 1 GHz explain 900 us of 2,000 us
    rows = [cycles_row(7, "ConvRelu", 12000, 900000, 2000, "Conv:/c7/Conv")]
    assert (
        verdict(analysed(tmp_path, table_of(rows, 2000), platform="rk3588")).stalled_layer_ids == ()
    )


def test_layers_with_ddr_cycles_alone_are_held_to_a_thousand_times(tmp_path: Path) -> None:
    """A detector's DFL head on the NPU (yolov10#115, RK3588): ``36800/0/36800`` and 14,254 us
    for an exSoftmax13, ``53032/0/53032`` and 5,556 us for a Transpose. Their DDR cycles at
    1 GHz explain 37 and 53 us (387x, 105x), but NPU cycles 0 say the compiler counted their
    bytes, not their work: such ops are slow for real, and priced (it read them as stalled and
    left them out of RKN060's saving). A conv with NPU cycles that far off still is stalled, and
    so is a bytes-only row 10,000 times off (a MaxPool of 53,032 DDR cycles in 530 ms), NPU
    cycles 0 or 1."""
    rows = [
        cycles_row(103, "Transpose", 53032, 0, 5556, "Transpose:Transpose_240"),
        cycles_row(104, "exSoftmax13", 36800, 0, 14254, "exSoftmax13:Softmax_241"),
        cycles_row(105, "ConvRelu", 12000, 20000, 2000, "Conv:/c105/Conv"),
        cycles_row(106, "MaxPool", 53032, 0, 530043, "MaxPool:/p106"),
        cycles_row(107, "MaxPool", 53032, 1, 530043, "MaxPool:/p107"),
    ]
    profile = analysed(tmp_path, table_of(rows, 1081896), platform="rk3588")
    assert verdict(profile).stalled_layer_ids == (105, 106, 107)
    # the summary says why such rows have no bound: not "no cycles"
    only_ddr = analysed(tmp_path, table_of(rows[:2], 19810), platform="rk3588")
    assert gaps_note(only_ddr) == (
        "no layer could be classified (NPU cycles 0: the compiler counted these layers' bytes, "
        "not their work)"
    )


def test_a_small_op_with_few_cycles_is_not_stalled(tmp_path: Path) -> None:
    # 100 cycles explain 0.1 us of 60 us: the op's fixed cost, not a stall
    rows = [cycles_row(7, "Add", 100, 0, 60, "Add:/add")]
    assert (
        verdict(analysed(tmp_path, table_of(rows, 60), platform="rk3588")).stalled_layer_ids == ()
    )


def test_frames_that_vary_more_than_the_noise(tmp_path: Path) -> None:
    steady = [line for times in ([10, 500, 300, 200, 20],) * 4 for line in table(times)]
    assert not [
        c for c in verdict(analysed(tmp_path, steady)).conditions if c.kind is ConditionKind.VARYING
    ]
    varying = [
        line
        for times in ([10, 500, 300, 200, 20], [10, 500, 300, 200, 20], [10, 900, 700, 200, 20])
        for line in table(times)
    ]
    [cond] = [
        c
        for c in verdict(analysed(tmp_path, varying)).conditions
        if c.kind is ConditionKind.VARYING
    ]
    assert "3 frames" in cond.message


def test_runtime_prefixed_clock_lines_are_read_too(tmp_path: Path) -> None:
    lines = runtime_prefixed(["Get DDR frequency: 1560MHz", *table([10, 500, 300, 200, 20])])
    [clock] = [
        c
        for c in verdict(analysed(tmp_path, lines, platform="rk3588")).conditions
        if c.kind is ConditionKind.CLOCK
    ]
    assert "DDR at 1,560 MHz" in clock.message and clock.below_maximum


def test_a_clock_no_soc_can_have_is_no_reading(tmp_path: Path) -> None:
    """``NPU current frequency: 5000 MHz`` on an RK3588 (1,000 MHz at most) turned its cycles
    into time at 5 GHz; ``0 MHz`` read as a clock left unfixed (RKN051 advised on it). Neither
    is a reading: said, not used; the cycles stay at scaling_frequency.sh's 1,000 MHz."""
    for figure in ("5000", "0"):
        lines = [
            "I RKNN: [10:00:00.000] RKNN Model Information, version: 6, target platform: rk3588",
            f"NPU current frequency: {figure} MHz",
            *table([10, 500, 300, 200, 20]),
        ]
        profile = analysed(tmp_path, lines)
        [said] = [c for c in verdict(profile).conditions if c.kind is ConditionKind.NO_READING]
        assert said.message.startswith(f"NPU at {int(figure):,} MHz: no reading of a clock")
        assert not said.below_maximum and said.line == 2
        assert profile.npu_clock is not None and profile.npu_clock.mhz == 1000
        assert profile.npu_clock.basis == "fixed-frequency-script"
