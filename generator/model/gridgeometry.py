"""Where the cells of a square or hex grid lie, in millimetres (x right, y down, as on a board):
each cell's centre and corners, which cells are neighbours and the side two of them share.

A cell is (col, row), both counted from 1 as a designer counts them. Hexes are flat-top
(``hex-flat``: columns of hexes, every other column half a hex lower) or pointy-top
(``hex-pointy``: rows of hexes, every other row half a hex to the right); ``offset`` says
which: ``even`` (the 2nd, 4th ... column or row is pushed, the first is not) or ``odd`` (the
1st, 3rd ...). ``size`` is a square's side or a hex's width across its flats; a hex's side
(its centre-to-corner radius) is ``size / sqrt(3)``. ``origin`` is the top-left corner of the
box of an unpushed cell in the first column and row.

Neighbours are found by measure, not by a table of offsets: two cells are neighbours when
their centres lie one cell's width apart (across a flat for hexes, across a side for squares),
so every orientation and offset obeys one rule."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Point = tuple[float, float]
Cell = tuple[int, int]  # (col, row), from 1
Shape = Literal["square", "hex-flat", "hex-pointy"]
EPS = 1e-6  # mm: points this close are one point
SQRT3 = math.sqrt(3.0)

# the directions from a cell to its neighbours, as compass points on the page (north up),
# with their angle in degrees (y down: north is -90)
DIRECTIONS: dict[str, dict[str, float]] = {
    "hex-flat": {"N": -90, "NE": -30, "SE": 30, "S": 90, "SW": 150, "NW": 210},
    "hex-pointy": {"NE": -60, "E": 0, "SE": 60, "SW": 120, "W": 180, "NW": 240},
    "square": {"N": -90, "E": 0, "S": 90, "W": 180},
}


@dataclass(frozen=True)
class Geometry:
    """The cells of one grid: their shape, size, count and place."""

    shape: Shape
    size: float
    cols: int
    rows: int
    origin: Point = (0.0, 0.0)
    offset: Literal["even", "odd"] = "even"

    @property
    def radius(self) -> float:
        """A hex's side (centre to corner); half a square's diagonal."""
        return self.size / SQRT3 if self.shape != "square" else self.size / math.sqrt(2.0)

    def pushed(self, index: int) -> bool:
        """Whether the column (flat-top) or row (pointy-top) ``index`` (from 1) is pushed by
        half a cell."""
        return index % 2 == (0 if self.offset == "even" else 1)

    def centre(self, cell: Cell) -> Point:
        """The centre of ``cell``."""
        col, row = cell
        ox, oy = self.origin
        s, r = self.size, self.radius
        if self.shape == "hex-flat":
            x = ox + r + (col - 1) * 1.5 * r
            y = oy + s / 2 + (row - 1) * s + (s / 2 if self.pushed(col) else 0.0)
        elif self.shape == "hex-pointy":
            x = ox + s / 2 + (col - 1) * s + (s / 2 if self.pushed(row) else 0.0)
            y = oy + r + (row - 1) * 1.5 * r
        else:
            x, y = ox + s / 2 + (col - 1) * s, oy + s / 2 + (row - 1) * s
        return x, y

    def outline(self) -> list[Point]:
        """A cell's corners about its centre (0, 0), clockwise on the page from the first
        corner at or after east."""
        start = {"hex-flat": 0.0, "hex-pointy": 30.0, "square": 45.0}[self.shape]
        count = 4 if self.shape == "square" else 6
        r = self.radius
        return [
            (
                _clean(r * math.cos(math.radians(start + k * 360 / count))),
                _clean(r * math.sin(math.radians(start + k * 360 / count))),
            )
            for k in range(count)
        ]

    def corners(self, cell: Cell) -> list[Point]:
        """The corners of ``cell`` on the board."""
        cx, cy = self.centre(cell)
        return [(cx + x, cy + y) for x, y in self.outline()]

    def cells(self) -> list[Cell]:
        """Every cell, row by row from the top, left to right."""
        return [(c, r) for r in range(1, self.rows + 1) for c in range(1, self.cols + 1)]

    def inside(self, cell: Cell) -> bool:
        """Whether ``cell`` is one of the grid's."""
        return 1 <= cell[0] <= self.cols and 1 <= cell[1] <= self.rows

    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of everything the grid covers."""
        ends = [self.corners(c) for c in self._rim()]
        xs = [x for points in ends for x, _ in points]
        ys = [y for points in ends for _, y in points]
        return min(xs), min(ys), max(xs), max(ys)

    def _rim(self) -> list[Cell]:
        """The cells of the grid's edge (the only ones that can reach its box)."""
        cols, rows = range(1, self.cols + 1), range(1, self.rows + 1)
        found = {(c, r) for c in cols for r in (1, 2, self.rows - 1, self.rows)}
        found |= {(c, r) for r in rows for c in (1, 2, self.cols - 1, self.cols)}
        return [c for c in found if self.inside(c)]

    def adjacent(self, one: Cell, other: Cell) -> bool:
        """Whether two cells share a side."""
        if one == other or abs(one[0] - other[0]) > 1 or abs(one[1] - other[1]) > 1:
            return False
        return abs(math.dist(self.centre(one), self.centre(other)) - self.size) < EPS

    def direction(self, one: Cell, other: Cell) -> str:
        """The compass point from ``one`` to a neighbour ``other``."""
        (x0, y0), (x1, y1) = self.centre(one), self.centre(other)
        angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
        return min(DIRECTIONS[self.shape].items(), key=lambda d: _turn(d[1], angle))[0]

    def neighbour(self, cell: Cell, direction: str) -> Cell | None:
        """The neighbour of ``cell`` towards ``direction`` (a compass point of its shape), or
        None off the grid."""
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                other = (cell[0] + dc, cell[1] + dr)
                if (
                    self.inside(other)
                    and self.adjacent(cell, other)
                    and self.direction(cell, other) == direction
                ):
                    return other
        return None

    def neighbours(self, cell: Cell) -> dict[str, Cell]:
        """Every neighbour of ``cell`` on the grid, by compass point."""
        found = {d: self.neighbour(cell, d) for d in DIRECTIONS[self.shape]}
        return {d: c for d, c in found.items() if c is not None}

    def side(self, cell: Cell, direction: str) -> tuple[Point, Point]:
        """The two ends of the side of ``cell`` that faces ``direction``."""
        angle = DIRECTIONS[self.shape][direction]
        points = self.corners(cell)
        cx, cy = self.centre(cell)
        pairs = list(zip(points, points[1:] + points[:1], strict=True))

        def off(pair: tuple[Point, Point]) -> float:
            mx, my = (pair[0][0] + pair[1][0]) / 2, (pair[0][1] + pair[1][1]) / 2
            return _turn(math.degrees(math.atan2(my - cy, mx - cx)), angle)

        return min(pairs, key=off)


def _turn(a: float, b: float) -> float:
    """How far apart two angles are, in degrees (0 to 180)."""
    return abs((a - b + 180) % 360 - 180)


def _clean(value: float) -> float:
    """A coordinate without the float noise of cos(90°)."""
    return 0.0 if abs(value) < 1e-12 else value
