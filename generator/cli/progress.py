"""Progress on long work: on a terminal, click's progress bar on standard error, with what is
being done and the time left; elsewhere (piped, redirected, in CI) a plain line where the work
moves on to its next part, or nothing, as the command asks: what a command prints when not on
a terminal stays what it was."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from generator.errors import clean

Tick = Callable[[str], None]  # one piece of work done, and what it was


def on_terminal() -> bool:
    """Whether a progress bar can be drawn: standard error is a terminal, not in CI."""
    return sys.stderr.isatty() and not os.environ.get("CI")


def _shown(item: str | None) -> str:
    """What the bar shows beside itself: the piece of work, cut to fit."""
    return clean(item or "")[:40]


def _bar(label: str, total: int) -> Any:  # click types its bar in a private module
    """click's bar on standard error: the work's label, its count, the time left and the
    piece of work being done."""
    return click.progressbar(
        length=total,
        label=clean(label),
        file=sys.stderr,
        show_eta=True,
        show_pos=True,
        item_show_func=_shown,
    )


@contextlib.contextmanager
def progress(label: str, total: int, lines: bool = False) -> Iterator[Tick]:
    """A ``Tick`` to call once per piece of work (``total`` of them): a bar on a terminal;
    otherwise, with ``lines``, a plain line on standard error each time the work reaches a
    new part (the text before its first space), else nothing."""
    if total <= 0:
        yield lambda what: None
        return
    if on_terminal():
        with _bar(label, total) as bar:
            yield lambda what: bar.update(1, what)
        return
    if not lines:
        yield lambda what: None
        return
    done, part = 0, [""]

    def tick(what: str) -> None:
        nonlocal done
        done += 1
        current = what.split(" ", 1)[0]
        if current != part[0]:
            part[0] = current
            click.echo(f"{clean(label)}: {clean(current)} ({done}/{total})", err=True)

    yield tick


def counted(label: str, total: int) -> Tick:
    """A ``Tick`` for work done in parts by others (a server's queue of jobs): a bar on a
    terminal, closed by the ``total``-th tick; elsewhere nothing."""
    if total <= 0 or not on_terminal():
        return lambda what: None
    bar = _bar(label, total)
    bar.__enter__()
    done = 0

    def tick(what: str) -> None:
        nonlocal done
        done += 1
        bar.update(1, what)
        if done == total:
            bar.__exit__(None, None, None)

    return tick
