"""SVG geometry as PDF path operators: path data (every command, relative or absolute, with
SVG's error handling: draw up to the first error), the basic shapes, and their bounding boxes,
which gradients and clip paths in ``objectBoundingBox`` units need.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, NamedTuple

from generator.svg.values import LIMIT

KAPPA = 4 / 3 * (math.sqrt(2) - 1)  # a quarter circle as one cubic Bézier
PATH_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7}
_TOKEN = re.compile(
    r"[\s,]*(?:([MmLlHhVvCcSsQqTtAaZz])|([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))"
)
_FLAG = re.compile(r"[\s,]*([01])")
Cubic = tuple[Literal["C"], float, float, float, float, float, float]  # two controls, an end
# an absolute segment: a move or a line to (x, y), a cubic, or a close
Segment = tuple[Literal["M", "L"], float, float] | Cubic | tuple[Literal["Z"]]


class Geometry(NamedTuple):
    """A shape's outline: PDF path operators in user units, its bounding box (None when it
    has no points), whether it encloses an area to fill (straight lines do not: PDF viewers
    paint their fill as a hairline, SVG paints nothing), and the points of its zero-length
    subpaths (which SVG draws as dots with round or square caps)."""

    pdf: str
    bbox: tuple[float, float, float, float] | None
    fillable: bool
    dots: tuple[tuple[float, float], ...] = ()


EMPTY = Geometry("", None, False)
SHAPES_KEPT = 2048  # outlines of each kind kept by their numbers: decks repeat frames, icons


def fmt(*values: float) -> str:
    """Numbers for a content stream: four decimals at most, no trailing zeros, and zero as
    0 however it was reached (-0.0, or a small negative rounded away), one spelling of one
    number. (Outlines are kept by unsigned numbers, ``_canonical``, for the same bytes.)"""
    texts = [f"{v:.4f}".rstrip("0").rstrip(".") for v in values]
    return " ".join(["0" if text == "-0" else text for text in texts])


# --- path data -------------------------------------------------------------------------------


@lru_cache(maxsize=SHAPES_KEPT)
def path_geometry(d: str) -> Geometry:
    """The geometry of SVG path data."""
    return geometry_of(parse_path(d))


def parse_path(d: str) -> list[Segment]:
    """Absolute segments of SVG path data up to its first error; arcs become cubics."""
    segments: list[Segment] = []
    with contextlib.suppress(ValueError, IndexError, OverflowError):
        _parse_into(d, segments)  # SVG draws the path up to the error
    if segments and segments[0][0] != "M":
        return []
    return segments


class _Pen:
    """Where reading path data has got to: the current point, the start of its subpath, and
    the last control point and command (which S and T reflect)."""

    __slots__ = ("x", "y", "start_x", "start_y", "control_x", "control_y", "previous")

    def __init__(self) -> None:
        self.x = self.y = self.start_x = self.start_y = 0.0
        self.control_x = self.control_y = 0.0
        self.previous = ""


def _parse_into(d: str, out: list[Segment]) -> None:
    """Read path data into ``out`` until it ends or an error is raised."""
    position, end = 0, len(d)
    pen = _Pen()
    command = ""
    closed = False
    while True:
        match = _TOKEN.match(d, position)
        if match is None:
            if d[position:].strip(" \t\r\n,"):
                raise ValueError("bad path data")
            return
        if match[1]:
            command = match[1]
            position = match.end()
            if command in "Zz":
                if out:
                    out.append(("Z",))
                pen.x, pen.y = pen.start_x, pen.start_y
                pen.previous = "Z"
                closed = True
                continue
        elif not command or command in "Zz":
            raise ValueError("numbers without a command")
        upper = command.upper()
        if not out and upper != "M":
            raise ValueError("path data must begin with a moveto")
        args, position = _arguments(d, position, upper)
        if closed and upper != "M":
            out.append(("M", pen.x, pen.y))  # a new subpath from the closed one's start
        closed = False
        if command != upper:
            args = _absolute(upper, args, pen.x, pen.y)
        if upper == "M":
            command = "L" if command == "M" else "l"  # further pairs are lines
        _segment(upper, args, pen, out)
        pen.previous = upper
        if position >= end:
            return


def _segment(upper: str, args: list[float], pen: _Pen, out: list[Segment]) -> None:
    """One command's segment (absolute ``args``) from the pen, which it moves."""
    x, y = pen.x, pen.y
    if upper == "M":
        pen.x, pen.y = pen.start_x, pen.start_y = args
        out.append(("M", pen.x, pen.y))
    elif upper in "LHV":
        if upper == "L":
            pen.x, pen.y = args
        elif upper == "H":
            pen.x = args[0]
        else:
            pen.y = args[0]
        out.append(("L", pen.x, pen.y))
    elif upper in "CS":
        if upper == "S":
            reflect = pen.previous in ("C", "S")
            first = (2 * x - pen.control_x, 2 * y - pen.control_y) if reflect else (x, y)
            args = [*first, *args]
        x1, y1, pen.control_x, pen.control_y, pen.x, pen.y = args
        out.append(("C", x1, y1, pen.control_x, pen.control_y, pen.x, pen.y))
    elif upper in "QT":
        if upper == "T":
            reflect = pen.previous in ("Q", "T")
            q = (2 * x - pen.control_x, 2 * y - pen.control_y) if reflect else (x, y)
            args = [*q, *args]
        qx, qy, end_x, end_y = args
        out.append(
            (
                "C",
                x + 2 / 3 * (qx - x),
                y + 2 / 3 * (qy - y),
                end_x + 2 / 3 * (qx - end_x),
                end_y + 2 / 3 * (qy - end_y),
                end_x,
                end_y,
            )
        )
        pen.control_x, pen.control_y, pen.x, pen.y = qx, qy, end_x, end_y
    else:
        out.extend(arc(x, y, *args))
        pen.x, pen.y = args[5], args[6]


def _arguments(d: str, position: int, upper: str) -> tuple[list[float], int]:
    """The numbers of one command from ``d[position:]``; an arc's flags are one character
    each and may run into the next number."""
    args: list[float] = []
    for index in range(PATH_ARGS[upper]):
        if upper == "A" and index in (3, 4):
            match = _FLAG.match(d, position)
            if match is None:
                raise ValueError("bad arc flag")
            args.append(float(match[1]))
        else:
            match = _TOKEN.match(d, position)
            if match is None or match[2] is None:
                raise ValueError("a command short of numbers")
            value = float(match[2])
            if not math.isfinite(value) or abs(value) > LIMIT:
                raise ValueError("number out of range")
            args.append(value)
        position = match.end()
    return args, position


def _absolute(upper: str, args: list[float], x: float, y: float) -> list[float]:
    """The arguments of a relative command made absolute."""
    if upper == "H":
        return [args[0] + x]
    if upper == "V":
        return [args[0] + y]
    if upper == "A":
        return [*args[:5], args[5] + x, args[6] + y]
    return [v + (x if k % 2 == 0 else y) for k, v in enumerate(args)]


def arc(
    x1: float,
    y1: float,
    rx: float,
    ry: float,
    angle: float,
    large: float,
    sweep: float,
    x2: float,
    y2: float,
) -> Sequence[Segment]:
    """An elliptical arc from (x1, y1) as cubic Béziers (SVG implementation notes F.6)."""
    if x1 == x2 and y1 == y2:
        return []  # the same point: no arc at all
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", x2, y2)]
    phi = math.radians(angle % 360)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = (x1p / rx) ** 2 + (y1p / ry) ** 2
    if scale > 1:  # radii too small to reach: scaled up just enough
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    numerator = (rx * ry) ** 2 - (rx * y1p) ** 2 - (ry * x1p) ** 2
    denominator = (rx * y1p) ** 2 + (ry * x1p) ** 2
    factor = math.sqrt(max(0.0, numerator / denominator)) if denominator else 0.0
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * y1p / ry, -factor * ry * x1p / rx
    cx = cos * cxp - sin * cyp + (x1 + x2) / 2
    cy = sin * cxp + cos * cyp + (y1 + y2) / 2
    start = math.atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
    delta = math.atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx) - start
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    pieces = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / pieces
    k = 4 / 3 * math.tan(step / 4)
    out: list[Cubic] = []
    for index in range(pieces):
        a0, a1 = start + index * step, start + (index + 1) * step
        e0 = (math.cos(a0), math.sin(a0))
        e1 = (math.cos(a1), math.sin(a1))
        points = [
            (e0[0] - k * e0[1], e0[1] + k * e0[0]),
            (e1[0] + k * e1[1], e1[1] - k * e1[0]),
            e1,
        ]
        mapped = [
            (cx + rx * px * cos - ry * py * sin, cy + rx * px * sin + ry * py * cos)
            for px, py in points
        ]
        (ax, ay), (bx, by), (ex, ey) = mapped
        out.append(("C", ax, ay, bx, by, ex, ey))
    _, ax, ay, bx, by, _, _ = out[-1]
    out[-1] = ("C", ax, ay, bx, by, x2, y2)  # ends exactly on the end point
    return out


# --- segments to geometry --------------------------------------------------------------------


def geometry_of(segments: list[Segment]) -> Geometry:
    """PDF operators, bounding box, fillability and zero-length subpaths of segments."""
    if len(segments) < 2:
        return EMPTY  # a lone moveto draws nothing
    words: list[str] = []
    xs: list[float] = []
    ys: list[float] = []
    subpaths: list[list[tuple[float, float]]] = []
    curved = False
    x = y = 0.0
    for segment in segments:
        if segment[0] == "M" or segment[0] == "L":
            _, x, y = segment
            if segment[0] == "M":
                words.append(f"{fmt(x, y)} m")
                subpaths.append([(x, y)])
            else:
                words.append(f"{fmt(x, y)} l")
                subpaths[-1].append((x, y))
        elif segment[0] == "C":
            words.append(f"{fmt(*segment[1:])} c")
            _cubic_extremes(x, y, segment, xs, ys)
            x, y = segment[5], segment[6]
            subpaths[-1].append((x, y))
            curved = curved or not _straight_cubic(subpaths[-1][-2], segment)
        else:
            words.append("h")
            if subpaths:
                subpaths[-1].append(subpaths[-1][0])
                x, y = subpaths[-1][0]
    for points in subpaths:
        xs.extend(p[0] for p in points)
        ys.extend(p[1] for p in points)
    dots = tuple(points[0] for points in subpaths if len(set(points)) == 1 and len(points) > 1)
    fillable = curved or not all(_flat(points) for points in subpaths)
    bbox = (min(xs), min(ys), max(xs), max(ys)) if xs else None
    return Geometry(" ".join(words), bbox, fillable, dots)


def _straight_cubic(start: tuple[float, float], segment: Cubic) -> bool:
    """Whether a cubic's control points lie on the line from its start to its end."""
    return _flat(
        [start, (segment[1], segment[2]), (segment[3], segment[4]), (segment[5], segment[6])]
    )


def _cubic_extremes(x0: float, y0: float, seg: Cubic, xs: list[float], ys: list[float]) -> None:
    """Add the points where a cubic turns in x or y (its bounding box beyond its ends)."""
    _, x1, y1, x2, y2, x3, y3 = seg
    for p0, p1, p2, p3, out in ((x0, x1, x2, x3, xs), (y0, y1, y2, y3, ys)):
        a = -p0 + 3 * p1 - 3 * p2 + p3
        b = 2 * (p0 - 2 * p1 + p2)
        c = p1 - p0
        for t in _roots(a, b, c):
            if 0 < t < 1:
                u = 1 - t
                out.append(u**3 * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t**3 * p3)


def _roots(a: float, b: float, c: float) -> list[float]:
    """Real roots of a t² + b t + c."""
    if abs(a) < 1e-12:
        return [-c / b] if abs(b) > 1e-12 else []
    disc = b * b - 4 * a * c
    if disc < 0:
        return []
    root = math.sqrt(disc)
    return [(-b + root) / (2 * a), (-b - root) / (2 * a)]


def _flat(points: list[tuple[float, float]]) -> bool:
    """Whether the points lie on one straight line (a shape of no area)."""
    x0, y0 = points[0]
    dx = dy = 0.0
    for x, y in points:
        if dx == 0 and dy == 0:
            dx, dy = x - x0, y - y0
        elif abs(dx * (y - y0) - dy * (x - x0)) > 1e-9 * (abs(dx) + abs(dy)) * (
            abs(x - x0) + abs(y - y0)
        ):
            return False
    return True


# --- basic shapes ----------------------------------------------------------------------------


def _canonical(numbers: tuple[float, ...]) -> tuple[float, ...]:
    """Numbers as the key an outline is kept by: floats, zero unsigned (-0.0 equals 0.0 and
    would find the other's outline, so a pack's bytes would hang on which came first)."""
    return tuple([n + 0.0 for n in numbers])


def rect_geometry(x: float, y: float, w: float, h: float, rx: float, ry: float) -> Geometry:
    """A rectangle, its corners rounded by rx, ry (already clamped to half the sides)."""
    return _rect(*_canonical((x, y, w, h, rx, ry)))


@lru_cache(maxsize=SHAPES_KEPT)
def _rect(x: float, y: float, w: float, h: float, rx: float, ry: float) -> Geometry:
    """``rect_geometry``, kept by its numbers."""
    box = (x, y, x + w, y + h)
    if rx <= 0 or ry <= 0:
        return Geometry(f"{fmt(x, y, w, h)} re", box, True)
    kx, ky = rx * (1 - KAPPA), ry * (1 - KAPPA)
    x1, y1 = x + w, y + h
    pdf = (
        f"{fmt(x + rx, y)} m {fmt(x1 - rx, y)} l "
        f"{fmt(x1 - kx, y, x1, y + ky, x1, y + ry)} c {fmt(x1, y1 - ry)} l "
        f"{fmt(x1, y1 - ky, x1 - kx, y1, x1 - rx, y1)} c {fmt(x + rx, y1)} l "
        f"{fmt(x + kx, y1, x, y1 - ky, x, y1 - ry)} c {fmt(x, y + ry)} l "
        f"{fmt(x, y + ky, x + kx, y, x + rx, y)} c h"
    )
    return Geometry(pdf, box, True)


def ellipse_geometry(cx: float, cy: float, rx: float, ry: float) -> Geometry:
    """Four quarters from the rightmost point, towards +y (SVG's direction)."""
    return _ellipse(*_canonical((cx, cy, rx, ry)))


@lru_cache(maxsize=SHAPES_KEPT)
def _ellipse(cx: float, cy: float, rx: float, ry: float) -> Geometry:
    """``ellipse_geometry``, kept by its numbers."""
    kx, ky = rx * KAPPA, ry * KAPPA
    pdf = (
        f"{fmt(cx + rx, cy)} m "
        f"{fmt(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry)} c "
        f"{fmt(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy)} c "
        f"{fmt(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry)} c "
        f"{fmt(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)} c h"
    )
    return Geometry(pdf, (cx - rx, cy - ry, cx + rx, cy + ry), True)


def polyline_geometry(points: tuple[float, ...], closed: bool) -> Geometry:
    """A polyline or polygon through the pairs of ``points`` (an odd last number is
    dropped, as SVG says)."""
    return _polyline(_canonical(points), closed)


@lru_cache(maxsize=SHAPES_KEPT)
def _polyline(points: tuple[float, ...], closed: bool) -> Geometry:
    """``polyline_geometry``, kept by its numbers."""
    count = len(points) // 2
    if count < 2:
        return EMPTY
    segments: list[Segment] = [("M", points[0], points[1])]
    segments += [("L", points[2 * k], points[2 * k + 1]) for k in range(1, count)]
    if closed:
        segments.append(("Z",))
    return geometry_of(segments)


def line_geometry(x1: float, y1: float, x2: float, y2: float) -> Geometry:
    """A line, which has no area to fill."""
    return geometry_of([("M", x1, y1), ("L", x2, y2)])
