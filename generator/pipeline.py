"""One game's build, stage by stage: designs → SVG art → sheets → PDF and manifest.

``plan_pack`` does everything but writing (so errors surface before a file is touched);
``write_pack`` writes the PDF and manifest atomically. Decks get sheets of their own; all
tokens and dice of a game share counter sheets; token pages are whole pages of their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from lxml import etree

from generator import inventory, manifest, parallel, pdf
from generator.atomic import Staged, stage_all, sweep_stale
from generator.boardart import board_svg
from generator.errors import SpecError, SpecFailure, display_path
from generator.impose import (
    ImpositionError,
    Placement,
    Sheet,
    fit_grid,
    impose_board,
    impose_cards,
    impose_counters,
    impose_token_pages,
    printable_box,
)
from generator.layers import TemplateFaces
from generator.loader import Component, Game
from generator.options import DEFAULT_OPTIONS, PrintOptions
from generator.packing import PackingError
from generator.pieces import Design, Piece, designs
from generator.render import TemplateRenderer, card_box, composed_svg, describe
from generator.shapes import Shape, die_net, standee_shape, token_shape
from generator.sheetflow import FlowLayout, Overflow
from generator.sizes import paper_sizes, sheet_geometry
from generator.spec import (
    BoardSpec,
    DeckSpec,
    SheetSpec,
    SheetTable,
    StandeeSpec,
    TokenPagesSpec,
    TokenSpec,
)
from generator.strings import set_language, text
from generator.svgart import Art, ArtStore, Artwork
from generator.svgdraw import Drawer

PIECE_KIND = {
    "deck": "card",
    "tokens": "token",
    "dice": "die",
    "token-pages": "token",
    "board": "board",
    "sheet": "sheet",
    "standees": "standee",
}
T = TypeVar("T")
MAX_PIECES = 20_000  # printed pieces per build: more would run for minutes
BOARD_OVERLAP = 10.0  # mm that neighbouring tiles of a board share, for glue


@dataclass
class ComponentPlan:
    """A component's designs and, once imposed, the pages its pieces are on."""

    component: Component
    designs: list[Design]
    pages: list[int] = field(default_factory=list)
    shape: Shape | None = None

    @property
    def count(self) -> int:
        return sum(d.count for d in self.designs)


@dataclass
class Section:
    """A run of sheets in the pack: one deck's, the counter sheets, or token pages."""

    title: str
    sheets: list[Sheet]
    first_page: int = 0


@dataclass
class Pack:
    """Everything a print pack holds, laid out and numbered, ready to write."""

    game: Game
    paper_name: str
    paper: tuple[float, float]
    art: ArtStore
    components: list[ComponentPlan] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    inventory_pages: int = 0
    overflows: list[Overflow] = field(default_factory=list)
    options: PrintOptions = DEFAULT_OPTIONS
    key: str = ""  # what the pack is made from (see buildcache); stored in the manifest

    @property
    def page_count(self) -> int:
        return self.inventory_pages + sum(len(s.sheets) for s in self.sections)

    def numbered_sheets(self) -> list[tuple[int, Sheet]]:
        """Every sheet with its page number, in page order."""
        return [
            (s.first_page + i, sheet) for s in self.sections for i, sheet in enumerate(s.sheets)
        ]


def plan_pack(game: Game, paper_name: str, options: PrintOptions = DEFAULT_OPTIONS) -> Pack:
    """Render every design and impose every piece; raise ``SpecFailure`` listing all errors.

    A game with many designs has their art made on every core first (see ``_share``); the
    plan below then takes each design's art from there, so it only imposes and numbers."""
    paper = paper_sizes()[paper_name]
    set_language(game.language)
    made = _made_on_all_cores(game, paper_name, options)
    pack = Pack(game, paper_name, paper, ArtStore(game.root, options.ink_saver), options=options)
    memo: dict[int, _Made] = {}
    for share in made:
        memo.update(share.memo)
        for art in share.arts:
            pack.art.adopt(*art)
        pack.art.layers.merge(share.templates)
    planner = _Planner(game, pack, memo=memo)
    for component in game.components:
        planner.add(component)
    planner.finish()
    pack.overflows.extend(planner.renderer.overflows)
    if planner.errors:
        raise SpecFailure(list(dict.fromkeys(planner.errors)))
    pack.art.split_layers()
    _number(pack)
    return pack


SHARED_DESIGNS = 48  # designs a game needs before its art is made on several cores


@dataclass(frozen=True)
class _Made:
    """One design's art as a worker made it: its keys (or the error it gave) and the text
    that did not fit while it was drawn."""

    result: object
    error: SpecError | None
    overflows: tuple[Overflow, ...]


@dataclass
class _Share:
    """What a worker made of its share of a game's designs: the made art of each, by its
    place in the planner's order, the art itself (key, record, drawing, whether it reads
    files) and what its templates' faces share."""

    memo: dict[int, _Made]
    arts: list[tuple[str, Art, Drawer, bool]]
    templates: dict[Path, TemplateFaces]


def _made_on_all_cores(game: Game, paper_name: str, options: PrintOptions) -> list[_Share]:
    """The art of a game with many designs, made in forked workers, each taking every n-th
    design (nothing when there is one core, or too little to be worth a fork)."""
    workers = parallel.cores()
    if workers < 2 or not parallel.can_fork():
        return []
    count = sum(len(designs(c, game.spec.colours)) for c in game.components)
    if count < SHARED_DESIGNS:
        return []
    shares = [(index, workers) for index in range(workers)]
    return parallel.map_forked(
        lambda share: _share(game, paper_name, options, share), shares, here=True
    )


def _share(game: Game, paper_name: str, options: PrintOptions, share: tuple[int, int]) -> _Share:
    """Plan the game as ``plan_pack`` does, making only this worker's share of the art."""
    set_language(game.language)
    art = ArtStore(game.root, options.ink_saver, record=True)
    pack = Pack(game, paper_name, paper_sizes()[paper_name], art, options=options)
    planner = _Planner(game, pack, share=share)
    for component in game.components:
        planner.add(component)
    kept = {n: made for n, made in planner.memo.items() if made.error or art.portable(made.result)}
    return _Share(kept, art.recorded(), art.layers.templates)


def _number(pack: Pack) -> None:
    """Page numbers for sections and each component's pages; again if the inventory, now
    listing those pages, needs another page."""
    for _ in range(3):
        count = inventory.page_count(pack)
        if count == pack.inventory_pages:
            return
        pack.inventory_pages = count
        _number_from(pack, count + 1)


def _number_from(pack: Pack, page: int) -> None:
    for section in pack.sections:
        section.first_page = page
        page += len(section.sheets)
    by_id = {plan.component.id: plan for plan in pack.components}
    for plan in pack.components:
        plan.pages.clear()
    for number, sheet in pack.numbered_sheets():
        owners = [p.piece.component for p in sheet.placements]
        if sheet.assembly:
            owners.append(sheet.assembly.component)
        for owner in owners:
            pages = by_id[owner].pages
            if not pages or pages[-1] != number:
                pages.append(number)


class _Planner:
    """Turns components into art, pieces and sections, collecting every error."""

    def __init__(
        self,
        game: Game,
        pack: Pack,
        memo: dict[int, _Made] | None = None,
        share: tuple[int, int] | None = None,
    ):
        self.game = game
        self.pack = pack
        self.renderer = TemplateRenderer(game, pack.options.ink_saver)
        self.errors: list[SpecError] = []
        self.counters: list[Piece] = []
        self.total = 0
        self.counters_at: int | None = None
        self.memo: dict[int, _Made] = memo if memo is not None else {}
        self.share = share  # (index, workers) in a worker making its share of the art
        self.made = 0  # designs whose art was asked for so far: the memo's key

    def _make(self, make: Callable[[], T], skipped: T) -> T:
        """A design's art, ``make()``: made here, taken from what a worker made, or, in a
        worker, ``skipped`` when it is another worker's share. Every process plans the same
        game in the same order, so the n-th design is the same design in each."""
        n = self.made
        self.made += 1
        if self.share is not None:
            index, workers = self.share
            if n % workers != index:
                return skipped
        elif n in self.memo:
            made = self.memo[n]
            if made.error is not None:
                raise made.error
            self.renderer.overflows.extend(made.overflows)
            return made.result  # type: ignore[return-value]
        before = len(self.renderer.overflows)
        try:
            result = make()
        except SpecError as exc:
            if self.share is not None:
                self.memo[n] = _Made(None, exc, ())
            raise
        if self.share is not None:
            self.memo[n] = _Made(result, None, tuple(self.renderer.overflows[before:]))
        return result

    def add(self, component: Component) -> None:
        spec = component.spec
        component_designs = designs(component, self.game.spec.colours)
        self.total += sum(d.count for d in component_designs)
        if self.total > MAX_PIECES:
            line = component.doc.line_of((spec.kind_key,) if spec.kind_key else ())
            self.errors.append(
                SpecError(
                    component.path,
                    line,
                    f"the game asks for {self.total:,} pieces so far; one build prints at most "
                    f"{MAX_PIECES:,} (split the game, or lower the counts)",
                )
            )
            self.total = -(10**12)  # report once
            return
        self.pack.components.append(ComponentPlan(component, component_designs))
        if not self.game.spec.colours:
            uncoloured = [i for i, e in enumerate(spec.entries) if getattr(e, "per_player", None)]
            for index in uncoloured:
                self._error(
                    component,
                    (spec.kind_key, index, "per_player"),
                    f"'{spec.entries[index].name}' is given per_player, but game.yaml "
                    "lists no 'colours'; add the player colours there",
                )
            if uncoloured:
                return
        try:
            if isinstance(spec, DeckSpec):
                self._deck(component, component_designs)
            elif isinstance(spec, BoardSpec):
                self._board(component, component_designs)
            elif isinstance(spec, SheetSpec):
                self._sheet(component, component_designs)
            elif isinstance(spec, TokenPagesSpec):
                self._token_pages(component, component_designs)
            else:
                self._counters(component, component_designs)
        except SpecError as exc:
            self.errors.append(exc)
        except ImpositionError as exc:
            self._error(
                component, ("size",), f"{exc} ({self.pack.paper_name}); choose a smaller size"
            )

    def finish(self) -> None:
        """Impose the counter sheets, where the first token component stood."""
        if not self.counters:
            return
        try:
            sheets = impose_counters(
                text("counter_sheets"),
                self.counters,
                self.pack.paper,
                sheet_geometry(),
                self.pack.options,
            )
        except PackingError as exc:
            first = next(c for c in self.game.components if c.id == self.counters[0].component)
            self._error(first, ("size",), f"{exc} ({self.pack.paper_name}); choose a smaller size")
            return
        assert self.counters_at is not None
        self.pack.sections.insert(self.counters_at, Section(text("counter_sheets"), sheets))

    def _error(self, component: Component, loc: tuple, message: str) -> None:
        self.errors.append(SpecError(component.path, component.doc.line_of(loc), message))

    def _pieces(self, design: Design, shape: Shape, bleed: float, face: str, back: str | None):
        self.pack.components[-1].shape = shape
        kind = PIECE_KIND[design.component.spec.kind]
        return [
            Piece(design.component.id, kind, design.name, copy, shape, bleed, face, back)
            for copy in range(1, design.count + 1)
        ]

    def _sides(self, design: Design, shape: Shape, bleed: float) -> tuple[str, str | None]:
        spec = design.component.spec
        box = card_box(shape.w, shape.h, bleed, shape.kind)
        back_template = getattr(spec, "back", None)

        def make() -> tuple[str, str | None]:
            face = self._art(design, spec.face, box, "face")
            back = self._art(design, back_template, box, "back") if back_template else None
            return face, back

        return self._make(make, ("", None))

    def _art(self, design: Design, template: str, box: dict, side: str, extra=None) -> str:
        svg = self.renderer.render_design(design, template, box, side, extra)
        return self._store(template, svg, f"{side} of {describe(design)}")

    def _store(self, template: str, svg: str, where: str) -> str:
        source = next(
            (d / template for d in self.game.template_dirs() if (d / template).is_file()),
            Path(template),
        )
        return self.pack.art.add(svg, source, where)

    def _each(self, component_designs: list[Design], make) -> list[Piece]:
        """Pieces of every design, collecting errors design by design."""
        pieces: list[Piece] = []
        for design in component_designs:
            try:
                pieces.extend(make(design))
            except SpecError as exc:
                self.errors.append(exc)
        return pieces

    def _deck(self, component: Component, component_designs: list[Design]) -> None:
        spec = component.spec
        shape = Shape("rect", spec.size.w, spec.size.h)

        def make(design: Design) -> list[Piece]:
            return self._pieces(design, shape, spec.bleed, *self._sides(design, shape, spec.bleed))

        pieces = self._each(component_designs, make)
        if pieces:
            sheets = impose_cards(
                spec.title, pieces, self.pack.paper, sheet_geometry(), self.pack.options
            )
            self.pack.sections.append(Section(spec.title, sheets))

    def _counters(self, component: Component, component_designs: list[Design]) -> None:
        spec = component.spec
        if self.counters_at is None:
            self.counters_at = len(self.pack.sections)
        if isinstance(spec, TokenSpec):
            shape = token_shape(spec.shape, spec.size.w, spec.size.h, spec.corner)
            self._check_fits(component, shape, spec.bleed)

            def make(design: Design) -> list[Piece]:
                return self._pieces(
                    design, shape, spec.bleed, *self._sides(design, shape, spec.bleed)
                )
        elif isinstance(spec, StandeeSpec):
            shape = standee_shape(spec.size.w, spec.size.h, spec.base)
            self._check_fits(component, shape, 0.0)

            def make(design: Design) -> list[Piece]:
                face = self._make(lambda: self._standee(design, spec), "")
                return self._pieces(design, shape, 0.0, face, None)
        else:
            shape = die_net(spec.size)
            self._check_fits(component, shape, 0.0)

            def make(design: Design) -> list[Piece]:
                face = self._make(lambda: self._die(design, spec.size, shape), "")
                return self._pieces(design, shape, 0.0, face, None)

        self.counters.extend(self._each(component_designs, make))

    def _check_fits(self, component: Component, shape: Shape, bleed: float) -> None:
        """A piece larger than the printable area is this component's error, not the sheet's."""
        left, bottom, right, top = printable_box(self.pack.paper, sheet_geometry())
        if shape.w + 2 * bleed > right - left or shape.h + 2 * bleed > top - bottom:
            raise SpecError(
                component.path,
                component.doc.line_of(("size",)),
                f"a {shape.label} piece ({shape.w:.1f} x {shape.h:.1f} mm with "
                f"{bleed:g} mm bleed) is larger than the printable area of "
                f"{self.pack.paper_name} ({right - left:g} x {top - bottom:g} mm); "
                "choose a smaller size",
            )

    def _standee(self, design: Design, spec: StandeeSpec) -> str:
        """A standee's strip: its face and back rendered in their panels, then composed."""
        box = card_box(spec.size.w, spec.size.h, 0.0, "rect")
        sides = [(spec.face, "face"), (spec.back or spec.face, "back")]
        arts = [self.renderer.render_design(design, t, box, side) for t, side in sides]
        shape = standee_shape(spec.size.w, spec.size.h, spec.base)
        return self._store(spec.face, composed_svg(shape, arts), describe(design))

    def _die(self, design: Design, edge: float, shape: Shape) -> str:
        """The net art of one die: each face rendered by the face template, then composed."""
        box = card_box(edge, edge, 0.0, "square")
        faces = [
            self.renderer.render_design(
                design, design.component.spec.face, box, "face", {"face": value}
            )
            for value in design.entry.faces
        ]
        return self._store(design.component.spec.face, composed_svg(shape, faces), describe(design))

    def _board(self, component: Component, component_designs: list[Design]) -> None:
        """A board drawn from its spaces, on one page or tiled across several."""
        spec = component.spec
        icon = None
        if spec.icons:
            line = component.doc.line_of(("icons",))

            def icon(name: str) -> str:
                return self.renderer.macro(
                    spec.icons, "icon", name, lambda _v: (component.path, line)
                )

        def make() -> str:
            try:
                svg = board_svg(spec, icon)
            except etree.XMLSyntaxError as exc:
                line = component.doc.line_of(("icons",))
                raise SpecError(
                    component.path,
                    line,
                    f"an icon of {spec.icons} is not well-formed "
                    f"SVG: {exc.msg}; check the macro icon()",
                ) from None
            return self._store(spec.icons or "board", svg, f"board {component.id}")

        face = self._make(make, "")
        shape = Shape("rect", spec.size.w, spec.size.h)
        self.pack.components[-1].shape = shape
        pieces = [
            piece
            for design in component_designs
            for piece in self._pieces(design, shape, spec.bleed, face, None)
        ]
        geo = sheet_geometry()
        grid = fit_grid(self.pack.paper, shape.w, shape.h, spec.bleed, geo)
        if len(pieces) > 1 and grid is not None and grid.capacity > 1:
            # several copies of a small board share sheets, like cards
            sheets = impose_cards(spec.title, pieces, self.pack.paper, geo)
            for sheet in sheets:
                sheet.placements = [
                    replace(p, window=(0.0, 0.0, shape.w, shape.h), tile="whole")
                    for p in sheet.placements
                ]
        else:
            sheets = [
                sheet
                for piece in pieces
                for sheet in impose_board(spec.title, piece, self.pack.paper, geo, BOARD_OVERLAP)
            ]
        self.pack.sections.append(Section(spec.title, sheets))

    def _sheet(self, component: Component, component_designs: list[Design]) -> None:
        """A reference sheet flowed through columns and pages, shrunk to fit its pages."""
        if self.share is not None:
            return  # a worker makes the designs' art only; sheets are laid out by the build
        spec = component.spec
        left, bottom, right, top = printable_box(self.pack.paper, sheet_geometry())
        area = (left, bottom, right - left, top - bottom)
        icons: dict[str, Artwork] = {}

        def icon(name: str, where: tuple | None) -> Artwork:
            if name not in icons:
                line = component.doc.line_of(where or ("sections",))
                icons[name] = self._icon(component, name, line)
            return icons[name]

        def rows_from(table: SheetTable, where: tuple) -> list[list[str]]:
            return self._rows_from(component, table, component.doc.line_of(where))

        layout = FlowLayout(spec, area, icon, rows_from)
        layout.fit(component.id)
        if layout.overflow:
            layout.overflow.line = component.doc.line_of(("pages",))
            self.pack.overflows.append(layout.overflow)
        shape = Shape("rect", area[2], area[3])
        self.pack.components[-1].shape = shape
        sheets: list[Sheet] = []
        for design in component_designs:
            for piece in self._pieces(design, shape, 0.0, "", None):
                flow = FlowLayout(spec, area, icon, rows_from, layout.size, layout.pages)
                for n in range(1, layout.pages + 1):
                    sheet = Sheet(spec.title, "front", n, layout.pages, flow=flow)
                    sheet.placements.append(
                        Placement(piece, "front", left, bottom, area[2], area[3], 0)
                    )
                    sheets.append(sheet)
        self.pack.sections.append(Section(spec.title, sheets))

    def _icon(self, component: Component, name: str, line: int) -> Artwork:
        """An inline icon of a sheet, drawn by the component's icon macro."""
        spec = component.spec
        if not spec.icons:
            raise SpecError(
                component.path,
                line,
                f"the text uses :{name}: but the sheet has no 'icons' template to draw it",
            )
        fragment = self.renderer.macro(spec.icons, "icon", name, lambda _v: (component.path, line))
        if not fragment.strip():
            raise SpecError(
                component.path,
                line,
                f"unknown icon :{name}:; the macro icon() in "
                f"{spec.icons} draws nothing for '{name}'",
            )
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="20pt" height="20pt" '
            f'viewBox="-10 -10 20 20">{fragment}</svg>'
        )
        key = self._store(spec.icons, svg, f"icon :{name}: of {display_path(component.path)}")
        return self.pack.art.drawing(key)

    def _rows_from(self, component: Component, table: SheetTable, line: int) -> list[list[str]]:
        """Rows of a table taken from a deck: one per card design, its fields as cells."""
        deck = next((c for c in self.game.components if c.id == table.from_), None)
        if deck is None or not isinstance(deck.spec, DeckSpec):
            raise SpecError(
                component.path,
                line,
                f"a table is 'from' '{table.from_}', which is not a deck of this game",
            )
        rows = []
        for design in designs(deck, self.game.spec.colours):
            fields = design.fields()
            missing = [c for c in table.columns if c not in fields]
            if missing:
                raise SpecError(
                    component.path,
                    line,
                    f"the table shows field(s) "
                    f"{', '.join(missing)}, which card '{design.name}' of "
                    f"{table.from_} does not have",
                )
            rows.append([str(fields[c]) for c in table.columns])
        return rows

    def _token_pages(self, component: Component, component_designs: list[Design]) -> None:
        spec = component.spec
        shape = token_shape("circle", spec.size, spec.size)
        by_value: dict[int, Piece] = {}
        for design in component_designs:
            face, _ = self._sides(design, shape, spec.bleed)
            self.pack.components[-1].shape = shape
            by_value[design.extra["value"]] = Piece(
                component.id, "token", design.name, 0, shape, spec.bleed, face, None
            )
        geo = sheet_geometry()
        width = self.pack.paper[0] - 2 * geo.margin
        copies = dict.fromkeys(by_value, 0)
        pages: list[tuple[str, list[Piece]]] = []
        for n in range(1, spec.pages + 1):
            values = [v for v in spec.values for _ in range(spec.each)]
            random.Random(f"{component.id}-{n}").shuffle(values)
            pieces = []
            for v in values:
                copies[v] += 1
                template = by_value[v]
                pieces.append(
                    Piece(
                        component.id,
                        "token",
                        template.name,
                        copies[v],
                        shape,
                        spec.bleed,
                        template.face,
                        None,
                    )
                )
            pages.append((self._header(component, n, width), pieces))
        sheets = impose_token_pages(spec.title, pages, spec.header_height, self.pack.paper, geo)
        self.pack.sections.append(Section(spec.title, sheets))

    def _header(self, component: Component, n: int, width: float) -> str:
        """A token page's title band, drawn by the component's header template."""
        spec = component.spec
        context = {
            "page": {"n": n, "title": spec.page_title.replace("{n}", str(n))},
            "component": {"id": component.id, "title": spec.title},
            "fields": spec.fields,
            "box": card_box(width, spec.header_height, 0.0),
        }
        line = component.doc.line_of(("header",))
        where = f"page {n} header of {display_path(component.path)}:{line}"
        svg = self.renderer.render(spec.header, context, where, lambda _v: (component.path, line))
        return self._store(spec.header, svg, where)


@dataclass(frozen=True)
class Built:
    """What a build wrote."""

    pdf: Path
    manifest: Path
    pages: int


def out_folder(out_dir: Path, game: Game, by_language: bool) -> Path:
    """Where a game's pack goes: <out>/<game>/, or <out>/<game>/<lang>/."""
    folder = out_dir / game.name
    return folder / game.language if by_language else folder


@dataclass(frozen=True)
class StagedPack:
    """A pack written under temporary names: ``commit`` puts it in place."""

    files: Staged
    built: Built

    def commit(self) -> Built:
        self.files.commit()
        return self.built


def stage_pack(
    pack: Pack,
    out_dir: Path,
    by_language: bool = False,
    progress: Callable[[int], None] | None = None,
) -> StagedPack:
    """Write the PDF and manifest of ``<out>/<game>/`` (``<lang>/`` when ``by_language``)
    under temporary names beside them, flushed to disk, ready to commit."""
    set_language(pack.game.language)
    folder = out_folder(out_dir, pack.game, by_language)
    sweep_stale(folder)
    pdf_path = folder / f"{pack.game.name}.pdf"
    manifest_path = folder / "manifest.json"

    def write(temps: tuple[Path, ...]) -> None:
        pdf.write(pack, temps[0], progress)
        manifest.write(pack, temps[1])

    staged = stage_all([pdf_path, manifest_path], write)
    return StagedPack(staged, Built(pdf_path, manifest_path, pack.page_count))


def write_pack(
    pack: Pack,
    out_dir: Path,
    by_language: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Built:
    """Write ``<out>/<game>/<game>.pdf`` and ``manifest.json`` (under ``<lang>/`` when
    ``by_language``), both in place only once both are written."""
    return stage_pack(pack, out_dir, by_language, progress).commit()
