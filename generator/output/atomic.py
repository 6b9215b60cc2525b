"""Atomic file writes: write beside the target under a temporary name, then rename.

A failed or interrupted build therefore leaves the previous file intact; leftovers from a
killed build are swept on the next run.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

TMP_MARK = ".tmp-"
_owner: list[int] = []  # set in forked workers: the build process their files belong to


def owner_pid() -> int:
    """The process temporary files are named for: this one, or the build that forked it (a
    worker's files must outlive the worker until that build commits them)."""
    return _owner[0] if _owner else os.getpid()


def adopt_owner(pid: int) -> None:
    """Name this (forked) process's temporary files for the build process ``pid``."""
    _owner[:] = [pid]


def temp_path(target: Path) -> Path:
    """A temporary name beside ``target``, unique to this build."""
    return target.with_name(f".{target.name}{TMP_MARK}{owner_pid()}")


@dataclass(frozen=True)
class Staged:
    """Files written in full and flushed to disk under temporary names, waiting to replace
    their targets (``commit``) or to be thrown away (``discard``); a forked build worker
    hands these to the parent, which commits only when every game has come out right."""

    temps: tuple[Path, ...]
    targets: tuple[Path, ...]
    created: tuple[Path, ...] = ()  # folders made for the targets, removed again on discard

    def commit(self) -> None:
        """Rename every file over its target, in the order given."""
        try:
            for tmp, target in zip(self.temps, self.targets, strict=True):
                os.replace(tmp, target)
        finally:
            self.discard()

    def discard(self) -> None:
        """Remove whatever temporary files are left, and the folders made for them if they
        are still empty."""
        for tmp in self.temps:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        for folder in self.created:
            with contextlib.suppress(OSError):
                folder.rmdir()


def _prepare(targets: list[Path]) -> Staged:
    created: list[Path] = []
    for target in targets:
        missing = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
        target.parent.mkdir(parents=True, exist_ok=True)
        created += [p for p in missing if p not in created]
    return Staged(tuple(temp_path(t) for t in targets), tuple(targets), tuple(created))


def _flush(paths: tuple[Path, ...]) -> None:
    for path in paths:
        with open(path, "rb+") as handle:
            os.fsync(handle.fileno())


def stage_all(targets: list[Path], write: Callable[[tuple[Path, ...]], None]) -> Staged:
    """Call ``write`` with a temporary path for each target, then flush them to disk; on any
    failure nothing is left behind."""
    staged = _prepare(targets)
    try:
        write(staged.temps)
        _flush(staged.temps)
    except BaseException:
        staged.discard()
        raise
    return staged


@contextlib.contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``target`` atomically."""
    staged = _prepare([target])
    try:
        yield staged.temps[0]
        _flush(staged.temps)
    except BaseException:
        staged.discard()
        raise
    staged.commit()


def sweep_stale(folder: Path) -> None:
    """Remove temporary files that a killed build left behind (not our own live ones)."""
    if not folder.is_dir():
        return
    for leftover in folder.glob(f".*{TMP_MARK}*"):
        pid = leftover.name.rsplit(TMP_MARK, 1)[-1]
        if pid.isdigit() and int(pid) != owner_pid() and _alive(int(pid)):
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
