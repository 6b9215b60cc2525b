"""One module per CLI command, plus the options and game loading they share."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.errors import ErrorList, SpecError, SpecFailure
from generator.loader import DEFAULT_COMPONENTS, Game, SpecFailureFor, load_game, select_games
from generator.pipeline import Pack, plan_pack

EXIT_FAILED_CHECK = 1
EXIT_SPEC_ERROR = 2
EXIT_CANNOT_WRITE = 3

games_argument = click.argument("games", nargs=-1)
components_option = click.option(
    "--components",
    "components_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_COMPONENTS,
    show_default=True,
    help="Folder of game folders.",
)


def report_spec_errors(errors: list[SpecError]) -> None:
    """Print every spec error and exit with status 2."""
    for error in errors:
        click.echo(str(error), err=True)
    noun = "error" if len(errors) == 1 else "errors"
    click.echo(f"{len(errors)} {noun} in the specs; nothing was built.", err=True)
    sys.exit(EXIT_SPEC_ERROR)


lang_option = click.option(
    "--lang",
    "language",
    default=None,
    help="Language to print in: a code the game declares (e.g. de), or 'all' for every "
    "language each game declares. Default: the game's source language.",
)


def load_games(
    components_dir: Path, names: tuple[str, ...], language: str | None = None
) -> list[Game]:
    """Load the named games (all by default) in ``language`` ('all': in each language they
    declare); on any spec error, report them all and exit 2. Unnamed games that do not declare
    the language are left out."""
    try:
        roots = select_games(components_dir, names)
    except SpecFailureFor as exc:
        report_spec_errors([exc.error])
    errors = ErrorList()
    games = [g for root in roots if (g := load_game(root, errors)) is not None]
    if errors:
        report_spec_errors(errors.errors)
    if language is None:
        return games
    wanted: list[tuple[Path, str]] = []
    for game in games:
        declared = game.spec.languages
        if language == "all":
            wanted += [(game.root, lang) for lang in declared]
        elif language in declared or names:
            wanted.append((game.root, language))
        else:
            click.echo(
                f"{game.name}: not printed in '{language}' (languages: {', '.join(declared)})",
                err=True,
            )
    translated = [g for root, lang in wanted if (g := load_game(root, errors, lang)) is not None]
    if errors:
        report_spec_errors(errors.errors)
    return translated


def plan_games(games: list[Game], paper: str | None) -> list[Pack]:
    """Render and impose every game; report the template and art errors of all games at once
    (exit 2) before anything is written."""
    packs: list[Pack] = []
    errors: list[SpecError] = []
    for game in games:
        try:
            packs.append(plan_pack(game, paper or game.spec.paper))
        except SpecFailure as exc:
            errors.extend(exc.errors)
    if errors:
        report_spec_errors(errors)
    return packs
