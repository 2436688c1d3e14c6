"""The dataclass method cache of the command line: same classes, compiled once, never trusted
blindly (rknnprof/cli/codecache.py)."""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rknnprof.cli import codecache


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The cache as a process starts it, with its file in ``tmp_path``."""
    cache = tmp_path / "__pycache__" / "dataclasses.marshal"
    monkeypatch.setattr(codecache, "CACHE", cache)
    monkeypatch.setattr(codecache, "_cache", {})
    monkeypatch.setattr(codecache, "_used", {})
    monkeypatch.setattr(codecache, "_compiled", 0)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.delattr(dataclasses, "exec", raising=False)
    yield cache
    if hasattr(dataclasses, "exec"):
        del dataclasses.exec


def _make(name: str = "Point") -> type:
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        label: str = "a"
        tags: tuple[str, ...] = ()

    Point.__name__ = Point.__qualname__ = name
    return Point


def _count_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    compiled: list[str] = []
    real = builtins.compile

    def counting(source: str, *args: object, **kwargs: object) -> object:
        compiled.append(source)
        return real(source, *args, **kwargs)  # type: ignore[call-overload]  # builtins.compile's overloads

    monkeypatch.setattr(builtins, "compile", counting)
    return compiled


def test_classes_made_through_the_cache_behave_as_dataclasses_make_them(fresh: Path) -> None:
    codecache.install()
    cached = _make()
    del dataclasses.exec
    plain = _make()
    for cls in (cached, plain):
        p = cls(1, "b")
        assert repr(p).endswith("Point(x=1, label='b', tags=())")
        assert p == cls(1, "b") and p != cls(2, "b")
        assert hash(p) == hash(cls(1, "b"))
        with pytest.raises(dataclasses.FrozenInstanceError):
            p.x = 3
        assert [f.name for f in dataclasses.fields(cls)] == ["x", "label", "tags"]
        assert dataclasses.replace(p, x=5).x == 5
    assert repr(cached(1)) == repr(plain(1))


def test_a_second_process_compiles_nothing_the_first_saved(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    codecache.install()
    _make()
    assert (
        codecache._compiled == 6
    )  # __init__, __repr__, __eq__, __setattr__, __delattr__, __hash__
    codecache.save()
    saved = marshal.loads(fresh.read_bytes())
    assert len(saved) == 6 and all(text.startswith("def __create_fn__") for text in saved)
    # the next process
    del dataclasses.exec
    monkeypatch.setattr(codecache, "_cache", {})
    monkeypatch.setattr(codecache, "_used", {})
    compiled = _count_compiles(monkeypatch)
    codecache.install()
    cls = _make()
    assert compiled == [] and codecache._compiled == 0
    assert cls(4).x == 4
    stamp = fresh.stat().st_mtime_ns
    codecache.save()  # nothing new: the file is not rewritten
    assert fresh.stat().st_mtime_ns == stamp


def test_a_changed_class_is_compiled_and_added(fresh: Path) -> None:
    codecache.install()
    _make()
    codecache.save()

    @dataclasses.dataclass(frozen=True)
    class Other:
        y: float

    assert codecache._compiled == 6  # its texts differ: compiled, not looked up
    codecache.save()
    assert len(marshal.loads(fresh.read_bytes())) == 12  # the first class's texts are kept
    assert Other(1.5).y == 1.5


@pytest.mark.parametrize(
    "damage", [b"", b"\x00garbage", marshal.dumps([1, 2]), marshal.dumps({"def f(): pass": 3})]
)
def test_a_damaged_cache_is_ignored_and_rewritten(fresh: Path, damage: bytes) -> None:
    fresh.parent.mkdir()
    fresh.write_bytes(damage)
    codecache.install()
    cls = _make()
    assert cls(2) == cls(2)
    codecache.save()
    assert len(marshal.loads(fresh.read_bytes())) == 6


def test_no_file_without_bytecode(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    codecache.install()
    _make()
    codecache.save()
    assert not fresh.exists()


def test_a_read_only_place_only_costs_the_compile(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = fresh.parent.parent / "a-file"
    blocker.write_text("")
    monkeypatch.setattr(codecache, "CACHE", blocker / "__pycache__" / "x.marshal")  # cannot mkdir
    codecache.install()
    assert _make()(1).x == 1
    codecache.save()  # no error, nothing written
    assert blocker.read_text() == ""


def test_the_command_line_writes_the_cache_it_then_reads() -> None:
    """Two runs of the console script: the first leaves the cache beside the bytecode, the
    second compiles none of the methods (measured: the cache's texts all used)."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(codecache.__file__).parents[2])}
    probe = (
        "import sys; from rknnprof.cli import codecache as c\n"
        "real = c.save\n"
        "def save():\n"
        " print('COMPILED', c._compiled, len(c._used), file=sys.stderr)\n"
        " real()\n"
        "c.save = save\n"
        "sys.argv = ['rknnprof', 'formats']\n"
        "import rknnprof.cli as m  # the console script's main\n"
        "try:\n m.main()\nexcept SystemExit: pass\n"
    )
    first = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False
    )
    assert first.returncode == 0, first.stderr
    second = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False
    )
    assert second.returncode == 0, second.stderr
    compiled, used = second.stderr.rsplit("COMPILED", 1)[1].split()
    assert int(used) > 20  # the model's classes and the commands' went through the cache
    if codecache.CACHE.exists():  # a writable checkout: the second run compiled none of them
        assert compiled == "0"
