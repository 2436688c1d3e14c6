"""Citations a user can look up: public titles and URLs, in English (issue #13 defect 6)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rknnprof.api import load
from rknnprof.rules import RULES
from rknnprof.rules.sources import DOCUMENTS, cite, issue, markdown, sources
from tests.conftest import REPO

PRIVATE = re.compile(r"UG230|OPL232|TK232|RT232|API152|DOMAIN\.md|issue #\d")
"""Keys of the project's research notes, which no user can open."""
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def _unreadable(text: str) -> list[str]:
    return PRIVATE.findall(text) + CJK.findall(text)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_cites_public_documents_with_urls(rule) -> None:
    assert rule.source, f"{rule.code} has no source"
    for citation in rule.source.split("; "):
        assert re.search(r"\(https://github\.com/[^\s)]+\)$", citation), citation
    assert _unreadable(rule.doc) == [] and _unreadable(rule.summary) == []


def test_findings_on_the_samples_cite_readable_sources() -> None:
    texts = []
    for log in sorted((REPO / "sample_logs").glob("*.txt")):
        for profile in load(str(log)):
            for f in profile.findings:
                texts += [f.message, f.fix or "", f.source or "", f.estimate or ""]
                assert f.source and "https://" in f.source, (log.name, f.code, f.source)
    assert texts and [t for t in texts if _unreadable(t)] == []


def test_citation_helpers_spell_title_part_and_url() -> None:
    guide = DOCUMENTS["guide"]
    assert cite("guide", "§8.3") == f"RKNN SDK User Guide V2.3.0 §8.3 ({guide.url})"
    assert guide.url.endswith("/doc/02_Rockchip_RKNPU_User_Guide_RKNN_SDK_V2.3.0_EN.pdf")
    assert issue("airockchip/rknn-toolkit2", 514, "Resize") == (
        "airockchip/rknn-toolkit2#514 Resize "
        "(https://github.com/airockchip/rknn-toolkit2/issues/514)"
    )
    line = sources(cite("zoo"), "plain text")
    assert (
        markdown(line) == f"[RKNN Model Zoo README (benchmark table)]({DOCUMENTS['zoo'].url})"
        "; plain text"
    )


def test_the_readme_and_docs_name_no_private_notes() -> None:
    # docs/sources.md is where the platform files' source keys (OPL232, UG230…) are defined,
    # each with its public URL, and it quotes the operator list's own Chinese terms
    for path in [REPO / "README.md", *Path(REPO / "docs").glob("*.md")]:
        if path.name != "sources.md":
            assert _unreadable(path.read_text(encoding="utf-8")) == [], path.name
