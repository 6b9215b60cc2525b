"""The steps of each kind of component: decks' cards (decks of one size share their sheets),
counters (tokens, dice, standees and small boards) packed together, boards drawn and tiled,
reference sheets flowed through pages, token pages; ``STEPS`` picks them by the spec's
``kind``. ``finish`` lays out what components share, once every component is planned."""

from __future__ import annotations

from lxml import etree

from generator.art.boards import board_svg
from generator.art.shapes import Shape, die_net, standee_shape, token_shape
from generator.art.sheetflow import FlowLayout
from generator.art.store import SAFE_PARSER, Artwork
from generator.art.templates import card_box, composed_svg, describe
from generator.errors import SpecError, display_path
from generator.i18n.strings import text
from generator.layout.counters import PackingError, pack_counters
from generator.layout.grids import fit_grid, printable_box
from generator.layout.impose import (
    ImpositionError,
    flip_axis,
    impose_cards,
    impose_token_pages,
    shuffled,
)
from generator.layout.pack import ComponentPlan
from generator.layout.pieces import Piece
from generator.layout.sheets import Page, Placement, Sheet, Space
from generator.layout.tiles import tiled_board, whole_board
from generator.model.designs import Design, designs
from generator.model.loader import Component
from generator.model.models import DeckSpec, SheetTable, StandeeSpec, TokenSpec
from generator.model.sizes import sheet_geometry
from generator.plan.planner import COUNTERS, CardRun, Planner

MAX_PIECES = 20_000  # printed pieces per build: more would run for minutes
BOARD_OVERLAP = 10.0  # mm that neighbouring tiles of a board share, for glue
SHEET_INSET = 1.5  # mm a sheet's text keeps inside the printable area: its bands and rules


def plan_component(planner: Planner, component: Component) -> None:
    """A component's designs, art and sheets, by the steps of its kind."""
    spec = component.spec
    component_designs = designs(component, planner.game.spec.colours)
    planner.total += sum(d.count for d in component_designs)
    if planner.total > MAX_PIECES:
        line = component.doc.line_of((spec.kind_key,) if spec.kind_key else ())
        planner.errors.append(
            SpecError(
                component.path,
                line,
                f"the game asks for {planner.total:,} pieces so far; one build prints at most "
                f"{MAX_PIECES:,} (split the game, or lower the counts)",
            )
        )
        planner.total = -(10**12)  # report once
        return
    planner.pack.components.append(ComponentPlan(component, component_designs))
    if not planner.game.spec.colours:
        uncoloured = [i for i, e in enumerate(spec.entries) if getattr(e, "per_player", None)]
        for index in uncoloured:
            planner.error(
                component,
                (spec.kind_key, index, "per_player"),
                f"'{spec.entries[index].name}' is given per_player, but game.yaml "
                "lists no 'colours'; add the player colours there",
            )
        if uncoloured:
            return
    try:
        STEPS[spec.kind](planner, component, component_designs)
    except SpecError as exc:
        planner.errors.append(exc)
    except ImpositionError as exc:
        planner.error(
            component, ("size",), f"{exc} ({planner.pack.paper_name}); choose a smaller size"
        )


def finish(planner: Planner) -> None:
    """Lay out what components share, once every component is planned: each size of card on
    its own run of sheets, where the first deck of that size stood, then the counters, first
    into the room the cards leave, the rest on counter sheets where the first counter stood;
    then the pack's body in that order."""
    spaces: list[Space] = []
    made: dict[object, list[Sheet]] = {}
    for run in [slot for slot in planner.slots if isinstance(slot, CardRun)]:
        try:
            made[run], room = impose_cards(
                run.pieces,
                planner.pack.paper,
                sheet_geometry(),
                planner.titles,
                planner.pack.options,
            )
        except ImpositionError as exc:
            first = next(c for c in planner.game.components if c.id == run.pieces[0].component)
            planner.error(
                first, ("size",), f"{exc} ({planner.pack.paper_name}); choose a smaller size"
            )
            continue
        spaces += room
    if planner.counters:
        try:
            made[COUNTERS] = pack_counters(
                planner.counters,
                spaces,
                planner.pack.paper,
                sheet_geometry(),
                planner.pack.options,
                text("counter_sheets"),
            )
        except PackingError as exc:
            first_id = planner.counters[0].pieces[0].component
            first = next(c for c in planner.game.components if c.id == first_id)
            planner.error(
                first, ("size",), f"{exc} ({planner.pack.paper_name}); choose a smaller size"
            )
    for slot in planner.slots:
        if isinstance(slot, list):
            planner.pack.body.extend(slot)
        else:
            planner.pack.body.extend(made.get(slot, []))
    area = printable_box(planner.pack.paper, sheet_geometry())
    for sheet in planner.pack.body:
        if sheet.front.placements and not sheet.front.area:
            sheet.front.area = (area[2] - area[0]) * (area[3] - area[1])


def _deck(planner: Planner, component: Component, component_designs: list[Design]) -> None:
    """A deck's cards, on the run of sheets of every deck of its size and bleed."""
    spec = component.spec
    shape = Shape("rect", spec.size.w, spec.size.h)

    def make(design: Design) -> list[Piece]:
        return planner.pieces(design, shape, spec.bleed, *planner.sides(design, shape, spec.bleed))

    planner.cards(planner.each(component_designs, make))


def _counters(planner: Planner, component: Component, component_designs: list[Design]) -> None:
    spec = component.spec
    if isinstance(spec, TokenSpec):
        shape = token_shape(spec.shape, spec.size.w, spec.size.h, spec.corner)
        planner.check_fits(component, shape, spec.bleed)

        def make(design: Design) -> list[Piece]:
            return planner.pieces(
                design, shape, spec.bleed, *planner.sides(design, shape, spec.bleed)
            )
    elif isinstance(spec, StandeeSpec):
        shape = standee_shape(spec.size.w, spec.size.h, spec.base)
        planner.check_fits(component, shape, 0.0)

        def make(design: Design) -> list[Piece]:
            face = planner.make(lambda: _standee(planner, design, spec), "")
            return planner.pieces(design, shape, 0.0, face, None)
    else:
        shape = die_net(spec.size)
        planner.check_fits(component, shape, 0.0)

        def make(design: Design) -> list[Piece]:
            face = planner.make(lambda: _die(planner, design, spec.size, shape), "")
            return planner.pieces(design, shape, 0.0, face, None)

    planner.counter_pieces(planner.each(component_designs, make))


def _standee(planner: Planner, design: Design, spec: StandeeSpec) -> str:
    """A standee's strip: its face and back rendered in their panels, then composed."""
    box = card_box(spec.size.w, spec.size.h, 0.0, "rect")
    sides = [(spec.face, "face"), (spec.back or spec.face, "back")]
    arts = [planner.renderer.render_design(design, t, box, side) for t, side in sides]
    shape = standee_shape(spec.size.w, spec.size.h, spec.base)
    return _store_composed(planner, design, [t for t, _side in sides], shape, arts)


def _die(planner: Planner, design: Design, edge: float, shape: Shape) -> str:
    """The net art of one die: each face rendered by the face template, then composed."""
    box = card_box(edge, edge, 0.0, "square")
    faces = [
        planner.renderer.render_design(
            design, design.component.spec.face, box, "face", {"face": value}
        )
        for value in design.entry.faces
    ]
    templates = [design.component.spec.face] * len(faces)
    return _store_composed(planner, design, templates, shape, faces)


def _store_composed(
    planner: Planner, design: Design, templates: list[str], shape: Shape, arts: list[str]
) -> str:
    """Store the panels ``arts`` (rendered by ``templates``) composed into one piece; a panel
    that is not well-formed SVG is an error at its template."""
    try:
        svg = composed_svg(shape, arts)
    except etree.XMLSyntaxError:
        for template, art in zip(templates, arts, strict=True):
            try:
                etree.fromstring(art.encode(), SAFE_PARSER)
            except etree.XMLSyntaxError as exc:
                raise SpecError(
                    planner.template_path(template),
                    None,
                    f"the SVG this template renders is not well-formed: {exc.msg} "
                    f"(line {exc.lineno} of its output, {describe(design)})",
                ) from None
        raise
    return planner.store(templates[0], svg, describe(design))


def _board(planner: Planner, component: Component, component_designs: list[Design]) -> None:
    """A board drawn from its spaces, on one page or tiled across several."""
    spec = component.spec
    icon = None
    if spec.icons:
        line = component.doc.line_of(("icons",))

        def icon(name: str) -> str:
            return planner.renderer.macro(
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
        return planner.store(spec.icons or "board", svg, f"board {component.id}")

    face = planner.make(make, "")
    shape = Shape("rect", spec.size.w, spec.size.h)
    planner.pack.components[-1].shape = shape
    pieces = [
        piece
        for design in component_designs
        for piece in planner.pieces(design, shape, spec.bleed, face, None)
    ]
    geo = sheet_geometry()
    paper = planner.pack.paper
    grid = fit_grid(paper, shape.w, shape.h, spec.bleed, geo)
    if len(pieces) > 1 and grid is not None and grid.capacity > 1:
        planner.counter_pieces(pieces)  # several copies of a small board: cut like counters
        return
    sheets: list[Sheet] = []
    for piece in pieces:
        whole = whole_board(piece, paper, geo)
        if whole is not None:
            sheets.append(whole)
            continue
        flip = flip_axis(planner.pack.options) if planner.pack.duplex else None
        tiles, board_map = tiled_board(spec.title, piece, paper, geo, BOARD_OVERLAP, flip)
        sheets += tiles
        if piece.copy == 1:
            planner.pack.notes.append([board_map])
    for sheet in sheets:
        sheet.front.title = spec.title
    planner.slots.append(sheets)


def _sheet(planner: Planner, component: Component, component_designs: list[Design]) -> None:
    """A reference sheet flowed through columns and pages, shrunk to fit its pages."""
    if planner.share is not None:
        return  # a worker makes the designs' art only; sheets are laid out by the build
    spec = component.spec
    left, bottom, right, top = printable_box(planner.pack.paper, sheet_geometry())
    inset = SHEET_INSET
    area = (left + inset, bottom + inset, right - left - 2 * inset, top - bottom - 2 * inset)
    icons: dict[str, Artwork] = {}

    def icon(name: str, where: tuple | None) -> Artwork:
        if name not in icons:
            line = component.doc.line_of(where or ("sections",))
            icons[name] = _icon(planner, component, name, line)
        return icons[name]

    def rows_from(table: SheetTable, where: tuple) -> list[list[str]]:
        return _rows_from(planner, component, table, component.doc.line_of(where))

    layout = FlowLayout(spec, area, icon, rows_from)
    layout.fit(component.id)
    if layout.overflow:
        layout.overflow.line = component.doc.line_of(("pages",))
        planner.pack.overflows.append(layout.overflow)
    shape = Shape("rect", area[2], area[3])
    planner.pack.components[-1].shape = shape
    copies = []
    for design in component_designs:
        for piece in planner.pieces(design, shape, 0.0, "", None):
            flow = FlowLayout(spec, area, icon, rows_from, layout.size, layout.pages)
            pages = []
            for n in range(1, layout.pages + 1):
                page = Page(spec.title, "front", n, layout.pages, flow=flow)
                page.placements.append(Placement(piece, "front", *area, 0))
                pages.append(page)
            copies.append(pages)
    if len(copies) == 1:  # printed once: with the other pages nobody cuts, at the front
        planner.pack.notes.append(copies[0])
        return
    duplex = planner.pack.duplex  # several copies, to hand out: each on sheets of its own
    planner.slots.append(
        [
            Sheet(pages[i], pages[i + 1] if duplex and i + 1 < len(pages) else None)
            for pages in copies
            for i in range(0, len(pages), 2 if duplex else 1)
        ]
    )


def _icon(planner: Planner, component: Component, name: str, line: int) -> Artwork:
    """An inline icon of a sheet, drawn by the component's icon macro."""
    spec = component.spec
    if not spec.icons:
        raise SpecError(
            component.path,
            line,
            f"the text uses :{name}: but the sheet has no 'icons' template to draw it",
        )
    fragment = planner.renderer.macro(spec.icons, "icon", name, lambda _v: (component.path, line))
    if not fragment.strip():
        raise SpecError(
            component.path,
            line,
            f"unknown icon :{name}:; the macro icon() in {spec.icons} draws nothing for '{name}'",
        )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="20pt" height="20pt" '
        f'viewBox="-10 -10 20 20">{fragment}</svg>'
    )
    key = planner.store(spec.icons, svg, f"icon :{name}: of {display_path(component.path)}")
    return planner.pack.art.drawing(key)


def _rows_from(
    planner: Planner, component: Component, table: SheetTable, line: int
) -> list[list[str]]:
    """Rows of a table taken from a deck: one per card design, its fields as cells."""
    deck = next((c for c in planner.game.components if c.id == table.from_), None)
    if deck is None or not isinstance(deck.spec, DeckSpec):
        raise SpecError(
            component.path,
            line,
            f"a table is 'from' '{table.from_}', which is not a deck of this game",
        )
    rows = []
    for design in designs(deck, planner.game.spec.colours):
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


def _token_pages(planner: Planner, component: Component, component_designs: list[Design]) -> None:
    """Whole pages of round tokens, every page a shuffled set of its own under a title band."""
    spec = component.spec
    shape = token_shape("circle", spec.size, spec.size)
    by_value: dict[int, Piece] = {}
    for design in component_designs:
        face, back = planner.sides(design, shape, spec.bleed)
        planner.pack.components[-1].shape = shape
        by_value[design.extra["value"]] = Piece(
            component.id, "token", design.name, 0, shape, spec.bleed, face, back
        )
    copies = dict.fromkeys(by_value, 0)
    pages = []
    for n in range(1, spec.pages + 1):
        pieces = []
        for v in shuffled(list(spec.values), spec.each, f"{component.id}-{n}"):
            copies[v] += 1
            design = by_value[v]
            pieces.append(
                Piece(
                    component.id,
                    "token",
                    design.name,
                    copies[v],
                    shape,
                    spec.bleed,
                    design.face,
                    design.back,
                )
            )

        def header(width: float, height: float, n: int = n) -> str:
            return _header(planner, component, n, width, height)

        pages.append((header, pieces))
    sheets = impose_token_pages(
        pages, spec.header_height, planner.pack.paper, sheet_geometry(), planner.pack.options
    )
    for sheet in sheets:
        sheet.front.title = spec.title
    planner.slots.append(sheets)


def _header(planner: Planner, component: Component, n: int, width: float, height: float) -> str:
    """A token page's title band, drawn by the component's header template."""
    spec = component.spec
    context = {
        "page": {"n": n, "title": spec.page_title.replace("{n}", str(n))},
        "component": {"id": component.id, "title": spec.title},
        "fields": spec.fields,
        "box": card_box(width, height, 0.0),
    }
    line = component.doc.line_of(("header",))
    where = f"page {n} header of {display_path(component.path)}:{line}"
    svg = planner.renderer.render(spec.header, context, where, lambda _v: (component.path, line))
    return planner.store(spec.header, svg, where)


STEPS = {
    "deck": _deck,
    "board": _board,
    "sheet": _sheet,
    "token-pages": _token_pages,
    "tokens": _counters,
    "dice": _counters,
    "standees": _counters,
}
