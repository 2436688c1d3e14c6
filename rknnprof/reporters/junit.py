"""JUnit XML (Ant/Jenkins flavour) for CI test tabs: GitLab ``artifacts:reports:junit``,
Jenkins, Azure, GitHub report actions.

* ``rknnprof check -f junit``: one ``<testcase>`` per budget and model; a failed error-level
  budget is a ``<failure>``, an inconclusive one is ``<skipped>``, a broken warn-level budget
  passes with the warning in ``<system-out>``.
* ``rknnprof analyze -f junit`` (:class:`JunitReporter`): one ``<testsuite>`` per model, one
  ``<testcase>`` per finding; ``error`` findings are failures, the others pass with their
  message in ``<system-out>``. A model without findings gets one passing ``no findings`` case.

Built with ``xml.etree`` so escaping is always right; control characters XML 1.0 forbids are
dropped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, TextIO

from rknnprof.reporters.base import RenderOptions, Reporter

if TYPE_CHECKING:
    from rknnprof.budgets import CheckResult
    from rknnprof.model import Report

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _FORBIDDEN.sub("", text)


def _case(suite: ET.Element, classname: str, name: str) -> ET.Element:
    return ET.SubElement(suite, "testcase", classname=_clean(classname), name=_clean(name),
                         time="0")


def _finish(root: ET.Element, out: TextIO) -> None:
    for attr in ("tests", "failures", "errors", "skipped"):
        root.set(attr, str(sum(int(s.get(attr, "0")) for s in root.iter("testsuite"))))
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")


def _suite(root: ET.Element, name: str) -> ET.Element:
    return ET.SubElement(root, "testsuite", name=_clean(name), tests="0", failures="0",
                         errors="0", skipped="0", time="0")


def _bump(suite: ET.Element, attr: str) -> None:
    suite.set(attr, str(int(suite.get(attr, "0")) + 1))


def render_check_junit(result: CheckResult, out: TextIO) -> None:
    """``check`` verdicts as JUnit XML."""
    root = ET.Element("testsuites", name="rknnprof check")
    suites: dict[str, ET.Element] = {}
    for v in result.verdicts:
        suite = suites.get(v.model)
        if suite is None:
            suite = suites[v.model] = _suite(root, f"rknnprof budgets: {v.model}")
        case = _case(suite, v.model, v.budget.label)
        _bump(suite, "tests")
        if v.status == "fail":
            _bump(suite, "failures")
            failure = ET.SubElement(case, "failure", message=_clean(v.message), type="budget")
            failure.text = _clean(f"{v.model}: {v.message}")
        elif v.status == "inconclusive":
            _bump(suite, "skipped")
            ET.SubElement(case, "skipped", message=_clean(v.message))
        else:
            prefix = "warning: " if v.status == "warn" else ""
            ET.SubElement(case, "system-out").text = _clean(prefix + v.message)
    _finish(root, out)


class JunitReporter(Reporter):
    """``analyze -f junit``: findings as test cases."""

    name = "junit"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        root = ET.Element("testsuites", name="rknnprof analyze")
        for k, profile in enumerate(report.profiles):
            model = profile.model_name or profile.source.path
            if len(report.profiles) > 1:
                model = f"{model}#{k + 1}"
            suite = _suite(root, f"rknnprof findings: {model}")
            if not profile.findings:
                _case(suite, f"rknnprof.{model}", "no findings")
                _bump(suite, "tests")
            for f in profile.findings:
                case = _case(suite, f"rknnprof.{model}", f"{f.code} {f.name}: layers "
                             f"{','.join(map(str, f.layer_ids)) or '-'}")
                _bump(suite, "tests")
                text = f"{f.message}\nfix: {f.fix}"
                if f.severity.value == "error":
                    _bump(suite, "failures")
                    failure = ET.SubElement(case, "failure", message=_clean(f.message),
                                            type=f.code)
                    failure.text = _clean(text)
                else:
                    ET.SubElement(case, "system-out").text = _clean(f"{f.severity}: {text}")
        _finish(root, out)
