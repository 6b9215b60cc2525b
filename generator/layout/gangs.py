"""Gang-cut counters (a component's ``butt: true``): its counters in one block of rows and
columns touching at their trim lines, the bleed only round the block, so that straight cuts
right across the block free every counter, as a wargame's counter sheet is cut. The block
keeps a rim for its bleed and its crop marks, which stand outside it at every trim line (at
its edges and between its rows and columns), never across a counter; a counter's art covers
its trim and the bleed only on the sides no other counter touches, so the art of one never
prints on its neighbour, on the front or behind it.

The block is a grid of butted cells like a butted deck's (``grids.Grid``), and draws its art
boxes and crop marks as that does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.layout.grids import Grid, crop_marks
from generator.layout.pieces import Piece
from generator.layout.sheets import Line, Placement
from generator.model.sizes import SheetGeometry


def rim_side(bleed: float, geo: SheetGeometry) -> float:
    """What a block has beyond its trim on each side: the bleed, the crop marks (as long as a
    card's) and their gap and line width, and half the cutting gap to whatever lies beside
    it."""
    return bleed + geo.mark_gap + geo.mark_length + geo.line_room + geo.piece_gap / 2


@dataclass(frozen=True)
class Block:
    """Butted counters placed as one block: ``cols`` to a row, in reading order from the top
    left, the block's outer box (with its rim) at ``x``, ``y`` (bottom)."""

    pieces: tuple[Piece, ...]
    cols: int
    x: float
    y: float

    def grid(self, geo: SheetGeometry) -> Grid:
        """The block as a grid of butted cells, its marks' bounds the rim less the gap."""
        first = self.pieces[0]
        rows = math.ceil(len(self.pieces) / self.cols)
        side = rim_side(first.bleed, geo)
        x0, y0 = self.x + side - first.bleed, self.y + side - first.bleed
        half = geo.piece_gap / 2
        right = self.x + 2 * side + self.cols * first.w - half
        top = self.y + 2 * side + rows * first.h - half
        bounds = (self.x + half, self.y + half, right, top)
        return Grid(
            self.cols, rows, False, first.w, first.h, first.bleed, x0, y0, False, bounds, True
        )

    def layout(self, geo: SheetGeometry) -> tuple[list[Placement], list[Line]]:
        """Where each counter's front goes (its art clipped to its art box), and the crop
        marks of the block."""
        grid = self.grid(geo)
        used = len(self.pieces)
        placements = []
        for slot, piece in enumerate(self.pieces):
            x, y = grid.trim_origin(slot)
            clip = grid.art_box(slot, used)
            placements.append(Placement(piece, "front", x, y, piece.w, piece.h, 0, clip=clip))
        return placements, crop_marks(grid, used, geo)
