"""The strings a game prints, found by meaning: a spec field is printed words when its model
says so (``fields.Text``), and an entry's own field (a card's ``rule``, a component's shared
``fields:``) when a template of its component declares it ``text`` in its fields block
(``templatefields``). Codes, colours, numbers, icon names and files are never offered to
translators, whatever they look like.

An entry's ``title`` and ``label`` are printed by the engine itself (the contents page names
each kind by them), so they are text unless a template declares them otherwise.

The rule for a free field that no template of its component declares: it is read as before
templates could declare fields (text when its value reads as words, ``catalogs.reads_as``),
and it is listed as undeclared, so that ``pnp i18n`` says which fields to declare instead of
guessing silently; one whose value is a single lowercase word (a code, or a printed word:
only the spec can tell) is not offered, and ``pnp check --lang`` fails on it until a
template declares it.

Each string comes with its place in the document, its message context (``component:
field``, so that one English word printed in two places can be translated twice) and what a
translator should know: the comment above it in the spec, and what its template says the
field is for."""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from generator.i18n.catalogs import Found, Loc, reads_as
from generator.model.fields import Counted, Printed
from generator.model.game import GameSpec
from generator.model.gamefolders import slugify, template_dirs
from generator.model.kinds import COMPONENT_KINDS
from generator.model.templatefields import FieldsError, declared_fields, template_file
from generator.model.yamlsource import YamlDoc
from generator.paths import PathRefused, read_text

FREE = "fields"  # a component's fields shared by every piece
# an entry's own fields the engine itself prints: the contents page names each kind by them
NAMES = ("title", "label")
TEMPLATE_KEYS = ("face", "back", "header", "icons")


@dataclass
class Declared:
    """What the templates of one component declare: the text fields (with what each is
    for), the fields of any other kind (dotted names for the parts of a field), and the free
    fields no template declares."""

    text: dict[str, str] = field(default_factory=dict)
    other: set[str] = field(default_factory=set)
    undeclared: dict[str, tuple[Loc, str, bool]] = field(default_factory=dict)
    complete: bool = False  # every template of the component has a fields block
    mentioned: set[str] = field(default_factory=set)  # names the game's templates use

    def kind(self, names: list[str]) -> tuple[str | None, str]:
        """'text', 'other' or None (declared by no template) for a string at ``names`` (the
        field, then the keys down to the string), and the declaration that says so (or the
        dotted name to declare)."""
        for declared in (*self.text, *self.other):
            parts = declared.split(".")
            if parts[0] != names[0]:
                continue
            if len(parts) == 1 or (
                len(names) > 1 and parts[-1] == names[-1] and _in_order(parts[1:-1], names[1:-1])
            ):
                return ("text" if declared in self.text else "other"), declared
        leaf = names[0] if len(names) == 1 else f"{names[0]}.{names[-1]}"
        return None, leaf


def _in_order(wanted: list[str], names: list[str]) -> bool:
    """Whether ``wanted`` are among ``names`` in their order (others between them)."""
    rest = iter(names)
    return all(name in rest for name in wanted)


def declarations(root: Path, data: dict[str, Any]) -> Declared:
    """The fields the templates a component names declare (a block that cannot be read
    declares nothing here: the art stage reports it)."""
    out = Declared(complete=True)
    for key in TEMPLATE_KEYS:
        name = data.get(key)
        if not isinstance(name, str):
            continue
        try:
            declared = declared_fields(root, name)
        except FieldsError:
            declared = None
        out.complete = out.complete and declared is not None
        fields = declared or {}
        for found in fields.values():
            if found.kind == "text":
                out.text.setdefault(found.name, found.about)
            else:
                out.other.add(found.name)
    out.other -= set(out.text)
    if not out.complete:
        named = [name for key in TEMPLATE_KEYS if isinstance(name := data.get(key), str)]
        out.mentioned = _mentioned(root, named)
    return out


def _mentioned(root: Path, names: list[str]) -> set[str]:
    """Every name the templates a component names, and the game's own templates (which
    their macros may come from), use: a field none of them uses cannot print."""
    files = {p for n in names if (p := template_file(root, n)) is not None}
    own = template_dirs(root)[0]
    if own.is_dir():
        files |= {p for p in own.glob("*.j2") if p.is_file()}
    out: set[str] = set()
    for path in files:
        try:
            out |= set(_NAME.findall(read_text(path.parent, path, "template")))
        except (PathRefused, UnicodeDecodeError):
            continue
    return out


def model_of(doc: YamlDoc, game: bool) -> type[BaseModel] | None:
    """The model a document is read as: the game's, or its component kind's."""
    if game:
        return GameSpec
    kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
    return COMPONENT_KINDS.get(kind) if isinstance(kind, str) else None


def owner_of(doc: YamlDoc, game: bool = False) -> str:
    """The id a document's strings are known by: 'game', or its component's id."""
    data = doc.data if isinstance(doc.data, dict) else {}
    return "game" if game else str(data.get("id") or slugify(doc.path.stem))


def table_columns(docs: list[YamlDoc]) -> dict[str, dict[str, str]]:
    """The fields of a deck that a sheet's table prints (``table: {from: deck, columns:
    [...]}``), by the deck's id: each is printed text, unless a template of the deck declares
    it another kind (a code printed as it is)."""
    out: dict[str, dict[str, str]] = {}
    for doc in docs:
        data = doc.data if isinstance(doc.data, dict) else {}
        if data.get("kind") != "sheet":
            continue
        for section in _dicts(data.get("sections")):
            for block in _dicts(section.get("blocks")):
                table = block.get("table")
                if not isinstance(table, dict) or not isinstance(table.get("from"), str):
                    continue
                about = f"a column of a table on {data.get('title', doc.path.stem)}"
                for column in table.get("columns") or []:
                    out.setdefault(table["from"], {}).setdefault(str(column), about)
    return out


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def printed(
    doc: YamlDoc, root: Path, game: bool = False, columns: dict[str, str] | None = None
) -> tuple[list[Found], Declared]:
    """Every printed string of a spec document, and what its templates declare (with
    ``columns``, the fields a sheet's table prints of it)."""
    model = model_of(doc, game)
    data = doc.data
    if model is None or not isinstance(data, dict):
        return [], Declared()
    declared = Declared() if game else declarations(root, {**_default_templates(model), **data})
    for name, about in (columns or {}).items():
        if name not in declared.other:  # a template may say it is a code printed as it is
            declared.text.setdefault(name, about)
    owner = owner_of(doc, game)
    walker = _Walker(doc, owner, declared)
    found = list(walker.model(model, data, ()))
    return found, declared


def _default_templates(model: type[BaseModel]) -> dict[str, str]:
    """The templates a kind draws with unless its spec names others (a pad's frame)."""
    out = {}
    for key in TEMPLATE_KEYS:
        found = model.model_fields.get(key)
        if found is not None and isinstance(found.default, str):
            out[key] = found.default
    return out


class _Walker:
    """Walks a document along its model, yielding the printed strings."""

    def __init__(self, doc: YamlDoc, owner: str, declared: Declared):
        self.doc = doc
        self.owner = owner
        self.declared = declared
        self.entries_key = ""

    def model(self, model: type[BaseModel], data: Any, loc: Loc) -> Iterator[Found]:
        if not isinstance(data, dict):
            return
        key_of_entries = getattr(model, "entries_key", "")
        if key_of_entries:
            self.entries_key = key_of_entries
        for name, info in model.model_fields.items():
            key = info.alias or name
            if key not in data:
                continue
            here = (*loc, key)
            if name == FREE and loc == ():
                yield from self.free(data[key], here)
            elif name == self.entries_key and loc == () and isinstance(data[key], list):
                for index, entry in enumerate(data[key]):
                    yield from self.entry(model, name, entry, (*here, index))
            else:
                yield from self.value(info.annotation, info.metadata, data[key], here)

    def value(self, annotation: Any, metadata: list[Any], data: Any, loc: Loc) -> Iterator[Found]:
        mark = _printed_mark(annotation, metadata)
        if mark is not None:
            if isinstance(data, str) and has_words(data):
                yield self.found(loc, data, counted=isinstance(mark, Counted))
            listed = [a for a in typing.get_args(annotation) if typing.get_origin(a) is list]
            if isinstance(data, list) and listed:  # a text, or a list of them (a pad's write)
                yield from self.value(listed[0], [], data, loc)
            return
        inner = _inner(annotation)
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            yield from self.model(inner, data, loc)
        elif typing.get_origin(inner) is list and isinstance(data, list):
            (item,) = typing.get_args(inner) or (Any,)
            for index, value in enumerate(data):
                yield from self.value(item, [], value, (*loc, index))
        elif typing.get_origin(inner) is dict and isinstance(data, dict):
            _, item = typing.get_args(inner) or (Any, Any)
            for key, value in data.items():  # a pad's bonuses: {4: "+2 gold"}
                yield from self.value(item, [], value, (*loc, key))

    def entry(self, model: type[BaseModel], name: str, data: Any, loc: Loc) -> Iterator[Found]:
        """An entry: its modelled fields by their marks, its own fields as declared."""
        if not isinstance(data, dict):
            return
        entry_model = _inner(typing.get_args(_inner(model.model_fields[name].annotation))[0])
        modelled = set(getattr(entry_model, "model_fields", {}))
        for key, value in data.items():
            if key in modelled:
                continue
            yield from self.free_value(str(key), value, (*loc, key), f"{name}.")

    def free(self, data: Any, loc: Loc) -> Iterator[Found]:
        if isinstance(data, dict):
            for key, value in data.items():
                yield from self.free_value(str(key), value, (*loc, key), "")

    def free_value(self, key: str, value: Any, loc: Loc, prefix: str) -> Iterator[Found]:
        """A free field: text when a template declares it so (or the part of it a string is
        in); never when one declares it another kind; read by its look (and noted) when none
        declares it."""
        for where, text in _strings_in(value, loc):
            if not has_words(text):
                continue
            names = [key, *(str(part) for part in where[len(loc) :] if isinstance(part, str))]
            kind, declared = self.declared.kind(names)
            if len(names) == 1 and key in NAMES and kind is None:
                kind = "text"  # the contents page prints it
            if kind == "text":
                about = self.declared.text.get(declared, "")
                yield self.found(where, text, about, prefix + declared)
            elif kind is None and self._maybe_printed(key) and (look := reads_as(text)) != "other":
                self.declared.undeclared.setdefault(declared, (where, text, look == "text"))
                if look == "text":
                    yield self.found(where, text, "", prefix + declared)

    def _maybe_printed(self, key: str) -> bool:
        """Whether a field no template declares may print: some template of the component
        has no fields block, and the game's templates use its name."""
        return not self.declared.complete and key in self.declared.mentioned

    def found(
        self, loc: Loc, text: str, about: str = "", name: str = "", counted: bool = False
    ) -> Found:
        """A string found at ``loc``; its context names the component and the field (``name``
        for a free field, else the model's field names down to it); ``counted`` when it takes
        a number (a plural entry for translators)."""
        name = name or ".".join(str(part) for part in loc if isinstance(part, str))
        context = f"{self.owner}: {name}"
        notes = [*comments(self.doc, loc)]
        if about:
            notes.append(f"printed: {about}")
        return Found(loc, text, context, tuple(notes), counted)


def has_words(text: str) -> bool:
    """Whether a printed string has a letter in it: one without (a number, a sign, an icon
    code alone) is the same in every language, and not offered to translators."""
    return bool(_LETTER.search(ICON.sub("", text)))


def _strings_in(value: Any, loc: Loc) -> Iterator[tuple[Loc, str]]:
    """The strings of a free field's value (a list or mapping of them too)."""
    if isinstance(value, str):
        if value.strip():
            yield loc, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings_in(item, (*loc, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings_in(item, (*loc, key))


def _printed_mark(annotation: Any, metadata: list[Any]) -> Printed | None:
    """A field's printed mark when its type is ``Text`` or ``CountedText`` (or either
    ``| None``); None for a field whose words do not print."""
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    for arg in (annotation, *(typing.get_args(annotation) if union else ())):
        if typing.get_origin(arg) is typing.Annotated:
            metadata = [*metadata, *arg.__metadata__]
    return next((m for m in metadata if isinstance(m, Printed)), None)


def _inner(annotation: Any) -> Any:
    """A field's type without Optional and Annotated."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _inner(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _inner(args[0]) if len(args) == 1 else annotation
    return annotation


_LETTER = re.compile(r"[^\W\d_]")
_NAME = re.compile(r"[A-Za-z_]\w*")
ICON = re.compile(r":[a-z0-9][a-z0-9-]*:")
_COMMENT = re.compile(r"^\s*#\s?(.*)$")


def comments(doc: YamlDoc, loc: Loc) -> list[str]:
    """The comment lines right above a string's line in its spec (none for a data file's
    rows), for translators."""
    path, line = doc.where(loc)
    if path != doc.path or not doc.text:
        return []
    lines = doc.text.splitlines()
    out: list[str] = []
    number = line - 2
    while number >= 0:
        found = _COMMENT.match(lines[number])
        if not found:
            break
        out.insert(0, found[1].rstrip())
        number -= 1
    return [" ".join(out)] if out else []


@dataclass(frozen=True)
class Undeclared:
    """A free field no template of its component declares, at its first string: read by its
    look (``offered`` to translators when it reads as words), to be declared."""

    path: Path
    line: int
    name: str
    text: str
    offered: bool


def game_strings(
    root: Path, docs: list[YamlDoc]
) -> tuple[list[tuple[YamlDoc, list[Found]]], list[Undeclared]]:
    """The printed strings of a game's documents (``game.yaml`` first), and the free fields
    no template declares, each once."""
    out: list[tuple[YamlDoc, list[Found]]] = []
    undeclared: list[Undeclared] = []
    tables = table_columns(docs)
    for index, doc in enumerate(docs):
        columns = tables.get(owner_of(doc)) if index else None
        found, declared = printed(doc, root, index == 0, columns)
        out.append((doc, found))
        for name, (loc, text, offered) in declared.undeclared.items():
            undeclared.append(Undeclared(*doc.where(loc), name, text, offered))
    return out, undeclared
