"""Imposition: place pieces on sheets of paper, with crop marks and duplex backs.

All numbers are millimetres with the origin at the page's lower-left corner (as in PDF).
Cards sit in a grid, bleed touching bleed, centred in the printable area; the grid is turned
90° when that holds more cards, so pages stay portrait and a long-edge flip is unambiguous.
Backs mirror the columns of their fronts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from generator.layout.packing import Rect, pack
from generator.layout.pieces import Piece
from generator.options import DEFAULT_OPTIONS, PrintOptions
from generator.spec.sizes import SheetGeometry

Line = tuple[float, float, float, float]


FOLD_CLEAR = 6.0  # mm between the fold line and the nearest bleed (at least 5)


class ImpositionError(ValueError):
    """Pieces that cannot be laid out on the paper (too large, too many for a page)."""


@dataclass(frozen=True)
class Placement:
    """Where one side of a piece lands: its trim box on the page and its rotation. A board
    tile shows only ``window`` (x, y, w, h in board mm from its lower-left corner)."""

    piece: Piece
    side: str
    x: float
    y: float
    w: float
    h: float
    rotation: int
    window: tuple[float, float, float, float] | None = None
    tile: str | None = None


@dataclass(frozen=True)
class Decoration:
    """Art on a sheet that is not a piece (a page's title band): drawn, not listed."""

    art: str
    x: float
    y: float


@dataclass(frozen=True)
class BoardMap:
    """An assembly map: the board's outline and where each tile goes (board mm)."""

    title: str
    component: str
    w: float
    h: float
    tiles: tuple[tuple[str, float, float, float, float], ...]


@dataclass
class Sheet:
    """One printed page: fronts or backs. Crop marks and cut guides go on fronts only."""

    title: str
    side: str
    number: int
    of: int
    placements: list[Placement] = field(default_factory=list)
    marks: list[Line] = field(default_factory=list)
    label: bool = True
    decorations: list[Decoration] = field(default_factory=list)
    area: float = 0.0
    glue: list[tuple[float, float, float, float]] = field(default_factory=list)
    fold: float | None = None  # y (mm) of a gutter fold line
    assembly: BoardMap | None = None
    flow: Any = None  # a sheetflow.FlowLayout that draws this page's text

    @property
    def fill(self) -> float:
        """How much of the printable area the pieces' bleed boxes cover (0-1)."""
        used = sum((p.w + 2 * p.piece.bleed) * (p.h + 2 * p.piece.bleed) for p in self.placements)
        return used / self.area if self.area else 0.0


@dataclass(frozen=True)
class Grid:
    """A grid of equal cells (bleed boxes) centred on the page."""

    cols: int
    rows: int
    rotated: bool
    trim_w: float
    trim_h: float
    bleed: float
    x0: float
    y0: float
    footer: bool

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    @property
    def cell_w(self) -> float:
        return self.trim_w + 2 * self.bleed

    @property
    def cell_h(self) -> float:
        return self.trim_h + 2 * self.bleed

    def trim_origin(self, slot: int) -> tuple[float, float]:
        """Lower-left trim corner of ``slot`` (0 = top-left, reading order)."""
        col, row = slot % self.cols, slot // self.cols
        x = self.x0 + col * self.cell_w + self.bleed
        y = self.y0 + (self.rows - 1 - row) * self.cell_h + self.bleed
        return x, y


def printable_box(
    paper: tuple[float, float], geo: SheetGeometry, footer: bool = True
) -> tuple[float, ...]:
    """(left, bottom, right, top) of the area pieces and marks may use; ``footer`` keeps a
    band above the bottom margin for the page label."""
    pw, ph = paper
    bottom = geo.margin + (geo.footer if footer else 0.0)
    return geo.margin, bottom, pw - geo.margin, ph - geo.margin


def fit_grid(
    paper: tuple[float, float], w: float, h: float, bleed: float, geo: SheetGeometry
) -> Grid | None:
    """The grid holding the most cards of trim ``w`` x ``h``: upright or turned 90°, with a
    page label in the footer unless leaving the footer out fits more cards."""
    with_label = _fit(paper, w, h, bleed, geo, footer=True)
    without = _fit(paper, w, h, bleed, geo, footer=False)
    if without and (not with_label or without.capacity > with_label.capacity):
        return without
    return with_label


def fit_one(
    paper: tuple[float, float], w: float, h: float, bleed: float, geo: SheetGeometry
) -> Grid | None:
    """A page for a single piece: upright if it fits, turned 90° only if that is what fits;
    with the page label unless only leaving it out makes room."""
    for rotated in (False, True):
        for footer in (True, False):
            grid = _grid(paper, w, h, bleed, geo, footer, rotated, single=True)
            if grid is not None:
                return grid
    return None


def _fit(
    paper: tuple[float, float],
    w: float,
    h: float,
    bleed: float,
    geo: SheetGeometry,
    footer: bool,
    box: tuple[float, ...] | None = None,
) -> Grid | None:
    """The orientation that holds more cards (upright on a tie)."""
    best: Grid | None = None
    for rotated in (False, True):
        grid = _grid(paper, w, h, bleed, geo, footer, rotated, box=box)
        if grid is not None and (best is None or grid.capacity > best.capacity):
            best = grid
    return best


def _grid(
    paper: tuple[float, float],
    w: float,
    h: float,
    bleed: float,
    geo: SheetGeometry,
    footer: bool,
    rotated: bool,
    single: bool = False,
    box: tuple[float, ...] | None = None,
) -> Grid | None:
    """As many cells as fit (one if ``single``), centred in ``box`` (default: the printable
    area), with room for crop marks."""
    left, bottom, right, top = box or printable_box(paper, geo, footer)
    room = geo.mark_gap + geo.mark_min_length
    tw, th = (h, w) if rotated else (w, h)
    cols = math.floor((right - left - 2 * room + 1e-9) / (tw + 2 * bleed))
    rows = math.floor((top - bottom - 2 * room + 1e-9) / (th + 2 * bleed))
    if cols < 1 or rows < 1:
        return None
    if single:
        cols = rows = 1
    block_w, block_h = cols * (tw + 2 * bleed), rows * (th + 2 * bleed)
    x0 = left + (right - left - block_w) / 2
    y0 = bottom + (top - bottom - block_h) / 2
    return Grid(cols, rows, rotated, tw, th, bleed, x0, y0, footer)


def fold_box(paper: tuple[float, float], geo: SheetGeometry) -> tuple[float, ...]:
    """The upper half of a gutter-fold sheet, where the fronts go, clear of the fold; it
    stops as far from the top as the footer band is from the bottom, so that the backs,
    mirrored below the fold, keep clear of the page label."""
    pw, ph = paper
    return geo.margin, ph / 2 + FOLD_CLEAR, pw - geo.margin, ph - geo.margin - geo.footer


def impose_cards(
    title: str,
    pieces: list[Piece],
    paper: tuple[float, float],
    geo: SheetGeometry,
    options: PrintOptions = DEFAULT_OPTIONS,
) -> list[Sheet]:
    """Sheets for a deck's pieces: each sheet of fronts followed by its backs (or, folding,
    with the backs below the fold on the same sheet)."""
    first = pieces[0]
    fold = options.layout == "fold" and any(p.back for p in pieces)
    if fold:
        grid = _fit(paper, first.w, first.h, first.bleed, geo, True, fold_box(paper, geo))
    else:
        grid = fit_grid(paper, first.w, first.h, first.bleed, geo)
    if grid is None:
        raise ImpositionError(
            f"a {first.w:g} x {first.h:g} mm card with {first.bleed:g} mm bleed does not fit "
            f"on {paper[0]:g} x {paper[1]:g} mm paper inside the {geo.margin:g} mm margin"
        )
    chunks = [pieces[i : i + grid.capacity] for i in range(0, len(pieces), grid.capacity)]
    sheets: list[Sheet] = []
    for number, chunk in enumerate(chunks, start=1):
        front = Sheet(title, "front", number, len(chunks), label=grid.footer)
        for slot, piece in enumerate(chunk):
            x, y = grid.trim_origin(slot)
            front.placements.append(
                Placement(piece, "front", x, y, grid.trim_w, grid.trim_h, 90 if grid.rotated else 0)
            )
        front.marks = crop_marks(
            grid, len(chunk), paper, geo, fold_box(paper, geo) if fold else None
        )
        sheets.append(front)
        if fold:
            fold_backs(front, paper)
        elif any(p.back for p in chunk):
            sheets.append(back_sheet(front, paper, options))
    return sheets


def fold_backs(front: Sheet, paper: tuple[float, float]) -> None:
    """Gutter fold: each back below the fold line, mirrored across it and turned 180°, so
    that a sheet folded along the line puts every back behind its front, the right way up."""
    front.fold = paper[1] / 2
    front.side = "fold"
    for p in list(front.placements):
        if p.piece.back:
            front.placements.append(
                Placement(
                    p.piece, "back", p.x, paper[1] - p.y - p.h, p.w, p.h, (180 - p.rotation) % 360
                )
            )


def back_sheet(
    front: Sheet, paper: tuple[float, float], options: PrintOptions = DEFAULT_OPTIONS
) -> Sheet:
    """The backs of a sheet of fronts, no marks: for a long-edge flip columns are mirrored,
    for a short-edge flip rows are mirrored and backs turned 180°; every back is then moved
    by the printer's back offset."""
    back = Sheet(front.title, "back", front.number, front.of, label=front.label)
    dx, dy = options.back_offset
    for p in front.placements:
        if not p.piece.back:
            continue
        if options.duplex == "short":
            x, y, turn = p.x, paper[1] - p.y - p.h, (180 - p.rotation) % 360
        else:
            x, y, turn = paper[0] - p.x - p.w, p.y, -p.rotation % 360
        back.placements.append(Placement(p.piece, "back", x + dx, y + dy, p.w, p.h, turn))
    return back


def crop_marks(
    grid: Grid,
    used: int,
    paper: tuple[float, float],
    geo: SheetGeometry,
    box: tuple[float, ...] | None = None,
) -> list[Line]:
    """Marks at every trim line of the used cells, outside the bleed, never across a card,
    inside ``box`` (default: the printable area)."""
    left, bottom, right, top = box or printable_box(paper, geo, grid.footer)
    cols_used = min(used, grid.cols)
    rows_used = math.ceil(used / grid.cols)
    block_left = grid.x0
    block_right = grid.x0 + cols_used * grid.cell_w
    block_top = grid.y0 + grid.rows * grid.cell_h
    block_bottom = grid.y0 + (grid.rows - rows_used) * grid.cell_h
    gap = geo.mark_gap
    marks: list[Line] = []
    for col in range(cols_used):
        cell_left = grid.x0 + col * grid.cell_w
        for x in (cell_left + grid.bleed, cell_left + grid.bleed + grid.trim_w):
            up = min(geo.mark_length, top - block_top - gap)
            down = min(geo.mark_length, block_bottom - gap - bottom)
            marks.append((x, block_top + gap, x, block_top + gap + up))
            marks.append((x, block_bottom - gap - down, x, block_bottom - gap))
    for row in range(grid.rows - rows_used, grid.rows):
        cell_bottom = grid.y0 + row * grid.cell_h
        for y in (cell_bottom + grid.bleed, cell_bottom + grid.bleed + grid.trim_h):
            out_left = min(geo.mark_length, block_left - gap - left)
            out_right = min(geo.mark_length, right - block_right - gap)
            marks.append((block_left - gap - out_left, y, block_left - gap, y))
            marks.append((block_right + gap, y, block_right + gap + out_right, y))
    return list(dict.fromkeys(tuple(round(v, 4) for v in mark) for mark in marks))


def _area(paper: tuple[float, float], geo: SheetGeometry) -> Rect:
    left, bottom, right, top = printable_box(paper, geo)
    return Rect(left, bottom, right - left, top - bottom)


def impose_counters(
    title: str,
    pieces: list[Piece],
    paper: tuple[float, float],
    geo: SheetGeometry,
    options: PrintOptions = DEFAULT_OPTIONS,
) -> list[Sheet]:
    """Counter sheets: pieces of mixed shapes and sizes packed onto as few pages as possible,
    a cutting gap between bleed boxes, each sheet followed by its backs where any has one (or,
    folding, with the backs below the fold)."""
    fold = options.layout == "fold" and any(p.back for p in pieces)
    area = _area(paper, geo)
    if fold:
        left, bottom, right, top = fold_box(paper, geo)
        area = Rect(left, bottom, right - left, top - bottom)
    half = geo.piece_gap / 2
    grown = Rect(area.x - half, area.y - half, area.w + 2 * half, area.h + 2 * half)
    items = [
        (p, p.w + 2 * p.bleed + geo.piece_gap, p.h + 2 * p.bleed + geo.piece_gap) for p in pieces
    ]
    # Double-sided pieces first, so that as few sheets as possible need a sheet of backs.
    pages = pack(items, grown, first=lambda piece: piece.back is not None)
    sheets: list[Sheet] = []
    for number, packed in enumerate(pages, start=1):
        front = Sheet(title, "front", number, len(pages), area=area.w * area.h)
        for spot in sorted(packed, key=lambda s: (-s.rect.top, s.rect.x)):
            piece, rect = spot.item, spot.rect
            x, y = rect.x + half + piece.bleed, rect.y + half + piece.bleed
            front.placements.append(Placement(piece, "front", x, y, piece.w, piece.h, 0))
        sheets.append(front)
        if fold:
            fold_backs(front, paper)
        elif any(p.piece.back for p in front.placements):
            sheets.append(back_sheet(front, paper, options))
    return sheets


def impose_token_pages(
    title: str,
    pages: list[tuple[str, list[Piece]]],
    header_height: float,
    paper: tuple[float, float],
    geo: SheetGeometry,
) -> list[Sheet]:
    """Whole pages of equal round tokens: a title band on top, then a centred grid."""
    area = _area(paper, geo)
    sheets: list[Sheet] = []
    for number, (header, pieces) in enumerate(pages, start=1):
        sheet = Sheet(title, "front", number, len(pages), area=area.w * area.h)
        sheet.decorations.append(Decoration(header, area.x, area.top - header_height))
        first = pieces[0]
        cell = first.w + 2 * first.bleed + geo.piece_gap
        body = Rect(area.x, area.y, area.w, area.h - header_height - geo.piece_gap)
        cols, rows = int(body.w // cell), int(body.h // cell)
        if cols * rows < len(pieces):
            raise ImpositionError(
                f"a page holds {cols * rows} tokens of {first.w:g} mm, not {len(pieces)}"
            )
        x0 = body.x + (body.w - cols * cell) / 2 + geo.piece_gap / 2 + first.bleed
        top = body.top - (body.h - rows * cell) / 2 - geo.piece_gap / 2 - first.bleed
        for slot, piece in enumerate(pieces):
            col, row = slot % cols, slot // cols
            x, y = x0 + col * cell, top - first.h - row * cell
            sheet.placements.append(Placement(piece, "front", x, y, piece.w, piece.h, 0))
        sheets.append(sheet)
    return sheets


def tile_spans(length: float, window: float, overlap: float) -> list[tuple[float, float]]:
    """(start, size) of the tiles along one side: each overlaps the next by ``overlap``, the
    last one takes what is left."""
    if length <= window + 1e-9:
        return [(0.0, length)]
    spans = []
    start = 0.0
    while start + window < length - 1e-9:
        spans.append((start, window))
        start += window - overlap
    spans.append((start, length - start))
    return spans


def impose_board(
    title: str, piece: Piece, paper: tuple[float, float], geo: SheetGeometry, overlap: float
) -> list[Sheet]:
    """A board on one page (turned 90° if that makes it fit), or tiled: an assembly map, then
    one page per tile overlapping its neighbours by ``overlap`` mm, tiles turned 90° on the
    page when that takes fewer pages."""
    grid = fit_one(paper, piece.w, piece.h, piece.bleed, geo)
    if grid is not None:
        sheet = Sheet(title, "front", 1, 1, label=grid.footer)
        x, y = grid.trim_origin(0)
        rotation = 90 if grid.rotated else 0
        window = (0.0, 0.0, piece.w, piece.h)
        sheet.placements.append(
            Placement(piece, "front", x, y, grid.trim_w, grid.trim_h, rotation, window, "whole")
        )
        sheet.marks = crop_marks(grid, 1, paper, geo)
        return [sheet]
    left, bottom, right, top = printable_box(paper, geo)
    room = geo.mark_gap + geo.mark_min_length
    page_w, page_h = right - left - 2 * room, top - bottom - 2 * room
    layouts = []
    for rotated, (win_w, win_h) in ((False, (page_w, page_h)), (True, (page_h, page_w))):
        cols = tile_spans(piece.w, win_w, overlap)
        rows = tile_spans(piece.h, win_h, overlap)[::-1]  # top row first; y is up
        layouts.append((len(cols) * len(rows), rotated, cols, rows))
    _, rotated, cols, rows = min(layouts, key=lambda layout: (layout[0], layout[1]))
    tiles = [
        (f"{chr(65 + r)}{c + 1}", bx, by, w, h, r, c)
        for r, (by, h) in enumerate(rows)
        for c, (bx, w) in enumerate(cols)
    ]
    board_map = BoardMap(title, piece.component, piece.w, piece.h, tuple(t[:5] for t in tiles))
    sheets = [Sheet(title, "map", 0, len(tiles), assembly=board_map)]
    for number, (label, bx, by, w, h, r, c) in enumerate(tiles, start=1):
        on_w, on_h = (h, w) if rotated else (w, h)
        x0 = left + room + (page_w - on_w) / 2
        y0 = bottom + room + (page_h - on_h) / 2
        sheet = Sheet(title, "front", number, len(tiles))
        sheet.placements.append(
            Placement(
                piece, "front", x0, y0, on_w, on_h, 90 if rotated else 0, (bx, by, w, h), label
            )
        )
        sheet.marks = crop_marks(Grid(1, 1, False, on_w, on_h, 0.0, x0, y0, True), 1, paper, geo)
        strips = []
        if c + 1 < len(cols):  # the tile to the right covers this tile's right strip
            strips.append((bx + w - overlap, by, overlap, h))
        if r + 1 < len(rows):  # the tile below covers this tile's bottom strip
            strips.append((bx, by, w, overlap))
        sheet.glue = [_window_to_page(s, (bx, by, w, h), (x0, y0, on_w), rotated) for s in strips]
        sheets.append(sheet)
    return sheets


def _window_to_page(
    box: tuple[float, float, float, float],
    window: tuple[float, float, float, float],
    origin: tuple[float, float, float],
    rotated: bool,
) -> tuple[float, float, float, float]:
    """A box in board mm, inside a tile's window, as a box on the tile's page."""
    x, y, w, h = box
    bx, by, _, _ = window
    x0, y0, on_w = origin
    u, v = x - bx, y - by
    if not rotated:
        return (x0 + u, y0 + v, w, h)
    return (x0 + on_w - v - h, y0 + u, h, w)
