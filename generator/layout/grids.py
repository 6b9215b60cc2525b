"""Where pieces may go on a page, and grids of equal cells with their crop marks.

The printable box keeps the margin a home printer cannot print (and, for pages with backs, the
room the printer's back offset moves the backs by). A grid of cards hangs from the top of the
box, centred across it, or at its left when it leaves a strip wide enough for other pieces, so
that what a sheet does not use collects at the bottom and right, where other pieces can go.
Crop marks stand outside the bleed at every trim line, never across a card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.layout.sheets import Box, Line
from generator.model.sizes import SheetGeometry

Bounds = tuple[float, float, float, float]  # left, bottom, right, top
FOLD_CLEAR = 5.0  # mm between a fold line and the nearest bleed (PRINTING.md: at least 5)
FOLD_MARK_CLEAR = 0.5  # crop marks stop this far from a fold line
SIDE_ROOM = 20.0  # mm of width a grid leaves unused from which it moves left, to leave a strip


def printable_box(
    paper: tuple[float, float],
    geo: SheetGeometry,
    footer: bool = True,
    inset: Bounds = (0.0, 0.0, 0.0, 0.0),
) -> Bounds:
    """(left, bottom, right, top) of the area pieces and marks may use; ``footer`` keeps a
    band above the bottom margin for the page label; ``inset`` (left, bottom, right, top)
    keeps more room on each side: what a back offset needs (see ``impose.offset_room``)."""
    pw, ph = paper
    il, ib, ir, it = inset
    bottom = geo.margin + (geo.footer if footer else 0.0) + ib
    return geo.margin + il, bottom, pw - geo.margin - ir, ph - geo.margin - it


@dataclass(frozen=True)
class Grid:
    """A grid of equal cells (bleed boxes) hung from the top of its box, centred across it
    (or at its left, when what it leaves across is wide enough to hold other pieces)."""

    cols: int
    rows: int
    rotated: bool
    trim_w: float
    trim_h: float
    bleed: float
    x0: float
    y0: float
    footer: bool
    bounds: Bounds  # where its marks may reach
    butt: bool = False  # cells touch at their trim lines, the bleed only round the block

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    @property
    def cell_w(self) -> float:
        return self.trim_w + (0.0 if self.butt else 2 * self.bleed)

    @property
    def cell_h(self) -> float:
        return self.trim_h + (0.0 if self.butt else 2 * self.bleed)

    @property
    def rim(self) -> float:
        """The bleed round the block beyond its cells (butted cells only)."""
        return 2 * self.bleed if self.butt else 0.0

    def trim_origin(self, slot: int) -> tuple[float, float]:
        """Lower-left trim corner of ``slot`` (0 = top-left, reading order)."""
        col, row = slot % self.cols, slot // self.cols
        x = self.x0 + col * self.cell_w + self.bleed
        y = self.y0 + (self.rows - 1 - row) * self.cell_h + self.bleed
        return x, y

    def block_right(self, used: int) -> float:
        """The right edge of the used columns' bleed."""
        return self.x0 + min(used, self.cols) * self.cell_w + self.rim

    def art_box(self, slot: int, used: int) -> Box | None:
        """What the art of ``slot`` may cover: butted, its trim and the bleed on the sides
        where no card of the ``used`` ones touches it; else its whole bleed box (None)."""
        if not self.butt:
            return None
        col, row = slot % self.cols, slot // self.cols
        x, y = self.trim_origin(slot)
        b = self.bleed
        left = b if col == 0 else 0.0
        right = b if col == self.cols - 1 or slot + 1 >= used else 0.0
        top = b if row == 0 else 0.0
        bottom = b if slot + self.cols >= used else 0.0
        return (x - left, y - bottom, self.trim_w + left + right, self.trim_h + top + bottom)

    def used_bottom(self, used: int) -> float:
        """The bottom edge of the rows that ``used`` cells fill."""
        return self.y0 + (self.rows - math.ceil(used / self.cols)) * self.cell_h


def _grid(
    w: float,
    h: float,
    bleed: float,
    geo: SheetGeometry,
    box: Bounds,
    rotated: bool,
    room: Bounds,
    marks: Bounds,
    footer: bool,
    single: bool = False,
    butt: bool = False,
) -> Grid | None:
    """As many cells as fit in ``box`` leaving ``room`` (left, bottom, right, top) for marks,
    one if ``single``; None when not even one fits. Butted cells touch, the bleed only
    round the block."""
    left, bottom, right, top = box
    tw, th = (h, w) if rotated else (w, h)
    rim, pad = (2 * bleed, 0.0) if butt else (0.0, 2 * bleed)
    usable_w = right - left - room[0] - room[2] - rim
    usable_h = top - bottom - room[1] - room[3] - rim
    cols = math.floor((usable_w + 1e-9) / (tw + pad))
    rows = math.floor((usable_h + 1e-9) / (th + pad))
    if cols < 1 or rows < 1:
        return None
    if single:
        cols = rows = 1
    block_w, block_h = cols * (tw + pad) + rim, rows * (th + pad) + rim
    spare = usable_w + rim - block_w
    x0 = left + room[0] + (0.0 if spare >= SIDE_ROOM else spare / 2)
    y0 = top - room[3] - block_h
    return Grid(cols, rows, rotated, tw, th, bleed, x0, y0, footer, marks, butt)


def mark_room(geo: SheetGeometry) -> float:
    """Room a layout leaves outside the bleed for crop marks (and their line width)."""
    return geo.mark_gap + geo.mark_min_length + geo.line_room


def fit_grid(
    paper: tuple[float, float],
    w: float,
    h: float,
    bleed: float,
    geo: SheetGeometry,
    inset: Bounds = (0.0, 0.0, 0.0, 0.0),
    butt: bool = False,
) -> Grid | None:
    """The grid holding the most cards of trim ``w`` x ``h``: upright or turned 90°, with a
    page label in the footer unless leaving the footer out fits more cards (upright, with the
    label, on a tie); ``inset`` as for ``printable_box``; ``butt``: cards touching."""
    best: Grid | None = None
    room = (mark_room(geo),) * 4
    for footer in (True, False):
        box = printable_box(paper, geo, footer, inset)
        for rotated in (False, True):
            grid = _grid(w, h, bleed, geo, box, rotated, room, box, footer, butt=butt)
            if grid is not None and (best is None or grid.capacity > best.capacity):
                best = grid
    return best


def fit_one(
    paper: tuple[float, float], w: float, h: float, bleed: float, geo: SheetGeometry
) -> Grid | None:
    """A page for a single piece: upright if it fits, turned 90° only if that is what fits;
    with the page label unless only leaving it out makes room."""
    room = (mark_room(geo),) * 4
    for rotated in (False, True):
        for footer in (True, False):
            box = printable_box(paper, geo, footer)
            grid = _grid(w, h, bleed, geo, box, rotated, room, box, footer, single=True)
            if grid is not None:
                return grid
    return None


def fold_grids(
    paper: tuple[float, float],
    w: float,
    h: float,
    bleed: float,
    geo: SheetGeometry,
    butt: bool = False,
) -> tuple[Grid, str] | None:
    """The gutter-fold grid holding the most cards, and its fold axis ('y': fronts above a
    fold across the middle of the page; 'x': fronts left of a fold down its middle). Crop
    marks on the fold side stand in the clearance before the fold line, so a grid needs no
    room of its own there; on a tie the fold across the page, cards upright, is kept."""
    pw, ph = paper
    room = mark_room(geo)
    best: tuple[Grid, str] | None = None
    for axis in ("y", "x"):
        for footer in (True, False):
            left, bottom, right, top = printable_box(paper, geo, footer)
            if axis == "y":
                box = (left, ph / 2 + FOLD_CLEAR, right, top - (geo.footer if footer else 0.0))
                marks = (left, ph / 2 + FOLD_MARK_CLEAR, right, box[3])
                rooms = [(room, 0.0, room, room)]
            else:
                box = (left, bottom, pw / 2 - FOLD_CLEAR, top)
                marks = (left, bottom, pw / 2 - FOLD_MARK_CLEAR, top)
                rooms = [(room, room, 0.0, room), (0.0, room, 0.0, room)]
            for rotated in (False, True):
                for sides in rooms:
                    grid = _grid(w, h, bleed, geo, box, rotated, sides, marks, footer, butt=butt)
                    if grid is not None and (best is None or grid.capacity > best[0].capacity):
                        best = (grid, axis)
    return best


def crop_marks(grid: Grid, used: int, geo: SheetGeometry) -> list[Line]:
    """Marks at every trim line of the used cells, outside the bleed, never across a card,
    inside the grid's bounds; none on a side with no room for a mark of the least length."""
    left, bottom, right, top = grid.bounds
    cols_used = min(used, grid.cols)
    block_left = grid.x0
    block_right = grid.block_right(used)
    block_top = grid.y0 + grid.rows * grid.cell_h + grid.rim
    block_bottom = grid.used_bottom(used)
    gap = geo.mark_gap
    up, down = _length(top - block_top, geo), _length(block_bottom - bottom, geo)
    out_left, out_right = _length(block_left - left, geo), _length(right - block_right, geo)
    marks: list[Line] = []
    for col in range(cols_used):
        cell_left = grid.x0 + col * grid.cell_w
        for x in (cell_left + grid.bleed, cell_left + grid.bleed + grid.trim_w):
            if up:
                marks.append((x, block_top + gap, x, block_top + gap + up))
            if down:
                marks.append((x, block_bottom - gap - down, x, block_bottom - gap))
    rows_used = math.ceil(used / grid.cols)
    for row in range(grid.rows - rows_used, grid.rows):
        cell_bottom = grid.y0 + row * grid.cell_h
        for y in (cell_bottom + grid.bleed, cell_bottom + grid.bleed + grid.trim_h):
            if out_left:
                marks.append((block_left - gap - out_left, y, block_left - gap, y))
            if out_right:
                marks.append((block_right + gap, y, block_right + gap + out_right, y))
    rounded = ((round(a, 4), round(b, 4), round(c, 4), round(d, 4)) for a, b, c, d in marks)
    return list(dict.fromkeys(rounded))


def box_marks(trim: Box, art: Box, bounds: Bounds, geo: SheetGeometry) -> list[Line]:
    """Crop marks at the four trim lines of one piece whose art covers ``art`` (x, y, w, h):
    outside the art, inside ``bounds``; none on a side with no room for the least length."""
    tx, ty, tw, th = trim
    ax, ay, aw, ah = art
    left, bottom, right, top = bounds
    gap = geo.mark_gap
    up, down = _length(top - ay - ah, geo), _length(ay - bottom, geo)
    out_left, out_right = _length(ax - left, geo), _length(right - ax - aw, geo)
    marks: list[Line] = []
    for x in (tx, tx + tw):
        if up:
            marks.append((x, ay + ah + gap, x, ay + ah + gap + up))
        if down:
            marks.append((x, ay - gap - down, x, ay - gap))
    for y in (ty, ty + th):
        if out_left:
            marks.append((ax - gap - out_left, y, ax - gap, y))
        if out_right:
            marks.append((ax + aw + gap, y, ax + aw + gap + out_right, y))
    return marks


def _length(room: float, geo: SheetGeometry) -> float:
    """How long a crop mark is in ``room`` mm outside the art (0: no room for one)."""
    length = min(geo.mark_length, room - geo.mark_gap - geo.line_room)
    return length if length >= geo.mark_min_length - 1e-9 else 0.0


def _reach(room: float, geo: SheetGeometry) -> float:
    """How far marks reach from a block's edge into ``room`` (0 when they do not fit)."""
    length = _length(room, geo)
    return geo.mark_gap + length if length else 0.0


def marks_below(grid: Grid, used: int, geo: SheetGeometry) -> float:
    """How far down the crop marks under the used rows reach (the rows' bottom edge when
    there are none)."""
    block_bottom = grid.used_bottom(used)
    return block_bottom - _reach(block_bottom - grid.bounds[1], geo)


def marks_right(grid: Grid, used: int, geo: SheetGeometry) -> float:
    """How far right the crop marks beside the used columns reach."""
    block_right = grid.block_right(used)
    return block_right + _reach(grid.bounds[2] - block_right, geo)
