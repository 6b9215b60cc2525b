"""Work that splits (games; one game's designs) spread over the cores in forked workers.

The workers are forked from the process that has already loaded the games, so nothing but an
item's index goes to a worker and only its result comes back. Items are handed out heaviest
first, which keeps the cores busy to the end; equal shares can have this process take one
itself. Each result depends on its item alone, so the output is the same byte for byte
however the work was spread. Where fork is missing (Windows, macOS's default), in a worker,
or with one item or one core (``PNP_JOBS=1``), the work runs in this process.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from generator.errors import WorkerLost
from generator.output import atomic

if TYPE_CHECKING:  # the pool's modules are loaded when a map first forks (~20 ms of imports)
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
R = TypeVar("R")


@dataclass
class _Process:
    """This process's part in spreading work, in one place (forked workers inherit it, and
    a worker's signal handler reads it): the jobs and items of the maps under way, whether
    it is a forked worker, how many of its own shares it is doing beside its workers, and
    whether it is running a job (not waiting for one)."""

    work: list[tuple[Callable, Sequence]] = field(default_factory=list)
    worker: bool = False
    busy: int = 0
    running: int = 0


PROCESS = _Process()


def cores() -> int:
    """The cores this process may run on (PNP_JOBS overrides: 1 turns forking off)."""
    wanted = os.environ.get("PNP_JOBS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cores_asked() -> bool:
    """Whether PNP_JOBS names how many cores to use (else work that costs CPU to split is
    kept in one process)."""
    wanted = os.environ.get("PNP_JOBS", "")
    return wanted.isdigit() and int(wanted) > 0


def can_fork() -> bool:
    """Whether ``map_forked`` may fork here: Linux, not in a worker, and not while this
    process does its own share beside workers (the cores are taken)."""
    return sys.platform == "linux" and not in_worker() and not PROCESS.busy


def in_worker() -> bool:
    """Whether this is a forked worker (which must not draw progress bars or prompt)."""
    return PROCESS.worker


def _start_worker(parent: int) -> None:
    PROCESS.worker = True
    atomic.adopt_owner(parent)
    signal.signal(signal.SIGINT, _interrupted)
    _die_with(parent)


def _die_with(parent: int) -> None:
    """Have the kernel end this worker when the build process that forked it ends, however
    it ends (kill -9 included): else workers live on, holding memory and the output pipe."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the pool's own checks remain
        return
    if os.getppid() != parent:  # the build ended before the request was in place
        os._exit(1)


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C in a worker: stop the job at hand (the build hears of it and cleans up), or,
    waiting for work, leave quietly instead of printing multiprocessing's traceback."""
    if PROCESS.running:
        raise KeyboardInterrupt
    raise SystemExit(1)


def _in_turn(
    job: Callable[[T], R],
    items: Sequence[T],
    abandon: Callable[[R], None] | None,
    finished: Callable[[int], None] | None = None,
) -> list[R]:
    """The items one after another in this process, abandoning the finished on failure."""
    results: list[R] = []
    try:
        for index, item in enumerate(items):
            results.append(job(item))
            if finished is not None:
                finished(index)
    except BaseException:
        if abandon is not None:
            for result in results:
                abandon(result)
        raise
    return results


def _abandon(
    pool: ProcessPoolExecutor, futures: dict[int, Future], abandon: Callable | None
) -> None:
    """Start nothing more, wait for the workers to stop (on Ctrl-C they are interrupted
    too), and hand the results already finished to ``abandon``."""
    pool.shutdown(wait=True, cancel_futures=True)
    if abandon is None:
        return
    for future in futures.values():
        if future.done() and not future.cancelled() and future.exception() is None:
            abandon(future.result())


def _here(job: Callable[[T], R], item: T) -> R:
    PROCESS.busy += 1
    try:
        return job(item)
    finally:
        PROCESS.busy -= 1


def _run(index: int) -> object:
    job, items = PROCESS.work[-1]
    PROCESS.running += 1
    try:
        return job(items[index])
    finally:
        PROCESS.running -= 1


def map_forked(
    job: Callable[[T], R],
    items: Sequence[T],
    weight: Callable[[T], float] | None = None,
    here: bool = False,
    abandon: Callable[[R], None] | None = None,
    finished: Callable[[int], None] | None = None,
) -> list[R]:
    """``[job(item) for item in items]``, run in forked workers when there are several items
    and cores; ``weight`` estimates an item's work so the heaviest start first. With
    ``here`` (for as many equal items as cores) this process does the first item itself
    while the workers do the rest, so its result needs no copying back. When the map fails
    or is interrupted, ``abandon`` is given each result that was already finished (to remove
    what it wrote, say). ``finished`` hears of each item done (its index), as it is done."""
    workers = min(len(items), cores())
    if workers < 2 or not can_fork():
        return _in_turn(job, items, abandon, finished)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    order = sorted(range(len(items)), key=lambda i: -weight(items[i]) if weight else i)
    mine = order[:1] if here else []
    PROCESS.work.append((job, items))
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(
        workers - len(mine), mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
    )
    futures: dict[int, Future] = {}
    try:
        futures.update({i: pool.submit(_run, i) for i in order if i not in mine})
        done = {i: _here(job, items[i]) for i in mine}
        if finished is not None:
            indices = {future: i for i, future in futures.items()}
            for i in [*done, *(indices[f] for f in as_completed(futures.values()))]:
                finished(i)
        results = [done[i] if i in done else futures[i].result() for i in range(len(items))]
    except BrokenProcessPool:
        _abandon(pool, futures, abandon)
        raise WorkerLost(
            "a worker process stopped before it finished (killed, or out of memory?); "
            "nothing was put in place. PNP_JOBS=1 works in one process."
        ) from None
    except BaseException:  # Ctrl-C or a failed job: start nothing more
        _abandon(pool, futures, abandon)
        raise
    finally:
        PROCESS.work.pop()
    pool.shutdown()
    return results
