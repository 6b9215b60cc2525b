"""The ``pnp`` command line: one module per command under ``generator.commands``."""

from __future__ import annotations

import os
import sys

import click

from generator.commands import (
    build,
    calibrate,
    check,
    export,
    i18n,
    listing,
    preview,
    schema,
)
from generator.parallel import WorkerLost

EXIT_INTERNAL = 4


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp-generator")
def cli() -> None:
    """Print-and-play component generator: YAML specs to print-ready PDFs."""


cli.add_command(build.command)
cli.add_command(check.command)
cli.add_command(listing.command)
cli.add_command(schema.command)
cli.add_command(i18n.command)
cli.add_command(calibrate.command)
cli.add_command(export.command)
cli.add_command(preview.command)


def main() -> None:
    """Console-script entry point: an unexpected failure is one line, not a traceback
    (``PNP_DEBUG=1`` shows the traceback for a bug report)."""
    try:
        cli()
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
