"""Parsing and assembly import only down the pipeline (lines -> parsers -> assemble -> analysis):
parsers never import the assembler or anything after it; the assembler nothing after itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "rknnprof"
LATER = ("analysis", "rules", "reporters", "compare", "budgets", "cli", "api")
FORBIDDEN = {"parsers": ("assemble", *LATER), "assemble": LATER}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("stage", sorted(FORBIDDEN))
def test_no_import_points_back(stage: str) -> None:
    modules = sorted((PACKAGE / stage).rglob("*.py"))
    assert modules
    wrong = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in modules for name in sorted(_imports(path))
        if any(name == f"rknnprof.{later}" or name.startswith(f"rknnprof.{later}.")
               for later in FORBIDDEN[stage])
    ]
    assert not wrong
