"""Plain text for the human-facing reporters: numbers, counts, shapes and names cut to a width.

Nothing here knows a profile; :mod:`rknnprof.reporters._facts` phrases the model with these.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO, TypeVar

from rknnprof.model import Shape
from rknnprof.units import cell, frame_ms, part_us, percent

__all__ = ["fmt_cell", "fmt_pct", "frame_ms", "part_us"]


# -- numbers (the unit rule lives in rknnprof.units) -------------------------------------------
fmt_cell = cell
fmt_pct = percent


def plural(count: int, word: str) -> str:
    """``1 finding``, ``3 findings``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


# -- names and shapes ----------------------------------------------------------------------------
def shorten_path(path: str, width: int) -> str:
    """Cut ``path`` to ``width`` characters with ``…`` in the middle: the start names the folder
    (or the file's number), the end names the file."""
    if len(path) <= width:
        return path
    if width < 2:
        return "…"[:width]
    head = (width - 1) // 3
    return path[:head] + "…" + path[len(path) - (width - 1 - head) :]


def fit_paths(paths: Sequence[str], room: int) -> list[str]:
    """``paths`` cut (:func:`shorten_path`) so that together they take at most ``room``
    terminal cells (a CJK character takes two), each at least 20: a header line naming several
    files fits the terminal. Whole when cutting would print two different paths alike."""
    from rich.cells import cell_len

    if sum(map(cell_len, paths)) <= room:
        return list(paths)
    each = max(20, room // max(len(paths), 1))

    def fit(path: str, cut: Callable[[str, int], str]) -> str:
        width = each
        short = cut(path, width)
        while cell_len(short) > each and width > 2:
            width -= 1
            short = cut(path, width)
        return short

    # cut in the middle; where that prints two paths alike, keep their ends (the file names);
    # where those are alike too, whole
    for cut in (shorten_path, _path_end):
        shown = [fit(path, cut) for path in paths]
        if len(set(shown)) == len(set(paths)):
            return shown
    return list(paths)


def _path_end(path: str, width: int) -> str:
    """``…`` and the last ``width - 1`` characters of ``path``, when it is longer."""
    return path if len(path) <= width else "…" + path[len(path) - (width - 1) :]


def shorten_all(texts: Sequence[str], width: int) -> list[str]:
    """:func:`shorten` of each, unless that makes two of them alike (``/model/model.…/conv/Conv``
    for layers 10 and 12): then each name's start is what is cut (``…l.10/conv/Conv``), so the
    end that tells them apart shows. When one name must lose its op-class prefix to fit, every
    one does: a column of ``Reshape:prop_q_groups`` beside ``prop_out_channels_rs`` read as two
    kinds of name."""
    if any(len(text) > width for text in texts):
        texts = [_node(text) for text in texts]
    short = [shorten(text, width) for text in texts]
    if len(set(short)) == len(set(texts)) or width < 2:
        return short
    nodes = [_node(text) for text in texts]
    return [node if len(node) <= width else "…" + node[-(width - 1) :] for node in nodes]


def _node(text: str) -> str:
    """``/model.2/cv2/conv/Conv`` of ``Conv:/model.2/cv2/conv/Conv``: the ONNX op type before
    the colon repeats the op column; ``text`` itself without one."""
    op_prefix, colon, node = text.partition(":")
    return node if colon and node and " " not in op_prefix else text


def shorten(text: str | None, width: int) -> str:
    """Cut ``text`` to ``width`` characters with ``…`` in the middle (the start names the op, the
    end names the node, both matter)."""
    text = text or ""
    if len(text) <= width:
        return text
    if width < 1:
        return ""
    text = _node(text)  # (the op type first)
    if len(text) <= width:
        return text
    head = (width - 1) * 3 // 5
    tail = width - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def shape_text(shapes: Sequence[Shape] | None, truncated: bool = False, sep: str = ";") -> str:
    """``1x3x640x640;16x3x3x3`` (``;…`` appended when the log cut the list); empty when None."""
    if shapes is None:
        return ""
    text = sep.join("x".join(str(d) for d in shape) for shape in shapes)
    return text + (f"{sep}..." if truncated else "")


def finding_layers_text(ids: Iterable[int], limit: int = 8) -> str:
    """``layers 4, 6`` (cut after ``limit`` with ``+N more``)."""
    ids = list(ids)
    if not ids:
        return ""
    shown = ", ".join(str(i) for i in ids[:limit])
    more = f" +{len(ids) - limit} more" if len(ids) > limit else ""
    return f"layer{'s' if len(ids) > 1 else ''} {shown}{more}"


_R = TypeVar("_R")
_O = TypeVar("_O")


def stripped_view(render: Callable[[_R, TextIO, _O], None]) -> Callable[[_R, TextIO, _O], None]:
    """``render`` (a terminal view), its lines written without trailing blanks
    (:func:`write_stripped`)."""

    @functools.wraps(render)
    def view(result: _R, out: TextIO, options: _O) -> None:
        buffer = io.StringIO()
        render(result, buffer, options)
        write_stripped(out, buffer.getvalue())

    return view


def write_stripped(out: TextIO, text: str) -> None:
    """``text`` written line by line without trailing blanks (rich pads every line of a
    console to its width; trailing blanks only make diffs and pastes noisy)."""
    out.write("".join(line.rstrip() + "\n" for line in text.splitlines()))
