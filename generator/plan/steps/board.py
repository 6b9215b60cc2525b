"""``kind: board``: a board drawn from its spaces, on one page or tiled across several (a few
copies of a small board are cut like counters)."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from generator.art.boards import board_svg
from generator.art.shapes import Shape
from generator.errors import SpecError
from generator.layout.grids import fit_grid
from generator.layout.sheets import Sheet
from generator.layout.tiles import board_keeps, tiled_board, whole_board
from generator.model.designs import Design
from generator.model.kinds.board import BoardSpec
from generator.model.loader import Component
from generator.model.places import stood_on
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
    keep = board_keeps(spec, stood_on(planner.game.components, component.id, spec))
    for piece in pieces:
        whole = whole_board(piece, planner.pack.paper, sheet_geometry())
        if whole is not None:
            sheets.append(whole)
            continue
        tiles, board_map = tiled_board(
            spec.title, piece, planner.pack.paper, sheet_geometry(), BOARD_OVERLAP, keep
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
        inputs = spec.model_dump(mode="json", by_alias=True)  # its grids' data read in
        svg = planner.renderer.made(
            "board", inputs, lambda: board_svg(spec, icon if icons else None, cell)
        )
    except etree.XMLSyntaxError as exc:
        raise SpecError(
            component.path,
            line,
            f"an icon or cell of the board is not well-formed SVG: {exc.msg}; check the macro "
            "icon() of its icons template, or cell() of its terrains' templates",
        ) from None
    return planner.store(icons or "board", svg, f"board {component.id}")


STEP = Step(BoardSpec, plan)
