"""Building packs as ``pnp build`` does, for the commands that build (build, watch,
preview): the packs not up to date loaded, planned on every core, written under temporary
names, judged by the one verdict, and put in place if they pass.

The engine is imported only once a pack turns out to need building, so that a build with
nothing to do answers at once (see ``generator.cli``).
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli import Failed
from generator.cli.common import (
    EXIT_CANNOT_WRITE,
    EXIT_FAILED_CHECK,
    load_games,
    plan_on_all_cores,
)
from generator.cli.progress import progress
from generator.errors import clean, display_path
from generator.model.gamefolders import SpecFailureFor, select_games
from generator.options import PrintOptions
from generator.output.atomic import sweep_stale
from generator.plan.cache import pack_key, up_to_date
from generator.plan.parallel import can_fork, cores, in_worker

if TYPE_CHECKING:
    from generator.check.printing import PrintReport
    from generator.check.verdict import Verdict
    from generator.layout.pack import Pack
    from generator.model.loader import Game
    from generator.output.write import StagedPack
    from generator.plan.games import Planned


def passes_check(verdict: Verdict, force: bool) -> bool:
    """Say what fails the rules check (counts, text that does not fit, how the pack prints,
    a translation that is incomplete or broken); a failing game is refused unless
    ``force``."""
    from generator.cli.check import explain_failures, explain_translation

    explain_failures(verdict)
    if verdict.untranslated:
        explain_translation(verdict.game, quiet=True)
    if verdict.passed:
        return True
    name = clean(verdict.game.name)
    if force:
        click.echo(f"warning: {name}: building despite the mismatches above (--force)", err=True)
        return True
    click.echo(f"{name}: the rules check fails; not built (--force builds anyway).", err=True)
    return False


@dataclass(frozen=True)
class Request:
    """What to build, and how: the games (all when none are named), where, on which paper,
    printed how, in which language, and whether a failing check is overridden."""

    components_dir: Path
    games: tuple[str, ...]
    out_dir: Path
    paper: str | None
    options: PrintOptions
    language: str | None
    force: bool


def build(request: Request) -> int:
    """Build the packs that are not up to date: load, plan on every core, write under
    temporary names, judge, and put in place those that pass; the exit status (1 when one
    was refused; ``Failed`` 3 when the output folder cannot be written)."""
    names = stale(request)
    if names is None:  # every pack is up to date
        return 0
    from generator.check.verdict import judge, translation_problems
    from generator.output.write import out_folder

    loaded = load_games(request.components_dir, names, request.language, defer=True)
    by_language = request.language is not None
    keys: dict[tuple[Path, str], str] = {}
    for game in loaded.games:
        source = None if request.language is None else game.language
        key = pack_key(game.root, settings(request, source))
        folder = out_folder(request.out_dir, game, by_language)
        sweep_stale(folder)  # a pack a killed build left half-replaced is put back first
        if up_to_date(folder, game.name, key):
            click.echo(f"{clean(game.name)}: {display_path(folder)} is up to date")
        else:
            keys[(game.root, game.language)] = key
    loaded.games = [game for game in loaded.games if (game.root, game.language) in keys]

    def stage(pack: Pack, printing: PrintReport) -> StagedPack | None:
        verdict = judge(pack.game, pack.overflows, printing, translation_problems(pack.game))
        if not request.force and not verdict.passed:
            return None  # refused below, with the reasons; nothing to write
        pack.key = keys[(pack.game.root, pack.game.language)]
        return stage_with_progress(pack, request.out_dir, by_language)

    try:
        with progress("building", len(loaded.games) if forked(loaded.games) else 0) as tick:
            results = plan_on_all_cores(loaded, request.paper, request.options, stage, tick)
    except BaseException:  # stopped (Ctrl-C, a mistake): leave no staged file behind
        for game in loaded.games:
            folder = out_folder(request.out_dir, game, by_language)
            sweep_stale(folder)
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when it is empty: a folder this build made
        raise
    refused = commit_accepted(loaded.games, results, request.out_dir, request.force)
    return EXIT_FAILED_CHECK if refused else 0


def commit_accepted(games: list[Game], results: list[Planned], out_dir: Path, force: bool) -> int:
    """Put in place the packs of the games that pass the rules check, in order; the number
    refused. ``Failed`` 3 if the output folder cannot be written (nothing more is put in
    place)."""
    from generator.check.verdict import judge, translation_problems

    refused = 0
    for i, (game, planned) in enumerate(zip(games, results, strict=True)):
        verdict = judge(game, planned.overflows, planned.printing, translation_problems(game))
        if not passes_check(verdict, force):
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
            raise Failed(EXIT_CANNOT_WRITE)
        click.echo(
            f"{clean(game.name)}: {display_path(built.pdf)} ({built.pages} pages, "
            f"{planned.paper_name}, {game.language})"
        )
    return refused


def settings(request: Request, game_language: str | None) -> dict:
    """Everything besides files that changes what a build writes (the game's own default
    paper and source language are in its files)."""
    options = request.options
    return {
        "paper": request.paper,
        "options": [
            options.duplex,
            list(options.back_offset),
            options.layout,
            options.ink_saver,
            options.card_thickness,
        ],
        "language": game_language,
        "by_language": request.language is not None,
        "force": request.force,
    }


def stale(request: Request) -> tuple[str, ...] | None:
    """The games to load: without --lang, those whose pack is not up to date, found from
    their files alone (so a build with nothing to do loads no spec; None when there is
    none); with --lang, all."""
    if request.language is not None:
        return request.games
    try:
        roots = select_games(request.components_dir, request.games)
    except SpecFailureFor:
        return request.games  # loading reports it
    todo = []
    out_dir = request.out_dir
    for root in roots:
        key = pack_key(root, settings(request, None))
        sweep_stale(out_dir / root.name)
        if up_to_date(out_dir / root.name, root.name, key):
            click.echo(f"{clean(root.name)}: {display_path(out_dir / root.name)} is up to date")
        else:
            todo.append(root.name)
    return tuple(todo) or None


def forked(games: list[Game]) -> bool:
    """Whether the games are built in workers (several games, several cores): each game's
    own page bar cannot be drawn there, so a bar of the games done is."""
    return len(games) > 1 and cores() > 1 and can_fork()


def stage_with_progress(pack: Pack, out_dir: Path, by_language: bool) -> StagedPack:
    """Write a pack under temporary names, with a progress bar of its pages when standard
    error is a terminal and the game is built in this process (one game, or one core)."""
    from generator.output.write import stage_pack

    if not sys.stderr.isatty() or in_worker():
        return stage_pack(pack, out_dir, by_language)
    label = f"{clean(pack.game.name)} [{pack.game.language}]"
    with click.progressbar(length=pack.page_count, label=label, file=sys.stderr) as bar:
        return stage_pack(pack, out_dir, by_language, bar.update)
