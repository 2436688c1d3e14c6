"""Paste damage over real corpus files (changed in memory, never copied) and small synthetic logs:
the numbers must survive what users do to logs when they paste them into issues and chats."""

from __future__ import annotations

import io

import pytest

from rknnprof.api import parse_stream


def parse(text: str):
    return parse_stream(io.BytesIO(text.encode("utf-8")), "pasted.txt")


def only_profile(text: str):
    assembly = parse(text)
    assert len(assembly.profiles) == 1, [p.format for p in assembly.profiles]
    return assembly.profiles[0]


def blank_after_every_line(text: str) -> str:
    return "\x0c" + "".join(f"{line}\n\n" for line in text.splitlines())


def backticks(text: str) -> str:
    return f"`{text.rstrip()}`"


def _ended(text: str) -> str:
    """Issue excerpts have no final newline; a line added after them starts a line of its own."""
    return text if text.endswith("\n") else text + "\n"


def repl(text: str) -> str:
    return f">>> perf = rknn.eval_perf()\n{_ended(text)}>>> rknn.release()\n"


def annotated(text: str) -> str:
    return (
        f"(...some prints before eval_perf...)\n--> 开始评估算子级性能 (eval_perf)...\n"
        f"{_ended(text)}(完成) done\n"
    )


DAMAGE = {
    "as-is": lambda t: t,
    "blank-after-every-line+form-feed": blank_after_every_line,
    "backticks": backticks,
    "repl-prompts": repl,
    "annotations-and-cjk": annotated,
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "markdown-indent": lambda t: "".join(f"    {line}\n" for line in t.splitlines()),
}

# (corpus prefix, format, layer count, total time in us) read from the logs (corpus_expectations)
SOURCES = [
    ("07_", "toolkit2-perf-table", 93, 14478),
    ("09_", "toolkit1-perf-table", 5, 3713),
    ("08_", "toolkit2-eval_perf-csv", 52, 163836),
    ("38_", "toolkit2-perf-table-v15", 9, 591),
]


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize(
    ("prefix", "family", "layers", "total"), SOURCES, ids=[s[0] for s in SOURCES]
)
def test_corpus_tables_survive(corpus, prefix, family, layers, total, damage) -> None:
    if prefix == "08_" and damage in ("backticks", "markdown-indent"):
        pytest.skip("a CSV file is not pasted as prose")
    text = corpus(prefix).read_text(encoding="utf-8")
    profile = only_profile(DAMAGE[damage](text))
    assert profile.format == family
    assert len(profile.layers) == layers
    assert profile.total_time_us == total


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_totals_survive(corpus, damage) -> None:
    profile = only_profile(DAMAGE[damage](corpus("29_").read_text(encoding="utf-8")))
    assert (profile.format, profile.reported_total_time_us) == ("eval_perf-totals", 18642)
    assert profile.benchmark is not None and profile.benchmark.avg_fps == 53.64


def test_rows_cut_mid_line_at_the_end(corpus) -> None:
    lines = corpus("07_").read_text(encoding="utf-8").splitlines()
    # keep the header (line 4), rule and the first 10 rows, then half of row 11
    text = "\n".join(lines[:15]) + "\n" + lines[15][:60]
    profile = only_profile(text)
    assert [la.id for la in profile.layers] == list(range(1, 11))
    assert [s.line for s in profile.skipped_rows] == [16]


def test_headerless_fragment_of_rows(corpus) -> None:
    lines = corpus("07_").read_text(encoding="utf-8").splitlines()
    profile = only_profile("\n".join(lines[20:30]))  # ten rows, no title, header or totals
    assert len(profile.layers) == 10
    assert profile.layers[0].id == int(lines[20].split()[0])
    assert profile.headerless  # read with the 2.x layout assumed, and the profile says so


def test_toolkit1_elision_and_cut_row() -> None:
    text = """Layer ID    Name                                         Operator            Uid       Time(us)
0           a/b                                          CONVOLUTION         1         100
......
7           c/d                                          POOLING             2         50
8           MobilenetV1/Logits/Conv2d_1c_1x1/BiasAd"""
    profile = only_profile(text)
    assert [la.id for la in profile.layers] == [0, 7]
    assert profile.total_time_us == 150


def test_csv_with_blank_lines_and_a_cut_last_row(corpus) -> None:
    lines = corpus("08_").read_text(encoding="utf-8").splitlines()
    text = "\n\n".join(lines[:10]) + "\n" + lines[10][:40]
    profile = only_profile(text)
    assert len(profile.layers) == 10 and len(profile.skipped_rows) == 1


def test_opening_backtick_of_a_wrapped_paste_is_dropped_by_lines() -> None:
    from rknnprof.inputs.lines import read_lines

    lines = list(read_lines(io.BytesIO(b"`ID   OpType\nrow\nlast`")))
    assert [line.text for line in lines] == ["ID   OpType", "row", "last`"]
    assert [line.text for line in read_lines(io.BytesIO(b"```\ncode\n```"))] == [
        "```",
        "code",
        "```",
    ]
