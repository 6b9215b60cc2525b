"""Waiting in tests: on the condition a test needs (a state that holds its writes, a line a
child prints, a file's content), never on a fixed sleep or an allowance of wall-clock time.
``PATIENCE`` is a safety cap only, so a hung test still ends: generous enough that a busy
machine never reaches it while the condition is on its way."""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from pathlib import Path

PATIENCE = 600.0  # seconds: the cap of every wait, far past what any condition needs
STEP = 0.02  # seconds between two looks at a condition


def until(check: Callable[[], object], seconds: float = PATIENCE, step: float = STEP) -> object:
    """``check()`` once it is true; AssertionError only past the safety cap."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"still not so after the safety cap of {seconds:g} s")
        time.sleep(step)


def stamp(path: Path) -> list[int]:
    """A file's size and modification time in nanoseconds, as ``pnp serve`` states them."""
    info = path.stat()
    return [info.st_size, info.st_mtime_ns]


def children_cpu() -> float:
    """CPU seconds (user and system) every child this process has waited for has used: the
    difference over a ``subprocess.run`` is what that command cost, however busy the
    machine (its wall-clock time is not)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime
