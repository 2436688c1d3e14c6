"""The savings model's invariants on every corpus log (issue #17): for every finding
``saving_by_layer`` sums to ``est_saving_us`` and no entry exceeds its layer's time; the
findings together never claim more than a layer's time; ``potential_saving_us`` follows the
combination rule, recomputed here independently (per layer t x prod(1 - s_i / t), findings
without layers added once, capped by the frame); findings are sorted by saving."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rknnprof.api import load
from rknnprof.errors import RknnprofError
from rknnprof.rules import potential_saving_us
from tests.conftest import CORPUS, REPO, corpus_params

BUNDLED = sorted(
    [
        *REPO.glob("sample_logs/*.txt"),
        *REPO.glob("tests/data/rules/*.txt"),
        *REPO.glob("tests/data/variants/*.txt"),
    ]
)
"""Logs the rules were not tuned on: the samples, the rule fixtures, the held-back variants."""


def _corpus() -> list[object]:
    return [p.name if isinstance(p, Path) else p for p in corpus_params()]


def _profiles(path):
    try:
        return load(path)
    except RknnprofError:
        return []  # no profile data: nothing to advise


@pytest.mark.parametrize("name", _corpus())
def test_every_finding_follows_the_savings_model(name: str) -> None:
    _check(name, _profiles(CORPUS / name))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_logs_follow_the_savings_model(path) -> None:
    _check(path.name, _profiles(path))


def _check(name: str, profiles) -> None:
    for profile in profiles:
        times = {la.id: la.time_us or 0.0 for la in profile.layers}
        frame = profile.frame_total_us or profile.total_time_us or 0.0
        if profile.benchmark is not None and profile.benchmark.avg_time_ms:
            frame = max(frame, profile.benchmark.avg_time_ms * 1000.0)
        savings = [f.est_saving_us for f in profile.findings]
        assert savings == sorted(savings, reverse=True), f"{name}: not sorted by saving"
        remaining: dict[int, float] = {}
        free = 0.0
        for finding in profile.findings:
            rows = finding.saving_by_layer
            if rows:
                assert math.isclose(
                    sum(v for _, v in rows), finding.est_saving_us, rel_tol=1e-9, abs_tol=1e-6
                ), f"{name} {finding.code}"
            for layer_id, value in rows:
                assert 0 < value <= times[layer_id] + 1e-6, f"{name} {finding.code} #{layer_id}"
                t = times[layer_id]
                remaining[layer_id] = remaining.get(layer_id, t) * (1 - value / t)
            if not rows:
                free += finding.est_saving_us
            if finding.throughput_gain is not None:
                assert finding.throughput_gain.factor >= 1 and finding.throughput_gain.bound
        combined = sum(times[i] - left for i, left in remaining.items()) + free
        expected = min(combined, frame) if frame else combined
        assert potential_saving_us(profile.findings, profile) == pytest.approx(expected)
        if frame:
            assert potential_saving_us(profile.findings, profile) <= frame + 1e-6


def test_the_corpus_is_there_to_check() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is absent (set RKNNPROF_CORPUS)")
    assert len(_corpus()) >= 30
