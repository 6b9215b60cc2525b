"""The looks a grid is drawn in, defined once: the stock fill patterns a terrain may name, the
line styles of hexsides and paths (casing, railway ties, a cliff's teeth, dashes), the ink
that stands out on a terrain's colour, and the small SVG helpers the grid's drawing uses."""

from __future__ import annotations

import math
from collections.abc import Sequence

from lxml import etree

from generator.art.inks import relative_luminance
from generator.model.gridgeometry import Point
from generator.model.grids import LineLook

SVG_NS = "http://www.w3.org/2000/svg"
TEXT_MIDDLE = 0.35  # a text's baseline sits this many font sizes below its middle
DARK, LIGHT = "#222222", "#ffffff"
TIE_STEP, TIE_LENGTH = 2.2, 1.8  # mm between a railway's ties, and their length
TOOTH_STEP, TOOTH_LENGTH = 1.5, 0.9  # mm between a cliff's teeth, and their length
CASING = 0.7  # mm a casing (a road's edge) is wider than its line
DASHES = {"dashed": "2.2,1.4", "dotted": "0.4,1.1"}
PATTERN_STROKE = "0.22"  # mm: a pattern's lines, thick enough to print


def el(tag: str, **attributes: str) -> etree._Element:
    """An SVG element; ``stroke_width`` is written ``stroke-width``."""
    element = etree.Element(f"{{{SVG_NS}}}{tag}")
    for key, value in attributes.items():
        element.set(key.replace("_", "-"), value)
    return element


def sub(parent: etree._Element, tag: str, **attributes: str) -> etree._Element:
    """An SVG element appended to ``parent``."""
    element = el(tag, **attributes)
    parent.append(element)
    return element


def text(parent: etree._Element, words: str, at: Point, size: float, **attributes: str) -> None:
    """A line of text whose middle is at ``at`` (its anchor as ``text_anchor`` says)."""
    node = sub(
        parent,
        "text",
        x=f"{at[0]:.3f}",
        y=f"{at[1] + size * TEXT_MIDDLE:.3f}",
        font_size=f"{size:g}",
        **attributes,
    )
    node.text = words


def polygons_d(polygons: Sequence[Sequence[Point]]) -> str:
    """Path data of closed polygons."""
    return " ".join(
        "M" + " L".join(f"{x:.3f} {y:.3f}" for x, y in points) + " Z" for points in polygons
    )


def pattern(pid: str, kind: str, colour: str) -> etree._Element:
    """A stock pattern ``kind`` in ``colour``, tiled in millimetres: each covers little of
    its tile, so that text over it still stands out."""
    stroke = {"stroke": colour, "stroke_width": PATTERN_STROKE, "fill": "none"}
    size, turn = 2.2, 0
    if kind == "dots":
        size = 2.4
        shapes = [
            el("circle", cx=f"{x:g}", cy=f"{y:g}", r="0.32", fill=colour)
            for x, y in ((0.6, 0.6), (1.8, 1.8))
        ]
    elif kind in ("hatching", "lines"):
        turn = 45 if kind == "hatching" else 0
        shapes = [el("path", d="M0 1.1 H2.2", **stroke)]
    elif kind == "crosshatch":
        size, turn = 2.6, 45
        shapes = [el("path", d="M0 1.3 H2.6 M1.3 0 V2.6", **stroke)]
    elif kind == "waves":
        size = 4.0
        shapes = [el("path", d="M0 2 Q1 1.3 2 2 T4 2", **stroke)]
    else:  # grass: two tufts
        size = 4.0
        tuft = "M{0} {1} l0.35 -1 M{2} {1} v-1.15 M{3} {1} l-0.35 -1"
        d = " ".join(tuft.format(x - 0.5, y, x, x + 0.5) for x, y in ((1.0, 1.6), (3.0, 3.6)))
        shapes = [el("path", d=d, **stroke)]
    found = el("pattern", id=pid, patternUnits="userSpaceOnUse")
    found.set("width", f"{size:g}")
    found.set("height", f"{size:g}")
    if turn:
        found.set("patternTransform", f"rotate({turn})")
    found.extend(shapes)
    return found


def darker(colour: str, share: float = 0.62) -> str:
    """``colour`` ('#rrggbb') darkened to ``share`` of its light."""
    if not colour.startswith("#"):
        return DARK
    return "#" + "".join(f"{round(int(colour[i : i + 2], 16) * share):02x}" for i in (1, 3, 5))


def luminance(colour: str) -> float:
    """WCAG relative luminance of '#rrggbb' (white for 'none')."""
    if not colour.startswith("#"):
        return 1.0
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return relative_luminance((r, g, b))


def ink_on(colour: str) -> str:
    """Dark text on a light ground, white on a dark one: whichever stands out more."""
    ground = luminance(colour)
    return DARK if (ground + 0.05) / (luminance(DARK) + 0.05) >= 1.05 / (ground + 0.05) else LIGHT


def line(
    parent: etree._Element, points: list[Point], look: LineLook, away: Point | None = None
) -> None:
    """A hexside or path in its style: its casing, ties or teeth (away from ``away``), then
    the line itself."""
    d = "M" + " L".join(f"{x:.3f} {y:.3f}" for x, y in points)
    round_ = {"fill": "none", "stroke_linecap": "round", "stroke_linejoin": "round"}
    if look.casing:
        sub(
            parent,
            "path",
            d=d,
            stroke=look.casing,
            stroke_width=f"{look.width + CASING:g}",
            **round_,
        )
    if look.ticks != "none":
        marks = _ties(points) if look.ticks == "ties" else _teeth(points, away)
        width = max(0.3, look.width * 0.7) if look.ticks == "ties" else look.width * 0.6
        sub(parent, "path", d=marks, stroke=look.colour, stroke_width=f"{width:g}", fill="none")
    drawn = sub(parent, "path", d=d, stroke=look.colour, stroke_width=f"{look.width:g}", **round_)
    if look.dash in DASHES:
        drawn.set("stroke-dasharray", DASHES[look.dash])
        drawn.set("stroke-linecap", "butt")


def _ties(points: list[Point]) -> str:
    """Path data of a railway's ties: short strokes across it every ``TIE_STEP`` mm."""
    parts = []
    half = TIE_LENGTH / 2
    for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
        length = math.dist((x1, y1), (x2, y2))
        if length == 0:
            continue
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        count = max(1, round(length / TIE_STEP))
        for k in range(count):
            t = (k + 0.5) * length / count
            cx, cy = x1 + ux * t - uy * half, y1 + uy * t + ux * half
            parts.append(f"M{cx:.3f} {cy:.3f} l{uy * 2 * half:.3f} {-ux * 2 * half:.3f}")
    return " ".join(parts)


def _teeth(points: list[Point], away: Point | None) -> str:
    """Path data of a cliff's teeth: short strokes on the side of the line away from
    ``away`` (the centre of the cell whose side it is)."""
    (x1, y1), (x2, y2) = points[0], points[-1]
    length = math.dist((x1, y1), (x2, y2)) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = -uy, ux
    if away is not None and (away[0] - x1) * nx + (away[1] - y1) * ny > 0:
        nx, ny = -nx, -ny
    count = max(1, int(length / TOOTH_STEP))
    parts = []
    for k in range(count):
        t = (k + 0.5) * length / count
        cx, cy = x1 + ux * t, y1 + uy * t
        parts.append(f"M{cx:.3f} {cy:.3f} l{nx * TOOTH_LENGTH:.3f} {ny * TOOTH_LENGTH:.3f}")
    return " ".join(parts)
