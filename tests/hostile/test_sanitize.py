"""The sanitising boundary (rknnprof.inputs.sanitize): what the reader makes of control
characters and escape sequences, and that none of them reaches the terminal from a log, in the
table or in ``Error:`` / ``Warning:`` lines, with or without colour."""

from __future__ import annotations

import re

import pytest

from rknnprof.inputs.sanitize import clean, has_control
from tests.hostile.helpers import log_with_name, run

SGR = re.compile(r"\x1b\[[0-9;]*m")
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
HOSTILE = [
    "A\x1bcB",
    "A\x1b(0B",
    "A\x1b#8B",
    "A\x1b",
    "A\x9b2JB",
    "A\x9dB",
    "A\x01B",
    "A\x7fB",
    "A\x1b]8;;https://evil.example/\x1b\\L\x1b]8;;\x1b\\B",
    "A\x1b]0;title\x07B",
    "A\x1b[2J\x1b[HB",
    "A\x08\x08B",
    "A\x0bB",
]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("A\x1bcB", "AB"),  # RIS, full reset
        ("A\x1b(0B", "AB"),  # line-drawing charset
        ("A\x1b#8B", "AB"),  # DECALN, fills the screen with E
        ("A\x1b[31mB\x1b[0m", "AB"),
        ("A\x1b]8;;https://evil.example/\x1b\\L\x1b]8;;\x1b\\B", "ALB"),
        ("A\x9b2JB", "AB"),  # 8-bit CSI
        ("A\x9d0;t\x9cB", "AB"),  # 8-bit OSC ended by ST
        ("A\x9dB", "A\ufffdB"),  # a lone C1 OSC: shown, not obeyed
        ("A\x1b", "A\ufffd"),  # a lone ESC at the end of a line
        ("A\x01B\x7fC", "A\ufffdB\ufffdC"),
        ("A\x0cB\x00C", "ABC"),  # form feeds and NULs were always dropped
        ("tab\tand\nnewline", "tab\tand\nnewline"),
        ("µs · Conv:/model.0", "µs · Conv:/model.0"),
    ],
)
def test_clean(raw, expected):
    assert clean(raw) == expected


def test_has_control_fast_path():
    assert not has_control("ID   OpType  Conv:/model.0/conv/Conv\t1\n2 µs")
    assert has_control("x\x85y") and has_control("x\x1by") and has_control("\x7f")


def test_has_control_short_and_long_texts_agree():
    """Short texts are searched by one regular expression, long ones by ``in`` tests: every
    character from NUL to U+00A0 gets the same answer both ways."""
    from rknnprof.inputs.sanitize import SHORT

    for code in range(0xA1):
        ch = chr(code)
        expected = ch not in "\t\n" and (code < 0x20 or 0x7F <= code <= 0x9F)
        short, long = f"a{ch}b", "x" * SHORT + ch
        assert len(short) < SHORT <= len(long)
        assert has_control(short) is expected and has_control(long) is expected, hex(code)
        assert (clean(short) != short) is expected, hex(code)


def _assert_clean_terminal(text: str) -> None:
    assert not CONTROL.search(SGR.sub("", text)), repr(text)


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("color", ["never", "always"])
def test_no_control_character_from_a_name_reaches_the_terminal(
    name, color, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "200")
    path = log_with_name(tmp_path, name)
    code, out, err = run(capsys, monkeypatch, "analyze", path, "--top", "3", "--color", color)
    assert code == 0, err
    _assert_clean_terminal(out)
    _assert_clean_terminal(err)
    assert " A" in out  # the row is still there, its name without the sequence


@pytest.mark.parametrize("text", HOSTILE)
def test_no_control_character_reaches_an_error_line(text, tmp_path, capsys, monkeypatch):
    log = tmp_path / "e.txt"
    log.write_bytes(f"E RKNN: failed {text} to run\n".encode())
    code, out, err = run(capsys, monkeypatch, "analyze", str(log))
    assert code == 3
    assert err.startswith(
        f"Error: {log}: line 1: an error the failures catalogue does not know: `failed A"
    )
    _assert_clean_terminal(err)


def test_no_control_character_from_a_budgets_file_reaches_an_error_line(
    tmp_path, capsys, monkeypatch
):
    budgets = tmp_path / "b.yaml"
    budgets.write_text('budgets:\n  - metric: "x\\e[2J\\ec"\n    max: 1\n')
    path = log_with_name(tmp_path, "Conv:/x")
    code, _, err = run(capsys, monkeypatch, "check", path, "--budgets", str(budgets))
    assert code == 2
    assert "x\\x1b[2J\\x1bc" in err
    _assert_clean_terminal(err)
