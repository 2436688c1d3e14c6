"""The README's rule table is generated from the rule docs and must not go stale."""

from __future__ import annotations

from click.testing import CliRunner

from rknnprof.cli import cli
from rknnprof.rules import RULES
from rknnprof.rules.catalogue import (
    END,
    START,
    doc_section,
    main,
    markdown_table,
    replace_section,
    section_of,
)
from rknnprof.rules.sources import markdown
from tests.conftest import REPO


def test_readme_rules_section_is_current() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert section_of(text) == markdown_table(), (
        "README.md's rules section is stale: run "
        "`python -m rknnprof.rules.catalogue --write README.md`"
    )


def test_table_has_one_row_per_rule_with_its_source() -> None:
    table = markdown_table()
    for rule in RULES:
        [row] = [line for line in table.splitlines() if line.startswith(f"| `{rule.code}` |")]
        assert rule.source and doc_section(rule.doc, "Source:") == rule.source
        assert markdown(rule.source) in row and rule.name in row and rule.severity.value in row


def test_replace_section_appends_markers_then_replaces_in_place() -> None:
    first = replace_section("# Title\n\ntext\n", "| a |\n")
    assert first.endswith(f"{START}\n| a |\n{END}\n") and first.startswith("# Title\n\ntext\n")
    second = replace_section(first + "after\n", "| b |\n")
    assert "| a |" not in second and "| b |" in second and second.endswith("after\n")


def test_write_command(tmp_path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n", encoding="utf-8")
    assert main(["--write", str(readme)]) == 0
    assert section_of(readme.read_text(encoding="utf-8")) == markdown_table()
    assert main(["--bogus"]) == 2


def test_rules_command_lists_the_final_catalogue() -> None:
    listing = CliRunner().invoke(cli, ["rules"]).output
    assert [line.split()[0] for line in listing.splitlines()] == [r.code for r in RULES]


def test_rules_code_shows_the_saving_basis_and_confidence() -> None:
    result = CliRunner().invoke(cli, ["rules", "RKN030"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())  # (wrapped to the terminal: 80 columns here)
    assert (
        "Saving basis: latency: multi-core speed-ups measured on public yolov8n profiles, 1 "
        "core against 3 (Add 1.65x, Concat 1.56x, ConvExSwish 1.0x; plain INT8 convs by their "
        "cycles" in text
    )
    assert "Confidence: medium (measured on a public yolov8n profile, 1 core against 3" in text
    assert text.index("Estimate:") < text.index("Saving basis:") < text.index("Source:")
    [row] = [line for line in markdown_table().splitlines() if line.startswith("| `RKN030` |")]
    assert "throughput_gain, never latency (medium (measured on a public yolov8n profile" in row


def test_a_rules_doc_fits_the_terminal_but_for_its_urls() -> None:
    """``rules RKN070`` printed its basis, confidence and sources as lines of 160-530 columns;
    wrapped to the terminal (80 here), a line runs over only to keep a URL whole."""
    output = CliRunner().invoke(cli, ["rules", "RKN070"]).output
    long = [line for line in output.splitlines() if len(line) > 80]
    assert long and all("https://" in line and " " not in line.strip() for line in long), long


def test_every_rule_states_its_saving_basis_and_confidence() -> None:
    missing = [rule.code for rule in RULES if not (rule.basis and rule.confidence)]
    assert not missing, (
        f"{missing}: give Rule(...) basis= (one line: the evidence its "
        "est_saving_us rests on) and confidence= (high/medium/low and when)"
    )
