"""``pnp calibrate``: a duplex alignment test page for measuring ``--back-offset``."""

from __future__ import annotations

from pathlib import Path

import click

from generator.commands import out_option
from generator.errors import display_path
from generator.output.calibration import write_calibration
from generator.spec.sizes import paper_sizes


@click.command("calibrate")
@click.option("--paper", type=click.Choice(list(paper_sizes())), default="a4", show_default=True)
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True)
@out_option
def command(paper: str, duplex: str, out_dir: Path) -> None:
    """Write calibration.pdf: print it double-sided to measure your printer's back offset."""
    path = out_dir / f"calibration-{paper}-{duplex}.pdf"
    write_calibration(path, paper_sizes()[paper], duplex)
    click.echo(f"{display_path(path)}: print it double-sided (flip on the {duplex} edge) at 100%")
