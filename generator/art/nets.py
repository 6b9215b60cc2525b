"""Box nets: a tuck box and the tray and lid of a two-part box, sized from what they hold,
as ``Shape``s whose cut lines, fold lines, panels (where the faces' art goes) and glue tabs
are all there is to print; and the checks a net must pass to fold into a box.

Coordinates are millimetres in the net's own frame, lower-left corner (0, 0), y up, as for
every shape. A tuck box is a tube of back, side, front, side with a glue tab; its lid and
tuck flap hang from the back's top, its bottom and tuck flap from the front's bottom, dust
flaps from the sides' ends, and a thumb notch is cut into the front's top edge. A tray is a
base with four walls and a glue tab at each end of two of them; its lid is a tray a little
larger.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from lxml import etree

from generator.art.shapes import Line, Point, Shape
from generator.svg.fonts import text_width
from generator.svg.safexml import SAFE_PARSER

MIN_DEPTH = 5.0  # mm: the least depth a box folds to (a thinner spine cannot be folded)
MIN_FOLD_GAP = 3.0  # mm a fold keeps from a cut edge running beside it
LID_PLAY = 1.0  # mm a lid's inside is larger than its tray's outside, each way
PAPER = 0.3  # mm a wall of card adds to a tray's outside, each side
ARC_STEPS = 16  # straight cuts along a thumb notch's half circle


@dataclass(frozen=True)
class Inside:
    """A box's inside: the card's width and height plus clearance, and the stack's depth."""

    w: float
    h: float
    d: float


def inside(card_w: float, card_h: float, cards: int, thickness: float, clearance: float) -> Inside:
    """What a box for ``cards`` cards of ``card_w`` x ``card_h`` mm, each ``thickness`` mm
    thick, holds inside with ``clearance`` round them (at least ``MIN_DEPTH`` deep)."""
    depth = max(cards * thickness + clearance, MIN_DEPTH)
    return Inside(card_w + clearance, card_h + clearance, round(depth, 2))


@dataclass
class _Net:
    """A net being drawn: its cuts, folds, panels and glue tabs."""

    cuts: list[Line]
    folds: list[Line]
    panels: list[tuple[float, float, float, float, int]]
    tabs: list[tuple[Point, ...]]
    flaps: list[tuple[Point, ...]]

    def outline(self, points: list[Point], closed_by_fold: bool = True) -> None:
        """Cut along ``points``; the edge from the last back to the first is a fold."""
        self.cuts += [(*a, *b) for a, b in zip(points, points[1:], strict=False)]
        if closed_by_fold:
            self.folds.append((*points[-1], *points[0]))

    def shape(self, kind: str, w: float, h: float) -> Shape:
        """The net as a shape: its cuts but those along a fold (an edge two parts share)."""
        cuts = [c for c in self.cuts if not _on_any(c, self.folds)]
        return Shape(
            kind,
            round(w, 3),
            round(h, 3),
            cuts=tuple(cuts),
            folds=tuple(self.folds),
            panels=tuple(self.panels),
            tabs=tuple(self.tabs),
        )


def tuck_sizes(box: Inside) -> tuple[float, float, float, float]:
    """A tuck box's glue tab width, tuck flap depth, dust flap height and notch radius."""
    glue = min(max(box.d * 0.7, 7.0), 12.0, box.w * 0.5)
    tuck = min(max(box.d * 0.8, 10.0), 18.0, box.h * 0.4)
    dust = min(box.d, box.w / 2 - 2.0) * 0.85
    notch = min(box.w * 0.18, 12.0, box.h * 0.15)
    return glue, tuck, dust, notch


def tuck_box(box: Inside) -> tuple[Shape, list[tuple[Point, ...]]]:
    """A tuck box's net, and its flaps (the areas to colour besides its panels)."""
    w, h, d = box.w, box.h, box.d
    glue, tuck, dust, notch = tuck_sizes(box)
    net = _Net([], [], [], [], [])
    back, side1, front, side2 = glue, glue + w, glue + w + d, glue + 2 * w + d
    width = glue + 2 * w + 2 * d
    low, high = tuck + d, tuck + d + h  # the body's bottom and top
    net.panels = [
        (front, low, w, h, 0),
        (side1, low, d, h, 90),
        (back, low, w, h, 0),
        (side2, low, d, h, 90),
        (back, high, w, d, 180),  # the lid, read from the front once closed
        (front, tuck, w, d, 0),  # the bottom
    ]
    taper = min(glue * 0.6, h / 4)
    tab = ((back, low), (0.0, low + taper), (0.0, high - taper), (back, high))
    net.outline(list(tab))
    net.tabs.append(tab)
    net.folds += [(x, low, x, high) for x in (side1, front, side2)]
    net.cuts += [(back, low, side1, low), (width, low, width, high)]
    net.cuts += _notched_top(front, high, w, notch)
    net.outline([(back, high), (back, high + d), (side1, high + d), (side1, high)], False)
    net.folds.append((back, high, side1, high))
    for x, y, up in ((back, high + d, 1), (front, low - d, -1)):
        flap = _tuck_flap(x, y, w, tuck, up)
        net.outline(flap)
        net.flaps.append(tuple(flap))
    net.outline([(front, low), (front, tuck), (front + w, tuck), (front + w, low)], False)
    net.folds.append((front, low, front + w, low))
    for x in (side1, side2):
        for y, up in ((high, 1), (low, -1)):
            flap = _dust_flap(x, y, d, dust, up)
            net.outline(flap)
            net.flaps.append(tuple(flap))
    return net.shape("tuck-box", width, 2 * tuck + 2 * d + h), net.flaps


def _notched_top(x: float, y: float, w: float, radius: float) -> list[Line]:
    """The front's top edge, with a half-circle thumb notch cut into its middle."""
    cx = x + w / 2
    points = [(x, y)]
    for step in range(ARC_STEPS + 1):
        angle = math.pi + math.pi * step / ARC_STEPS  # the lower half, left to right
        points.append((cx + radius * math.cos(angle), y + radius * math.sin(angle)))
    points.append((x + w, y))
    return [(*a, *b) for a, b in zip(points, points[1:], strict=False)]


def _tuck_flap(x: float, y: float, w: float, depth: float, up: int) -> list[Point]:
    """A tuck flap on the edge from (x, y) to (x + w, y), reaching ``depth`` up (or down),
    its sides narrowed a little so it slides in, its corners cut off."""
    corner = min(depth * 0.5, 6.0)
    inset = min(1.0, w * 0.02)
    return [
        (x + w, y),
        (x + w - inset, y + up * (depth - corner)),
        (x + w - inset - corner, y + up * depth),
        (x + inset + corner, y + up * depth),
        (x + inset, y + up * (depth - corner)),
        (x, y),
    ]


def _dust_flap(x: float, y: float, w: float, height: float, up: int) -> list[Point]:
    """A dust flap on the edge from (x, y) to (x + w, y), its sides slanting in."""
    slant = min(height * 0.35, w * 0.25)
    return [(x + w, y), (x + w - slant, y + up * height), (x + slant, y + up * height), (x, y)]


def tray(box: Inside, kind: str = "tray") -> tuple[Shape, list[tuple[Point, ...]]]:
    """A tray's net: a ``box.w`` x ``box.h`` base, walls ``box.d`` high, and a glue tab at
    each end of the two walls across the base's width."""
    w, h, d = box.w, box.h, box.d
    net = _Net([], [], [], [], [])
    net.panels = [
        (d, d, w, h, 0),  # the base: a lid's top
        (0.0, d, d, h, 270),  # left wall: folded down, away from the print, its top at the base
        (d + w, d, d, h, 90),  # right wall
        (d, 0.0, w, d, 0),  # bottom wall
        (d, d + h, w, d, 180),  # top wall
    ]
    net.folds += [(d, d, d + w, d), (d, d + h, d + w, d + h), (d, d, d, d + h)]
    net.folds.append((d + w, d, d + w, d + h))
    net.outline([(d, d), (0.0, d), (0.0, d + h), (d, d + h)], False)
    net.outline([(d + w, d), (2 * d + w, d), (2 * d + w, d + h), (d + w, d + h)], False)
    net.outline([(d, d), (d, 0.0), (d + w, 0.0), (d + w, d)], False)
    net.outline([(d, d + h), (d, 2 * d + h), (d + w, 2 * d + h), (d + w, d + h)], False)
    depth, taper = d * 0.85, min(d * 0.3, 4.0)
    for y0 in (0.0, d + h):
        for x, out in ((d, -1), (d + w, 1)):
            tab = (
                (x, y0),
                (x + out * depth, y0 + taper),
                (x + out * depth, y0 + d - taper),
                (x, y0 + d),
            )
            net.outline(list(tab))
            net.tabs.append(tab)
    return net.shape(kind, w + 2 * d, h + 2 * d), []


def lid_for(box: Inside) -> Inside:
    """The inside of a lid that slides over a tray of inside ``box``: the tray's outside
    and some play."""
    grow = 2 * PAPER + LID_PLAY
    return Inside(round(box.w + grow, 2), round(box.h + grow, 2), box.d)


def _on_any(line: Line, others: list[Line]) -> bool:
    """Whether ``line`` lies along one of ``others`` (an edge that is a fold, not a cut)."""
    return any(
        _parallel(line, other) and _along(line, other) > 1e-6 and _gap(line, other) < 1e-6
        for other in others
    )


def _direction(line: Line) -> tuple[float, float]:
    x1, y1, x2, y2 = line
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    return (x2 - x1) / length, (y2 - y1) / length


def _parallel(a: Line, b: Line) -> bool:
    (ax, ay), (bx, by) = _direction(a), _direction(b)
    return abs(ax * by - ay * bx) < 1e-6


def _gap(a: Line, b: Line) -> float:
    """How far apart two parallel lines are."""
    ux, uy = _direction(a)
    return abs((b[0] - a[0]) * uy - (b[1] - a[1]) * ux)


def _along(a: Line, b: Line) -> float:
    """How long the stretch is along which two parallel lines run side by side."""
    ux, uy = _direction(a)
    a1, a2 = sorted((a[0] * ux + a[1] * uy, a[2] * ux + a[3] * uy))
    b1, b2 = sorted((b[0] * ux + b[1] * uy, b[2] * ux + b[3] * uy))
    return min(a2, b2) - max(a1, b1)


def net_problems(shape: Shape, paper_name: str, room: tuple[float, float]) -> list[str]:
    """What keeps a net from printing and folding: larger than the printable area ``room``
    (either way round), or a fold closer than ``MIN_FOLD_GAP`` to a cut edge beside it."""
    problems = []
    w, h = room
    if not (shape.w <= w and shape.h <= h) and not (shape.h <= w and shape.w <= h):
        problems.append(
            f"its net is {shape.w:.1f} x {shape.h:.1f} mm, larger than the printable area of "
            f"{paper_name} ({w:.0f} x {h:.0f} mm) either way round: print with --paper a3, or "
            "box a smaller deck (fewer cards, or split it into two boxes)"
        )
    for fold in shape.folds:
        for cut in shape.cuts:
            if not _parallel(fold, cut) or _along(fold, cut) <= 0.5:
                continue
            gap = _gap(fold, cut)
            if 1e-6 < gap < MIN_FOLD_GAP:
                problems.append(
                    f"a fold runs {gap:.1f} mm from a cut edge (at least {MIN_FOLD_GAP:g} mm "
                    "are needed to fold it): make the box deeper ('clearance')"
                )
                return problems
    return problems


SVG_NS = "http://www.w3.org/2000/svg"
GLUE_INK = "#8a8a8a"
GLUE_TEXT = 2.3  # mm: the glue tabs' word (6.5 pt)
HATCH = 2.5  # mm between a glue tab's hatching lines


@dataclass(frozen=True)
class Panel:
    """A face's art for the composed net: the template's SVG (drawn upright in a box of the
    panel's size, turned to fit its slot), and the deck's art under it (cropped to cover)."""

    svg: str
    under: str | None = None
    under_size: tuple[float, float] = (0.0, 0.0)  # the under art's trim, mm


def net_svg(
    shape: Shape,
    flaps: list[tuple[Point, ...]],
    panels: list[Panel | None],
    colour: str,
    bleed: float,
    glue: str,
) -> str:
    """The net's art: every part filled with ``colour`` out into the ``bleed``, each panel's
    art in its slot, the glue tabs hatched and named ``glue``."""
    b, w, h = bleed, shape.w, shape.h
    root = etree.Element(
        f"{{{SVG_NS}}}svg",
        nsmap={None: SVG_NS},
        width=f"{w + 2 * b:g}mm",
        height=f"{h + 2 * b:g}mm",
        viewBox=f"{-b:g} {-b:g} {w + 2 * b:g} {h + 2 * b:g}",
    )
    grow = {"fill": colour, "stroke": colour, "stroke-width": f"{2 * b:g}"}
    grow["stroke-linejoin"] = "round"
    for x, y, pw, ph, _ in shape.panels:
        etree.SubElement(root, _tag("rect"), x=_n(x), y=_n(h - y - ph), width=_n(pw),
                         height=_n(ph), **grow)  # fmt: skip
    for flap in flaps:
        etree.SubElement(root, _tag("polygon"), points=_points(flap, h), **grow)
    for slot, panel in zip(shape.panels, panels, strict=True):
        if panel is not None:
            root.append(_slotted(slot, panel, h))
    for tab in shape.tabs:
        root.append(_glue_tab(tab, h, glue))
    return etree.tostring(root, encoding="unicode")


def _tag(name: str) -> str:
    return f"{{{SVG_NS}}}{name}"


def _n(value: float) -> str:
    return f"{value:.3f}"


def _points(points: tuple[Point, ...], h: float) -> str:
    return " ".join(f"{x:.3f},{h - y:.3f}" for x, y in points)


def _slotted(slot: tuple[float, float, float, float, int], panel: Panel, h: float) -> Any:
    """A panel's art moved into its slot (SVG frame, y down), turned as the slot says."""
    x, y, w, ph, turn = slot
    top = h - y - ph
    moves = {
        0: f"translate({x:.3f} {top:.3f})",
        90: f"translate({x:.3f} {top + ph:.3f}) rotate(-90)",
        180: f"translate({x + w:.3f} {top + ph:.3f}) rotate(180)",
        270: f"translate({x + w:.3f} {top:.3f}) rotate(90)",
    }
    tw, th = (ph, w) if turn in (90, 270) else (w, ph)
    group = etree.Element(_tag("g"), transform=moves[turn])
    if panel.under is not None:
        group.append(_covering(panel.under, panel.under_size, tw, th))
    group.append(_viewport(panel.svg, 0.0, 0.0, tw, th, None))
    return group


def _covering(svg: str, size: tuple[float, float], w: float, h: float) -> Any:
    """Art of trim ``size`` cropped from its middle to cover a ``w`` x ``h`` box."""
    aw, ah = size
    scale = max(w / aw, h / ah)
    vw, vh = w / scale, h / scale
    return _viewport(svg, 0.0, 0.0, w, h, ((aw - vw) / 2, (ah - vh) / 2, vw, vh))


def _viewport(
    svg: str, x: float, y: float, w: float, h: float, view: tuple[float, ...] | None
) -> Any:
    """An SVG document as a nested viewport of ``w`` x ``h`` at (x, y), showing ``view``
    of it (default: its own viewBox), clipped to it."""
    element = etree.fromstring(svg.encode(), SAFE_PARSER)
    element.set("x", _n(x))
    element.set("y", _n(y))
    element.set("width", _n(w))
    element.set("height", _n(h))
    if view is not None:
        element.set("viewBox", " ".join(_n(v) for v in view))
        element.set("preserveAspectRatio", "none")
    return element


def _glue_tab(tab: tuple[Point, ...], h: float, word: str) -> Any:
    """A glue tab hatched in grey, with ``word`` along it where it fits."""
    group = etree.Element(_tag("g"))
    xs, ys = [p[0] for p in tab], [h - p[1] for p in tab]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    clip = etree.SubElement(group, _tag("clipPath"), id=f"glue{left:.0f}x{top:.0f}")
    etree.SubElement(clip, _tag("polygon"), points=_points(tab, h))
    etree.SubElement(group, _tag("polygon"), points=_points(tab, h), fill="#ffffff")
    lines = etree.SubElement(group, _tag("g"), stroke=GLUE_INK, **{"stroke-width": "0.25"})
    lines.set("clip-path", f"url(#{clip.get('id')})")
    span = (right - left) + (bottom - top)
    for k in range(int(span / HATCH) + 1):
        start = left + k * HATCH - (bottom - top)
        etree.SubElement(lines, _tag("line"), x1=_n(start), y1=_n(bottom),
                         x2=_n(start + bottom - top), y2=_n(top))  # fmt: skip
    width, height = right - left, bottom - top
    long_side, short_side = max(width, height), min(width, height)
    if short_side >= GLUE_TEXT * 1.6 and long_side >= text_width(word, GLUE_TEXT, "bold") + 4:
        cx, cy = (left + right) / 2, (top + bottom) / 2
        turn = " rotate(-90)" if height > width else ""
        text = etree.SubElement(
            group, _tag("text"), x="0", y=_n(GLUE_TEXT * 0.35), fill="#555555",
            transform=f"translate({cx:.3f} {cy:.3f}){turn}",
        )  # fmt: skip
        text.set("font-size", _n(GLUE_TEXT))
        text.set("font-weight", "bold")
        text.set("font-family", "sans-serif")
        text.set("text-anchor", "middle")
        text.text = word
    return group
