"""One module per CLI command, plus the options and game loading they share."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import click

from generator.errors import ErrorList, SpecError, SpecFailure
from generator.impose import DEFAULT_OPTIONS, PrintOptions
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


out_option = click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("output"),
    show_default=True,
    help="Output folder: packs go to <out>/<game>/.",
)
lang_option = click.option(
    "--lang",
    "language",
    default=None,
    help="Language to print in: a code the game declares (e.g. de), or 'all' for every "
    "language each game declares. Default: the game's source language.",
)


def _offset(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple:
    if value is None:
        return (0.0, 0.0)
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter("give X,Y in mm, e.g. 1.5,-0.5") from None
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > 20 or abs(y) > 20:
        raise click.BadParameter("an offset of more than 20 mm is not a printer's error")
    return (x, y)


def print_options(func):
    """The options that say how the user prints (duplex edge, back offset, fold, ink)."""
    options = [
        click.option(
            "--duplex",
            type=click.Choice(["long", "short"]),
            default="long",
            show_default=True,
            help="The edge your printer flips the sheet on.",
        ),
        click.option(
            "--back-offset",
            callback=_offset,
            default=None,
            metavar="X,Y",
            help="Move every back by X,Y mm to correct your printer (measure with pnp calibrate).",
        ),
        click.option(
            "--layout",
            type=click.Choice(["duplex", "fold"]),
            default="duplex",
            show_default=True,
            help="fold: fronts and backs on one sheet, for single-sided printers.",
        ),
        click.option(
            "--ink-saver", is_flag=True, help="Outline-only backs and lighter dark areas."
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_options(
    duplex: str = "long",
    back_offset: tuple = (0.0, 0.0),
    layout: str = "duplex",
    ink_saver: bool = False,
) -> PrintOptions:
    """PrintOptions from the command line's values."""
    return PrintOptions(duplex, tuple(back_offset), layout, ink_saver)


_deferred: list[SpecError] = []  # load errors kept for plan_games to report with its own


def load_games(
    components_dir: Path, names: tuple[str, ...], language: str | None = None, defer: bool = False
) -> list[Game]:
    """Load the named games (all by default) in ``language`` ('all': in each language they
    declare); on any spec error, report them all and exit 2. Unnamed games that do not declare
    the language are left out."""
    try:
        roots = select_games(components_dir, names)
    except SpecFailureFor as exc:
        report_spec_errors([exc.error])
    errors = ErrorList()
    games = [g for root in roots if (g := load_game(root, errors, partial=defer)) is not None]
    if errors and not defer:
        report_spec_errors(errors.errors)
    if language is None:
        _deferred.extend(errors.errors)
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
    if not wanted:
        report_spec_errors(
            [SpecError(components_dir, None, f"no game here declares language '{language}'")]
        )
    translated = [
        g for root, lang in wanted if (g := load_game(root, errors, lang, defer)) is not None
    ]
    if errors and not defer:
        report_spec_errors(errors.errors)
    _deferred.extend(errors.errors)
    return translated


def plan_games(
    games: list[Game], paper: str | None, options: PrintOptions = DEFAULT_OPTIONS
) -> list[Pack]:
    """Render and impose every game; report the template and art errors of all games at once
    (exit 2) before anything is written."""
    packs: list[Pack] = []
    errors: list[SpecError] = list(dict.fromkeys(_deferred))
    _deferred.clear()
    for game in games:
        try:
            packs.append(plan_pack(game, paper or game.spec.paper, options))
        except SpecFailure as exc:
            errors.extend(exc.errors)
    if errors:
        report_spec_errors(errors)
    return packs
