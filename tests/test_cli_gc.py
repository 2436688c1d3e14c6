"""``main`` pauses the cyclic collector while the commands import and freezes what startup
built (a CPU saving, see its doc); called in process it must leave the collector as it was."""

from __future__ import annotations

import gc
import sys

import pytest

from tests.hostile.helpers import SAMPLE


@pytest.mark.parametrize(
    "args", [["--help"], ["analyze", str(SAMPLE), "-f", "json", "-q"], ["analyze", "/no/such/log"]]
)
def test_main_leaves_the_collector_running_and_nothing_frozen(monkeypatch, capsys, args):
    from rknnprof.cli import main

    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    monkeypatch.setattr(sys, "argv", ["rknnprof", *args])
    try:
        main()
        code = 0
    except SystemExit as e:
        code = e.code
    assert code == (2 if "/no/such/log" in args else 0)
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    capsys.readouterr()
