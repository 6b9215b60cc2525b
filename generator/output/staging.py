"""A folder of exported files written as one unit: filled under a temporary name beside its
target, then put in the target's place whole, so that an export that fails half-way leaves the
previous folder as it was, and one that succeeds leaves no file of an older export behind."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from generator.output.atomic import (
    OLD_MARK,
    TMP_MARK,
    flush_file,
    owner_pid,
    sweep_stale,
    temp_path,
)


@contextlib.contextmanager
def replacing_folder(target: Path) -> Iterator[Path]:
    """Yield an empty folder beside ``target`` to fill; when the block ends without an error
    it takes ``target``'s place (the old folder removed), else it is removed and ``target``
    stays untouched."""
    target.parent.mkdir(parents=True, exist_ok=True)
    sweep_stale(target.parent, keep_own=True)  # what a killed export left half-replaced
    tmp = temp_path(target)
    if tmp.is_symlink():  # never filled through a link planted under its name
        tmp.unlink()
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
        _flush(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    aside = target.with_name(f".{target.name}{OLD_MARK}{TMP_MARK}{owner_pid()}")
    shutil.rmtree(aside, ignore_errors=True)
    if target.exists():
        os.replace(target, aside)
    try:
        os.replace(tmp, target)
    except BaseException:
        if aside.exists():
            os.replace(aside, target)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(aside, ignore_errors=True)


def _flush(folder: Path) -> None:
    """Every file under ``folder`` on disk before the folder is put in place."""
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            flush_file(path)
