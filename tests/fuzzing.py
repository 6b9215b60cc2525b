"""What the fuzz tests share: running a command in-process under a deadline, so a hang fails
the example instead of the suite."""

from __future__ import annotations

import signal
from collections.abc import Sequence
from pathlib import Path

from click.testing import CliRunner, Result
from hypothesis import event

from generator.cli import cli
from generator.errors import display_path


class Hang(BaseException):
    """Raised by the alarm: a command ran far longer than one on a small game may."""


def run_within(args: Sequence[str], seconds: int) -> Result:
    """``pnp ARGS`` through click's CliRunner, stopped by ``Hang`` after ``seconds`` (the
    template sandbox keeps this timer running around its own)."""

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"pnp {args[0]} still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return CliRunner().invoke(cli, list(args))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def ended_cleanly(result: Result, folder: Path, command: str) -> None:
    """A fuzzed command ended as promised: exit 0, 1 or 2, no exception but its exit, no
    traceback, and on exit 2 every error line names a file of the game (``folder``)."""
    exception = result.exception
    if exception is not None and not isinstance(exception, SystemExit):
        raise AssertionError(
            f"pnp {command} crashed: {type(exception).__name__}: {exception}\n{result.output}"
        ) from exception
    event(f"exit {result.exit_code}")
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    if result.exit_code == 2:
        where = display_path(folder / "components")
        assert any(line.startswith(where) for line in result.stderr.splitlines()), result.stderr


def call_within(seconds: int, function, *args):  # noqa: ANN001, ANN201 - any call
    """``function(*args)`` stopped by ``Hang`` after ``seconds``: a reader that loops on a
    damaged file fails the example instead of hanging the suite."""

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"{getattr(function, '__name__', function)} still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return function(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
