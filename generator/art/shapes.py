"""Piece shapes: bounding boxes, cut lines that follow the shape, and die nets.

Coordinates are millimetres in the piece's own frame: the trim box's lower-left corner at
(0, 0), y up, as on a PDF page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.i18n.strings import Words, english

Point = tuple[float, float]
Line = tuple[float, float, float, float]

ROOT3 = math.sqrt(3.0)
NET_TAB = 0.3  # glue tab depth, as a fraction of a die's face edge


@dataclass(frozen=True)
class Shape:
    """A piece's outline: ``kind`` is rect (cards), circle, square, rounded, hex-flat,
    hex-pointy or net (a die); ``w`` x ``h`` is its trim box."""

    kind: str
    w: float
    h: float
    corner: float = 0.0
    cuts: tuple[Line, ...] = ()
    folds: tuple[Line, ...] = ()
    panels: tuple[tuple[float, float, float, float, int], ...] = ()
    tabs: tuple[tuple[Point, ...], ...] = ()

    def label(self, words: Words | None = None) -> str:
        """The size as a person reads it, in the ``words`` of the pack (English: in a
        message to the person running pnp)."""
        text = (words or english()).text
        if self.kind == "circle":
            return text("size_circle", d=self.w)
        if self.kind.startswith("hex"):
            return text("size_hex", d=min(self.w, self.h))
        if self.kind == "net":
            return text("size_die", d=self.panels[0][2])
        if self.kind == "standee":
            return text("size_standee", w=self.panels[0][2], h=self.panels[0][3])
        if self.kind in ("tuck-box", "tray", "lid"):  # the inside: the first panel, a side's depth
            w, h, d = self.panels[0][2], self.panels[0][3], self.panels[1][2]
            return text("size_box", w=w, h=h, d=d)
        return text("size_rect", w=self.w, h=self.h)


def token_shape(kind: str, w: float, h: float, corner: float = 0.0) -> Shape:
    """The shape of a token of ``kind`` whose size is ``w`` x ``h`` (hexagons: across flats)."""
    if kind == "hex-flat":
        return Shape(kind, 2 * w / ROOT3, w)
    if kind == "hex-pointy":
        return Shape(kind, w, 2 * w / ROOT3)
    return Shape(kind, w, h, corner if kind == "rounded" else 0.0)


def hex_points(shape: Shape, grow: float = 0.0) -> list[Point]:
    """Corners of a hexagon shape, grown outwards by ``grow`` mm on every side."""
    cx, cy = shape.w / 2, shape.h / 2
    radius = max(shape.w, shape.h) / 2 + grow * 2 / ROOT3
    start = 0 if shape.kind == "hex-flat" else 30
    return [
        (
            cx + radius * math.cos(math.radians(start + 60 * i)),
            cy + radius * math.sin(math.radians(start + 60 * i)),
        )
        for i in range(6)
    ]


# Face slots of a vertical cross (column, row from the top), so that opposite faces of a
# standard die (1-6, 2-5, 3-4) are opposite on the folded cube.
NET_SLOTS = ((1, 0), (1, 1), (0, 1), (2, 1), (1, 3), (1, 2))
# Edges that carry a glue tab: (face slot index, side).
NET_TABS = ((0, "top"), (2, "top"), (2, "bottom"), (2, "left"), (3, "top"), (3, "bottom"),
            (3, "right"))  # fmt: skip


def die_net(edge: float) -> Shape:
    """A cube net of six ``edge`` mm faces with glue tabs: cut lines, fold lines and the
    lower-left corner of each face."""
    tab = NET_TAB * edge
    faces = tuple((tab + col * edge, (3 - row) * edge) for col, row in NET_SLOTS)
    edges: dict[tuple, int] = {}
    sides: dict[tuple[int, str], Line] = {}
    for index, (x, y) in enumerate(faces):
        for side, line in _square_sides(x, y, edge).items():
            sides[(index, side)] = line
            key = _norm(line)
            edges[key] = edges.get(key, 0) + 1
    cuts: list[Line] = []
    folds: list[Line] = [line for line, n in edges.items() if n == 2]
    tabbed = {_norm(sides[t]) for t in NET_TABS}
    for line, n in edges.items():
        if n == 1 and line not in tabbed:
            cuts.append(line)
    for face, side in NET_TABS:
        folds.append(_norm(sides[(face, side)]))
        cuts.extend(_tab(sides[(face, side)], side, tab))
    width, height = 3 * edge + 2 * tab, 4 * edge + tab
    return Shape(
        "net",
        width,
        height,
        cuts=tuple(cuts),
        folds=tuple(folds),
        panels=tuple((x, y, edge, edge, 0) for x, y in faces),
        tabs=tuple(tuple(p) for p in _tab_polygons(faces, edge)),
    )


def standee_shape(w: float, h: float, base: float) -> Shape:
    """A fold-over standee: a base tab, the front, the back (upside down, so it reads upright
    once folded over the top), and a second base tab, in one strip; fold lines between."""
    height = 2 * base + 2 * h
    cuts = ((0, 0, w, 0), (w, 0, w, height), (w, height, 0, height), (0, height, 0, 0))
    folds = tuple((0, y, w, y) for y in (base, base + h, base + 2 * h))
    tabs = (
        ((0, 0), (w, 0), (w, base), (0, base)),
        ((0, base + 2 * h), (w, base + 2 * h), (w, height), (0, height)),
    )
    panels = ((0.0, base, w, h, 0), (0.0, base + h, w, h, 180))
    return Shape("standee", w, height, cuts=cuts, folds=folds, panels=panels, tabs=tabs)


def _tab_polygons(faces: tuple[Point, ...], edge: float) -> list[list[Point]]:
    """The glue tabs of a die net, as polygons (for shading them in the art)."""
    tab = NET_TAB * edge
    polygons = []
    for face, side in NET_TABS:
        x, y = faces[face]
        x1, y1, x2, y2 = _square_sides(x, y, edge)[side]
        dx, dy = _outward(side)
        ux, uy = (x2 - x1) / edge, (y2 - y1) / edge
        polygons.append(
            [
                (x1, y1),
                (x1 + dx * tab + ux * tab, y1 + dy * tab + uy * tab),
                (x2 + dx * tab - ux * tab, y2 + dy * tab - uy * tab),
                (x2, y2),
            ]
        )
    return polygons


def _square_sides(x: float, y: float, edge: float) -> dict[str, Line]:
    return {
        "bottom": (x, y, x + edge, y),
        "top": (x, y + edge, x + edge, y + edge),
        "left": (x, y, x, y + edge),
        "right": (x + edge, y, x + edge, y + edge),
    }


def _outward(side: str) -> tuple[int, int]:
    return {"top": (0, 1), "bottom": (0, -1), "left": (-1, 0), "right": (1, 0)}[side]


def _tab(line: Line, side: str, depth: float) -> list[Line]:
    """The three cut lines of a trapezoid glue tab on ``line``."""
    x1, y1, x2, y2 = line
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    dx, dy = _outward(side)
    a = (x1 + dx * depth + ux * depth, y1 + dy * depth + uy * depth)
    b = (x2 + dx * depth - ux * depth, y2 + dy * depth - uy * depth)
    return [(x1, y1, *a), (*a, *b), (*b, x2, y2)]


def _norm(line: Line) -> Line:
    x1, y1, x2, y2 = (round(v, 6) for v in line)
    return (x1, y1, x2, y2) if (x1, y1) <= (x2, y2) else (x2, y2, x1, y1)
