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
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from babel.messages import pofile
from babel.messages.catalog import Catalog, Message

from generator.errors import display_path
from generator.i18n import keeping
from generator.i18n.plurals import PluralError, check_header
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
    its text, its message context and notes for the translator."""

    loc: Loc
    text: str
    context: str
    notes: tuple[str, ...] = ()


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


def engine_language(path: Path) -> str | None:
    """The language of a game's engine catalog (None for any other file)."""
    prefix = ENGINE_FILE.split("{")[0]
    name = path.name
    return name[len(prefix) : -3] if name.startswith(prefix) and name.endswith(".po") else None


def update(catalog: Catalog, template: Catalog) -> None:
    """Bring ``catalog`` up to date with ``template`` as Babel does, and carry over the
    translation of an entry made without a message context to the entries of the same text
    that now have one (not fuzzy: the text is the same)."""
    plain = {
        m.id: m.string for m in catalog if m.id and m.context is None and m.string and not m.fuzzy
    }
    catalog.update(template, update_header_comment=False)
    for message in catalog:
        stale = not message.string or message.fuzzy
        if message.context is not None and message.id in plain and stale:
            message.string = plain[message.id]
            message.flags.discard("fuzzy")
            message.previous_id = []
    for key in [k for k, m in catalog.obsolete.items() if m.context is None and m.id in plain]:
        if any(m.id == catalog.obsolete[key].id for m in catalog if m.context is not None):
            del catalog.obsolete[key]


def extract(
    documents: Sequence[tuple[YamlDoc, Sequence[Found]]], root: Path, project: str
) -> Catalog:
    """A catalog template of the printed strings of a game's documents: one entry per text
    and context, with every place it comes from and the notes for translators."""
    catalog = Catalog(project=project, creation_date=FIXED_DATE, fuzzy=False)
    for doc, found in documents:
        for item in found:
            path, line = doc.where(item.loc)
            reference = (path.relative_to(root).as_posix(), line)
            flags = ["python-brace-format"] if keeping.PLACEHOLDER.search(item.text) else []
            message = catalog.get(item.text, item.context)
            if message is None:
                catalog.add(
                    item.text,
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

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def read_catalog(root: Path, path: Path, kind: str = "catalog") -> Catalog:
    """A PO/POT file inside ``root``, read through the gate; ``CatalogError`` naming the line
    of a broken entry (or the size of a file past its limit, before it is read), and
    ``PathRefused`` for a file that is not one inside ``root``."""
    try:
        raw = read_bytes(root, path, kind)
    except TooLarge as exc:
        raise CatalogError(
            f"the file is {exc.size:,} bytes; a catalog may have {exc.limit:,} (a game's "
            "strings take a few hundred kilobytes)"
        ) from None
    try:
        check_header(raw)  # before Babel makes nplurals strings for each plural entry
    except PluralError as exc:
        raise CatalogError(str(exc), exc.line) from None
    try:
        return _parsed(raw)
    except ValueError as exc:
        raise CatalogError(str(exc), _catalog_line(raw, str(exc))) from None


def _parsed(raw: bytes) -> Catalog:
    """The catalog in ``raw``; ValueError for a broken one."""
    for number, line in enumerate(raw.splitlines()):
        text = line.strip()
        if text.startswith((b"msgid", b"msgstr", b"msgctxt", b'"')) and not PO_STRING.fullmatch(
            text
        ):
            raise ValueError(f"a string is not closed on {number}")
    try:
        return pofile.read_po(io.BytesIO(raw), abort_invalid=True)
    except pofile.PoFileError as exc:
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
    """Write a catalog as PO (sorted, without line wrapping, so diffs stay small)."""
    with open(path, "wb") as handle:
        pofile.write_po(handle, catalog, width=0, sort_output=True)


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
    fuzzy: list[tuple[str, str]] = field(default_factory=list)
    broken: list[tuple[str, str, str]] = field(default_factory=list)  # (where, msgid, what)
    obsolete: list[str] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)
    undeclared: list[tuple[str, str, str]] = field(default_factory=list)  # (where, field, text)
    texts: dict[str, str] = field(default_factory=dict)  # a translation → its catalog place
    catalog: Path | None = None  # the catalog read, and the line of each translation in it
    text_lines: dict[str, int] = field(default_factory=dict)
    entry_lines: dict[Key, int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return not self.problems

    @property
    def problems(self) -> int:
        """How many strings the translation lacks or breaks, or cannot tell."""
        return len(self.missing) + len(self.fuzzy) + len(self.broken) + len(self.undeclared)


def where(path: Path, line: int | None) -> str:
    """A place as messages give it: ``file:line``."""
    return display_path(path) + (f":{line}" if line else "")


def _key(message: Message) -> Key:
    return (message.context, message.id if isinstance(message.id, str) else message.id[0])


def entries(catalog: Catalog) -> Iterable[Message]:
    """The catalog's entries of spec strings (not its header, not plural entries)."""
    return (m for m in catalog if isinstance(m.id, str) and m.id)


def translations(catalog: Catalog) -> dict[Key, str]:
    """(context, msgid) → msgstr of the usable entries: translated, not fuzzy, keeping what
    the source must keep."""
    out: dict[Key, str] = {}
    for message in entries(catalog):
        string = message.string
        if not isinstance(string, str) or not string or message.fuzzy:
            continue
        key = _key(message)
        if not keeping.differences(key[1], string):
            out[key] = string
    return out


def lookup(table: dict[Key, str], context: str, text: str) -> str | None:
    """A string's translation: by its context, else an entry without one (a catalog made
    before contexts, or a translation meant for every place)."""
    found = table.get((context, text))
    return table.get((None, text)) if found is None else found


def translate(
    doc: YamlDoc,
    found: Sequence[Found],
    table: dict[Key, str],
    report: Report,
    lines: dict[Key, str] | None = None,
) -> Any:
    """A copy of the document's data with every printed string translated; what the table
    lacks stays in the source language and is added to ``report``; ``lines`` (the catalog
    place of each entry) fills ``report.places``."""
    data = copy.deepcopy(doc.data)
    flawed = {at for at, _ in report.fuzzy} | {at for at, _, _ in report.broken}
    for item in found:
        translated = lookup(table, item.context, item.text)
        path, line = doc.where(item.loc)
        place = None
        if lines is not None:
            place = lines.get((item.context, item.text)) or lines.get((None, item.text))
        if translated is None:
            if place not in flawed:  # a fuzzy or broken one is reported at its catalog line
                report.missing.append((where(path, line), item.text))
            continue
        if place:
            report.places[where(path, line)] = place
            report.texts[translated] = place
        key = (item.context, item.text)
        entry_line = report.entry_lines.get(key) or report.entry_lines.get((None, item.text))
        if entry_line:
            report.text_lines[translated] = entry_line
        _set(data, item.loc, translated)
    return data


def _set(data: Any, loc: Loc, value: str) -> None:
    for part in loc[:-1]:
        data = data[part]
    data[loc[-1]] = value


def audit(catalog: Catalog, path: Path, used: set[Key], report: Report) -> dict[Key, str]:
    """Fuzzy entries, translations that do not keep what they must, and obsolete strings of
    the catalog at ``path``, each at its line; returns the place of every entry."""
    places: dict[Key, str] = {}
    texts = {text for _, text in used}
    report.catalog = path
    for message in entries(catalog):
        key, string = _key(message), message.string
        source = key[1]
        at = where(path, message.lineno)
        places[key] = at
        report.entry_lines[key] = message.lineno or 0
        if key not in used and not (key[0] is None and source in texts):
            report.obsolete.append(source)
        elif message.fuzzy and string:
            report.fuzzy.append((at, source))
        elif isinstance(string, str) and string:
            report.broken += [(at, source, d) for d in keeping.differences(source, string)]
    return places
