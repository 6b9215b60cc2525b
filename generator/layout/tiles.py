"""Boards: printed whole when they fit the page, else tiled across as few pages as fit, the
tiles of equal size (no sliver of a tile on a page of its own), each overlapping its
neighbours by a strip for glue. A tile's art runs into the bleed on the board's outer edges
and on its seams (the edges that lie on a neighbour, seen once glued); its name stays on it
after cutting. Seams keep out of the board's places, then its words and pictures, where the
paper leaves a choice. The assembly map, a small picture of the whole board with the tiles
drawn over it, is a page nobody cuts: it goes with the inventory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from generator.art.boards import marks, places
from generator.layout.grids import Bounds, box_marks, crop_marks, fit_one, mark_room, printable_box
from generator.layout.pieces import Piece
from generator.layout.sheets import BoardMap, Box, Page, Placement, Sheet
from generator.model.kinds.board import BoardSpec
from generator.model.sizes import SheetGeometry

EPS = 1e-9
TILE_NAME_BASELINE = 1.15  # mm from the art's top to that name's baseline (6.5 pt type)
TILE_NAME_INSET = 1.5  # mm from the tile's corner crop mark to its name
SEAM_STEP = 0.5  # mm between the seam positions tried
SEAM_CLEAR = 1.5  # mm a seam keeps from a place's edge
MAX_SEAM_STEPS = 160  # seam positions tried either side of the even one
SPLITS_KEPT = 64  # boards' splits kept by their sizes and what they keep clear (a preview)
PLACE, MARK, AREA = 0, 1, 2  # what a seam keeps out of, most wanted first
RANKS = 3


@dataclass(frozen=True)
class Span:
    """Something on the board a seam should not cut, along one side of it (mm from its
    lower-left corner): a place a piece stands on (``PLACE``), a word or picture (``MARK``),
    or an area a seam may cross when nothing else is left (``AREA``)."""

    lo: float
    hi: float
    rank: int = PLACE


Cost = tuple[int, ...]  # things cut per rank, then near misses


def tile_caps(count: int, page: float, bleed: float, upper: bool = False) -> list[float]:
    """How long each of ``count`` tiles along a side may be on a page that holds ``page`` mm
    of art: every tile keeps room for its bleed on the board's own edges and on its seam (the
    edge that lies on the next tile, or with ``upper`` on the one before), none where the
    next tile covers it."""
    if count == 1:
        return [page - 2 * bleed]
    ends = [page - bleed] * count
    ends[0 if upper else -1] = page - 2 * bleed
    return ends


def tile_spans(
    length: float,
    page: float,
    overlap: float,
    bleed: float = 0.0,
    avoid: Sequence[Span] = (),
    upper: bool = False,
) -> list[tuple[float, float]]:
    """(start, size) of the tiles along one side: as few as cover ``length`` on pages that
    hold ``page`` mm of art each (the bleed on the board's edges and the seams), each tile
    overlapping the next by ``overlap``. Of one size, unless moving the seams keeps them out
    of more of what ``avoid`` lists. A seam is the edge of the tile on top: the next tile's
    start, or with ``upper`` (the tile before lies on the next one) the tile before's end."""
    if length <= page - 2 * bleed + EPS:
        return [(0.0, length)]
    count = max(2, math.ceil((length + bleed - overlap) / (page - bleed - overlap) - EPS))
    caps = tile_caps(count, page, bleed, upper)
    size = (length + (count - 1) * overlap) / count
    even = [i * (size - overlap) for i in range(count)]
    shown = overlap if upper else 0.0
    moved = [Span(a.lo - shown, a.hi - shown, a.rank) for a in avoid]
    seams = _seams(length, caps, overlap, even, moved)
    ends = [*(s + overlap for s in seams[1:]), length]
    return [(start, end - start) for start, end in zip(seams, ends, strict=True)]


def seam_cost(seam: float, avoid: Sequence[Span]) -> Cost:
    """What a seam at ``seam`` cuts, rank by rank, then how many edges it passes within
    SEAM_CLEAR of: the fewer places cut the better, then words and pictures, then areas."""
    cut = [0] * (RANKS + 1)
    for span in avoid:
        if span.lo < seam < span.hi:
            cut[span.rank] += 1
        elif span.lo - SEAM_CLEAR < seam < span.hi + SEAM_CLEAR:
            cut[RANKS] += 1
    return tuple(cut)


def _plus(a: Cost, b: Cost) -> Cost:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _seams(
    length: float, caps: list[float], overlap: float, even: list[float], avoid: Sequence[Span]
) -> list[float]:
    """The tiles' starts: those cutting the least (``seam_cost``), then nearest the even
    ones; every tile at most its cap and at least half of it. What is longer than half a
    tile cannot be kept clear of seams, and is not tried."""
    small = [a for a in avoid if a.hi - a.lo <= min(caps) / 2]
    slack = max(cap - (even[1] + overlap) for cap in caps)
    steps = min(max(int(2 * len(even) * abs(slack) / SEAM_STEP), 1), MAX_SEAM_STEPS)
    # best[p]: (what the seams up to p cut, their drift from the even seams, the seam before)
    none: Cost = (0,) * (RANKS + 1)
    best: dict[float, tuple[Cost, float, float | None]] = {0.0: (none, 0.0, None)}
    chain = [best]
    for k in range(1, len(even)):
        found: dict[float, tuple[Cost, float, float | None]] = {}
        for i in range(-steps, steps + 1):
            p = round(even[k] + i * SEAM_STEP, 3)
            cut = seam_cost(p, small)
            for q, (cost, drift, _) in best.items():
                if caps[k - 1] / 2 <= p + overlap - q <= caps[k - 1] + EPS:
                    total = (_plus(cost, cut), drift + abs(p - even[k]), q)
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


@dataclass(frozen=True)
class Keep:
    """Something on the board a seam should not cut: its box (mm from the board's lower-left
    corner, y up) and what it is (``PLACE``, ``MARK`` or ``AREA``)."""

    x0: float
    y0: float
    x1: float
    y1: float
    rank: int = PLACE
    name: str = ""


def board_keeps(spec: BoardSpec, stood: set[str]) -> list[Keep]:
    """What a board prints, for its seams to keep out of: first its places (spaces, the
    spaces of its rows and tracks, any region a piece stands on: ``stood``), then its words
    and icons, then its named regions and its grids' cells (a grid covers what it covers,
    seams or not). A region without a name that no piece stands on is a background."""
    regions = {r.name: r for r in spec.regions}
    cells = {name for grid in spec.grids for name in grid.places()}
    h = spec.size.h
    keep = [Keep(m.x0, h - m.y1, m.x1, h - m.y0, MARK, m.what) for m in marks(spec)]
    for name, p in places(spec).items():
        region = regions.get(name)
        if region is not None and name not in stood and not region.label:
            continue
        area = name in cells or (region is not None and name not in stood)
        (x, y), w2, h2 = p.centre, p.w / 2, p.h / 2
        keep.append(Keep(x - w2, h - y - h2, x + w2, h - y + h2, AREA if area else PLACE, name))
    return keep


Split = tuple[list[tuple[float, float]], list[list[tuple[float, float]]]]  # rows, cols of each


def split_board(
    w: float, h: float, win: tuple[float, float], overlap: float, bleed: float, keep: Sequence[Keep]
) -> tuple[Split, Cost]:
    """The board's rows of tiles ((start, size) up the board, bottom first), each row's
    columns (across it), and what their seams cut. Each row is split where its own seams cut
    least (a row's seams need not meet the next row's), within what its page holds. Kept by
    its inputs: the search for seams is the costliest part of planning a board again."""
    return _split(w, h, (win[0], win[1]), overlap, bleed, tuple(keep))


@lru_cache(maxsize=SPLITS_KEPT)
def _split(
    w: float, h: float, win: tuple[float, float], overlap: float, bleed: float, keep: tuple
) -> tuple[Split, Cost]:
    """``split_board``, worked out."""
    win_w, win_h = win
    rows = tile_spans(h, win_h, overlap, bleed, [Span(k.y0, k.y1, k.rank) for k in keep], True)
    cost: Cost = (0,) * (RANKS + 1)
    for by, rh in rows[:-1]:  # the tile below lies on the one above: its top edge shows
        cost = _plus(cost, seam_cost(by + rh, [Span(k.y0, k.y1, k.rank) for k in keep]))
    cols = []
    for index, (by, rh) in enumerate(rows):
        low = by + overlap if index else by  # the row below covers the bottom strip
        inside = [Span(k.x0, k.x1, k.rank) for k in keep if k.y0 < by + rh and k.y1 > low]
        row = tile_spans(w, win_w, overlap, bleed, inside)
        for bx, _ in row[1:]:
            cost = _plus(cost, seam_cost(bx, inside))
        cols.append(row)
    return (rows, cols), cost


def tiled_board(
    title: str,
    piece: Piece,
    paper: tuple[float, float],
    geo: SheetGeometry,
    overlap: float,
    keep: Sequence[Keep] = (),
) -> tuple[list[Sheet], Page]:
    """A board too large for the paper: one sheet per tile (tiles turned 90° on the page when
    that takes fewer, or cuts less), and the assembly map. A tile's name is printed on its
    glue strip; the tile with no strip (the last, lying on its neighbours) has it outside
    its top edge, where nothing is printed behind its art. Seams keep out of what ``keep``
    lists, where they can."""
    room = mark_room(geo)
    layouts = []
    for footer in (True, False):
        left, bottom, right, top = printable_box(paper, geo, footer)
        page_w, page_h = right - left - 2 * room, top - bottom - 2 * room
        for rotated, win in ((False, (page_w, page_h)), (True, (page_h, page_w))):
            count = len(tile_spans(piece.w, win[0], overlap, piece.bleed))
            count *= len(tile_spans(piece.h, win[1], overlap, piece.bleed, upper=True))
            layouts.append((count, not footer, rotated, win))
    fewest = min(layout[0] for layout in layouts)
    # the fewest tiles; then the fewest things cut; on a tie with a page label, upright
    choices = [
        (split_board(piece.w, piece.h, win, overlap, piece.bleed, keep), no_footer, rotated)
        for count, no_footer, rotated, win in layouts
        if count == fewest
    ]
    ((rows, cols), _), no_footer, rotated = min(choices, key=lambda c: (c[0][1], c[1], c[2]))
    bounds = printable_box(paper, geo, not no_footer)
    top_first = list(zip(rows, cols, strict=True))[::-1]
    tiles = [
        (f"{chr(65 + r)}{c + 1}", bx, by, w, h, r, c)
        for r, ((by, h), row) in enumerate(top_first)
        for c, (bx, w) in enumerate(row)
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
        if c + 1 < len(top_first[r][1]):  # the tile to the right covers this tile's right strip
            strips.append((bx + w - overlap, by, overlap, h))
        if r + 1 < len(top_first):  # the tiles below cover this tile's bottom strip
            strips.append((bx, by, w, overlap))
        page.glue = [(_window_to_page(s, window, (x0, y0, on_w), rotated), label) for s in strips]
        if not strips:  # above its top left crop mark, outside the art
            page.names.append((x0 + TILE_NAME_INSET, clip[1] + clip[3] + TILE_NAME_BASELINE, label))
        sheets.append(Sheet(page))
    board_map = BoardMap(
        title, piece.component, piece.face, piece.w, piece.h, tuple(t[:5] for t in tiles)
    )
    return sheets, Page(title, "notes", assembly=board_map)


def seam_edges(piece: Piece, window: Box) -> tuple[bool, bool, bool, bool]:
    """Which edges of a tile showing ``window`` (left, bottom, right, top) are seen once the
    board is glued: the board's own edges, and its seams, where it lies on a neighbour (its
    left edge, and its top, since the tile below lies on the one above)."""
    bx, by, w, h = window
    return True, by < EPS, bx + w > piece.w - EPS, True


def _tile_on_page(
    piece: Piece, window: Box, bounds: Bounds, room: float, rotated: bool
) -> tuple[float, float, float, float, Box]:
    """Where a tile lands on its page: its trim corner and size, and its art's box (the trim
    and the bleed on every edge seen once glued), that box centred in the page's room."""
    bx, by, w, h = window
    outer = [piece.bleed if seen else 0.0 for seen in seam_edges(piece, window)]
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
