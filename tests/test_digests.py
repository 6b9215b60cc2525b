"""A build with nothing to do reads no unchanged file: each file's hash is remembered with
its size, times and inode (in PNP_DIGESTS, else the user's cache, one file a tree), and read
again only when one of those changed; an edit is always seen, even one that puts the file's
size and modification time back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.plan import cache

OLD_NS = 1_600_000_000 * 10**9  # 2020: long past the racy window


@pytest.fixture
def remembered(tmp_path, monkeypatch):
    """This test's own digests folder, and a count of the files read through the gate."""
    monkeypatch.setenv("PNP_DIGESTS", str(tmp_path / "digests"))
    cache.digests.cache_clear()
    cache.engine_key()  # once per process: the game's files are what is counted
    read: list[Path] = []
    chunks = cache.chunks

    def counted(root, path, limit):
        read.append(path)
        return chunks(root, path, limit)

    monkeypatch.setattr(cache, "chunks", counted)
    yield read
    cache.digests.cache_clear()


def _game(root: Path) -> Path:
    (root / "templates").mkdir(parents=True)
    for name, text in {"game.yaml": "title: T\n", "templates/face.svg.j2": "<svg/>\n"}.items():
        (root / name).write_text(text, encoding="utf-8")
        os.utime(root / name, ns=(OLD_NS, OLD_NS))
    return root


def test_unchanged_files_are_not_read_again_in_a_later_command(tmp_path, remembered):
    game = _game(tmp_path / "g")
    first = cache.pack_key(game, {})
    assert len(remembered) == 2
    cache.digests.cache_clear()  # a new command: what was learnt comes from the file
    remembered.clear()
    assert cache.pack_key(game, {}) == first
    assert remembered == []


def test_an_edit_that_keeps_size_and_modification_time_is_seen(tmp_path, remembered):
    game = _game(tmp_path / "g")
    first = cache.pack_key(game, {})
    spec = game / "game.yaml"
    spec.write_text("title: U\n", encoding="utf-8")  # the same size
    os.utime(spec, ns=(OLD_NS, OLD_NS))  # and the same time, put back
    cache.digests.cache_clear()
    remembered.clear()
    assert cache.pack_key(game, {}) != first
    assert remembered == [spec]  # that file alone is read again


def test_the_key_is_the_same_whether_a_hash_was_remembered_or_not(tmp_path, remembered):
    game = _game(tmp_path / "g")
    learnt = cache.pack_key(game, {})
    remembered_key = cache.pack_key(game, {})
    for kept in (tmp_path / "digests").iterdir():
        kept.unlink()
    cache.digests.cache_clear()
    assert learnt == remembered_key == cache.pack_key(game, {})


def test_a_file_changed_just_now_is_read_again_next_time(tmp_path, remembered):
    game = _game(tmp_path / "g")
    (game / "game.yaml").write_text("title: V\n", encoding="utf-8")  # its time is now
    cache.pack_key(game, {})
    cache.digests.cache_clear()
    remembered.clear()
    cache.pack_key(game, {})
    assert remembered == [game / "game.yaml"]


def test_a_broken_digests_file_only_costs_reading_again(tmp_path, remembered):
    game = _game(tmp_path / "g")
    first = cache.pack_key(game, {})
    for kept in (tmp_path / "digests").iterdir():
        kept.write_text("{not json", encoding="utf-8")
    cache.digests.cache_clear()
    remembered.clear()
    assert cache.pack_key(game, {}) == first
    assert len(remembered) == 2


def test_a_build_loads_the_hashes_of_its_own_trees_only(tmp_path, remembered, monkeypatch):
    """Each tree's hashes are a file of their own (the engine's, the shared templates', each
    game's), so a build loads its own, however many other games were built before: after a
    hundred games, the next command reads none of their files."""
    for n in range(100):
        cache.pack_key(_game(tmp_path / f"other-{n}"), {})
    others = set((tmp_path / "digests").iterdir())
    assert len(others) >= 100  # a hundred games (and the engine's trees, if hashed here)
    cache.digests.cache_clear()
    loaded: list[Path] = []
    read_text = cache.read_text

    def counted(root: Path, path: Path, kind: str) -> str:
        loaded.append(path)
        return read_text(root, path, kind)

    monkeypatch.setattr(cache, "read_text", counted)
    game = _game(tmp_path / "g")
    cache.pack_key(game, {})
    own = {cache.digests(root).path for root in (cache.ENGINE, cache.SHARED_TEMPLATES, game)}
    assert loaded and set(loaded) <= own and not set(loaded) & (others - own), loaded


def test_the_trees_saved_least_recently_are_forgotten_past_the_limit(
    tmp_path, remembered, monkeypatch
):
    """Past ``MAX_DIGEST_FILES`` trees, the files saved least recently are removed (a game
    built once in a folder since deleted): the folder stays bounded."""
    monkeypatch.setattr(cache, "MAX_DIGEST_FILES", 10)
    for n in range(20):
        cache.pack_key(_game(tmp_path / f"other-{n}"), {})
    files = list((tmp_path / "digests").iterdir())
    assert len(files) == 10
    newest = cache.digests(tmp_path / "other-19").path
    assert newest in files


def test_the_engine_key_of_a_test_worker_is_the_one_a_new_process_takes(monkeypatch):
    """The engine's key is kept for the process: a worker that took it while a test had a
    limit of the hashing patched built every later pack with a key no command agreed with
    (conftest takes it first). A patched limit does not reach the kept key."""
    monkeypatch.setattr(cache, "MAX_HASHED_TOTAL", 10)
    code = "from generator.plan import cache; print(cache.engine_key())"
    fresh = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert fresh.stdout.strip() == cache.engine_key()


def test_the_shared_file_of_an_older_version_is_removed_from_the_users_cache(tmp_path, monkeypatch):
    """Before one file per tree, every tree's hashes were one ``digests.json`` in the user's
    cache, rewritten whole by every command: a command now removes it, and keeps its own."""
    monkeypatch.delenv("PNP_DIGESTS")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    legacy = tmp_path / "cache" / "pnp" / cache.LEGACY_DIGESTS
    legacy.parent.mkdir(parents=True)
    legacy.write_text('{"version": 1, "files": {}}', encoding="utf-8")
    cache.digests.cache_clear()
    cache._drop_shared.cache_clear()
    try:
        cache.pack_key(_game(tmp_path / "g"), {})
        assert not legacy.exists()
        assert cache.digests(tmp_path / "g").path.parent == legacy.parent / "digests"
        assert cache.digests(tmp_path / "g").path.is_file()
    finally:
        cache.digests.cache_clear()
