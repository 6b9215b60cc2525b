"""Rendering only what changed: a template renderer that remembers the SVG each render gave,
keyed by everything the render can see (the template's name, its whole context, and a stamp
of the files that shape it), so that a game planned again after one row of its spreadsheet
changed renders that row alone.

A render's context holds all the spec and data values it draws from; what else shapes its
SVG is files: the templates (and what they include), the game's fonts (text is measured to
fit), ``game.yaml`` (it names the fonts) and whether an asset exists (``asset()`` checks). A
``Folder`` reads those once per plan; its ``look`` stamp goes into every key. Catalogs and
data files reach a render only through the context, so a new translation or a changed row
does not invalidate the rest. The renderer also notes where each ``textbox()`` that
overflowed lies, so the page can outline the box.
"""

from __future__ import annotations

import datetime
import decimal
import hashlib
import json
import os
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator.art.richtext import Overflow
from generator.art.templates import Subject, TemplateRenderer
from generator.model.datafiles import FORMATS
from generator.model.designs import Design
from generator.model.gamefolders import MAX_WATCHED, OWN_OUTPUT, SHARED_TEMPLATES
from generator.model.loader import Game

MAX_SERVED_FILES = 50_000  # files of a game folder the preview follows (a walk's bound)
MEMO_CHARACTERS = 150_000_000  # SVG text kept between plans (about 300 MB at most)
SPEC_SUFFIXES = frozenset({*FORMATS, ".yml", ".yaml"})  # read into the model, not by a render
CATALOG_SUFFIXES = frozenset({".po", ".pot", ".mo"})  # translations: in the context already
FONT_SUFFIXES = frozenset({".ttf", ".otf", ".ttc", ".woff", ".woff2"})
GAME_FILE = "game.yaml"
HREF = re.compile(r"""href\s*=\s*["']([^"']*)["']""")
Rect = tuple[float, float, float, float]  # x, y, w, h in the template's mm, y down


@dataclass(frozen=True)
class Entry:
    """One file of a game folder as last seen: its path relative to the folder, its size
    and modification time."""

    path: str
    size: int
    mtime: int


@dataclass(frozen=True)
class Folder:
    """The files of a game folder (its own output aside) and of the shared templates, read
    once per plan: what the stamps of renders, pictures and pages are made of."""

    root: Path
    files: tuple[Entry, ...]
    shared: tuple[Entry, ...]
    cut: bool = False  # the game folder holds more than the walk's bounds: the rest unseen

    @classmethod
    def read(cls, root: Path) -> Folder:
        """The game folder ``root`` and the shared templates as they are now."""
        files, cut = _walk(root, skip_top=OWN_OUTPUT)
        return cls(root, tuple(files), tuple(_walk(SHARED_TEMPLATES)[0]), cut)

    @property
    def everything(self) -> str:
        """A stamp of every file: any change at all changes it."""
        return _digest((self.files, self.shared))

    def stamps(self) -> dict[str, list[int]]:
        """Each file of the game folder as read: its path, size and modification time in
        nanoseconds (a client that wrote a file knows its own write is in)."""
        return {entry.path: [entry.size, entry.mtime] for entry in self.files}

    @property
    def look(self) -> str:
        """A stamp of what shapes a render besides its context: templates and fonts by
        their content, game.yaml, and every other file by its existence alone."""
        parts: list[object] = [self.shared]
        for entry in self.files:
            suffix = Path(entry.path).suffix.lower()
            shaping = entry.path == GAME_FILE or entry.path.startswith("templates/")
            if shaping or suffix in FONT_SUFFIXES:
                parts.append(entry)
            elif suffix not in SPEC_SUFFIXES | CATALOG_SUFFIXES:
                parts.append(entry.path)
        return _digest(parts)

    @property
    def pictures(self) -> str:
        """A stamp of every file art may draw (all but specs, data, catalogs, templates)."""
        return _digest([e for e in self.files if _picture(e.path)])

    def of(self, names: frozenset[str]) -> str:
        """A stamp of the files ``names`` (paths relative to the game folder); of every
        picture file when a name is not one of them as written (``./art/x.png``)."""
        found = [e for e in self.files if e.path in names]
        if len(found) < len(names):
            return self.pictures
        return _digest(found)


def _picture(path: str) -> bool:
    suffix = Path(path).suffix.lower()
    return not path.startswith("templates/") and suffix not in SPEC_SUFFIXES | CATALOG_SUFFIXES


def _walk(root: Path, skip_top: str | None = None) -> tuple[list[Entry], bool]:
    """Every regular file under ``root`` (hidden folders and bytecode caches aside), sorted,
    and whether the walk stopped at its bounds (``MAX_WATCHED`` folders, ``MAX_SERVED_FILES``
    files). A loop over a stack, never recursion: a folder tree of any depth is walked; links
    are listed by where they point, never followed; a folder that cannot be read is left."""
    found: list[Entry] = []
    left = [root] if root.is_dir() else []
    folders = 0
    while left:
        top = left.pop()
        folders += 1
        if folders > MAX_WATCHED:
            return sorted(found, key=lambda e: e.path), True
        try:
            with os.scandir(top) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            path = Path(entry.path)
            try:
                if entry.is_dir(follow_symlinks=False):
                    if _walked(entry.name) and not (top == root and entry.name == skip_top):
                        left.append(path)
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            found.append(Entry(path.relative_to(root).as_posix(), info.st_size, info.st_mtime_ns))
            if len(found) > MAX_SERVED_FILES:
                return sorted(found, key=lambda e: e.path)[:MAX_SERVED_FILES], True
    return sorted(found, key=lambda e: e.path), False


def _walked(name: str) -> bool:
    """Whether a folder of this name is part of the game (not hidden, not a bytecode cache)."""
    return not name.startswith(".") and name != "__pycache__"


def _digest(value: object) -> str:
    return hashlib.sha1(repr(value).encode("utf-8", "surrogateescape")).hexdigest()


@dataclass(frozen=True)
class Made:
    """One render remembered: its SVG and the overflows it recorded, each with the side
    drawn and the box of its ``textbox()`` (None: measured by ``fit()``, no place known)."""

    svg: str
    overflows: tuple[tuple[Overflow, str, Rect | None], ...]


class Memo:
    """The renders of a server's lifetime, least recently used first out, bounded by the
    characters of SVG they hold."""

    def __init__(self, limit: int = MEMO_CHARACTERS):
        self.limit = limit
        self.size = 0
        self.made: OrderedDict[str, Made] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> Made | None:
        made = self.made.get(key)
        if made is None:
            self.misses += 1
            return None
        self.hits += 1
        self.made.move_to_end(key)
        return made

    def put(self, key: str, made: Made) -> None:
        if key in self.made:
            return
        self.made[key] = made
        self.size += len(made.svg)
        while self.size > self.limit and self.made:
            _, old = self.made.popitem(last=False)
            self.size -= len(old.svg)


class _Bytecode(jinja2.BytecodeCache):
    """Compiled templates kept in memory, checked against their source: every plan makes a
    new renderer, and Jinja's compiler is slow."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


BYTECODE = _Bytecode()


class MemoRenderer(TemplateRenderer):
    """A ``TemplateRenderer`` that takes a render from ``memo`` when its template, context
    and ``look`` stamp are those of a render made before; it notes where each overflowing
    ``textbox()`` lies (``places``, by the overflow's index) and which files each SVG draws
    (``drawn``, by the key the art store gives the SVG)."""

    def __init__(self, game: Game, ink_saver: bool, memo: Memo, look: str):
        super().__init__(game, ink_saver)
        self.memo = memo
        self.look = f"{look}/{game.language}/{ink_saver}"
        self.places: dict[int, tuple[str, Rect | None]] = {}
        self.drawn: dict[str, frozenset[str] | None] = {}
        self.env.bytecode_cache = BYTECODE
        self._design: Design | None = None
        self._side = "face"
        boxed: Callable[..., Markup] = self._textbox

        def textbox(text: Any, x: float, y: float, w: float, h: float, *args, **kwargs) -> Markup:  # noqa: ANN002, ANN003
            before = len(self.overflows)
            out = boxed(text, x, y, w, h, *args, **kwargs)
            for index in range(before, len(self.overflows)):
                self.places[index] = (self._side, (float(x), float(y), float(w), float(h)))
            return out

        self.env.globals["textbox"] = textbox

    def render_design(
        self,
        design: Design,
        template: str,
        box: dict[str, Any],
        side: str = "face",
        extra: dict[str, Any] | None = None,
    ) -> str:
        """The base's render of a design, the design and side noted for ``render``."""
        self._design, self._side = design, side
        try:
            return super().render_design(design, template, box, side, extra)
        finally:
            self._design, self._side = None, "face"

    def render(
        self,
        name: str,
        context: dict[str, Any],
        where: str,
        locate: Callable[[Any], tuple[Path, int]],
        subject: Subject | None = None,
    ) -> str:
        """The SVG of template ``name``, from the memo when it was rendered so before."""
        return self.made(
            "template",
            [name, context],
            lambda: super(MemoRenderer, self).render(name, context, where, locate, subject),
        )

    def made(self, kind: str, inputs: object, make: Callable[[], str]) -> str:
        """``make()``'s SVG, from the memo when it was made from the same ``inputs`` (and
        look) before, with the overflows it recorded then."""
        try:
            text = json.dumps([self.look, kind, inputs], sort_keys=True, default=_plain)
        except (TypeError, ValueError):  # a value the key cannot hold: make it afresh
            return self._noted(make())
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        found = self.memo.get(key)
        if found is not None:
            self._replay(found)
            return self._noted(found.svg)
        before = len(self.overflows)
        svg = make()
        recorded = tuple(
            (overflow, *self.places.get(index, (self._side, None)))
            for index, overflow in enumerate(self.overflows[before:], start=before)
        )
        self.memo.put(key, Made(svg, recorded))
        return self._noted(svg)

    def _noted(self, svg: str) -> str:
        """Note the files ``svg`` draws, under its art's key; the SVG."""
        self.drawn[art_key(svg)] = references(svg)
        return svg

    def _replay(self, made: Made) -> None:
        """The overflows a remembered render recorded, at the design drawn now (the same
        fields may sit on another row since)."""
        design = self._design
        for overflow, side, rect in made.overflows:
            if design is not None:
                overflow = replace(overflow, line=design.line, path=design.where[0])
            self.places[len(self.overflows)] = (side, rect)
            self.overflows.append(overflow)


def art_key(svg: str) -> str:
    """The key the art store gives this SVG (its text's hash); should it ever differ, a
    picture's files are not known and every picture file counts (see ``Folder.pictures``)."""
    return hashlib.sha1(svg.encode()).hexdigest()[:16]


def _plain(value: object) -> object:
    """A context value JSON cannot hold, as text that says all of it (else TypeError)."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime.date | datetime.time | decimal.Decimal):
        return repr(value)
    if isinstance(value, set | frozenset):
        return sorted(map(repr, value))
    raise TypeError(type(value).__name__)


def references(svg: str) -> frozenset[str] | None:
    """The game files an SVG draws (its ``href``s), or None when it may draw more than it
    names (an SVG picture, which may refer on)."""
    found = set()
    for href in HREF.findall(svg):
        if href.startswith(("data:", "#")) or not href:
            continue
        if href.lower().endswith(".svg"):
            return None
        found.add(href)
    return frozenset(found)
