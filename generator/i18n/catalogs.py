"""Translations: gettext PO catalogs (via Babel) of every string a game prints.

The strings are found in the specs themselves: titles, labels, headings, paragraphs, bullets,
table cells, and the free fields of entries and components that read as text (not codes such
as ``cocoa``, colours or file names). Each catalog entry carries the spec's ``file:line`` as its
reference, so Poedit, Weblate or Crowdin show translators where a string comes from.

A game's catalogs live in ``components/<game>/locale/``: ``<game>.pot`` (the template) and one
``<lang>.po`` per language. The engine's own words (inventory page, page labels) have their
catalogs in ``generator/i18n/locale/``. A missing translation falls back to the source text and is
reported by ``pnp check --lang``.
"""

from __future__ import annotations

import copy
import gettext
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from babel.messages import pofile
from babel.messages.catalog import Catalog

from generator.errors import display_path
from generator.limits import FILE_BYTES
from generator.paths import TooLarge, read_bytes

__all__ = ["Catalog"]

TEXT_KEYS = {"title", "label", "text", "heading", "page_title", "authored"}
TEXT_LIST_KEYS = {"bullets", "labels", "header"}
FREE_KEYS = {"fields"}
RESERVED = {"name", "count", "per_player", "series", "counts", "group", "id", "kind"}
# free fields that hold data for the templates, never words: skipped whatever they contain
DATA_KEYS = {
    "layout",
    "icon",
    "icons",
    "colour",
    "color",
    "accent",
    "fill",
    "shape",
    "style",
    "suit",
    "rank",
    "tags",
    "value",
    "faces",
}
CODE = re.compile(r":[a-z0-9][a-z0-9-]*:")
PO_STRING = re.compile(rb'(?:msgctxt|msgid(?:_plural)?|msgstr(?:\[\d+\])?)?\s*"(?:[^"\\]|\\.)*"')
PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")
ENGINE_LOCALE = Path(__file__).resolve().parent / "locale"
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)  # catalogs diff cleanly
MAX_CATALOG_BYTES = FILE_BYTES["catalog"]

Loc = tuple[str | int, ...]


class YamlDoc(Protocol):
    """A spec document as catalogs need it (``spec.yamlsource.YamlDoc`` is one): its file,
    its data and the file and line of any place in it (a data file's, for rows read from
    one). Translation comes before the spec stage, so it names what it needs instead of
    importing the spec's reader."""

    path: Path
    data: Any

    def line_of(self, loc: Loc) -> int: ...

    def where(self, loc: Loc) -> tuple[Path, int]: ...


def is_text(value: Any) -> bool:
    """Whether a spec value is printed words (not a code, colour, number or file name)."""
    if not isinstance(value, str):
        return False
    bare = CODE.sub("", value).replace("**", "").strip()
    if not re.search(r"[^\W\d_]", bare):
        return False
    if re.fullmatch(r"#[0-9a-fA-F]{6}", bare) or re.search(r"\.(svg|j2|png|jpe?g)$", bare):
        return False
    return not re.fullmatch(r"[a-z0-9_-]+", bare)


def strings(data: Any, entry_lists: frozenset[str], loc: Loc = ()) -> Iterator[tuple[Loc, str]]:
    """Every translatable string of a spec document, with its path in the document;
    ``entry_lists`` are the keys of entries, whose free fields are read as text (the spec
    stage knows them: ``model.kinds.ENTRY_LISTS``)."""
    if isinstance(data, dict):
        for key, value in data.items():
            here = (*loc, key)
            if key in RESERVED:
                continue
            if key in TEXT_KEYS and is_text(value):
                yield here, value
            elif key in TEXT_LIST_KEYS and isinstance(value, list):
                for i, v in enumerate(value):
                    if is_text(v):
                        yield (*here, i), v
                    elif isinstance(v, (dict, list)):
                        yield from strings(v, entry_lists, (*here, i))
            elif key == "rows" and isinstance(value, list):
                for r, row in enumerate(value):
                    if isinstance(row, list):
                        yield from (((*here, r, c), v) for c, v in enumerate(row) if is_text(v))
            elif key in FREE_KEYS and isinstance(value, dict):
                yield from _free(value, here)
            elif key in entry_lists and isinstance(value, list):
                for i, entry in enumerate(value):
                    if isinstance(entry, dict):
                        yield from _free(entry, (*here, i))
            elif isinstance(value, (dict, list)):
                yield from strings(value, entry_lists, here)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from strings(item, entry_lists, (*loc, i))


def _free(mapping: dict, loc: Loc, top: bool = True) -> Iterator[tuple[Loc, str]]:
    """Free fields: any value that reads as text, also inside lists and mappings."""
    for key, value in mapping.items():
        if (top and key in RESERVED) or key in DATA_KEYS:
            continue
        here = (*loc, key)
        if is_text(value):
            yield here, value
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if is_text(item):
                    yield (*here, i), item
                elif isinstance(item, dict):
                    yield from _free(item, (*here, i), False)
        elif isinstance(value, dict):
            yield from _free(value, here, False)


def catalog_dir(root: Path) -> Path:
    """Where a game keeps its catalogs."""
    return root / "locale"


def extract(
    docs: Sequence[YamlDoc], root: Path, project: str, entry_lists: frozenset[str]
) -> Catalog:
    """A catalog template of every translatable string in a game's spec documents."""
    catalog = Catalog(project=project, creation_date=FIXED_DATE, fuzzy=False)
    for doc in docs:
        for loc, text in strings(doc.data, entry_lists):
            path, line = doc.where(loc)
            reference = (path.relative_to(root).as_posix(), line)
            if text in catalog:
                catalog[text].locations.append(reference)
            else:
                catalog.add(text, locations=[reference])
    return catalog


MAX_PLURAL_FORMS = 6  # plural forms of one language: gettext's languages need at most 6


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
    check_plural_forms(raw)
    try:
        return _parsed(raw)
    except ValueError as exc:
        raise CatalogError(str(exc), _catalog_line(raw, str(exc))) from None


_PLURAL_FORMS = re.compile(rb"Plural-Forms:([^\n\\]*)", re.IGNORECASE)


def check_plural_forms(raw: bytes) -> None:
    """``CatalogError`` at its line for a ``Plural-Forms`` header that is not 1 to
    ``MAX_PLURAL_FORMS`` forms and a plural expression gettext reads (nplurals=100000000 made
    ``i18n update`` write a hundred million msgstr[n] and took 1.6 GB to load)."""
    header = raw.find(b'msgid ""')
    found = _PLURAL_FORMS.search(raw, 0, raw.find(b"\n\n", header)) if header >= 0 else None
    if found is None:
        return
    line = raw.count(b"\n", 0, found.start()) + 1
    fields = dict(
        part.strip().partition("=")[::2]
        for part in found[1].decode("utf-8", "replace").split(";")
        if "=" in part
    )
    count = fields.get("nplurals", "").strip()
    if not count.isdigit() or not 1 <= int(count) <= MAX_PLURAL_FORMS:
        raise CatalogError(
            f"Plural-Forms: nplurals={count[:20]!r}; a language has 1 to {MAX_PLURAL_FORMS} "
            "plural forms (write e.g. nplurals=2; plural=(n != 1);)",
            line,
        )
    expression = fields.get("plural", "").strip()
    try:
        gettext.c2py(expression or "0")
    except (ValueError, RecursionError) as exc:
        raise CatalogError(
            f"Plural-Forms: plural={expression[:40]!r} cannot be read ({exc})", line
        ) from None


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
    """What a language lacks: strings missing, empty or fuzzy, wrong placeholders, strings
    the catalog holds that no spec uses any more."""

    language: str
    missing: list[tuple[str, str]] = field(default_factory=list)  # (where, msgid)
    fuzzy: list[tuple[str, str]] = field(default_factory=list)
    placeholders: list[tuple[str, str]] = field(default_factory=list)
    obsolete: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not (self.missing or self.fuzzy or self.placeholders)


def placeholders_differ(source: str, translation: str) -> bool:
    """Whether a translation lost or invented a ``{placeholder}``."""
    return set(PLACEHOLDER.findall(source)) != set(PLACEHOLDER.findall(translation))


def translations(catalog: Catalog) -> dict[str, str]:
    """msgid → msgstr for the usable entries (translated, not fuzzy, placeholders intact)."""
    out: dict[str, str] = {}
    for message in catalog:
        msgid, string = message.id, message.string
        if not isinstance(msgid, str) or not isinstance(string, str) or message.fuzzy:
            continue  # plural entries (a tuple of forms) are never made from a spec
        if msgid and string and not placeholders_differ(msgid, string):
            out[msgid] = string
    return out


def translate(
    doc: YamlDoc, table: dict[str, str], report: Report, entry_lists: frozenset[str]
) -> Any:
    """A copy of the document's data with every translatable string translated; what the
    table lacks stays in the source language and is added to ``report``."""
    data = copy.deepcopy(doc.data)
    for loc, text in strings(doc.data, entry_lists):
        translated = table.get(text)
        if translated is None:
            path, line = doc.where(loc)
            report.missing.append((f"{display_path(path)}:{line}", text))
            continue
        _set(data, loc, translated)
    return data


def _set(data: Any, loc: Loc, value: str) -> None:
    for part in loc[:-1]:
        data = data[part]
    data[loc[-1]] = value


def audit(catalog: Catalog, used: set[str], report: Report) -> None:
    """Fuzzy entries, broken placeholders and obsolete strings of a catalog."""
    for message in catalog:
        if not message.id or not isinstance(message.id, str):
            continue
        where = ", ".join(f"{f}:{n}" for f, n in message.locations) or "catalog"
        string = message.string
        if message.id not in used:
            report.obsolete.append(message.id)
        elif message.fuzzy and string:
            report.fuzzy.append((where, message.id))
        elif isinstance(string, str) and string and placeholders_differ(message.id, string):
            report.placeholders.append((where, message.id))
