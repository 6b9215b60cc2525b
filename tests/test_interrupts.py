"""A Ctrl-C ends ``pnp`` the one way wherever it lands: 'stopped', exit 130, no traceback, also
while click parses the command line (where click itself would say 'Aborted!', exit 1). The
interrupt is raised where it would land, so no timing decides what is tested; what click
reports on its own (a usage mistake, ``--version``) stays as click reports it."""

from __future__ import annotations

import click
import pytest

from generator.cli import EXIT_INTERRUPTED, LazyGroup, cli


def _ended(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[object, str]:
    """The exit status of ``pnp *args`` run as the console script runs it, and its stderr."""
    with pytest.raises(SystemExit) as ended:
        cli.main(list(args), prog_name="pnp")
    return ended.value.code, capsys.readouterr().err


def _raise(exc: BaseException):  # noqa: ANN202 - a stand-in for a method
    def raiser(*args: object, **kwargs: object) -> None:
        raise exc

    return raiser


@pytest.mark.parametrize("where", ["parse_args", "invoke"])
def test_ctrl_c_while_click_parses_or_runs_a_command_is_stopped(monkeypatch, capsys, where):
    monkeypatch.setattr(LazyGroup, where, _raise(KeyboardInterrupt()))
    status, err = _ended(capsys, "schema")
    assert status == EXIT_INTERRUPTED == 130
    assert err.strip() == "stopped"


def test_a_ctrl_c_click_turned_into_its_abort_is_stopped(monkeypatch, capsys):
    abort = click.Abort()
    abort.__cause__ = KeyboardInterrupt()
    monkeypatch.setattr(LazyGroup, "parse_args", _raise(abort))
    assert _ended(capsys, "schema") == (130, "stopped\n")


def test_an_abort_at_the_end_of_input_stays_clicks(monkeypatch, capsys):
    abort = click.Abort()
    abort.__cause__ = EOFError()
    monkeypatch.setattr(LazyGroup, "parse_args", _raise(abort))
    assert _ended(capsys, "schema") == (1, "Aborted!\n")


def test_click_still_reports_a_usage_mistake_and_the_version(capsys):
    status, err = _ended(capsys, "no-such-command")
    assert status == 2 and "No such command 'no-such-command'" in err
    with pytest.raises(SystemExit) as ended:
        cli.main(["--version"], prog_name="pnp")
    assert ended.value.code == 0
    assert "version" in capsys.readouterr().out


def test_the_group_run_for_a_caller_still_returns_and_raises(monkeypatch):
    assert cli.main(["--version"], prog_name="pnp", standalone_mode=False) == 0
    monkeypatch.setattr(LazyGroup, "parse_args", _raise(KeyboardInterrupt()))
    with pytest.raises(click.Abort):
        cli.main(["schema"], prog_name="pnp", standalone_mode=False)


def _interrupting_call() -> None:
    """A ctypes call whose argument's conversion is interrupted by a real Ctrl-C (pypdfium2's
    ``_as_parameter_`` is Python): ctypes raises ``ArgumentError``."""
    import ctypes
    import os
    import signal

    class Interrupting:
        @property
        def _as_parameter_(self) -> int:
            os.kill(os.getpid(), signal.SIGINT)
            return sum(range(100_000))  # bytecode runs: the signal's handler is called

    ctypes.CDLL(None).abs(Interrupting())


def _wrapping_library() -> None:
    """A library that turns the Ctrl-C into an error of its own, as pydantic's schema
    building does (``SchemaError``)."""
    import os
    import signal

    try:
        os.kill(os.getpid(), signal.SIGINT)
        sum(range(100_000))
    except KeyboardInterrupt as exc:
        raise RuntimeError(f"Error building validator: KeyboardInterrupt: {exc}") from None


@pytest.mark.parametrize("made", [_interrupting_call, _wrapping_library])
def test_an_error_a_library_made_of_a_ctrl_c_is_stopped(monkeypatch, capsys, made):
    """A Ctrl-C that a library turns into an error of its own (ctypes' ``ArgumentError``
    while it converts a pdfium call's argument; pydantic's ``SchemaError`` while it builds a
    validator) ends the command 'stopped', exit 130, not 'internal error' (test_hostile_exits
    met both among its random Ctrl-Cs); the same error with no Ctrl-C stays a bug."""
    import signal

    monkeypatch.setattr(LazyGroup, "invoke", lambda self, ctx: made())
    assert _ended(capsys, "schema") == (130, "stopped\n")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    monkeypatch.setattr(LazyGroup, "invoke", _raise(RuntimeError("a bug")))
    with pytest.raises(RuntimeError):
        cli.main(["schema"], prog_name="pnp")


def test_a_ctrl_c_while_pdfium_works_is_raised_as_its_block_ends():
    """pdfium's objects close in weakref finalizers, where a Ctrl-C would be printed as
    'Exception ignored' and lost: the read-back and the contrast check hold one to the end
    of their pdfium work, then raise it; the handler is Python's own again after."""
    import os
    import signal

    from generator.errors import ctrl_c_held

    reached = []
    with pytest.raises(KeyboardInterrupt), ctrl_c_held():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append("after the signal")
        sum(range(100_000))  # bytecode runs: the signal's handler has been called
        reached.append("the end of the block")
    assert reached == ["after the signal", "the end of the block"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with ctrl_c_held():
        pass  # no Ctrl-C: nothing is raised
    with pytest.raises(ValueError), ctrl_c_held():
        raise ValueError("an error in the block goes on as it is")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
