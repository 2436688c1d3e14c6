"""The input stage is the first: ``rknnprof/inputs/`` imports only itself and the error types,
at any depth (function-level and TYPE_CHECKING imports too), so no arrow points back to it."""

from __future__ import annotations

import ast
from pathlib import Path

INPUTS = Path(__file__).resolve().parent.parent / "rknnprof" / "inputs"


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return {n for n in names if n == "rknnprof" or n.startswith("rknnprof.")}


def test_inputs_import_nothing_after_them():
    wrong = [f"{path.name} imports {name}" for path in sorted(INPUTS.glob("*.py"))
             for name in sorted(_imports(path))
             if name != "rknnprof.errors" and not name.startswith("rknnprof.inputs")]
    assert not wrong
    assert len(list(INPUTS.glob("*.py"))) >= 4  # lines, records, _prefixes, live (+ __init__)
