"""Atomic file writes: write beside the target under a temporary name, then rename.

A failed or interrupted build therefore leaves the previous file intact. Temporary files are
made new by ``paths.create_new`` (``O_EXCL|O_NOFOLLOW``: a link planted under their name is
never written through), and the lock file is opened without following a link. Leftovers from
a killed build are swept at the start of the next command, and a commit cut short by
``kill -9`` (some files of a pack replaced, some not) is rolled back from the old files it
kept aside.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.paths import create_new

TMP_MARK = ".tmp-"
LOCK = ".pnp-lock"  # the lock file of a folder of packs
_LOCK_FLAGS = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
OLD_MARK = ".old"  # a target's previous file kept aside while a commit runs
_owner: list[int] = []  # set in forked workers: the build process their files belong to


def owner_pid() -> int:
    """The process temporary files are named for: this one, or the build that forked it (a
    worker's files must outlive the worker until that build commits them)."""
    return _owner[0] if _owner else os.getpid()


def adopt_owner(pid: int) -> None:
    """Name this (forked) process's temporary files for the build process ``pid``."""
    _owner[:] = [pid]


def file_digest(path: Path) -> str:
    """The SHA-256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


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
        """Put every file in place together or none of them: under the folder's lock (so
        builds running at once cannot mix their files), each target's old file is kept aside
        (a second link to it) before the new file takes its name, and if any step fails the
        targets replaced so far get their old files back."""
        done: list[tuple[Path, Path | None]] = []
        together = len(self.targets) > 1  # files that must match take the folder's lock
        try:
            with _locked(self.targets[0].parent) if together else contextlib.nullcontext():
                try:
                    # every old file kept aside before the first is replaced: a target still
                    # the same file as its aside tells a commit killed half-way (sweep_stale)
                    done.extend((target, _keep(target)) for target in self.targets)
                    for tmp, target in zip(self.temps, self.targets, strict=True):
                        os.replace(tmp, target)
                except BaseException:
                    _roll_back(done)
                    raise
                for _, aside in done:
                    if aside is not None:
                        with contextlib.suppress(OSError):
                            aside.unlink()
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


def _keep(target: Path) -> Path | None:
    """A second name for ``target``'s file (None when there is none), to bring it back if the
    commit fails: a hard link, so the target stays in place; moved, where links fail."""
    if not target.exists():
        return None
    aside = target.with_name(f".{target.name}{OLD_MARK}{TMP_MARK}{owner_pid()}")
    with contextlib.suppress(FileNotFoundError):
        aside.unlink()
    try:
        os.link(target, aside)
    except OSError:
        os.replace(target, aside)
    return aside


def _roll_back(done: list[tuple[Path, Path | None]]) -> None:
    """Undo a failed commit, latest first: each target gets its old file back (the one kept
    aside), or goes if it had none; a target never replaced just loses its second name."""
    for target, aside in reversed(done):
        with contextlib.suppress(OSError):
            if aside is None:
                target.unlink(missing_ok=True)
            elif target.exists() and os.path.samefile(target, aside):
                aside.unlink()
            else:
                os.replace(aside, target)


@contextlib.contextmanager
def _locked(folder: Path, exclusive: bool = True) -> Iterator[None]:
    """Hold the folder's lock (a lock file beside the packs, never a link followed) while the
    block runs: alone to commit, shared to read. Where file locks are missing, or a folder
    that cannot be written has no lock file to read it by, just run the block; ``OSError``
    when a commit cannot take the lock (the folder cannot be written)."""
    try:
        import fcntl
    except ImportError:  # not Unix
        yield
        return
    if not folder.is_dir():
        yield
        return
    fd = _open_lock(folder / LOCK, exclusive)
    if fd is None:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # releases the lock


def _open_lock(path: Path, exclusive: bool) -> int | None:
    """The lock file's descriptor: made if missing; for reading, opened read-only where it
    cannot be made (None when it is not there either: nobody can commit to such a folder)."""
    try:
        return os.open(path, _LOCK_FLAGS, 0o644)
    except OSError:
        if exclusive:
            raise
    try:
        return os.open(path, _READ_FLAGS)
    except OSError:
        return None


def shared_lock(folder: Path) -> contextlib.AbstractContextManager[None]:
    """Read a folder of packs while no commit runs in it."""
    return _locked(folder, exclusive=False)


def _prepare(targets: list[Path]) -> Staged:
    created: list[Path] = []
    for target in targets:
        missing = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
        target.parent.mkdir(parents=True, exist_ok=True)
        created += [p for p in missing if p not in created]
    temps = tuple(temp_path(t) for t in targets)
    for temp in temps:
        os.close(create_new(temp))  # the writers open it by name: a new regular file
    return Staged(temps, tuple(targets), tuple(created))


def _flush(paths: tuple[Path, ...]) -> None:
    for path in paths:
        flush_file(path)


def flush_file(path: Path) -> None:
    """A file written on disk (opened without following a link)."""
    fd = os.open(path, _READ_FLAGS)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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


def sweep_stale(folder: Path, keep_own: bool = False) -> None:
    """Remove temporary files that a killed build left behind (not those of a build still
    running, nor this process's own with ``keep_own``: files it is writing now), and put
    back the old files of a commit it left half-made."""
    if not folder.is_dir():
        return
    dead: dict[str, list[Path]] = {}
    for leftover in folder.glob(f".*{TMP_MARK}*"):
        pid = leftover.name.rsplit(TMP_MARK, 1)[-1]
        own = pid == str(owner_pid())
        if (own and keep_own) or (pid.isdigit() and not own and _alive(int(pid))):
            continue
        dead.setdefault(pid, []).append(leftover)
    for leftovers in dead.values():
        _restore(leftovers)
        for leftover in leftovers:
            with contextlib.suppress(OSError):
                if leftover.is_dir() and not leftover.is_symlink():
                    shutil.rmtree(leftover)
                else:
                    leftover.unlink()


def _restore(leftovers: list[Path]) -> None:
    """The old files one killed commit kept aside, put back if it stopped half-way: when a
    target is still the file kept aside (not replaced yet) or is missing, the commit did not
    finish, and every target it replaced gets its old file back."""
    pairs = []
    for leftover in leftovers:
        name = leftover.name.rsplit(TMP_MARK, 1)[0]
        if name.startswith(".") and name.endswith(OLD_MARK):
            pairs.append((leftover, leftover.with_name(name[1 : -len(OLD_MARK)])))
    unfinished = any(
        not target.exists() or (target.is_file() and os.path.samefile(aside, target))
        for aside, target in pairs
    )
    if not unfinished:
        return
    for aside, target in pairs:
        with contextlib.suppress(OSError):
            if target.exists() and os.path.samefile(aside, target):
                continue  # never replaced: the aside name goes with the sweep
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            os.replace(aside, target)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is running, asked of the OS without signalling it: on Windows
    ``os.kill`` does not test a process but ends it (TerminateProcess), so there the process
    is opened and its exit code read. The standard library does it, no dependency needed."""
    if os.name == "nt":
        import ctypes

        return _alive_on_windows(pid, ctypes.windll.kernel32)  # type: ignore[attr-defined]
    try:
        os.kill(pid, 0)  # signal 0 on POSIX: no signal sent, only whether it exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


STILL_ACTIVE = 259  # the exit code Windows reports for a process still running
_QUERY = 0x1000  # PROCESS_QUERY_LIMITED_INFORMATION: enough to read the exit code
_ACCESS_DENIED = 5  # ERROR_ACCESS_DENIED: the process exists but is not ours to open


def _alive_on_windows(pid: int, kernel32: Any) -> bool:
    """``_alive`` through kernel32's OpenProcess and GetExitCodeProcess; a process that
    cannot be asked is taken as running (its files are kept, never another build's lost)."""
    import ctypes

    handle = kernel32.OpenProcess(_QUERY, False, pid)
    if not handle:
        return bool(kernel32.GetLastError() == _ACCESS_DENIED)
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)
