"""Translations: gettext PO catalogs (via Babel) of every string a game prints.

Which strings print is the spec stage's to say (``model.printed``: by the models' marks and
the fields templates declare), each with its place, its message context (``component:
field``) and notes for translators; this module keeps them in catalogs and puts translations
in their place. Each catalog entry carries the spec's ``file:line`` as its reference, so
Poedit, Weblate or Crowdin show translators where a string comes from.

A game's catalogs live in ``components/<game>/locale/``: ``<game>.pot`` (the template), one
``<lang>.po`` per language, and ``engine-<lang>.po`` for the engine's own words in a language
the engine does not ship (``strings``). The engine's own catalogs are in
``generator/i18n/locale/``. A missing or broken translation falls back to the source text and
is reported by ``pnp check --lang`` at its line.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError

from generator.errors import display_path
from generator.i18n import keeping, plurals, pofile
from generator.i18n.plurals import ENGLISH, Forms, PluralError, examples
from generator.limits import FILE_BYTES
from generator.paths import TooLarge, read_bytes

__all__ = ["Catalog", "display_path"]

CODE = re.compile(r":[a-z0-9][a-z0-9-]*:")
PO_STRING = re.compile(rb'(?:msgctxt|msgid(?:_plural)?|msgstr(?:\[\d+\])?)?\s*"(?:[^"\\]|\\.)*"')
ENGINE_LOCALE = Path(__file__).resolve().parent / "locale"
ENGINE_FILE = "engine-{language}.po"  # a game's own catalog of the engine's words
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)  # catalogs diff cleanly
MAX_CATALOG_BYTES = FILE_BYTES["catalog"]

Loc = tuple[str | int, ...]
Key = tuple[str | None, str]  # (message context, source text)
Translation = str | tuple[str, ...]  # a plain entry's msgstr, or a plural entry's forms


class YamlDoc(Protocol):
    """A spec document as catalogs need it (``spec.yamlsource.YamlDoc`` is one): its file,
    its data and the file and line of any place in it (a data file's, for rows read from
    one). Translation comes before the spec stage, so it names what it needs instead of
    importing the spec's reader."""

    path: Path
    data: Any

    def line_of(self, loc: Loc) -> int: ...

    def where(self, loc: Loc) -> tuple[Path, int]: ...


@dataclass(frozen=True)
class Found:
    """A printed string of a spec (found by ``model.printed``): where it is in its document,
    its text, its message context, notes for the translator, and whether it takes a number
    (``counted``: a plural entry, a translation for each plural form of the language)."""

    loc: Loc
    text: str
    context: str
    notes: tuple[str, ...] = ()
    counted: bool = False


def reads_as(value: Any) -> str:
    """How a value of a free field no template declares reads: ``text`` (words), ``word``
    (a single lowercase word: a code such as a suit, or a printed word; only its spec can
    tell) or ``other`` (no letters, a colour, a file name, not a string)."""
    if not isinstance(value, str):
        return "other"
    bare = CODE.sub("", value).replace("**", "").strip()
    if not re.search(r"[^\W\d_]", bare):
        return "other"
    if re.fullmatch(r"#[0-9a-fA-F]{3,8}", bare) or re.search(r"\.(svg|j2|png|jpe?g)$", bare):
        return "other"
    return "word" if re.fullmatch(r"[a-z0-9_-]+", bare) else "text"


def catalog_dir(root: Path) -> Path:
    """Where a game keeps its catalogs."""
    return root / "locale"


def engine_file(root: Path, language: str) -> Path:
    """A game's own catalog of the engine's words in ``language``."""
    return catalog_dir(root) / ENGINE_FILE.format(language=language)


LOCALE_NAME = re.compile(r"([a-z]{2,3})(?:[_-]([a-z]{2}|[0-9]{3}))?(?:@\w+)?", re.IGNORECASE)


def _language_of(name: str) -> tuple[str, str | None] | None:
    """(language, region) of a catalog's name (``fr_FR``, ``pt-br``, ``de``); None for a name
    that is no language code."""
    found = LOCALE_NAME.fullmatch(name)
    if found is None:
        return None
    return found[1].lower(), found[2].upper() if found[2] else None


def catalog_for(root: Path, language: str, engine: bool = False) -> tuple[Path, list[Path]]:
    """The catalog a game keeps for ``language`` (its engine words' with ``engine``): the
    one named so (``fr.po``), else the only one of the language named by a region
    (``fr_FR.po``, ``fr-FR.po`` for ``fr``) or without one (``pt.po`` for ``pt_BR``); and the
    other catalogs of the language, which are not read. ``CatalogError`` when the language
    has several and none is named for it."""
    name = ENGINE_FILE.format(language=language) if engine else f"{language}.po"
    exact = catalog_dir(root) / name
    want = _language_of(language)
    same = [p for p in _catalogs(root, engine) if p.name != name and _alike(p, want, engine)]
    if exact.exists() or exact.is_symlink() or not same:
        return exact, same
    if len(same) == 1:
        return same[0], []
    names = ", ".join(display_path(p) for p in same)
    raise CatalogError(
        f"{names} are all catalogs of {language}, and none is named {name}: rename the one "
        f"to use to {name} (the game declares '{language}' in its languages)"
    )


def _catalogs(root: Path, engine: bool) -> list[Path]:
    """A game's catalogs of the game's strings (or of the engine's words)."""
    folder = catalog_dir(root)
    if not folder.is_dir() or folder.is_symlink():
        return []
    return [p for p in sorted(folder.glob("*.po")) if (engine_language(p) is not None) == engine]


def _alike(path: Path, want: tuple[str, str | None] | None, engine: bool) -> bool:
    """Whether the catalog at ``path`` is one of the language ``want`` (the same language,
    the same region or one of them without)."""
    stem = engine_language(path) if engine else path.stem
    found = _language_of(stem or "")
    if found is None or want is None or found[0] != want[0]:
        return False
    return found[1] == want[1] or found[1] is None or want[1] is None


def engine_language(path: Path) -> str | None:
    """The language of a game's engine catalog (None for any other file)."""
    prefix = ENGINE_FILE.split("{")[0]
    name = path.name
    return name[len(prefix) : -3] if name.startswith(prefix) and name.endswith(".po") else None


def update(catalog: Catalog, template: Catalog) -> list[Key]:
    """Bring ``catalog`` up to date with ``template`` as Babel does, and carry over the
    translation of an entry made without a message context to the entries of the same text
    that now have one (not fuzzy: the text is the same). An entry that now takes a number
    (a plural entry) gets its one translation in every form, as it printed before; returns
    those entries, for the translator to make each form fit its numbers."""
    old = {key_of(m): (forms_of(m)[0], m.fuzzy) for m in entries(catalog) if not m.pluralizable}
    plain = {text: one for (ctx, text), (one, fuzzy) in old.items() if not (ctx or fuzzy) and one}
    catalog.update(template, update_header_comment=False)
    carried: list[Key] = []
    for message in entries(catalog):
        key = key_of(message)
        one, fuzzy = old.get(key, ("", False))
        stale = not any(forms_of(message)) or message.fuzzy
        if message.pluralizable and one:  # Babel put it in msgstr[0] alone, and fuzzy
            message.string = (one,) * catalog.num_plurals
            message.flags.discard("fuzzy")
            message.flags |= {"fuzzy"} if fuzzy else set()
        elif key[0] is not None and key[1] in plain and stale:
            one = plain[key[1]]
            message.string = (one,) * catalog.num_plurals if message.pluralizable else one
            message.flags.discard("fuzzy")
            message.previous_id = []
        else:
            continue
        carried += [key] if message.pluralizable else []
    for gone in [k for k, m in catalog.obsolete.items() if m.context is None and m.id in plain]:
        if any(key_of(m)[1] == catalog.obsolete[gone].id for m in catalog if m.context is not None):
            del catalog.obsolete[gone]
    return carried


def extract(
    documents: Sequence[tuple[YamlDoc, Sequence[Found]]], root: Path, project: str
) -> Catalog:
    """A catalog template of the printed strings of a game's documents: one entry per text
    and context, with every place it comes from and the notes for translators; a string
    that takes a number is a plural entry whose msgid_plural is its msgid (the source has
    one text for every number). Entries come in the order of the specs and their lines, as
    xgettext orders a template by its sources."""
    catalog = pofile.fresh(project=project, creation_date=FIXED_DATE, fuzzy=False)
    placed = [
        ((index, doc.line_of(item.loc), order), doc, item)
        for index, (doc, found) in enumerate(documents)
        for order, item in enumerate(found)
    ]
    for _, doc, item in sorted(placed, key=lambda entry: entry[0]):
        path, line = doc.where(item.loc)
        reference = (path.relative_to(root).as_posix(), line)
        flags = ["python-brace-format"] if keeping.PLACEHOLDER.search(item.text) else []
        message = catalog.get(item.text, item.context)
        if message is None:
            catalog.add(
                (item.text, item.text) if item.counted else item.text,
                context=item.context,
                locations=[reference],
                auto_comments=list(item.notes),
                flags=flags,
            )
        else:
            message.locations.append(reference)
            message.auto_comments += [n for n in item.notes if n not in message.auto_comments]
    return catalog


class CatalogError(ValueError):
    """A catalog that cannot be read: what is wrong with it, and its line where that can be
    told."""

    def __init__(self, message: str, line: int | None = None, path: Path | None = None):
        super().__init__(message)
        self.line = line
        self.path = path  # the catalog, when the error is one catalog's


def read_catalog(root: Path, path: Path, kind: str = "catalog") -> Catalog:
    """A PO/POT file inside ``root``, read through the gate; ``CatalogError`` naming the line
    of a broken entry (or the size of a file past its limit, before it is read), and
    ``PathRefused`` for a file that is not one inside ``root``."""
    try:
        raw = read_bytes(root, path, kind)
    except TooLarge as exc:
        raise CatalogError(
            f"the file is {exc.size:,} bytes; a catalog may have {exc.limit:,} (a game's "
            "strings take a few hundred kilobytes)",
            path=path,
        ) from None
    try:
        return _parsed(raw)
    except (PluralError, pofile.HeaderError) as exc:
        raise CatalogError(str(exc), exc.line, path) from None
    except ValueError as exc:
        raise CatalogError(str(exc), _catalog_line(raw, str(exc)), path) from None


def _parsed(raw: bytes) -> Catalog:
    """The catalog in ``raw``, its header bounded as Babel reads it (``pofile.read``);
    ValueError for a broken one."""
    for number, line in enumerate(raw.splitlines()):
        text = line.strip()
        if text.startswith((b"msgid", b"msgstr", b"msgctxt", b'"')) and not PO_STRING.fullmatch(
            text
        ):
            raise ValueError(f"a string is not closed on {number}")
    try:
        return pofile.read(raw)
    except PoFileError as exc:
        raise ValueError(str(exc)) from None
    except (UnicodeDecodeError, LookupError) as exc:
        raise ValueError(f"not readable as its declared charset ({exc})") from None


def _catalog_line(raw: bytes, message: str) -> int | None:
    """The line of a catalog that a reading error points at, where it can be told."""
    found = re.search(r"\bon (?:line )?(\d+)", message)
    if found:
        return int(found[1]) + 1  # Babel counts lines from 0
    if "decode" in message:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return raw.count(b"\n", 0, exc.start) + 1
    if "encoding" in message and b"charset=" in raw:
        return raw.count(b"\n", 0, raw.index(b"charset=")) + 1
    return None


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a catalog as PO the way GNU gettext writes it (``pofile.write``: the specs'
    order, 79 columns), so that a translator's own tools write it back unchanged."""
    with open(path, "wb") as handle:
        pofile.write(catalog, handle)


def for_language(catalog: Catalog, language: str) -> None:
    """Make ``catalog`` one of ``language``: its locale, and gettext's plural rule for it."""
    catalog.locale = language
    pofile.set_field(catalog, "Plural-Forms", plurals.forms_header(language))


def to_gettext_rule(catalog: Catalog) -> str | None:
    """Move a catalog written with CLDR's plural rule for its language (as pnp wrote them
    before, through Babel) to gettext's, each plural entry's forms taken from the form that
    served the same numbers; the new ``Plural-Forms``, or None when nothing changed."""
    language = catalog.locale_identifier
    cldr = plurals.cldr_rule(language) if language else None
    if not language or cldr is None:
        return None
    value = plurals.forms_header(language)
    old, new = (catalog.num_plurals, catalog.plural_expr), plurals.parse_header(value)
    if not plurals.same_rule(old, cldr) or plurals.same_rule(old, new):
        return None
    chosen = plurals.remap(old, new)
    for message in [*entries(catalog), *catalog.obsolete.values()]:
        if message.pluralizable:
            forms = forms_of(message)
            message.string = tuple(forms[i] if i < len(forms) else "" for i in chosen)
    pofile.set_field(catalog, "Plural-Forms", value)
    return value


@dataclass
class Report:
    """What a language lacks: strings missing (at their spec line), fuzzy or broken (at
    their catalog line, with what is wrong), strings the catalog holds that no spec uses any
    more, where each translated spec string's translation is (spec ``file:line`` → catalog
    ``file:line``, so that a translation too long for its box is reported there), and the
    free fields no template declares whose value reads as a code (they may print
    untranslated: the spec must say)."""

    language: str
    missing: list[tuple[str, str]] = field(default_factory=list)  # (where, msgid)
    missing_keys: set[Key] = field(default_factory=set)  # their catalog entries
    fuzzy: list[tuple[str, str]] = field(default_factory=list)
    broken: list[tuple[str, str, str]] = field(default_factory=list)  # (where, msgid, what)
    obsolete: list[str] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)
    plural: str = ENGLISH  # the catalog's plural rule, choosing the form of a counted string
    undeclared: list[tuple[str, str, str]] = field(default_factory=list)  # (where, field, text)
    texts: dict[str, str] = field(default_factory=dict)  # a translation → its catalog place
    unread: list[Path] = field(default_factory=list)  # other catalogs of the language
    catalog: Path | None = None  # the catalog read, and the line of each translation in it
    text_lines: dict[str, int] = field(default_factory=dict)
    entry_lines: dict[Key, int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return not self.problems

    @property
    def problems(self) -> int:
        """How many strings the translation lacks or breaks, or cannot tell: a missing one
        counted once however many places use it, as its catalog has it once."""
        return len(self.missing_keys) + len(self.fuzzy) + len(self.broken) + len(self.undeclared)


def where(path: Path, line: int | None) -> str:
    """A place as messages give it: ``file:line``."""
    return display_path(path) + (f":{line}" if line else "")


def key_of(message: Message) -> Key:
    """An entry's (context, msgid): a plural entry is known by its singular msgid."""
    return (message.context, message.id if isinstance(message.id, str) else message.id[0])


def entries(catalog: Catalog) -> Iterable[Message]:
    """The catalog's entries of strings (not its header)."""
    return (m for m in catalog if m.id)


def forms_of(message: Message) -> tuple[str, ...]:
    """An entry's translation: its msgstr, or a plural entry's msgstr[0], msgstr[1], …
    (Babel gives as many as the catalog's Plural-Forms has; empty ones are '')."""
    raw = message.string
    return tuple(s or "" for s in raw) if isinstance(raw, (list, tuple)) else (raw or "",)


def form_problems(source: str, message: Message, counted: bool, catalog: Catalog) -> list[str]:
    """What is wrong with a translated entry of ``source`` in ``catalog``: an entry that is
    plural when the string takes no number (``counted``) or the reverse, an empty form, or a
    form not keeping what the source must keep (each form named with the numbers it is for,
    by the catalog's Plural-Forms)."""
    forms = forms_of(message)
    last = f"msgstr[{catalog.num_plurals - 1}]"
    if counted and not message.pluralizable:
        return [
            "it takes a number, so it needs a translation for each plural form of the "
            f"language (msgid_plural, msgstr[0] to {last}, as Plural-Forms says): run 'pnp "
            "i18n update', which puts this translation in each of them"
        ]
    if message.pluralizable and not counted:
        return [
            "it has plural forms but takes no number: run 'pnp i18n update', which keeps "
            "msgstr[0] as its translation"
        ]
    if not message.pluralizable:
        return keeping.differences(source, forms[0])
    out = []
    for index, form in enumerate(forms):
        name = f"msgstr[{index}] (the form for {examples(catalog.plural_expr, index)})"
        if not form:
            out.append(f"{name} is empty; give every form from msgstr[0] to {last}")
        out += [f"{name}: {wrong}" for wrong in keeping.differences(source, form) if form]
    return out


def translations(catalog: Catalog) -> dict[Key, Translation]:
    """(context, msgid) → msgstr (a plural entry's forms) of the usable entries: translated
    in every form, not fuzzy, keeping what the source must keep."""
    out: dict[Key, Translation] = {}
    for message in entries(catalog):
        forms = forms_of(message)
        if message.fuzzy or not all(forms):
            continue
        key = key_of(message)
        if not any(keeping.differences(key[1], form) for form in forms):
            out[key] = forms if message.pluralizable else forms[0]
    return out


def lookup(table: dict[Key, Translation], context: str, text: str) -> Translation | None:
    """A string's translation: by its context, else an entry without one (a catalog made
    before contexts, or a translation meant for every place)."""
    found = table.get((context, text))
    return table.get((None, text)) if found is None else found


def translate(
    doc: YamlDoc,
    found: Sequence[Found],
    table: dict[Key, Translation],
    report: Report,
    lines: dict[Key, str] | None = None,
) -> Any:
    """A copy of the document's data with every printed string translated (a counted one
    with all its forms, ``Forms``, and the catalog's rule); what the table lacks stays in
    the source language and is added to ``report``; ``lines`` (the catalog place of each
    entry) fills ``report.places``."""
    data = copy.deepcopy(doc.data)
    flawed = {at for at, _ in report.fuzzy} | {at for at, _, _ in report.broken}
    for item in found:
        translated = lookup(table, item.context, item.text)
        if isinstance(translated, tuple) != item.counted:
            translated = None  # a plain entry for a counted string or the reverse: broken
        path, line = doc.where(item.loc)
        place = None
        if lines is not None:
            place = lines.get((item.context, item.text)) or lines.get((None, item.text))
        if translated is None:
            if place not in flawed:  # a fuzzy or broken one is reported at its catalog line
                report.missing.append((where(path, line), item.text))
                report.missing_keys.add((item.context, item.text))
            continue
        forms = translated if isinstance(translated, tuple) else (translated,)
        key = (item.context, item.text)
        entry_line = report.entry_lines.get(key) or report.entry_lines.get((None, item.text))
        for form in forms:
            if place:
                report.texts[form] = place
            if entry_line:
                report.text_lines[form] = entry_line
        if place:
            report.places[where(path, line)] = place
        _set(data, item.loc, Forms(forms, report.plural) if item.counted else forms[0])
    return data


def _set(data: Any, loc: Loc, value: str | Forms) -> None:
    for part in loc[:-1]:
        data = data[part]
    data[loc[-1]] = value


def audit(
    catalog: Catalog, path: Path, used: set[Key], report: Report, counted: set[Key] | None = None
) -> dict[Key, str]:
    """Fuzzy entries, translations that do not keep what they must (or lack a plural form
    of a string that takes a number, one of ``counted``), and obsolete strings of the
    catalog at ``path``, each at its line; returns the place of every entry."""
    places: dict[Key, str] = {}
    texts = {text for _, text in used}
    counted = counted or set()
    counted_texts = {text for _, text in counted}
    report.catalog = path
    report.plural = catalog.plural_expr
    for message in entries(catalog):
        key = key_of(message)
        source = key[1]
        at = where(path, message.lineno)
        places[key] = at
        report.entry_lines[key] = message.lineno or 0
        translated = any(forms_of(message))
        if key not in used and not (key[0] is None and source in texts):
            report.obsolete.append(source)
        elif message.fuzzy and translated:
            report.fuzzy.append((at, source))
        elif translated:
            takes = key in counted or (key[0] is None and source in counted_texts)
            wrong = form_problems(source, message, takes, catalog)
            report.broken += [(at, source, problem) for problem in wrong]
    return places
