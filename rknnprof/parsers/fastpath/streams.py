"""Many streams at once, for the bulk path (:mod:`rknnprof.parsers.fastpath.skipper`): several
processes (one context per NPU core) printing the same model's tables at the same time, their
lines interleaved by logcat.

When several logcat streams have templates, a claim reads a *window* of the data (about
:data:`WINDOW_BYTES`), not one frame: every
frame of a stream with a template whose title is in the window is read in bulk, the stream's
lines picked by their ``pid tid`` as for one stream, and each frame is checked exactly as a
frame of one stream is (:func:`~rknnprof.parsers.fastpath.skipper.frame_of`). A frame may end past
the window: its lines there are taken too and remembered (:class:`Window`), and the next claim,
made at the window's end, leaves them out. The lines of the window no frame took are handed
back to the reader (except those scan would pass over, as for one stream), and the reader
yields frames and lines in line order, so each stream sees its own lines in order. Whether a
frame fits the state of its stream (the block open on it, the table it takes over) is checked
when scan reaches it (:meth:`~rknnprof.parsers.fastpath.skipper.FrameSkipper.checked`); a frame that
does not fit is read line by line there. So no stream waits for another, and a frame one
stream cannot read in bulk costs that stream only.

A window is read in bulk only when the templates place ``pid tid`` alike after a time stamp of
one shape, and every line it hands back of a stream without a template is a threadtime line of
that stamp shape, no longer than the reader keeps, that does not read as a line of a stream
with a template (the frames' own lines pass the frame's checks, which refuse anything else).
Else the window is declined (read line by line), unless lines of an earlier window's frames
lie in it: then it hands back all the other lines up to them. A stream's next title is looked
for right after its last frame (frames follow each other), then line by line.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO
from itertools import compress, repeat
from operator import getitem, is_
from typing import TYPE_CHECKING, Protocol

from rknnprof.inputs.claims import NEED_MORE, Claimed
from rknnprof.inputs.lines import MAX_LINE_CHARS
from rknnprof.parsers.fastpath.frame import BulkFrame, frame_of
from rknnprof.parsers.fastpath.template import SHAPE, learn_prefix

if TYPE_CHECKING:
    from rknnprof.inputs.claims import ReadLine
    from rknnprof.parsers.events import Stream
    from rknnprof.parsers.fastpath.others import OtherLines
    from rknnprof.parsers.fastpath.scan_state import ScanState
    from rknnprof.parsers.fastpath.template import Template


class Skipper(Protocol):
    """What a window reads of the skipper
    (:class:`~rknnprof.parsers.fastpath.skipper.FrameSkipper`)."""

    templates: dict[Stream, Template]
    state: ScanState
    others: OtherLines
    scratch: ReadLine
    window: Window
    shapes: dict[object, Template]

    def ascii_buffer(self, data: bytes) -> bool: ...


WINDOW_BYTES = 512 << 10
"""Titles looked for in a window: the frames starting in this much data."""
MAX_SHARED = 64
"""Kinds of streams whose learnt raw shapes are shared, remembered at once."""
SPAN_BYTES = 128 << 10
"""Data read past a window for the ends of its frames (a frame ending later is not read in
bulk: its lines are handed back)."""


class Window:
    """What the last window's frames took past its end, per stream: the line numbers, which are
    the first lines of the stream in the next window (a frame's lines are consecutive lines of
    its stream)."""

    def __init__(self) -> None:
        self.ahead: dict[Stream, list[int]] = {}
        self.cool_until = 0
        """Line number before which a window found no frame: titles there are declined."""
        self.shared: list[Template] = []
        """The templates whose raw shapes were last shared (:func:`_share_shapes`)."""


def window_claim(
    skipper: Skipper, data: bytes, start: int, number: int, final: bool
) -> Claimed | str | None:
    """Claim the window at ``start`` (a line start, line ``number``) for every stream with a
    template (see the module doc)."""
    window, read_line = skipper.window, skipper.scratch
    ahead = window.ahead
    if not ahead and number < window.cool_until:
        return None
    limit = start + WINDOW_BYTES + SPAN_BYTES
    if limit > len(data) and not final:
        return NEED_MORE
    cut = data.rfind(b"\n", start, limit) + 1
    if cut <= start:
        return None if not ahead else NEED_MORE  # (ahead: lines within the data, never here)
    # titles only in the window; the rest (past w_cut) for the ends of its frames
    w_cut = (
        data.rfind(b"\n", start, start + WINDOW_BYTES) + 1 if cut - start > WINDOW_BYTES else cut
    )
    if w_cut <= start:
        w_cut = cut
    reader = BytesIO(data)  # (shares ``data``): its lines, newlines kept
    reader.seek(start)
    lines = reader.readlines(w_cut - start)
    window_lines = len(lines)
    if w_cut < cut:
        lines += reader.readlines(cut - w_cut)
    ascii_only = skipper.ascii_buffer(data)
    last_ahead = max((max(v) for v in ahead.values()), default=number - 1) - number + 1
    templates = [t for t in skipper.templates.values() if t.stream is not None]
    learnt = [t for t in templates if t.prefix >= 0 and t.ids is not None]
    if len(learnt) < len(templates):
        _learn_prefixes(templates, data, start, cut, read_line, number)
        learnt = [t for t in templates if t.prefix >= 0 and t.ids is not None]
    found = None
    if learnt and _alike(learnt):
        if len(learnt) != len(window.shared) or not all(map(is_, learnt, window.shared)):
            _share_shapes(skipper.shapes, learnt)  # (the same templates: shared already)
            window.shared = learnt
        found = _read(skipper, learnt, ahead, lines, number, window_lines, ascii_only)
    if found is None:
        if not ahead:
            window.cool_until = number + window_lines
            return None
        end_line = last_ahead
        taken = {line - number for numbers in ahead.values() for line in numbers}
        kept = tuple((number + i, lines[i][:-1]) for i in range(end_line) if i not in taken)
        window.ahead = {}
        frames: tuple[BulkFrame, ...] = ()
    else:
        frames, kept, window.ahead = found
        return Claimed(w_cut, window_lines, frames, kept)
    end = start + sum(map(len, lines[:end_line]))
    return Claimed(end, end_line, frames, kept)


def _share_shapes(shapes: dict[object, Template], learnt: list[Template]) -> None:
    """Streams whose frames read alike learn their raw shapes once: the templates of one model
    (the same rows, table header and ranking columns) printed with one prefix (length, shape,
    ``pid tid`` place, level and tag) share what they learnt of raw shapes. A raw shape's reading
    depends only on these and on the ``pid tid``, which each frame checks on every line."""
    for t in learnt:
        first = t.lines[0]
        key = (
            t.prefix,
            t.prefix_shape,
            t.ids.start,  # type: ignore[union-attr]  # learnt: ids known
            first.level,
            first.tag,
            t.carried.columns,
            t.carried.prefix_len,
            t.carried.names,
            t.columns,
        )
        if key not in shapes and len(shapes) >= MAX_SHARED:
            shapes.clear()
        owner = shapes.setdefault(key, t)
        if owner is not t and t.rows_seen is not owner.rows_seen:
            t.rows_seen, t.ranks_seen = owner.rows_seen, owner.ranks_seen
            t.names = owner.names


def _alike(learnt: list[Template]) -> bool:
    """The templates' streams place ``pid tid`` alike, after a stamp of one shape."""
    ids = learnt[0].ids
    stamp = learnt[0].prefix_shape[: ids.start]  # type: ignore[union-attr]  # learnt: ids known
    return all(t.ids == ids and t.prefix_shape[: ids.start] == stamp for t in learnt)  # type: ignore[union-attr]


def _read(
    skipper: Skipper,
    learnt: list[Template],
    ahead: dict[Stream, list[int]],
    lines: list[bytes],
    number: int,
    window_lines: int,
    ascii_only: bool,
) -> tuple[tuple[BulkFrame, ...], tuple[tuple[int, bytes], ...], dict[Stream, list[int]]] | None:
    """The window's frames, the lines it hands back, and its lines past the window's end,
    or None when it is not read in bulk."""
    first = learnt[0]
    ids = first.ids
    assert ids is not None
    n = len(lines)
    # each line's stream as one byte (k: the k-th template's "pid tid", 0: any other), so a
    # stream's lines are found by one translate of these bytes, in C
    code = {t.ids_text: k for k, t in enumerate(learnt, 1)}
    if len(code) != len(learnt) or len(learnt) >= 256:
        return None
    ids_of: Iterator[bytes] = map(getitem, lines, repeat(ids))  # type: ignore[arg-type]  # slices
    streams_of = bytes(map(code.get, ids_of, repeat(0)))
    if not {t.stream for t in learnt}.issuperset(ahead):
        return None  # (a stream's template was replaced: its lines past the last window)
    positions = list(range(n))  # (compressed once per stream: its ints are made once)
    frames: list[BulkFrame] = []
    leftover: list[int] = []  # lines of the streams with templates that no frame took
    new_ahead: dict[Stream, list[int]] = {}
    for k, t in enumerate(learnt, 1):
        if k not in streams_of:  # (C) no line of the stream here
            if ahead.get(t.stream):
                return None
            continue
        index = list(compress(positions, streams_of.translate(_only(k))))
        before = ahead.get(t.stream)
        if before:  # the last window's frame of this stream took its first lines here
            if list(map(number.__add__, index[: len(before)])) != before:
                return None
            index = index[len(before) :]
        slots = len(t.lines)
        size, title = t.prefix + len(t.title_raw), t.title_raw
        done = 0  # index[:done] is read (in frames or left over)
        k = 0  # where the next title of the stream may be: right after its last frame, usually
        while k + slots <= len(index) and index[k] < window_lines:
            line = lines[index[k]]
            if len(line) != size or not line.endswith(title):
                k = _next_title(lines, index, k + 1, size, title, window_lines)
                continue
            part_index = index[k : k + slots]
            part = list(map(lines.__getitem__, part_index))
            frame = None
            if ascii_only or all(map(bytes.isascii, part)):
                try:
                    frame = frame_of(t, part, number, part_index, skipper.scratch)
                except Exception:  # noqa: BLE001 - a frame the bulk path cannot read is read line by line
                    frame = None
            if frame is None:
                k += 1
                continue
            frames.append(frame)
            leftover += index[done:k]
            k = done = k + slots
            if part_index[-1] >= window_lines:
                new_ahead[t.stream] = [number + i for i in part_index if i >= window_lines]
        leftover += index[done:]
    if not frames:
        return None
    frames.sort(key=_number)
    noise = list(compress(positions[:window_lines], streams_of.translate(_only(0))))
    kept = _kept(skipper, learnt, lines, noise, number, ids.start)
    if kept is None:
        return None
    leftover = [i for i in leftover if i < window_lines]
    if leftover:
        kept = sorted(kept + [(number + i, lines[i][:-1]) for i in leftover])
    return tuple(frames), tuple(kept), new_ahead


def _only(k: int) -> bytes:
    """The translation that leaves 1 for the byte ``k`` and 0 for any other."""
    return bytes(k) + b"\1" + bytes(255 - k)


def _next_title(
    lines: list[bytes], index: list[int], k: int, size: int, title: bytes, window_lines: int
) -> int:
    """The first ``j >= k`` where ``lines[index[j]]`` is a title line (``size`` bytes, ending
    in ``title``) within the window, else ``len(index)``."""
    for j in range(k, len(index)):
        i = index[j]
        if i >= window_lines:
            break
        line = lines[i]
        if len(line) == size and line.endswith(title):
            return j
    return len(index)


def _number(frame: BulkFrame) -> int:
    return frame.number


def _learn_prefixes(
    templates: list[Template], data: bytes, start: int, cut: int, read_line: ReadLine, number: int
) -> None:
    """The prefix of each template not learnt yet, from a title line of its stream here."""
    wanted = {t.stream: t for t in templates if t.prefix < 0 or t.ids is None}
    anchor = templates[0].anchor
    at = data.find(anchor, start, cut)
    while at >= 0 and wanted:
        begin = data.rfind(b"\n", start, at) + 1 or start
        stop = data.find(b"\n", at, cut) + 1
        raw = data[begin:stop]
        line = read_line(raw, number)
        t = wanted.get(line.stream) if line is not None else None
        if t is not None and line is not None and line.text == t.lines[0].text:
            if learn_prefix(t, raw, t.lines[0]) and t.ids is not None:
                del wanted[t.stream]
            else:
                t.prefix = -1
        at = data.find(anchor, stop, cut)


def _kept(
    skipper: Skipper,
    learnt: list[Template],
    lines: list[bytes],
    noise: list[int],
    number: int,
    cut: int,
) -> list[tuple[int, bytes]] | None:
    """The lines of streams without a template (``noise``: their indices) that the reader must
    read: all but those scan would pass over (``others``). None when one of them is not a
    threadtime line of the templates' stamp shape, or is a line of a stream with a template
    whose ``pid tid`` is not where its frames' are."""
    streams: set[Stream] = {t.stream for t in learnt}
    stamp = learnt[0].prefix_shape[:cut]
    state = skipper.state
    readings = skipper.others.readings
    read_line = skipper.scratch
    heard: set[Stream] = set()
    out: list[tuple[int, bytes]] = []
    for i in noise:
        raw = lines[i]
        if raw[:cut].translate(SHAPE) != stamp or len(raw) > MAX_LINE_CHARS + 1:  # (newline)
            return None
        rest = raw[cut:]
        if rest in readings:
            reading = readings[rest]
        else:
            if len(readings) >= 4096:
                readings.clear()
            line = read_line(raw, number + i)
            reading = readings[rest] = (
                None if line is None else (line.stream, (line.text, line.level, line.tag))
            )
        if reading is not None:
            stream, seen = reading
            if stream in streams:
                return None
            if (
                stream not in heard
                and stream not in state.open_blocks
                and stream not in state.recording
                and seen in state.opened_nothing
            ):
                continue  # scan would pass over it
            heard.add(stream)
        out.append((number + i, raw[:-1]))
    return out
