"""The JSON report's writer gives the bytes ``json.dumps(indent=2, ensure_ascii=False,
allow_nan=False)`` gives, so the contract's text cannot drift from the standard library's."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest

from rknnprof.reporters.json_report import indented


def _stdlib(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)


class _Level(enum.StrEnum):
    HIGH = "high"


class _Count(enum.IntEnum):
    TWO = 2


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        None,
        True,
        0,
        -0.0,
        1e16,
        0.1,
        2**70,
        "",
        {"a": [], "b": {}, "c": [[]], "d": [{}], "e": [[1, [2, []]], {"x": {"y": None}}]},
        {"layer": 'Conv:/model.0/conv \u202e\x1b[31m "quoted" \\ tab\t nl\n', "ü": "µs — 名前"},
        {"times": [801, 124.5, 3e-05, 1.7976931348623157e308], "flags": [True, False, None]},
        ("a", (1, 2.5), ["b"]),
        {"level": _Level.HIGH, "count": _Count.TWO, "big": True},
        ["\ud800 lone surrogate", "\x00\x7f\x9f"],
    ],
)
def test_same_text_as_json_dumps(value: Any) -> None:
    assert indented(value) == _stdlib(value)


def test_a_saved_report_round_trips_to_the_same_text() -> None:
    report = {
        "schema_version": 1,
        "profiles": [
            {
                "layers": [
                    {
                        "id": 1,
                        "op_type": "InputOperator",
                        "input_shapes": [[1, 32, 80, 80]],
                        "workload_pct": [0.0, 0.0, 0.0],
                        "time_share": 0.015754,
                        "fallback": None,
                    }
                ]
            }
        ],
        "warnings": [],
        "failures": [],
    }
    text = indented(report)
    assert text == _stdlib(report)
    assert indented(json.loads(text)) == text


@pytest.mark.parametrize(
    "value",
    [
        {1: "int key", 2.5: "float key", None: "null key"},
        {"set": [1, 2]},
    ],
)
def test_what_is_not_plain_data_is_written_by_json_itself(value: Any) -> None:
    assert indented(value) == _stdlib(value)


@pytest.mark.parametrize(
    "bad",
    [float("nan"), float("inf"), [float("-inf")], {"set": {1}}, object(), {("tuple", "key"): 1}],
)
def test_what_json_refuses_is_refused_with_its_error(bad: Any) -> None:
    with pytest.raises((ValueError, TypeError)) as stdlib:
        _stdlib(bad)
    with pytest.raises(stdlib.type, match=str(stdlib.value)[:20]):
        indented(bad)
