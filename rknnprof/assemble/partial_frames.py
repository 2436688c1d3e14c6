"""Partial and damaged frames: a one-frame table that is only part of a model whose whole
frames the same stream printed, or a damaged copy of one, not a model of its own.

* a partial **last** frame: the model's first rows without a total line after them (the end of
  a capture, Ctrl-C on a live pipe; also a frame the next one broke off, before or between
  the model's whole frames); its last row may be cut after its op type (the input ended
  inside the row: ``... 2087  Con``, or ``... 236  31.11/0.``, a cut cell the row's reading
  takes for its FullName);
* a partial **first** frame: the model's last rows read without their header (a capture started
  while a frame was printed), before the model's whole frames; it replaces the note of the
  assumed layout its rows got.

:func:`drop_partial_frames` removes them from the assembler's models and says what it dropped;
the frame's unreadable rows (the row a cut went through) are counted in that one warning;
:func:`drop_cut_frames` removes a last frame the input ended inside its total line.

* a **damaged** frame (:func:`damaged_copies`): a frame or two, printed among a model's frames
  of the same stream, whose rows are that model's but for one (a FullName, op type, DataType
  or Target changed, a row lost or added): the runtime prints one model's table the same way
  every inference, so it is a frame damaged in the log, not another model; it stays a profile
  of its own, marked damaged (its budgets are not judged).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from rknnprof.assemble.inferences import ModelFrames
from rknnprof.assemble.signatures import FrameSignature
from rknnprof.parsers.events import Placements, RowNames, Stream
from rknnprof.units import part_us

Models = dict[tuple[Stream, FrameSignature], ModelFrames]
"""The assembler's models: (stream, signature) -> the frames merged so far."""


class Dropped(NamedTuple):
    """A partial frame dropped: its first line and the warning that says so."""

    line: int
    message: str
    first: bool
    """A partial first frame (its rows' note of the assumed layout goes with it)."""
    skipped_lines: frozenset[int]
    """Lines of the frame's unreadable rows (a row the cut went through): the drop's warning
    counts them, their own warnings go with the frame."""


def drop_partial_frames(models: Models) -> list[Dropped]:
    """Remove every partial first or last frame from ``models`` (module doc)."""
    dropped = []
    for key, part in list(models.items()):
        signature = key[1]
        if signature.kind != "layers" or part.frames != 1:
            continue
        if not part.headerless and part.untotalled_line is None:
            continue
        others = list(_others(models, key))
        found = None
        if part.headerless:
            found = next((o for o in others if _ends(signature, part, *o)), None)
            what, first = "without the table's header", True
        if found is None and part.untotalled_line is not None:
            found = next((o for o in others if _starts(signature, part, *o)), None)
            what, first = "no total line", False
        if found is None:
            continue
        other, whole = found
        del models[key]
        kind = _where(part, whole, first)
        cut = part.skipped_total
        if cut:
            what += f", {cut} unreadable row{'s' if cut > 1 else ''}"
        message = (
            f"a partial {kind}frame ({len(signature.rows)} of {len(other.rows)} rows, {what}) was "
            f"dropped: {whole.frames} complete frame(s) kept"
        )
        skipped = frozenset(row.line for row in part.skipped)
        dropped.append(Dropped(part.first_line, message, first, skipped))
    return dropped


def _where(part: ModelFrames, whole: ModelFrames, headerless: bool) -> str:
    """``first `` or ``last `` where the partial frame sits before or after the model's whole
    frames, else nothing (a frame cut in the middle of the capture)."""
    if headerless or part.first_line < whole.first_line:
        return "first "
    return "last " if part.first_line > whole.last_line else ""


def _others(
    models: Models, key: tuple[Stream, FrameSignature]
) -> Iterator[tuple[FrameSignature, ModelFrames]]:
    """The other table models of ``key``'s stream, in the order they began."""
    for other_key, whole in models.items():
        if other_key[0] == key[0] and other_key[1].kind == "layers" and other_key != key:
            yield other_key[1], whole


def _ends(
    signature: FrameSignature, part: ModelFrames, other: FrameSignature, whole: ModelFrames
) -> bool:
    """``part``'s rows (read without a header) are the last rows of ``whole``'s model, whose
    frames come after them."""
    rows = signature.rows
    return (
        other.family == signature.family
        and not whole.headerless
        and 0 < len(rows) < len(other.rows)
        and other.rows[-len(rows) :] == rows
        and part.first_line < whole.first_line
    )


def _starts(
    signature: FrameSignature, part: ModelFrames, other: FrameSignature, whole: ModelFrames
) -> bool:
    """``part``'s rows are the first rows of ``whole``'s model, wherever the cut frame sits
    (after its frames, between them, or before them: a table the next one's title broke
    off); the last row may be cut after its op type."""
    rows, model = signature.rows, other.rows
    n = len(rows)
    return 0 < n < len(model) and rows[: n - 1] == model[: n - 1] and rows[-1][0] == model[n - 1][0]


def drop_cut_frames(models: Models, line: int) -> list[tuple[int, str]]:
    """Leave out each model's last frame whose total line is ``line``, the input's last line cut
    inside its figure (the rows disagree with it): a partial last frame, not damage (Ctrl-C on
    ``adb logcat | rknnprof analyze -`` while the runtime printed it); the (line, warning) of
    each."""
    found = []
    for model in models.values():
        cut = model.drop_cut_frame(line)
        if cut is None:
            continue
        figure, left_out = cut
        what = "that frame is left out" if left_out else "the table is read without it"
        found.append(
            (
                line,
                "the input ends inside the last frame's total line (its figure "
                f"{part_us(figure)}, no newline after it): a cut line; {what}",
            )
        )
    return found


MAX_DAMAGED_FRAMES = 2
"""A "model" of at most this many frames may be a damaged copy of another."""


def damaged_copies(models: Models) -> list[tuple[int, str]]:
    """Mark each damaged frame's model (module doc) with why (``ModelFrames.damaged``); the
    (line, warning) of each. Frames one row apart from a model of their stream that are too
    many to be damage stay a model of their own, and a warning says so (once a pair)."""
    found = []
    for key, part in models.items():
        signature = key[1]
        if signature.kind != "layers":
            continue
        twins = [
            (whole, change)
            for other, whole in _others(models, key)
            if other.family == signature.family
            and whole.frames >= part.frames
            and (change := _one_change(other, signature)) is not None
        ]
        damage = next(((w, c) for w, c in twins if _damaged_in(part, w)), None)
        if damage is not None:
            whole, change = damage
            part.damaged = (
                f"{part.frames} frame(s) disagree with the {whole.frames} frames of the model at "
                f"line {whole.first_line} around them ({change}): a frame damaged in the log"
            )
            found.append(
                (
                    part.first_line,
                    f"a frame disagrees with the {whole.frames} frames of the model at line "
                    f"{whole.first_line} around it ({change}): read as a damaged frame of its "
                    "own, not another model",
                )
            )
            continue
        if not twins:
            continue
        whole, change = twins[0]
        if (whole.frames, whole.first_line) > (part.frames, part.first_line):  # (once a pair)
            found.append(
                (
                    part.first_line,
                    f"{part.frames} frame(s) of this stream differ from the {whole.frames} of "
                    f"the model at line {whole.first_line} in one row only ({change}): read as "
                    "two models (a row damaged in the log, if one model ran)",
                )
            )
    return found


def _one_change(model: FrameSignature, frames: FrameSignature) -> str | None:
    """How ``frames``' rows differ from ``model``'s by one row: a name or op type changed, a
    row lost or added, or one row placed otherwise (at the same input shapes); else None."""
    change = _one_row_apart(model.rows, frames.rows)
    if change is None and model.rows == frames.rows and model.inputs == frames.inputs:
        change = _placed_apart(model.placements, frames.placements)
    return change


def _damaged_in(part: ModelFrames, whole: ModelFrames) -> bool:
    """``part``'s frames are few, and printed among ``whole``'s many: damage, not a model."""
    return (
        part.frames <= MAX_DAMAGED_FRAMES
        and whole.frames > 2 * part.frames
        and whole.first_line < part.first_line < whole.last_line
    )


def _placed_apart(model: Placements, rows: Placements) -> str | None:
    """How one row of ``rows`` is placed otherwise than ``model``'s (``row 22 reads Target NPU
    for CPU``), or None when no row or several are: a whole build's other data types are
    another model, not damage."""
    apart = [i for i, (a, b) in enumerate(zip(model, rows)) if a != b]
    if len(model) != len(rows) or len(apart) != 1:
        return None
    (dtype, target), (new_dtype, new_target) = model[apart[0]], rows[apart[0]]
    if target != new_target:
        return f"row {apart[0] + 1} reads Target {new_target} for {target}"
    return f"row {apart[0] + 1} reads DataType {new_dtype or 'none'} for {dtype or 'none'}"


def _one_row_apart(model: RowNames, rows: RowNames) -> str | None:
    """How ``rows`` differ from ``model``'s by one row (``row 22 reads 'X' for 'Y'``, ``row 22
    (Conv 'X') missing`` or ``… added``), or None when they differ otherwise."""
    if len(rows) == len(model):
        apart = [i for i, (a, b) in enumerate(zip(model, rows)) if a != b]
        if len(apart) != 1:
            return None
        (op, name), (new_op, new_name) = model[apart[0]], rows[apart[0]]
        if op != new_op:
            return f"row {apart[0] + 1} reads op type {new_op} for {op}"
        said = repr(new_name) if new_name else "no FullName"
        return f"row {apart[0] + 1} reads {said} for {name!r}"
    shorter, longer = (rows, model) if len(rows) < len(model) else (model, rows)
    if len(longer) - len(shorter) != 1:
        return None
    at = next((i for i, (a, b) in enumerate(zip(shorter, longer)) if a != b), len(shorter))
    if shorter[at:] != longer[at + 1 :]:
        return None
    op, name = longer[at]
    what = f"row {at + 1} ({op} {name!r})"
    return f"{what} missing" if longer is model else f"{what} added"
