"""Atomic file writes: write beside the target under a temporary name, then rename.

A failed or interrupted build therefore leaves the previous file intact; leftovers from a
killed build are swept on the next run.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

TMP_MARK = ".tmp-"


def temp_path(target: Path) -> Path:
    """A temporary name beside ``target``, unique to this process."""
    return target.with_name(f".{target.name}{TMP_MARK}{os.getpid()}")


@contextlib.contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``target`` atomically."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path(target)
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def sweep_stale(folder: Path) -> None:
    """Remove temporary files that a killed build left behind (not our own live ones)."""
    if not folder.is_dir():
        return
    for leftover in folder.glob(f".*{TMP_MARK}*"):
        pid = leftover.name.rsplit(TMP_MARK, 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and _alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            leftover.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
