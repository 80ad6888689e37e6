"""Shipped data files parsed once per version: the kept copy is the file's parse, and never a stale one."""

from __future__ import annotations

import datetime as dt
import marshal
import os
import sys
import tomllib

import pytest

from deckstat import _shipped
from deckstat.i18n import catalogue, read_catalogue

PARSES: list[str] = []


def counting_toml(text: str) -> dict:
    PARSES.append(text)
    return tomllib.loads(text)


@pytest.fixture
def writes(monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    PARSES.clear()


def _kept(path):
    return list((path.parent / "__pycache__").glob(f"{path.name}.*.marshal"))


def test_a_file_is_parsed_once_then_read_back_equal(tmp_path, writes):
    path = tmp_path / "game.toml"
    path.write_text('name = "Jeu"\n[play]\nhand = 5\nlist = [1, 2.5, true, "é"]\n', encoding="utf-8")
    first = _shipped.parsed(path, counting_toml)
    second = _shipped.parsed(path, counting_toml)
    assert first == second == tomllib.loads(path.read_text(encoding="utf-8"))
    assert len(PARSES) == 1 and len(_kept(path)) == 1
    second["play"]["hand"] = 0  # each call's dict is the caller's own
    assert _shipped.parsed(path, counting_toml)["play"]["hand"] == 5


def test_a_changed_file_is_parsed_again(tmp_path, writes):
    path = tmp_path / "game.toml"
    path.write_text("hand = 5\n", encoding="utf-8")
    assert _shipped.parsed(path, counting_toml) == {"hand": 5}
    stat = path.stat()
    path.write_text("hand = 7\n", encoding="utf-8")  # the same size: the modification time tells them apart
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert _shipped.parsed(path, counting_toml) == {"hand": 7}
    assert len(PARSES) == 2


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\xe9\x00\x01", None])
def test_a_damaged_or_foreign_kept_copy_is_parsed_again(tmp_path, writes, content):
    path = tmp_path / "game.toml"
    path.write_text("hand = 5\n", encoding="utf-8")
    _shipped.parsed(path, counting_toml)
    kept = _kept(path)[0]
    kept.write_bytes(content if content is not None else marshal.dumps({"hand": 6}))
    assert _shipped.parsed(path, counting_toml) == {"hand": 5}
    assert _shipped.parsed(path, counting_toml) == {"hand": 5}
    assert len(PARSES) == 2  # parsed again once, and kept again


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    path = tmp_path / "game.toml"
    path.write_text("hand = 5\n", encoding="utf-8")
    assert _shipped.parsed(path, counting_toml) == {"hand": 5}
    assert not (tmp_path / "__pycache__").exists()


def test_what_marshal_cannot_write_is_returned_and_not_kept(tmp_path, writes):
    path = tmp_path / "game.toml"
    path.write_text("released = 2024-05-01\n", encoding="utf-8")
    assert _shipped.parsed(path, counting_toml) == {"released": dt.date(2024, 5, 1)}
    assert not _kept(path)


def test_a_read_only_folder_still_parses(tmp_path, writes):
    path = tmp_path / "game.toml"
    path.write_text("hand = 5\n", encoding="utf-8")
    (tmp_path / "__pycache__").write_text("a file where the folder would be", encoding="utf-8")
    assert _shipped.parsed(path, counting_toml) == {"hand": 5}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["__pycache__", "game.toml"]  # no partial file left


def test_the_french_catalogue_is_its_file_read():
    catalogue.cache_clear()
    try:
        text = _shipped.shipped_path("locales", "fr.toml").read_text(encoding="utf-8")
        assert catalogue("fr") == read_catalogue(text) == tomllib.loads(text)
    finally:
        catalogue.cache_clear()
