"""Imports point only down the pipeline, and no two modules import each other.

Every ``import`` of the package is read with ``ast`` -- module-level, function-level (the lazy
imports) and ``if TYPE_CHECKING:`` ones alike: a type from a later stage named in an earlier one
is an arrow pointing back all the same, so TYPE_CHECKING imports count. Relative imports are
resolved. ``importlib.import_module`` strings (the package's lazy ``__getattr__``) are not seen.

:data:`STAGES` is the order ARCHITECTURE.md draws; a module may import its own stage and the
stages below it, never one above. A new top-level module or package must be placed in it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rknnprof"

STAGES: tuple[tuple[str, ...], ...] = (
    ("errors", "units", "model", "__version__"),  # the vocabulary every stage speaks
    ("schema",),  # the JSON contract: dict <-> model
    ("platforms",),  # SoC facts (YAML), read by analysis and rules
    ("inputs",),  # bytes -> clean lines (prefixes, live pipe)
    ("parsers", "saved"),  # lines -> events, one module per input family; saved JSON reports
    ("assemble",),  # events -> profiles (frames merged, info attached)
    ("analysis",),  # bound, shares, op types, derived figures
    ("rules",),  # advice: findings and savings
    ("compare",),  # two analysed runs -> deltas
    ("budgets",),  # the CI gate's verdicts (reads compare's pairing)
    ("reporters",),  # results -> text in each output format
    ("api", "__init__"),  # the library: load / analyze (the package re-exports them)
    ("cli", "__main__"),  # click commands, exit codes, where output goes
)
"""Bottom to top. ``__version__`` is the constant ``rknnprof/__init__.py`` defines before
anything else (``from rknnprof import __version__``); the rest of ``__init__`` is the facade."""

ONLY: dict[str, set[str]] = {
    "model": set(),
    "errors": set(),
    "units": set(),
    "schema": {"model", "errors", "__version__"},
    "inputs": {"errors"},
}
"""Parts held tighter than the order: what each may import besides itself."""

RANK = {part: rank for rank, parts in enumerate(STAGES) for part in parts}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> Iterator[tuple[str, int]]:
    """(imported rknnprof module, line) for every import in the file, at any depth; ``from
    pkg import sub`` names the submodule, ``from rknnprof import __version__`` the constant."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                if sub in known or sub == "rknnprof.__version__":
                    yield sub, node.lineno
                else:
                    yield module, node.lineno


def _part(module: str) -> str:
    """The stage-table entry of a module: its first name under ``rknnprof``."""
    return module.split(".")[1] if "." in module else "__init__"


def _graph() -> dict[str, dict[str, int]]:
    """module -> {rknnprof module it imports: first line}, without self-imports."""
    modules = _modules()
    known = set(modules)
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        for target, line in _imports(name, path, known):
            if (target == "rknnprof" or target.startswith("rknnprof.")) and target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def _where(module: str) -> str:
    path = _modules()[module]
    return str(path.relative_to(PACKAGE.parent))


def test_every_part_of_the_package_has_a_stage() -> None:
    parts = {_part(name) for name in _modules()}
    assert parts - set(RANK) == set(), "place the new part in STAGES (and ARCHITECTURE.md)"
    assert set(RANK) - parts - {"__version__"} == set(), "a stage names a part that is gone"


def test_no_import_points_back_up_the_pipeline() -> None:
    wrong = [
        f"{_where(module)}:{line} imports {target} ({_part(module)} is below {_part(target)})"
        for module, edges in _graph().items()
        for target, line in edges.items()
        if RANK[_part(target)] > RANK[_part(module)]
    ]
    assert wrong == []


def test_the_bottom_parts_import_only_what_they_may() -> None:
    wrong = [
        f"{_where(module)}:{line} imports {target}"
        for module, edges in _graph().items()
        if _part(module) in ONLY
        for target, line in edges.items()
        if _part(target) != _part(module) and _part(target) not in ONLY[_part(module)]
    ]
    assert wrong == []


def _cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One import cycle between modules (the path, first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in graph.get(module, {}):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_no_import_cycle_between_modules() -> None:
    # a package's __init__ running before its submodules is not counted: only the imports the
    # files write are edges
    graph = {
        m: {t: n for t, n in e.items() if t != "rknnprof.__version__"} for m, e in _graph().items()
    }
    assert _cycle(graph) is None


def test_the_cycle_finder_finds_one() -> None:
    assert _cycle({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b": 1}, "b": {}, "c": {"b": 1}}) is None
