"""Paths named in specs, and the one rule for every file the engine opens or writes: resolved
to its real path (links in its folders included), it must lie inside the folder it belongs to
(the game folder, the package's own data, or for writes the output folder), and only regular
files are read: a link out, a FIFO or a device is refused, whatever named it (a spec, a
template, an include, a catalog, a font, a data file or a linked folder).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class PathRefused(ValueError):
    """A file the engine will not open: what is wrong with it, in the user's terms."""


def relative_problem(name: str) -> str | None:
    """Why ``name`` cannot be used as a path inside a game folder, or None if it can."""
    parts = name.replace("\\", "/").split("/")
    if not name.strip():
        return "is empty"
    if name.startswith("/") or ":" in parts[0]:
        return "is absolute or a URL; give a path relative to the folder"
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
