"""``pnp preview``: PNG pages and a contact sheet of a game's print pack."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli.common import (
    components_option,
    in_game_folder,
    load_games,
    out_option,
    plan_games,
)
from generator.errors import display_path
from generator.model.gamefolders import game_files
from generator.output.preview import contact_sheet, render_pages
from generator.output.write import write_pack


@click.command("preview")
@click.argument("game", required=False)
@components_option
@click.option("--page", "pages", type=int, multiple=True, help="Only this page (repeatable).")
@click.option("--dpi", type=click.IntRange(20, 600), default=60, show_default=True)
@out_option
@in_game_folder
def command(
    game: str | None, components_dir: Path, pages: tuple[int, ...], dpi: int, out_dir: Path
) -> None:
    """Render a game's pack (built now if it is missing or older than its specs) to
    <out>/<game>/preview/: page-NN.png and contact.png. Inside a game folder, that game."""
    if game is None:
        raise click.UsageError("name the game to preview (or run pnp preview in its folder)")
    (pack,) = plan_games(load_games(components_dir, (game,)), None)
    pdf = out_dir / game / f"{game}.pdf"
    sources = game_files(pack.game.root)
    if not pdf.is_file() or any(p.stat().st_mtime > pdf.stat().st_mtime for p in sources):
        pdf = write_pack(pack, out_dir).pdf
    folder = out_dir / game / "preview"
    try:
        written = render_pages(pdf, folder, dpi, list(pages) or None)
    except ValueError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    contact = contact_sheet(pdf, folder / "contact.png")
    click.echo(
        f"{len(written)} page(s) in {display_path(folder)}; contact sheet {display_path(contact)}"
    )
