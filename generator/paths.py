"""Paths named in specs, and the one gate every byte the engine reads goes through: resolved
to its real path (links in its folders included), a file must lie inside the folder it belongs
to (the game folder, the package's own data, the folder pnp runs in, the user's config
folder), be a regular file (a link out, a FIFO or a device is refused, whatever named it: a
spec, a template, an include, a catalog, a font, a picture, a data file or a linked folder)
and be no larger than the limit for its kind (``limits.FILE_BYTES``), all checked on the open
file before a byte is read. ``read_bytes`` and ``read_text`` are that gate.

Writes have one too: every file the engine writes is first made here, new, by ``create_new``
(``O_CREAT|O_EXCL|O_NOFOLLOW``: a link planted under the temporary name is removed, never
written through), filled, and renamed over its target (``output.atomic`` for packs and
exports, ``write_replacing`` for a profile).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from generator.limits import FILE_BYTES

# opened without following a link at the last step (the real path was checked already), and
# without waiting: a FIFO opened for reading would block until a writer comes
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_READ_FLAGS |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
# a file written: always a new one, never through a link
_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_NEW_FLAGS |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class PathRefused(ValueError):
    """A file the engine will not open: what is wrong with it, in the user's terms."""


class TooLarge(PathRefused):
    """A file larger than its kind may be: its ``size`` and the ``limit``, for a caller that
    says it in its own words."""

    def __init__(self, size: int, limit: int, kind: str):
        article = "an" if kind[0] in "aeiou" else "a"
        super().__init__(f"is {size:,} bytes; {article} {kind} file may be {limit:,} at most")
        self.size = size
        self.limit = limit


# what relative_problem lets by, as a JSON Schema pattern (ECMA 262): not blank, not absolute
# nor a URL, no '..' part, no control character (tests/test_schema_forms.py holds them equal)
RELATIVE_PATTERN = (
    r"^(?=[\s\S]*\S)(?!/)(?![^/\\]*:)(?!(?:[\s\S]*[/\\])?\.\.(?:[/\\]|$))[^\u0000-\u001f]*$"
)


def relative_problem(name: str) -> str | None:
    """Why ``name`` cannot be used as a path inside a game folder, or None if it can."""
    parts = name.replace("\\", "/").split("/")
    if not name.strip():
        return "is empty"
    if "://" in name:
        return (
            "is a web address; pnp reads no file from the web: save it in the game folder "
            "(e.g. art/) and name it by its path there"
        )
    if name.startswith("/") or ":" in parts[0]:
        return (
            "is an absolute path; name the file by its path inside the game folder (e.g. "
            "art/dragon.png), copying it there first if it is elsewhere"
        )
    if ".." in parts:
        return "uses '..'; files must stay inside the folder"
    if any(ord(c) < 32 for c in name):
        return "holds a control character"
    return None


def within(root: Path, path: Path) -> Path:
    """The real path of ``path``, refused unless it lies inside the real path of ``root``
    (a link anywhere on the way, to a file or a folder, is followed before the check)."""
    try:
        real_root = root.resolve()
        real = path.resolve()
    except (OSError, RuntimeError):  # a loop of links
        raise PathRefused("is a loop of links") from None
    if real != real_root and not real.is_relative_to(real_root):
        raise PathRefused("leads outside its folder (a link?); copy the file in")
    return real


def regular_file(root: Path, path: Path) -> Path:
    """The real path of a file to read: inside ``root`` and a regular file (not a folder, a
    FIFO or a device, which could block a build or never end)."""
    real = within(root, path)
    try:
        mode = real.stat().st_mode
    except FileNotFoundError:
        raise PathRefused("not found") from None
    except OSError as exc:
        raise PathRefused(f"cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        raise PathRefused("is not a regular file (a folder, a pipe or a device)")
    if not os.access(real, os.R_OK):
        raise PathRefused("cannot be read (no permission)")
    return real


def writable_target(root: Path, path: Path) -> Path:
    """A file to write (replaced atomically): its folder inside ``root``, and the file itself
    not a link (writing through one would write wherever it points)."""
    if path.is_symlink():
        raise PathRefused("is a link; the engine does not write through links")
    within(root, path.parent)
    return path


def _open(root: Path, path: Path, limit: int, kind: str) -> tuple[int, Path]:
    """A file descriptor of ``path`` (inside ``root``) and its real path, opened without
    following a last link or waiting on a pipe, checked to be a regular file of at most
    ``limit`` bytes."""
    real = within(root, path)
    try:
        fd = os.open(real, _READ_FLAGS)
    except FileNotFoundError:
        raise PathRefused("not found") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise PathRefused("is a link; copy the file in") from None
        raise PathRefused(f"cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise PathRefused("is not a regular file (a folder, a pipe or a device)")
        if info.st_size > limit:
            raise TooLarge(info.st_size, limit, kind)
    except BaseException:
        os.close(fd)
        raise
    return fd, real


def check(root: Path, path: Path, kind: str) -> Path:
    """The real path of a file of ``kind`` that would pass ``read_bytes``, checked on the open
    file and nothing read: for a file named now and read later (a template, at its render)."""
    fd, real = _open(root, path, FILE_BYTES[kind], kind)
    os.close(fd)
    return real


def read_bytes(root: Path, path: Path, kind: str) -> bytes:
    """The bytes of ``path``, a file of ``kind`` (a key of ``limits.FILE_BYTES``) that lies
    inside ``root``: ``PathRefused`` for a link out, a missing or unreadable file, anything but
    a regular file, or a file larger than its kind may be, before any of it is read."""
    limit = FILE_BYTES[kind]
    with os.fdopen(_open(root, path, limit, kind)[0], "rb") as handle, _read_error():
        data = handle.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise TooLarge(len(data), limit, kind)
    return data


def chunks(root: Path, path: Path, limit: int, size: int = 1 << 20) -> Iterator[bytes]:
    """The bytes of a file of at most ``limit`` bytes (checked as ``read_bytes`` does), in
    pieces of ``size``: for hashing a file without holding it whole. It stops at ``limit``
    should the file grow while it is read."""
    with os.fdopen(_open(root, path, limit, "hashed")[0], "rb") as handle:
        left = limit
        while left > 0:
            with _read_error():
                piece = handle.read(min(size, left))
            if not piece:
                break
            left -= len(piece)
            yield piece


@contextlib.contextmanager
def _read_error() -> Iterator[None]:
    """A read that fails on the disk (EIO, a vanished network share) as ``PathRefused`` in
    the user's terms, for the caller to say at the file: never a traceback."""
    try:
        yield
    except OSError as exc:
        raise PathRefused(
            f"cannot be read ({exc.strerror or exc}); copy it again or check the disk"
        ) from None


def read_text(root: Path, path: Path, kind: str, encoding: str = "utf-8") -> str:
    """The text of a file, through ``read_bytes``; ``UnicodeDecodeError`` (a ``ValueError``)
    when it is not in ``encoding``, for the caller to place at its line."""
    return read_bytes(root, path, kind).decode(encoding)


def create_new(path: Path) -> int:
    """A descriptor, open for writing, of ``path`` made anew as an empty regular file: what
    had its name (a file a killed run left, a link planted there) is removed first, not
    followed, and the file is created exclusively without following a link."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    return os.open(path, _NEW_FLAGS, 0o644)


def write_replacing(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: into a new temporary file beside it
    (``create_new``), flushed to disk, then renamed over ``path`` (a link of that name is
    replaced, never written through). ``OSError`` when the folder cannot be written."""
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with os.fdopen(create_new(temporary), "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
