"""The budget a template renders under: Jinja2's sandbox (no attribute escapes, no imports),
with caps on what a stranger's template can make the engine do.

- ``*`` and ``**`` are checked before they run: a string or list repeated past
  ``MAX_ITEMS``, or a power past ``MAX_BITS`` bits, is refused (``'a' * 10**9`` would take
  gigabytes before any timer could stop it);
- ``range`` counts: one render may step through at most ``MAX_STEPS`` values in all, so
  nested loops over large ranges stop at once instead of running for hours;
- ``str.format`` and the ``%`` operator refuse field widths past ``MAX_WIDTH``; every filter
  refuses a number argument past ``MAX_ITEMS`` and a result longer than that;
- a render stops after ``RENDER_SECONDS`` (a timer, where the platform has one) and when its
  output passes ``MAX_OUTPUT`` characters.

Each refusal is a ``Budget`` error, which the renderer reports at the template's line.
"""

from __future__ import annotations

import contextlib
import functools
import math
import signal
import string
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

MAX_ITEMS = 1_000_000  # characters of a string, items of a list
MAX_BITS = 10_000  # a power's result: about 3,000 digits
MAX_STEPS = 1_000_000  # values all ranges of one render may step through
MAX_WIDTH = 10_000  # a field width in a format string
MAX_OUTPUT = 5_000_000  # characters of SVG one render may write
RENDER_SECONDS = 5.0


class Budget(Exception):
    """A template asked for more than a render may take."""


class _Meter(threading.local):
    steps = 0


_meter = _Meter()


def _size(value: object) -> int | None:
    """The length of a string, list or tuple (None for anything else)."""
    return len(value) if isinstance(value, str | list | tuple | bytes) else None


def _too_many(count: float) -> Budget:
    return Budget(f"that would make {count:,.0f} items; a template may make {MAX_ITEMS:,}")


class LimitedEnvironment(SandboxedEnvironment):
    """Jinja2's sandbox with the budget of this module."""

    intercepted_binops = frozenset(["*", "**", "%"])

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.globals["range"] = _range
        self.filters = {name: _guarded(f) for name, f in self.filters.items()}

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """``*``, ``**`` and ``%``, refused when their result would be too large."""
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                size = _size(seq)
                if size is not None and isinstance(n, int) and size * n > MAX_ITEMS:
                    raise _too_many(size * n)
        elif operator == "**" and isinstance(left, int) and isinstance(right, int):
            bits = abs(right) * math.log2(abs(left)) if abs(left) > 1 and right > 0 else 0
            if bits > MAX_BITS:
                raise Budget(f"{left} ** {right} has {bits:,.0f} bits; the limit is {MAX_BITS:,}")
        elif operator == "%" and isinstance(left, str):
            values = right if isinstance(right, tuple) else (right,)
            if any(isinstance(v, int) and abs(v) > MAX_WIDTH for v in values) and "*" in left:
                raise Budget(f"a field width above {MAX_WIDTH:,}")
        return super().call_binop(context, operator, left, right)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` and ``str.format_map`` (sandboxed here since jinja2 3.1.5), refused
        when the format string asks for a field width past ``MAX_WIDTH``."""
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            _check_widths(value.__self__)
        return wrapped


def _check_widths(text: str) -> None:
    """Refuse a format string whose fields ask for a width past ``MAX_WIDTH``."""
    for _, _, spec, _ in string.Formatter().parse(text):
        widths = [int(w) for w in "".join(c if c.isdigit() else " " for c in spec or "").split()]
        if any(w > MAX_WIDTH for w in widths):
            raise Budget(f"a field width above {MAX_WIDTH:,} in a format string")


def _range(*args: int) -> range:
    """``range``, counted against the render's budget of steps."""
    if not all(isinstance(a, int) for a in args):
        raise TypeError("range() takes whole numbers")
    values = range(*args)
    _meter.steps += len(values)
    if _meter.steps > MAX_STEPS:
        raise Budget(f"the loops step through more than {MAX_STEPS:,} values")
    return values


def _guarded(func: Callable) -> Callable:
    """A filter that refuses a number argument or a result past ``MAX_ITEMS``."""

    @functools.wraps(func)
    def filter_(*args: Any, **kwargs: Any) -> Any:
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ITEMS:
                raise _too_many(value)
        result = func(*args, **kwargs)
        size = _size(result)
        if size is not None and size > MAX_ITEMS:
            raise _too_many(size)
        return result

    return filter_


@contextlib.contextmanager
def budget() -> Iterator[None]:
    """Render under the budget: the step count from zero, and the timer running (in the
    main thread of a Unix process; elsewhere the other limits still hold)."""
    _meter.steps = 0
    timed = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    previous, outer, started = None, 0.0, 0.0
    if timed:

        def stop(signum: int, frame: object) -> None:
            raise Budget(f"the template ran for more than {RENDER_SECONDS:g} s")

        outer = signal.getitimer(signal.ITIMER_REAL)[0]  # a caller's own timer, kept
        started = time.monotonic()
        previous = signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, RENDER_SECONDS)
    try:
        yield
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if outer:  # the caller's timer goes on where it was (due now, if it passed)
                left = outer - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))


def render(template: jinja2.Template, context: dict[str, Any]) -> str:
    """``template`` rendered with ``context`` under the budget, its output capped."""
    with budget():
        parts: list[str] = []
        written = 0
        for part in template.generate(context):
            written += len(part)
            if written > MAX_OUTPUT:
                raise Budget(f"the template wrote more than {MAX_OUTPUT:,} characters")
            parts.append(part)
        return "".join(parts)
