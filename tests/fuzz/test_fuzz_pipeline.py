"""Property: whatever the input, ``analyze`` either returns a report that every reporter can
render (finite JSON numbers) or raises a one-line :class:`RknnprofError`; nothing else escapes.

Inputs: arbitrary bytes; lines built from the tokens of the table grammar; real corpus logs
mutated (lines dropped, duplicated, cut at any byte, cells swapped, digits turned into letters,
tabs for blanks, bytes injected, other logs spliced in, 1 MB lines), and re-encoded (CRLF, BOM,
UTF-16, logcat prefixes).
"""

from __future__ import annotations

import codecs

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fuzz.fuzz_support import (
    AVAILABLE_REPORTERS,
    apply,
    fuzz_settings,
    huge_line,
    mutations,
    run_pipeline,
    seed_logs,
)
from tests.conftest import CORPUS

CORPUS_LINES = [seed.split(b"\n") for seed in seed_logs(CORPUS)]
"""Corpus files, sample logs and hand-written seeds (every registered parser opens on one)."""
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus folder {CORPUS} is absent")


@fuzz_settings(150)
@given(st.binary(max_size=3000))
@example(b"")
@example(b"\xef\xbb\xbf")
@example(b"\xff\xfe")
@example(b"\xff\xfe\x00")
@example(b"\x00" * 64)
@example(b"\r" * 10)
@example(b"\x1b[" * 50)
def test_arbitrary_bytes(data: bytes) -> None:
    run_pipeline(data)


# tokens of every family's grammar, so random lines reach deep parser states
TOKENS = [
    "ID",
    "OpType",
    "DataType",
    "Target",
    "InputShape",
    "OutputShape",
    "Cycles(DDR/NPU/Total)",
    "Time(us)",
    "MacUsage(%)",
    "WorkLoad(0/1/2)",
    "RW(KB)",
    "FullName",
    "DDR",
    "NPU",
    "Total",
    "Cycles",
    "WorkLoad(0/1/2)-ImproveTherical",
    "Task",
    "Number",
    "Lut",
    "Size",
    "Regcmd",
    "Network Layer Information Table",
    "Operator Time Consuming Ranking Table",
    "Operator Time-Consuming Ranking:",
    "CallNumber",
    "Call Number",
    "CPUTime(us)",
    "GPUTime(us)",
    "NPUTime(us)",
    "TotalTime(us)",
    "TimeRatio(%)",
    "Total Operator Elapsed Per Frame Time(us):",
    "Total Operator Elapsed Time(us):",
    "Total Memory Read/Write Per Frame Size(KB):",
    "Total Memory RW Amount(MB):",
    "Performance",
    "####",
    "-" * 30,
    "=" * 30,
    "...",
    "......",
    "\\",
    "",
    "1",
    "2",
    "3",
    "0",
    "17",
    "999999999999999999999",
    "12.5",
    "0.00",
    "66.0",
    "73.51%",
    "InputOperator",
    "OutputOperator",
    "ConvExSwish",
    "Conv",
    "Resize",
    "exSoftmax13",
    "Total",
    "UINT8",
    "INT8",
    "FLOAT16",
    "CPU",
    "NPU",
    "GPU",
    "(1,3,640,640)",
    "(1,3,640,640),(16,3,3,3),(16)",
    "(1,16,480,480),...",
    "()",
    "(,)",
    "0/0/0",
    "164250/921600/921600",
    "1/2",
    "2.29/0.00/0.00",
    "100.0%/0.0%/0.0%",
    "0.0%",
    "-",
    "Up:0.0%",
    "Conv:node_conv2d",
    "a:b:c",
    "D RKNN: [09:08:00.481]",
    "I RKNN: [09:08:00.481]",
    "11-30 10:00:00.123  2345  2399 D RKNN    :",
    "RKNN Runtime Information, librknnrt version: 2.3.2 (abc@2024)",
    "RKNN Driver Information, version: 0.9.8",
    "target platform: rk3588",
    "CPU Current Frequency List:",
    "- 1800000",
    "- Unknown",
    "Layer ID",
    "Name",
    "Operator",
    "Uid",
    "Total Time(us): 18642",
    "FPS: 53.64",
    "Avg Time 12.34ms, Avg FPS = 81.037",
    "   0: Elapse Time = 27.64ms, FPS = 36.18",
    "Warmup ...",
    "Begin perf ...",
    "rknn_api/rknnrt version: 2.1.0 (x), driver version: 0.9.6",
    "W RKNN: [13:52:53.504] Transpose will fallback to CPU, because input shape has exceeded",
    "Failed to config layer: 'Conv:/m' using 3Core fallback to single core mode,",
    "NPU load:  Core0: 52%, Core1: 0%, Core2: 0%,",
    " |  ",
    "---> ",
]
token_lines = st.lists(st.sampled_from(TOKENS), max_size=14).map(lambda ts: "   ".join(ts))
token_logs = st.lists(token_lines, max_size=40).map(lambda ls: "\n".join(ls).encode())


@fuzz_settings(250)
@given(token_logs)
def test_grammar_token_soup(data: bytes) -> None:
    run_pipeline(data)


@needs_corpus
@fuzz_settings(250)
@given(st.data())
def test_mutated_corpus_logs(data: st.DataObject) -> None:
    lines = data.draw(st.sampled_from(CORPUS_LINES), label="log")
    ops = data.draw(st.lists(mutations(CORPUS_LINES), min_size=1, max_size=6), label="mutations")
    run_pipeline(b"\n".join(apply(lines, ops)))


@needs_corpus
@fuzz_settings(40)
@given(st.data())
def test_mutated_corpus_logs_every_reporter(data: st.DataObject) -> None:
    lines = data.draw(st.sampled_from(CORPUS_LINES), label="log")
    ops = data.draw(st.lists(mutations(CORPUS_LINES), min_size=1, max_size=4), label="mutations")
    run_pipeline(b"\n".join(apply(lines, ops)), reporters=AVAILABLE_REPORTERS)


def _logcat(lines: list[bytes]) -> list[bytes]:
    return [
        b"11-30 10:00:00.%03d  2345  2399 D RKNN    : %s" % (i % 1000, line)
        for i, line in enumerate(lines)
    ]


ENCODINGS = {
    "crlf": lambda ls: b"\r\n".join(ls),
    "cr": lambda ls: b"\r".join(ls),
    "bom": lambda ls: codecs.BOM_UTF8 + b"\n".join(ls),
    "utf16": lambda ls: b"\n".join(ls).decode("utf-8", "replace").encode("utf-16"),
    "utf16be-nobom": lambda ls: b"\n".join(ls).decode("utf-8", "replace").encode("utf-16-be"),
    "logcat": lambda ls: b"\n".join(_logcat(ls)),
    "runtime-prefix": lambda ls: b"\n".join(b"D RKNN: [09:08:00.481] " + x for x in ls),
}


@needs_corpus
@fuzz_settings(120)
@given(st.data())
def test_reencoded_and_mutated(data: st.DataObject) -> None:
    lines = data.draw(st.sampled_from(CORPUS_LINES), label="log")
    ops = data.draw(st.lists(mutations(CORPUS_LINES), max_size=3), label="mutations")
    encode = ENCODINGS[data.draw(st.sampled_from(sorted(ENCODINGS)), label="encoding")]
    run_pipeline(encode(apply(lines, ops)))


@needs_corpus
@fuzz_settings(6)
@given(st.data())
def test_megabyte_lines(data: st.DataObject) -> None:
    """A 1 MB line anywhere (no newline for a long stretch, or a huge repeated row)."""
    lines = data.draw(st.sampled_from(CORPUS_LINES), label="log")
    at = data.draw(st.integers(0, 500), label="at")
    fill = data.draw(st.sampled_from([b"x", b"1    Conv  INT8  NPU  ", b"(1,3,4,4),", b"-", b" "]))
    run_pipeline(b"\n".join(huge_line(at, 1_000_000, fill)(lines)))
