"""``pnp build``: check each game, then write its print pack (PDF and manifest)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.commands import (
    EXIT_FAILED_CHECK,
    components_option,
    fail_on,
    games_argument,
    load_games,
)
from generator.commands.check import explain_mismatches
from generator.errors import SpecFailure, display_path
from generator.pipeline import plan_pack, write_pack
from generator.rules import check_counts, mismatches
from generator.sizes import paper_sizes


@click.command("build")
@games_argument
@components_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("output"),
    show_default=True,
    help="Folder to write <game>/<game>.pdf and manifest.json into.",
)
@click.option(
    "--paper",
    type=click.Choice(list(paper_sizes())),
    default=None,
    help="Paper size (default: the game's own, usually a4).",
)
@click.option("--force", is_flag=True, help="Build even when the counts do not match.")
def command(
    games: tuple[str, ...], components_dir: Path, out_dir: Path, paper: str | None, force: bool
) -> None:
    """Build print packs (every game by default)."""
    refused = False
    for game in load_games(components_dir, games):
        rows = check_counts(game)
        if mismatches(rows):
            explain_mismatches(game, rows)
            if not force:
                click.echo(
                    f"{game.name}: counts do not match the rulebook; not built "
                    "(--force builds anyway).",
                    err=True,
                )
                refused = True
                continue
            click.echo(
                f"warning: {game.name}: building despite count mismatches (--force)", err=True
            )
        try:
            pack = plan_pack(game, paper or game.spec.paper)
        except SpecFailure as exc:
            fail_on(exc)
        built = write_pack(pack, out_dir)
        click.echo(
            f"{game.name}: {display_path(built.pdf)} ({built.pages} pages, {pack.paper_name})"
        )
    sys.exit(EXIT_FAILED_CHECK if refused else 0)
