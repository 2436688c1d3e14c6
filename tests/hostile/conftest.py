"""Every hostile-input test runs twice: with the fast path for repeated frames on and off
(``RKNNPROF_NO_FASTPATH``). Its expectations come from the log, so both must meet them."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, params=["fastpath", "no-fastpath"])
def fastpath(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "fastpath":
        monkeypatch.delenv("RKNNPROF_NO_FASTPATH", raising=False)
    else:
        monkeypatch.setenv("RKNNPROF_NO_FASTPATH", "1")
    return str(request.param)
