"""What the commands share: their options, loading games and reporting what went wrong.

The engine (spec models, templates, reportlab) is imported where a command first needs it,
not here: ``pnp build`` with nothing to do only finds the games and hashes their files, and
should answer as soon as that is done.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.errors import SpecError, SpecFailure, clean, display_path
from generator.model.gamefolders import DEFAULT_COMPONENTS, here_game
from generator.options import DEFAULT_OPTIONS, PrintOptions

if TYPE_CHECKING:
    from generator.check.printing import PrintReport
    from generator.layout.pack import Pack
    from generator.output.write import StagedPack
    from generator.plan.games import Loaded, Planned

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


def number_of(count: int, noun: str, nouns: str = "") -> str:
    """A count with its noun as English says it: '1 piece', '2 pieces' (``nouns``: the
    plural, when it is not the noun with an s)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def in_game_folder(func: Callable) -> Callable:
    """Let a command run inside a game folder (a game.yaml here, no components/ folder): its
    game is that folder, found in the folder above, unless games are named."""

    @functools.wraps(func)
    def command(*args: object, **kwargs: object) -> object:
        components_dir = kwargs["components_dir"]
        assert isinstance(components_dir, Path)  # --components has path_type=Path
        here = here_game(components_dir)
        if here is not None:
            kwargs["components_dir"] = here.parent
            if "games" in kwargs:
                kwargs["games"] = kwargs["games"] or (here.name,)
            elif kwargs.get("game") is None:
                kwargs["game"] = here.name
        return func(*args, **kwargs)

    return command


@contextlib.contextmanager
def silenced(quiet: bool = True) -> Iterator[None]:
    """Nothing printed to stdout inside (errors still reach stderr): for --json, whose
    document is printed after it."""
    if not quiet:
        yield
        return
    kept, sys.stdout = sys.stdout, io.StringIO()
    try:
        yield
    finally:
        sys.stdout = kept


def report_spec_errors(errors: list[SpecError]) -> None:
    """Print every spec error and the line that says nothing was built (exit status 2)."""
    for error in errors:
        click.echo(str(error), err=True)
    noun = "error" if len(errors) == 1 else "errors"
    click.echo(f"{len(errors)} {noun} in the specs; nothing was built.", err=True)


def _papers() -> list[str]:
    from generator.model.sizes import paper_sizes

    return list(paper_sizes())


paper_option = click.option(
    "--paper",
    type=click.Choice(_papers()),
    default=None,
    help="Paper size (default: the game's own, usually a4).",
)
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


def parse_offset(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple | None:
    if value is None:
        return None
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
            default=None,
            help="The edge your printer flips the sheet on (default: long, or your profile's).",
        ),
        click.option(
            "--back-offset",
            callback=parse_offset,
            default=None,
            metavar="X,Y",
            help="Move every back by X,Y mm to correct your printer (measure with pnp calibrate).",
        ),
        click.option(
            "--layout",
            type=click.Choice(["duplex", "fold"]),
            default=None,
            help="fold: fronts and backs on one sheet, for single-sided printers (default: "
            "duplex, or your profile's).",
        ),
        click.option(
            "--ink-saver/--no-ink-saver",
            default=None,
            help="Lighter dark areas; plain backs (wordless, grey) as outlines (a back with "
            "words, a colour or a look of its own is kept, lightened).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_options(
    paper: str | None = None,
    duplex: str | None = None,
    back_offset: tuple | None = None,
    layout: str | None = None,
    ink_saver: bool | None = None,
) -> tuple[str | None, PrintOptions]:
    """The paper and print options: the command line's flags, else the printer profile's
    (pnp.toml, the user config; said in one line when there is one), else the defaults."""
    from generator.profile import load_profile, resolve

    try:
        profile = load_profile(tuple(_papers()))
    except SpecError as exc:
        raise SpecFailure([exc]) from None
    given: dict[str, object] = {
        "paper": paper,
        "duplex": duplex,
        "back_offset": back_offset,
        "layout": layout,
        "ink_saver": ink_saver,
    }
    overridden = {key for key, value in given.items() if value is not None}
    for warning in profile.warnings:
        click.echo(f"warning: {clean(warning)}", err=True)
    if set(profile.values) - overridden:
        click.echo(clean(profile.describe(overridden)), err=True)
    return resolve(given, profile)


def load_games(
    components_dir: Path, names: tuple[str, ...], language: str | None = None, defer: bool = False
) -> Loaded:
    """The engine's ``load_games``, saying which games are left out for their languages."""
    from generator.plan.games import load_games as load

    loaded = load(components_dir, names, language, defer)
    for line in loaded.left_out:
        click.echo(line, err=True)
    report_warnings([w for game in loaded.games for w in game.warnings])
    return loaded


def plan_games(
    loaded: Loaded, paper: str | None, options: PrintOptions = DEFAULT_OPTIONS
) -> list[Pack]:
    """The engine's ``plan_games``, then what the art does not draw, as warnings."""
    from generator.plan.games import plan_games as plan

    packs = plan(loaded, paper, options)
    report_warnings([w for pack in packs for w in pack.art.warnings])
    return packs


def plan_on_all_cores(
    loaded: Loaded,
    paper: str | None,
    options: PrintOptions = DEFAULT_OPTIONS,
    stage: Callable[[Pack, PrintReport], StagedPack | None] | None = None,
    finished: Callable[[str], None] | None = None,
) -> list[Planned]:
    """The engine's ``plan_on_all_cores``, then what the art does not draw, as warnings."""
    from generator.plan.games import plan_on_all_cores as plan

    results = plan(loaded, paper, options, stage, finished)
    report_warnings([w for planned in results for w in planned.warnings])
    return results


def report_warnings(warnings: list[tuple[Path, int | None, str]]) -> None:
    """One line per doubtful thing, at its line, each once (a template drawn in two languages
    warns once): what the art does not draw (``face.svg.j2:12: warning: filters are not
    drawn``), a column no template reads, an unknown icon."""
    for path, line, message in dict.fromkeys(warnings):
        where = display_path(path) + (f":{line}" if line else "")
        click.echo(f"{where}: warning: {clean(message)}", err=True)
