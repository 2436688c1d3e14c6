"""The bottom of the pipeline stays at the bottom: the model imports no other part of rknnprof,
the JSON schema only the model (and the error type), analysis nothing that runs after it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rknnprof"
AFTER_ANALYSIS = ("rules", "reporters", "compare", "budgets", "cli", "api", "inputs")


def _rknnprof_imports(path: Path) -> set[str]:
    """Every ``rknnprof.*`` module the file imports, at any depth (function-level too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("rknnprof."))
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "rknnprof":
                names.update(f"rknnprof.{a.name}" for a in node.names)
            elif node.module.startswith("rknnprof."):
                names.add(node.module)
    return names


def test_model_imports_nothing_of_rknnprof():
    assert _rknnprof_imports(PACKAGE / "model.py") == set()


def test_schema_imports_only_the_model_and_errors():
    assert _rknnprof_imports(PACKAGE / "schema.py") <= {
        "rknnprof.model", "rknnprof.errors", "rknnprof.__version__"}


def test_analysis_imports_nothing_after_it():
    wrong = [f"{path.relative_to(PACKAGE)} imports {name}"
             for path in sorted((PACKAGE / "analysis").rglob("*.py"))
             for name in sorted(_rknnprof_imports(path))
             if name.split(".")[1] in AFTER_ANALYSIS]
    assert not wrong
