"""One escaping rule per output format, each tested on names a hostile log can carry.

Expected text is what the name says, character for character: a layer called ``a[/b]c`` is
shown as ``a[/b]c`` (not parsed as rich markup), a CSV cell ``=HYPERLINK(…)`` is written as
``'=HYPERLINK(…)``, Markdown shows ``<img …>`` as text."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from rknnprof.reporters import _escape as E
from tests.hostile.helpers import log_with_name, run

SGR = re.compile(r"\x1b\[[0-9;]*m")
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


# -- terminal --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "[/]x",
        "a[/b]c",
        "/blocks[i]/attn/MatMul",
        "[bold]x[/bold]",
        "x\\",
        "[link=https://evil.example/]click[/link]",
    ],
)
@pytest.mark.parametrize("color", ["never", "always"])
def test_markup_in_a_name_is_shown_as_typed(name, color, tmp_path, capsys, monkeypatch):
    path = log_with_name(tmp_path, name)
    code, out, err = run(capsys, monkeypatch, "analyze", path, "--top", "3", "--color", color)
    assert code == 0, err
    assert name in SGR.sub("", out)
    assert "\x1b]8" not in out  # no OSC 8 hyperlink


def test_terminal_rule_shows_controls_as_escapes():
    assert E.terminal("A\x1bcB\x9b2J\x01\x7f\u202e") == "A\\x1bcB\\x9b2J\\x01\\x7f\\u202e"
    assert E.terminal("plain · text µs") == "plain · text µs"
    # zero-width characters: 'Conv:/a\u200b' and 'Conv:/a' looked the same in a report
    assert E.terminal("a\u200bb\u200dc\ufeffd\xade") == "a\\u200bb\\u200dc\\ufeffd\\xade"
    assert E.page_text("a\u2060b\tc") == "a\\u2060b\tc"
    # a tag character, a combining grapheme joiner, a variation selector, a Hangul filler
    assert E.terminal("m.0\U000e0041/\u034f\ufe0f\u3164") == "m.0\\U000e0041/\\u034f\\ufe0f\\u3164"
    # every format character (Cf): interlinear annotation, Arabic number signs, Egyptian
    assert E.terminal("a\ufffbb\u0600c\U00013439") == "a\\ufffbb\\u0600c\\U00013439"
    # Markdown shows them too (they were dropped: two names printed alike)
    assert E.markdown("a\u200bb") == "a\\\\u200bb"


def _saved_report(tmp_path, name, time_us=100.0):
    """A saved JSON report (compare and check read these without the log reader)."""
    from rknnprof.model import Layer, Profile, Report, SourceSpan, Target
    from rknnprof.saved import report_to_dict

    layer = Layer(id=1, op_type="Conv\x1b[2J", time_us=time_us, full_name=name, target=Target.NPU)
    profile = Profile(
        source=SourceSpan("run\x1bc.txt", 1, 3),
        format="toolkit2-perf-table",
        layers=(layer,),
        platform="rk3588",
    )
    path = tmp_path / f"saved-{time_us:g}.json"
    path.write_text(json.dumps(report_to_dict(Report((profile,)))))
    return str(path)


@pytest.mark.parametrize("color", ["never", "always"])
def test_compare_table_from_a_saved_report_keeps_controls_off_the_terminal(
    color, tmp_path, capsys, monkeypatch
):
    name = "A\x1bcB\x1b(0\x1b#8\x1b\x9b\x9d\x01\x7f[/]x"
    path, slower = _saved_report(tmp_path, name), _saved_report(tmp_path, name, 150.0)
    # the layer changed (100 -> 150 us), so the list of changes names it
    code, out, err = run(capsys, monkeypatch, "compare", path, slower, "--color", color)
    assert code == 0, err
    assert not CONTROL.search(SGR.sub("", out)), repr(out)
    assert "AB\ufffd" in out and "[/]x" in out  # the saved report's strings were cleaned too


# -- HTML ------------------------------------------------------------------------------------

BIDI = re.compile(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
BIDI_NAME = "Conv:/model.0/\u202egnp.exe\u202c/\u2066x\u2069\u200f"
"""A name whose right-to-left override would show ``exe.png`` reversed around it in a page."""


def test_page_rule_shows_controls_and_bidi_as_escapes():
    """HTML and JUnit (a CI server's page) text: as the terminal shows it, white space kept."""
    assert E.page_text("a\u202eb\x1b\u2066\tc\n") == "a\\u202eb\\x1b\\u2066\tc\n"


def test_html_rule_shows_controls_and_bidi_as_escapes():
    assert E.html('<a href="x">\u202e\x01\x9b') == "&lt;a href=&quot;x&quot;&gt;\\u202e\\x01\\x9b"
    assert E.html("tab\tand\nlines\r") == "tab\tand\nlines\r"  # white space to HTML
    assert E.html("µs · 名前 'q'") == "µs · 名前 &#x27;q&#x27;"


@pytest.mark.parametrize("command", ["analyze", "check"])
def test_bidi_controls_in_a_name_do_not_reach_the_page(command, tmp_path, capsys, monkeypatch):
    """The reader keeps bidi controls (they are text); the page shows them as escapes, as the
    terminal does, in text and in attributes (the charts' hover titles)."""
    path = log_with_name(tmp_path, BIDI_NAME)
    budgets = tmp_path / "b.yaml"  # check's page shows the budget's pattern, from the file
    budgets.write_text(
        'budgets:\n  - metric: layer_time_us\n    match: "Conv:/model.0/\u202egnp*"\n    max: 1\n',
        encoding="utf-8",
    )
    extra = ["--budgets", str(budgets)] if command == "check" else []
    code, out, err = run(capsys, monkeypatch, command, path, *extra, "-f", "html")
    assert code in (0, 1), err
    assert not BIDI.search(out), repr(BIDI.search(out))
    if command == "analyze":
        assert "\\u202egnp.exe\\u202c" in out  # the name, its controls visible
        assert 'title="Conv:/model.0/\\u202egnp.exe' in out  # an attribute too
    else:
        assert "layer_time_us[Conv:/model.0/\\u202egnp*]" in out


# -- Markdown --------------------------------------------------------------------------------


def _html(markdown_text: str) -> str:
    """The Markdown as a CommonMark renderer with GFM tables turns it into HTML (raw HTML kept,
    as GitHub keeps an ``<img>``)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").render(markdown_text)


HTML_NAME = "<img src=x onerror=alert(1)>`x`|y"


def test_check_markdown_escapes_html_and_backticks(tmp_path, capsys, monkeypatch):
    budgets = tmp_path / "b.yaml"
    budgets.write_text(
        "budgets:\n  - metric: layer_time_us\n    match: '<img src=x onerror=alert(1)>`'"
        "\n    max: 1\n"
    )
    path = log_with_name(tmp_path, HTML_NAME)
    code, out, err = run(
        capsys, monkeypatch, "check", path, "--budgets", str(budgets), "-f", "markdown"
    )
    assert code in (0, 1), err
    assert "onerror" in out
    assert "<img" not in _html(out)


def test_step_summary_is_escaped(tmp_path, capsys, monkeypatch):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    path = log_with_name(tmp_path, HTML_NAME)
    base = log_with_name(tmp_path, HTML_NAME, file="base.txt")
    # the named layer (6,030 us) ran slower in the base, so the summary's changes list it
    text = Path(base).read_text(encoding="utf-8")
    Path(base).write_text(text.replace("   6030   ", "   6130   ", 1), encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, "compare", base, path)
    assert code == 0, err
    text = summary.read_text()
    assert "onerror" in text
    assert "<img" not in _html(text)


def test_markdown_rules():
    assert E.markdown("<b>|`x`") == "\\<b\\>\\|\\`x\\`"
    assert E.markdown_code("a`b|c") == "`a'b\\|c`"


# -- CSV -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://evil","x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1)"]
)
def test_csv_neutralises_formulas(name, tmp_path, capsys, monkeypatch):
    path = log_with_name(tmp_path, name)
    code, out, err = run(capsys, monkeypatch, "analyze", path, "-f", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    for row in rows:
        for key, cell in row.items():
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (key, cell)
            if cell.startswith("-"):  # only real numbers in numeric columns may start with -
                float(cell)


def test_csv_keeps_negative_numbers_and_quotes_text():
    assert E.csv_cell(-5) == -5
    assert E.csv_cell(-0.5) == -0.5
    assert E.csv_cell("-5") == "'-5"
    assert E.csv_cell("=1+1") == "'=1+1"
    assert E.csv_cell("\t=1") == "'\t=1"
    assert E.csv_cell("\r=1") == "'\r=1"
    assert E.csv_cell("Conv:/model.0") == "Conv:/model.0"
    assert E.csv_cell(None) is None


def test_csv_shows_an_escape_from_the_path_colour_or_not(tmp_path, capsys, monkeypatch):
    """A file named with an ESC sequence: its source_path cells show ``\\x1b``, whether the
    terminal is coloured or not (colour decided the CSV's bytes before)."""
    path = tmp_path / "run_\x1b[31mred.txt"
    path.write_text(Path(log_with_name(tmp_path, "Conv:/m/c")).read_text())
    for colour in ("always", "never"):
        code, out, err = run(
            capsys, monkeypatch, "analyze", str(path), "-f", "csv", "--color", colour
        )
        assert code == 0, err
        assert "\x1b" not in out and "run_\\x1b[31mred.txt" in out


# -- XML and annotations ---------------------------------------------------------------------


def test_xml_rule_drops_what_xml_forbids():
    assert E.xml_text("a\x00b\x1bc\ufffed]]>") == "abcd]]>"


def test_annotation_rules():
    assert E.annotation_data("50%\r\nx\x1b") == "50%25%0D%0Ax"
    assert E.annotation_property("a:b,c") == "a%3Ab%2Cc"


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x1c", "\x0b"])
def test_a_line_separator_in_the_log_never_starts_a_line_of_the_report(
    separator, tmp_path, capsys, monkeypatch
):
    """``str.splitlines`` breaks a line at U+2028/U+2029 (and NEL, FS, VT): a layer name or a
    failure line holding one put ``::error file=x::forged`` at column 0 of stdout, a GitHub
    workflow command. It is a visible mark now, wherever the text is shown."""
    name = f"Conv:/a{separator}::error file=x::forged"
    log = log_with_name(tmp_path, name)
    text = Path(log).read_text(encoding="utf-8")
    failure = f"E RKNN: Meet unsupported target type: 0xffffffff{separator}::add-mask::secret\n"
    Path(log).write_text(failure + text, encoding="utf-8")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    for args in (("analyze", log), ("analyze", "-f", "markdown", log)):
        _, out, err = run(capsys, monkeypatch, *args)
        for line in (out + err).splitlines():
            assert not line.startswith(("::error file=x", "::add-mask")), line


def test_the_separators_are_escaped_by_the_output_rules():
    assert E.terminal("a\u2028b\u2029c") == "a\\u2028b\\u2029c"
    assert E.page_text("a\u2028b") == "a\\u2028b"
