"""``pnp calibrate``: a duplex alignment test page for measuring ``--back-offset``, and
``--save X,Y`` to remember what it measured in the printer profile."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli import Failed
from generator.cli.common import EXIT_CANNOT_WRITE, out_option, parse_offset
from generator.errors import SpecError, SpecFailure, clean, display_path
from generator.model.sizes import paper_sizes
from generator.output.calibration import write_calibration
from generator.profile import HERE, load_profile, save, user_config


@click.command("calibrate")
@click.option("--paper", type=click.Choice(list(paper_sizes())), default=None)
@click.option("--duplex", type=click.Choice(["long", "short"]), default=None)
@click.option(
    "--save",
    "offset",
    callback=parse_offset,
    default=None,
    metavar="X,Y",
    help="Remember the offset you read off the printed sheet (and its paper and duplex edge): "
    "every later build uses it.",
)
@click.option("--here", is_flag=True, help="With --save: into ./pnp.toml, not your user config.")
@out_option
def command(
    paper: str | None, duplex: str | None, offset: tuple | None, here: bool, out_dir: Path
) -> None:
    """Write calibration-<paper>-<duplex>.pdf: print it double-sided, read the offset of the
    backs off its scales, then save it with pnp calibrate --save X,Y."""
    try:
        profile = load_profile(tuple(paper_sizes()))
    except SpecError as exc:
        raise SpecFailure([exc]) from None
    for warning in profile.warnings:
        click.echo(f"warning: {clean(warning)}", err=True)
    paper = paper or profile.values.get("paper", "a4")
    duplex = duplex or profile.values.get("duplex", "long")
    if offset is not None:
        _save(HERE if here else user_config(), paper, duplex, offset)
        return
    path = out_dir / f"calibration-{paper}-{duplex}.pdf"
    write_calibration(path, paper_sizes()[paper], duplex)
    click.echo(f"{display_path(path)}: print it double-sided (flip on the {duplex} edge) at 100%")
    click.echo(
        f"then save what you read: pnp calibrate --paper {paper} --duplex {duplex} --save X,Y"
    )


def _save(path: Path, paper: str, duplex: str, offset: tuple[float, float]) -> None:
    """Write the measured offset, with its paper and duplex edge, into the profile ``path``."""
    try:
        save(path, {"paper": paper, "duplex": duplex, "back_offset": list(offset)})
    except SpecError as exc:
        raise SpecFailure([exc]) from None
    except OSError as exc:
        click.echo(f"{display_path(path)}: cannot write it: {exc.strerror}", err=True)
        raise Failed(EXIT_CANNOT_WRITE) from None
    x, y = offset
    click.echo(
        f"saved back offset {x:g},{y:g} (paper {paper}, duplex {duplex}) in "
        f"{display_path(path)}: pnp build and check use it from now on"
    )
