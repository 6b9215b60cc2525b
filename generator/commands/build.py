"""``pnp build``: check each game, then write its print pack (PDF and manifest)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.commands import (
    EXIT_CANNOT_WRITE,
    EXIT_FAILED_CHECK,
    components_option,
    games_argument,
    load_games,
    plan_games,
)
from generator.commands.check import explain_mismatches
from generator.errors import display_path
from generator.loader import Game
from generator.pipeline import write_pack
from generator.rules import check_counts, mismatches
from generator.sizes import paper_sizes


def passes_check(game: Game, force: bool) -> bool:
    """Run the rules check; a failing game is refused unless ``force``."""
    rows = check_counts(game)
    if not mismatches(rows):
        return True
    explain_mismatches(game, rows)
    if force:
        click.echo(f"warning: {game.name}: building despite count mismatches (--force)", err=True)
        return True
    click.echo(
        f"{game.name}: counts do not match the rulebook; not built (--force builds anyway).",
        err=True,
    )
    return False


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
    loaded = load_games(components_dir, games)
    accepted = [game for game in loaded if passes_check(game, force)]
    for pack in plan_games(accepted, paper):
        try:
            built = write_pack(pack, out_dir)
        except OSError as exc:
            click.echo(
                f"{pack.game.name}: cannot write to {display_path(out_dir)}: "
                f"{exc.strerror or exc}; the previous files are untouched.",
                err=True,
            )
            sys.exit(EXIT_CANNOT_WRITE)
        click.echo(
            f"{pack.game.name}: {display_path(built.pdf)} ({built.pages} pages, {pack.paper_name})"
        )
    sys.exit(EXIT_FAILED_CHECK if len(accepted) < len(loaded) else 0)
