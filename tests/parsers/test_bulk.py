"""The bulk path for repeated frames (parsers/fastpath/) changes how fast a capture is read,
never what is read: every capture here is read twice, with and without the bulk path, and the
reports must be equal (profiles, warnings, line numbers, lazy layers and stats once built).

The captures are the benchmark's (a 108-layer table per inference, times jittered, as
``adb logcat -v threadtime`` with 5 % noise from another process, or as ``D RKNN: [..]`` lines),
then damaged the ways a real capture is: a row, a total, a ranking value or a name changed in
one frame, lines lost, duplicated, swapped or cut, a second process's table interleaved, a frame
cut by the end of the input, a read boundary inside a frame. The tests also check that the bulk
path does take the frames of a clean capture (else they would pass with it switched off).
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

from rknnprof import api
from rknnprof.inputs.lines import read_lines
from rknnprof.parsers import FrameSkipper, scan
from rknnprof.parsers.events import RankingEvent, TableEvent
from rknnprof.parsers.fastpath import reads as skipping
from rknnprof.parsers.fastpath.frame import BulkFrame
from rknnprof.schema import profile_to_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import generate  # noqa: E402

TITLE = b"Network Layer Information Table"


@pytest.fixture(scope="module")
def logcat(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("bulk") / "capture.log"
    generate.logcat_capture(path, 1.2, layers=108, seed=3)
    return path.read_bytes()


@pytest.fixture(scope="module")
def rknn(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("bulk") / "rknn.log"
    generate.logcat_capture(path, 0.8, layers=40, seed=4, layout="rknn")
    return path.read_bytes()


def _read(data: bytes, bulk: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[object, ...]:
    if bulk:
        monkeypatch.delenv("RKNNPROF_NO_FASTPATH", raising=False)
    else:
        monkeypatch.setenv("RKNNPROF_NO_FASTPATH", "1")
    assembly = api.parse_stream(io.BytesIO(data), "capture.log")
    return (
        [profile_to_dict(p) for p in assembly.profiles],
        assembly.warnings,
        assembly.found,
        assembly.lines,
    )


def _same(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _read(data, True, monkeypatch) == _read(data, False, monkeypatch)


def _claims(data: bytes, stream: io.RawIOBase | None = None) -> int:
    skipper = FrameSkipper()
    seen = 0

    def count(items):  # type: ignore[no-untyped-def]
        nonlocal seen
        for item in items:
            seen += isinstance(item, BulkFrame)
            yield item

    source = io.BytesIO(data) if stream is None else stream
    for _ in scan(count(read_lines(source, None, skipper)), None, skipper):  # type: ignore[arg-type]
        pass
    return seen


def test_clean_captures_are_read_in_bulk_and_equal(
    logcat: bytes, rknn: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    for data in (logcat, rknn):
        frames = data.count(TITLE)
        # the exact path reads the first frames (it learns from them) and the frames with a
        # row shape it has not read yet; the rest are read in bulk
        assert _claims(data) >= frames * 0.6
        _same(data, monkeypatch)


def test_lazy_layers_and_stats_equal_the_exact_ones(rknn: bytes) -> None:
    """The layers and ranking stats of frames read in bulk, once built, equal the exact path's."""

    def events(skipper: FrameSkipper | None) -> list[object]:
        items = read_lines(io.BytesIO(rknn), None, skipper)
        return [e for e in scan(items, None, skipper) if isinstance(e, TableEvent | RankingEvent)]

    bulk, exact = events(FrameSkipper()), events(None)
    assert len(bulk) == len(exact) == 2 * rknn.count(TITLE)
    for got, want in zip(bulk, exact, strict=True):
        if isinstance(got, TableEvent):
            assert tuple(got.layers) == tuple(want.layers)  # type: ignore[attr-defined]
            assert got.row_times == want.row_times  # type: ignore[attr-defined]
        else:
            assert tuple(got.stats) == tuple(want.stats)  # type: ignore[attr-defined]
        assert got == want


def _frame_spans(data: bytes) -> list[int]:
    out, at = [], data.find(TITLE)
    while at >= 0:
        out.append(at)
        at = data.find(TITLE, at + 1)
    return out


def _lines_of_frame(data: bytes, k: int) -> tuple[int, int]:
    """(start, end) byte offsets of the lines of the k-th frame (title to next title)."""
    spans = _frame_spans(data)
    start = data.rfind(b"\n", 0, spans[k]) + 1
    end = data.rfind(b"\n", 0, spans[k + 1]) + 1 if k + 1 < len(spans) else len(data)
    return start, end


def _edit_frame(data: bytes, k: int, edit) -> bytes:  # type: ignore[no-untyped-def]
    start, end = _lines_of_frame(data, k)
    lines = data[start:end].split(b"\n")
    return data[:start] + b"\n".join(edit(lines)) + data[end:]


DAMAGE = {
    "a row's time has a letter": lambda ls: [
        ls[0],
        *[ls[i].replace(b"  1  ", b"  1x ", 1) for i in range(1, len(ls))],
    ],
    "a row lost": lambda ls: ls[:20] + ls[21:],
    "a row twice": lambda ls: ls[:20] + [ls[20]] + ls[20:],
    "two rows swapped": lambda ls: ls[:20] + [ls[21], ls[20]] + ls[22:],
    "the total line's figure": lambda ls: [
        line.replace(b"Time(us): ", b"Time(us): 9") for line in ls
    ],
    "a full name": lambda ls: [line.replace(b"/model.7/", b"/model.8/") for line in ls],
    "a ranking ratio": lambda ls: [
        line.replace(b"%", b"1%", 1)
        if b"Ranking" not in line and b"%" in line and b"NPU " not in line and b"CPU " not in line
        else line
        for line in ls
    ],
    "a ranking CPU time": lambda ls: [
        line.replace(b"Add                1", b"Add                2") for line in ls
    ],
    "a blank line inside": lambda ls: ls[:30] + [ls[30][:44]] + ls[30:],
    "a warning of the same thread inside": lambda ls: (
        ls[:30] + [ls[30][:31] + b"W RKNN    : failed to submit"] + ls[30:]
    ),
    "another message of the same thread inside": lambda ls: (
        ls[:30] + [ls[30][:31] + b"D RKNN    : frame 17 queued"] + ls[30:]
    ),
    "a debugger stop of the same thread inside": lambda ls: (
        ls[:30]
        + [
            ls[30][:31] + b"D RKNN    : " + text
            for text in (b"Thread 1 hit Breakpoint 1, 0x7fb7e4c9a8 in ioctl ()", b"Continuing.")
        ]
        + ls[30:]
    ),
    "another message of the same thread inside the ranking": lambda ls: [
        *ls[: len(ls) - 8],
        ls[30][:31] + b"D RKNN    : rknn_outputs_get: done",
        *ls[len(ls) - 8 :],
    ],
    "a debugger stop of the same thread inside the ranking": lambda ls: [
        *ls[: len(ls) - 8],
        ls[30][:31] + b"D RKNN    : Thread 1 hit Breakpoint 1, 0x7fb7e4c9a8 in ioctl () from x",
        *ls[len(ls) - 8 :],
    ],
    "an escape sequence in a row": lambda ls: ls[:30] + [ls[30] + b"\x1b[0m"] + ls[31:],
    "a non-ASCII name": lambda ls: [line.replace(b"/model.9/", b"/mod\xc3\xa9l.9/") for line in ls],
    "cut in the middle": lambda ls: ls[:60],
    "the stream's pid changes": lambda ls: [
        line.replace(b"  2345  2399 ", b"  2346  2399 ") for line in ls
    ],
    "another input shape": lambda ls: [
        line.replace(b",80,80)  ", b",40,40)  ") if b"InputOperator " in line else line
        for line in ls
    ],
    "another shape inside": lambda ls: [
        line.replace(b",80,80)  ", b",40,40)  ") if b"  Add  " in line else line for line in ls
    ],
}


def _skipper_after(data: bytes) -> FrameSkipper:
    skipper = FrameSkipper()
    for _ in scan(read_lines(io.BytesIO(data), None, skipper), None, skipper):
        pass
    return skipper


def test_processes_of_one_model_learn_their_row_shapes_once(
    interleaved: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The three processes print one model's tables with one prefix layout: a raw row shape one
    of them has been checked with is known to the others (one memo); a process whose lines have
    another level does not share it, and every report is still the exact path's."""
    skipper = _skipper_after(interleaved)
    memos = {id(t.rows_seen) for t in skipper.templates.values()}
    assert len(skipper.templates) == 3 and len(memos) == 1
    lines = interleaved.split(b"\n")
    first = next(line for line in lines if b" D RKNN " in line)
    ids = first[18:31]  # a process's "  pid  tid " (after the 18-byte time stamp)
    relevelled = b"\n".join(
        line[:31] + b"I" + line[32:] if line[18:31] == ids and line[31:32] == b"D" else line
        for line in lines
    )
    assert relevelled != interleaved
    skipper = _skipper_after(relevelled)
    shared = [t for t in skipper.templates.values() if t.lines[0].level == "D"]
    alone = [t for t in skipper.templates.values() if t.lines[0].level == "I"]
    assert len(shared) == 2 and len(alone) == 1
    assert shared[0].rows_seen is shared[1].rows_seen is not alone[0].rows_seen
    _same(relevelled, monkeypatch)


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_a_damaged_frame_among_repeated_ones_reads_as_the_exact_path(
    logcat: bytes, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    frames = len(_frame_spans(logcat))
    for k in (6, frames // 2):  # one early (just after learning) and one in the bulk stretch
        data = _edit_frame(logcat, k, DAMAGE[name])
        _same(data, monkeypatch)


def _at_two_input_shapes(data: bytes) -> bytes:
    """Every frame k with k % 20 >= 12 at another input shape (a dynamic-shape model)."""
    for k in range(len(_frame_spans(data))):
        if k % 20 >= 12:
            data = _edit_frame(data, k, DAMAGE["another input shape"])
    return data


def test_a_dynamic_shape_model_is_a_profile_per_input_shape(
    logcat: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames of one model at two input shapes (runs of 12 frames at 80x80 and 8 at 40x40) are
    two profiles, each of its own frames, with the bulk path on or off."""
    data = _at_two_input_shapes(logcat)
    assert _claims(data) > 0  # the bulk path reads the runs of frames at one shape
    profiles, *_ = _read(data, True, monkeypatch)
    frames = len(_frame_spans(data))
    at_40 = [k for k in range(frames) if k % 20 >= 12]
    shapes = [(p["layers"][0]["output_shapes"], p["frames"]) for p in profiles]
    assert shapes[0][0] == [[1, 32, 80, 80]] and shapes[1][0] == [[1, 32, 40, 40]]
    # every frame in one of them, but the capture's partial last one
    last_cut = not logcat.rstrip().endswith(b"-" * 99)
    assert shapes[1][1] == len(at_40) - (last_cut and frames - 1 in at_40)
    assert shapes[0][1] + shapes[1][1] == frames - last_cut
    _same(data, monkeypatch)


def test_random_damage_reads_as_the_exact_path(
    logcat: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(12)
    lines = logcat.split(b"\n")
    for _ in range(12):
        damaged = list(lines)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(damaged) - 1)
            kind = rng.randrange(5)
            if kind == 0:
                del damaged[i]
            elif kind == 1:
                damaged.insert(i, damaged[i])
            elif kind == 2:
                damaged[i], damaged[i + 1] = damaged[i + 1], damaged[i]
            elif kind == 3 and damaged[i]:
                j = rng.randrange(len(damaged[i]))
                damaged[i] = damaged[i][:j] + bytes([rng.randrange(32, 127)]) + damaged[i][j + 1 :]
            else:
                digits = [j for j, c in enumerate(damaged[i]) if 48 <= c <= 57]
                if digits:
                    j = rng.choice(digits)
                    damaged[i] = damaged[i][:j] + b"7" + damaged[i][j:]
        _same(b"\n".join(damaged), monkeypatch)


def test_a_second_process_interleaved_and_the_end_cut(
    logcat: bytes, rknn: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = logcat.split(b"\n")
    other = [
        b"11-30 10:00:00.000  3333  3334 D RKNN    : " + line.split(b"] ", 1)[-1]
        for line in rknn.split(b"\n")[:4000]
    ]
    mixed = []
    for i, line in enumerate(ours):
        mixed.append(line)
        if i % 3 == 0 and i // 3 < len(other):
            mixed.append(other[i // 3])
    data = b"\n".join(mixed)
    # one stream's frames in bulk (the other's lines inside them are read as usual)
    assert _claims(data) >= logcat.count(TITLE) * 0.6
    _same(data, monkeypatch)
    _same(data[: len(data) * 2 // 3], monkeypatch)  # the last frame cut


@pytest.mark.parametrize("size", [4096, 70_000])
def test_frames_cut_by_read_boundaries(
    logcat: bytes, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reads smaller than a frame: the claim asks for more data and gets it."""
    want = _read(logcat, False, monkeypatch)
    monkeypatch.setattr(skipping, "SKIP_READ_BYTES", size)
    assert _read(logcat, True, monkeypatch) == want


def test_crlf_and_utf16_inputs_are_read_exactly(
    logcat: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    part = logcat[: len(logcat) // 3]
    _same(part.replace(b"\n", b"\r\n"), monkeypatch)
    _same(part.decode().encode("utf-16"), monkeypatch)
    half = len(part) // 2
    _same(part[:half] + part[half:].replace(b"\n", b"\r\n"), monkeypatch)  # CR from mid-way


def _capture_of(table: list[str], frames: int) -> bytes:
    """``frames`` inferences of a real table as ``adb logcat -v threadtime`` lines, frame k
    with k us moved from its slowest row to the next slowest (the total line stays right; each
    frame its own: one equal to an earlier one in every row is a copy, counted once), with a
    line of another process every 40 lines and the C demo's own prints kept."""
    rows = [
        i
        for i, line in enumerate(table)
        if line.split()[:1] and line.split()[0].isdigit() and len(line.split()) > 8
    ]
    times = {i: next(c for c in table[i].split()[6:] if c.isdigit()) for i in rows}
    slowest = sorted(rows, key=lambda i: int(times[i]))[-2:]
    assert int(times[slowest[0]]) >= frames  # (moved from, and stays a time)
    out = []
    for frame in range(frames):
        lines = list(table)
        for i, d in zip(slowest, (-frame, frame)):
            time = times[i]
            new = str(int(time) + d)
            lines[i] = lines[i].replace(f" {time} ", f" {new}{' ' * (len(time) - len(new))} ", 1)
        for i, line in enumerate(lines):
            stamp = f"11-30 10:00:{frame % 60:02d}.{i % 1000:03d}"
            out.append(f"{stamp}  1111  1112 D RKNN    : {line}")
            if i % 40 == 0:
                out.append(f"{stamp}   561   602 I ActivityManager: Start proc 4321:com.x/u0a1")
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize("prefix", ["01_", "07_", "36_"])
def test_real_tables_repeated_are_read_in_bulk_and_equal(
    corpus, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Corpus 01 (a 2.x runtime without the ranking's Total row, the C demo's ``rknn_run``
    between frames), 07 and 36 (2.3.2, with it): 30 frames, all but the first few in bulk."""
    table = corpus(prefix).read_text(encoding="utf-8").splitlines()
    data = _capture_of(table, 30)
    assert _claims(data) >= 25
    _same(data, monkeypatch)
    profiles = _read(data, True, monkeypatch)[0]
    assert [p["frames"] for p in profiles] == [30]  # type: ignore[index]


def test_a_ranking_left_open_passes_over_the_demos_prints(
    corpus, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Corpus 01 without the rule that closes its ranking (no Total row either): the C demo's
    ``rknn_run`` after a frame's ranking is passed over, and the next frame's rule ends the
    ranking without a note; one frame also has a print between two ranking rows, which is
    noted. The same both ways."""
    table = corpus("01_").read_text(encoding="utf-8").splitlines()
    assert table[-1].startswith("-" * 40)
    data = _capture_of(table[:-1], 30)
    at = data.index(b"RKNN    : MaxPool   ", len(data) // 2)
    start = data.rfind(b"\n", 0, at) + 1
    prefix = data[start : at + len(b"RKNN    : ")]
    inside = data[:start] + prefix + b"rknn_outputs_get\n" + data[start:]
    for capture in (data, inside):
        assert _claims(capture) >= 20
        _same(capture, monkeypatch)
    warnings = [w.message for w in _read(inside, True, monkeypatch)[1]]  # type: ignore[union-attr]
    assert sum("other output inside the ranking" in w for w in warnings) == 1
    assert not any("other output" in w.message for w in _read(data, True, monkeypatch)[1])  # type: ignore[union-attr]


def test_a_ranking_total_in_exponent_form_is_read_in_bulk(
    corpus, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """The runtime prints a frame of a second or more's ranking Total with ``%g``
    (``1.18313e+06``): the bulk path declined every such frame (slower than the exact path
    alone). Corpus 07's Total row written so (``1.4478e+04``, its 14,478 us): read in bulk, the
    same report; a Total off by more than its rounding is read exactly, the same report."""
    table = corpus("07_").read_text(encoding="utf-8").splitlines()
    total = next(i for i, line in enumerate(table) if line.startswith("Total  "))
    table[total] = table[total].replace("14370        14478", "1.437e+04    1.4478e+04")
    data = _capture_of(table, 30)
    assert _claims(data) >= 25
    _same(data, monkeypatch)
    table[total] = table[total].replace("1.4478e+04", "1.4481e+04")
    _same(_capture_of(table, 30), monkeypatch)


def test_logcat_long_layout_and_rknn_lines_inside_an_entry(
    logcat: bytes, rknn: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``adb logcat -v long``: a message's stream is in the entry's header, not on its line, so
    nothing is claimed inside an entry; a ``D RKNN:`` table pasted inside one long entry (its
    lines are the entry's) reads as the exact path reads it."""
    import re

    part = logcat[: len(logcat) // 4].decode()
    entry = re.compile(r"^(\S+ \S+) +(\d+) +(\d+) ([A-Z]) (\S+) *: ?(.*)$", re.M)
    long_form = entry.sub(lambda m: f"[ {m[1]} {m[2]}:{m[3]} {m[4]}/{m[5]} ]\n{m[6]}\n", part)
    _same(long_form.encode(), monkeypatch)
    half = rknn[: rknn.rindex(b"\n", 0, len(rknn) // 2) + 1]
    inside = b"[ 11-30 10:00:00.000  4444: 4445 D/RKNN ]\n" + half.replace(b"\n\n", b"\n")
    _same(half + inside + b"\n", monkeypatch)  # the plain lines' frames come first


def test_many_streams_each_with_repeated_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """More streams than the skipper remembers (``MAX_TEMPLATES``), each printing whole frames in
    turn: the oldest are forgotten and read line by line; the report is the exact path's."""
    from rknnprof.parsers.fastpath.skipper import MAX_TEMPLATES

    out = []
    for frame in range(4):
        for stream in range(MAX_TEMPLATES + 6):
            for i, line in enumerate(generate.table(6, seed=frame, jitter=0.2)):
                out.append(
                    f"11-30 10:00:00.{i % 1000:03d}  {1000 + stream}  {2000 + stream} "
                    f"D RKNN    : {line}"
                )
    data = ("\n".join(out) + "\n").encode()
    _same(data, monkeypatch)
    profiles = _read(data, True, monkeypatch)[0]
    assert len(profiles) == MAX_TEMPLATES + 6  # type: ignore[arg-type]
    assert {p["frames"] for p in profiles} == {4}  # type: ignore[index, union-attr]


def test_other_streams_lines_inside_frames_scan_would_pass_over(
    logcat: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines of other processes inside claimed frames are left out of the claim's kept lines
    only when scan would pass over them (``fastpath/others.py``, ``OtherLines``): messages that opened nothing
    before, on a stream with no block open. Between them, lines that do matter: a runtime
    version line (an info event), a table title and rows of a third process (a block open on
    its stream), a squashed-lines note (counted by the reader) and a line of another layout."""
    from rknnprof.parsers.fastpath import others as bulk_others

    lines = logcat.split(b"\n")
    extra = [
        b"11-30 10:00:00.001  4444  4445 I RKNN    : RKNN Runtime Information, "
        b"librknnrt version: 2.3.0 (c949ad889d@2024-11-07T11:35:33)",
        b"11-30 10:00:00.002  5555  5556 D RKNN    : Network Layer Information Table",
        b"11-30 10:00:00.003  5555  5556 D RKNN    : ID   OpType   DataType Target "
        b"InputShape   OutputShape  Cycles(DDR/NPU/Total)  Time(us)  MacUsage(%)  "
        b"WorkLoad(0/1/2)  RW(KB)  FullName",
        b"11-30 10:00:00.004   561   602 I chatty  : uid=1000(system) Binder:561_2 "
        b"identical 7 lines",
        b"11-30 10:00:00.00512  7777  7778 D Other   : a stamp of another shape",
        b"garbage without a prefix",
        # a title opens a block on its stream: the next line of that stream, a message that
        # opened nothing before, goes to the block (it ends it, with a note)
        b"11-30 10:00:00.006  6666  6667 D RKNN    : Network Layer Information Table\n"
        b"11-30 10:00:00.007  6666  6667 W AudioTrack: AUDIO_OUTPUT_FLAG_FAST denied by "
        b"server; frameCount 0",
        # the same, apart: the block may be open on the stream before the frame begins
        b"11-30 10:00:00.008  8888  8889 D RKNN    : Network Layer Information Table",
        b"11-30 10:00:00.009  8888  8889 W AudioTrack: AUDIO_OUTPUT_FLAG_FAST denied by "
        b"server; frameCount 0",
    ]
    mixed = []
    rng = random.Random(7)
    for line in lines:
        mixed.append(line)
        if line.startswith(b"11-30") and rng.random() < 0.03:
            mixed.append(rng.choice(extra))
    data = b"\n".join(mixed)
    passed_over = 0
    heard = bulk_others.OtherLines.hand_back

    def counting(self, t, raws, numbers):  # type: ignore[no-untyped-def]
        nonlocal passed_over
        out = heard(self, t, raws, numbers)
        passed_over += len(raws) - len(out or raws)
        return out

    monkeypatch.setattr(bulk_others.OtherLines, "hand_back", counting)
    _same(data, monkeypatch)
    assert passed_over > 50  # the benchmark's noise, mostly


def test_the_readers_counts_are_the_exact_paths(logcat: bytes) -> None:
    """What the reader counts besides the lines (squashed-lines notes and their first
    examples, line totals, the layout) is the same when the skipper hands lines back to it."""
    from dataclasses import asdict

    from rknnprof.inputs.records import ReadStats

    def stats_of(data: bytes, bulk: bool) -> dict[str, object]:
        stats = ReadStats()
        skipper = FrameSkipper() if bulk else None
        for _ in scan(read_lines(io.BytesIO(data), stats, skipper), None, skipper):
            pass
        return asdict(stats)

    # chatty notes inside most frames, more of them than the examples kept
    lines = logcat.split(b"\n")
    note = b"11-30 10:00:00.004   561   602 I chatty  : uid=1000(system) Binder:561_2 identical "
    data = b"\n".join(
        line + (b"\n" + note + str(i).encode() + b" lines" if i % 20 == 7 else b"")
        for i, line in enumerate(lines)
    )
    exact = stats_of(data, False)
    assert exact["chatty_count"] > 150 and len(exact["chatty"]) == 100  # type: ignore[arg-type]
    assert stats_of(data, True) == exact
    assert _claims(data) > data.count(TITLE) // 2


def test_ratios_are_checked_as_on_the_rounded_shares() -> None:
    """``ratios_fit`` skips the rounding of the shares unless a frame is within the rounding's
    reach of the tolerance: its answer is always the one computed on the rounded shares."""
    from operator import mul, sub, truediv

    from rknnprof.parsers.fastpath.ranking import MARGIN, ratios_fit

    def on_shares(ratios: list[float], times: list[float], denominator: float) -> bool:
        shares = [round(r / 100, 6) for r in ratios]
        return (
            max(abs(mul(100, s) - truediv(mul(100, t), denominator)) for s, t in zip(shares, times))
            <= 0.05 - MARGIN
        )

    rng = random.Random(5)
    near = 0
    for _ in range(20000):
        times = [float(rng.randint(0, 20000)) for _ in range(rng.randint(1, 9))]
        denominator = sum(times) or 1.0
        # ratios printed with 1 to 4 decimals, pushed to about the tolerance on one row
        ratios = [round(100 * t / denominator, rng.randint(1, 4)) for t in times]
        k = rng.randrange(len(ratios))
        ratios[k] = round(
            100 * times[k] / denominator + rng.uniform(-0.0502, 0.0502), rng.randint(1, 6)
        )
        want = on_shares(ratios, times, denominator)
        near += (
            abs(max(map(abs, map(sub, ratios, (100 * t / denominator for t in times)))) - 0.05)
            < 5e-5
        )
        assert ratios_fit(ratios, times, denominator) is want, (ratios, times)
    assert near > 10  # the narrow band where the rounding decides was met


@pytest.fixture(scope="module")
def interleaved(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("bulk") / "three.log"
    generate.interleaved_capture(path, 2.5, layers=108, seed=5, streams=3)
    return path.read_bytes()


def test_three_processes_interleaved_are_read_in_bulk_stream_by_stream(
    interleaved: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three processes print the same model's tables at once (one context per NPU core), their
    lines interleaved in bursts: every stream's frames are read in bulk (``fastpath/streams.py``), not
    one stream's with the others' lines read inside them; the report is the exact path's."""
    frames = interleaved.count(TITLE)
    assert _claims(interleaved) >= frames * 0.65  # (the first windows learn the streams)
    _same(interleaved, monkeypatch)
    profiles = _read(interleaved, True, monkeypatch)[0]
    assert len(profiles) == 3  # type: ignore[arg-type]
    whole = interleaved.count(b"RKNN    : Total" + b" " * 14)  # the ranking's Total rows
    assert whole >= frames - 3  # (the capture ends inside each process's last frame)
    assert sum(p["frames"] for p in profiles) == whole  # type: ignore[index, union-attr]


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_a_damaged_frame_of_one_of_three_processes_reads_as_the_exact_path(
    interleaved: bytes, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The damage above, in a frame of the second process only (its lines picked out of the
    interleaving, edited, put back in their places)."""
    ids = b"  2410  2452 "
    lines = interleaved.split(b"\n")
    titles = [i for i, line in enumerate(lines) if ids in line and TITLE in line]
    for k in (5, len(titles) // 2):
        at = [i for i in range(titles[k], titles[k + 1]) if ids in lines[i]]
        frame = [lines[i] for i in at]
        edited = DAMAGE[name]([line.replace(ids, b"  2345  2399 ") for line in frame])
        edited = [line.replace(b"  2345  2399 ", ids) for line in edited]
        out = list(lines)
        for i in reversed(at):
            del out[i]
        place = at[0]
        for j, line in enumerate(edited):  # back among the others' lines, in order
            out.insert(min(place + 3 * j, len(out)), line)
        _same(b"\n".join(out), monkeypatch)


def test_three_processes_with_random_damage_and_small_reads(
    interleaved: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(21)
    lines = interleaved.split(b"\n")
    for _ in range(6):
        damaged = list(lines)
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(damaged) - 1)
            kind = rng.randrange(3)
            if kind == 0:
                del damaged[i]
            elif kind == 1:
                damaged.insert(i, damaged[i])
            else:
                damaged[i], damaged[i + 1] = damaged[i + 1], damaged[i]
        _same(b"\n".join(damaged), monkeypatch)
    want = _read(interleaved, False, monkeypatch)
    monkeypatch.setattr(skipping, "SKIP_READ_BYTES", 70_000)
    assert _read(interleaved, True, monkeypatch) == want
    _same(interleaved[: len(interleaved) // 2], monkeypatch)  # cut inside frames


class _ByteArrayReads(io.RawIOBase):
    """A library user's stream whose reads return ``bytearray`` (``read1``, as buffered files)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytearray:
        size = len(self.data) if size < 0 else size
        out = bytearray(self.data[self.at : self.at + size])
        self.at += len(out)
        return out


def test_reads_that_return_bytearray_are_read_as_bytes(
    interleaved: bytes, logcat: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reads' buffer is bytes whatever the stream's reads return (a window's or a frame's
    lines are looked up by value), on one stream and on three: the frames are read in bulk as
    from a file, and the report is the same."""
    for data in (logcat, interleaved):
        assert _claims(data, _ByteArrayReads(data)) == _claims(data) > 0
        want = _read(data, False, monkeypatch)
        monkeypatch.delenv("RKNNPROF_NO_FASTPATH", raising=False)
        assembly = api.parse_stream(_ByteArrayReads(data), "capture.log")  # type: ignore[arg-type]
        got = (
            [profile_to_dict(p) for p in assembly.profiles],
            assembly.warnings,
            assembly.found,
            assembly.lines,
        )
        assert got == want
        assert len(assembly.profiles) == (1 if data is logcat else 3)


@pytest.mark.parametrize(("value", "on"), [(None, True), ("", True), ("0", True), ("1", False)])
def test_the_environment_switch(
    interleaved: bytes, value: str | None, on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``RKNNPROF_NO_FASTPATH=1`` turns the bulk path off (the documented switch): no frame is
    claimed, and the report is the same."""
    from rknnprof.parsers.fastpath import skipper as bulk

    claims = 0
    real = bulk.FrameSkipper.claim

    def counting(self, *args):  # type: ignore[no-untyped-def]
        nonlocal claims
        claims += 1
        return real(self, *args)

    monkeypatch.setattr(bulk.FrameSkipper, "claim", counting)
    if value is None:
        monkeypatch.delenv("RKNNPROF_NO_FASTPATH", raising=False)
    else:
        monkeypatch.setenv("RKNNPROF_NO_FASTPATH", value)
    assembly = api.parse_stream(io.BytesIO(interleaved), "three.log")
    assert (claims > 0) is on
    assert sum(p.frames for p in assembly.profiles) > 50


def _inputs() -> list[Path]:
    from tests.conftest import CORPUS, SAMPLES

    found = sorted(CORPUS.glob("[0-9][0-9]_*")) if CORPUS.is_dir() else []
    return found + sorted(SAMPLES.glob("*.txt"))


@pytest.mark.parametrize("path", _inputs(), ids=lambda p: p.name[:24])
def test_every_corpus_and_sample_log_reads_the_same_both_ways(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The JSON report of every corpus log (when ``RKNNPROF_CORPUS`` is there) and sample log is
    the same, byte for byte, with the fast path on and off."""
    from rknnprof.api import analyze
    from rknnprof.errors import NoProfileDataError
    from rknnprof.reporters import RenderOptions, get_reporter

    def json_of(fast: bool) -> str:
        if fast:
            monkeypatch.delenv("RKNNPROF_NO_FASTPATH", raising=False)
        else:
            monkeypatch.setenv("RKNNPROF_NO_FASTPATH", "1")
        try:
            report = analyze(path)
        except NoProfileDataError as e:
            return f"no data: {e}"
        out = io.StringIO()
        get_reporter("json").render(report, out, RenderOptions())
        return out.getvalue()

    assert json_of(True) == json_of(False)
