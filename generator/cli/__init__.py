"""The ``pnp`` command line: takes what the user typed and hands on to the engine, one module
per command (``generator.cli.build`` ...), their shared options in ``common``; it prints and
sets the exit status.

The engine (spec models, templates, reportlab) is imported where a command first needs it,
not here: ``pnp --help`` imports none of the commands.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

import click

from generator.errors import CTRL_C, SpecFailure, WorkerLost, note_ctrl_c, sigint_handled

EXIT_SPEC_ERROR = 2
EXIT_INTERNAL = 4
EXIT_INTERRUPTED = 130  # as a shell reports a command stopped by Ctrl-C
GC_YOUNG = 300_000  # objects made between the collector's youngest passes (CPython's: 700)
# command name -> its module under generator.cli (imported when the command runs) and the
# line `pnp --help` shows for it (kept here so that listing the commands imports none of them;
# tests/test_cli.py holds it to each command's own help)
COMMANDS = {
    "new": ("new", "Start a new game from a stock template or a bundled example."),
    "build": ("build", "Build print packs (every game by default)."),
    "check": ("check", "Check counts, text fit, legibility and printing (every game by default)."),
    "list": ("listing", "List games and their components with counts, pages and sheet fill."),
    "preview": ("preview", "Render a game's pack to PNG pages and a contact sheet."),
    "serve": ("serve", "Show a game live in the browser, updated as you save."),
    "export": ("export", "Files for print shops and Tabletop Simulator."),
    "calibrate": ("calibrate", "Print a duplex test sheet; save the offset you measure."),
    "i18n": ("i18n", "Extract, start and update translation catalogs."),
    "schema": ("schema", "Write the JSON Schema of game.yaml and component specs."),
}


def collect_less() -> None:
    """Fewer passes of Python's cycle collector over objects that live to a command's end
    (the engine's modules, the game, its fonts and art): at CPython's defaults they cost a
    540-card build a tenth of its CPU, and its passes at exit another tenth. A young pass
    comes every ``GC_YOUNG`` new objects, so the garbage in cycles stays bounded (15 MB more
    at 5,400 cards); at exit every object is frozen, so the last passes have none to walk
    (exit frees the process's memory whole)."""
    young, middle, old = gc.get_threshold()
    if young < GC_YOUNG:
        gc.set_threshold(GC_YOUNG, middle, old)
        atexit.register(gc.freeze)


class Failed(Exception):
    """A command ends with exit status ``code``; what went wrong is said already."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


class LazyGroup(click.Group):
    """Commands imported when used: each pulls in only the parts of the engine it needs, and
    ``pnp --help`` none of them."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        return importlib.import_module(f"generator.cli.{COMMANDS[name][0]}").command

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; the one place a command's outcome becomes the exit status: the
        status it returns, its ``Failed``, or 2 with every mistake of a ``SpecFailure``."""
        try:
            status = super().invoke(ctx)
        except SpecFailure as exc:
            from generator.cli.common import report_spec_errors

            report_spec_errors(exc.errors)
            status = EXIT_SPEC_ERROR
        except Failed as exc:
            status = exc.code
        ctx.exit(status if isinstance(status, int) else 0)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's run, ending as ours does: a Ctrl-C while click parses the command line (or
        anywhere click catches it and would print 'Aborted!', exit 1) is 'stopped', exit 130,
        as one in a command is; what else click reports it reports as in standalone mode."""
        collect_less()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        with _ctrl_c_noted():
            return self._standalone(args, prog_name, complete_var, **extra)

    def _standalone(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        complete_var: str | None,
        **extra: Any,
    ) -> NoReturn:
        """Click's run in standalone mode, every end an exit with our status."""
        try:
            status = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            if not isinstance(exc.__cause__, KeyboardInterrupt):  # the end of input at a prompt
                click.echo("Aborted!", err=True)
                sys.exit(1)
            stop()
        except KeyboardInterrupt:  # one that reached click only as it ended
            stop()
        except Exception:
            if CTRL_C:  # an error a library made of the Ctrl-C (see errors.note_ctrl_c)
                stop()
            raise
        sys.exit(status if isinstance(status, int) else 0)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, help_line) for name, (_, help_line) in COMMANDS.items()])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp-generator")
@click.option("-q", "--quiet", is_flag=True, help="Print only errors and warnings.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Also print the time taken, and a traceback on a crash."
)
def cli(quiet: bool, verbose: bool) -> None:
    """Print-and-play component generator: YAML specs to print-ready PDFs.

    Shell completion: eval "$(_PNP_COMPLETE=bash_source pnp)" in ~/.bashrc (zsh_source in
    ~/.zshrc, fish_source for fish)."""
    if verbose:
        os.environ["PNP_DEBUG"] = "1"
        started = time.perf_counter()
        click.get_current_context().call_on_close(
            lambda: click.echo(f"took {time.perf_counter() - started:.2f} s", err=True)
        )
    if quiet:
        click.get_current_context().call_on_close(_restore(sys.stdout))
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - closed with the context


def _restore(stream: object):  # noqa: ANN202 - a callback
    """Put stdout back when a quiet command ends."""

    def restore() -> None:
        quiet, sys.stdout = sys.stdout, stream
        quiet.close()

    return restore


def main() -> None:
    """Console-script entry point: an unexpected failure is one line, not a traceback
    (``PNP_DEBUG=1`` shows the traceback for a bug report)."""
    try:
        cli()
    except KeyboardInterrupt:  # Ctrl-C late in a command: the build cleaned up already
        stop()
    except WorkerLost as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INTERNAL)
    except Exception as exc:
        if os.environ.get("PNP_DEBUG"):
            raise
        click.echo(
            f"internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in pnp-generator; run again with PNP_DEBUG=1 and report the output.",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
    finally:
        _deaf_to_ctrl_c()


@contextlib.contextmanager
def _ctrl_c_noted() -> Iterator[None]:
    """Ctrl-C noted as it raises (``errors.note_ctrl_c``) while a command runs, where it was
    Python's own; Python's handler is put back after."""
    with sigint_handled(note_ctrl_c, (signal.default_int_handler,)) as noting:
        if noting:
            CTRL_C.clear()  # this command's Ctrl-Cs only
        yield


def stop() -> NoReturn:
    """End on a Ctrl-C: 'stopped', exit 130 (the command has cleaned up already)."""
    click.echo("stopped", err=True)
    sys.exit(EXIT_INTERRUPTED)


def _deaf_to_ctrl_c() -> None:
    """Ignore Ctrl-C once the command has ended (its files in place, or cleaned up): it could
    only cut short the interpreter's own shutdown (atexit handlers, threads) with a
    traceback, as it did for 4 of 50 late interrupts."""
    with contextlib.suppress(ValueError):  # not the main thread: signals are not ours
        signal.signal(signal.SIGINT, signal.SIG_IGN)
