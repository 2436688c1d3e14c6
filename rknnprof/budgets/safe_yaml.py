"""Reading a budgets file that may be hostile: bounded in size, time and memory, and read the
way it looks.

* **Size**: a budgets file is read only when it is a regular file of at most
  :data:`MAX_BYTES` (a real one is well under 10 KB); a directory, FIFO or device is refused
  before anything is read (``/dev/zero`` would never end).
* **Structure**: the event stream is checked before any node is built: anchors and aliases are
  refused (a "billion laughs" expands a few lines into gigabytes), so are explicit tags
  (``!!python/object``, ``!!set``, ``!custom``), and nesting deeper than :data:`MAX_DEPTH`
  (a RecursionError in the composer).
* **Scalars** are read as YAML 1.2's core schema, not PyYAML's YAML 1.1: ``1:30`` is the text
  ``"1:30"`` (not 90, sexagesimal), ``yes``/``on``/``no`` are text, ``0o17``/``0x1f`` are the
  only other integer bases, ``_`` is not a digit separator; an integer of more than
  :data:`MAX_DIGITS` digits is refused. A quoted scalar is always text.

Every refusal is a :class:`~rknnprof.errors.ConfigError` with the file's line.
"""

from __future__ import annotations

import math
import os
import stat
from typing import Any

import yaml

from rknnprof.errors import ConfigError
from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model.record import Record, record

MAX_BYTES = 256 * 1024
"""Largest budgets file read, in bytes."""
MAX_DEPTH = 16
"""Deepest nesting of mappings and lists (a budgets file needs 3)."""
MAX_DIGITS = 30
"""Most digits in an integer (the largest sensible limit, a cycle count, has 12)."""
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_NULL = LazyPattern(r"^(?:~|null|Null|NULL|)$")
_BOOL = LazyPattern(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = LazyPattern(r"^[-+]?[0-9]+$")
_INT_BASE = LazyPattern(r"^0o[0-7]+$|^0x[0-9a-fA-F]+$")
_FLOAT = LazyPattern(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_SPECIAL_FLOAT = LazyPattern(r"^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")


@record
class Composite(Record):
    """A list or mapping where a budgets file wants a scalar; shown as ``a list`` in errors."""

    kind: str

    def __repr__(self) -> str:
        return f"a {self.kind}"


def read_text(path: str) -> str:
    """The file's text, refusing what is not a small regular UTF-8 file."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before the test below refuses it
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as f:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise ConfigError("cannot read budgets file: not a regular file", path)
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise ConfigError(f"cannot read budgets file: {e.strerror or e}", path) from None
    if len(data) > MAX_BYTES:
        raise ConfigError(f"cannot read budgets file: larger than {MAX_BYTES // 1024} KB", path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ConfigError(
            f"cannot read budgets file: not UTF-8 ({e.reason} at byte {e.start})", path
        ) from None


def compose(text: str, path: str) -> yaml.Node | None:
    """The document's node tree, after the event stream passed :func:`_check_events`."""
    if len(text) > MAX_BYTES:
        raise ConfigError(f"budgets file is larger than {MAX_BYTES // 1024} KB", path)
    try:
        _check_events(text, path)
        return yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        what = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ConfigError(f"invalid YAML: {what}", path, mark.line + 1 if mark else None) from None


def _check_events(text: str, path: str) -> None:
    depth = 0
    for event in yaml.parse(text, Loader=_LOADER):
        mark = event.start_mark  # always set by the parser; the stubs allow None
        line = mark.line + 1 if mark is not None else None
        if isinstance(event, yaml.AliasEvent):
            raise ConfigError("invalid YAML: aliases (*name) are not allowed", path, line)
        if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
            raise ConfigError("invalid YAML: anchors (&name) are not allowed", path, line)
        tag = getattr(event, "tag", None)
        if tag is not None:
            raise ConfigError(f"invalid YAML: tags are not allowed, got {show(tag)}", path, line)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise ConfigError(
                    f"invalid YAML: nested deeper than {MAX_DEPTH} levels", path, line
                )
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def value(node: yaml.Node, path: str) -> Any:
    """A scalar node's value by YAML 1.2's core schema; a list or mapping is a
    :class:`Composite` (no budgets value is one)."""
    if isinstance(node, yaml.MappingNode):
        return Composite("mapping")
    if not isinstance(node, yaml.ScalarNode):  # the third kind of node: a sequence
        return Composite("list")
    text = node.value
    if node.style:  # quoted or block scalar: text, whatever it looks like (plain: None or "")
        return text
    if _NULL.match(text):
        return None
    if _BOOL.match(text):
        return text.lower() == "true"
    if _INT.match(text) or _INT_BASE.match(text):
        digits = text.lstrip("+-")
        if len(digits) > MAX_DIGITS:
            raise ConfigError(
                f"number too large ({len(digits)} digits)", path, node.start_mark.line + 1
            )
        return int(text, 0) if _INT_BASE.match(text) else int(text)
    if _FLOAT.match(text):
        if len(text) > MAX_DIGITS + 10:
            raise ConfigError(
                f"number too long ({len(text)} characters)", path, node.start_mark.line + 1
            )
        return float(text)
    if _SPECIAL_FLOAT.match(text):
        return math.nan if "nan" in text.lower() else float(text.replace(".", "", 1))
    return text


def show(text: object, limit: int = 60) -> str:
    """``repr(text)``, cut to ``limit`` characters (error messages quote values)."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
