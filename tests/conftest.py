"""Shared fixtures. Corpus tests read ``../shared/corpus`` beside the repository (CI lays it
there too); ``RKNNPROF_CORPUS`` overrides. Without it they skip, saying why."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("RKNNPROF_CORPUS", REPO.parent / "shared" / "corpus"))
SAMPLES = REPO / "sample_logs"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fuzz-long",
        action="store_true",
        default=False,
        help="run the hypothesis fuzz suite (tests/fuzz) with many more examples "
        "(RKNNPROF_FUZZ_EXAMPLES overrides the count)",
    )


def pytest_report_header(config: pytest.Config) -> str:
    """Where the corpus is read from, or that it is absent (its tests then skip)."""
    if CORPUS.is_dir():
        return f"corpus: {CORPUS} ({len(list(CORPUS.glob('*.txt')))} logs)"
    return f"corpus: {CORPUS} is absent: the tests that read it skip (set RKNNPROF_CORPUS)"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Without the corpus, one line at the end (``-q`` hides the header) says why so many tests
    skipped."""
    if not CORPUS.is_dir():
        skipped = len(terminalreporter.stats.get("skipped", []))
        terminalreporter.write_line(
            f"corpus: {CORPUS} is absent, so most of the {skipped} skipped tests did not run; "
            "set RKNNPROF_CORPUS to the folder of the corpus logs"
        )


def corpus_params(pattern: str = "*.txt") -> list[object]:
    """The corpus files matching ``pattern``, sorted, as test parameters; without the corpus,
    one skipped parameter that says why (pytest's own "got empty parameter set" does not)."""
    if CORPUS.is_dir():
        return sorted(CORPUS.glob(pattern))
    reason = f"corpus folder {CORPUS} is absent (set RKNNPROF_CORPUS)"
    return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id="no-corpus")]


def pytest_configure(config: pytest.Config) -> None:
    # tests/fuzz/fuzz_support.py reads the count at import time
    if config.getoption("--fuzz-long"):
        os.environ.setdefault("RKNNPROF_FUZZ_EXAMPLES", "3000")


@pytest.fixture(autouse=True)
def _fixed_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reporters render at 80 columns without colour unless a test says otherwise."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "50")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


def read_all(fd: int, into: list[bytes] | None = None) -> bytes:
    """Everything a pseudo-terminal's master ``fd`` gives until its other end closes (each
    chunk also appended to ``into``, for a reader thread the test polls)."""
    chunks = [] if into is None else into
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:  # (EIO: the terminal's other end closed)
            break
        if not data:
            break
        chunks.append(data)
    return b"".join(chunks)


def corpus_file(prefix: str) -> Path:
    """The corpus file whose name starts with ``prefix`` (``"01_"``), or skip."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is absent (set RKNNPROF_CORPUS)")
    matches = sorted(CORPUS.glob(f"{prefix}*"))
    if not matches:
        pytest.skip(f"no corpus file {prefix}* in {CORPUS}")
    return matches[0]


@pytest.fixture
def corpus() -> object:
    return corpus_file
