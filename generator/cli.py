"""The ``pnp`` command line: one module per command under ``generator.commands``."""

from __future__ import annotations

import click

from generator.commands import build, check, listing, schema


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp-generator")
def cli() -> None:
    """Print-and-play component generator: YAML specs to print-ready PDFs."""


cli.add_command(build.command)
cli.add_command(check.command)
cli.add_command(listing.command)
cli.add_command(schema.command)


def main() -> None:
    """Console-script entry point."""
    cli()
