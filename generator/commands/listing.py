"""``pnp list``: the games and components found, with their counts, sheets and fill."""

from __future__ import annotations

from pathlib import Path

import click

from generator.commands import components_option, games_argument, load_games, plan_games
from generator.layout.pack import Pack
from generator.output.inventory import page_ranges
from generator.spec.designs import tally


def describe(pack: Pack) -> None:
    """A game's components with counts and pages, then its sheets with how full they are."""
    spec = pack.game.spec
    click.echo(
        f"{pack.game.name}: {spec.title} ({spec.players} players, {pack.paper_name}, "
        f"{pack.page_count} pages)"
    )
    for plan in pack.components:
        component = plan.component
        size = f", {plan.shape.label}" if plan.shape else ""
        click.echo(
            f"  {component.id}: {component.spec.kind} '{component.spec.title}', "
            f"{plan.count} pieces{size}, pages {page_ranges(plan.pages)}"
        )
        click.echo("    " + ", ".join(f"{d.name} {d.count}" for d in plan.designs))
        totals = tally(component)
        if totals:
            click.echo("    tally: " + ", ".join(f"{name} {n}" for name, n in totals.items()))
    for page, sheet in pack.numbered_sheets():
        if sheet.side == "front" and sheet.area:
            click.echo(
                f"  page {page}: {sheet.title} {sheet.number}/{sheet.of}, "
                f"{len(sheet.placements)} pieces, fill {sheet.fill:.0%}"
            )


@click.command("list")
@games_argument
@components_option
def command(games: tuple[str, ...], components_dir: Path) -> None:
    """List games and their components with counts, pages and sheet fill."""
    for pack in plan_games(load_games(components_dir, games), None):
        describe(pack)
