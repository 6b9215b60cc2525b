"""The engine's own printed words, read from ``strings.yaml`` (see there), in the language
of a pack (``Words``): translations come from the engine's ``locale/<lang>.po`` (the key is
the message context) and, for any language, from a game's own ``locale/engine-<lang>.po``
(whose entries win), falling back to English. Counted strings take the plural form the
catalog's ``Plural-Forms`` rule chooses; numbers are written the language's way."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from generator.i18n import catalogs, numbers, pofile
from generator.i18n.plurals import ENGLISH, choose, number_of
from generator.paths import read_text
from generator.svg import scripts

HERE = Path(__file__).resolve().parent  # the package's own data: strings.yaml
SOURCE = "generator/i18n/strings.yaml"  # how catalogs name it (references, messages)


NBSP = "\u00a0"
UNIT = re.compile(r"(?<=\d)[ \u202f](?=(?:mm|cm|g/m²|pt|%|°)(?!\w))")  # 50 mm, 80 g/m², 100 %
TIMES = re.compile(r"(?<=\d)[ \u202f]?×[ \u202f]?(?=\d)")  # 63,5 × 88,9
SIGN = re.compile(r"(?<=Ø) (?=\d)")  # Ø 30 mm


def glued(text: str) -> str:
    """``text`` with no-break spaces where a line must not part a number from its unit, the
    two sides of a size, or a sign from its number ("160–250 g/m²" never ends a line with
    "160–250")."""
    text = TIMES.sub(f"{NBSP}×{NBSP}", UNIT.sub(NBSP, text))
    return SIGN.sub(NBSP, text)


@dataclass(frozen=True)
class Plural:
    """A counted string: the placeholder that counts and its two English forms."""

    count: str
    one: str
    other: str


Source = str | Plural


@cache
def _strings() -> dict[str, Source]:
    raw = yaml.safe_load(_text())
    return {
        key: Plural(value["count"], value["one"], value["other"])
        if isinstance(value, dict)
        else value
        for key, value in raw.items()
    }


@cache
def _text() -> str:
    return read_text(HERE, HERE / "strings.yaml", "package")


@cache
def _places() -> dict[str, tuple[int, str]]:
    """Each key's line in strings.yaml and the comment above it (for translators)."""
    out: dict[str, tuple[int, str]] = {}
    comment: list[str] = []
    for number, line in enumerate(_text().splitlines(), 1):
        if line.startswith("#"):
            comment.append(line.lstrip("# ").rstrip())
            continue
        found = re.match(r"([a-z0-9_]+):", line)
        if found:
            out[found[1]] = (number, " ".join(comment))
        if not line.startswith(" "):
            comment = []  # a blank line ends the file's own header too
    return out


def source_forms(key: str) -> tuple[str, ...]:
    """The English text of a key: one string, or the singular and plural of a counted one."""
    source = _strings()[key]
    return (source.one, source.other) if isinstance(source, Plural) else (source,)


def keys() -> list[str]:
    """Every key of the engine's words, in the order strings.yaml gives them."""
    return list(_strings())


@dataclass(frozen=True)
class Problem:
    """An entry of an engine catalog that cannot be used: its key, line and what is wrong."""

    key: str
    line: int | None
    message: str


@dataclass(frozen=True)
class Words:
    """The engine's printed words in one language: the usable translations (key → forms,
    one for a plain string), English for every key they lack. ``catalog`` is the game's own
    engine catalog (shown as in messages; whether it exists in ``own``), ``lines`` the line
    of each key there, ``problems`` its entries that cannot be used."""

    language: str
    translated: dict[str, tuple[str, ...]] = field(default_factory=dict)
    plural: str = ENGLISH
    catalog: str = ""
    own: bool = False
    lines: dict[str, int] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()

    def text(self, key: str, **values: object) -> str:
        """The string ``key`` with its ``{placeholders}`` filled in (numbers written the
        language's way), in the plural form its count asks for."""
        source = _strings()[key]
        forms = self.translated.get(key)
        if isinstance(source, Plural):
            n = number_of(values.get(source.count, 2))
            english = (source.one, source.other)
            chosen = choose(forms, self.plural, n) if forms else choose(english, ENGLISH, n)
        else:
            chosen = forms[0] if forms else source
        shown = {k: numbers.number(v, self.language) for k, v in values.items()}
        return glued(chosen.format(**shown))

    def place(self, key: str) -> tuple[Path | None, int | None]:
        """The catalog a key's words come from and its line there: the game's own engine
        catalog, else the engine's (None, None for English)."""
        if self.own and key in self.translated and key in self.lines:
            return Path(self.catalog), self.lines[key]
        path, lines = _shipped_lines(self.language)
        return (path, lines.get(key)) if path else (None, None)

    def number(self, value: float) -> str:
        """A number as the language writes it (63.5 is '63,5' in German)."""
        return numbers.number(value, self.language)

    def missing(self) -> list[str]:
        """The keys with no usable translation (none in English)."""
        if self.language == "en":
            return []
        return [key for key in _strings() if key not in self.translated]


def _shipped_path(language: str) -> Path | None:
    """The engine's own catalog for ``language`` (its language's for a region: pt for pt_BR)."""
    names = dict.fromkeys((language, re.split(r"[_@-]", language)[0]))
    return next((p for n in names if (p := catalogs.ENGINE_LOCALE / f"{n}.po").is_file()), None)


@cache
def _shipped(language: str) -> tuple[dict[str, tuple[str, ...]], str]:
    """The usable entries of the engine's own catalog for ``language`` and its plural rule
    (none when the engine ships no such catalog)."""
    path = _shipped_path(language)
    if path is None:
        return {}, ENGLISH
    read, rule, _, _ = usable(catalogs.read_catalog(catalogs.ENGINE_LOCALE, path), path)
    return read, rule


@cache
def _shipped_lines(language: str) -> tuple[Path | None, dict[str, int]]:
    """The engine's own catalog for ``language`` and each key's line there."""
    path = _shipped_path(language)
    if path is None:
        return None, {}
    _, _, lines, _ = usable(catalogs.read_catalog(catalogs.ENGINE_LOCALE, path), path)
    return path, lines


def usable(
    catalog: catalogs.Catalog, path: Path
) -> tuple[dict[str, tuple[str, ...]], str, dict[str, int], list[Problem]]:
    """The entries of an engine catalog that can be used (key → forms), its plural rule, the
    line of each key, and the problems of the others (fuzzy, or not keeping what the English
    must keep)."""
    source = _strings()
    out: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    problems: list[Problem] = []
    for message in catalog:
        key = message.context
        if key is None or key not in source:
            continue
        lines[key] = message.lineno or 0
        strings = catalogs.forms_of(message)
        if not any(strings):
            continue
        if message.fuzzy:
            problems.append(Problem(key, lines[key], f"'{key}' is marked fuzzy"))
            continue
        counted = isinstance(source[key], Plural)
        wrong = catalogs.form_problems(source_forms(key)[-1], message, counted, catalog)
        wrong += [scripts.message(s, *found) for s in strings if (found := scripts.unprintable(s))]
        if wrong:
            problems.append(Problem(key, lines[key], f"'{key}': {wrong[0]}"))
            continue
        out[key] = strings
    plural = catalog.plural_expr if catalog.num_plurals else ENGLISH
    return out, plural, lines, problems


def words(language: str, root: Path | None = None) -> Words:
    """The engine's words in ``language``: the engine's catalog, then the game's own
    ``locale/engine-<language>.po`` (in ``root``; its entries win). ``CatalogError`` or
    ``PathRefused`` for a game catalog that cannot be read."""
    shipped, plural = _shipped(language)
    if root is None:
        return Words(language, shipped, plural)
    path, _ = catalogs.catalog_for(root, language, engine=True)
    shown = catalogs.display_path(path)
    if not (path.exists() or path.is_symlink()):
        return Words(language, shipped, plural, shown)
    own, own_plural, lines, problems = usable(catalogs.read_catalog(root, path), path)
    merged = {**shipped, **own}
    if own_plural != plural:  # the game's rule: its counted strings are the ones kept
        merged = {k: v for k, v in merged.items() if k in own or len(v) == 1}
    return Words(language, merged, own_plural, shown, True, lines, tuple(problems))


def english() -> Words:
    """The engine's words in English, for what is said to the person running pnp."""
    return Words("en")


def engine_catalog(language: str | None = None) -> catalogs.Catalog:
    """A catalog of the engine's strings (key as context, the line in strings.yaml as
    reference, its comment for translators), with the plural forms of ``language``."""
    catalog = pofile.fresh(
        project="pnp-generator", locale=language, creation_date=catalogs.FIXED_DATE, fuzzy=False
    )
    places = _places()
    for key in _strings():
        line, comment = places.get(key, (0, ""))
        forms = source_forms(key)
        catalog.add(
            forms if len(forms) > 1 else forms[0],
            context=key,
            locations=[(SOURCE, line)],
            auto_comments=[comment] if comment else [],
            flags=["python-brace-format"] if "{" in forms[-1] else [],
        )
    return catalog
