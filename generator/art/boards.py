"""Boards drawn from their description with svgwrite: regions, spaces, tracks, tables,
icons, labels and connections, in board millimetres (origin top-left, y down).

Icons come from the game's icon macros (a Jinja2 template); they are drawn into placeholders
after svgwrite has written the board, so the board's structure stays plain data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lxml import etree

from generator.art.hexgrid import GridArt, fragment, grid_group
from generator.model.columns import ICON_CODE
from generator.model.fields import LineStyle
from generator.model.kinds.board import BoardSpec, Track, around_sides
from generator.svg.fonts import families_generation, text_width, wrap
from generator.svg.safexml import SAFE_PARSER

Point = tuple[float, float]
SVG_NS = "http://www.w3.org/2000/svg"
INK = "#333333"
DASHES = {"dashed": "3,2", "dotted": "0.6,1.4"}
ICON_BOX = 20.0  # icon macros draw in a 20 x 20 box centred on (0, 0)
TEXT_MIDDLE = 0.35  # a text's baseline sits this many font sizes below its middle
CAP_HEIGHT = 0.72  # capitals rise this many font sizes above the baseline
ASCENT, DESCENT = 0.76, 0.24  # the font's glyphs above and below the baseline, in font sizes
LABEL_GAP = 0.8  # mm between a space and a label outside it
# a marked track space holds both, in shares of its size: its number small at the top, the
# mark's icon below it (inside a square and inside a circle of that size alike)
MARK_NUMBER, MARK_NUMBER_AT = 0.3, 0.26  # font size; middle above the centre
MARK_ICON, MARK_ICON_AT = 0.42, 0.14  # icon size; middle below the centre
EDGE = 0.01  # mm from the board's edge at which a region's point lies on it
GRID_SLOT = "pnp-grid-slot-"  # the id of the group a grid is drawn into


@dataclass(frozen=True)
class Placed:
    """A named thing on the board and its centre, for connections and arrows."""

    name: str
    centre: Point
    radius: float


def polygon_centre(points: list[Point]) -> Point:
    """The area centroid of a simple polygon (its vertices' mean if it has no area)."""
    area = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
        cross = x1 * y2 - x2 * y1
        area += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if abs(area) < 1e-9:
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    return cx / (3 * area), cy / (3 * area)


def along(path: list[Point], count: int) -> list[Point]:
    """``count`` points spread evenly along a polyline, first and last at its ends."""
    lengths = [math.dist(a, b) for a, b in zip(path, path[1:], strict=False)]
    total = sum(lengths)
    if count == 1:
        return [path[0]]
    points = []
    for i in range(count):
        target = total * i / (count - 1)
        for (a, b), length in zip(zip(path, path[1:], strict=False), lengths, strict=True):
            if target <= length + 1e-9 or (a, b) == (path[-2], path[-1]):
                t = target / length if length else 0.0
                points.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
                break
            target -= length
    return points


def around(w: float, h: float, inset: float, count: int) -> list[Point]:
    """``count`` points around a rectangle's edge, clockwise from its top-left corner: one
    on each corner, the others evenly along each side (``around_sides``), so that spaces turn
    the corners as on a score track, never two of them straddling a corner."""
    loop = [(inset, inset), (w - inset, inset), (w - inset, h - inset), (inset, h - inset)]
    steps = around_sides(w, h, inset, count)
    if not steps:  # fewer than four: spread evenly
        perimeter = 2 * (w + h - 4 * inset)
        return [_at(loop, i * perimeter / count) for i in range(count)]
    points: list[Point] = []
    for corner, following, n in zip(loop, loop[1:] + loop[:1], steps, strict=True):
        points += [
            (
                corner[0] + (following[0] - corner[0]) * k / n,
                corner[1] + (following[1] - corner[1]) * k / n,
            )
            for k in range(n)
        ]
    return points


def _at(loop: list[Point], distance: float) -> Point:
    for a, b in zip(loop, loop[1:] + loop[:1], strict=True):
        length = math.dist(a, b)
        if distance <= length:
            t = distance / length
            return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        distance -= length
    return loop[0]


@dataclass(frozen=True)
class Place:
    """Where a place of a board is and how large (mm from the board's top-left): a space's,
    row's or track's circle or rectangle, a region's bounding box, a grid cell's width
    across its flats (what a piece may cover on a hex: a 16 mm counter fits a 19 mm hex, its
    corners over the slanted sides as on every hex map; larger ones meet their neighbours')."""

    name: str
    centre: Point
    w: float
    h: float
    round: bool


def track_points(spec: BoardSpec, track: Track) -> list[Point]:
    """The centres of a track's spaces: along its path, or around the board's edge."""
    if track.path:
        return along(track.path, len(track.values))
    assert track.around is not None  # a path or 'around' (Track._placed)
    return around(spec.size.w, spec.size.h, track.around + track.size / 2, len(track.values))


def _box_place(name: str, points: Sequence[Point]) -> Place:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    return Place(name, centre, max(xs) - min(xs), max(ys) - min(ys), False)


def places(spec: BoardSpec) -> dict[str, Place]:
    """Every place of a board by its name, where it is drawn."""
    found = [_box_place(r.name, r.polygon) for r in spec.regions]
    for grid in spec.grids:
        geometry, across = grid.geometry(), grid.across
        found += [
            Place(n, geometry.centre(c), across, across, False) for n, c in grid.places().items()
        ]
    for s in spec.spaces:
        found.append(Place(s.name, (s.at[0], s.at[1]), s.size, s.h or s.size, s.shape == "circle"))
    for row in spec.rows:
        round_ = row.shape == "circle"
        for n, point in enumerate(along(row.path, row.count), start=1):
            found.append(Place(f"{row.name}-{n}", point, row.size, row.size, round_))
    for track in spec.tracks:
        round_ = track.shape == "circle"
        for value, point in zip(track.values, track_points(spec, track), strict=True):
            found.append(Place(f"{track.name}-{value}", point, track.size, track.size, round_))
    return {place.name: place for place in found}


class BoardPainter:
    """Draws one board spec into an SVG document."""

    def __init__(
        self,
        spec: BoardSpec,
        icon: Callable[[str], str] | None,
        cell: Callable[[str, dict[str, object]], str] | None = None,
    ):
        self.spec = spec
        self.icon_svg = icon
        self.cell_svg = cell
        import svgwrite  # imported by a board alone (a fiftieth of a second a command)

        w, h, b = spec.size.w, spec.size.h, spec.bleed
        self.dwg = svgwrite.Drawing(
            size=(f"{w + 2 * b:g}mm", f"{h + 2 * b:g}mm"),
            viewBox=f"{-b:g} {-b:g} {w + 2 * b:g} {h + 2 * b:g}",
            profile="full",
            debug=False,
        )
        self.placed: dict[str, Placed] = {}
        self.anchors = {r.name: r.anchor for r in spec.regions if r.anchor}
        self.layer = self.dwg
        self.icons: list[tuple[str, str, Point, float]] = []
        self.words: list[Mark] = []  # every text drawn, for the seams to keep out of

    def paint(self) -> str:
        """The board's SVG text."""
        spec = self.spec
        b = spec.bleed
        self.layer.add(
            self.dwg.rect(
                (-b, -b), (spec.size.w + 2 * b, spec.size.h + 2 * b), fill=spec.background
            )
        )
        self._regions()
        lines, spaces = self.dwg.g(), self.dwg.g()
        self.layer = spaces
        self._spaces()  # first, so that connections know where the spaces are
        self.layer = lines
        self._connections()
        self.layer = self.dwg
        self.layer.add(lines)
        self.layer.add(spaces)
        self._tables()
        self._icons()
        self._labels()
        if spec.border:
            self.layer.add(
                self.dwg.rect(
                    (spec.border / 2, spec.border / 2),
                    (spec.size.w - spec.border, spec.size.h - spec.border),
                    fill="none",
                    stroke=INK,
                    stroke_width=spec.border,
                )
            )
        return self._finish(self.dwg.tostring())

    def _stroke(self, element, style: LineStyle, width: float = 0.4) -> None:
        element.attribs.update({"stroke": INK, "stroke-width": width})
        if style in DASHES:
            element.attribs["stroke-dasharray"] = DASHES[style]

    def _regions(self) -> None:
        fills = {g.name: g.fill for g in self.spec.groups}
        shapes = [
            (r.name, r.polygon, r.group, r.fill, r.label, r.label_at, r.label_size, r.label_colour)
            for r in self.spec.regions
        ]
        for name, points, group, fill, label, label_at, size, colour_ in shapes:
            colour = fill or fills.get(group or "", "#f7f7f7")
            polygon = self.dwg.polygon(self._into_bleed(points), fill=colour)
            self._stroke(polygon, "solid", 0.6)
            self.layer.add(polygon)
            centre = label_at if label_at else polygon_centre(points)
            anchor = self.anchors.get(name, centre)
            self.placed[name] = Placed(name, anchor, 0.0)
            if label:
                self._text(label, centre, size, bold=True, colour=colour_)
        for index, grid in enumerate(self.spec.grids):  # drawn into its slot by _finish
            self.layer.add(self.dwg.g(id=f"{GRID_SLOT}{index}"))
            geometry = grid.geometry()
            for name, cell in grid.places().items():
                self.placed[name] = Placed(name, geometry.centre(cell), 0.0)

    def _into_bleed(self, points: Sequence[Point]) -> list[Point]:
        """A polygon's points, those on the board's edge moved out across the bleed, so a
        region that reaches the edge runs on where the cut may fall."""
        w, h, b = self.spec.size.w, self.spec.size.h, self.spec.bleed

        def out(v: float, end: float) -> float:
            return -b if abs(v) < EDGE else end + b if abs(v - end) < EDGE else v

        return [(out(x, w), out(y, h)) for x, y in points]

    def _spaces(self) -> None:
        spec = self.spec
        for space in spec.spaces:
            self._space(
                space.name,
                tuple(space.at),
                space.shape,
                space.size,
                space.style,
                space.fill,
                space.label,
                space.label_pos,
                space.icon,
                space.h,
                space.label_size,
            )
        for row in spec.rows:
            labels: Sequence[str | None] = row.labels or [None] * row.count
            for n, (point, label) in enumerate(
                zip(along(row.path, row.count), labels, strict=False), start=1
            ):
                self._space(
                    f"{row.name}-{n}",
                    point,
                    row.shape,
                    row.size,
                    row.style,
                    row.fill,
                    label,
                    "inside",
                    None,
                )
        for track in spec.tracks:
            for value, point in zip(track.values, track_points(spec, track), strict=True):
                mark = track.marks.get(value)
                self._space(
                    f"{track.name}-{value}",
                    point,
                    track.shape,
                    track.size,
                    "solid",
                    track.fill,
                    str(value),
                    "marked" if mark else "inside",
                    mark,
                )

    def _space(
        self, name, at, shape, size, style, fill, label, label_pos, icon, h=None, label_size=None
    ) -> None:
        x, y = at
        half = size / 2
        height = h or size
        if shape == "circle":
            outer = self.dwg.circle((x, y), half, fill=fill)
        else:
            outer = self.dwg.rect((x - half, y - height / 2), (size, height), fill=fill)
        self._stroke(outer, "dashed" if style == "dashed" else "solid", 0.45)
        if style == "dotted":
            self._stroke(outer, "dotted", 0.45)
        self.layer.add(outer)
        if style == "double":
            inset = min(1.2, half / 4)
            if shape == "circle":
                inner = self.dwg.circle((x, y), half - inset, fill="none")
            else:
                inner = self.dwg.rect(
                    (x - half + inset, y - height / 2 + inset),
                    (size - 2 * inset, height - 2 * inset),
                    fill="none",
                )
            self._stroke(inner, "solid", 0.35)
            self.layer.add(inner)
        self.placed[name] = Placed(name, (x, y), min(half, height / 2))
        half = height / 2
        if label and icon and label_pos == "marked":  # both inside: the number small on top
            small = min(size, height)
            self.icons.append((icon, name, (x, y + small * MARK_ICON_AT), small * MARK_ICON))
            font = min(small * MARK_NUMBER, label_size or 5.0)  # no larger than plain numbers
            self._text(label, (x, y - small * MARK_NUMBER_AT), font)
            return
        inside = bool(label) and label_pos == "inside"
        if icon:
            self.icons.append((icon, name, (x, y + (half * 0.25 if inside else 0)), size * 0.6))
        if label:
            font = label_size or min(min(size, height) * 0.42, 5.0)
            if inside:
                dy = -half * 0.35 if icon else 0.0
            elif label_pos == "above":  # baseline a clear gap above the top edge
                dy = -half - LABEL_GAP - TEXT_MIDDLE * font
            else:  # cap height a clear gap below the bottom edge
                dy = half + LABEL_GAP + (CAP_HEIGHT - TEXT_MIDDLE) * font
            self._text(label, (x, y + dy), font)

    def _connections(self) -> None:
        for c in self.spec.connections:
            start = self.placed.get(c.from_)
            if start is None:
                continue
            points = [start.centre, *c.via]
            if c.to:
                end = self.placed.get(c.to)
                if end is None:
                    continue
                points.append(end.centre)
            else:
                assert c.to_point is not None  # 'to' or 'to_point' (Connection._target)
                points.append(c.to_point)
            line = self.dwg.polyline(points, fill="none")
            self._stroke(line, c.style, 0.5)
            self.layer.add(line)
            if c.end == "square":
                x, y = points[-1]
                square = self.dwg.rect((x - 3, y - 3), (6, 6), fill="#ffffff")
                self._stroke(square, c.style, 0.5)
                self.layer.add(square)
            elif c.end == "arrow":
                self._head(points[-2], points[-1])

    def _tables(self) -> None:
        for table in self.spec.tables:
            x0, y = table.at
            rows = [(r, table.header_fill, True) for r in [table.header] if r]
            rows += [(r, table.fill, False) for r in table.rows]
            for cells, fill, bold in rows:
                x = x0
                for text, width in zip(cells, table.widths, strict=True):
                    rect = self.dwg.rect((x, y), (width, table.row_height), fill=fill)
                    self._stroke(rect, "solid", 0.3)
                    self.layer.add(rect)
                    self._text(
                        text, (x + width / 2, y + table.row_height / 2), table.font_size, bold=bold
                    )
                    x += width
                y += table.row_height

    def _cell(self, text: str, x: float, y: float, width: float, table, bold: bool) -> None:
        """A table cell's text, wrapped to the cell and centred in its height."""
        size = table.font_size
        lines = wrap(text, width - 2, size, "bold" if bold else "normal")
        leading = size * 1.2
        top = y + table.row_height / 2 - (len(lines) - 1) * leading / 2
        left = x + width / 2 if table.align == "middle" else x + 1.2
        for i, line in enumerate(lines):
            self._text(line, (left, top + i * leading), size, table.align, bold)

    def _icons(self) -> None:
        for item in self.spec.icons_at:
            at = item.at
            if item.points_to:
                target = self.placed[item.points_to].centre
                self._arrow(at, target, item.size / 2)
            self.icons.append((item.icon, f"icon-{len(self.icons)}", at, item.size))

    def _arrow(self, start: Point, end: Point, clearance: float) -> None:
        dx, dy = end[0] - start[0], end[1] - start[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        a = (start[0] + ux * clearance, start[1] + uy * clearance)
        b = (end[0] - ux * 2, end[1] - uy * 2)
        line = self.dwg.line(a, b)
        self._stroke(line, "solid", 0.6)
        self.layer.add(line)
        self._head(a, b)

    def _head(self, start: Point, b: Point) -> None:
        """An arrowhead at ``b`` for a line coming from ``start``."""
        length = math.dist(start, b) or 1.0
        ux, uy = (b[0] - start[0]) / length, (b[1] - start[1]) / length
        head = [
            b,
            (b[0] - ux * 2.5 - uy * 1.3, b[1] - uy * 2.5 + ux * 1.3),
            (b[0] - ux * 2.5 + uy * 1.3, b[1] - uy * 2.5 - ux * 1.3),
        ]
        self.layer.add(self.dwg.polygon(head, fill=INK))

    def _labels(self) -> None:
        for label in self.spec.labels:
            if label.width:
                weight = "bold" if label.bold else "normal"
                x, y = label.at
                for i, line in enumerate(wrap(label.text, label.width, label.size, weight)):
                    self._line(
                        line,
                        (x, y + i * label.size * 1.25),
                        label.size,
                        label.anchor,
                        label.bold,
                        label.rotate,
                        label.colour,
                    )
                continue
            self._line(
                label.text,
                tuple(label.at),
                label.size,
                label.anchor,
                label.bold,
                label.rotate,
                label.colour,
            )

    def _line(self, text, at, size, anchor, bold, rotate, colour) -> None:
        """A line of a label, its ``:icon:`` codes drawn by the game's icon macro, one font
        size wide, in the run of its words (along the line when it is turned)."""
        parts = ICON_CODE.split(text)
        if len(parts) == 1 or self.icon_svg is None:
            self._text(text, at, size, anchor, bold, rotate, colour)
            return
        weight = "bold" if bold else "normal"
        widths = [size if i % 2 else text_width(part, size, weight) for i, part in enumerate(parts)]
        offset = {"start": 0.0, "middle": -sum(widths) / 2, "end": -sum(widths)}[anchor]
        turn = math.radians(rotate)
        x, y = at
        for i, (part, width) in enumerate(zip(parts, widths, strict=True)):
            if i % 2:
                along = offset + width / 2
                centre = (x + along * math.cos(turn), y + along * math.sin(turn))
                self.icons.append((part, "label", centre, size))
            elif part.strip():
                along = offset + text_width(part[: len(part) - len(part.lstrip())], size, weight)
                start = (x + along * math.cos(turn), y + along * math.sin(turn))
                self._text(part.strip(), start, size, "start", bold, rotate, colour)
            offset += width

    def _text(self, text, at, size, anchor="middle", bold=False, rotate=0.0, colour=INK) -> None:
        x, y = at
        element = self.dwg.text(
            text,
            insert=(x, y + size * TEXT_MIDDLE),
            font_size=size,
            font_family="sans-serif",
            text_anchor=anchor,
            fill=colour,
        )
        if bold:
            element.attribs["font-weight"] = "bold"
        if rotate:
            element.rotate(rotate, center=(x, y))
        self.layer.add(element)
        width = text_width(text, size, "bold" if bold else "normal")
        left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
        top, bottom = y + (TEXT_MIDDLE - ASCENT) * size, y + (TEXT_MIDDLE + DESCENT) * size
        corners = [(left, top), (left + width, top), (left, bottom), (left + width, bottom)]
        turn = math.radians(rotate)
        turned = [
            (
                x + (u - x) * math.cos(turn) - (v - y) * math.sin(turn),
                y + (u - x) * math.sin(turn) + (v - y) * math.cos(turn),
            )
            for u, v in corners
        ]
        self.words.append(_box_mark(text, turned))

    def _finish(self, svg: str) -> str:
        """Draw each grid into its slot and each icon from the game's macros into the
        finished board."""
        if not self.spec.grids and (not self.icons or self.icon_svg is None):
            return svg
        root = etree.fromstring(svg.encode(), SAFE_PARSER)
        fill = {g.name: g.fill for g in self.spec.groups}
        art = GridArt(self.icon_svg, self.cell_svg, points=self._into_bleed)
        for index, grid in enumerate(self.spec.grids):
            slot = root.find(f".//{{{SVG_NS}}}g[@id='{GRID_SLOT}{index}']")
            assert slot is not None  # each grid's slot is drawn by _regions
            art.fill = fill.get(grid.group or "", "#f7f7f7")
            slot.addnext(grid_group(grid, art))
            slot.getparent().remove(slot)
        for name, _key, (x, y), size in self.icons:
            if self.icon_svg is None:
                break
            group = fragment(self.icon_svg(name))
            group.set("transform", f"translate({x:.3f} {y:.3f}) scale({size / ICON_BOX:.4f})")
            root.append(group)
        return etree.tostring(root, encoding="unicode")


def board_svg(
    spec: BoardSpec,
    icon: Callable[[str], str] | None = None,
    cell: Callable[[str, dict[str, object]], str] | None = None,
) -> str:
    """The SVG of a whole board (``icon``: the icons macro; ``cell``: a terrain template's
    macro cell, for grids)."""
    return BoardPainter(spec, icon, cell).paint()


@dataclass(frozen=True)
class Mark:
    """A word or picture a board prints and its box (mm from the board's top-left)."""

    what: str
    x0: float
    y0: float
    x1: float
    y1: float


def _box_mark(what: str, points: Sequence[Point]) -> Mark:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Mark(what, min(xs), min(ys), max(xs), max(ys))


def marks(spec: BoardSpec) -> list[Mark]:
    """Every word and icon a board prints, where it is drawn (a seam through one shows); a
    board painted for its marks once per spec (the plan and the check both ask, and a
    preview asks again on every save)."""
    key = (spec.model_dump_json(by_alias=True), families_generation())  # words measured
    found = _MARKS.get(key)
    if found is None:
        found = _MARKS[key] = tuple(_painted_marks(spec))
        while len(_MARKS) > MARKS_KEPT:
            _MARKS.pop(next(iter(_MARKS)))
    return list(found)


MARKS_KEPT = 16  # boards whose marks are kept (by their spec) in one process
_MARKS: dict[tuple[str, int], tuple[Mark, ...]] = {}


def _painted_marks(spec: BoardSpec) -> list[Mark]:
    """``marks``, found by painting the board."""
    painter = BoardPainter(spec, None)
    painter.paint()
    icons = [
        _box_mark(f"icon '{name}'", [(x - size / 2, y - size / 2), (x + size / 2, y + size / 2)])
        for name, _, (x, y), size in painter.icons
    ]
    return [m for m in painter.words if m.what.strip()] + icons
