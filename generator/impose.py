"""Imposition: place pieces on sheets of paper, with crop marks and duplex backs.

All numbers are millimetres with the origin at the page's lower-left corner (as in PDF).
Cards sit in a grid, bleed touching bleed, centred in the printable area; the grid is turned
90° when that holds more cards, so pages stay portrait and a long-edge flip is unambiguous.
Backs mirror the columns of their fronts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from generator.pieces import Piece
from generator.sizes import SheetGeometry

Line = tuple[float, float, float, float]


@dataclass(frozen=True)
class Placement:
    """Where one side of a piece lands: its trim box on the page and its rotation."""

    piece: Piece
    side: str
    x: float
    y: float
    w: float
    h: float
    rotation: int


@dataclass
class Sheet:
    """One printed page of a component: fronts or backs, with crop marks on fronts only."""

    component: str
    side: str
    number: int
    of: int
    placements: list[Placement] = field(default_factory=list)
    marks: list[Line] = field(default_factory=list)
    label: bool = True


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


def _fit(
    paper: tuple[float, float], w: float, h: float, bleed: float, geo: SheetGeometry, footer: bool
) -> Grid | None:
    left, bottom, right, top = printable_box(paper, geo, footer)
    room = geo.mark_gap + geo.mark_min_length
    best: Grid | None = None
    for rotated, (tw, th) in ((False, (w, h)), (True, (h, w))):
        cols = math.floor((right - left - 2 * room + 1e-9) / (tw + 2 * bleed))
        rows = math.floor((top - bottom - 2 * room + 1e-9) / (th + 2 * bleed))
        if cols < 1 or rows < 1:
            continue
        block_w, block_h = cols * (tw + 2 * bleed), rows * (th + 2 * bleed)
        x0 = left + (right - left - block_w) / 2
        y0 = bottom + (top - bottom - block_h) / 2
        grid = Grid(cols, rows, rotated, tw, th, bleed, x0, y0, footer)
        if best is None or grid.capacity > best.capacity:
            best = grid
    return best


def impose_cards(
    component: str,
    pieces: list[Piece],
    paper: tuple[float, float],
    geo: SheetGeometry,
) -> list[Sheet]:
    """Sheets for a deck's pieces: each sheet of fronts followed by its mirrored backs."""
    first = pieces[0]
    grid = fit_grid(paper, first.w, first.h, first.bleed, geo)
    if grid is None:
        raise ValueError(
            f"a {first.w:g} x {first.h:g} mm card with {first.bleed:g} mm bleed does not fit "
            f"on {paper[0]:g} x {paper[1]:g} mm paper inside the {geo.margin:g} mm margin"
        )
    chunks = [pieces[i : i + grid.capacity] for i in range(0, len(pieces), grid.capacity)]
    sheets: list[Sheet] = []
    for number, chunk in enumerate(chunks, start=1):
        front = Sheet(component, "front", number, len(chunks), label=grid.footer)
        for slot, piece in enumerate(chunk):
            x, y = grid.trim_origin(slot)
            front.placements.append(
                Placement(piece, "front", x, y, grid.trim_w, grid.trim_h, 90 if grid.rotated else 0)
            )
        front.marks = crop_marks(grid, len(chunk), paper, geo)
        sheets.append(front)
        if any(p.back for p in chunk):
            sheets.append(back_sheet(front, paper))
    return sheets


def back_sheet(front: Sheet, paper: tuple[float, float]) -> Sheet:
    """The backs of a sheet of fronts, for a long-edge flip: columns mirrored, no marks."""
    back = Sheet(front.component, "back", front.number, front.of, label=front.label)
    for p in front.placements:
        if p.piece.back:
            back.placements.append(
                Placement(p.piece, "back", paper[0] - p.x - p.w, p.y, p.w, p.h, -p.rotation)
            )
    return back


def crop_marks(grid: Grid, used: int, paper: tuple[float, float], geo: SheetGeometry) -> list[Line]:
    """Marks at every trim line of the used cells, outside the bleed, never across a card."""
    left, bottom, right, top = printable_box(paper, geo, grid.footer)
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
