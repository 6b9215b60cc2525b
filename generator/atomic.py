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
    with replacing_all([target]) as (tmp,):
        yield tmp


@contextlib.contextmanager
def replacing_all(targets: list[Path]) -> Iterator[tuple[Path, ...]]:
    """Temporary paths for several files written together: only when every one is written
    and flushed to disk are they renamed over their targets, in the order given."""
    for target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
    temps = tuple(temp_path(t) for t in targets)
    try:
        yield temps
        for tmp in temps:
            with open(tmp, "rb+") as handle:
                os.fsync(handle.fileno())
        for tmp, target in zip(temps, targets, strict=True):
            os.replace(tmp, target)
    finally:
        for tmp in temps:
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
