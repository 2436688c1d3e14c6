"""The platform files' data is cached like bytecode (``platforms.CACHE``): the same platforms
with or without the cache, and a changed file is read again."""

from __future__ import annotations

import os
import shutil

from rknnprof import platforms


def _fresh(monkeypatch, data_dir):
    monkeypatch.setattr(platforms, "DATA_DIR", data_dir)
    monkeypatch.setattr(platforms, "CACHE", data_dir / "__pycache__" / "platforms.marshal")
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    platforms.all_platforms.cache_clear()
    try:
        return platforms.all_platforms()
    finally:
        platforms.all_platforms.cache_clear()


def test_cache_gives_the_same_platforms_and_follows_edits(tmp_path, monkeypatch):
    for path in platforms.DATA_DIR.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    first = _fresh(monkeypatch, tmp_path)  # read from YAML, cache written
    assert (tmp_path / "__pycache__" / "platforms.marshal").exists()
    assert _fresh(monkeypatch, tmp_path) == first  # read from the cache
    rk3588 = tmp_path / "rk3588.yaml"
    text = rk3588.read_text(encoding="utf-8")
    assert "display_name: RK3588" in text
    rk3588.write_text(
        text.replace("display_name: RK3588", "display_name: RK3588 edited", 1), encoding="utf-8"
    )
    os.utime(rk3588, ns=(1, 1))
    assert _fresh(monkeypatch, tmp_path)["rk3588"].display_name.startswith("RK3588 edited")


def test_unreadable_cache_is_ignored(tmp_path, monkeypatch):
    for path in platforms.DATA_DIR.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "platforms.marshal").write_bytes(b"\x00garbage")
    assert _fresh(monkeypatch, tmp_path)["rk3588"].npu_cores == 3
