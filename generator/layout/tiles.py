"""Boards: printed whole when they fit the page, else tiled across as few pages as fit, the
tiles of equal size (no sliver of a tile on a page of its own), each overlapping its
neighbours by a strip for glue, with its bleed on the board's outer edges and a label that
stays on it after cutting. The assembly map, a small picture of the whole board with the tiles
drawn over it, is a page nobody cuts: it goes with the inventory.
"""

from __future__ import annotations

import math

from generator.layout.grids import Grid, crop_marks, fit_one, mark_room, printable_box
from generator.layout.pieces import Piece
from generator.layout.sheets import BoardMap, Box, Page, Placement, Sheet
from generator.model.sizes import SheetGeometry

EPS = 1e-9
TILE_NAME_INSET = 1.5  # mm from a tile's trim corner to the name printed there


def tile_spans(length: float, window: float, overlap: float) -> list[tuple[float, float]]:
    """(start, size) of the tiles along one side: as few as cover ``length`` with tiles of at
    most ``window``, all of one size, each overlapping the next by ``overlap``."""
    if length <= window + EPS:
        return [(0.0, length)]
    count = math.ceil((length - overlap) / (window - overlap) - EPS)
    size = (length + (count - 1) * overlap) / count
    return [(i * (size - overlap), size) for i in range(count)]


def whole_board(piece: Piece, paper: tuple[float, float], geo: SheetGeometry) -> Sheet | None:
    """A board on a page of its own (turned 90° if that is what fits), or None if too large."""
    grid = fit_one(paper, piece.w, piece.h, piece.bleed, geo)
    if grid is None:
        return None
    page = Page("", "front", 1, 1, label=grid.footer)
    x, y = grid.trim_origin(0)
    rotation = 90 if grid.rotated else 0
    window = (0.0, 0.0, piece.w, piece.h)
    page.placements.append(
        Placement(piece, "front", x, y, grid.trim_w, grid.trim_h, rotation, window, "whole")
    )
    page.marks = crop_marks(grid, 1, geo)
    return Sheet(page)


def tiled_board(
    title: str,
    piece: Piece,
    paper: tuple[float, float],
    geo: SheetGeometry,
    overlap: float,
    flip: str | None = "x",
) -> tuple[list[Sheet], Page]:
    """A board too large for the paper: one sheet per tile (tiles turned 90° on the page when
    that takes fewer), and the assembly map. A tile's name is printed on its glue strip; a
    tile with no strip has it on its back, behind its centre (printed double-sided, turned
    about ``flip``: 'x' the long edge, 'y' the short one), else small in its corner."""
    room, b = mark_room(geo), piece.bleed
    layouts = []
    for footer in (True, False):
        left, bottom, right, top = printable_box(paper, geo, footer)
        page_w, page_h = right - left - 2 * room - 2 * b, top - bottom - 2 * room - 2 * b
        for rotated, (win_w, win_h) in ((False, (page_w, page_h)), (True, (page_h, page_w))):
            cols = tile_spans(piece.w, win_w, overlap)
            rows = tile_spans(piece.h, win_h, overlap)[::-1]  # top row first; y is up
            layouts.append((len(cols) * len(rows), not footer, rotated, cols, rows))
    # the fewest tiles; on a tie with a page label, upright
    _, no_footer, rotated, cols, rows = min(layouts, key=lambda layout: layout[:3])
    left, bottom, right, top = printable_box(paper, geo, not no_footer)
    page_w, page_h = right - left - 2 * room - 2 * b, top - bottom - 2 * room - 2 * b
    tiles = [
        (f"{chr(65 + r)}{c + 1}", bx, by, w, h, r, c)
        for r, (by, h) in enumerate(rows)
        for c, (bx, w) in enumerate(cols)
    ]
    sheets = []
    for number, (label, bx, by, w, h, r, c) in enumerate(tiles, start=1):
        window = (bx, by, w, h)
        on_w, on_h = (h, w) if rotated else (w, h)
        x0 = left + room + b + (page_w - on_w) / 2
        y0 = bottom + room + b + (page_h - on_h) / 2
        outer = (
            b if bx < EPS else 0.0,
            b if by < EPS else 0.0,
            b if bx + w > piece.w - EPS else 0.0,
            b if by + h > piece.h - EPS else 0.0,
        )
        grown = (bx - outer[0], by - outer[1], w + outer[0] + outer[2], h + outer[1] + outer[3])
        clip = _window_to_page(grown, window, (x0, y0, on_w), rotated)
        page = Page(title, "front", number, len(tiles), label=not no_footer)
        page.placements.append(
            Placement(piece, "front", x0, y0, on_w, on_h, 90 if rotated else 0, window, label, clip)
        )
        grid = Grid(1, 1, False, on_w, on_h, b, x0 - b, y0 - b, True, (left, bottom, right, top))
        page.marks = crop_marks(grid, 1, geo)
        strips = []
        if c + 1 < len(cols):  # the tile to the right covers this tile's right strip
            strips.append((bx + w - overlap, by, overlap, h))
        if r + 1 < len(rows):  # the tile below covers this tile's bottom strip
            strips.append((bx, by, w, overlap))
        page.glue = [(_window_to_page(s, window, (x0, y0, on_w), rotated), label) for s in strips]
        sheet = Sheet(page)
        if not strips and flip is not None:
            back = Page(title, "back", number, len(tiles), label=False)
            cx, cy = x0 + on_w / 2, y0 + on_h / 2
            back.names.append(
                (paper[0] - cx, cy, label) if flip == "x" else (cx, paper[1] - cy, label)
            )
            sheet.back = back
        elif not strips:
            page.names.append((x0 + TILE_NAME_INSET, y0 + TILE_NAME_INSET, label))
        sheets.append(sheet)
    board_map = BoardMap(
        title, piece.component, piece.face, piece.w, piece.h, tuple(t[:5] for t in tiles)
    )
    return sheets, Page(title, "notes", assembly=board_map)


def _window_to_page(
    box: Box, window: Box, origin: tuple[float, float, float], rotated: bool
) -> Box:
    """A box in board mm, relative to a tile's window, as a box on the tile's page."""
    x, y, w, h = box
    bx, by, _, _ = window
    x0, y0, on_w = origin
    u, v = x - bx, y - by
    if not rotated:
        return (x0 + u, y0 + v, w, h)
    return (x0 + on_w - v - h, y0 + u, h, w)
