"""The application's own inference-time line (corpus 43), read by ``AppTimeParser``."""

from __future__ import annotations

from parser_helpers import lines_of, of_type, run

from rknnprof.parsers.app_time import AppTimeParser
from rknnprof.parsers.events import AppTimeEvent


def times(text: str) -> list[float]:
    return [e.time_us for e in of_type(run(AppTimeParser(), lines_of(text)), AppTimeEvent)]


def test_corpus_43_line_and_units() -> None:
    text = (
        "Total inference time (in milliseconds, 4 decimal places): 151.6830 ms\n"
        "inference time: 850 us\n"
        "rknn_run inference time = 12.5ms\n"
    )
    assert times(text) == [151683.0, 850.0, 12500.0]


def test_other_timing_lines_are_not_app_times() -> None:
    text = (
        "Total Operator Elapsed Per Frame Time(us): 131201\n"
        "   0: Elapse Time = 27.64ms, FPS = 36.18\n"
        "Avg Time 27.64ms, Avg FPS = 36.18\n"
        "inference time unknown\n"
    )
    assert times(text) == []
