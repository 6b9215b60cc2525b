"""Skipping work that is already done: a pack is rebuilt only when something it is made from
has changed.

The key of a pack is a hash of every file of its game folder, the shared templates, the
engine itself (its code, data and catalogs) and the options it is built with. It is stored in
the pack's manifest; a build whose key matches the manifest beside an existing PDF has nothing
to do. Output is byte-for-byte deterministic, so a skipped build and a rebuilt one are alike.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from generator.spec.gamefolders import SHARED_TEMPLATES

ENGINE = Path(__file__).resolve().parent


def _hash_tree(digest: hashlib._Hash, folder: Path, skip: tuple[str, ...] = ()) -> None:
    if not folder.is_dir():
        return
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        if any(part in skip for part in path.relative_to(folder).parts):
            continue
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")


@cache
def engine_key() -> str:
    """A hash of the engine's own files: a new version invalidates every pack."""
    digest = hashlib.sha256()
    _hash_tree(digest, ENGINE, skip=("__pycache__",))
    _hash_tree(digest, SHARED_TEMPLATES)
    return digest.hexdigest()


def pack_key(game_root: Path, settings: dict) -> str:
    """The key of a pack: its game's files, the engine and the build settings."""
    digest = hashlib.sha256(engine_key().encode())
    _hash_tree(digest, game_root, skip=("__pycache__",))
    digest.update(json.dumps(settings, sort_keys=True).encode())
    return digest.hexdigest()


def up_to_date(folder: Path, game: str, key: str) -> bool:
    """Whether the pack in ``folder`` was built from exactly this key and is still there."""
    manifest = folder / "manifest.json"
    if not (folder / f"{game}.pdf").is_file() or not manifest.is_file():
        return False
    try:
        return json.loads(manifest.read_text(encoding="utf-8")).get("inputs") == key
    except (OSError, ValueError):
        return False
