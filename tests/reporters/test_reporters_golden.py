"""Golden files for every reporter at 80 columns, no colour (regenerate: --update-golden)."""

from __future__ import annotations

import pytest

from rknnprof.reporters import html

from .report_samples import HAND_REPORT, NO_LAYERS_REPORT, render

FORMATS = {
    "table": "table.txt",
    "markdown": "md",
    "csv": "csv",
    "html": "html",
    "trace": "trace.json",
}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("case", ["hand", "nolayers"])
def test_golden(fmt: str, case: str, check_golden, monkeypatch: pytest.MonkeyPatch) -> None:
    # the hand-built findings use real codes; keep these goldens independent of the rule docs
    monkeypatch.setattr(
        html, "rule_doc", lambda code: f"(doc of {code})" if code != "RKN020" else ""
    )
    report = HAND_REPORT if case == "hand" else NO_LAYERS_REPORT
    check_golden(render(fmt, report, width=80), f"{case}.{FORMATS[fmt]}")
