"""What the fuzz tests share: running a command in-process under a deadline, so a hang fails
the example instead of the suite."""

from __future__ import annotations

import signal
from collections.abc import Sequence

from click.testing import CliRunner, Result

from generator.cli import cli


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
