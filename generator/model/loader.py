"""Find game folders and load their specs into validated models, collecting every error.

A game folder holds ``game.yaml`` and one YAML file per component. Pydantic validation errors
are turned into ``file:LINE: message`` using the line map from ``yamlsource``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import ErrorList, SpecError, display_path
from generator.i18n import catalogs
from generator.i18n.plurals import Forms
from generator.i18n.strings import Words, words
from generator.model import columns
from generator.model.columns import Notice
from generator.model.datafiles import Table, read_table
from generator.model.fontfiles import (
    FontFileError,
    coverage,
    missing_glyphs,
    scripts_lacking,
    truetype,
)
from generator.model.game import GameSpec
from generator.model.gamefolders import near_file, slugify, template_dirs, unread_yaml
from generator.model.griddata import grid_names, read_grid_tables
from generator.model.kinds import COMPONENT_KINDS, ENTRY_LISTS, ComponentSpec
from generator.model.places import stand_problems
from generator.model.printed import game_strings
from generator.model.sametitles import same_titles
from generator.model.validation import validate
from generator.model.yamlsource import YamlDoc, load_yaml
from generator.paths import PathRefused, check, regular_file, within
from generator.svg import scripts
from generator.svg.fonts import FontFile, read_font


@dataclass
class Component:
    """A validated component spec and the YAML document it came from."""

    id: str
    spec: ComponentSpec
    doc: YamlDoc
    parked: list[tuple[str, Path, int]] = field(default_factory=list)  # count 0: not printed

    @property
    def path(self) -> Path:
        return self.doc.path


@dataclass
class Game:
    """A validated game: its folder, ``game.yaml`` and components in file-name order."""

    name: str
    root: Path
    spec: GameSpec
    doc: YamlDoc
    components: list[Component] = field(default_factory=list)
    language: str = "en"
    report: catalogs.Report | None = None
    fonts: dict[int, FontFile] = field(default_factory=dict)  # the own fonts that can be used
    words: Words = field(default_factory=lambda: Words("en"))  # the engine's, in its language
    warnings: list[Notice] = field(default_factory=list)  # what loading found doubtful
    unloaded: frozenset[str] = frozenset()  # specs that did not load (a partial game's)

    def template_dirs(self) -> list[Path]:
        """Where templates are looked up: the game's own first, then the shared ones."""
        return template_dirs(self.root)


def load_game(
    root: Path, errors: ErrorList, language: str | None = None, partial: bool = False
) -> Game | None:
    """Load one game folder, in ``language`` if given (else its source language); add every
    mistake to ``errors`` and return None if any (with ``partial``, the game with the
    components that are sound, so that drawing them can find the mistakes left)."""
    before = len(errors.errors)
    game_file = root / "game.yaml"
    if not game_file.is_file():
        _no_game_file(root, errors)
        return None
    files = [game_file, *(p for p in sorted(root.glob("*.yaml")) if p.name != "game.yaml")]
    readable = []
    for path in files:
        try:
            regular_file(root, path)
            readable.append(path)
        except PathRefused as exc:
            errors.add(path, None, f"{exc}; a spec is a YAML file inside the game folder")
    doc = _parse(root, game_file, errors) if game_file in readable else None
    docs = [d for p in readable if p != game_file and (d := _parse(root, p, errors)) is not None]
    parsed = list(docs)
    data_files: set[Path] = set()
    tables: dict[Path, Table] = {}
    docs = [d for d in docs if _read_data(root, d, errors, data_files, tables)]
    notices: list[Notice] = []  # what loading finds doubtful: columns nothing reads ...
    docs = [d for d in docs if read_grid_tables(root, d, errors, data_files, notices)]
    docs = [d for d in docs if d.path not in data_files]
    parked = {d.path: _park(d, tables.get(d.path)) for d in docs}
    _check_folders(root, errors)
    report = None
    if doc is not None and language is not None:
        report = _translate(root, [doc, *docs], language, errors)
    spec = validate(GameSpec, doc, errors) if doc else None
    fonts = _check_fonts(root, spec, doc, errors) if doc is not None and spec is not None else {}
    for text_doc in [d for d in (doc, *docs) if d is not None]:
        _check_glyphs(text_doc, errors, tuple(fonts.values()), report)
    if doc is not None and spec is not None:
        _check_font_scripts(spec, doc, [d for d in (doc, *docs) if d is not None], fonts, errors)
    if doc is not None and spec is not None:
        for deck, recipe in spec.recipes.items():
            for loc, message in recipe.problems():
                errors.add(game_file, doc.line_of(("recipes", deck, *loc)), message)
    components = [c for d in docs if (c := _load_component(d, errors))]
    specs = [p for p in files if p != game_file]
    unloaded = _unloaded(specs, parsed, data_files, components)
    notices += _check_components(root, spec, components, parked, tables, errors, unloaded)
    notices += [(path, None, message) for path, message in unread_yaml(root, data_files)]
    words = _engine_words(root, language or spec.languages[0], errors) if spec else None
    if doc is None or spec is None or (len(errors.errors) > before and not partial):
        return None
    # a template's notice reaches every component it draws: each said once
    said = list(dict.fromkeys(notices))
    game = Game(root.name, root, spec, doc, components, fonts=fonts, warnings=said)
    game.language = language or spec.languages[0]
    game.report = report
    game.words = words or Words(game.language)
    game.unloaded = unloaded
    return game


def _no_game_file(root: Path, errors: ErrorList) -> None:
    """The error of a game folder without game.yaml (a game.yml in it is named)."""
    named = " (game.yml is not read: rename it game.yaml)" if (root / "game.yml").is_file() else ""
    errors.add(
        root, None, f"no game.yaml{named}; every game folder needs one (title, players, expect)"
    )


def _check_components(
    root: Path,
    spec: GameSpec | None,
    components: list[Component],
    parked: dict[Path, list[tuple[str, Path, int]]],
    tables: dict[Path, Table],
    errors: ErrorList,
    unloaded: frozenset[str],
) -> list[Notice]:
    """The rules across components (ids, where pieces stand, what one asks of another), each
    one's templates, grid names and columns; the notices the columns' review gives. What one
    says of an ``unloaded`` component (its own errors said) is no mistake of its own."""
    notices: list[Notice] = []
    _check_unique_ids(components, errors)
    for stood, loc, message in stand_problems(components, unloaded):
        errors.add(stood.doc.path, stood.doc.line_of(loc), message)
    specs = {c.id: c.spec for c in components}
    for component in components:
        for loc, message in component.spec.problems_among(specs, unloaded):
            errors.add(component.path, component.doc.line_of(loc), message)
    for component in components:
        component.parked = parked.get(component.path, [])
        _check_templates(root, component, errors)
        errors.errors.extend(SpecError(*p) for p in grid_names(root, component.spec, component.doc))
        if spec is not None:
            wrong, said = columns.review(
                root, spec, component, tables.get(component.path), components
            )
            errors.errors.extend(SpecError(*problem) for problem in wrong)
            notices += said
            notices += same_titles(tables.get(component.path), component.spec.noun)
    return notices


def _engine_words(root: Path, language: str, errors: ErrorList) -> Words | None:
    """The engine's words in ``language`` for this game: the engine's catalog and the
    game's own ``locale/engine-<language>.po``, which an error at its line leaves out."""
    try:
        return words(language, root)
    except catalogs.CatalogError as exc:
        if exc.path is None:  # not one catalog's: which of several to read
            errors.add(catalogs.catalog_dir(root), None, str(exc))
            return None
        errors.add(exc.path, exc.line, f"broken catalog: {exc}; fix the entry or remove the file")
    except PathRefused as exc:
        path = catalogs.engine_file(root, language)
        errors.add(path, None, f"{exc}; a catalog is a PO file inside locale/")
    return None


def _translate(
    root: Path, docs: list[YamlDoc], language: str, errors: ErrorList
) -> catalogs.Report | None:
    """Translate every document's printed strings in place; the report lists what was
    missing or broken, each at its line."""
    declared = docs[0].data.get("languages", ["en"]) if isinstance(docs[0].data, dict) else []
    if language not in declared:
        errors.add(
            docs[0].path,
            docs[0].line_of(("languages",)),
            f"the game does not declare language '{language}'; it has: "
            f"{', '.join(map(str, declared))}",
        )
        return None
    report = catalogs.Report(language)
    if language == declared[0]:
        return report
    try:
        path, report.unread = catalogs.catalog_for(root, language)
    except catalogs.CatalogError as exc:
        errors.add(catalogs.catalog_dir(root), None, str(exc))
        return None
    found, undeclared = game_strings(root, docs)
    report.undeclared = [
        (catalogs.where(u.path, u.line), u.name, u.text) for u in undeclared if not u.offered
    ]
    table: dict[catalogs.Key, catalogs.Translation] = {}
    places: dict[catalogs.Key, str] = {}
    if path.exists() or path.is_symlink():
        catalog = _read_catalog(root, path, errors)
        if catalog is None:
            return None
        table = catalogs.translations(catalog)
        used: set[catalogs.Key] = {(f.context, f.text) for _, items in found for f in items}
        counted: set[catalogs.Key] = {(f.context, f.text) for _, i in found for f in i if f.counted}
        places = catalogs.audit(catalog, path, used, report, counted)
    for doc, items in found:
        doc.data = catalogs.translate(doc, items, table, report, places)
    return report


def _read_catalog(root: Path, path: Path, errors: ErrorList) -> catalogs.Catalog | None:
    """A game's catalog read through the gate; None (the error reported at its line) when
    it cannot be."""
    try:
        regular_file(root, path)
    except PathRefused as exc:
        errors.add(path, None, f"{exc}; a catalog is a PO file inside locale/")
        return None
    try:
        return catalogs.read_catalog(root, path)
    except ValueError as exc:
        errors.add(
            path,
            exc.line if isinstance(exc, catalogs.CatalogError) else None,
            f"broken catalog: {exc}; fix the entry or run pnp i18n update",
        )
        return None


def _read_data(
    root: Path, doc: YamlDoc, errors: ErrorList, read: set[Path], tables: dict[Path, Table]
) -> bool:
    """Put the rows of every data file a spec names (``cards: {from: cards.csv}``) in its
    place, keeping their lines, add the files to ``read`` (a YAML list among the specs is
    data, not a component) and the table to ``tables`` under the spec's path. False when one
    cannot be read: the error is reported."""
    if not isinstance(doc.data, dict):
        return True
    for key in sorted(ENTRY_LISTS):
        source = doc.data.get(key)
        if not isinstance(source, dict):
            continue
        unknown = sorted(map(str, set(source) - {"from", "sheet"}))
        name, sheet = source.get("from"), source.get("sheet")
        if unknown or not isinstance(name, str) or not isinstance(sheet, (str, type(None))):
            problem = f"'{unknown[0]}' is not a key here" if unknown else "'from' names no file"
            errors.add(
                doc.path,
                doc.line_of((key, unknown[0]) if unknown else (key,)),
                f"{problem}; write {key}: {{from: {key}.csv}} (and sheet: NAME for another "
                "sheet of a spreadsheet), or list the entries",
            )
            return False
        try:
            table = read_table(root, name, sheet)
        except SpecError as exc:
            if exc.line is None and not (root / name).exists():  # said where it is named
                exc = SpecError(doc.path, doc.line_of((key, "from")), _no_data_file(root, name))
            errors.errors.append(exc)
            return False
        if not table.rows:
            parked = f" (every row has count 0: {len(table.parked)} parked)" if table.parked else ""
            message = f"no rows below the headings{parked}; {key} need at least one"
            errors.add(table.path, table.header if table.parked else None, message)
            return False
        doc.data[key] = table.rows
        doc.sources[(key,)] = (table.path, table.lines)
        read.add(table.path)
        tables[doc.path] = table
    return True


def _no_data_file(root: Path, name: str) -> str:
    """A data file that is not there, with the data file of the game its name is closest to."""
    kinds = None if name.lower().endswith((".yaml", ".yml")) else TABLES
    return f"data file '{name}' not found in the game folder; " + _fix_path(
        root,
        name,
        kinds,
        "name it by its path in the game folder, e.g. cards.csv or data/cards.csv",
    )


def _fix_path(root: Path, name: str, kinds: set[str] | None, otherwise: str) -> str:
    """How to fix a path to a file that is not there: the file it probably meant, else
    ``otherwise``."""
    near = near_file(root, name, kinds)
    return f"did you mean '{near}'?" if near else otherwise


TABLES = {".csv", ".tsv", ".xlsx", ".ods", ".json"}  # data files that are never specs
FONT_FILES = {".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2"}


def _park(doc: YamlDoc, table: Table | None) -> list[tuple[str, Path, int]]:
    """The entries given ``count: 0``, taken out of the spec (their lines moved with the
    entries that stay): kept aside, listed by pnp list, never printed, as spreadsheet tools
    for cards do. A data file's were taken out when it was read."""
    if table is not None:
        return [(name, table.path, line) for name, line in table.parked]
    if not isinstance(doc.data, dict):
        return []
    parked: list[tuple[str, Path, int]] = []
    for key in sorted(ENTRY_LISTS):
        entries = doc.data.get(key)
        if not isinstance(entries, list):
            continue
        kept = [
            i
            for i, e in enumerate(entries)
            if not (isinstance(e, dict) and e.get("count") == 0 and e.get("count") is not False)
        ]
        if len(kept) in (len(entries), 0):
            continue  # nothing parked, or everything: the spec's own error says so
        for i in sorted(set(range(len(entries))) - set(kept)):
            parked.append((str(entries[i].get("name", i + 1)), doc.path, doc.line_of((key, i))))
        moved: dict[Any, int] = {old: new for new, old in enumerate(kept)}
        doc.lines = {
            (loc[:1] + (moved[loc[1]],) + loc[2:] if _under(loc, key) else loc): line
            for loc, line in doc.lines.items()
            if not _under(loc, key) or loc[1] in moved
        }
        doc.data[key] = [entries[i] for i in kept]
    return parked


def _under(loc: tuple, key: str) -> bool:
    return len(loc) >= 2 and loc[0] == key and isinstance(loc[1], int)


def _check_glyphs(
    doc: YamlDoc,
    errors: ErrorList,
    fonts: tuple[FontFile, ...] = (),
    report: catalogs.Report | None = None,
) -> None:
    """Every string a template may print can be drawn: in a script pnp prints (not one that
    needs shaping pnp does not do, ``svg.scripts``) and by an embedded font (the
    default one, or one of the game's own ``fonts``). A translated string is told at its
    catalog line."""
    files = ", ".join(["DejaVu", *(display_path(Path(f.name)) for f in fonts)])
    for loc, text in _all_strings(doc.data):
        path, line = doc.where(loc)
        if report is not None and report.catalog is not None and text in report.text_lines:
            path, line = report.catalog, report.text_lines[text]
        too_long = scripts.overlong(text)
        if too_long is not None:
            errors.add(path, line, too_long)
            continue
        unprintable = scripts.unprintable(text)
        if unprintable is not None:
            errors.add(path, line, scripts.message(text, *unprintable))
            continue
        lacking = missing_glyphs(text, fonts)
        if lacking:
            errors.add(
                path,
                line,
                f"no font of the game ({files}) has a glyph for {' '.join(lacking)} in "
                f"'{text}'; use other characters or add a font that has them (fonts:)",
            )


def _check_folders(root: Path, errors: ErrorList) -> None:
    """The game's templates/ and locale/ folders, when they are there, lie inside it."""
    for name in ("templates", "locale"):
        folder = root / name
        if folder.exists() or folder.is_symlink():
            try:
                within(root, folder)
            except PathRefused as exc:
                errors.add(folder, None, f"{exc}; it is not read")


def _check_fonts(
    root: Path, spec: GameSpec, doc: YamlDoc, errors: ErrorList
) -> dict[int, FontFile]:
    """The game's own fonts, by their place under ``fonts:``, each read once through the gate
    and parsed: a TrueType font inside the game folder. Every one that is not is an error at
    its line and is left out, so nothing opens it again (drawing registers only these)."""
    found: dict[int, FontFile] = {}
    for index, font in enumerate(spec.fonts):
        line = doc.line_of(("fonts", index, "file"))
        try:
            read = truetype(read_font(root, root / font.file), font.face, font.weight, font.style)
            coverage(read)
        except (PathRefused, FontFileError) as exc:
            fix = ""
            if str(exc) == "not found":
                otherwise = "put the font file in the game folder and name it by its path there"
                fix = "; " + _fix_path(root, font.file, FONT_FILES, otherwise)
            errors.add(doc.path, line, f"font '{font.file}' {exc}{fix}")
            continue
        found[index] = read
    return found


def _check_font_scripts(
    spec: GameSpec, doc: YamlDoc, docs: list[YamlDoc], fonts: dict[int, FontFile], errors: ErrorList
) -> None:
    """A game's font without a letter of a script its text is written in (Arabic, Hebrew) is
    an error at the font's line: text in that script drawn in it would have no glyphs."""
    if not fonts:
        return
    texts = [text for d in docs for _, text in _all_strings(d.data)]
    for index, font in fonts.items():
        for script, text in scripts_lacking(font, texts):
            shown = text if len(text) <= 30 else text[:29] + "…"
            errors.add(
                doc.path,
                doc.line_of(("fonts", index, "file")),
                f"font '{spec.fonts[index].file}' has no {script} letters, and the game's text "
                f"is written in {script} ('{shown}'); use a font that has them (the stock "
                "sans-serif has Arabic and Hebrew)",
            )


def _all_strings(data: Any, loc: tuple = ()) -> list[tuple[tuple, str]]:
    """Every string value of a document, with its path (each form of a translated string
    that takes a number)."""
    if isinstance(data, str):
        return [(loc, data)]
    if isinstance(data, Forms):
        return [(loc, form) for form in data.forms]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in _all_strings(v, (*loc, k))]
    if isinstance(data, list):
        return [s for i, v in enumerate(data) for s in _all_strings(v, (*loc, i))]
    return []


def _parse(root: Path, path: Path, errors: ErrorList) -> YamlDoc | None:
    try:
        return load_yaml(path, root)
    except SpecError as exc:
        errors.errors.append(exc)
        return None


def _load_component(doc: YamlDoc, errors: ErrorList) -> Component | None:
    path = doc.path
    if not isinstance(doc.data, dict):
        errors.add(path, doc.line_of(()), "a component spec is a mapping with a 'kind' key")
        return None
    kinds = ", ".join(COMPONENT_KINDS)
    kind = doc.data.get("kind")
    if kind is None:
        errors.add(path, 1, f"missing 'kind'; say what this component is: {kinds}")
        return None
    if not isinstance(kind, str) or kind not in COMPONENT_KINDS:
        errors.add(path, doc.line_of(("kind",)), f"unknown kind '{kind}'; allowed: {kinds}")
        return None
    spec = validate(COMPONENT_KINDS[kind], doc, errors)
    if spec is None:
        return None
    problems = spec.problems()
    for loc, message in problems:
        errors.add(*doc.where(loc), message)  # a row of a data file, or a line of the spec
    if problems:
        return None
    return Component(spec.id or slugify(path.stem), spec, doc)


def _unloaded(
    specs: list[Path], parsed: list[YamlDoc], data: set[Path], components: list[Component]
) -> frozenset[str]:
    """The ids of the component specs that did not load (their own errors are said): each
    file's name, and the id a parsed one gives itself."""
    ids = {slugify(p.stem) for p in specs if p not in data}
    ids |= {str(d.data["id"]) for d in parsed if isinstance(d.data, dict) and "id" in d.data}
    return frozenset(ids - {c.id for c in components})


def _check_unique_ids(components: list[Component], errors: ErrorList) -> None:
    seen: dict[str, Component] = {}
    for component in components:
        first = seen.setdefault(component.id, component)
        if first is not component:
            errors.add(
                component.path,
                component.doc.line_of(("id",)),
                f"component id '{component.id}' is already used by {first.path.name}; "
                "give one of them another 'id'",
            )


def _check_templates(root: Path, component: Component, errors: ErrorList) -> None:
    """Every template a component names is a regular file in a templates folder."""
    for key, name in component.spec.templates().items():
        if not name:
            continue
        found = [(d, d / name) for d in template_dirs(root) if (d / name).exists()]
        problem = "not found in {0}/templates/ or the shared templates/; check the file name"
        if found:
            try:
                check(*found[0], "template")
                continue
            except PathRefused as exc:
                problem = str(exc)
        errors.add(
            component.path,
            component.doc.line_of((key,)),
            f"template '{name}' " + problem.format(root.name),
        )
