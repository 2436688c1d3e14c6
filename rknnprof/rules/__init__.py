"""The rule registry: an explicit tuple, in code order. Add a rule by adding it here."""

from __future__ import annotations

from rknnprof.model import Finding, Profile
from rknnprof.rules.base import Rule, RuleContext

RULES: tuple[Rule, ...] = ()


def by_code(code: str) -> Rule | None:
    code = code.upper()
    return next((rule for rule in RULES if rule.code == code), None)


def run_rules(profile: Profile, context: RuleContext | None = None) -> tuple[Finding, ...]:
    """Every rule's findings for ``profile``, sorted by estimated saving, largest first."""
    context = context or RuleContext()
    findings = [f for rule in RULES for f in rule.check(profile, context)]
    findings.sort(key=lambda f: (-f.est_saving_us, f.code))
    return tuple(findings)
