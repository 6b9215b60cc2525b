"""Boards: printed whole when they fit the page, else tiled across as few pages as fit, the
tiles of equal size (no sliver of a tile on a page of its own), each overlapping its
neighbours by a strip for glue, with its bleed on the board's outer edges and a label that
stays on it after cutting. The assembly map, a small picture of the whole board with the tiles
drawn over it, is a page nobody cuts: it goes with the inventory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from generator.layout.grids import Bounds, box_marks, crop_marks, fit_one, mark_room, printable_box
from generator.layout.pieces import Piece
from generator.layout.sheets import BoardMap, Box, Page, Placement, Sheet
from generator.model.sizes import SheetGeometry

EPS = 1e-9
TILE_NAME_INSET = 1.5  # mm from a tile's trim corner to the name printed there
SEAM_STEP = 0.5  # mm between the seam positions tried
SEAM_CLEAR = 1.5  # mm a seam keeps from a place's edge
MAX_SEAM_STEPS = 160  # seam positions tried either side of the even one
Span = tuple[float, float]


def tile_caps(count: int, page: float, bleed: float) -> list[float]:
    """How long each of ``count`` tiles along a side may be on a page that holds ``page`` mm
    of art: a tile at an end of the board keeps room for its bleed there, one inside none."""
    if count == 1:
        return [page - 2 * bleed]
    return [page - bleed, *[page] * (count - 2), page - bleed]


def tile_spans(
    length: float,
    page: float,
    overlap: float,
    bleed: float = 0.0,
    avoid: Sequence[Span] = (),
    upper: bool = False,
) -> list[tuple[float, float]]:
    """(start, size) of the tiles along one side: as few as cover ``length`` on pages that
    hold ``page`` mm of art each (the board's bleed only on its own edges), each tile
    overlapping the next by ``overlap``. Of one size, unless moving the seams keeps them out
    of more of the places ``avoid`` lists ((start, end) along the side). A seam is the edge
    of the tile on top: the next tile's start, or with ``upper`` (the tile before lies on
    the next one) the tile before's end."""
    if length <= page - 2 * bleed + EPS:
        return [(0.0, length)]
    count = max(2, math.ceil((length + 2 * bleed - overlap) / (page - overlap) - EPS))
    caps = tile_caps(count, page, bleed)
    size = (length + (count - 1) * overlap) / count
    even = [i * (size - overlap) for i in range(count)]
    shown = overlap if upper else 0.0
    seams = _seams(length, caps, overlap, even, [(lo - shown, hi - shown) for lo, hi in avoid])
    ends = [*(s + overlap for s in seams[1:]), length]
    return [(start, end - start) for start, end in zip(seams, ends, strict=True)]


def _cost(seam: float, avoid: Sequence[Span]) -> int:
    """How many places a seam at ``seam`` runs through (or within SEAM_CLEAR of an edge)."""
    return sum(1 for lo, hi in avoid if lo - SEAM_CLEAR < seam < hi + SEAM_CLEAR)


def _seams(
    length: float, caps: list[float], overlap: float, even: list[float], avoid: Sequence[Span]
) -> list[float]:
    """The tiles' starts: those running through the fewest places to avoid, then nearest
    the even ones; every tile at most its cap and at least half of it."""
    small = [(lo, hi) for lo, hi in avoid if hi - lo <= min(caps) / 2]
    slack = max(cap - (even[1] + overlap) for cap in caps)
    steps = min(max(int(2 * len(even) * abs(slack) / SEAM_STEP), 1), MAX_SEAM_STEPS)
    # best[p]: (places cut, drift from the even seams, the seam before) of seams up to p
    best: dict[float, tuple[int, float, float | None]] = {0.0: (0, 0.0, None)}
    chain = [best]
    for k in range(1, len(even)):
        found: dict[float, tuple[int, float, float | None]] = {}
        for i in range(-steps, steps + 1):
            p = round(even[k] + i * SEAM_STEP, 3)
            cut = _cost(p, small)
            for q, (cost, drift, _) in best.items():
                if caps[k - 1] / 2 <= p + overlap - q <= caps[k - 1] + EPS:
                    total = (cost + cut, drift + abs(p - even[k]), q)
                    if p not in found or total[:2] < found[p][:2]:
                        found[p] = total
        best = found
        chain.append(best)
    last = [p for p in best if caps[-1] / 2 <= length - p <= caps[-1] + EPS]
    if not last:
        return even
    at: float | None = min(last, key=lambda q: best[q][:2])
    seams = []
    for level in reversed(chain):
        assert at is not None
        seams.append(at)
        at = level[at][2]
    return seams[::-1]


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
    avoid: tuple[Sequence[Span], Sequence[Span]] = ((), ()),
) -> tuple[list[Sheet], Page]:
    """A board too large for the paper: one sheet per tile (tiles turned 90° on the page when
    that takes fewer), and the assembly map. A tile's name is printed on its glue strip; a
    tile with no strip has it on its back, behind its centre (printed double-sided, turned
    about ``flip``: 'x' the long edge, 'y' the short one), else small in its corner. Seams
    keep out of the places ``avoid`` lists across and up the board (board mm from its
    lower-left corner), where they can."""
    room, b = mark_room(geo), piece.bleed
    layouts = []
    for footer in (True, False):
        left, bottom, right, top = printable_box(paper, geo, footer)
        page_w, page_h = right - left - 2 * room, top - bottom - 2 * room
        for rotated, (win_w, win_h) in ((False, (page_w, page_h)), (True, (page_h, page_w))):
            cols = tile_spans(piece.w, win_w, overlap, b)
            rows = tile_spans(piece.h, win_h, overlap, b)
            layouts.append((len(cols) * len(rows), not footer, rotated, win_w, win_h))
    # the fewest tiles; on a tie with a page label, upright
    _, no_footer, rotated, win_w, win_h = min(layouts, key=lambda layout: layout[:3])
    bounds = printable_box(paper, geo, not no_footer)
    cols = tile_spans(piece.w, win_w, overlap, b, avoid[0])
    # rows from the bottom, y up: the tile below lies on the one above it (top row first)
    rows = tile_spans(piece.h, win_h, overlap, b, avoid[1], upper=True)[::-1]
    tiles = [
        (f"{chr(65 + r)}{c + 1}", bx, by, w, h, r, c)
        for r, (by, h) in enumerate(rows)
        for c, (bx, w) in enumerate(cols)
    ]
    sheets = []
    for number, (label, bx, by, w, h, r, c) in enumerate(tiles, start=1):
        window = (bx, by, w, h)
        page = Page(title, "front", number, len(tiles), label=not no_footer)
        x0, y0, on_w, on_h, clip = _tile_on_page(piece, window, bounds, room, rotated)
        page.placements.append(
            Placement(piece, "front", x0, y0, on_w, on_h, 90 if rotated else 0, window, label, clip)
        )
        page.marks = box_marks((x0, y0, on_w, on_h), clip, bounds, geo)
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


def _tile_on_page(
    piece: Piece, window: Box, bounds: Bounds, room: float, rotated: bool
) -> tuple[float, float, float, float, Box]:
    """Where a tile lands on its page: its trim corner and size, and its art's box (the trim
    and the board's bleed on the board's own edges), that box centred in the page's room."""
    bx, by, w, h = window
    b = piece.bleed
    outer = (
        b if bx < EPS else 0.0,
        b if by < EPS else 0.0,
        b if bx + w > piece.w - EPS else 0.0,
        b if by + h > piece.h - EPS else 0.0,
    )
    grown = (bx - outer[0], by - outer[1], w + outer[0] + outer[2], h + outer[1] + outer[3])
    on_w, on_h = (h, w) if rotated else (w, h)
    cx, cy, cw, ch = _window_to_page(grown, window, (0.0, 0.0, on_w), rotated)
    left, bottom, right, top = bounds
    x0 = left + room + (right - left - 2 * room - cw) / 2 - cx
    y0 = bottom + room + (top - bottom - 2 * room - ch) / 2 - cy
    return x0, y0, on_w, on_h, (x0 + cx, y0 + cy, cw, ch)


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
