"""lines.py: bytes in, clean message lines out. Expected values come from the layouts in
ECOSYSTEM.md 1.2 / 2.1 and from reading the corpus files."""

from __future__ import annotations

import io
import os
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rknnprof.errors import InputError
from rknnprof.inputs.lines import MAX_LINE_CHARS, Line, ReadStats, open_input, read_lines
from tests.conftest import corpus_file


def lines_of(data: bytes, stats: ReadStats | None = None) -> list[Line]:
    return list(read_lines(io.BytesIO(data), stats))


def one(data: bytes) -> Line:
    (line,) = lines_of(data)
    return line


class Trickle:
    """A stream that returns at most ``size`` bytes per read (a slow pipe)."""

    def __init__(self, data: bytes, size: int) -> None:
        self.data, self.size, self.pos = data, size, 0

    def read(self, n: int = -1) -> bytes:
        chunk = self.data[self.pos : self.pos + min(n, self.size)]
        self.pos += len(chunk)
        return chunk


# --- every adb logcat -v layout (ECOSYSTEM 1.2), pid 1234, tid 1250, tag RKNN -----------------
LOGCAT_LAYOUTS = [
    ("threadtime", b"03-05 10:31:02.123  1234  1250 I RKNN    : first line", (1234, 1250), "RKNN"),
    (
        "threadtime,year,usec",
        b"2024-03-05 10:31:02.123456  1234  1250 I RKNN    : first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime,nsec",
        b"03-05 10:31:02.123456789  1234  1250 I RKNN    : first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime,epoch",
        b"         1709634662.123  1234  1250 I RKNN    : first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime,monotonic",
        b"  5321.123  1234  1250 I RKNN    : first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime,uid numeric",
        b"03-05 10:31:02.123 10057  1234  1250 I RKNN    : first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime,uid name",
        b"03-05 10:31:02.123  root  1234  1250 I RKNN    : first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime,zone",
        b"03-05 10:31:02.123 +0800  1234  1250 I RKNN    : first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime,color",
        b"\x1b[32m03-05 10:31:02.123  1234  1250 I RKNN    : first line\x1b[0m",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime collapsed blanks",
        b"03-05 10:31:02.123 1234 1250 I RKNN : first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "threadtime 7-digit ids",
        b"03-05 10:31:02.123 1234567 1234599 I RKNN    : first line",
        (1234567, 1234599),
        "RKNN",
    ),
    (
        "threadtime tag with space",
        b"03-05 10:31:02.123  1234  1250 I My Tag  : first line",
        (1234, 1250),
        "My Tag",
    ),
    (
        "threadtime long tag",
        b"03-05 10:31:02.123  1234  1250 I ActivityManagerService: first line",
        (1234, 1250),
        "ActivityManagerService",
    ),
    ("brief", b"I/RKNN    ( 1234): first line", (1234, 0), "RKNN"),
    ("brief,uid", b"I/RKNN    ( root: 1234): first line", (1234, 0), "RKNN"),
    ("time", b"03-05 10:31:02.123 I/RKNN    ( 1234): first line", (1234, 0), "RKNN"),
    (
        "time,year,usec",
        b"2024-03-05 10:31:02.123456 I/RKNN    ( 1234): first line",
        (1234, 0),
        "RKNN",
    ),
    ("process", b"I( 1234) first line  (RKNN)", (1234, 0), "RKNN"),
    ("tag", b"I/RKNN    : first line", None, "RKNN"),
    ("thread", b"I( 1234: 1250) first line", (1234, 1250), None),
    (
        "android studio",
        b"2046-04-13 17:30:44.316  1234-1250  RKNN  com.rockchip.demo  I  first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "android studio, older window",
        b"2022-07-06 15:37:03.100 1234-1250/com.rockchip.demo I/RKNN: first line",
        (1234, 1250),
        "RKNN",
    ),
    (
        "android studio, older window, no package",  # rknn-toolkit2 issue 44's paste
        b"2022-07-06 15:37:03.100 1234-1250 I/RKNN: first line",
        (1234, 1250),
        "RKNN",
    ),
]


@pytest.mark.parametrize(
    ("name", "raw", "stream", "tag"), LOGCAT_LAYOUTS, ids=[case[0] for case in LOGCAT_LAYOUTS]
)
def test_logcat_layouts_strip_prefix_and_keep_pid_tid(name, raw, stream, tag) -> None:
    assert one(raw + b"\n") == Line(1, "first line", stream, "I", tag)


def test_raw_layout_passes_through() -> None:
    assert one(b"first line\n") == Line(1, "first line")


def test_stats_name_the_first_logcat_layout() -> None:
    stats = ReadStats()
    lines_of(b"I/RKNN    ( 1234): a\nI/RKNN    ( 1234): b\n", stats)
    assert stats.logcat_format == "brief"
    assert stats.lines == 2


def test_message_keeps_its_own_leading_spaces_and_an_empty_message_is_empty() -> None:
    data = (
        b"03-05 10:31:02.123  1234  1250 D RKNN    :    ID   OpType\n"
        b"03-05 10:31:02.123  1234  1250 D RKNN    : \n"
    )
    assert [line.text for line in lines_of(data)] == ["   ID   OpType", ""]


def test_long_layout_header_gives_stream_to_the_message_lines() -> None:
    data = (
        b"--------- beginning of main\n"
        b"[ 03-05 10:31:02.123  1234: 1250 I/RKNN     ]\nfirst line\nsecond line\n\n"
        b"[ 03-05 10:31:02.124  1234: 1251 W/RKNN     ]\nthird\n\n"
    )
    stats = ReadStats()
    assert lines_of(data, stats) == [
        Line(3, "first line", (1234, 1250), "I", "RKNN"),
        Line(4, "second line", (1234, 1250), "I", "RKNN"),
        Line(7, "third", (1234, 1251), "W", "RKNN"),
    ]
    assert stats.logcat_format == "long"
    assert stats.dividers == 1


def test_interleaved_threads_keep_their_streams() -> None:
    data = (
        b"06-28 09:30:04.462 26854 26854 D RKNN    : row a\n"
        b"06-28 09:30:04.462 26854 26860 D RKNN    : row b\n"
        b"06-28 09:30:04.463 26854 26854 D RKNN    : row c\n"
    )
    assert [(line.stream, line.text) for line in lines_of(data)] == [
        ((26854, 26854), "row a"),
        ((26854, 26860), "row b"),
        ((26854, 26854), "row c"),
    ]


def test_runtime_stamp_repeated_inside_logcat_is_stripped() -> None:
    data = (
        b"03-05 10:31:02.123  1234  1250 D RKNN    : [05:07:06.566] ID   OpType\n"
        b"03-05 10:31:02.123  1234  1250 I RKNN    : D RKNN: [05:07:06.566] nested\n"
    )
    assert lines_of(data) == [
        Line(1, "ID   OpType", (1234, 1250), "D", "RKNN"),
        Line(2, "nested", (1234, 1250), "D", "RKNN"),
    ]


def test_dividers_and_chatty_are_dropped_but_counted_and_dash_rules_pass() -> None:
    rule = b"-" * 120
    data = (
        b"--------- beginning of main\n"
        b"03-05 10:31:02.123  1234  1250 D RKNN    : " + rule + b"\n"
        b"--------- switch to system\n"
        b"03-05 10:31:02.123  1234  1250 I chatty  : uid=1000(system) rknn_demo identical 12 lines\n"
        + rule
        + b"\n"
        b"--------- not a divider\n"
    )
    stats = ReadStats()
    got = lines_of(data, stats)
    assert [(line.number, line.text) for line in got] == [
        (2, "-" * 120),
        (5, "-" * 120),
        (6, "--------- not a divider"),
    ]
    assert stats.dividers == 2
    assert stats.chatty_count == 1
    assert stats.chatty == [(4, "uid=1000(system) rknn_demo identical 12 lines")]


# --- runtime and toolkit prefixes (FORMATS 4, ECOSYSTEM 2.1) -----------------------------------
@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"D RKNN: [05:07:06.566] ID   OpType", Line(1, "ID   OpType", None, "D", "RKNN")),
        (
            b"E RKNN: [02:27:31.133] Invalid RKNN model version 6",
            Line(1, "Invalid RKNN model version 6", None, "E", "RKNN"),
        ),
        (b"D RKNN: [05:07:06.566]", Line(1, "", None, "D", "RKNN")),
        (
            b"W RKNNAPI: IOCTL_CMD_PERF_RUN fail, ack=0",
            Line(1, "IOCTL_CMD_PERF_RUN fail, ack=0", None, "W", "RKNNAPI"),
        ),
        (
            b"D NPUTransfer(81617): Transfer client closed, fd = 3",
            Line(1, "Transfer client closed, fd = 3", None, "D", "NPUTransfer"),
        ),
        (
            b"E eval_perf: Performance information is empty, some mistakes may happened.",
            Line(
                1,
                "Performance information is empty, some mistakes may happened.",
                None,
                "E",
                "eval_perf",
            ),
        ),
        (
            b"W init_runtime: Target is None, use simulator!",
            Line(1, "Target is None, use simulator!", None, "W", "init_runtime"),
        ),
        # words after a level letter are a message, not a prefix: untouched
        (b"W rknn-toolkit-lite2 version: 2.1.0", Line(1, "W rknn-toolkit-lite2 version: 2.1.0")),
        (b"D target set by user is: None", Line(1, "D target set by user is: None")),
        (
            b"I ===================== WARN(0) =====================",
            Line(1, "I ===================== WARN(0) ====================="),
        ),
        # pasted prefixes and markdown indentation are the table parsers' business
        (b" |  D RKNN: [05:07:06.566] ID", Line(1, " |  D RKNN: [05:07:06.566] ID")),
        (b"---> 1    InputOperator", Line(1, "---> 1    InputOperator")),
        (b"    1    InputOperator    UINT8", Line(1, "    1    InputOperator    UINT8")),
    ],
)
def test_runtime_and_toolkit_prefixes(raw: bytes, expected: Line) -> None:
    assert one(raw + b"\n") == expected


# --- the corpus -------------------------------------------------------------------------------
def test_corpus_39_logcat_threadtime() -> None:
    got = list(read_lines(corpus_file("39_").open("rb")))
    assert got == [
        Line(
            1,
            "The rknn model does not match the RKNPU hardware version!",
            (26854, 26854),
            "E",
            "RKNN",
        ),
        Line(2, "rknn_init, load model failed!", (26854, 26854), "E", "RKNN"),
    ]


def test_corpus_16_runtime_table_behind_d_rknn() -> None:
    got = list(read_lines(corpus_file("16_").open("rb")))
    assert len(got) == 6  # six lines in the file, every one behind "D RKNN: [05:07:06.566] "
    assert {(line.level, line.tag, line.stream) for line in got} == {("D", "RKNN", None)}
    assert got[0].text.startswith("-----") and set(got[0].text) == {"-"}
    assert got[1].text.strip() == "Network Layer Information Table"
    assert got[3].text.startswith("ID   OpType             DataType Target InputShape")
    assert got[5].text.startswith("1    InputOperator      FLOAT16  CPU    \\")


def test_corpus_14_build_table_behind_d_rknn() -> None:
    got = list(read_lines(corpus_file("14_").open("rb")))
    assert [line.text.split()[:2] for line in got] == [
        ["12", "ConvRelu"],
        ["13", "ConvRelu"],
        ["14", "ConvReluAdd"],
        ["15", "ConvRelu"],
        ["16", "ConvReluAdd"],
        ["17", "Concat"],
        ["18", "ConvRelu"],
    ]
    assert all(line.tag == "RKNN" and line.level == "D" for line in got)


def test_corpus_24_runtime_info_lines() -> None:
    got = list(read_lines(corpus_file("24_").open("rb")))
    assert got[0] == Line(1, "W rknn-toolkit-lite2 version: 2.1.0")
    assert got[1].text == (
        "RKNN Runtime Information, librknnrt version: 2.0.0b0 (35a6907d79@2024-03-24T10:31:14)"
    )
    assert (got[1].level, got[1].tag) == ("I", "RKNN")


def test_corpus_38_leading_form_feed_is_removed() -> None:
    got = list(read_lines(corpus_file("38_").open("rb")))
    assert got[0].text.startswith("ID   OpType           DataType Target WorkLoad(0/1/2)")
    assert got[1].text == ""  # PDF extraction: a blank line after every line
    assert got[2].text.startswith("1    InputOperator    UINT8    CPU")
    assert not any("\x0c" in line.text for line in got)


# --- encodings, line ends, clean-up ----------------------------------------------------------
SAMPLE = "D RKNN: [05:07:06.566] 1    InputOperator  UINT8  CPU  (1,3,640,640)  µs ✓\nsecond\n"


@pytest.mark.parametrize(
    ("encoded", "codec", "bom"),
    [
        (SAMPLE.encode("utf-8"), "utf-8", False),
        (b"\xef\xbb\xbf" + SAMPLE.encode("utf-8"), "utf-8", True),
        (b"\xff\xfe" + SAMPLE.encode("utf-16-le"), "utf-16-le", True),
        (b"\xfe\xff" + SAMPLE.encode("utf-16-be"), "utf-16-be", True),
        (SAMPLE.encode("utf-16-le"), "utf-16-le", False),
        (SAMPLE.encode("utf-16-be"), "utf-16-be", False),
    ],
)
def test_encodings(encoded: bytes, codec: str, bom: bool) -> None:
    stats = ReadStats()
    got = lines_of(encoded, stats)
    assert [line.text for line in got] == [
        "1    InputOperator  UINT8  CPU  (1,3,640,640)  µs ✓",
        "second",
    ]
    assert got[0].tag == "RKNN"
    assert (stats.encoding, stats.bom) == (codec, bom)


def test_invalid_utf8_is_replaced_and_nul_dropped() -> None:
    assert one(b"bad \xff\xfe byte\x00s\n").text == "bad \ufffd\ufffd bytes"


@pytest.mark.parametrize(
    "data",
    [
        b"a\r\nb\r\nc",
        b"a\nb\nc\n",
        b"a\rb\rc\r",
        b"a\r\r\nb\r\r\nc\r\r\n",
        b"a\r\nb\rc",
    ],
)
def test_line_ends(data: bytes) -> None:
    assert [(line.number, line.text) for line in lines_of(data)] == [(1, "a"), (2, "b"), (3, "c")]


def test_crlf_logcat_and_trailing_blanks_are_stripped() -> None:
    data = b"03-05 10:31:02.123  1234  1250 I RKNN    : row   \r\n"
    assert one(data) == Line(1, "row", (1234, 1250), "I", "RKNN")


def test_partial_last_line_is_yielded() -> None:
    assert lines_of(b"first\nlast without newline") == [
        Line(1, "first"),
        Line(2, "last without newline"),
    ]


def test_empty_lines_are_kept_and_counted() -> None:
    assert lines_of(b"\n\nx\n") == [Line(1, ""), Line(2, ""), Line(3, "x")]
    assert lines_of(b"") == []


@pytest.mark.parametrize(
    "raw",
    [
        b"\x1b[31mE RKNN: [02:27:31.133] boom\x1b[0m",
        b"\x1b[38;5;196mE RKNN: [02:27:31.133] boom\x1b[0m",
        b"\x1b]0;title\x07E RKNN: [02:27:31.133] boom",
        b"\x1b[1;33mE\x1b[0m RKNN: [02:27:31.133] boom\x1b[K",
    ],
)
def test_ansi_sequences_are_removed(raw: bytes) -> None:
    assert one(raw + b"\n") == Line(1, "boom", None, "E", "RKNN")


def test_form_feed_is_removed() -> None:
    assert lines_of(b"\x0cID   OpType\n\x0c\n") == [Line(1, "ID   OpType"), Line(2, "")]


# --- incremental reading, limits ---------------------------------------------------------------
MIXED = (
    "\ufeff03-05 10:31:02.123  1234  1250 I RKNN    : µ first\r\n"
    "\x1b[31mD RKNN: [05:07:06.566] ✓ second\x1b[0m\r"
    "[ 03-05 10:31:02.123  1234: 1250 I/RKNN     ]\r\nlong msg\r\n\r\n"
    "tail"
).encode("utf-8")


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64])
def test_reads_of_any_size_give_the_same_lines(size: int) -> None:
    expected = lines_of(MIXED)
    assert [line.text for line in expected] == ["µ first", "✓ second", "long msg", "tail"]
    assert list(read_lines(Trickle(MIXED, size))) == expected


def test_utf16_trickled_byte_by_byte() -> None:
    data = b"\xff\xfe" + "a\r\nµ\r\nlast".encode("utf-16-le")
    assert [line.text for line in read_lines(Trickle(data, 1))] == ["a", "µ", "last"]


class Endless:
    """``total`` bytes of one line without a newline, then ``tail``; produced on demand."""

    def __init__(self, total: int, tail: bytes) -> None:
        self.left, self.tail = total, tail

    def read(self, n: int = -1) -> bytes:
        if self.left > 0:
            size = min(n, self.left)
            self.left -= size
            return b"x" * size
        tail, self.tail = self.tail, b""
        return tail


def test_over_long_line_is_cut_at_the_cap_with_bounded_memory_and_time() -> None:
    import tracemalloc

    stats = ReadStats()
    tracemalloc.start()
    started = time.perf_counter()
    got = list(read_lines(Endless(10_000_000, b"\nnext line\n"), stats))
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [len(line.text) for line in got] == [MAX_LINE_CHARS, len("next line")]
    assert got[1] == Line(2, "next line")
    assert stats.truncated == [1] and stats.truncated_count == 1
    assert peak < 2_000_000  # a few chunks, never the 10 MB line
    assert elapsed < 5  # generous; takes well under a second


def test_over_long_line_inside_one_read_and_at_eof() -> None:
    data = b"short\n" + b"y" * (MAX_LINE_CHARS + 10) + b"\nz\n" + b"w" * (MAX_LINE_CHARS * 3)
    stats = ReadStats()
    got = lines_of(data, stats)
    assert [(line.number, len(line.text)) for line in got] == [
        (1, 5),
        (2, MAX_LINE_CHARS),
        (3, 1),
        (4, MAX_LINE_CHARS),
    ]
    assert stats.truncated == [2, 4]


def test_live_pipe_yields_a_line_before_the_writer_closes() -> None:
    read_fd, write_fd = os.pipe()
    first_seen = threading.Event()
    writer_closed = threading.Event()

    def writer() -> None:
        with os.fdopen(write_fd, "wb", buffering=0) as pipe:
            pipe.write(b"06-28 09:30:04.462 26854 26854 E RKNN    : first\n")
            first_seen.wait(timeout=5)
            pipe.write(b"06-28 09:30:04.463 26854 26854 E RKNN    : second\n")
        writer_closed.set()

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    with os.fdopen(read_fd, "rb") as pipe:
        reader = read_lines(pipe)
        first = next(reader)
        assert first.text == "first"
        assert not writer_closed.is_set()  # yielded while the writer still held the pipe open
        first_seen.set()
        assert [line.text for line in reader] == ["second"]
    thread.join(timeout=5)


def test_open_input() -> None:
    assert open_input("-") is sys.stdin.buffer
    with pytest.raises(InputError, match="cannot read"):
        open_input("/nonexistent/rknn.log")


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400), st.integers(min_value=1, max_value=9))
def test_any_bytes_any_chunking_never_raises_and_agree(data: bytes, size: int) -> None:
    whole = lines_of(data)
    assert list(read_lines(Trickle(data, size))) == whole
    assert all("\n" not in line.text and "\r" not in line.text for line in whole)
    numbers = [line.number for line in whole]
    assert numbers == sorted(set(numbers))


def test_rknn_server_lines_as_pasted_in_issues() -> None:
    # FORMATS 6 / ECOSYSTEM 1.5: single-spaced ids, tag SERVER, a trailing blank, ": " in the message
    data = (
        b"07-21 18:23:13.177 2322 2326 I SERVER : Recv a msg \n"
        b"07-21 18:23:13.178 2322 2326 D SERVER : rknnrt: 2.3.2 (c3d4c5b6@2024-11-07) \n"
    )
    assert lines_of(data) == [
        Line(1, "Recv a msg", (2322, 2326), "I", "SERVER"),
        Line(2, "rknnrt: 2.3.2 (c3d4c5b6@2024-11-07)", (2322, 2326), "D", "SERVER"),
    ]


def test_long_entry_message_with_a_runtime_prefix_keeps_the_entry_stream() -> None:
    data = b"[ 03-05 10:31:02.123  1234: 1250 D/RKNN     ]\nD RKNN: [05:07:06.566] ID   OpType\n\n"
    assert lines_of(data) == [Line(2, "ID   OpType", (1234, 1250), "D", "RKNN")]


def test_every_corpus_file_reads_with_physical_line_numbers() -> None:
    corpus = corpus_file("01_").parent
    for path in sorted(corpus.glob("[0-9]*.txt")):
        data = path.read_bytes()
        assert b"\r" not in data  # FORMATS 9: no CRLF in any kept sample
        physical = [
            raw.replace(b"\x0c", b"").decode("utf-8", "replace").rstrip()
            for raw in data.split(b"\n")
        ]
        if data.endswith(b"\n"):
            physical.pop()
        if physical[0].startswith("`") and not physical[0].startswith("``"):
            physical[0] = physical[0][1:]  # a back-tick-wrapped paste loses its opening tick (40)
        stats = ReadStats()
        got = list(read_lines(path.open("rb"), stats))
        assert stats.lines == len(physical), path.name
        for line in got:
            if line.level is None:  # no prefix stripped: the text is the physical line
                assert line.text == physical[line.number - 1], (path.name, line.number)
            else:
                assert physical[line.number - 1].endswith(line.text), (path.name, line.number)


def test_blockquote_markers_come_off_in_one_cut() -> None:
    from rknnprof.inputs.body import unquote

    assert unquote("> I RKNN: x") == "I RKNN: x"
    assert unquote(">I rkllm: x") == "I rkllm: x"
    assert unquote("> > > Prefill 1 2") == "Prefill 1 2"
    assert unquote(">>> rknn.eval_perf()") == ">>> rknn.eval_perf()"  # a Python prompt
    assert unquote("> >>> x") == ">>> x"
    assert unquote(">") == ""
    line = "> " * 32_000 + "x"  # a line at the reader's cap
    assert unquote(line) == "x"
    best = min(timed(unquote, line) for _ in range(3))
    assert best < 0.008  # one cut: about 1 ms here; a marker at a time took 25 ms


def timed(function, *args) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def test_a_quoted_long_logcat_capture_reads_as_unquoted(tmp_path) -> None:
    """``adb logcat -v long`` quoted in an issue: each entry's header, message and blank line
    behind ``>``. The entry state was kept while unquoting stopped, and ``>`` (a quoted blank
    line) never ended an entry: the table lost its header and the ranking was gone."""
    from rknnprof.api import load
    from rknnprof.schema import profile_to_dict

    sample = os.path.join(os.path.dirname(__file__), "..", "sample_logs", "yolov5s_rk3588_perf.txt")
    with open(sample, encoding="utf-8") as f:
        messages = f.read().splitlines()
    entries = [
        part
        for i, message in enumerate(messages)
        for part in (f"[ 11-30 10:00:{i % 60:02d}.000  2345: 2399 D/RKNN ]", message, "")
    ]
    plain, quoted = tmp_path / "plain.txt", tmp_path / "quoted.txt"
    plain.write_text("\n".join(entries) + "\n", encoding="utf-8")
    quoted.write_text("\n".join(f"> {e}" if e else ">" for e in entries) + "\n", encoding="utf-8")
    [want], [got] = load(str(plain)), load(str(quoted))
    assert len(got.layers) == 89 and len(got.ranking) == 8
    mine, theirs = profile_to_dict(got), profile_to_dict(want)
    for key in ("layers", "ranking", "total_time_us", "validity"):
        assert mine[key] == theirs[key], key
