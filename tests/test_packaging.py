"""Packaging metadata a package index and a user's tools can read (issue #13 defect 14): an SPDX
licence string and the LICENSE file, classifiers and keywords, and an sdist whose own tests run
(its MANIFEST.in carries everything the tests read)."""

from __future__ import annotations

import re
import tomllib

from tests.conftest import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def test_license_is_an_spdx_expression_with_its_file() -> None:
    # a TOML table (license = {text = ...}) is deprecated: every build warned
    assert PROJECT["license"] == "Apache-2.0"
    assert PROJECT["license-files"] == ["LICENSE"]
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    # PEP 639 needs setuptools 77; a licence classifier next to the expression is an error
    assert any(
        re.fullmatch(r"setuptools>=(7[7-9]|[89]\d)", r)
        for r in PYPROJECT["build-system"]["requires"]
    )
    assert not [c for c in PROJECT["classifiers"] if c.startswith("License ::")]


def test_classifiers_and_keywords_say_what_it_is() -> None:
    classifiers = set(PROJECT["classifiers"])
    assert {
        "Environment :: Console",
        "Typing :: Typed",
        "Programming Language :: Python :: 3.11",
    } <= classifiers
    assert {"rknn", "rockchip", "npu"} <= set(PROJECT["keywords"])


def test_the_sdist_carries_what_its_tests_read() -> None:
    manifest = (REPO / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    for needed in (
        "graft tests",
        "graft sample_logs",
        "graft docs",
        "graft benchmarks",
        "include .ci/run",
        "include LICENSE README.md MANIFEST.in",
    ):
        assert needed in manifest, needed
    # the folders the tests open beside the package
    readers = "\n".join(p.read_text(encoding="utf-8") for p in REPO.glob("tests/**/*.py"))
    for folder in ("sample_logs", "docs", "benchmarks", ".ci"):
        assert folder in readers


def test_readme_has_no_relative_links() -> None:
    # a package index shows README.md without the repository around it: a relative link
    # (docs/ci.md) is a dead link there; files of the source tree are named as paths instead
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)\)", readme)
    assert [link for link in links if not link.startswith(("https://", "http://"))] == []
