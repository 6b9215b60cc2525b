"""``pnp build``: check each game, then write its print pack (PDF and manifest).

The engine is imported only once a pack turns out to need building, so that a build with
nothing to do answers at once (see ``generator.cli``).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.common import (
    EXIT_CANNOT_WRITE,
    EXIT_FAILED_CHECK,
    Planned,
    components_option,
    games_argument,
    in_game_folder,
    lang_option,
    load_games,
    make_options,
    out_option,
    paper_option,
    plan_on_all_cores,
    print_options,
)
from generator.errors import clean, display_path
from generator.model.gamefolders import SpecFailureFor, select_games
from generator.options import PrintOptions
from generator.output.atomic import sweep_stale
from generator.plan.cache import pack_key, up_to_date
from generator.plan.parallel import in_worker

if TYPE_CHECKING:
    from generator.layout.pack import Pack
    from generator.model.loader import Game
    from generator.output.write import StagedPack


def passes_check(game: Game, planned: Planned, force: bool) -> bool:
    """Run the rules check (counts, text that does not fit, how the pack prints); a failing
    game is refused unless ``force``."""
    from generator.check.rules import check_counts
    from generator.cli.check import explain_failures

    if not explain_failures(game, planned.overflows, check_counts(game), planned.printing):
        return True
    if force:
        click.echo(
            f"warning: {clean(game.name)}: building despite the mismatches above (--force)",
            err=True,
        )
        return True
    click.echo(
        f"{clean(game.name)}: the rules check fails; not built (--force builds anyway).",
        err=True,
    )
    return False


@click.command("build")
@games_argument
@components_option
@out_option
@paper_option
@click.option("--force", is_flag=True, help="Build even when the counts do not match.")
@lang_option
@print_options
@click.option("--watch", is_flag=True, help="Rebuild a game whenever its files change.")
@in_game_folder
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
    paper, options = make_options(paper, **printing)
    by_language = language is not None
    todo_names = stale(components_dir, games, out_dir, paper, options, language, force)
    if todo_names is None:  # every pack is up to date
        if watch:
            from generator.cli.watch import watch_games

            roots = select_games(components_dir, games)
            watch_games(roots, components_dir, out_dir, paper, options, language, force)
        sys.exit(0)
    from generator.check.printing import check_printing
    from generator.cli.check import fails_check
    from generator.cli.watch import watch_games
    from generator.output.write import out_folder

    loaded = load_games(components_dir, todo_names, language, defer=True)
    keys: dict[tuple[Path, str], str] = {}
    for game in loaded:
        source = None if language is None else game.language
        key = pack_key(game.root, settings(paper, options, source, language, force))
        folder = out_folder(out_dir, game, by_language)
        if up_to_date(folder, game.name, key):
            click.echo(f"{clean(game.name)}: {display_path(folder)} is up to date")
        else:
            keys[(game.root, game.language)] = key
    todo = [game for game in loaded if (game.root, game.language) in keys]

    def stage(pack: Pack) -> StagedPack | None:
        if not force and fails_check(pack.game, pack.overflows, check_printing(pack)):
            return None  # refused below, with the reasons; nothing to write
        pack.key = keys[(pack.game.root, pack.game.language)]
        return stage_with_progress(pack, out_dir, by_language)

    try:
        results = plan_on_all_cores(todo, paper, options, stage)
    except BaseException:  # stopped (Ctrl-C, a mistake): leave no staged file behind
        for game in todo:
            folder = out_folder(out_dir, game, by_language)
            sweep_stale(folder)
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when it is empty: a folder this build made
        raise
    refused = commit_accepted(todo, results, out_dir, force)
    if watch:
        roots = [game.root for game in loaded]
        watch_games(roots, components_dir, out_dir, paper, options, language, force)
    sys.exit(EXIT_FAILED_CHECK if refused else 0)


def commit_accepted(games: list[Game], results: list[Planned], out_dir: Path, force: bool) -> int:
    """Put in place the packs of the games that pass the rules check, in order; the number
    refused. Exit 3 if the output folder cannot be written (nothing more is put in place)."""
    refused = 0
    for i, (game, planned) in enumerate(zip(games, results, strict=True)):
        if not passes_check(game, planned, force):
            planned.discard()
            refused += 1
            continue
        problem, built = planned.write_error, None
        if planned.staged is not None:
            try:
                built = planned.staged.commit()
            except OSError as exc:
                problem = exc.strerror or str(exc)
        if built is None:
            for later in results[i:]:
                later.discard()
            click.echo(
                f"{clean(game.name)}: cannot write to {display_path(out_dir)}: {problem}; "
                "the previous files are untouched.",
                err=True,
            )
            sys.exit(EXIT_CANNOT_WRITE)
        click.echo(
            f"{clean(game.name)}: {display_path(built.pdf)} ({built.pages} pages, "
            f"{planned.paper_name}, {game.language})"
        )
    return refused


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
) -> tuple[str, ...] | None:
    """The games to load: without --lang, those whose pack is not up to date, found from
    their files alone (so a build with nothing to do loads no spec; None when there is
    none); with --lang, all."""
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
            click.echo(f"{clean(root.name)}: {display_path(out_dir / root.name)} is up to date")
        else:
            todo.append(root.name)
    return tuple(todo) or None


def stage_with_progress(pack: Pack, out_dir: Path, by_language: bool) -> StagedPack:
    """Write a pack under temporary names, with a progress bar of its pages when standard
    error is a terminal and the game is built in this process (one game, or one core)."""
    from generator.output.write import stage_pack

    if not sys.stderr.isatty() or in_worker():
        return stage_pack(pack, out_dir, by_language)
    label = f"{clean(pack.game.name)} [{pack.game.language}]"
    with click.progressbar(length=pack.page_count, label=label, file=sys.stderr) as bar:
        return stage_pack(pack, out_dir, by_language, bar.update)
