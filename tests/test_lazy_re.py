"""``LazyPattern`` (``inputs/lazy_re.py``) is ``re.compile`` done on first use: nothing is
compiled before a method is looked up, and from then on its methods are the compiled pattern's
own, for ``str`` and ``bytes`` patterns alike."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import rknnprof
from rknnprof.inputs.lazy_re import LazyPattern


def test_nothing_is_compiled_before_first_use(monkeypatch):
    compiled = []
    real = re.compile

    def counting(pattern, flags=0):
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counting)
    pattern = LazyPattern(r"Total Time\(us\):\s*(\d+)")
    assert pattern.pattern == r"Total Time\(us\):\s*(\d+)"  # (the source, as re.Pattern has it)
    assert compiled == []
    assert pattern.search("Total Time(us): 50885").group(1) == "50885"
    assert pattern.match("x Total Time(us): 1") is None
    assert compiled == [r"Total Time\(us\):\s*(\d+)"]  # once, for every method


def test_methods_are_the_compiled_patterns_after_first_use():
    pattern = LazyPattern(r"\d+", re.ASCII)
    assert pattern.findall("a 12 b 345") == ["12", "345"]
    expected = re.compile(r"\d+", re.ASCII)
    for name in ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"):
        method = getattr(pattern, name)
        assert method.__self__ == expected, name  # a bound method of the compiled pattern
        assert method.__name__ == name
    assert pattern.sub("0", "v1.23") == "v0.0"
    assert pattern.fullmatch("٣") is None  # the flags were given to re.compile (ASCII digits)


def test_bytes_patterns():
    pattern = LazyPattern(rb"Time\(us\):\s*(\d+)")
    m = pattern.search(b"D RKNN: Total Operator Elapsed Per Frame Time(us): 7")
    assert m is not None and m.group(1) == b"7"
    assert [m.group(0) for m in pattern.finditer(b"Time(us): 1 Time(us): 22")] == [
        b"Time(us): 1",
        b"Time(us): 22",
    ]


def test_an_invalid_pattern_fails_at_first_use_as_re_compile_would():
    pattern = LazyPattern(r"(unclosed")
    with pytest.raises(re.error, match="missing \\), unterminated subpattern"):
        pattern.search("x")


def test_other_attributes_are_not_invented():
    pattern = LazyPattern(r"x")
    with pytest.raises(AttributeError):
        pattern.scanner  # noqa: B018 - the lookup is the test
    assert repr(pattern) == "LazyPattern('x', 0)"


def test_no_pattern_is_compiled_at_import():
    """ARCHITECTURE.md's rule: a module-level pattern is a ``LazyPattern``, so a run compiles only
    the patterns its log needs (``re.compile`` inside a function is compiled when called)."""
    package = Path(rknnprof.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for statement in tree.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            found.extend(
                f"{path.relative_to(package)}:{node.lineno}"
                for node in ast.walk(statement)
                if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "compile"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
            )
    assert found == []
