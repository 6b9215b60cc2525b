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
    lang_option,
    load_games,
    make_options,
    plan_games,
    print_options,
)
from generator.commands.check import explain_mismatches, explain_overflows
from generator.commands.watch import watch_games
from generator.errors import display_path
from generator.pipeline import Built, Pack, write_pack
from generator.rules import check_counts, check_recipes, mismatches
from generator.sizes import paper_sizes


def passes_check(pack: Pack, force: bool) -> bool:
    """Run the rules check (counts, and text that does not fit); a failing game is refused
    unless ``force``."""
    game = pack.game
    rows = check_counts(game)
    recipe_problems = check_recipes(game)
    if not mismatches(rows) and not pack.overflows and not recipe_problems:
        return True
    explain_mismatches(game, rows)
    explain_overflows(pack)
    for problem in recipe_problems:
        click.echo(problem, err=True)
    if force:
        click.echo(
            f"warning: {game.name}: building despite the mismatches above (--force)", err=True
        )
        return True
    click.echo(
        f"{game.name}: the rules check fails; not built (--force builds anyway).",
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
@lang_option
@print_options
@click.option("--watch", is_flag=True, help="Rebuild a game whenever its files change.")
def command(
    games: tuple[str, ...],
    components_dir: Path,
    out_dir: Path,
    paper: str | None,
    force: bool,
    language: str | None,
    watch: bool,
    **printing: object,
) -> None:
    """Build print packs (every game by default); with --lang into <out>/<game>/<lang>/."""
    options = make_options(**printing)
    packs = plan_games(load_games(components_dir, games, language), paper, options)
    accepted = [pack for pack in packs if passes_check(pack, force)]
    for pack in accepted:
        try:
            built = write_with_progress(pack, out_dir, language is not None)
        except OSError as exc:
            click.echo(
                f"{pack.game.name}: cannot write to {display_path(out_dir)}: "
                f"{exc.strerror or exc}; the previous files are untouched.",
                err=True,
            )
            sys.exit(EXIT_CANNOT_WRITE)
        click.echo(
            f"{pack.game.name}: {display_path(built.pdf)} ({built.pages} pages, "
            f"{pack.paper_name}, {pack.game.language})"
        )
    if watch:
        watch_games(packs, components_dir, out_dir, paper, options, language, force)
    sys.exit(EXIT_FAILED_CHECK if len(accepted) < len(packs) else 0)


def write_with_progress(pack: Pack, out_dir: Path, by_language: bool) -> Built:
    """Write a pack, with a progress bar of its pages when standard error is a terminal."""
    if not sys.stderr.isatty():
        return write_pack(pack, out_dir, by_language)
    label = f"{pack.game.name} [{pack.game.language}]"
    with click.progressbar(length=pack.page_count, label=label, file=sys.stderr) as bar:
        return write_pack(pack, out_dir, by_language, bar.update)
