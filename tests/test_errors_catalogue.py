"""docs/errors.md lists every error message a user can meet. Both directions are checked:

* every message template the code raises (``raise …Error(…)``, click usage errors, the budgets
  ``_err(…)`` helper, the "no profile data" messages and the kinds of content they name) has
  each of its literal fragments in the catalogue;
* every message the catalogue lists (first cell of its tables, above "Warnings") has each of its
  literal fragments in some string of the code — no stale entries.

A template's fragments are its literal text between ``{…}`` placeholders (and ``: ``, which
joins a budgets key to its message), trimmed of blanks and punctuation; fragments shorter than 4 characters say nothing and are ignored.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "rknnprof"
CATALOGUE = REPO / "docs" / "errors.md"
_TRIM = " :;,.'\"`%…()"


def fragments(template: str) -> list[str]:
    parts = re.split(r"\{[^{}]*\}|…|: ", template)
    return [p.strip(_TRIM) for p in parts if len(p.strip(_TRIM)) >= 4]


def _template(node: ast.expr) -> str | None:
    """The text of a str constant or f-string, ``{}`` for each interpolated value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _strings(node: ast.AST) -> list[str]:
    return [t for n in ast.walk(node) if isinstance(n, ast.expr) and (t := _template(n))]


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def code_messages() -> dict[str, str]:
    """Message templates the code can raise -> where (file:line)."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = lambda n: f"{path.relative_to(REPO)}:{n.lineno}"  # noqa: E731
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = _call_name(node.exc)
                if (
                    name.endswith(("Error", "BadParameter"))
                    # programming errors, never a user's: a frozen record assigned to, a
                    # record declared on the wrong base
                    and name
                    not in ("ValueError", "AssertionError", "FrozenInstanceError", "TypeError")
                    and node.exc.args
                ):
                    if (text := _template(node.exc.args[0])) is not None:
                        found[text] = where(node)
            elif isinstance(node, ast.Call) and _call_name(node) == "_err" and len(node.args) == 4:
                if (text := _template(node.args[3])) is not None:  # budgets: "{key}: {what}"
                    found[text] = where(node)
            elif isinstance(node, ast.FunctionDef) and node.name == "no_data_message":
                for ret in (n for n in ast.walk(node) if isinstance(n, ast.Return)):
                    for text in _strings(ret):
                        found[text] = where(ret)
            elif (
                isinstance(node, ast.Call)
                and _call_name(node) in ("append", "insert")
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "found"
            ):
                kind = node.args[-1]
                if isinstance(kind, ast.Tuple) and (text := _template(kind.elts[0])) is not None:
                    found[text] = where(node)
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "kind"
                and path.name == "assemble.py"
            ):
                for text in _strings(node.value):
                    found[text] = where(node)
    return found


def catalogue_messages() -> list[str]:
    """First cells of the catalogue's tables, above the Warnings section, that quote a message."""
    text = CATALOGUE.read_text(encoding="utf-8").split("\n## Warnings")[0]
    messages = []
    for line in text.splitlines():
        m = re.match(r"^\| `(.*?)` (?:\(.*?\) )?\|", line)
        if m and "(click)" not in line:
            messages.append(m.group(1).replace("\\|", "|"))  # (a pipe escaped in a table)
    return messages


def test_the_catalogue_lists_messages():
    assert len(catalogue_messages()) > 50


def test_every_raised_message_is_in_the_catalogue():
    catalogue = CATALOGUE.read_text(encoding="utf-8")
    missing = [
        f"{where}: {text!r} (no {frag!r})"
        for text, where in code_messages().items()
        for frag in fragments(text)
        if frag not in catalogue
    ]
    assert not missing, "add these to docs/errors.md:\n" + "\n".join(missing)


def test_every_catalogued_message_is_in_the_code():
    code = "\n".join(
        text
        for path in PACKAGE.rglob("*.py")
        for text in _strings(ast.parse(path.read_text(encoding="utf-8")))
    )
    stale = [
        f"{msg!r} (no {frag!r})"
        for msg in catalogue_messages()
        for frag in fragments(msg)
        if frag not in code
    ]
    assert not stale, "docs/errors.md lists messages the code no longer has:\n" + "\n".join(stale)


def test_fragments():
    assert fragments("{where}.metric: missing (one of {m})") == ["metric", "missing (one of"]
    assert fragments("{key}: {what}") == []
