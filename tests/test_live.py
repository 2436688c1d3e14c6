from __future__ import annotations

import io
import signal

import pytest

from rknnprof.api import Progress
from rknnprof.inputs.live import InterruptibleInput
from rknnprof.model import Layer
from rknnprof.parsers.events import TableEvent


def test_first_interrupt_ends_iteration_second_exits_130() -> None:
    source = InterruptibleInput(io.BytesIO(b"a\nb\nc\n"))
    seen = []
    with pytest.raises(SystemExit) as exit_info:
        for raw in source:
            seen.append(raw)
            if len(seen) == 1:
                source._on_sigint(signal.SIGINT, None)  # not inside a read: only a flag
        assert seen == [b"a\n"] and source.interrupted
        source._on_sigint(signal.SIGINT, None)
    assert exit_info.value.code == 130


def test_interrupt_inside_a_blocking_read_returns_end_of_input() -> None:
    class Blocking(io.BytesIO):
        def readline(self, size: int = -1) -> bytes:
            source._on_sigint(signal.SIGINT, None)  # the signal arrives while blocked
            raise AssertionError("unreachable")

    source = InterruptibleInput(Blocking())
    assert list(source) == [] and source.interrupted


def test_partial_last_line_is_kept() -> None:
    assert list(InterruptibleInput(io.BytesIO(b"x\ny"))) == [b"x\n", b"y"]


def test_armed_restores_the_previous_handler() -> None:
    before = signal.getsignal(signal.SIGINT)
    source = InterruptibleInput(io.BytesIO(b""))
    with source.armed():
        assert signal.getsignal(signal.SIGINT) == source._on_sigint
    assert signal.getsignal(signal.SIGINT) == before


def _frame(total: float) -> TableEvent:
    layer = Layer(id=1, op_type="Conv", time_us=total)
    return TableEvent("toolkit2-perf-table", 1, 2, (layer,), reported_total_time_us=total)


def test_progress_line_only_when_enabled() -> None:
    out = io.StringIO()
    progress = Progress(out, enabled=True)
    events = list(progress.count([_frame(100), _frame(250)]))
    progress.finish()
    assert len(events) == 2 and progress.frames == 2
    assert out.getvalue().endswith("frames: 2  last frame: 0.25 ms\n")
    quiet = io.StringIO()
    progress = Progress(quiet)  # StringIO is not a terminal
    list(progress.count([_frame(1)]))
    progress.finish()
    assert quiet.getvalue() == "" and progress.frames == 1
