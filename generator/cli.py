"""The ``pnp`` command line: one module per command under ``generator.commands``."""

from __future__ import annotations

import importlib
import os
import sys

import click

from generator.build.parallel import WorkerLost

EXIT_INTERNAL = 4
EXIT_INTERRUPTED = 130  # as a shell reports a command stopped by Ctrl-C
# command name -> its module under generator.commands, imported when the command runs
COMMANDS = {
    "build": "build",
    "check": "check",
    "list": "listing",
    "schema": "schema",
    "i18n": "i18n",
    "calibrate": "calibrate",
    "export": "export",
    "preview": "preview",
    "new": "new",
}


class LazyGroup(click.Group):
    """Commands imported when used: each pulls in only the parts of the engine it needs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        return importlib.import_module(f"generator.commands.{COMMANDS[name]}").command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp-generator")
def cli() -> None:
    """Print-and-play component generator: YAML specs to print-ready PDFs."""


def main() -> None:
    """Console-script entry point: an unexpected failure is one line, not a traceback
    (``PNP_DEBUG=1`` shows the traceback for a bug report)."""
    try:
        cli()
    except KeyboardInterrupt:  # Ctrl-C late in a command: the build cleaned up already
        click.echo("stopped", err=True)
        sys.exit(EXIT_INTERRUPTED)
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
