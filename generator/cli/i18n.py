"""``pnp i18n``: catalogs for translators (gettext PO files, via Babel)."""

from __future__ import annotations

import re
from pathlib import Path

import click

from generator.cli.common import components_option, load_games
from generator.errors import SpecError, SpecFailure, display_path
from generator.i18n import catalogs
from generator.i18n.strings import engine_catalog
from generator.model.kinds import ENTRY_LISTS
from generator.model.loader import Game
from generator.output.atomic import replacing
from generator.paths import PathRefused, writable_target


@click.group("i18n")
def command() -> None:
    """Extract, start and update translation catalogs."""


def _template(game: Game) -> catalogs.Catalog:
    docs = [game.doc, *(c.doc for c in game.components)]
    return catalogs.extract(docs, game.root, game.spec.title, ENTRY_LISTS)


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
@click.argument("game")
@components_option
def extract(game: str, components_dir: Path) -> None:
    """Write locale/<game>.pot: every string the game prints, with its spec file and line."""
    loaded = _one_game(components_dir, game)
    catalog = _template(loaded)
    path = catalogs.catalog_dir(loaded.root) / f"{loaded.name}.pot"
    _write(catalog, loaded, path)
    click.echo(f"{display_path(path)}: {len(catalog)} strings")


@command.command("init")
@click.argument("game")
@click.argument("language")
@components_option
def init(game: str, language: str, components_dir: Path) -> None:
    """Start locale/<language>.po for a new language from the game's strings."""
    if not re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2})?", language):
        raise click.BadParameter(
            "give a language code such as de, fr or pt_BR", param_hint="LANGUAGE"
        )
    loaded = _one_game(components_dir, game)
    path = catalogs.catalog_dir(loaded.root) / f"{language}.po"
    if path.exists() or path.is_symlink():
        raise click.ClickException(f"{display_path(path)} exists; use 'pnp i18n update'")
    catalog = _template(loaded)
    catalog.locale = language
    _write(catalog, loaded, path)
    click.echo(f"{display_path(path)}: {len(catalog)} strings to translate")
    if language not in loaded.spec.languages:
        click.echo(
            f"add '{language}' to 'languages' in {display_path(loaded.doc.path)} to build it"
        )


@command.command("update")
@click.argument("game")
@components_option
def update(game: str, components_dir: Path) -> None:
    """Bring every locale/<language>.po of a game up to date with its specs: new strings are
    added, changed ones marked fuzzy, unused ones kept as obsolete."""
    loaded = _one_game(components_dir, game)
    template = _template(loaded)
    for path in sorted(catalogs.catalog_dir(loaded.root).glob("*.po")):
        catalog = _read(loaded.root, path)
        catalog.update(template)
        _write(catalog, loaded, path)
        click.echo(f"{display_path(path)}: updated")


@command.command("engine")
@click.argument("language")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder to write <language>.po in (default: generator/i18n/locale/ in a source "
    "checkout, the current folder when pnp is installed: never the installed package).",
)
def engine(language: str, out_dir: Path | None) -> None:
    """Write <language>.po of the engine's own words (inventory, page labels), updating the
    engine's catalog if there is one."""
    if not re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2})?", language):
        raise click.BadParameter("a language code such as de or pt_BR", param_hint="LANGUAGE")
    catalog = engine_catalog(language)
    source = catalogs.ENGINE_LOCALE / f"{language}.po"
    folder = out_dir or (catalogs.ENGINE_LOCALE if _source_checkout() else Path.cwd())
    path = folder / f"{language}.po"
    if source.exists():
        existing = _read(catalogs.ENGINE_LOCALE, source)
        existing.update(catalog)
        catalog = existing
    folder.mkdir(parents=True, exist_ok=True)
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
