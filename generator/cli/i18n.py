"""``pnp i18n``: catalogs for translators (gettext PO files, via Babel)."""

from __future__ import annotations

import re
from pathlib import Path

import click

from generator.cli.common import components_option, in_game_folder, load_games
from generator.errors import SpecError, SpecFailure, display_path
from generator.i18n import catalogs
from generator.i18n.plurals import examples
from generator.i18n.strings import engine_catalog
from generator.model.gamefolders import here_game
from generator.model.loader import Game
from generator.model.printed import game_strings
from generator.output.atomic import replacing
from generator.paths import PathRefused, writable_target


@click.group("i18n")
def command() -> None:
    """Extract, start and update translation catalogs."""


def _template(game: Game) -> catalogs.Catalog:
    """The game's catalog template; the free fields no template declares are said (read as
    words when they look like words, as codes otherwise: declare them text or code)."""
    docs = [game.doc, *(c.doc for c in game.components)]
    found, undeclared = game_strings(game.root, docs)
    for field in undeclared:
        offered = (
            "it is offered to translators because it reads as words"
            if field.offered
            else f"it is not offered to translators because {field.text!r} reads as a code"
        )
        click.echo(
            f"{display_path(field.path)}:{field.line}: note: field '{field.name}' is declared "
            f"by no template of its component; {offered} (declare it in the template's fields "
            "block: text to translate it, code to keep it)",
            err=True,
        )
    return catalogs.extract(found, game.root, game.spec.title)


def _one_game(components_dir: Path, name: str) -> Game:
    (game,) = load_games(components_dir, (name,)).games
    return game


def _write(catalog: catalogs.Catalog, game: Game, path: Path) -> None:
    """Write a catalog of ``game`` to ``path`` in its locale/ folder, never through a link
    and never outside the game folder, replacing the file only once it is whole."""
    try:
        writable_target(game.root, path)
    except PathRefused as exc:
        raise click.ClickException(f"{display_path(path)} {exc}") from None
    path.parent.mkdir(exist_ok=True)
    with replacing(path) as temporary:
        catalogs.write_catalog(catalog, temporary)


@command.command("extract")
@click.argument("game", required=False)
@components_option
@in_game_folder
def extract(game: str | None, components_dir: Path) -> None:
    """Write locale/<game>.pot: every string the game prints, with its spec file and line."""
    loaded = _one_game(components_dir, _named(game, components_dir, "extract GAME"))
    catalog = _template(loaded)
    path = catalogs.catalog_dir(loaded.root) / f"{loaded.name}.pot"
    _write(catalog, loaded, path)
    click.echo(f"{display_path(path)}: {len(catalog)} strings")


@command.command("init")
@click.argument("names", nargs=-1, required=True, metavar="[GAME] LANGUAGE")
@components_option
def init(names: tuple[str, ...], components_dir: Path) -> None:
    """Start locale/<language>.po for a new language from the game's strings (GAME may be
    left out in a game folder)."""
    game, language = _game_and_language(names, components_dir)
    loaded = _one_game(game[0], game[1])
    path = catalogs.catalog_dir(loaded.root) / f"{language}.po"
    try:
        found, _ = catalogs.catalog_for(loaded.root, language)
    except catalogs.CatalogError as exc:
        raise click.ClickException(str(exc)) from None
    if found.exists() or found.is_symlink():
        raise click.ClickException(
            f"{display_path(found)} exists (the {language} catalog); use 'pnp i18n update'"
        )
    catalog = _template(loaded)
    catalogs.for_language(catalog, language)
    _write(catalog, loaded, path)
    click.echo(f"{display_path(path)}: {len(catalog)} strings to translate")
    if language not in loaded.spec.languages:
        click.echo(
            f"add '{language}' to 'languages' in {display_path(loaded.doc.path)} to build it"
        )


def _game_and_language(
    names: tuple[str, ...], components_dir: Path
) -> tuple[tuple[Path, str], str]:
    """(components folder, game) and the language of ``[GAME] LANGUAGE``."""
    if len(names) > 2:
        raise click.UsageError("give at most a game and a language")
    language = names[-1]
    if not re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2})?", language):
        raise click.BadParameter(
            "give a language code such as de, fr or pt_BR", param_hint="LANGUAGE"
        )
    here = here_game(components_dir)
    if len(names) == 2:
        return ((here.parent if here else components_dir), names[0]), language
    if here is None:
        raise click.UsageError(_which_game(components_dir, f"init GAME {language}"))
    return (here.parent, here.name), language


def _named(game: str | None, components_dir: Path, command: str) -> str:
    if game is None:
        raise click.UsageError(_which_game(components_dir, command))
    return game


MAX_GAMES_NAMED = 8  # games named when a command needs one and none is given


def _which_game(components_dir: Path, command: str) -> str:
    """What to do when no game is named and this is no game folder: the games found here
    (run inside components/) or in the components folder, and the command with one."""
    for folder, option in ((Path("."), " --components ."), (components_dir, "")):
        games = sorted(p.parent.name for p in folder.glob("*/game.yaml"))
        if games:
            more = ", ..." if len(games) > MAX_GAMES_NAMED else ""
            shown = ", ".join(games[:MAX_GAMES_NAMED]) + more
            where = "this folder" if option else display_path(components_dir)
            return (
                f"{where} holds games ({shown}), not one game: name the game "
                f"(pnp i18n {command.replace('GAME', games[0])}{option}), or run it inside "
                "the game's own folder"
            )
    return "name the game, or run it in a game folder (the folder with its game.yaml)"


@command.command("update")
@click.argument("game", required=False)
@components_option
@in_game_folder
def update(game: str | None, components_dir: Path) -> None:
    """Bring every catalog of a game up to date: locale/<language>.po with its specs (new
    strings added, changed ones marked fuzzy, unused ones kept as obsolete, a translation
    made before message contexts carried over), locale/engine-<language>.po with the
    engine's words. A catalog that cannot be read is an error at its line."""
    loaded = _one_game(components_dir, _named(game, components_dir, "update GAME"))
    template = _template(loaded)
    folder = catalogs.catalog_dir(loaded.root)
    for path in sorted(folder.glob("*.po")):
        engine_language = catalogs.engine_language(path)
        catalog = _read(loaded.root, path)
        _say_rule(path, catalogs.to_gettext_rule(catalog))
        if engine_language is None:
            carried = catalogs.update(catalog, template)
        else:
            carried = catalogs.update(catalog, engine_catalog(engine_language))
        _write(catalog, loaded, path)
        click.echo(f"{display_path(path)}: updated")
        _say_carried(loaded.root, path, carried)


def _say_rule(path: Path, rule: str | None) -> None:
    """A note that a catalog's plural rule is now gettext's (``catalogs.to_gettext_rule``)."""
    if rule is not None:
        click.echo(
            f"{display_path(path)}: note: Plural-Forms is now gettext's for the language "
            f"('{rule}', as Poedit and msginit write it); each plural entry keeps the "
            "translations of the numbers its forms are for",
            err=True,
        )


def _say_carried(root: Path, path: Path, carried: list[catalogs.Key]) -> None:
    """A note at each entry that now takes a number and whose one translation ``update``
    put in every plural form: the translator makes each form read right for its numbers."""
    if not carried:
        return
    written = _read(root, path)
    lines = {catalogs.key_of(m): m.lineno for m in catalogs.entries(written)}
    rule = written.plural_expr
    forms = "; ".join(f"msgstr[{i}] for {examples(rule, i)}" for i in range(written.num_plurals))
    for key in carried:
        click.echo(
            f"{catalogs.where(path, lines.get(key))}: note: {key[1]!r} takes a number now; "
            f"its translation is in each of its {written.num_plurals} plural forms ({forms}): "
            "make each read right for its numbers",
            err=True,
        )


@command.command("engine")
@click.argument("language")
@click.argument("game", required=False)
@components_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder to write <language>.po in, for a translation of the engine itself (default: "
    "the game's locale/engine-<language>.po; in a source checkout with no game, "
    "generator/i18n/locale/).",
)
@in_game_folder
def engine(language: str, game: str | None, components_dir: Path, out_dir: Path | None) -> None:
    """Write the engine's own words (contents page, page labels, printing notes) to
    translate: into a game's locale/engine-<language>.po when run in a game folder or given
    GAME (read from there by build and check, installed pnp or not), updating it if it is
    there."""
    if not re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2})?", language):
        raise click.BadParameter("a language code such as de or pt_BR", param_hint="LANGUAGE")
    if out_dir is not None:
        _write_engine(language, out_dir, out_dir / f"{language}.po")
        return
    if game is not None:
        loaded = _one_game(components_dir, game)
        _write_engine(language, loaded.root, catalogs.engine_file(loaded.root, language), loaded)
        return
    if not _source_checkout():
        raise click.UsageError(
            "run it in a game folder, or name the game (pnp i18n engine LANGUAGE GAME): the "
            "engine's words for a language go into the game's locale/engine-LANGUAGE.po"
        )
    folder = catalogs.ENGINE_LOCALE
    _write_engine(language, folder, folder / f"{language}.po")


def _write_engine(language: str, root: Path, path: Path, game: Game | None = None) -> None:
    """Write the engine catalog for ``language`` to ``path`` (inside ``root``), updated from
    the catalog there (kept as it is: only new strings are added, changed ones marked fuzzy)
    or started from the engine's own translation."""
    catalog = engine_catalog(language)
    shipped = catalogs.ENGINE_LOCALE / f"{language}.po"
    if path.exists() or path.is_symlink():
        existing = _read(root, path)
    elif shipped.is_file():
        existing = _read(catalogs.ENGINE_LOCALE, shipped)
    else:
        existing = None
    if existing is not None:
        _say_rule(path, catalogs.to_gettext_rule(existing))
        catalogs.update(existing, catalog)
        catalog = existing
    if game is not None:
        _write(catalog, game, path)
    else:
        root.mkdir(parents=True, exist_ok=True)
        with replacing(path) as temporary:
            catalogs.write_catalog(catalog, temporary)
    click.echo(f"{display_path(path)}: {len(catalog)} strings")


def _read(root: Path, path: Path) -> catalogs.Catalog:
    """A catalog to update, read through the gate; one that cannot be read is a mistake at
    its line (exit 2)."""
    try:
        return catalogs.read_catalog(root, path)
    except catalogs.CatalogError as exc:
        message = f"broken catalog: {exc}; fix the entry, or remove the file to start again"
        raise SpecFailure([SpecError(path, exc.line, message)]) from None
    except PathRefused as exc:
        raise SpecFailure([SpecError(path, None, f"{exc}; a catalog is a PO file")]) from None


def _source_checkout() -> bool:
    """Whether the engine runs from its repository (its catalogs are the project's to edit)
    rather than an installed package (never written to)."""
    package = catalogs.ENGINE_LOCALE.parents[2]
    return (package / "pyproject.toml").is_file() and (package / ".git").exists()
