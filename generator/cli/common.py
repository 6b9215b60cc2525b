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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.errors import ErrorList, SpecError, SpecFailure, clean, display_path
from generator.model.gamefolders import (
    DEFAULT_COMPONENTS,
    SpecFailureFor,
    here_game,
    select_games,
)
from generator.options import DEFAULT_OPTIONS, PrintOptions

if TYPE_CHECKING:
    from generator.art.sheetflow import Overflow
    from generator.check.printing import PrintReport
    from generator.layout.pack import Pack
    from generator.model.loader import Game
    from generator.output.write import StagedPack

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


def in_game_folder(func: Callable) -> Callable:
    """Let a command run inside a game folder (a game.yaml here, no components/ folder): its
    game is that folder, found in the folder above, unless games are named."""

    @functools.wraps(func)
    def command(*args: object, **kwargs: object) -> object:
        here = here_game(kwargs["components_dir"])
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
    """Print every spec error and exit with status 2."""
    for error in errors:
        click.echo(str(error), err=True)
    noun = "error" if len(errors) == 1 else "errors"
    click.echo(f"{len(errors)} {noun} in the specs; nothing was built.", err=True)
    sys.exit(EXIT_SPEC_ERROR)


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
            help="Outline-only backs and lighter dark areas.",
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
        report_spec_errors([exc])
    given = {"paper": paper, "duplex": duplex, "back_offset": back_offset, "layout": layout}
    given["ink_saver"] = ink_saver
    overridden = {key for key, value in given.items() if value is not None}
    if set(profile.values) - overridden:
        click.echo(clean(profile.describe(overridden)), err=True)
    return resolve(given, profile)


_deferred: list[SpecError] = []  # load errors kept for plan_games to report with its own


def load_games(
    components_dir: Path, names: tuple[str, ...], language: str | None = None, defer: bool = False
) -> list[Game]:
    """Load the named games (all by default) in ``language`` ('all': in each language they
    declare); on any spec error, report them all and exit 2. Unnamed games that do not declare
    the language are left out."""
    from generator.model.loader import load_game

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
                f"{clean(game.name)}: not printed in '{language}' "
                f"(languages: {', '.join(declared)})",
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
    from generator.plan.pipeline import plan_pack

    packs: list[Pack] = []
    errors: list[SpecError] = []
    for game in games:
        try:
            packs.append(plan_pack(game, paper or game.spec.paper, options))
        except SpecFailure as exc:
            errors.extend(exc.errors)
    _report_all(errors)
    report_warnings([w for pack in packs for w in pack.art.warnings])
    return packs


def report_warnings(warnings: list[tuple[Path, int | None, str]]) -> None:
    """One line per thing the art does not draw, at its template line, each once (a template
    drawn in two languages warns once): ``face.svg.j2:12: warning: filters are not drawn``."""
    for path, line, message in dict.fromkeys(warnings):
        where = display_path(path) + (f":{line}" if line else "")
        click.echo(f"{where}: warning: {clean(message)}", err=True)


@dataclass
class Planned:
    """What planning one game (and, for a build, writing its files under temporary names)
    gave: small enough to come back from a forked worker."""

    errors: list[SpecError] = field(default_factory=list)
    overflows: list[Overflow] = field(default_factory=list)
    printing: PrintReport | None = None  # how the pack prints as one job (see check.printing)
    warnings: list[tuple[Path, int | None, str]] = field(default_factory=list)  # not drawn
    staged: StagedPack | None = None
    write_error: str | None = None  # why the files could not be written
    paper_name: str = ""

    def discard(self) -> None:
        if self.staged is not None:
            self.staged.files.discard()


def plan_on_all_cores(
    games: list[Game],
    paper: str | None,
    options: PrintOptions = DEFAULT_OPTIONS,
    stage: Callable[[Pack], StagedPack | None] | None = None,
) -> list[Planned]:
    """Plan every game, one forked worker per core, and with ``stage`` write each pack under
    temporary names (unless it returns None); report the template and art errors of all games
    at once (exit 2, the staged files removed): nothing is put in place unless every game
    came out right."""
    from generator.check.printing import check_printing
    from generator.plan.parallel import map_forked
    from generator.plan.pipeline import plan_pack

    def job(game: Game) -> Planned:
        try:
            pack = plan_pack(game, paper or game.spec.paper, options)
        except SpecFailure as exc:
            return Planned(exc.errors)
        planned = Planned(
            overflows=pack.overflows,
            printing=check_printing(pack),
            paper_name=pack.paper_name,
            warnings=pack.art.warnings,
        )
        if stage is not None:
            try:
                planned.staged = stage(pack)
            except OSError as exc:
                planned.write_error = exc.strerror or str(exc)
        return planned

    results = map_forked(job, games, weight=spec_bytes, abandon=Planned.discard)
    errors = [e for planned in results for e in planned.errors]
    if errors or _deferred:
        for planned in results:
            planned.discard()
    _report_all(errors)
    report_warnings([w for planned in results for w in planned.warnings])
    return results


def spec_bytes(game: Game) -> int:
    """How much a game's specs hold: a fair guess of the work of planning it."""
    return sum(c.path.stat().st_size for c in game.components)


def _report_all(errors: list[SpecError]) -> None:
    """Report the load errors kept back and ``errors`` together (exit 2), if there are any."""
    found = list(dict.fromkeys([*_deferred, *errors]))
    _deferred.clear()
    if found:
        report_spec_errors(found)
