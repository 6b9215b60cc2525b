"""``pnp list``: the games and components found, with their counts and sheets."""

from __future__ import annotations

from pathlib import Path

import click

from generator.commands import components_option, games_argument, load_games
from generator.impose import fit_grid
from generator.pieces import designs
from generator.sizes import paper_sizes, sheet_geometry


@click.command("list")
@games_argument
@components_option
def command(games: tuple[str, ...], components_dir: Path) -> None:
    """List games and their components with counts."""
    for game in load_games(components_dir, games):
        spec = game.spec
        click.echo(f"{game.name}: {spec.title} ({spec.players} players, {spec.paper})")
        paper = paper_sizes()[spec.paper]
        for component in game.components:
            deck = component.spec
            cards = designs(component)
            total = sum(d.count for d in cards)
            grid = fit_grid(paper, deck.size.w, deck.size.h, deck.bleed, sheet_geometry())
            per_sheet = grid.capacity if grid else 0
            sheets = -(-total // per_sheet) if per_sheet else 0
            sides = "double-sided" if deck.back else "single-sided"
            click.echo(
                f"  {component.id}: {deck.kind} '{deck.title}', {total} cards "
                f"{deck.size.w:g} x {deck.size.h:g} mm, {sides}, {per_sheet} per sheet, "
                f"{sheets} sheet(s)"
            )
            click.echo("    " + ", ".join(f"{d.name} {d.count}" for d in cards))
