"""The work templates may do: CPU time and output per render, and per build in all.

Time is the CPU time of the thread that renders, never the wall clock: a render on a slow or
busy machine gets as much work done as on a quiet one. The timer is a watchdog thread, not
SIGALRM: it works in every thread (``pnp serve`` renders in worker threads) and leaves the
caller's own alarms alone. It reads each watched thread's CPU clock, sleeping no longer than
the CPU time that thread has left (a thread cannot use more CPU than time passes). When a
render passes its time, the watchdog raises ``RenderTimeout`` in the thread that renders (at
its next Python instruction: the C calls a template can make are bounded before they run, by
the sandbox), and again every ``REPEAT_SECONDS`` should something swallow it; whatever
happened inside, the render ends with ``RenderTimeout``.

A build (one command, or one preview of ``pnp serve``) shares one ``BuildBudget``, which
grows with the renders it makes: ``BUILD_SECONDS`` of CPU and ``BUILD_OUTPUT`` characters to
start with, and ``PIECE_SECONDS`` and ``PIECE_OUTPUT`` more for each render, so a 1,000-card
export gets 1,000 renders' worth. The style sheets of its art may take
``MAX_BUILD_SELECTOR_STEPS`` steps to match (each document's own limit is
``svg.css.MAX_SELECTOR_STEPS``: a sheet repeated on 500 cards would take minutes within it),
and the first render refused stops the rest (30 cards that each spin for their 5 s would take
minutes otherwise). Forked workers count in their own copy, as they do time and output.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import os
import threading
import time
from collections.abc import Iterator

RENDER_SECONDS = 5.0  # CPU seconds of one render
BUILD_SECONDS = 60.0  # CPU seconds every render of one build may take, to start with
PIECE_SECONDS = 0.5  # CPU seconds more for each render (the bundled games: ~0.05 each)
BUILD_OUTPUT = 200_000_000  # characters of SVG every render of one build may write...
PIECE_OUTPUT = 200_000  # ...and this many more for each render
# steps all the CSS cascades of one build's art may take together (about two minutes)
MAX_BUILD_SELECTOR_STEPS = 30_000_000
REPEAT_SECONDS = 0.5  # a timeout raised again this often until the render ends


class Budget(Exception):
    """A template asked for more than a render may take."""


class Stopped(Budget):
    """A render not made: an earlier one of the build was refused."""


class RenderTimeout(Budget):
    """Raised in a render's thread by the watchdog (a class: raised without arguments)."""

    def __str__(self) -> str:
        return self.args[0] if self.args else "the template used more than its CPU time"


def _cpu_clock(ident: int) -> int | None:
    """The CPU clock of thread ``ident`` (None where the system has none: the wall clock
    stands in)."""
    try:
        return time.pthread_getcpuclockid(ident)
    except (AttributeError, OSError):
        return None


def _read(clock_id: int | None) -> float:
    """Seconds on ``clock_id``: a thread's CPU time, or the monotonic clock for None."""
    return time.monotonic() if clock_id is None else time.clock_gettime(clock_id)


def thread_seconds() -> float:
    """The CPU time this thread has used (what a render's time is counted in)."""
    return time.thread_time()


class _Watchdog:
    """One thread that raises ``RenderTimeout`` in the threads whose render is overdue, each
    read on its own CPU clock."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._due: dict[int, float] = {}  # thread id -> its CPU time when the render is overdue
        self._clocks: dict[int, int | None] = {}  # thread id -> its CPU clock
        self._fired: set[int] = set()
        self._thread: threading.Thread | None = None
        self._wakes = 0.0  # the monotonic time the thread wakes next on its own (0: now)

    def start(self, seconds: float) -> float | None:
        """Watch this thread's render for ``seconds`` of its CPU time; the deadline of an
        outer render, kept for ``stop``."""
        ident = threading.get_ident()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="pnp-timer", daemon=True)
                self._thread.start()
            clock_id = self._clocks.setdefault(ident, _cpu_clock(ident))
            outer = self._due.get(ident)
            used = _read(clock_id)
            due = used + seconds
            self._due[ident] = min(due, outer) if outer is not None else due
            # a thread uses no more CPU than time passes: when the watchdog wakes on its own
            # before this render's CPU time can run out, it needs no notify (a switch to it)
            if time.monotonic() + self._due[ident] - used < self._wakes:
                self._lock.notify()
        return outer

    def stop(self, outer: float | None) -> bool:
        """Stop watching this thread's render (back to the outer one's deadline, if any);
        whether the render ran out of time. A timeout raised but not yet delivered is taken
        back, so none escapes past the render."""
        ident = threading.get_ident()
        with self._lock:
            fired = ident in self._fired
            if fired:
                self._fired.discard(ident)
                _raise_in(ident, None)
            if outer is None or fired:
                self._due.pop(ident, None)
                self._clocks.pop(ident, None)
            else:
                self._due[ident] = outer
        return fired

    def _run(self) -> None:
        """Fire at each overdue render; sleep as long as the least CPU time left (it cannot
        be used up sooner)."""
        with self._lock:
            while True:
                soonest: float | None = None
                for ident, due in list(self._due.items()):
                    try:
                        now = _read(self._clocks.get(ident))
                    except OSError:  # the thread is gone
                        self._due.pop(ident, None)
                        continue
                    if due <= now:
                        self._fired.add(ident)
                        due = self._due[ident] = now + REPEAT_SECONDS
                        _raise_in(ident, RenderTimeout)
                    left = due - now
                    soonest = left if soonest is None else min(soonest, left)
                # idle, it still wakes every RENDER_SECONDS, so a render started meanwhile
                # needs no notify
                sleep = RENDER_SECONDS if soonest is None else max(soonest, 0.001)
                self._wakes = time.monotonic() + sleep
                self._lock.wait(sleep)


def _raise_in(ident: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in thread ``ident`` at its next instruction (None: take back one
    raised and not yet delivered)."""
    target = ctypes.py_object(exception) if exception is not None else None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), target)


_watchdog = _Watchdog()


def _new_watchdog() -> None:
    """In a forked child: a watchdog of its own (the parent's thread is not there, and its
    lock may have been held at the fork)."""
    global _watchdog
    _watchdog = _Watchdog()


os.register_at_fork(after_in_child=_new_watchdog)


class BuildBudget:
    """What the renders of one build have taken so far (CPU seconds, characters), what they
    may take (growing with each render), and the first one refused."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.renders = 0
        self.seconds = 0.0
        self.output = 0
        self.selector_steps = 0
        self.refused: str | None = None

    @property
    def allowed_seconds(self) -> float:
        """The CPU seconds the build's renders may take together, as many as they are."""
        return BUILD_SECONDS + self.renders * PIECE_SECONDS

    @property
    def allowed_output(self) -> int:
        """The characters the build's renders may write together, as many as they are."""
        return BUILD_OUTPUT + self.renders * PIECE_OUTPUT

    def left(self) -> float:
        """Count a render begun; the CPU seconds it may take: its own, or what the build has
        left."""
        with self._lock:
            self.renders += 1
            allowed = self.allowed_seconds
            if self.refused is None and self.seconds >= allowed:
                self.refused = (
                    f"the build's templates used more than {allowed:g} s of CPU "
                    f"({self.renders - 1:,} renders)"
                )
            if self.refused is not None:  # one line per template, however many renders
                raise self._stopped(self.refused)
            return min(RENDER_SECONDS, allowed - self.seconds)

    @staticmethod
    def _stopped(refused: str) -> Stopped:
        return Stopped(
            f"not drawn: the build stopped at the first template that asked too much ({refused})"
        )

    def spend(self, seconds: float) -> None:
        with self._lock:
            self.seconds += seconds

    def write(self, characters: int) -> None:
        """Count output; past the build's limit, a Budget error."""
        with self._lock:
            self.output += characters
            if self.output > self.allowed_output:
                raise Budget(
                    f"the build's templates wrote more than {self.allowed_output:,} characters "
                    f"({self.renders:,} renders)"
                )

    def match(self, steps: int) -> None:
        """Count the steps a document's style sheets took; past the build's limit, the build
        is refused and a Budget error says why (``Stopped`` once it is refused)."""
        with self._lock:
            if self.refused is not None:
                raise self._stopped(self.refused)
            self.selector_steps += steps
            if self.selector_steps <= MAX_BUILD_SELECTOR_STEPS:
                return
        reason = (
            f"the style sheets of the build's art take more than {MAX_BUILD_SELECTOR_STEPS:,} "
            "steps to match in all"
        )
        self.refuse(reason)
        raise Budget(reason)

    def refuse(self, reason: str) -> None:
        """Stop the build's renders: one was refused."""
        with self._lock:
            if self.refused is None:
                self.refused = reason


_process = BuildBudget()  # a command's one build, unless a caller starts its own
_build: contextvars.ContextVar[BuildBudget | None] = contextvars.ContextVar("build", default=None)


def current() -> BuildBudget:
    """The budget of the build running here."""
    return _build.get() or _process


@contextlib.contextmanager
def new_build() -> Iterator[BuildBudget]:
    """Render the block's templates under a budget of their own (a preview, a rebuild)."""
    token = _build.set(BuildBudget())
    try:
        yield _build.get() or _process
    finally:
        _build.reset(token)


@contextlib.contextmanager
def timed() -> Iterator[None]:
    """Run the block (a render) within its CPU time: ``RenderTimeout`` once the render, or the
    build, has used its time; a render refused for any reason stops the build's others."""
    build = current()
    seconds = build.left()
    outer = _watchdog.start(seconds)
    started = thread_seconds()
    message = f"the template used more than {seconds:g} s of CPU"
    fired = raised = False
    try:
        yield
    except Stopped:
        raise
    except Budget as exc:
        if isinstance(exc, RenderTimeout) and not exc.args:  # raised by the watchdog
            exc.args = (message,)
        build.refuse(str(exc))
        raised = True
        raise
    finally:
        while True:  # a timeout delivered while stopping the watch: stop it again
            try:
                fired = _watchdog.stop(outer) or fired
                break
            except RenderTimeout:
                fired = True
        build.spend(thread_seconds() - started)
        if fired and not raised:  # the timeout was swallowed on the way: the render ends
            build.refuse(message)
            raise RenderTimeout(message)
