"""A grid drawn into an SVG group from its spec: terrain fills and stock patterns, cells drawn
by a template, icons, the cells' outlines, hexsides, paths, coordinates and labels, and its
legend. Nothing here knows boards: a board (``art/boards``) puts the group where it belongs,
and any other kind that holds a grid can do the same (``grid_group``).

Each terrain is one path of all its cells (one fill, one pattern), each outline is drawn
once, so a map of hundreds of hexes stays a few dozen elements besides its texts."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lxml import etree

from generator.art.gridstyle import (
    CASING,
    DARK,
    SVG_NS,
    TEXT_MIDDLE,
    darker,
    el,
    ink_on,
    line,
    pattern,
    polygons_d,
    sub,
    text,
)
from generator.model.gridgeometry import Cell, Point
from generator.model.gridlegend import LegendLayout, legend_layout
from generator.model.gridplan import GridPlan, coords_size, plan, widest_coords
from generator.model.grids import MIN_TEXT, Grid, Terrain
from generator.svg.fonts import text_width
from generator.svg.safexml import SAFE_PARSER

ICON_BOX = 20.0  # icon macros draw in a 20 x 20 box centred on (0, 0)
ICON_SHARE = 0.42  # a cell's icon, as a share of the cell's size
LABEL_SHARE = 0.15  # a cell's label (a town's name), as a share of the cell's size
ICON_ROOM = 0.9  # the share of the room between a coordinate and a label an icon may take
LABEL_AT = 0.28  # a cell's label lies this share of the cell's size from its centre
CAP = 0.72  # capitals rise this many font sizes above the baseline
PLATE = 0.35  # mm a text's patch of plain colour reaches round its letters
PAD = 0.07  # room kept between a text and its cell's edge, as a share of the cell's size
# where a text goes in a cell: the direction it is moved in from the centre
TOWARDS = {
    "top": (0, -1),
    "bottom": (0, 1),
    "left": (-1, 0),
    "right": (1, 0),
    "top-left": (-1, -1),
    "top-right": (1, -1),
    "bottom-left": (-1, 1),
    "bottom-right": (1, 1),
}


@dataclass(frozen=True)
class Words:
    """A text of a cell: its words, the middle of its line, its size, bold or not, and its
    colour (None: whichever stands out on the cell)."""

    cell: Cell
    text: str
    at: Point
    size: float
    bold: bool
    colour: str | None = None


@dataclass
class GridArt:
    """What drawing a grid needs from its component: ``icon(name)``, an icon's SVG in a
    20 x 20 box centred on (0, 0); ``cell(template, c)``, a terrain's cell art drawn by a
    template's macro ``cell``; ``fill``, the colour of cells without a terrain; ``points``,
    how a filled polygon's points move (a board pushes those on its edge into its bleed);
    ``ids``, a prefix that keeps the group's ids apart from others in one document."""

    icon: Callable[[str], str] | None = None
    cell: Callable[[str, dict[str, object]], str] | None = None
    fill: str = "#f7f7f7"
    points: Callable[[list[Point]], list[Point]] | None = None
    ids: str = ""
    _icons: dict[str, etree._Element] = field(default_factory=dict)

    def icon_group(self, name: str) -> etree._Element | None:
        """The icon ``name``, drawn by its macro once and copied wherever it is used."""
        if self.icon is None:
            return None
        if name not in self._icons:
            self._icons[name] = fragment(self.icon(name))
        return copy.deepcopy(self._icons[name])


def fragment(svg: str) -> etree._Element:
    """An SVG fragment (a macro's output) parsed into a group."""
    return etree.fromstring(f'<g xmlns="{SVG_NS}">{svg}</g>'.encode(), SAFE_PARSER)


def grid_group(
    grid: Grid, art: GridArt | None = None, planned: GridPlan | None = None
) -> etree._Element:
    """The SVG group that draws ``grid`` and its legend, in the grid's own millimetres
    (``planned``: its plan, when the caller has made it already)."""
    return _Painter(grid, planned or plan(grid)[0], art or GridArt()).paint()


class _Painter:
    """Draws one grid, layer by layer, into a group."""

    def __init__(self, grid: Grid, resolved: GridPlan, art: GridArt):
        self.grid, self.plan, self.art = grid, resolved, art
        self.geometry = grid.geometry()
        self.outline = self.geometry.outline()
        self.group = el("g", id=f"{art.ids}grid-{grid.prefix}")
        self.defs = sub(self.group, "defs")
        self.terrains = {t.name: t for t in grid.terrains}
        self.patterns: dict[str, str] = {}

    def paint(self) -> etree._Element:
        """The grid's group: fills, cell art, icons, outlines, sides, paths, texts, legend."""
        by_terrain: dict[str, list[Cell]] = {}
        for cell in self.geometry.cells():
            by_terrain.setdefault(self.plan.terrain.get(cell, ""), []).append(cell)
        labels = self._label_layout()
        texts = self._coords() + self._labels(labels)
        self._fills(by_terrain)
        self._templates(by_terrain)
        self._plates(texts)
        self._icons(labels)
        self._outlines()
        looks = self.grid.line_looks()
        for cell, direction, style, _ in self.plan.sides:
            ends = list(self.geometry.side(cell, direction))
            line(self.group, ends, looks[style], away=self.geometry.centre(cell))
        for cells, style in self.plan.paths:
            line(self.group, [self.geometry.centre(c) for c in cells], looks[style])
        for bold in (False, True):
            self._write([t for t in texts if t.bold == bold], bold)
        layout = legend_layout(self.grid, self.plan)
        if layout is not None:
            self._legend(layout)
        return self.group

    def _fills(self, by_terrain: dict[str, list[Cell]]) -> None:
        """Each terrain's cells as one path: its fill, then its pattern."""
        move = self.art.points or (lambda points: points)
        for name, cells in by_terrain.items():
            d = polygons_d([move(self.geometry.corners(c)) for c in cells])
            terrain = self.terrains.get(name)
            sub(self.group, "path", d=d, fill=self._ground(terrain))
            if terrain is not None and terrain.pattern:
                sub(self.group, "path", d=d, fill=f"url(#{self._pattern(terrain)})")

    def _ground(self, terrain: Terrain | None) -> str:
        """The colour of a cell of ``terrain`` (None: a cell without one)."""
        return terrain.fill if terrain else (self.grid.fill or self.art.fill)

    def _pattern(self, terrain: Terrain) -> str:
        """The id of a terrain's pattern, defined the first time it is asked for."""
        if terrain.name not in self.patterns:
            pid = f"{self.art.ids}grid-{self.grid.prefix}-{terrain.name}-pattern"
            ground = terrain.fill if terrain.fill != "none" else "#ffffff"
            colour = terrain.pattern_colour or darker(ground)
            self.defs.append(pattern(pid, str(terrain.pattern), colour))
            self.patterns[terrain.name] = pid
        return self.patterns[terrain.name]

    def _templates(self, by_terrain: dict[str, list[Cell]]) -> None:
        """Cells whose terrain a template draws: its art made once, copied into each cell and
        clipped to it."""
        drawn = [t for t in self.grid.terrains if t.template and by_terrain.get(t.name)]
        if not drawn or self.art.cell is None:
            return
        clip = f"{self.art.ids}grid-{self.grid.prefix}-cell"
        sub(sub(self.defs, "clipPath", id=clip), "path", d=polygons_d([self.outline]))
        w, h = _extent(self.outline)
        for terrain in drawn:
            context: dict[str, object] = {"terrain": terrain.name, "w": w, "h": h}
            context["shape"] = self.grid.layout
            art = fragment(self.art.cell(str(terrain.template), context))
            for cell in by_terrain[terrain.name]:
                x, y = self.geometry.centre(cell)
                moved = sub(self.group, "g", transform=f"translate({x:.3f} {y:.3f})")
                sub(moved, "g", clip_path=f"url(#{clip})").append(copy.deepcopy(art))

    def _icons(self, labels: dict[Cell, tuple[float, Point]]) -> None:
        """Each cell's icon (its own, else its terrain's): in its centre, or between its
        coordinate and its label, as large as fits there."""
        band = self._coords_band()
        for cell in self.geometry.cells():
            terrain = self.terrains.get(self.plan.terrain.get(cell, ""))
            name = self.plan.icons.get(cell) or (terrain.icon if terrain else None)
            if not name:
                continue
            size = (terrain.icon_size if terrain else None) or self.grid.across * ICON_SHARE
            top, low = band
            if cell in labels:
                label_size, (_, dy) = labels[cell]
                half = label_size * CAP / 2 + self.grid.across * PAD / 2
                top, low = (top, min(low, dy - half)) if dy > 0 else (max(top, dy + half), low)
            if top > -size / 2 or low < size / 2:  # a text in the way: between them
                size = min(size, (low - top) * ICON_ROOM)
                middle = (top + low) / 2
            else:
                middle = 0.0
            x, y = self.geometry.centre(cell)
            self._icon(self.group, name, (x, y + middle), size)

    def _coords_band(self) -> tuple[float, float]:
        """How far up and down from a cell's centre its icon may reach (mm, y down) for
        the coordinate to stay clear."""
        inner = _extent(self.outline)[1] / 2
        coords = self.grid.coords
        if coords.scheme == "none" or coords.at == "none" or coords.at in ("left", "right"):
            return -inner, inner
        size = coords_size(self.grid)
        _, dy = self._place(text_width(widest_coords(self.grid), size), size, coords.at)
        half = size * CAP / 2 + self.grid.across * PAD / 2
        if coords.at == "centre":
            return -inner, inner
        return (dy + half, inner) if dy < 0 else (-inner, dy - half)

    def _icon(self, parent: etree._Element, name: str, at: Point, size: float) -> None:
        """Icon ``name`` ``size`` mm large, centred on ``at``."""
        icon = self.art.icon_group(name)
        if icon is not None:
            scale = size / ICON_BOX
            icon.set("transform", f"translate({at[0]:.3f} {at[1]:.3f}) scale({scale:.4f})")
            parent.append(icon)

    def _outlines(self) -> None:
        """Every side of every cell, once, as one path."""
        if not self.grid.line_width:
            return
        seen: set[tuple[Point, ...]] = set()
        parts = []
        for cell in self.geometry.cells():
            points = self.geometry.corners(cell)
            for a, b in zip(points, points[1:] + points[:1], strict=True):
                key = tuple(sorted((round(p[0], 2), round(p[1], 2)) for p in (a, b)))
                if key not in seen:
                    seen.add(key)
                    parts.append(f"M{a[0]:.3f} {a[1]:.3f} L{b[0]:.3f} {b[1]:.3f}")
        width = f"{self.grid.line_width:g}"
        colour = self.grid.line_colour
        outline = {"fill": "none", "stroke_linecap": "round"}
        sub(self.group, "path", d=" ".join(parts), stroke=colour, stroke_width=width, **outline)

    def _coords(self) -> list[Words]:
        """Each cell's coordinate, where the grid says."""
        coords = self.grid.coords
        if coords.scheme == "none" or coords.at == "none":
            return []
        naming, size = self.grid.naming(), coords_size(self.grid)
        dx, dy = self._place(text_width(widest_coords(self.grid), size), size, coords.at)
        found = []
        for cell in self.geometry.cells():
            x, y = self.geometry.centre(cell)
            words = naming.label(cell)
            found.append(Words(cell, words, (x + dx, y + dy), size, False, coords.colour))
        return found

    def _plates(self, texts: list[Words]) -> None:
        """A patch of a patterned (or template-drawn) cell's own colour behind each of its
        texts, so that they stand out as on a plain one."""
        for words in texts:
            terrain = self.terrains.get(self.plan.terrain.get(words.cell, ""))
            if terrain is None or not (terrain.pattern or terrain.template):
                continue
            weight = "bold" if words.bold else "normal"
            half_w = text_width(words.text, words.size, weight) / 2 + PLATE
            top = words.at[1] - words.size * (CAP - TEXT_MIDDLE) - PLATE
            height = words.size * CAP + 2 * PLATE
            box = {"x": f"{words.at[0] - half_w:.3f}", "y": f"{top:.3f}"}
            size = {"width": f"{2 * half_w:.3f}", "height": f"{height:.3f}"}
            sub(self.group, "rect", **box, **size, rx="0.4", fill=terrain.fill)

    def _write(self, texts: list[Words], bold: bool) -> None:
        """Texts in one group, each in ink that stands out on its cell."""
        group = sub(self.group, "g", font_family="sans-serif", text_anchor="middle")
        if bold:
            group.set("font-weight", "bold")
        for words in texts:
            ground = self._ground(self.terrains.get(self.plan.terrain.get(words.cell, "")))
            text(group, words.text, words.at, words.size, fill=words.colour or ink_on(ground))

    def _label_layout(self) -> dict[Cell, tuple[float, Point]]:
        """Each label's size and the middle of its text from its cell's centre: bold, a
        share of the cell below its centre (above it when the coordinates are at the
        bottom), shrunk to the cell's width there down to 6 pt."""
        side = -1 if self.grid.coords.at.startswith("bottom") else 1
        found = {}
        for cell, label in self.plan.labels.items():
            size = max(MIN_TEXT, self.grid.across * LABEL_SHARE)
            dy = side * self.grid.across * LABEL_AT
            room = _chord(self.outline, dy - size * CAP / 2, dy + size * CAP / 2)
            room -= 2 * self.grid.across * PAD
            width = text_width(label, size, "bold")
            if width > room > 0:
                size = max(MIN_TEXT, size * room / width)
            found[cell] = (size, (0.0, dy))
        return found

    def _labels(self, layout: dict[Cell, tuple[float, Point]]) -> list[Words]:
        """Cells' labels (towns' names) where ``_label_layout`` put them."""
        found = []
        for cell, (size, (dx, dy)) in layout.items():
            x, y = self.geometry.centre(cell)
            found.append(Words(cell, self.plan.labels[cell], (x + dx, y + dy), size, True))
        return found

    def _place(self, width: float, size: float, at: str) -> Point:
        """Where a text ``width`` wide at ``size`` goes in a cell (see ``place``)."""
        return place(self.outline, width, size * CAP, at, self.grid.across * PAD)

    def _legend(self, layout: LegendLayout) -> None:
        """The legend: a plate, its title, and a swatch and a label for each entry."""
        group = sub(self.group, "g", font_family="sans-serif", fill=DARK)
        x, y, w, h = layout.plate
        plate = {"fill": "#ffffff", "stroke": "#555555", "stroke_width": "0.3"}
        sub(group, "rect", x=f"{x:.3f}", y=f"{y:.3f}", width=f"{w:.3f}", height=f"{h:.3f}", **plate)
        if layout.title:
            words, at, size = layout.title
            text(group, words, at, size, font_weight="bold")
        looks = self.grid.line_looks()
        for entry in layout.entries:
            sx, sy, sw, sh = entry.swatch
            middle = sy + sh / 2
            if entry.kind == "terrain":
                self._swatch(group, self.terrains[entry.name], (sx + sw / 2, middle), sh)
            else:  # a stretch of the line, its round ends inside the swatch
                look = looks[entry.name]
                inset = (look.width + (CASING if look.casing else 0)) / 2
                ends = [(sx + inset, middle), (sx + sw - inset, middle)]
                line(group, ends, look, (sx, middle - 1))
            text(group, entry.label, entry.text, layout.size)

    def _swatch(self, parent: etree._Element, terrain: Terrain, centre: Point, h: float) -> None:
        """A cell of the grid's shape, ``h`` high, in a terrain's look."""
        scale = h / _extent(self.outline)[1]
        d = polygons_d([[(centre[0] + x * scale, centre[1] + y * scale) for x, y in self.outline]])
        sub(parent, "path", d=d, fill=terrain.fill)
        if terrain.pattern:
            sub(parent, "path", d=d, fill=f"url(#{self._pattern(terrain)})")
        if terrain.icon:
            self._icon(parent, terrain.icon, centre, h * ICON_SHARE * 1.2)
        sub(parent, "path", d=d, fill="none", stroke=self.grid.line_colour, stroke_width="0.3")


def _extent(points: Sequence[Point]) -> tuple[float, float]:
    """The width and height of what ``points`` span."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return max(xs) - min(xs), max(ys) - min(ys)


def _chord(outline: Sequence[Point], top: float, bottom: float) -> float:
    """The width of a convex cell (corners about its centre) all the way from ``top`` to
    ``bottom`` (mm, y down): its narrowest across that band."""

    def across(y: float) -> float:
        xs = []
        for (x1, y1), (x2, y2) in zip(outline, [*outline[1:], outline[0]], strict=True):
            if min(y1, y2) <= y <= max(y1, y2) and y1 != y2:
                xs.append(x1 + (x2 - x1) * (y - y1) / (y2 - y1))
        return max(xs) - min(xs) if xs else 0.0

    return min(across(top), across(bottom))


def _inside(outline: Sequence[Point], x: float, y: float) -> bool:
    """Whether (x, y) lies in a convex polygon whose corners go by rising angle."""
    for (x1, y1), (x2, y2) in zip(outline, [*outline[1:], outline[0]], strict=True):
        if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) < -1e-9:
            return False
    return True


def place(outline: Sequence[Point], w: float, h: float, at: str, pad: float) -> Point:
    """Where the middle of a ``w`` x ``h`` text goes in a cell (from its centre, ``outline``
    its corners) to lie as far towards ``at`` as it can while it stays ``pad`` inside."""
    ux, uy = TOWARDS.get(at, (0, 0))
    half_w, half_h = w / 2 + pad, h / 2 + pad

    def fits(t: float) -> bool:
        cx, cy = ux * t, uy * t
        corners = [(cx + sx * half_w, cy + sy * half_h) for sx in (-1, 1) for sy in (-1, 1)]
        return all(_inside(outline, x, y) for x, y in corners)

    if (ux, uy) == (0, 0) or not fits(0.0):
        return 0.0, 0.0
    low, high = 0.0, max(_extent(outline))
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return ux * low, uy * low
