from __future__ import annotations

from parser_helpers import corpus_lines, lines_of, of_type, run

from rknnprof.parsers.benchmark import BenchmarkParser
from rknnprof.parsers.events import BenchmarkEvent, InfoEvent


def events(text: str) -> list:
    return run(BenchmarkParser(), lines_of(text))


def test_full_output_with_avg_time() -> None:
    out = events(
        """rknn_api/rknnrt version: 2.3.2 (abc@2025-01-01T00:00:00), driver version: 0.9.8
model input num: 1, output num: 1
custom string: 
Warmup ...
   0: Elapse Time = 27.64ms, FPS = 36.18
Begin perf ...
   0: Elapse Time = 12.31ms, FPS = 81.23
   1: Elapse Time = 12.37ms, FPS = 80.84

Avg Time 12.34ms, Avg FPS = 81.037

---- Top5 ----
0.935059 - 156
after"""  # noqa: W291 (the log's trailing space is part of the input)
    )
    [info] = of_type(out, InfoEvent)
    assert (info.versions.runtime, info.versions.driver) == ("2.3.2", "0.9.8")
    [bench] = of_type(out, BenchmarkEvent)
    assert bench.run.warmup_times_ms == (27.64,)
    assert bench.run.run_times_ms == (12.31, 12.37)
    assert (bench.run.avg_time_ms, bench.run.avg_fps) == (12.34, 81.037)
    assert (bench.line, bench.last_line) == (1, 13)


def test_old_avg_lines() -> None:
    [bench] = of_type(events("Avg FPS = 40.100"), BenchmarkEvent)
    assert bench.run.avg_fps == 40.1 and bench.run.avg_time_ms is None
    [bench] = of_type(events("Avg elapse Time = 24.937ms"), BenchmarkEvent)
    assert bench.run.avg_time_ms == 24.937


def test_two_runs_of_the_program_are_two_events() -> None:
    line = "rknn_api/rknnrt version: 2.1.0 (x), driver version: 0.9.6"
    out = events(
        f"{line}\nBegin perf ...\n   0: Elapse Time = 1.00ms, FPS = 1000.00\n{line}\n"
        "Begin perf ...\n   0: Elapse Time = 2.00ms, FPS = 500.00"
    )
    assert [b.run.run_times_ms for b in of_type(out, BenchmarkEvent)] == [(1.0,), (2.0,)]


def test_c_demo_header_gives_versions_only() -> None:
    out = events(
        "sdk version: 2.0.0b0 (35a6907d79@2024-03-24T10:30:08) driver version: 0.7.2\n"
        "model input num: 1, output num: 2"
    )
    [info] = out
    assert isinstance(info, InfoEvent) and info.versions.runtime == "2.0.0b0"
    assert info.versions.driver == "0.7.2"


def test_corpus_20_warmup_runs_and_model_name(corpus) -> None:
    out = run(BenchmarkParser(), corpus_lines(corpus("20_")))
    [bench] = of_type(out, BenchmarkEvent)
    # Read from the log: five warm-up runs, cut at "Begin p" before any timed run.
    assert bench.run.warmup_times_ms == (27.64, 27.52, 27.50, 27.49, 27.53)
    assert bench.run.run_times_ms == () and bench.run.avg_fps is None
    assert bench.model_name == "yolov5s.rknn"
    [info] = of_type(out, InfoEvent)
    assert (info.line, info.versions.runtime, info.versions.driver) == (2, "2.1.0", "0.9.6")


def test_corpus_41_timed_runs(corpus) -> None:
    out = run(BenchmarkParser(), corpus_lines(corpus("41_")))
    [bench] = of_type(out, BenchmarkEvent)
    assert bench.run.run_times_ms == (2.85, 2.70, 2.59, 2.69, 2.62, 2.61, 2.58, 2.70, 2.64, 2.68)
    assert bench.run.warmup_times_ms == () and bench.run.avg_time_ms is None
    [info] = of_type(out, InfoEvent)
    assert (info.versions.runtime, info.versions.driver) == ("2.0.0b0", "0.9.7")
