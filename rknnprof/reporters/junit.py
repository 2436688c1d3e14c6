"""JUnit XML (Ant/Jenkins flavour) for CI test tabs: GitLab ``artifacts:reports:junit``,
Jenkins, Azure, GitHub report actions.

* ``rknnprof check -f junit``: one ``<testcase>`` per budget and model; a failed error-level
  budget is a ``<failure>``, an inconclusive one is ``<skipped>`` (a ``<failure>`` under
  ``--fail-on-inconclusive``), a broken warn-level budget passes with the warning in
  ``<system-out>``; the input's warnings are each suite's ``<system-err>``.
* ``rknnprof analyze -f junit`` (:class:`JunitReporter`): one ``<testsuite>`` per model, one
  ``<testcase>`` per rule (``RKN001 cpu-fallback``: the same names every run). A rule fails
  when one of its findings reaches ``--fail-on`` -- the findings that make the exit code 1 --
  and passes otherwise, its findings in ``<system-out>``.
* ``rknnprof compare -f junit`` (:func:`render_compare_junit`): one ``<testsuite>`` per model,
  a ``total time`` case (a ``<failure>`` past ``--fail-over``, ``<skipped>`` when a side shows
  part of the model) and one case per finding of BASE that promised a saving, named by its
  rule (``RKN070 activation-swap``): a ``<failure>`` when ``--expect`` names it and it was
  not delivered, its verdict in ``<system-out>`` otherwise. The failures are exactly what
  makes the exit code 1.
* Valid against the ``junit-10.xsd`` schema pytest and Jenkins use; ``classname`` is the model
  or log name with dots replaced, since Jenkins splits a classname at its last dot.

Built with ``xml.etree`` so escaping is always right; control characters XML 1.0 forbids are
dropped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, TextIO

from rknnprof.reporters._escape import page_text, xml_text
from rknnprof.reporters.base import RenderOptions, Reporter, fails

if TYPE_CHECKING:
    from rknnprof.budgets import CheckResult
    from rknnprof.compare import CompareResult, ProfileComparison
    from rknnprof.model import Finding, Report


def _clean(text: str) -> str:
    """Text a CI server shows on a page: controls and bidi characters as escapes, and what XML
    1.0 forbids besides dropped (``xml.etree`` escapes the rest)."""
    return xml_text(page_text(text))


def _case(suite: ET.Element, classname: str, name: str) -> ET.Element:
    return ET.SubElement(
        suite, "testcase", classname=_clean(classname), name=_clean(name), time="0"
    )


def _classname(model: str) -> str:
    """``perf.log`` -> ``perf_log``: Jenkins splits a classname at its last dot into package and
    class, which would file ``perf.log`` as class ``log`` of package ``perf``."""
    return _clean(model.replace(".", "_"))


def _finish(root: ET.Element, out: TextIO) -> None:
    # junit-10.xsd allows tests/failures/errors on <testsuites>, not skipped (each suite has it)
    for attr in ("tests", "failures", "errors"):
        root.set(attr, str(sum(int(s.get(attr, "0")) for s in root.iter("testsuite"))))
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")


def _suite(root: ET.Element, name: str) -> ET.Element:
    return ET.SubElement(
        root,
        "testsuite",
        name=_clean(name),
        tests="0",
        failures="0",
        errors="0",
        skipped="0",
        time="0",
    )


def _bump(suite: ET.Element, attr: str) -> None:
    suite.set(attr, str(int(suite.get(attr, "0")) + 1))


def render_check_junit(
    result: CheckResult, out: TextIO, fail_on: str = "error", fail_on_inconclusive: bool = False
) -> None:
    """``check`` verdicts as JUnit XML. The failures are the verdicts that make the exit code 1
    (:func:`rknnprof.budgets.failing_statuses`): failed error budgets, also broken warn budgets
    under ``--fail-on warning``, none under ``--fail-on never``, inconclusive ones under
    ``--fail-on-inconclusive``. The input's warnings go to every suite's ``<system-err>``."""
    from rknnprof.budgets import failing_statuses

    root = ET.Element("testsuites", name="rknnprof check")
    failing = failing_statuses(fail_on, fail_on_inconclusive)
    suites: dict[str, ET.Element] = {}
    for v in result.verdicts:
        suite = suites.get(v.model)
        if suite is None:
            suite = suites[v.model] = _suite(root, f"rknnprof budgets: {v.model}")
        case = _case(suite, _classname(v.model), v.budget.label)
        _bump(suite, "tests")
        if v.status in failing:
            _bump(suite, "failures")
            failure = ET.SubElement(case, "failure", message=_clean(v.message), type="budget")
            failure.text = _clean(f"{v.model}: {v.message}")
        elif v.status == "inconclusive":
            _bump(suite, "skipped")
            ET.SubElement(case, "skipped", message=_clean(v.message))
        else:
            prefix = "warning: " if v.status == "warn" else ""
            ET.SubElement(case, "system-out").text = _clean(prefix + v.message)
    if result.warnings:
        for suite in suites.values():
            text = "\n".join(f"warning: {w}" for w in result.warnings)
            ET.SubElement(suite, "system-err").text = _clean(text)
    _finish(root, out)


def render_compare_junit(
    result: CompareResult,
    out: TextIO,
    fail_over: float | None = None,
    expects: tuple[tuple[str, float | None], ...] = (),
) -> None:
    """``compare`` as JUnit XML: the total time against ``--fail-over`` and BASE's advice
    against ``--expect``, failing exactly where the exit code does."""
    root = ET.Element("testsuites", name="rknnprof compare")
    for comp in result.comparisons:
        model = comp.model or comp.current_source.replace("\\", "/").rsplit("/", 1)[-1]
        suite = _suite(root, f"rknnprof compare: {model}")
        _total_case(suite, _classname(model), comp, fail_over)
        _advice_cases(suite, _classname(model), comp, expects)
        if result.warnings:
            text = "\n".join(f"warning: {w}" for w in result.warnings)
            ET.SubElement(suite, "system-err").text = _clean(text)
    _finish(root, out)


def _total_case(
    suite: ET.Element, classname: str, comp: ProfileComparison, fail_over: float | None
) -> None:
    case = _case(suite, classname, "total time")
    _bump(suite, "tests")
    if comp.base_total_us is None or comp.current_total_us is None or comp.delta_pct is None:
        _bump(suite, "skipped")
        ET.SubElement(case, "skipped", message="a log gives no total time")
        return
    line = (
        f"total {comp.base_total_us / 1000:,.2f} ms -> {comp.current_total_us / 1000:,.2f} ms "
        f"({comp.delta_pct:+.1f}%)"
    )
    if comp.unjudged:
        why = f"{'; '.join(comp.unjudged)}: {line} not judged"
        if fail_over is not None:
            _bump(suite, "skipped")
            ET.SubElement(case, "skipped", message=_clean(why))
        else:
            ET.SubElement(case, "system-out").text = _clean(why)
    elif fail_over is not None and comp.delta_pct > fail_over:
        _bump(suite, "failures")
        message = f"{line}: grew more than --fail-over {fail_over:g}%"
        ET.SubElement(case, "failure", message=_clean(message), type="fail-over").text = _clean(
            message
        )
    else:
        ET.SubElement(case, "system-out").text = _clean(line)


def _advice_cases(
    suite: ET.Element,
    classname: str,
    comp: ProfileComparison,
    expects: tuple[tuple[str, float | None], ...],
) -> None:
    from rknnprof.compare.advice import unmet_expectation

    still = dict(comp.still_advised)
    expected = dict(expects)
    for outcome in comp.advice:
        case = _case(suite, classname, f"{outcome.code} {outcome.name}")
        _bump(suite, "tests")
        verdict = f"{outcome.verdict}: {outcome.reason}"
        unmet = (
            unmet_expectation(outcome.code, expected[outcome.code], still, (outcome,))
            if outcome.code in expected
            else None
        )
        if unmet is not None:
            _bump(suite, "failures")
            ET.SubElement(case, "failure", message=_clean(unmet), type="expect").text = _clean(
                f"{unmet}\n{verdict}"
            )
        else:
            ET.SubElement(case, "system-out").text = _clean(verdict)
    advised = {o.code for o in comp.advice}
    for code, _ in expects:
        if code not in advised:
            case = _case(suite, classname, f"{code} (expected)")
            _bump(suite, "tests")
            ET.SubElement(
                case, "system-out"
            ).text = f"BASE did not advise {code}: nothing was promised"


class JunitReporter(Reporter):
    """``analyze -f junit``: one test case per rule, so a test keeps its identity from run to
    run; it fails when one of its findings trips ``--fail-on`` (the exit code's rule)."""

    name = "junit"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        from rknnprof.rules import RULES

        root = ET.Element("testsuites", name="rknnprof analyze")
        for k, profile in enumerate(report.profiles):
            model = profile.model_name or profile.source.path
            if len(report.profiles) > 1:
                model = f"{model}#{k + 1}"
                if profile.stream_label:
                    model = f"{model} ({profile.stream_label})"
            suite = _suite(root, f"rknnprof findings: {model}")
            by_code: dict[str, list[Finding]] = {}
            for f in profile.findings:
                by_code.setdefault(f.code, []).append(f)
            names = {r.code: r.name for r in RULES}
            names.update((f.code, f.name) for f in profile.findings)
            for code, name in names.items():
                case = _case(suite, _classname(model), f"{code} {name}")
                _bump(suite, "tests")
                findings = by_code.get(code, [])
                tripped = [f for f in findings if fails(f.severity, options.fail_on)]
                text = "\n\n".join(f"{f.severity}: {f.message}\nfix: {f.fix}" for f in findings)
                if tripped:
                    _bump(suite, "failures")
                    failure = ET.SubElement(
                        case,
                        "failure",
                        type=code,
                        message=_clean(
                            f"{tripped[0].message}"
                            + (f" (+{len(tripped) - 1} more)" if len(tripped) > 1 else "")
                        ),
                    )
                    failure.text = _clean(text)
                elif findings:
                    ET.SubElement(case, "system-out").text = _clean(text)
        if report.failures and not report.profiles:  # exit 3: each failure fails a case
            suite = _suite(root, "rknnprof failures")
            for known in report.failures:
                case = _case(suite, "rknnprof.failures", f"line {known.line}: {known.id}")
                _bump(suite, "tests")
                _bump(suite, "failures")
                element = ET.SubElement(
                    case, "failure", type=known.id, message=_clean(known.diagnosis)
                )
                element.text = _clean(f"{known.text}\nfix: {known.fix}")
        _finish(root, out)
