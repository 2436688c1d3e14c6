"""Every table reader stops at the same row limit as the toolkit2 tables (issue #16, unbounded
memory): a toolkit1 table, a build-time (verbose) layer table, an eval_perf CSV and a Markdown
pipe table of more rows than the limit keep the limit's rows and say so; a benchmark with more
run times than its limit counts that many and says so."""

from __future__ import annotations

import io

import pytest

from rknnprof.api import parse_stream
from rknnprof.parsers import benchmark
from rknnprof.parsers.table import rows as table_rows

LIMIT = 50


def _parse(text: str):  # type: ignore[no-untyped-def]
    return parse_stream(io.BytesIO(text.encode()), "big.log")


@pytest.fixture(autouse=True)
def small_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_rows, "MAX_ROWS_PER_TABLE", LIMIT)
    monkeypatch.setattr(benchmark, "MAX_RUNS", LIMIT)


def _warned(assembly, words: str) -> bool:  # type: ignore[no-untyped-def]
    return any(words in w.message for w in assembly.warnings)


def test_toolkit1_table() -> None:
    """Rows shaped as corpus 09's (toolkit1 ``Performance``), ids and times counted up."""
    head = (
        "=" * 72 + "\n" + " " * 31 + "Performance\n" + "=" * 72 + "\n"
        "Layer ID    Name                                         Operator            Uid"
        "       Time(us)\n"
    )
    rows = "".join(
        f"{i:<12}{'MobilenetV1/Conv2d_' + str(i):<45}{'CONVOLUTION':<20}{i:<10}{100 + i}\n"
        for i in range(LIMIT + 30)
    )
    assembly = _parse(head + rows + "Total Time(us): 9999\n")
    assert [len(p.layers) for p in assembly.profiles] == [LIMIT]
    assert assembly.profiles[0].layers[-1].time_us == 100 + LIMIT - 1  # the 50th row: 149 us
    assert _warned(assembly, f"more than {LIMIT:,} rows in one table")


def test_eval_perf_csv() -> None:
    """Rows shaped as corpus 08's (eval_perf.csv of toolkit2 1.5), ids and times counted up."""
    rows = "".join(
        f'{i},ConvLeakyRelu,FLOAT16,NPU,"(1,16,160,640),(16,16,3,3),(16)",'
        f'"(1,16,160,640)",1108941,460800,1108941,{1000 + i},30.20,100.0%/0.0%/0.0%,'
        f"-,Up:0.0%,11,0,6404.56,Conv:Conv_{i}\n"
        for i in range(1, LIMIT + 31)
    )
    assembly = _parse(rows)
    assert [len(p.layers) for p in assembly.profiles] == [LIMIT]
    assert assembly.profiles[0].layers[-1].time_us == 1000 + LIMIT  # row 50: 1050 us
    assert _warned(assembly, f"more than {LIMIT:,} rows in one table")


def test_markdown_table() -> None:
    head = (
        "| ID | OpType | DataType | Target | InputShape | OutputShape | Cycles(DDR/NPU/Total) "
        "| Time(us) | FullName |\n|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = "".join(
        f"| {i} | Conv | INT8 | NPU | (1,3,4,4) | (1,3,4,4) | 1/2/3 | {i + 7} | c{i} |\n"
        for i in range(1, LIMIT + 31)
    )
    assembly = _parse(head + rows)
    assert [len(p.layers) for p in assembly.profiles] == [LIMIT]
    assert _warned(assembly, f"more than {LIMIT:,} rows in one table")


def test_benchmark_run_times() -> None:
    text = (
        "rknn_api/rknnrt version: 2.3.0 (c949ad889d@2024-11-07T11:35:33), driver version: "
        "0.9.8\nBegin perf ...\n"
        + "".join(
            f"{i:4}: Elapse Time = {2 + i % 3}.00ms, FPS = 400.00\n" for i in range(LIMIT + 20)
        )
    )
    assembly = _parse(text)
    runs = assembly.profiles[0].benchmark.run_times_ms  # type: ignore[union-attr]
    assert len(runs) == LIMIT and runs[:3] == (2.0, 3.0, 4.0)
    assert _warned(assembly, f"more than {LIMIT:,} run times in one benchmark")
