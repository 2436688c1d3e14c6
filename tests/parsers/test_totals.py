from __future__ import annotations

from parser_helpers import corpus_lines, lines_of, of_type, run

from rknnprof.parsers.events import TotalsEvent
from rknnprof.parsers.totals import TotalsParser


def totals(text: str) -> list[TotalsEvent]:
    return of_type(run(TotalsParser(), lines_of(text)), TotalsEvent)


def test_two_lines() -> None:
    [event] = totals("====\nTotal Time(us): 18642\nFPS: 53.64\n====")
    assert (event.line, event.total_time_us, event.fps) == (2, 18642, 53.64)


def test_toolkit1_17_average_inference_time() -> None:
    """rknn-toolkit 1.7.5 (rknn-toolkit issue 511): the mean of the timed runs, same place."""
    text = (
        "========\n   Performance\n========\nAverage inference Time(us): 2956.56\n"
        "FPS: 338.23\n========"
    )
    [event] = totals(text)
    assert (event.line, event.total_time_us, event.fps) == (4, 2956.56, 338.23)


def test_a_number_in_another_notation_is_not_its_first_digits() -> None:
    """``1e309`` is not 1 us (it was read up to the ``e``)."""
    assert totals("Average inference Time(us): 1e309\nFPS: 1") == []
    assert totals("Total Time(us): 12.5.3") == []


def test_newlines_lost() -> None:
    [event] = totals("Total Time(us): 7140FPS: 140.06")
    assert (event.total_time_us, event.fps) == (7140, 140.06)


def test_without_fps() -> None:
    [event] = totals("Total Time(us): 100\nsomething else")
    assert (event.total_time_us, event.fps) == (100, None)


def test_other_totals_are_not_totals() -> None:
    assert totals("Total Operator Elapsed Time(us): 14147") == []
    assert totals("Total Operator Elapsed Per Frame Time(us): 20344") == []
    assert (
        totals("OpType  Call Number  CPU Time(us)  NPU Time(us)  Total Time(us)  Time Ratio(%)")
        == []
    )


def test_corpus_29_indented(corpus) -> None:
    [event] = of_type(run(TotalsParser(), corpus_lines(corpus("29_"))), TotalsEvent)
    assert (event.line, event.total_time_us, event.fps) == (10, 18642, 53.64)


def test_corpus_30_collapsed_newlines(corpus) -> None:
    [event] = of_type(run(TotalsParser(), corpus_lines(corpus("30_"))), TotalsEvent)
    assert (event.line, event.total_time_us, event.fps) == (3, 7140, 140.06)
