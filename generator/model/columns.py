"""What every column of a card or token list does: it is read by a field its templates declare
(``templatefields``), by the engine (``count``, ``name``, the entry's own keys, a style key
per piece, the field a style is mapped by, a sheet table or recipe of the deck), or it is
reported, once per file, with the field it was probably meant for. A style value a piece sets
(a column ``accent``, or its value of the field a style is mapped by) is checked at its row,
and so is an icon name no icon of its template has, and a word a template draws by name that
it does not know (``choices``).

Nothing here draws: the checks read the specs, the fields blocks of the templates and the
``icons`` block of the icon templates."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from generator.errors import ctrl_c_held
from generator.model.choices import unknown_choices
from generator.model.fielduse import disagreements, icon_names, template_use
from generator.model.game import PER_PIECE, STYLE_VALUES, GameSpec, Style, StyleMap
from generator.model.templatefields import FieldsError, template_file

Notice = tuple[Path, int | None, str]  # file, line, what is wrong and how to fix it

# names other tools (or other spellings) give what a field of ours holds
HINTS = {
    "qty": "count",
    "quantity": "count",
    "copies": "count",
    "amount": "count",
    "colour": "accent",
    "color": "accent",
    "image": "art",
    "picture": "art",
    "description": "text",
    "rules": "text",
}
PRINTED_NAME = ("title", "label")  # what the contents and listings call a piece (Design.label)
ICON_CODE = re.compile(r":([a-z0-9][a-z0-9-]*):")


@dataclass
class Columns:
    """The columns (or keys) of one component's entries as written: the field each names,
    its heading, the line of its heading (or first use), and the file they are in."""

    path: Path
    headings: dict[str, str]
    lines: dict[str, int]


def entry_columns(
    doc_path: Path, raw: list[Any], lines: dict[tuple, int], table: Any | None
) -> Columns:
    """The columns of a component's entries: a data file's headings (``table``), or the keys
    of the entries listed in the spec ``raw`` with the line of each key's first use."""
    if table is not None:
        names = dict.fromkeys(table.columns)
        for row in table.rows:
            names.update(dict.fromkeys(k for k in row if k not in names))
        found = {name: table.columns.get(name, name) for name in names}
        return Columns(table.path, found, dict.fromkeys(found, table.header))
    headings: dict[str, str] = {}
    first: dict[str, int] = {}
    for index, entry in enumerate(raw):
        if isinstance(entry, dict):
            for key in entry:
                headings.setdefault(str(key), str(key))
                first.setdefault(str(key), lines.get((index, key), lines.get((index,), 1)))
    return Columns(doc_path, headings, first)


def fields_block_error(root: Path, exc: FieldsError) -> Notice:
    """The error of a template's fields block that cannot be read, at the template's line."""
    path = template_file(root, exc.template) if exc.template else None
    return (
        path or root / "templates" / (exc.template or "?"),
        exc.line,
        f"{exc}; the fields block lists 'name: kind  what it is for'",
    )


def unused_columns(
    columns: Columns,
    templates: list[str],
    declared: dict[str, str],
    engine: set[str],
    noun: str,
) -> list[Notice]:
    """A notice for each column no declared field and nothing of the engine reads."""
    notices: list[Notice] = []
    used = set(declared) | engine
    by_whom = " and ".join(templates)
    for name, heading in columns.headings.items():
        if name in used:
            continue
        hint = HINTS.get(name) or next(
            iter(difflib.get_close_matches(name, sorted(used), n=1, cutoff=0.75)), None
        )
        if hint:
            fix = f" (did you mean '{hint}'?); rename the column, or delete it"
        else:
            fields = ", ".join(declared) or "none"
            fix = (
                f"; rename it to a field they draw ({fields}), colour the {noun}s by it "
                f"(style: {{accent: {{by: {name}, map: {{...}}}}}}), or delete it"
            )
        notices.append(
            (
                columns.path,
                columns.lines.get(name),
                f"column '{heading}' is used by no field of {by_whom}, so no {noun} prints it{fix}",
            )
        )
    return notices


def style_problems(game: GameSpec, style: Style, entries: list[Any], where: Any) -> list[Notice]:
    """Every style value a piece sets that the stock templates cannot use, at its row: a
    column of a style key's name holding something else, or a value of the field a style is
    mapped by that its map does not list (and no default)."""
    problems: list[Notice] = []
    rules = _mapped_rules(game, style)
    for index, entry in enumerate(entries):
        own = entry.fields()
        for key in PER_PIECE:
            if key in own and own[key] not in (None, ""):
                problem = _bad_value(key, own[key])
                if problem:
                    problems.append((*where((index, key)), f"column '{key}': {problem}"))
        for key, rule in rules.items():
            if key in own and own[key] not in (None, ""):
                continue  # the piece's own value wins
            problem = _unmapped(key, rule, own)
            if problem:
                problems.append((*where((index, rule.by)), problem))
    return problems


def _mapped_rules(game: GameSpec, style: Style) -> dict[str, StyleMap[Any]]:
    """The style keys mapped by a field, the component's over the game's."""
    rules = {k: v for k, v in game.style if isinstance(v, StyleMap)}
    for key in style.model_fields_set:
        value = getattr(style, key)
        if isinstance(value, StyleMap):
            rules[key] = value
        else:
            rules.pop(key, None)
    return rules


def mapped_by(game: GameSpec, style: Style) -> set[str]:
    """The fields a style of the component is mapped by (they are read by the engine)."""
    return {rule.by for rule in _mapped_rules(game, style).values()}


def _bad_value(key: str, value: Any) -> str | None:
    """Why ``value`` cannot be style key ``key``, or None."""
    adapter = _adapter(key)
    try:
        with ctrl_c_held():  # pydantic-core calls discriminators from native code
            adapter.validate_python(value)
    except ValidationError as exc:
        message = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        message = message[0].lower() + message[1:]
        got = "" if repr(value) in message else f", got {value!r}"
        return f"{message}{got} (the card's own style.{key})"
    return None


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def _adapter(key: str) -> TypeAdapter[Any]:
    """The type of a single value of style key ``key`` (not its mapped form)."""
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(STYLE_VALUES[key])
    return _ADAPTERS[key]


def _unmapped(key: str, rule: StyleMap[Any], own: dict[str, Any]) -> str | None:
    """Why a piece's value of the field ``rule`` maps by gives style ``key`` nothing, or None."""
    if rule.default is not None:
        return None
    value = own.get(rule.by)
    listed = [str(k) for k in rule.map]
    if value is not None and str(value) in listed:
        return None
    if value in (None, ""):
        return (
            f"column '{rule.by}' is empty, and style.{key} is mapped by it; give one of "
            f"{', '.join(listed)} (or a default: in the map)"
        )
    close = difflib.get_close_matches(str(value), listed, n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return (
        f"column '{rule.by}': '{value}' is not in the map of style.{key} ({', '.join(listed)})"
        f"{hint}; add it to the map, give the map a default:, or fix the cell"
    )


def unknown_icons(
    icons: str, known: frozenset[str], declared: dict[str, str], entries: list[Any], where: Any
) -> list[Notice]:
    """A notice for each icon a piece names (a field of kind ``icons``, or ``:name:`` in a
    field of kind ``text``) that the icon template ``icons`` (drawing ``known``) lacks, at
    its row."""
    notices: list[Notice] = []
    for index, entry in enumerate(entries):
        fields = entry.fields()
        for key, name in _named_icons(fields, declared):
            if name in known:
                continue
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'? It" if close else "it"
            notices.append(
                (
                    *where((index, key)),
                    f"column '{key}': icon '{name}' is not one of {icons}'s icons, so it "
                    f"prints as a '?' disc; {hint} has: {', '.join(sorted(known))}",
                )
            )
    return notices


def _named_icons(fields: dict[str, Any], declared: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(field, icon name) of every icon the fields of a piece name."""
    for key, kind in declared.items():
        value = fields.get(key)
        if value in (None, ""):
            continue
        if kind == "icons":
            names = value if isinstance(value, list) else str(value).replace(",", " ").split()
            yield from ((key, str(n)) for n in names)
        elif kind == "text":
            yield from ((key, m[1]) for m in ICON_CODE.finditer(str(value)))


def engine_fields(game: GameSpec, component: Any, components: list[Any]) -> set[str]:
    """The fields of a component's entries the engine reads: the entry's own keys (name,
    count, group ...), its printed name (the contents page lists a piece by its title), the
    style keys a piece may set, the fields its style is mapped by,
    the fields the game's recipe of it identifies cards by, its tally's field, and the
    columns of every sheet table made from it."""
    spec = component.spec
    found = {"name", *PRINTED_NAME, *PER_PIECE, *mapped_by(game, spec.style)}
    for entry in spec.entries[:1]:
        found.update(type(entry).model_fields)
    recipe = game.recipes.get(component.id)
    if recipe is not None:
        found.update(recipe.identify)
    tally = getattr(spec, "tally", None)
    if tally is not None:
        found.add(tally.field)
    for other in components:
        for section in getattr(other.spec, "sections", []) if other.spec.kind == "sheet" else []:
            for block in section.blocks:
                if block.table is not None and block.table.from_ == component.id:
                    found.update(block.table.columns)
    return found


def review(
    root: Path, game: GameSpec, component: Any, table: Any | None, components: list[Any]
) -> tuple[list[Notice], list[Notice]]:
    """(errors, warnings) of one component's entries: style values a piece sets that cannot
    be used and words its templates do not draw (errors, at their rows); columns nothing
    reads and icons its icon template does not have (warnings)."""
    spec = component.spec
    entries = spec.entries
    if not spec.entries_key or not entries:
        return [], []
    doc = component.doc

    def where(loc: tuple[Any, ...]) -> tuple[Path, int]:
        path, line = doc.where((spec.entries_key, *loc))
        return path, line

    errors = style_problems(game, spec.style, entries, where)
    names = [n for k, n in spec.templates().items() if k in ("face", "back") and n]
    errors += unknown_choices(root, names, entries, where)
    try:
        use = template_use(root, names, {"piece", spec.noun})
    except FieldsError as exc:  # a typo in a fields block: an error to fix at its line
        return [*errors, fields_block_error(root, exc)], []
    if not use.known:
        return errors, []
    raw = doc.data.get(spec.entries_key) if isinstance(doc.data, dict) else None
    columns = entry_columns(doc.path, raw if isinstance(raw, list) else [], doc.lines, table)
    engine = engine_fields(game, component, components)
    shared = set(spec.fields)
    warnings = unused_columns(columns, names, use.fields, engine, spec.noun)
    warnings += disagreements(root, use, {**dict.fromkeys(shared, 0), **columns.lines}, engine)
    style_icons = spec.style.icons if "icons" in spec.style.model_fields_set else game.style.icons
    drawn = icon_names(root, use, style_icons if isinstance(style_icons, str) else None)
    if drawn is not None:
        warnings += unknown_icons(*drawn, use.fields, entries, where)
    return errors, warnings
