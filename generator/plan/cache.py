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
import os
import stat
from functools import cache
from pathlib import Path

from generator.model.gamefolders import OWN_OUTPUT, SHARED_TEMPLATES
from generator.output.atomic import file_digest, shared_lock

ENGINE = Path(__file__).resolve().parents[1]  # the generator package
MAX_HASHED = 64_000_000  # bytes: a larger file counts by its size and time, not its content
CHUNK = 1 << 20


def _hash_tree(digest: hashlib._Hash, folder: Path, skip: tuple[str, ...] = ()) -> None:
    """Feed ``folder``'s files to ``digest``, in a fixed order: each regular file's name and
    content (read in chunks; past ``MAX_HASHED`` its size and time instead), a link by where
    it points (never followed: what it points at is refused by the loader anyway), anything
    else (a pipe, a device) by its name alone. Nothing is read whole, nothing blocks."""
    if not folder.is_dir():
        return
    for top, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        for name in sorted(files + [d for d in os.listdir(top) if _is_link_dir(top, d)]):
            path = Path(top, name)
            relative = path.relative_to(folder).as_posix()
            digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
            _hash_file(digest, path)


def _is_link_dir(top: str, name: str) -> bool:
    path = Path(top, name)
    return path.is_symlink() and path.is_dir()


def _hash_file(digest: hashlib._Hash, path: Path) -> None:
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            digest.update(b"link " + os.fsencode(os.readlink(path)))
        elif not stat.S_ISREG(info.st_mode):
            digest.update(b"special")
        elif info.st_size > MAX_HASHED:
            digest.update(f"large {info.st_size} {info.st_mtime_ns}".encode())
        else:
            with open(path, "rb") as handle:
                while chunk := handle.read(CHUNK):
                    digest.update(chunk)
    except OSError as exc:  # unreadable: its error is the loader's to report
        digest.update(f"unreadable {exc.errno}".encode())
    digest.update(b"\0")


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
    _hash_tree(digest, game_root, skip=("__pycache__", OWN_OUTPUT))
    digest.update(json.dumps(settings, sort_keys=True).encode())
    return digest.hexdigest()


def up_to_date(folder: Path, game: str, key: str) -> bool:
    """Whether the pack in ``folder`` was built from exactly this key and is whole: its
    manifest says so, and the PDF beside it is the one that manifest was written with (a
    build killed between the two renames, or two builds at once, could leave a mix)."""
    manifest = folder / "manifest.json"
    pdf = folder / f"{game}.pdf"
    with shared_lock(folder):
        if not pdf.is_file() or not manifest.is_file():
            return False
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
            return data.get("inputs") == key and data.get("pdf_sha256") == file_digest(pdf)
        except (OSError, ValueError):
            return False
