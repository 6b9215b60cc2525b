"""``kind: board``: a board drawn from its spaces, on one page or tiled across several (a few
copies of a small board are cut like counters)."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from generator.art.boards import board_svg, places
from generator.art.shapes import Shape
from generator.errors import SpecError
from generator.layout.grids import fit_grid
from generator.layout.impose import flip_axis
from generator.layout.sheets import Sheet
from generator.layout.tiles import Span, tiled_board, whole_board
from generator.model.designs import Design
from generator.model.kinds.board import BoardSpec
from generator.model.loader import Component
from generator.model.sizes import sheet_geometry
from generator.plan.planner import Planner, Step

BOARD_OVERLAP = 10.0  # mm that neighbouring tiles of a board share, for glue


def plan(planner: Planner, component: Component, spec: BoardSpec, designs: list[Design]) -> None:
    """The board's art once, then each copy whole on a page or tiled."""
    face = planner.make(lambda: _art(planner, component, spec), "")
    shape = Shape("rect", spec.size.w, spec.size.h)
    planner.pack.components[-1].shape = shape
    pieces = [p for d in designs for p in planner.pieces(d, shape, spec.bleed, face, None)]
    grid = fit_grid(planner.pack.paper, shape.w, shape.h, spec.bleed, sheet_geometry())
    if len(pieces) > 1 and grid is not None and grid.capacity > 1:
        planner.counter_pieces(pieces)  # several copies of a small board: cut like counters
        return
    sheets: list[Sheet] = []
    avoid = _spans(planner, component, spec)
    for piece in pieces:
        whole = whole_board(piece, planner.pack.paper, sheet_geometry())
        if whole is not None:
            sheets.append(whole)
            continue
        flip = flip_axis(planner.pack.options) if planner.pack.duplex else None
        tiles, board_map = tiled_board(
            spec.title, piece, planner.pack.paper, sheet_geometry(), BOARD_OVERLAP, flip, avoid
        )
        sheets += tiles
        if piece.copy == 1:
            planner.pack.notes.append([board_map])
    printed_whole = [s for s in sheets if all(p.tile == "whole" for p in s.front.placements)]
    for number, sheet in enumerate(printed_whole, start=1):  # copies: 1 of 4, 2 of 4 ...
        sheet.front.number, sheet.front.of = number, len(printed_whole)
    for sheet in sheets:
        for page in (sheet.front, sheet.back):
            if page is not None:  # the back's label names the component too
                page.title = spec.title
    planner.slots.append(sheets)


def _spans(
    planner: Planner, component: Component, spec: BoardSpec
) -> tuple[list[Span], list[Span]]:
    """Where the board's boxes lie across it and up it (mm from its lower-left corner), for
    the seams of its tiles to keep out of: its spaces, the spaces of its rows, tracks and
    grids, its regions that carry a name, and any region a piece of the game stands on.
    (A region without a name that no piece stands on is a background.)"""
    stood = {
        name
        for other in planner.game.components
        for stand in other.spec.stands_on
        if stand.board == component.id
        for ref in stand.places
        for name in spec.resolve(ref)
    }
    backgrounds = {r.name for r in spec.regions if not r.label and r.name not in stood}
    found = [p for name, p in places(spec).items() if name not in backgrounds]
    h = spec.size.h
    across = [(p.centre[0] - p.w / 2, p.centre[0] + p.w / 2) for p in found]
    up = [(h - p.centre[1] - p.h / 2, h - p.centre[1] + p.h / 2) for p in found]
    return across, up


def _art(planner: Planner, component: Component, spec: BoardSpec) -> str:
    """The board's SVG, its icons drawn by the component's icon macro (the stock icons for
    a grid's, if it names none) and its grids' cells by their terrains' templates, stored."""
    line = component.doc.line_of(("icons",))
    icons = spec.icon_template()

    def locate(_value: object) -> tuple[Path, int]:
        return component.path, line

    def icon(name: str) -> str:
        assert icons is not None  # only asked for when the board names its icons
        return planner.renderer.macro(icons, "icon", name, locate)

    def cell(template: str, context: dict[str, object]) -> str:
        if not planner.template_path(template).is_file():
            return ""  # not there: said at the terrain's line when the game loaded
        return planner.renderer.macro(template, "cell", context, locate)

    try:
        svg = board_svg(spec, icon if icons else None, cell)
    except etree.XMLSyntaxError as exc:
        raise SpecError(
            component.path,
            line,
            f"an icon or cell of the board is not well-formed SVG: {exc.msg}; check the macro "
            "icon() of its icons template, or cell() of its terrains' templates",
        ) from None
    return planner.store(icons or "board", svg, f"board {component.id}")


STEP = Step(BoardSpec, plan)
