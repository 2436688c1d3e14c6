"""The registry: codes, docs, selection, ordering, and the `rules` command."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from rknnprof.cli import cli
from rknnprof.errors import ConfigError
from rknnprof.model import Finding, Profile, Severity, SourceSpan
from rknnprof.rules import RULES, by_code, run_rules, select_rules
from rknnprof.rules.base import Rule, RuleContext

SECTIONS = (
    "What it finds:",
    "Why it costs time:",
    "Example:",
    "How to fix:",
    "Estimate:",
    "Source:",
)


def test_codes_are_valid_unique_and_sorted() -> None:
    codes = [rule.code for rule in RULES]
    assert all(re.fullmatch(r"RKN\d{3}", code) for code in codes)
    assert len(codes) == len(set(codes)) and codes == sorted(codes)
    assert len({rule.name for rule in RULES}) == len(RULES)


def test_required_rules_exist() -> None:
    # issue #4: exactly this catalogue; issue #17: the expert's first fixes (RKN07x)
    want = [
        "RKN001",
        "RKN002",
        "RKN010",
        "RKN011",
        "RKN020",
        "RKN021",
        "RKN022",
        "RKN023",
        "RKN024",
        "RKN030",
        "RKN040",
        "RKN050",
        "RKN051",
        "RKN060",
        "RKN061",
        "RKN070",
        "RKN071",
        "RKN072",
        "RKN073",
        "RKN080",
        "RKN090",
    ]
    assert [rule.code for rule in RULES] == want
    assert by_code("RKN001").name == "cpu-fallback" and by_code("RKN002").name == "float16"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_doc_has_all_sections_in_order(rule: Rule) -> None:
    doc = rule.doc
    positions = [doc.find(section) for section in SECTIONS]
    assert all(p >= 0 for p in positions), f"{rule.code} lacks a section"
    assert positions == sorted(positions)
    assert re.fullmatch(r"[a-z0-9-]+", rule.name) and rule.summary


def test_select_and_ignore_by_prefix() -> None:
    codes = lambda rules: [r.code for r in rules]  # noqa: E731
    every = codes(RULES)  # the registry, in its order
    assert codes(select_rules()) == every
    rkn02 = [c for c in every if c.startswith("RKN02")]
    assert len(rkn02) >= 2
    assert codes(select_rules(["RKN02"])) == rkn02
    assert codes(select_rules(["RKN0"], ["RKN02"])) == [
        c for c in every if c.startswith("RKN0") and not c.startswith("RKN02")
    ]
    # the more specific select beats the shorter ignore (flake8's longest prefix wins)
    assert codes(select_rules(["RKN021"], ["RKN02"])) == ["RKN021"]
    ignored = ("RKN001", "RKN03", "RKN04", "RKN05", "RKN06", "RKN07")
    assert codes(select_rules(None, ["rkn001,RKN03", "RKN04,RKN05,RKN06,RKN07"])) == [
        c for c in every if not c.startswith(ignored)
    ]
    assert codes(select_rules(["ALL"], ["ALL"])) == []


def test_select_unknown_prefix_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="--select RKN9: no rule code starts with it"):
        select_rules(["RKN9"])


def test_run_rules_sorts_by_saving() -> None:
    def check(profile, context):
        yield Finding("RKN901", "a", Severity.INFO, "small", "f", est_saving_us=1)
        yield Finding("RKN902", "b", Severity.INFO, "big", "f", est_saving_us=9)

    rule = Rule("RKN901", "a", Severity.INFO, "s", check)
    profile = Profile(source=SourceSpan("x"), format="t")
    found = run_rules(profile, RuleContext(), rules=[rule])
    assert [f.message for f in found] == ["big", "small"]
    assert run_rules(profile) == ()  # an empty profile triggers nothing


def test_by_code_is_case_insensitive() -> None:
    assert by_code("rkn001").name == "cpu-fallback"
    assert by_code("RKN999") is None


def test_rules_command_lists_and_documents() -> None:
    runner = CliRunner()
    listing = runner.invoke(cli, ["rules"])
    assert listing.exit_code == 0
    assert len(listing.output.splitlines()) == len(RULES)
    assert listing.output.startswith("RKN001  error    cpu-fallback")
    doc = runner.invoke(cli, ["rules", "rkn001"])
    assert doc.exit_code == 0
    assert doc.output.startswith("# cpu-fallback (RKN001, error)")
    assert all(section in doc.output for section in SECTIONS)


def test_rule_docs_name_public_logs_not_test_files() -> None:
    """A rule's documentation names the public logs it measured on (with their URLs under
    Source), never this repository's test corpus ("corpus 01"), which a user does not have."""
    runner = CliRunner()
    for rule in RULES:
        doc = runner.invoke(cli, ["rules", rule.code]).output
        assert not re.search(r"\b[Cc]orpus\b", doc), rule.code
    cited = runner.invoke(cli, ["rules", "RKN073"]).output.split("Source:")[1]
    assert "InJuly7/Fusion_rknn/blob/0aa4edf" in cited and "yolo26n_layer_perf.txt" in cited


def test_rules_command_unknown_code_exits_2() -> None:
    result = CliRunner().invoke(cli, ["rules", "RKN999"])
    assert result.exit_code == 2
    assert "unknown rule code 'RKN999'" in result.output


def test_every_rule_has_a_track_record_entry() -> None:
    # one entry per registered rule, none for a rule that does not exist
    from rknnprof.rules.track_record import TRACK_RECORD

    assert set(TRACK_RECORD) == {rule.code for rule in RULES}
    [resolution] = [rule for rule in RULES if rule.code == "RKN071"]
    assert "Track record:\n    1 real pair: yolov8n at 1920x1920" in resolution.doc
