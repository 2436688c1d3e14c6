"""The rule registry: an explicit tuple, in code order. Add a rule by adding its module here.

Topics: ``fallback`` (RKN001), ``quantize`` (RKN002), ``bound`` (RKN010-011), ``operators``
(RKN020), ``graph`` (RKN021-024), ``runtime`` (RKN030-032).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rknnprof.errors import ConfigError
from rknnprof.model import Finding, Profile
from rknnprof.rules import bound, fallback, graph, operators, quantize, runtime
from rknnprof.rules.base import CODE_PATTERN, Rule, RuleContext

RULES: tuple[Rule, ...] = (
    *fallback.RULES,
    *quantize.RULES,
    *bound.RULES,
    *operators.RULES,
    *graph.RULES,
    *runtime.RULES,
)

__all__ = ["CODE_PATTERN", "RULES", "Rule", "RuleContext", "by_code", "run_rules", "select_rules"]


def by_code(code: str) -> Rule | None:
    code = code.upper()
    return next((rule for rule in RULES if rule.code == code), None)


def _prefixes(values: Iterable[str] | None, option: str) -> list[str]:
    """Split ``["RKN0,RKN01", "RKN3"]`` into upper-case prefixes; reject ones matching no rule."""
    prefixes = [p.strip().upper() for v in values or () for p in v.split(",") if p.strip()]
    for prefix in prefixes:
        if prefix != "ALL" and not any(rule.code.startswith(prefix) for rule in RULES):
            raise ConfigError(f"{option} {prefix}: no rule code starts with it (see `rknnprof rules`)")
    return prefixes


def _longest(code: str, prefixes: Sequence[str]) -> int:
    """Length of the longest prefix matching ``code`` (``ALL`` counts as 0), or -1 for none."""
    lengths = [0 if p == "ALL" else len(p) for p in prefixes if p == "ALL" or code.startswith(p)]
    return max(lengths, default=-1)


def select_rules(
    select: Iterable[str] | None = None, ignore: Iterable[str] | None = None
) -> tuple[Rule, ...]:
    """The rules left after ``--select`` / ``--ignore`` code prefixes, flake8 style.

    No ``select`` means every rule is selected. A rule is dropped when an ignore prefix matches
    it at least as specifically as the longest matching select prefix
    (``--select RKN0 --ignore RKN02`` drops RKN020-029; ``--select RKN021 --ignore RKN02`` keeps
    RKN021). Values may be comma-separated; ``ALL`` matches everything. A prefix that matches no
    rule is a :class:`ConfigError` (exit 2).
    """
    chosen = _prefixes(select, "--select") or ["ALL"]
    dropped = _prefixes(ignore, "--ignore")
    kept = []
    for rule in RULES:
        sel, ign = _longest(rule.code, chosen), _longest(rule.code, dropped)
        if sel >= 0 and sel > ign:
            kept.append(rule)
    return tuple(kept)


def run_rules(
    profile: Profile,
    context: RuleContext | None = None,
    rules: Iterable[Rule] | None = None,
) -> tuple[Finding, ...]:
    """Every rule's findings for ``profile`` (``rules`` defaults to all, e.g. pass
    :func:`select_rules`'s result), sorted by estimated saving, largest first."""
    context = context or RuleContext()
    chosen = RULES if rules is None else tuple(rules)
    findings = [f for rule in chosen for f in rule.check(profile, context)]
    findings.sort(key=lambda f: (-f.est_saving_us, f.code))
    return tuple(findings)
