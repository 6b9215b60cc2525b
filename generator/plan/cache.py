"""Skipping work that is already done: a pack is rebuilt only when something it is made from
has changed.

The key of a pack is a hash of every file of its game folder, the shared templates, the
engine itself (its code, data and catalogs) and the options it is built with. It is stored in
the pack's manifest; a build whose key matches the manifest beside an existing PDF has nothing
to do. Output is byte-for-byte deterministic, so a skipped build and a rebuilt one are alike.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from generator.model.gamefolders import OWN_OUTPUT, SHARED_TEMPLATES
from generator.output.atomic import file_digest, shared_lock
from generator.paths import PathRefused, chunks, read_text

ENGINE = Path(__file__).resolve().parents[1]  # the generator package
MAX_HASHED = 64_000_000  # bytes: a larger file counts by its size and time, not its content
MAX_HASHED_TOTAL = 256_000_000  # bytes hashed in one tree: the files past it count likewise
MAX_DIGESTS = 50_000  # files of one tree whose hash is remembered (past it: forgotten)
MAX_DIGEST_FILES = 256  # trees whose hashes are remembered; the least recently saved go first
DIGESTS_VERSION = 2
LEGACY_DIGESTS = "digests.json"  # the shared file of every tree's hashes, before version 2
RACY_NS = 2_000_000_000  # a file changed this recently is read again next time


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
    """Feed one file to ``digest`` (the hash of its content when it is at most ``left``
    bytes, read again only when its size or times changed); the bytes counted as hashed."""
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
            content, hashed = _content(root, path, info)
            digest.update(b"sha256 " + content.encode())
    except PathRefused as exc:  # swapped for a link or a pipe meanwhile: the loader says so
        digest.update(f"refused {exc}".encode())
    except OSError as exc:  # unreadable: its error is the loader's to report
        digest.update(f"unreadable {exc.errno}".encode())
    digest.update(b"\0")
    return hashed


def _content(root: Path, path: Path, info: os.stat_result) -> tuple[str, int]:
    """The SHA-256 of a regular file's content and its size: remembered by its size, times
    and inode (``digests``), else read through the gate."""
    stamp = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
    known = digests(root).get(str(path))
    if known is not None and known[:4] == stamp:
        return known[4], info.st_size
    content = hashlib.sha256()
    hashed = 0
    for piece in chunks(root, path, MAX_HASHED):
        content.update(piece)
        hashed += len(piece)
    found = content.hexdigest()
    # a file changed within the clock's last moments may change again with the same times
    if hashed == info.st_size and time.time_ns() - info.st_mtime_ns > RACY_NS:
        digests(root).put(str(path), [*stamp, found])
    return found, hashed


class Digests:
    """The content hashes of one tree's files already read (a game folder, the engine), by
    path, with the size, times and inode they had: kept in a file of the user's cache between
    commands, one file a tree, so that a build with nothing to do reads no unchanged file,
    and loads the hashes of its own trees only, however many games were built before. A
    file whose size, modification or status-change time or inode differs is read again (an
    edit that puts the modification time back still changes the status-change time)."""

    def __init__(self, path: Path | None):
        self.path = path
        self.known: dict[str, list] = {}
        self.changed = False
        if path is not None:
            try:
                loaded = json.loads(read_text(path.parent, path, "cache"))
                if isinstance(loaded, dict) and loaded.get("version") == DIGESTS_VERSION:
                    self.known = loaded["files"]
            except (OSError, ValueError, KeyError, TypeError):
                pass  # none yet, or unreadable: everything is read

    def get(self, name: str) -> list | None:
        found = self.known.get(name)
        return found if isinstance(found, list) and len(found) == 5 else None

    def put(self, name: str, entry: list) -> None:
        if len(self.known) >= MAX_DIGESTS:
            self.known.clear()
        self.known[name] = entry
        self.changed = True

    def save(self) -> None:
        """Write what was learnt (atomically; a failure only costs reading again), then
        forget the trees saved least recently past ``MAX_DIGEST_FILES``."""
        if not self.changed or self.path is None:
            return
        data = json.dumps({"version": DIGESTS_VERSION, "files": self.known})
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(data, encoding="utf-8")
            os.replace(temporary, self.path)
            self.changed = False
            _forget_old(self.path.parent)
        except OSError:
            temporary.unlink(missing_ok=True)


def _forget_old(folder: Path) -> None:
    """Remove the digest files of ``folder`` saved least recently, past ``MAX_DIGEST_FILES``
    (a tree built once, in a folder since deleted, is never asked for again)."""
    with os.scandir(folder) as listing:
        kept = [e for e in listing if e.name.endswith(".json") and e.is_file(follow_symlinks=False)]
    if len(kept) > MAX_DIGEST_FILES:
        kept.sort(key=lambda entry: entry.stat(follow_symlinks=False).st_mtime_ns)
        for entry in kept[: len(kept) - MAX_DIGEST_FILES]:
            Path(entry.path).unlink(missing_ok=True)


@cache
def _drop_shared(path: Path) -> None:
    """Remove the one file of every tree's hashes that versions before DIGESTS_VERSION 2
    kept in the user's cache (up to a few MB no command reads any more), once a process."""
    with contextlib.suppress(OSError):  # a folder, no permission: it is left where it was
        path.unlink(missing_ok=True)


@cache
def digests(root: Path) -> Digests:
    """This process's remembered content hashes of the files under ``root``: a file named
    by a hash of the root's path, in the folder PNP_DIGESTS names (empty: none kept), else
    in the user's cache."""
    named = os.environ.get("PNP_DIGESTS")
    if named is not None and not named:
        return Digests(None)
    if named is not None:
        folder = Path(named)
    else:
        import platformdirs  # only when a build checks its packs

        folder = platformdirs.user_cache_path("pnp") / "digests"
        _drop_shared(folder.parent / LEGACY_DIGESTS)
    name = hashlib.sha256(os.fsencode(root)).hexdigest()[:24]
    return Digests(folder / f"{name}.json")


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
    for root in (ENGINE, SHARED_TEMPLATES, game_root):
        digests(root).save()
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
