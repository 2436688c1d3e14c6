"""The fuzz suite mutates the corpus, the sample logs and a few hand-written seeds: make sure those seeds reach every parser
in the registry, so a family added later is fuzzed too (or this test says which one is not: add a seed to
``fuzz_support.EXTRA_SEEDS``)."""

from __future__ import annotations

import io

import pytest

from fuzz.fuzz_support import seed_logs
from rknnprof.inputs.lines import read_lines
from rknnprof.parsers import PARSERS
from tests.conftest import CORPUS


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus folder is absent")
def test_every_registered_parser_opens_on_some_seed():
    reached: set[str] = set()
    for seed in seed_logs(CORPUS):
        for line in read_lines(io.BytesIO(seed)):
            for parser in PARSERS:
                if parser.family not in reached and parser.opens(line) is not None:
                    reached.add(parser.family)
    missing = [p.family for p in PARSERS if p.family not in reached]
    assert not missing, f"no fuzz seed opens these parsers: {missing}"
