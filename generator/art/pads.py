"""A roll-and-write sheet's elements drawn as SVG in sheet millimetres (origin top-left, y
down): stacked from the top of the room below the title band, a row's elements side by side.
Each element is laid out by one function that both measures and draws it, so what is
measured is what prints; text goes through ``richtext`` (markup, ``:icon:``, never under
6 pt) and a die face, ``:die-1:`` to ``:die-6:`` in a text too, is drawn here as pips.

Grid maps are plain cells (square cells may have A1 coordinates beside them), or, given a
coordinate scheme, terrain, hexsides or paths, drawn by the board's grid module
(``hexgrid.grid_group``) as a board's grid is.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from generator.art import richtext
from generator.art.hexgrid import GridArt, grid_group
from generator.model.gridgeometry import Geometry
from generator.model.gridplan import plan
from generator.model.kinds.pad import PadElement, PadGrid, PadTable

PT = richtext.PT
MIN_TEXT = richtext.MIN_TEXT  # mm: 6 pt
BOX = 7.0  # mm: a box's side unless the element says
DIE = 8.0  # mm: a die face's side unless the element says
TEXT_PT = 9.0  # a text's size unless the element says
GAP = 3.0  # mm below an element unless it says
ROW_GAP = 4.0  # mm between the elements of a row
LINE = 0.3  # mm: the lines of boxes, tables and grids
TOTAL, TOTAL_GAP = 1.5, 2.2  # a total box's width (in boxes), and the room for its '='
GRID_CELL = 8.0  # mm: a grid's cells, unless the element says
COORD = 4.0  # mm a square grid's coordinates take beside it
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
Icon = Callable[[str], str]


class PadTooFull(ValueError):
    """Elements that need more room than the sheet has: how much, and where."""

    def __init__(self, message: str, loc: tuple[str | int, ...]):
        self.loc = loc
        super().__init__(message)


@dataclass(frozen=True)
class Look:
    """How the elements are drawn: the ink and accent colours, the text and title fonts."""

    ink: str = "#222222"
    accent: str = "#2f4f7f"
    font: str = "sans-serif"
    title_font: str = "sans-serif"
    paper: str = "#ffffff"


def die_face(value: int, x: float, y: float, side: float, ink: str, fill: str) -> str:
    """A die face showing ``value`` as pips, its top-left corner at (x, y)."""
    r, step = side * 0.09, side * 0.26
    cx, cy = x + side / 2, y + side / 2
    out = [
        f'<rect x="{x:.3f}" y="{y:.3f}" width="{side:.3f}" height="{side:.3f}" '
        f'rx="{side * 0.16:.3f}" fill="{fill}" stroke="{ink}" stroke-width="{side * 0.06:.3f}"/>'
    ]
    out += [
        f'<circle cx="{cx + px * step:.3f}" cy="{cy + py * step:.3f}" r="{r:.3f}" fill="{ink}"/>'
        for px, py in PIPS[value]
    ]
    return "".join(out)


def die_icon(name: str, ink: str = "#222222") -> str | None:
    """``die-1`` ... ``die-6`` as an icon (a 20 x 20 box centred on 0, 0); None for any other
    name."""
    if name.startswith("die-") and name[4:] in ("1", "2", "3", "4", "5", "6"):
        return die_face(int(name[4:]), -9.0, -9.0, 18.0, ink, "#ffffff")
    return None


@dataclass
class Painter:
    """Lays out and draws the elements of one side of a sheet; ``svg`` collects what is
    drawn (nothing while ``measuring``)."""

    look: Look
    icon: Icon | None = None
    label_width: float = 0.0
    fixed_labels: bool = False  # the spec gives the labels' width
    svg: list[str] = field(default_factory=list)
    measuring: bool = False

    def add(self, fragment: str) -> None:
        if not self.measuring:
            self.svg.append(fragment)

    def icon_of(self, name: str) -> str:
        """An icon's SVG: a die face, else the icon macro's drawing."""
        die = die_icon(name, self.look.ink)
        if die is not None:
            return die
        return self.icon(name) if self.icon is not None else ""

    def text(
        self,
        text: str,
        box: tuple[float, float, float, float],
        size: float,
        align: str = "start",
        bold: bool = False,
        colour: str | None = None,
        valign: str = "top",
    ) -> richtext.Layout:
        """``text`` (markup and icons) wrapped into ``box`` (x, y, w, h mm) at ``size`` mm,
        never under 6 pt; its layout (its height is what it takes)."""
        look = richtext.Look(
            self.look.font, "bold" if bold else "normal", colour or self.look.ink, 1.2
        )
        size = max(size, MIN_TEXT)
        laid = richtext.fitted(str(text), box[2], 10_000, size, size, look, True)
        if not self.measuring:
            self.svg.append(str(richtext.svg(laid, box, look, align, valign, self.icon_of)))
        return laid

    def width_of(self, text: str, size: float, bold: bool = False) -> float:
        """How wide ``text`` is on one line at ``size`` mm."""
        look = richtext.Look(self.look.font, "bold" if bold else "normal")
        return richtext.fitted(str(text), 10_000, 10_000, size, size, look, True).widest

    def element(self, element: PadElement, x: float, y: float, width: float) -> float:
        """Draw ``element`` at (x, y) in ``width``; the height it takes."""
        kind = element.kind
        if kind == "space":
            return float(element.space or 0.0)
        if kind == "row":
            return self.row(element.row or [], x, y, width)
        if kind == "stack":
            return self.stack(element.stack or [], x, y, width)
        draw = {
            "text": self.paragraph,
            "write": self.write,
            "boxes": self.boxes,
            "track": self.boxes,
            "dice": self.dice,
            "table": self.table,
            "grid": self.grid,
        }[kind]
        return draw(element, x, y, width)

    def row(self, elements: list[PadElement], x: float, y: float, width: float) -> float:
        """Elements side by side, each its share of the width."""
        shares = [e.width or 1.0 for e in elements]
        room = width - ROW_GAP * (len(elements) - 1)
        tallest = 0.0
        for index, (element, share) in enumerate(zip(elements, shares, strict=True)):
            w = room * share / sum(shares)
            try:
                tallest = max(tallest, self.element(element, x, y, w))
            except PadTooFull as exc:
                raise PadTooFull(str(exc), ("row", index, *exc.loc)) from None
            x += w + ROW_GAP
        return tallest

    def stack(
        self,
        elements: list[PadElement],
        x: float,
        y: float,
        width: float,
        room: float | None = None,
        where: tuple[str | int, ...] = ("stack",),
    ) -> float:
        """Elements one under another, their labels in a column of their own; the height
        they take (``PadTooFull`` past ``room``, at the element that goes past it)."""
        outer = self.label_width
        if not self.fixed_labels:
            self.label_width = label_column(self, elements, width)
        top = y
        for index, element in enumerate(elements):
            if index:
                before = elements[index - 1].gap
                top += GAP if before is None else before
            try:
                top += self.element(element, x, top, width)
            except PadTooFull as exc:
                raise PadTooFull(str(exc), (*where, index, *exc.loc)) from None
            if room is not None and top > y + room + 1e-6:
                raise PadTooFull(
                    f"the elements down to this one take {top - y:.1f} mm; the sheet has "
                    f"{room:.1f} mm below its title: leave some out, make them smaller, or "
                    "print fewer to a page ('up') or a larger 'size'",
                    (*where, index),
                )
        self.label_width = outer
        return top - y

    def paragraph(self, element: PadElement, x: float, y: float, width: float) -> float:
        size = (element.size or TEXT_PT) * PT
        box = (x, y, width, 10_000.0)
        laid = self.text(element.text or "", box, size, element.align, element.bold, element.colour)
        return laid.height

    def write(self, element: PadElement, x: float, y: float, width: float) -> float:
        """Labels each followed by a line to write on, side by side."""
        labels = element.labels
        size = (element.size or TEXT_PT) * PT
        height = max(size * 1.9, 6.0)
        part = (width - ROW_GAP * (len(labels) - 1)) / len(labels)
        colour = element.colour or self.look.ink
        for label in labels:
            box = (x, y + height - size * 1.45, part, size * 1.3)
            laid = self.text(label, box, size, colour=colour, bold=element.bold)
            start = x + laid.widest + 1.5
            self.add(
                f'<line x1="{start:.3f}" y1="{y + height - 0.6:.3f}" x2="{x + part:.3f}" '
                f'y2="{y + height - 0.6:.3f}" stroke="{colour}" stroke-width="{LINE}"/>'
            )
            x += part + ROW_GAP
        return height

    def label(self, element: PadElement, x: float, y: float, height: float) -> float:
        """A row's label left of it, in the label column; how far the row moves right."""
        if not element.label:
            return 0.0
        size = min(TEXT_PT * PT, max(height * 0.6, MIN_TEXT))
        column = self.label_width or self.width_of(element.label, size, True) + 2.0
        colour = element.colour or self.look.ink
        box = (x, y, column - 1.5, height)
        self.text(element.label, box, size, "start", True, colour, valign="middle")
        return column

    def boxes(self, element: PadElement, x: float, y: float, width: float) -> float:
        """A row of boxes (or a track), wrapped onto more lines when it does not fit."""
        side = element.size or BOX
        layout = BoxRow(element, side)
        shift = self.label(element, x, y + layout.above, side)
        lines = layout.lines(width - shift)
        if not lines:
            raise PadTooFull(
                f"a {side:g} mm box does not fit the {width - shift:.1f} mm beside its label",
                ("size",),
            )
        top = y
        for line in lines:
            self.box_line(element, layout, line, x + shift, top)
            top += layout.line_height + layout.gap * 1.5
        return top - y - layout.gap * 1.5

    def box_line(self, element: PadElement, layout: BoxRow, line: list, x: float, y: float) -> None:
        """One line of a row of boxes: the join, the boxes, their numbers and bonuses."""
        ink = element.colour or self.look.ink
        side = layout.side
        top = y + (layout.above if element.numbers_at == "above" else 0.0)
        if element.join and len(line) > 1:
            mid = top + side / 2
            first, last = line[0][1] + side / 2, line[-1][1] + line[-1][2] / 2
            self.add(
                f'<line x1="{x + first:.3f}" y1="{mid:.3f}" x2="{x + last:.3f}" y2="{mid:.3f}" '
                f'stroke="{ink}" stroke-width="{LINE * 2}"/>'
            )
        for index, at, w in line:
            shape = element.shape
            if index < 0:  # the total: '=' before a wider box
                room = TOTAL_GAP + layout.gap
                box = (x + at - room, top, room, side)
                self.text("=", box, side * 0.5, "middle", True, ink, "middle")
                shape = "square"
            self.add(_box(shape, x + at, top, w, side, ink, element.fill or "#ffffff"))
            if index >= 0:
                self.box_words(element, layout, index, (x + at, y, w, top))

    def box_words(
        self, element: PadElement, layout: BoxRow, index: int, at: tuple[float, ...]
    ) -> None:
        """A box's number (inside it, above or under it) and bonus (under it); ``at``: the
        box's left, its line's top, its width and the box's top."""
        left, y, w, top = at
        ink, side, small = element.colour or self.look.ink, layout.side, layout.small
        number = element.shown[index]
        if number and element.numbers_at == "inside":
            self.text(number, (left, top, w, side), layout.inside, "middle", True, ink, "middle")
        elif number:
            ny = top + side + 0.5 if element.numbers_at == "under" else y
            self.text(number, (left - 2, ny, w + 4, small * 1.2), small, "middle", False, ink)
        bonus = (element.bonus or {}).get(index + 1)
        if bonus:
            by = top + side + 0.5 + (layout.below - layout.bonus)
            self.text(bonus, (left - 3, by, w + 6, small * 1.2), small, "middle", True, ink)

    def dice(self, element: PadElement, x: float, y: float, width: float) -> float:
        """Die faces in a row, each with boxes to tick under it."""
        side = element.size or DIE
        gap = max(side * 0.35, 1.5)
        tick = min(side * 0.6, 5.0)
        ticks = element.ticks or 0
        height = side + ticks * (tick + 1.0)
        shift = self.label(element, x, y, side)
        faces = element.dice or []
        needed = len(faces) * side + (len(faces) - 1) * gap
        if needed > width - shift + 1e-6:
            raise PadTooFull(
                f"{len(faces)} dice of {side:g} mm need {needed:.1f} mm; "
                f"there are {width - shift:.1f}",
                ("dice",),
            )
        ink = element.colour or self.look.ink
        for n, value in enumerate(faces):
            left = x + shift + n * (side + gap)
            self.add(die_face(value, left, y, side, ink, element.fill or "#ffffff"))
            for k in range(ticks):
                ty = y + side + 1.0 + k * (tick + 1.0)
                self.add(_box("square", left + (side - tick) / 2, ty, tick, tick, ink, "#ffffff"))
        return height

    def table(self, element: PadElement, x: float, y: float, width: float) -> float:
        """A table: its header row on the accent's tint, blank cells to write in."""
        table = element.table
        assert table is not None  # a table element has one
        rows = [(table.header, True)] if table.header else []
        rows += [(row, False) for row in table.rows]
        widths = _widths(table, width)
        size = (element.size or 8.0) * PT
        ink = element.colour or self.look.ink
        top = y
        for cells, header in rows:
            left = x
            for text, w in zip(cells, widths, strict=True):
                fill = _tint(self.look.accent) if header else "#ffffff"
                self.add(
                    f'<rect x="{left:.3f}" y="{top:.3f}" width="{w:.3f}" '
                    f'height="{table.row_height:.3f}" fill="{fill}" stroke="{ink}" '
                    f'stroke-width="{LINE}"/>'
                )
                if text:
                    box = (left + 1.0, top, w - 2.0, table.row_height)
                    self.text(text, box, size, "middle", header, ink, "middle")
                left += w
            top += table.row_height
        return top - y

    def grid(self, element: PadElement, x: float, y: float, width: float) -> float:
        """A small map's cells: squares (with A1 coordinates if asked) or hexagons."""
        grid = element.grid
        assert grid is not None  # a grid element has one
        room = COORD if grid.coords is True and grid.layout == "square" else 0.0
        cell = grid.cell or _cell(grid, width - room)
        if grid.mapped:
            return self.mapped_grid(grid, x, y, width, cell)
        geometry = Geometry(grid.layout, cell, grid.cols, grid.rows, (x + room, y + room))
        cells = [geometry.corners(c) for c in geometry.cells()]
        ink = element.colour or self.look.ink
        fill = element.fill or "#ffffff"
        bottom, right = y, x
        for points in cells:
            path = " ".join(f"{px:.3f},{py:.3f}" for px, py in points)
            self.add(
                f'<polygon points="{path}" fill="{fill}" stroke="{ink}" stroke-width="{LINE}"/>'
            )
            bottom = max(bottom, *(py for _, py in points))
            right = max(right, *(px for px, _ in points))
        if right > x + width + 1e-6:
            raise PadTooFull(
                f"the grid is {right - x:.1f} mm wide; there are {width:.1f} mm (give a smaller "
                "'cell')",
                ("grid", "cell"),
            )
        if room:
            self.coordinates(grid, x, y, cell, ink)
        return bottom - y

    def mapped_grid(self, grid: PadGrid, x: float, y: float, width: float, cell: float) -> float:
        """A small map drawn as a board's grid is: coordinates, terrain, hexsides, paths."""
        board = grid.as_grid((x, y), cell, self.look.ink, "#ffffff", LINE)
        planned, problems = plan(board)
        if problems:
            raise PadTooFull(problems[0][1], ("grid", "cell"))
        left, top, right, bottom = board.geometry().box()
        if right > x + width + 1e-6:
            raise PadTooFull(
                f"the grid is {right - x:.1f} mm wide; there are {width:.1f} mm (give a smaller "
                "'cell')",
                ("grid", "cell"),
            )
        art = GridArt(icon=self.icon_of, fill="#ffffff", ids=f"pad{len(self.svg)}-")
        self.add(etree.tostring(grid_group(board, art, planned), encoding="unicode"))
        return bottom - y

    def coordinates(self, grid: PadGrid, x: float, y: float, cell: float, ink: str) -> None:
        """Letters over a square grid's columns, numbers left of its rows."""
        size = MIN_TEXT
        for col in range(grid.cols):
            box = (x + COORD + col * cell, y, cell, COORD)
            self.text(_letters(col), box, size, "middle", True, ink, "middle")
        for row in range(grid.rows):
            box = (x, y + COORD + row * cell, COORD, cell)
            self.text(str(row + 1), box, size, "middle", True, ink, "middle")


@dataclass(frozen=True)
class BoxRow:
    """How a row of boxes is laid out: its boxes' side, the gaps, the room its numbers and
    bonuses take above and below, and where each box goes on its line."""

    element: PadElement
    side: float

    @property
    def gap(self) -> float:
        return max(self.side * 0.22, 0.8)

    @property
    def small(self) -> float:
        """The size of numbers outside the boxes, and of bonuses."""
        return max(MIN_TEXT, min(self.side * 0.4, 3.2))

    @property
    def inside(self) -> float:
        """The size of numbers inside the boxes."""
        widest = max((len(n) for n in self.element.shown), default=1)
        return max(MIN_TEXT, min(self.side * 0.5, self.side * 0.95 / max(widest * 0.62, 1)))

    @property
    def above(self) -> float:
        shown = any(self.element.shown) and self.element.numbers_at == "above"
        return self.small * 1.2 + 0.5 if shown else 0.0

    @property
    def bonus(self) -> float:
        return self.small * 1.2 + 0.5 if self.element.bonus else 0.0

    @property
    def below(self) -> float:
        shown = any(self.element.shown) and self.element.numbers_at == "under"
        return (self.small * 1.2 + 0.5 if shown else 0.0) + self.bonus

    @property
    def line_height(self) -> float:
        return self.above + self.side + self.below

    def lines(self, width: float) -> list[list[tuple[int, float, float]]]:
        """The boxes line by line, each (index, x from the row's left, width), in as few
        lines as fit ``width``, as even as can be (``per_row`` at most, if given); a total box
        is index -1 at the end of the last line. Empty when a box does not fit at all."""
        count = self.element.count
        if self.element.per_row is not None:
            return self._split(self.element.per_row, width)
        for lines in range(1, count + 1):
            found = self._split(-(-count // lines), width)
            if found:
                return found
        return []

    def _split(self, per: int, width: float) -> list[list[tuple[int, float, float]]]:
        """The boxes ``per`` to a line, or nothing if a line is wider than ``width``."""
        element, side, gap = self.element, self.side, self.gap
        ends = _group_ends(element)
        lines: list[list[tuple[int, float, float]]] = []
        for index in range(element.count):
            if index % per == 0:
                lines.append([])
                at = 0.0
            lines[-1].append((index, at, side))
            at += side + gap + (gap * 1.5 if index in ends else 0.0)
        if element.total:
            start = lines[-1][-1][1] + side + gap + TOTAL_GAP
            lines[-1].append((-1, start, side * TOTAL))
        widest = max(line[-1][1] + line[-1][2] for line in lines)
        return lines if widest <= width + 1e-6 else []


def _group_ends(element: PadElement) -> set[int]:
    """The indices of the last box of each group but the last."""
    ends, at = set(), -1
    for size in (element.groups or [])[:-1]:
        at += size
        ends.add(at)
    return ends


def _box(shape: str, x: float, y: float, w: float, h: float, ink: str, fill: str) -> str:
    if shape == "circle":
        return (
            f'<ellipse cx="{x + w / 2:.3f}" cy="{y + h / 2:.3f}" rx="{w / 2:.3f}" '
            f'ry="{h / 2:.3f}" fill="{fill}" stroke="{ink}" stroke-width="{LINE}"/>'
        )
    return (
        f'<rect x="{x:.3f}" y="{y:.3f}" width="{w:.3f}" height="{h:.3f}" '
        f'rx="{min(w, h) * 0.12:.3f}" fill="{fill}" stroke="{ink}" stroke-width="{LINE}"/>'
    )


def _widths(table: PadTable, width: float) -> list[float]:
    columns = len(table.header or table.rows[0])
    shares = table.widths or [1.0] * columns
    return [width * share / sum(shares) for share in shares]


def _cell(grid: PadGrid, width: float) -> float:
    """The largest cell (at most ``GRID_CELL``) with which the grid fits ``width``."""
    if grid.layout == "square":
        return min(width / grid.cols, GRID_CELL)
    if grid.layout == "hex-pointy":
        return min(width / (grid.cols + (0.5 if grid.rows > 1 else 0.0)), GRID_CELL)
    return min(width * math.sqrt(3) / (2 + 1.5 * (grid.cols - 1)), GRID_CELL)


def _letters(index: int) -> str:
    """A, B ... Z, AA, AB ... for a column."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out


def _tint(colour: str) -> str:
    """A light tint of a '#rrggbb' colour (a fifth of it on white)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * 0.2):02x}" for c in (r, g, b))


def label_column(painter: Painter, elements: list[PadElement], width: float) -> float:
    """The width of the labels' column: the widest label of the rows of boxes, tracks and
    dice (with room after it), at most 45% of the sheet's width."""
    labelled = [e for el in elements for e in (el, *(el.row or [])) if e.label]
    widest = max(
        (painter.width_of(e.label or "", TEXT_PT * PT, True) for e in labelled), default=0.0
    )
    return min(widest + 2.5, width * 0.45) if labelled else 0.0


def draw_side(
    elements: list[PadElement],
    body: tuple[float, float, float, float],
    look: Look,
    icon: Icon | None,
    label_width: float | None,
) -> str:
    """The SVG of one side's elements in ``body`` (x, y, w, h mm); ``PadTooFull`` (with the
    element's place) when they need more room than it has."""
    x, y, width, height = body
    painter = Painter(look, icon, label_width or 0.0, fixed_labels=label_width is not None)
    painter.stack(elements, x, y, width, height, ())
    return "\n".join(painter.svg)
