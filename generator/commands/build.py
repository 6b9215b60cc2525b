"""``pnp build``: check each game, then write its print pack (PDF and manifest)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.atomic import sweep_stale
from generator.buildcache import pack_key, up_to_date
from generator.commands import (
    EXIT_CANNOT_WRITE,
    EXIT_FAILED_CHECK,
    components_option,
    games_argument,
    lang_option,
    load_games,
    make_options,
    out_option,
    plan_games,
    print_options,
)
from generator.commands.check import explain_failures
from generator.commands.watch import watch_games
from generator.errors import display_path
from generator.impose import PrintOptions
from generator.loader import SpecFailureFor, select_games
from generator.pipeline import Built, Pack, out_folder, write_pack
from generator.rules import check_counts
from generator.sizes import paper_sizes


def passes_check(pack: Pack, force: bool) -> bool:
    """Run the rules check (counts, and text that does not fit); a failing game is refused
    unless ``force``."""
    game = pack.game
    if not explain_failures(pack, check_counts(game)):
        return True
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
@out_option
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
    todo_names = stale(components_dir, games, out_dir, paper, options, language, force)
    loaded = load_games(components_dir, todo_names, language, defer=True)
    todo = []
    for game in loaded:
        source = None if language is None else game.language
        key = pack_key(game.root, settings(paper, options, source, language, force))
        folder = out_folder(out_dir, game, language is not None)
        if up_to_date(folder, game.name, key):
            click.echo(f"{game.name}: {display_path(folder)} is up to date")
        else:
            todo.append((game, key))
    packs = plan_games([game for game, _ in todo], paper, options)
    for pack, (_, key) in zip(packs, todo, strict=True):
        pack.key = key
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


def settings(
    paper: str | None,
    options: PrintOptions,
    game_language: str | None,
    language: str | None,
    force: bool,
) -> dict:
    """Everything besides files that changes what a build writes (the game's own default
    paper and source language are in its files)."""
    return {
        "paper": paper,
        "options": [options.duplex, list(options.back_offset), options.layout, options.ink_saver],
        "language": game_language,
        "by_language": language is not None,
        "force": force,
    }


def stale(
    components_dir: Path,
    games: tuple[str, ...],
    out_dir: Path,
    paper: str | None,
    options: PrintOptions,
    language: str | None,
    force: bool,
) -> tuple[str, ...]:
    """The games to load: without --lang, those whose pack is not up to date, found from
    their files alone (so a build with nothing to do loads no spec); with --lang, all."""
    if language is not None:
        return games
    try:
        roots = select_games(components_dir, games)
    except SpecFailureFor:
        return games  # loading reports it
    todo = []
    for root in roots:
        key = pack_key(root, settings(paper, options, None, None, force))
        sweep_stale(out_dir / root.name)
        if up_to_date(out_dir / root.name, root.name, key):
            click.echo(f"{root.name}: {display_path(out_dir / root.name)} is up to date")
        else:
            todo.append(root.name)
    if not todo:
        sys.exit(0)
    return tuple(todo)


def write_with_progress(pack: Pack, out_dir: Path, by_language: bool) -> Built:
    """Write a pack, with a progress bar of its pages when standard error is a terminal."""
    if not sys.stderr.isatty():
        return write_pack(pack, out_dir, by_language)
    label = f"{pack.game.name} [{pack.game.language}]"
    with click.progressbar(length=pack.page_count, label=label, file=sys.stderr) as bar:
        return write_pack(pack, out_dir, by_language, bar.update)
