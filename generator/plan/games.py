"""Games from their folders to planned packs: the entry points that build, check, list,
export, preview and watch share. Mistakes come back as ``SpecFailure`` (every mistake of every
game at once, the load errors first); nothing here prints or exits."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.art import clock
from generator.art.richtext import Overflow
from generator.check.printing import PrintReport, check_printing
from generator.errors import ErrorList, SpecError, SpecFailure, clean
from generator.layout.pack import Pack
from generator.model.gamefolders import SpecFailureFor, select_games
from generator.model.loader import Game, load_game
from generator.options import DEFAULT_OPTIONS, PrintOptions
from generator.output.write import StagedPack
from generator.plan.parallel import map_forked
from generator.plan.pipeline import plan_pack


@dataclass
class Loaded:
    """Games loaded, with what stays to say: the load errors kept back (``defer``) to be
    reported with planning's, and the games left out because they lack the language."""

    games: list[Game]
    deferred: list[SpecError] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def load_games(
    components_dir: Path, names: tuple[str, ...], language: str | None = None, defer: bool = False
) -> Loaded:
    """The named games (all by default) in ``language`` ('all': in each language they
    declare); unnamed games that do not declare the language are left out. Any spec error
    raises ``SpecFailure`` with all of them, unless ``defer`` keeps them back (a game that
    loaded in part is still planned, so its template mistakes are found too)."""
    try:
        roots = select_games(components_dir, names)
    except SpecFailureFor as exc:
        raise SpecFailure([exc.error]) from None
    errors = ErrorList()
    games = [g for root in roots if (g := load_game(root, errors, partial=defer)) is not None]
    if errors and not defer:
        raise SpecFailure(errors.errors)
    if language is None:
        return Loaded(games, list(errors.errors))
    wanted, left_out = _wanted(games, names, language)
    if not wanted:
        message = f"no game here declares language '{language}'"
        raise SpecFailure([SpecError(components_dir, None, message)])
    translated = [
        g for root, lang in wanted if (g := load_game(root, errors, lang, defer)) is not None
    ]
    if errors and not defer:
        raise SpecFailure(errors.errors)
    return Loaded(translated, list(errors.errors), left_out)


def _wanted(
    games: list[Game], names: tuple[str, ...], language: str
) -> tuple[list[tuple[Path, str]], list[str]]:
    """The (game, language) pairs to load, and a line for each game left out."""
    wanted: list[tuple[Path, str]] = []
    left_out = []
    for game in games:
        declared = game.spec.languages
        if language == "all":
            wanted += [(game.root, lang) for lang in declared]
        elif language in declared or names:
            wanted.append((game.root, language))
        else:
            left_out.append(
                f"{clean(game.name)}: not printed in '{language}' "
                f"(languages: {', '.join(declared)})"
            )
    return wanted, left_out


def plan_games(
    loaded: Loaded, paper: str | None, options: PrintOptions = DEFAULT_OPTIONS
) -> list[Pack]:
    """Render and impose every game here; ``SpecFailure`` with the template and art errors
    of all games (and the load errors kept back)."""
    packs: list[Pack] = []
    errors: list[SpecError] = []
    with clock.new_build():
        for game in loaded.games:
            try:
                packs.append(plan_pack(game, paper or game.spec.paper, options))
            except SpecFailure as exc:
                errors.extend(exc.errors)
    _fail_with(loaded.deferred, errors)
    return packs


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
    loaded: Loaded,
    paper: str | None,
    options: PrintOptions = DEFAULT_OPTIONS,
    stage: Callable[[Pack, PrintReport], StagedPack | None] | None = None,
    finished: Callable[[str], None] | None = None,
) -> list[Planned]:
    """Plan every game, one forked worker per core, and with ``stage`` (given the pack and
    its print report) write each pack under temporary names (unless it returns None);
    ``finished`` hears the name of each game done. Any template or art error of any game
    raises ``SpecFailure`` with all of them, the staged files removed: nothing is put in
    place unless every game came out right."""

    def job(game: Game) -> Planned:
        try:
            pack = plan_pack(game, paper or game.spec.paper, options)
        except SpecFailure as exc:
            return Planned(exc.errors)
        planned = Planned(
            overflows=pack.overflows,
            printing=check_printing(pack),  # checked once: ``stage`` is given the report
            paper_name=pack.paper_name,
            warnings=pack.art.warnings,
        )
        if stage is not None:
            try:
                assert planned.printing is not None
                planned.staged = stage(pack, planned.printing)
            except OSError as exc:
                planned.write_error = exc.strerror or str(exc)
            except SpecFailure as exc:  # the written pack disagrees with itself (readback)
                planned.errors = exc.errors
        return planned

    def done(index: int) -> None:
        if finished is not None:
            finished(loaded.games[index].name)

    with clock.new_build():
        results = map_forked(
            job, loaded.games, weight=spec_bytes, abandon=Planned.discard, finished=done
        )
    errors = [e for planned in results for e in planned.errors]
    if errors or loaded.deferred:
        for planned in results:
            planned.discard()
    _fail_with(loaded.deferred, errors)
    return results


def spec_bytes(game: Game) -> int:
    """How much a game's specs hold: a fair guess of the work of planning it."""
    return sum(c.path.stat().st_size for c in game.components)


def _fail_with(deferred: list[SpecError], errors: list[SpecError]) -> None:
    """Raise ``SpecFailure`` with the load errors kept back and ``errors``, if any."""
    found = list(dict.fromkeys([*deferred, *errors]))
    if found:
        raise SpecFailure(found)
