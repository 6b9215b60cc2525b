"""``pnp export --shop``: files for print shops and virtual tabletops."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.commands import (
    EXIT_CANNOT_WRITE,
    components_option,
    games_argument,
    in_game_folder,
    lang_option,
    load_games,
    out_option,
    plan_games,
)
from generator.errors import clean, display_path
from generator.output.shop import export


@click.command("export")
@games_argument
@components_option
@click.option("--shop", is_flag=True, required=True, help="Print-shop files (the only export).")
@out_option
@lang_option
@in_game_folder
def command(
    games: tuple[str, ...], components_dir: Path, shop: bool, out_dir: Path, language: str | None
) -> None:
    """One PDF per component, a piece per page at trim size plus bleed (TrimBox, BleedBox,
    CMYK, no marks), and 300 dpi PNGs with bleed, into <out>/<game>/shop/."""
    for pack in plan_games(load_games(components_dir, games, language), None):
        folder = out_dir / pack.game.name
        if language is not None:
            folder = folder / pack.game.language
        try:
            written = export(pack, folder / "shop")
        except OSError as exc:
            click.echo(f"cannot write {display_path(folder)}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_CANNOT_WRITE)
        pdfs = sum(1 for p in written if p.suffix == ".pdf")
        pngs = sum(1 for p in written if p.suffix == ".png")
        click.echo(
            f"{clean(pack.game.name)}: {pdfs} PDF(s), {pngs} PNG(s) in "
            f"{display_path(folder / 'shop')}"
        )
