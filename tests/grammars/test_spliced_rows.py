"""A foreign line spliced into a table or ranking row (a tracer or another thread writing into
the middle of a row; the row goes on after it).

``spliced_rows.txt``: a 5-row table, total line 501 us. Row 2 is cut after its OutputShape,
an ``ioctl(...)`` trace line (line 8) follows, then the rest of row 2 (cycles
28800/115200/115200, 144 us): unambiguous, rejoined. Row 3 is cut after its cycles, a
``Thread-2`` line (line 11) follows, then row 4 begins: row 3 cannot be completed and is
skipped with a warning; rows 4 and 5 are read. In the ranking, ``ConvRelu 2 0 0`` (line 24) is
cut by the same trace line and continues on line 26 (432 432 86.23%): rejoined; the other three
rows and the Total row are read.
"""

from __future__ import annotations

import json

import pytest
from grammar_transports import VARIANTS, fixture, profiles, run

RANKING = [
    ("ConvRelu", 2, 432, 0.8623),
    ("Add", 1, 60, 0.1198),
    ("InputOperator", 1, 0, 0.01),
    ("OutputOperator", 1, 0, 0.008),
]
"""The fixture's ranking as printed: (op type, calls, NPU us, TimeRatio / 100)."""


def _ranking(profile: dict) -> list[tuple]:
    return [(r["op_type"], r["calls"], r["npu_time_us"], r["share"]) for r in profile["ranking"]]


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_table_and_ranking_survive_a_spliced_line(tmp_path, variant, via_stdin):
    (profile,) = profiles(VARIANTS[variant](fixture("spliced_rows.txt")), tmp_path, via_stdin)
    assert [(la["id"], la["time_us"]) for la in profile["layers"]] == [
        (1, 5),
        (2, 144),
        (4, 60),
        (5, 4),
    ]
    row2 = profile["layers"][1]
    assert (row2["ddr_cycles"], row2["npu_cycles"], row2["full_name"]) == (
        28800,
        115200,
        "Conv:/c1/Conv",
    )
    [skip] = profile["skipped_rows"]
    assert skip["line"] == 10 and skip["reason"] == "row cut short: no Time(us)"
    assert profile["reported_total_time_us"] == 501
    assert _ranking(profile) == RANKING


def test_the_warnings_name_the_lines(tmp_path):
    result = run(["analyze", "-f", "json"], fixture("spliced_rows.txt").encode(), tmp_path, False)
    assert result.exit_code == 0
    err = result.stderr
    assert ":8: a foreign line was spliced into the row above it" in err
    assert ":11: foreign line inside the table (not read)" in err
    assert ":10: skipped row: row cut short: no Time(us)" in err
    assert ":24: ranking row ConvRelu: a foreign line (line 25) was spliced into it" in err


def _text_in_the_row(text: str) -> str:
    """The ranking's ConvRelu row with the trace text written right after its op type (on the
    row's own line: ``ConvRelu      [pid 4242] ioctl(...)``) and its cells on the next line,
    as a tracer's stdout splits a runtime row (allbilly/rk3588's ioctl trace of librknnrt
    2.3.0 has ``Conv      MEM_SYNC flags=...``)."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("ConvRelu           2"))
    trace, rest = lines[at + 1], lines[at + 2]
    assert trace.startswith("[pid") and rest.split() == ["432", "432", "86.23%"]
    row = "                   2            0            0            432          432            86.23%"
    return "\n".join([*lines[:at], "ConvRelu      " + trace, row, *lines[at + 3 :]]) + "\n"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_ranking_row_cut_by_text_on_its_own_line(tmp_path, variant):
    text = VARIANTS[variant](_text_in_the_row(fixture("spliced_rows.txt")))
    (profile,) = profiles(text, tmp_path, False)
    assert _ranking(profile) == RANKING


def test_the_cut_ranking_row_is_named_once(tmp_path):
    text = _text_in_the_row(fixture("spliced_rows.txt"))
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert (
        ":24: ranking row ConvRelu: foreign text after its op type (line 24) was spliced "
        "into it; rejoined with line 25"
    ) in result.stderr
    assert "without a header line" not in result.stderr


def test_a_sentence_after_the_ranking_is_not_a_cut_row(tmp_path):
    """A line after the last ranking row (no closing rule) whose first word is followed by two
    blanks looks like a row cut by foreign text; when no rest follows it is prose: the report
    is the one without it (no skipped row, no foreign-line notes)."""
    text = fixture("spliced_rows.txt").rstrip("\n")
    without_rule = text[: text.rindex("\n")] + "\n"  # the closing rule dropped
    prose = without_rule + "Thanks  for any help, the model is attached\nI tried  again\n"
    plain = run(["analyze", "-f", "json"], without_rule.encode(), tmp_path, False)
    with_prose = run(["analyze", "-f", "json"], prose.encode(), tmp_path, False)
    assert with_prose.exit_code == plain.exit_code == 0
    assert json.loads(with_prose.stdout)["warnings"] == json.loads(plain.stdout)["warnings"]
    (profile,) = json.loads(with_prose.stdout)["profiles"]
    assert [r["op_type"] for r in profile["ranking"]][-1] == "OutputOperator"
    assert not [s for s in profile["skipped_rows"] if s["line"] > 20]


def test_a_row_cut_after_some_values_keeps_them(tmp_path):
    """``ConvRelu 2 0 [trace]`` then ``0 432 432 86.23%``: the first three cells and the rest
    make the row."""
    text = fixture("spliced_rows.txt")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("ConvRelu           2"))
    head = "ConvRelu           2            0            " + lines[at + 1]
    rest = (
        "                                          0            432          432            86.23%"
    )
    text = "\n".join([*lines[:at], head, rest, *lines[at + 3 :]]) + "\n"
    result = run(["analyze", "-f", "json"], text.encode(), tmp_path, False)
    assert (
        "ranking row ConvRelu: foreign text after its first 3 cells (line 24) was spliced into "
        "it; rejoined with line 25"
    ) in result.stderr
    (profile,) = profiles(text.encode(), tmp_path, False)
    assert profile["ranking"][0]["calls"] == 2 and profile["ranking"][0]["npu_time_us"] == 432
