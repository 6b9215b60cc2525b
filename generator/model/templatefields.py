"""What a template says of the fields it draws, in one place the engine reads: a comment block
at the top of the template,

    {#- fields
    title: text      the name, in the band at the top
    cost: number     a number or word in a disc
    art: file        an image in the game folder
    icons: icons     icon names
    -#}

one line per field: its name, its kind, and what it is for. The kinds: ``text`` (printed words:
translated, checked for fit and glyphs), ``code`` (a word the template looks up, never
translated: a suit, a rank), ``number``, ``file`` (a picture or file in the game folder),
``icons`` (icon names), ``colour``. A column or key of an entry that no field of its templates
uses is reported (see ``datafiles``), and only ``text`` fields of entries are offered to
translators.

A field that holds a mapping or list of its own (a card's ``factions``, looked up by suit)
declares its parts by a dotted name: ``factions.name: text`` is every ``name`` inside
``factions``, whatever keys or items lie between (``factions.clubs.name``); ``factions.band:
colour`` keeps the colours beside it out of the catalogs. The field is the first name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from generator.model.gamefolders import template_dirs
from generator.paths import PathRefused, read_text

KINDS = frozenset({"text", "code", "number", "file", "icons", "colour"})
_BLOCK = re.compile(r"\{#-?\s*fields\s*\n(?P<body>.*?)-?#\}", re.DOTALL)
_ICONS = re.compile(r"\{#-?\s*icons\s*\n(?P<body>.*?)-?#\}", re.DOTALL)
_LINE = re.compile(
    r"^\s*(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*:\s*(?P<kind>[a-z]+)\b\s*(?P<about>.*)$"
)


@dataclass(frozen=True)
class Field:
    """One field a template draws: its name, kind and what it is for (and the block's line)."""

    name: str
    kind: str
    about: str
    line: int


class FieldsError(ValueError):
    """A fields block that cannot be read: the template's line and what is wrong."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.template = ""  # the template's name, once known


def parse_fields(source: str) -> dict[str, Field] | None:
    """The fields a template's source declares, by name; None when it declares none."""
    found = _BLOCK.search(source)
    if found is None:
        return None
    first = source.count("\n", 0, found.start("body")) + 1
    fields: dict[str, Field] = {}
    for offset, text in enumerate(found["body"].splitlines()):
        if not text.strip():
            continue
        line = first + offset
        match = _LINE.match(text)
        if match is None:
            raise FieldsError(line, f"'{text.strip()}' is not 'name: kind  what it is for'")
        if match["kind"] not in KINDS:
            kinds = ", ".join(sorted(KINDS))
            raise FieldsError(line, f"field kind '{match['kind']}' is not one of {kinds}")
        fields[match["name"]] = Field(match["name"], match["kind"], match["about"].strip(), line)
    return fields


def template_file(root: Path, name: str) -> Path | None:
    """The file template ``name`` is read from for the game in ``root`` (its own first)."""
    for folder in template_dirs(root):
        if (folder / name).is_file():
            return folder / name
    return None


def declared_fields(root: Path, name: str) -> dict[str, Field] | None:
    """The fields template ``name`` of the game in ``root`` declares (None: it declares none,
    or it cannot be read here; the art stage reports an unreadable template)."""
    path = template_file(root, name)
    if path is None:
        return None
    try:
        return parse_fields(read_text(path.parent, path, "template"))
    except (PathRefused, UnicodeDecodeError):
        return None


def parse_icons(source: str) -> frozenset[str] | None:
    """The icon names an icon template's source declares in its block ``{#- icons coin star
    ... -#}`` (names separated by spaces, commas or lines); None when it declares none."""
    found = _ICONS.search(source)
    if found is None:
        return None
    return frozenset(n for n in re.split(r"[\s,]+", found["body"]) if n)


def declared_icons(root: Path, name: str) -> frozenset[str] | None:
    """The icons template ``name`` of the game in ``root`` draws by name (None: it does not
    say, or cannot be read here)."""
    path = template_file(root, name)
    if path is None:
        return None
    try:
        return parse_icons(read_text(path.parent, path, "template"))
    except (PathRefused, UnicodeDecodeError):
        return None
