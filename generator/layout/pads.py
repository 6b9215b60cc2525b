"""A roll-and-write pad's pages: its sheet printed ``up`` to a page in a grid of equal cells,
cut apart along crop marks (one cut between neighbours when they have no bleed), each page
the same, so that a player prints the page again as often as the game needs. A sheet whose
size the spec leaves open shares the printable area with the others on its page: the grid of
``up`` cells whose cells come nearest the proportions of a sheet of paper."""

from __future__ import annotations

import math
from collections.abc import Callable

from generator.layout.grids import FOLD_CLEAR, fit_grid, fold_grids, mark_room, printable_box
from generator.layout.impose import impose_cards, offset_room
from generator.layout.pieces import Piece
from generator.layout.sheets import Sheet
from generator.model.sizes import SheetGeometry
from generator.options import DEFAULT_OPTIONS, PrintOptions

PAPER_RATIO = math.sqrt(2)  # the proportions a sheet's cells come nearest
STEP = 0.1  # mm: a computed sheet's size is rounded down to this


def _room(
    paper: tuple[float, float], geo: SheetGeometry, backed: bool, options: PrintOptions
) -> tuple[float, float]:
    """The width and height a page's block of sheets may take, crop marks round it: the
    printable area (less the room a back offset needs), or above the fold of a folded
    page."""
    room = mark_room(geo)
    fold = backed and options.layout == "fold"
    inset = (0.0, 0.0, 0.0, 0.0) if fold else offset_room(options)
    left, bottom, right, top = printable_box(paper, geo, True, inset)
    if fold:
        return right - left - 2 * room, top - geo.footer - (paper[1] / 2 + FOLD_CLEAR) - room
    return right - left - 2 * room, top - bottom - 2 * room


def sheet_size(
    paper: tuple[float, float],
    geo: SheetGeometry,
    up: int,
    backed: bool = False,
    options: PrintOptions = DEFAULT_OPTIONS,
) -> tuple[float, float]:
    """The size of each of ``up`` sheets sharing a page: the grid (columns x rows = ``up``)
    whose cells come nearest the proportions of paper, its cells as large as the page
    allows."""
    width, height = _room(paper, geo, backed, options)
    best: tuple[float, float, float] | None = None
    for cols in range(1, up + 1):
        if up % cols:
            continue
        w, h = width / cols, height / (up // cols)
        off = abs(math.log(max(w, h) / min(w, h)) - math.log(PAPER_RATIO))
        if best is None or off < best[0] - 1e-9:
            best = (off, w, h)
    assert best is not None  # cols = 1 divides every up
    return _down(best[1]), _down(best[2])


def _down(mm: float) -> float:
    """``mm`` rounded down to ``STEP``."""
    return round(math.floor(mm / STEP + 1e-9) * STEP, 1)


def capacity(
    paper: tuple[float, float],
    geo: SheetGeometry,
    w: float,
    h: float,
    bleed: float,
    backed: bool = False,
    options: PrintOptions = DEFAULT_OPTIONS,
) -> int:
    """How many sheets of ``w`` x ``h`` mm go on a page (0: not one)."""
    if backed and options.layout == "fold":
        found = fold_grids(paper, w, h, bleed, geo)
        return found[0].capacity if found else 0
    grid = fit_grid(paper, w, h, bleed, geo, offset_room(options))
    return grid.capacity if grid else 0


def pad_sheets(
    pieces: list[Piece],
    up: int,
    paper: tuple[float, float],
    geo: SheetGeometry,
    titles: Callable[[list[str]], str],
    options: PrintOptions = DEFAULT_OPTIONS,
) -> list[Sheet]:
    """The pad's pages: ``up`` sheets on each (the grid's first cells, from the top), their
    backs behind them when they have backs; numbered as one run."""
    sheets: list[Sheet] = []
    for start in range(0, len(pieces), up):
        made, _ = impose_cards(pieces[start : start + up], paper, geo, titles, options)
        sheets += made
    for number, sheet in enumerate(sheets, start=1):
        for page in (sheet.front, sheet.back):
            if page is not None:
                page.number, page.of = number, len(sheets)
    return sheets
