"""docs/json.md and rknnprof/schema.py describe the same JSON, in both directions: every key the
writer produces is documented, every documented key is written, object by object."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rknnprof.api import analyze
from rknnprof.schema import contract, report_to_dict

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "json.md"
SAMPLE = ROOT / "sample_logs" / "yolov5s_rk3588_perf.txt"

_HEADING = re.compile(r"^## (\w+)\s*$")
_ROW = re.compile(r"^\| `(\w+)` \|(.*)\|\s*$")


def documented() -> dict[str, list[str]]:
    """Each ``## Object`` section's keys, in the order of its table."""
    objects: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if m := _HEADING.match(line):
            current = objects.setdefault(m.group(1), [])
        elif (m := _ROW.match(line)) and current is not None:
            current.append(m.group(1))
    return objects


def test_every_object_is_documented_and_nothing_else():
    assert set(documented()) == set(contract())


@pytest.mark.parametrize("name", sorted(contract()))
def test_keys_both_ways_in_writing_order(name):
    assert documented()[name] == list(contract()[name])


def test_every_row_names_type_unit_and_null_case():
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if m := _ROW.match(line):
            type_, _unit, null_when = (cell.strip() for cell in m.group(2).split("|")[:3])
            assert type_ and null_when, line


def _walk(data: object, name: str, seen: dict[str, set[str]]) -> None:
    """Collect the keys of every object in ``data``, which is a ``name`` object or a list."""
    if isinstance(data, list):
        for item in data:
            _walk(item, name, seen)
        return
    assert isinstance(data, dict)
    assert list(data) == list(contract()[name]), name
    seen.setdefault(name, set()).update(data)
    for key, child in contract()[name].items():
        if child is not None and data[key] is not None:
            _walk(data[key], child, seen)


def test_the_writer_writes_what_the_contract_says():
    from tests.reporters.report_samples import HAND_REPORT, NO_LAYERS_REPORT

    seen: dict[str, set[str]] = {}
    for report in (analyze(SAMPLE), HAND_REPORT, NO_LAYERS_REPORT):
        _walk(report_to_dict(report), "Report", seen)
    assert {"Report", "Profile", "Layer", "Finding", "OpTypeStat", "BenchmarkRun"} <= set(seen)


def test_the_readme_points_here():
    assert "docs/json.md" in (ROOT / "README.md").read_text(encoding="utf-8")
