"""The steps of each kind of component: a deck's cards, counters (tokens, dice, standees)
that share counter sheets, boards drawn and tiled, reference sheets flowed through pages,
token pages; ``STEPS`` picks them by the spec's ``kind``."""

from __future__ import annotations

import random
from dataclasses import replace

from lxml import etree

from generator.art.boards import board_svg
from generator.art.shapes import Shape, die_net, standee_shape, token_shape
from generator.art.sheetflow import FlowLayout
from generator.art.store import Artwork
from generator.art.templates import card_box, composed_svg, describe
from generator.build.planner import Planner
from generator.errors import SpecError, display_path
from generator.i18n.strings import text
from generator.layout.impose import (
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
from generator.layout.pack import ComponentPlan, Section
from generator.layout.packing import PackingError
from generator.layout.pieces import Piece
from generator.spec.designs import Design, designs
from generator.spec.loader import Component
from generator.spec.models import DeckSpec, SheetTable, StandeeSpec, TokenSpec
from generator.spec.sizes import sheet_geometry

MAX_PIECES = 20_000  # printed pieces per build: more would run for minutes
BOARD_OVERLAP = 10.0  # mm that neighbouring tiles of a board share, for glue


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
    """Impose the counter sheets (every token, die and standee of the game), where the first
    of those components stood."""
    if not planner.counters:
        return
    try:
        sheets = impose_counters(
            text("counter_sheets"),
            planner.counters,
            planner.pack.paper,
            sheet_geometry(),
            planner.pack.options,
        )
    except PackingError as exc:
        first = next(c for c in planner.game.components if c.id == planner.counters[0].component)
        planner.error(first, ("size",), f"{exc} ({planner.pack.paper_name}); choose a smaller size")
        return
    assert planner.counters_at is not None
    planner.pack.sections.insert(planner.counters_at, Section(text("counter_sheets"), sheets))


def _deck(planner: Planner, component: Component, component_designs: list[Design]) -> None:
    spec = component.spec
    shape = Shape("rect", spec.size.w, spec.size.h)

    def make(design: Design) -> list[Piece]:
        return planner.pieces(design, shape, spec.bleed, *planner.sides(design, shape, spec.bleed))

    pieces = planner.each(component_designs, make)
    if pieces:
        sheets = impose_cards(
            spec.title, pieces, planner.pack.paper, sheet_geometry(), planner.pack.options
        )
        planner.pack.sections.append(Section(spec.title, sheets))


def _counters(planner: Planner, component: Component, component_designs: list[Design]) -> None:
    spec = component.spec
    if planner.counters_at is None:
        planner.counters_at = len(planner.pack.sections)
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

    planner.counters.extend(planner.each(component_designs, make))


def _standee(planner: Planner, design: Design, spec: StandeeSpec) -> str:
    """A standee's strip: its face and back rendered in their panels, then composed."""
    box = card_box(spec.size.w, spec.size.h, 0.0, "rect")
    sides = [(spec.face, "face"), (spec.back or spec.face, "back")]
    arts = [planner.renderer.render_design(design, t, box, side) for t, side in sides]
    shape = standee_shape(spec.size.w, spec.size.h, spec.base)
    return planner.store(spec.face, composed_svg(shape, arts), describe(design))


def _die(planner: Planner, design: Design, edge: float, shape: Shape) -> str:
    """The net art of one die: each face rendered by the face template, then composed."""
    box = card_box(edge, edge, 0.0, "square")
    faces = [
        planner.renderer.render_design(
            design, design.component.spec.face, box, "face", {"face": value}
        )
        for value in design.entry.faces
    ]
    return planner.store(design.component.spec.face, composed_svg(shape, faces), describe(design))


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
    grid = fit_grid(planner.pack.paper, shape.w, shape.h, spec.bleed, geo)
    if len(pieces) > 1 and grid is not None and grid.capacity > 1:
        # several copies of a small board share sheets, like cards
        sheets = impose_cards(spec.title, pieces, planner.pack.paper, geo)
        for sheet in sheets:
            sheet.placements = [
                replace(p, window=(0.0, 0.0, shape.w, shape.h), tile="whole")
                for p in sheet.placements
            ]
    else:
        sheets = [
            sheet
            for piece in pieces
            for sheet in impose_board(spec.title, piece, planner.pack.paper, geo, BOARD_OVERLAP)
        ]
    planner.pack.sections.append(Section(spec.title, sheets))


def _sheet(planner: Planner, component: Component, component_designs: list[Design]) -> None:
    """A reference sheet flowed through columns and pages, shrunk to fit its pages."""
    if planner.share is not None:
        return  # a worker makes the designs' art only; sheets are laid out by the build
    spec = component.spec
    left, bottom, right, top = printable_box(planner.pack.paper, sheet_geometry())
    area = (left, bottom, right - left, top - bottom)
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
    sheets: list[Sheet] = []
    for design in component_designs:
        for piece in planner.pieces(design, shape, 0.0, "", None):
            flow = FlowLayout(spec, area, icon, rows_from, layout.size, layout.pages)
            for n in range(1, layout.pages + 1):
                sheet = Sheet(spec.title, "front", n, layout.pages, flow=flow)
                sheet.placements.append(
                    Placement(piece, "front", left, bottom, area[2], area[3], 0)
                )
                sheets.append(sheet)
    planner.pack.sections.append(Section(spec.title, sheets))


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
    spec = component.spec
    shape = token_shape("circle", spec.size, spec.size)
    by_value: dict[int, Piece] = {}
    for design in component_designs:
        face, _ = planner.sides(design, shape, spec.bleed)
        planner.pack.components[-1].shape = shape
        by_value[design.extra["value"]] = Piece(
            component.id, "token", design.name, 0, shape, spec.bleed, face, None
        )
    geo = sheet_geometry()
    width = planner.pack.paper[0] - 2 * geo.margin
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
        pages.append((_header(planner, component, n, width), pieces))
    sheets = impose_token_pages(spec.title, pages, spec.header_height, planner.pack.paper, geo)
    planner.pack.sections.append(Section(spec.title, sheets))


def _header(planner: Planner, component: Component, n: int, width: float) -> str:
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
