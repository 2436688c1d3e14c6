"""Mutants of a saved JSON report (``analyze -f json``), for the reader ``compare`` and ``check``
share (:mod:`rknnprof.parsers.saved`, :mod:`rknnprof.schema`): non-finite and huge numbers,
values of the wrong type, deep nesting, huge strings, keys removed or added, damaged bytes.

Each mutant goes through ``compare`` (as base and as current, in one of its formats), ``check``
and ``check --baseline``; :func:`tests.fuzz.hostile.check` judges every run (no traceback, an
exit code of the documented ones, no control character, standard JSON, no live CSV formula),
and the CSV and JSON outputs also hold no ``inf`` or ``nan``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tests.fuzz import hostile as H

JSONValue = Any

_NUMBERS = (
    "1e400",
    "-1e400",
    "1e308",
    "-1e308",
    "9" * 4000,
    "-" + "9" * 30,
    "1e18",
    "1e-400",
    "-0.0",
    "0",
)
"""JSON number texts a float or the model cannot hold, and the edges that it can."""

_NON_NUMBERS = ("NaN", "Infinity", "-Infinity")
"""What ``json.dumps`` writes for non-finite floats: not JSON."""


def seed_report() -> dict[str, JSONValue]:
    """The saved report of the bundled sample log, as a dict."""
    from rknnprof.api import analyze
    from rknnprof.schema import report_to_dict

    return report_to_dict(analyze([str(H.SAMPLE)]))


def _paths(value: JSONValue, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indexes) to a value inside ``value``."""
    found = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:4]):  # the first rows stand for the rest
            found += _paths(v, (*prefix, i))
    return found


def _set(root: JSONValue, path: tuple[Any, ...], new: JSONValue) -> JSONValue:
    if not path:
        return new
    node = root
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = new
    return root


_MARK = "\u0000NUMBER\u0000"


def _with_number(root: JSONValue, path: tuple[Any, ...], number: str) -> str:
    """``root`` as JSON text with the value at ``path`` written as the raw ``number`` text."""
    return json.dumps(_set(root, path, _MARK)).replace(json.dumps(_MARK), number)


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def mutate(seed: dict[str, JSONValue], rng: random.Random) -> bytes:
    """One mutant of ``seed`` (left unchanged), as the bytes of a file."""
    root = json.loads(json.dumps(seed))
    paths = [p for p in _paths(root) if p and p[0] != "schema_version"]
    path = rng.choice(paths)
    kind = rng.randrange(9)
    if kind == 0:
        text = _with_number(root, path, rng.choice(_NUMBERS + _NON_NUMBERS))
    elif kind == 1:
        wrong: JSONValue = rng.choice(["", "x" * 10, [], {}, True, None, [1, "a"], {"a": 1}, -1])
        text = json.dumps(_set(root, path, wrong))
    elif kind == 2:
        text = _with_number(root, path, _deep(rng.choice([50, 1000, 100_000])))
    elif kind == 3:
        text = json.dumps(_set(root, path, "\x1b]8;;x\x07" + "y" * rng.choice([10, 200_000])))
    elif kind == 4 and isinstance(_parent(root, path), dict):
        del _parent(root, path)[path[-1]]
        text = json.dumps(root)
    elif kind == 5:
        parent = _parent(root, path)
        if isinstance(parent, dict):
            parent["unknown_key_" + str(rng.randrange(99))] = {"nested": [1, 2]}
        text = json.dumps(root)
    elif kind == 6:
        text = json.dumps(root)
        text = text[: rng.randrange(1, len(text))]  # cut
    elif kind == 7:
        data = bytearray(json.dumps(root).encode())
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    else:
        text = re.sub(
            r'"time_us": [0-9.]+',
            lambda m: '"time_us": ' + rng.choice(_NUMBERS),
            json.dumps(root),
            count=rng.randrange(1, 5),
        )
    return text.encode("utf-8", "surrogatepass")


def _parent(root: JSONValue, path: tuple[Any, ...]) -> JSONValue:
    node = root
    for step in path[:-1]:
        node = node[step]
    return node


_NOT_FINITE = re.compile(r"(?<![A-Za-z_])(?:-?inf|nan|infinity)(?![A-Za-z_])", re.IGNORECASE)


def run_mutant(mutant: str, other: str, budgets: str, index: int) -> list[H.Outcome]:
    """``mutant`` (a saved report's path) through compare, check and check --baseline against
    ``other`` (a log or a valid saved report); the outcomes with problems."""
    cfmt = H.COMPARE_FORMATS[index % len(H.COMPARE_FORMATS)]
    kfmt = H.CHECK_FORMATS[index % len(H.CHECK_FORMATS)]
    quiet = ["--no-summary", "--color", "never"]
    runs: list[tuple[list[str], str]] = [
        (["compare", mutant, other, "-f", cfmt, *quiet], cfmt),
        (["compare", other, mutant, "-f", "csv", *quiet], "csv"),
        (["check", mutant, "--budgets", budgets, "-f", kfmt, *quiet], kfmt),
        (
            ["check", other, "--budgets", budgets, "--baseline", mutant, "-f", "json", *quiet],
            "json",
        ),
    ]
    bad = []
    for argv, fmt in runs:
        outcome = H.run_main(argv)
        problems = H.check(outcome, fmt)
        if fmt in ("csv", "json") and outcome.code in (0, 1) and _non_finite(outcome.stdout, fmt):
            problems.append("inf or nan in the output")
        if problems:
            outcome.problems = problems
            bad.append(outcome)
    return bad


def _non_finite(text: str, fmt: str) -> bool:
    if fmt == "csv":
        import csv
        import io

        return any(
            _NOT_FINITE.fullmatch(c.strip()) for row in csv.reader(io.StringIO(text)) for c in row
        )
    found: list[bool] = []

    def visit(value: JSONValue) -> None:
        if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
            found.append(True)
        elif isinstance(value, dict):
            for v in value.values():
                visit(v)
        elif isinstance(value, list):
            for v in value:
                visit(v)

    try:
        visit(json.loads(text))
    except ValueError:
        return False  # H.check reports it
    return bool(found)
