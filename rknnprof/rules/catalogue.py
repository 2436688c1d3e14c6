"""The rule catalogue as Markdown, generated from the rules' own docs.

README.md carries it between ``<!-- rules:start -->`` and ``<!-- rules:end -->``; a test fails
when that section differs from :func:`markdown_table`. Regenerate with::

    python -m rknnprof.rules.catalogue --write README.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

START = "<!-- rules:start -->"
END = "<!-- rules:end -->"
SECTION_HEADS = (
    "What it finds:",
    "Why it costs time:",
    "Example:",
    "How to fix:",
    "Estimate:",
    "Saving basis:",
    "Confidence:",
    "Source:",
)


def doc_section(doc: str, head: str) -> str:
    """One section of a rule doc (``Source:``, ``Estimate:``…) as a single line."""
    lines = doc.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == head)
    except StopIteration:
        return ""
    body = []
    for line in lines[start + 1 :]:
        if line.strip() in SECTION_HEADS:
            break
        body.append(line.strip())
    return re.sub(r"\s+", " ", " ".join(body)).strip()


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table() -> str:
    """The catalogue: one row per rule (code, name, max severity, summary, source), plus the
    ranking and severity rules, as Markdown ending in a newline."""
    from rknnprof.rules import RULES
    from rknnprof.rules._util import ERROR_SHARE, WARNING_SHARE
    from rknnprof.rules.sources import markdown

    rows = [
        "| Code | Name | Severity (max) | What it flags | Saving basis (confidence) | Source |",
        "|---|---|---|---|---|---|",
    ]
    rows += [
        f"| `{rule.code}` | {rule.name} | {rule.severity.value} | "
        f"{_cell(rule.summary)} | {_cell(_saving(rule))} | {_cell(markdown(rule.source))} |"
        for rule in RULES
    ]
    notes = [
        "",
        "Findings are ranked by their estimated saving per frame (each rule's doc says how it "
        "is estimated: `rknnprof rules CODE`). Severity comes from the share of the frame at "
        f"stake: at least {ERROR_SHARE:.0%} is `error`, at least {WARNING_SHARE:.0%} `warning`, "
        "less `info`, never above the rule's maximum above; a finding saving less than 0.5% of "
        "the frame or 100 us is `info` (noise). A saving is the per-frame latency of the one "
        "change a finding names, explained layer by layer; throughput (idle cores, more "
        'contexts) is reported apart, never as a saving. The "at stake" figure combines '
        "the findings per layer (the remaining time multiplies), so no layer is claimed twice: "
        "an upper bound.",
    ]
    return "\n".join(rows + notes) + "\n"


def _saving(rule: object) -> str:
    """``basis (confidence)`` for the table; ``""`` when the rule states neither."""
    basis, confidence = getattr(rule, "basis", ""), getattr(rule, "confidence", "")
    return f"{basis} ({confidence})" if basis and confidence else basis or confidence


def replace_section(text: str, table: str) -> str:
    """``text`` with the marked section replaced by ``table`` (markers appended if absent)."""
    block = f"{START}\n{table}{END}"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        return head + block + tail
    return text.rstrip("\n") + "\n\n## Rules\n\n" + block + "\n"


def section_of(text: str) -> str | None:
    """The text between the markers, or None when they are absent."""
    if START not in text or END not in text:
        return None
    return text.split(START, 1)[1].split(END, 1)[0].lstrip("\n")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--write"] and len(args) == 2:
        path = Path(args[1])
        path.write_text(
            replace_section(path.read_text(encoding="utf-8"), markdown_table()), encoding="utf-8"
        )
        return 0
    if not args:
        sys.stdout.write(markdown_table())
        return 0
    sys.stderr.write("usage: python -m rknnprof.rules.catalogue [--write README.md]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
