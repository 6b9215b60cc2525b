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
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from generator.model.gamefolders import OWN_OUTPUT, SHARED_TEMPLATES
from generator.output.atomic import file_digest, shared_lock
from generator.paths import PathRefused, chunks, read_text

ENGINE = Path(__file__).resolve().parents[1]  # the generator package
MAX_HASHED = 64_000_000  # bytes: a larger file counts by its size and time, not its content
MAX_HASHED_TOTAL = 256_000_000  # bytes hashed in one tree: the files past it count likewise


def _hash_tree(digest: hashlib._Hash, folder: Path, skip: tuple[str, ...] = ()) -> None:
    """Feed ``folder``'s files to ``digest``, in a fixed order: each regular file's name and
    content (read in chunks through the gate; past ``MAX_HASHED``, or once the tree has had
    ``MAX_HASHED_TOTAL`` bytes, its size and time instead), a link by where it points (never
    followed: what it points at is refused by the loader anyway), anything else (a pipe, a
    device) by its name alone. Nothing is read whole, nothing blocks, nothing recurses."""
    if not folder.is_dir():
        return
    left = MAX_HASHED_TOTAL
    for path in _entries(folder, skip):
        relative = path.relative_to(folder).as_posix()
        digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
        left -= _hash_file(digest, folder, path, left)


def _entries(folder: Path, skip: tuple[str, ...]) -> Iterator[Path]:
    """Every entry under ``folder`` but its folders (files, links, pipes ...), each folder's
    sorted by name before the folders inside it; links to folders are entries, not followed;
    walked with a list of folders left, so a tree thousands of levels deep is no recursion."""
    left = [folder]
    while left:
        top = left.pop()
        try:
            with os.scandir(top) as listing:
                found = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            continue
        inner = []
        for entry in found:
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in skip:
                    inner.append(Path(entry.path))
            else:
                yield Path(entry.path)
        left.extend(reversed(inner))


def _hash_file(digest: hashlib._Hash, root: Path, path: Path, left: int) -> int:
    """Feed one file to ``digest`` (its content when it is at most ``left`` bytes); the
    bytes hashed."""
    hashed = 0
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            digest.update(b"link " + os.fsencode(os.readlink(path)))
        elif not stat.S_ISREG(info.st_mode):
            digest.update(b"special")
        elif info.st_size > min(MAX_HASHED, left):
            digest.update(f"large {info.st_size} {info.st_mtime_ns}".encode())
        else:
            for piece in chunks(root, path, MAX_HASHED):
                digest.update(piece)
                hashed += len(piece)
    except PathRefused as exc:  # swapped for a link or a pipe meanwhile: the loader says so
        digest.update(f"refused {exc}".encode())
    except OSError as exc:  # unreadable: its error is the loader's to report
        digest.update(f"unreadable {exc.errno}".encode())
    digest.update(b"\0")
    return hashed


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
            data = json.loads(read_text(folder, manifest, "manifest"))
            return data.get("inputs") == key and data.get("pdf_sha256") == file_digest(pdf)
        except (OSError, ValueError):  # a refused or broken manifest: build again
            return False
