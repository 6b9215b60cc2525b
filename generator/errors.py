"""Spec errors that point at a file and line, collected so one run reports every mistake."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

# characters that would move the cursor, clear the screen, start a line or turn text around
# when printed to a terminal: C0 and C1 controls, DEL, line and paragraph separators, and the
# bidirectional overrides
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def clean(text: object) -> str:
    """``text`` safe to print: every control character written as an escape (``\\x1b``,
    ``\\n``), so a value from a spec or a file name can neither forge a line nor drive the
    terminal."""
    return CONTROL.sub(_escape, str(text))


def _escape(match: re.Match[str]) -> str:
    return match[0].encode("unicode_escape").decode("ascii")


PACKAGE = Path(__file__).resolve().parent  # the generator package


def shipped(inside: str, checkout: str) -> Path:
    """A folder of data the package ships: inside it when installed (generator/<inside>),
    at the top of the repository in a source checkout (<checkout>)."""
    installed = PACKAGE / inside
    return installed if installed.is_dir() else PACKAGE.parent / checkout


STOCK_TEMPLATES = shipped("stock", "templates")  # the stock template library
STOCK = "stock/"  # how messages name a stock template: stock/card.svg.j2, wherever pnp is


def display_path(path: Path) -> str:
    """A path as the user should see it: a stock template as ``stock/card.svg.j2`` (not
    where pnp happens to be installed), else relative to the working directory where
    possible; any control character in it escaped."""
    return clean(_display(path, os.getcwd()))


@lru_cache(maxsize=4096)
def _display(path: Path, cwd: str) -> str:
    """``display_path`` from ``cwd``: every design names its spec, so this is asked often."""
    stock = os.path.relpath(os.path.abspath(path), STOCK_TEMPLATES)
    if not stock.startswith(".."):
        return STOCK + Path(stock).as_posix()
    try:
        relative = os.path.relpath(path, cwd)
    except ValueError:
        return str(path)
    return str(path) if relative.startswith("..") else relative


class SpecError(Exception):
    """One mistake in a spec or template: ``file:LINE: message``. Raised where one mistake
    stops the work at hand, collected in an ``ErrorList`` where work can go on."""

    def __init__(self, path: Path, line: int | None, message: str):
        self.path = path
        self.line = line
        self.message = message
        super().__init__(path, line, message)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpecError) and self.args == other.args

    def __hash__(self) -> int:
        return hash(self.args)

    def __str__(self) -> str:
        where = display_path(self.path)
        message = clean(self.message)
        return f"{where}:{self.line}: {message}" if self.line else f"{where}: {message}"


@dataclass
class ErrorList:
    """Accumulates spec errors across files so the user sees them all in one run."""

    errors: list[SpecError] = field(default_factory=list)

    def add(self, path: Path, line: int | None, message: str) -> None:
        self.errors.append(SpecError(path, line, message))

    def extend(self, other: ErrorList) -> None:
        self.errors.extend(other.errors)

    def __bool__(self) -> bool:
        return bool(self.errors)

    def __iter__(self):
        return iter(self.errors)


class SpecFailure(Exception):
    """Raised when specs cannot be used; carries every error found (CLI exit status 2)."""

    def __init__(self, errors: list[SpecError]):
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


class WorkerLost(Exception):
    """A worker process ended without finishing its work (killed, or out of memory)."""


DRAWING = re.compile(r"^(?P<head>.*) \((?P<where>[^()]*)\)$", re.DOTALL)
WHILE = "while drawing "  # how a message names the piece it was drawing
MAX_PIECES_NAMED = 3  # pieces named when one template mistake stops many


def said_once(errors: list[SpecError]) -> list[SpecError]:
    """Errors at one template line that differ only in the piece being drawn, said once with
    how many pieces it stops and the first few of them (in the order first found)."""
    groups: dict[tuple[Path, int | None, str], list[str]] = {}
    order: list[SpecError | tuple[Path, int | None, str]] = []
    for error in errors:
        found = DRAWING.match(error.message)
        if found is None:
            order.append(error)
            continue
        key = (error.path, error.line, found["head"])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(found["where"])
    out = []
    for item in order:
        if isinstance(item, SpecError):
            out.append(item)
            continue
        pieces = groups[item]
        if len(pieces) == 1:  # as it was said
            out.append(SpecError(item[0], item[1], f"{item[2]} ({pieces[0]})"))
            continue
        named = "; ".join(piece.removeprefix(WHILE) for piece in pieces[:MAX_PIECES_NAMED])
        more = (
            f"; and {len(pieces) - MAX_PIECES_NAMED} more" if len(pieces) > MAX_PIECES_NAMED else ""
        )
        said = f"{item[2]} (the same for {len(pieces)} pieces: {named}{more})"
        out.append(SpecError(item[0], item[1], said))
    return out


CTRL_C: list[int] = []  # the Ctrl-Cs the running command has had (their signal numbers)


def note_ctrl_c(number: int, _frame: object) -> None:
    """SIGINT's handler while a command runs: Python's own (``KeyboardInterrupt``), the
    Ctrl-C noted first, so that an error a library made of the interrupt (pydantic's
    ``SchemaError``, ctypes' ``ArgumentError``) ends the command as the Ctrl-C it is."""
    CTRL_C.append(number)
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigint_handled(handler: Callable[[int, Any], None], over: tuple[object, ...]) -> Iterator[bool]:
    """SIGINT's handler is ``handler`` during the block, in the main thread (the one Python's
    signals reach) where the handler before is one of ``over``, and that one is put back
    after; whether it was put in place."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous not in over:
        yield False
        return
    signal.signal(signal.SIGINT, handler)
    try:
        yield True
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """A Ctrl-C pressed during the block is raised as the block ends, not inside it: pypdfium2
    closes its pages in weakref finalizers and pydantic-core calls a discriminator from
    native code, where an interrupt is printed ('Exception ignored') and lost. Only where a
    Ctrl-C raises ``KeyboardInterrupt``; an error raised in the block goes on as it is."""
    pressed: list[int] = []

    def hold(number: int, _frame: object) -> None:
        pressed.append(number)
        CTRL_C.append(number)

    with sigint_handled(hold, (signal.default_int_handler, note_ctrl_c)):
        yield
    if pressed:
        raise KeyboardInterrupt
