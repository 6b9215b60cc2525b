"""Paint servers: linearGradient and radialGradient resolved as SVG and resvg resolve them,
into the shading a ``PAINT`` operation draws.

A gradient takes each attribute from the first gradient along its ``href`` chain that has it
(x1, y1, x2, y2 only from linear gradients, cx, cy, r, fx, fy, fr only from radial ones) and its
stops from the first that has any; a chain that loops stops where it loops. No stops paints
nothing, one stop (or a gradient of no length or radius) paints the last stop's colour.
``spreadMethod`` reflect and repeat become one PDF function repeated across the part of the
gradient the painted box covers (up to ``MAX_PERIODS`` periods, padded beyond).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Literal, NamedTuple

from lxml import etree

from generator.svg.builder import NS, XLINK_HREF, Box, Ctx
from generator.svg.compiling import Compiling
from generator.svg.pdf import Colour, Piece, Shading, Tiling
from generator.svg.properties import matrix_of, user
from generator.svg.values import (
    IDENTITY,
    Matrix,
    Rgb,
    apply,
    colour,
    invert,
    length,
    multiply,
    opacity,
)

GRADIENTS = (f"{NS}linearGradient", f"{NS}radialGradient")
PAD_MARGIN = 0.01  # how far a padded domain widens: little, since viewers sample it in 256 steps
MAX_PERIODS = 64  # periods of a repeated or reflected gradient drawn before it pads
Stop = tuple[float, Rgb, float]  # offset, colour, opacity
Kind = Literal["linear", "radial"]


class Server(NamedTuple):
    """A gradient ready to draw: the colour shading, the grey shading of its stops'
    opacities when they differ (else None), the matrix from gradient space to user space and
    the opacity all its stops share."""

    shading: Shading | Tiling
    alpha: Shading | None
    matrix: Matrix
    opacity: float


class Solid(NamedTuple):
    """A gradient that paints one colour."""

    rgb: Rgb
    alpha: float


Chain = list[tuple[etree._Element, dict[str, str]]]  # paint servers along an href chain


def href_of(attrs: dict[str, str]) -> str | None:
    """The id an ``href`` (preferred) or ``xlink:href`` names, without its '#'."""
    value = attrs.get("href") or attrs.get(XLINK_HREF)
    if not value or not value.strip().startswith("#"):
        return None
    return value.strip()[1:]


def chain_of(compiler: Compiling, element: etree._Element, tags: Collection[str]) -> Chain:
    """A paint server (gradient or pattern) and those of ``tags`` its href chain leads to,
    each with its attributes; a chain that loops stops where it loops."""
    chain = []
    seen: set[int] = set()
    current: etree._Element | None = element
    while current is not None and current.tag in tags and id(current) not in seen:
        seen.add(id(current))
        attrs = compiler.specified(current)
        chain.append((current, attrs))
        target = href_of(attrs)
        current = compiler.lookup(target) if target else None
    return chain


def first(chain: Chain, name: str, tag: str | None = None) -> str | None:
    """The first value of ``name`` along the chain (from servers of type ``tag`` only)."""
    for element, attrs in chain:
        if tag is not None and element.tag != tag:
            continue
        if name in attrs:
            return attrs[name]
    return None


def resolve(
    compiler: Compiling,
    ctx: Ctx,
    element: etree._Element,
    bbox: Box | None,
    painted: Box | None,
) -> Server | Solid | None:
    """The paint of a gradient for an element with bounding box ``bbox`` whose painted area
    (stroke included) is ``painted``; None when it paints nothing."""
    chain = chain_of(compiler, element, GRADIENTS)
    stops = _stops(compiler, chain)
    if not stops:
        return None
    if len(stops) == 1:
        return Solid(stops[0][1], stops[0][2])
    bounding = first(chain, "gradientUnits") != "userSpaceOnUse"
    matrix = _matrix(chain, bbox if bounding else None, bounding)
    if matrix is None:
        return None
    spread = first(chain, "spreadMethod")
    spread = spread if spread in ("reflect", "repeat") else "pad"
    place = _Placing(chain, bounding, ctx)
    if element.tag == GRADIENTS[0]:
        points = place.linear()
        if points[0] == points[2] and points[1] == points[3]:
            return Solid(stops[-1][1], stops[-1][2])
        return _server("linear", points, stops, spread, matrix, painted)
    circles = place.radial()
    if circles[5] <= 0:  # no radius
        return Solid(stops[-1][1], stops[-1][2])
    if circles[2] == circles[5]:  # the first colour inside the circle, the last outside
        start, final = stops[0], stops[-1]
        stops = [(0.0, start[1], start[2]), (1.0, start[1], start[2]), (1.0, final[1], final[2])]
        circles = (*circles[:2], 0.0, *circles[3:])
    return _server("radial", circles, stops, spread, matrix, painted)


def _matrix(chain: Chain, bbox: Box | None, bounding: bool) -> Matrix | None:
    """From gradient space to user space: the bounding box's (``bounding``: in
    objectBoundingBox units) times gradientTransform; None when nothing can be painted."""
    matrix = IDENTITY
    if bounding:
        if bbox is None or bbox[2] - bbox[0] <= 0 or bbox[3] - bbox[1] <= 0:
            return None
        x0, y0, x1, y1 = bbox
        matrix = (x1 - x0, 0.0, 0.0, y1 - y0, x0, y0)
    own = matrix_of(first(chain, "gradientTransform"))
    if invert(own) is None:
        own = IDENTITY  # a gradientTransform that squashes the plane is ignored, as in resvg
    matrix = multiply(matrix, own)
    return matrix if invert(matrix) is not None else None


class _Placing:
    """A gradient's points and circles in gradient space: fractions of the bounding box, or
    user lengths in the context of the element painted."""

    def __init__(self, chain: Chain, bounding: bool, ctx: Ctx) -> None:
        self.chain, self.bounding, self.ctx = chain, bounding, ctx

    def coordinate(self, name: str, default: str, axis: str, kind: str) -> float:
        """An attribute along the chain (of ``kind`` gradients only) as a number."""
        text = first(self.chain, name, f"{NS}{kind}")
        try:
            value = length(text) if text is not None else length(default)
        except ValueError:
            value = length(default)
        if self.bounding:
            return value.value / 100 if value.unit == "%" else value.value
        return user(value, self.ctx, axis)

    def linear(self) -> tuple[float, float, float, float]:
        """x1, y1, x2 and y2 of a linear gradient."""
        return (
            self.coordinate("x1", "0%", "x", "linearGradient"),
            self.coordinate("y1", "0%", "y", "linearGradient"),
            self.coordinate("x2", "100%", "x", "linearGradient"),
            self.coordinate("y2", "0%", "y", "linearGradient"),
        )

    def radial(self) -> tuple[float, float, float, float, float, float]:
        """fx, fy, fr, cx, cy and r of a radial gradient (the focus at the centre unless
        given, its radius never negative)."""
        cx = self.coordinate("cx", "50%", "x", "radialGradient")
        cy = self.coordinate("cy", "50%", "y", "radialGradient")
        r = self.coordinate("r", "50%", "xy", "radialGradient")
        tag = f"{NS}radialGradient"
        given_x = first(self.chain, "fx", tag) is not None
        given_y = first(self.chain, "fy", tag) is not None
        fx = self.coordinate("fx", "50%", "x", "radialGradient") if given_x else cx
        fy = self.coordinate("fy", "50%", "y", "radialGradient") if given_y else cy
        fr = max(0.0, self.coordinate("fr", "0%", "xy", "radialGradient"))
        return (fx, fy, fr, cx, cy, r)


# --- stops -----------------------------------------------------------------------------------


def _stops(compiler: Compiling, chain: Chain) -> list[Stop]:
    """(offset, rgb, opacity) of the stops of the first gradient in the chain with any."""
    for element, attrs in chain:
        stops = [child for child in element if child.tag == f"{NS}stop"]
        if stops:
            return _read_stops(compiler, element, attrs, stops)
    return []


def _read_stops(
    compiler: Compiling,
    gradient: etree._Element,
    gradient_attrs: dict[str, str],
    stops: list[etree._Element],
) -> list[Stop]:
    """Offsets clamped to 0-1 and never decreasing; colours and opacities as specified."""
    out: list[Stop] = []
    previous = 0.0
    for stop in stops:
        attrs = compiler.specified(stop)
        offset = _offset(attrs.get("offset"))
        offset = max(previous, min(1.0, max(0.0, offset)))
        previous = offset
        rgb, alpha = _stop_colour(compiler, stop, attrs, gradient_attrs)
        value = attrs.get("stop-opacity")
        if value == "inherit":
            value = gradient_attrs.get("stop-opacity")
        out.append((offset, rgb, alpha * opacity(value)))
    return out


def _offset(text: str | None) -> float:
    """A stop offset: a number or a percentage (0 when invalid)."""
    if text is None:
        return 0.0
    try:
        value = length(text)
    except ValueError:
        return 0.0
    if value.unit == "%":
        return value.value / 100
    return value.value if value.unit == "" else 0.0


def _stop_colour(
    compiler: Compiling,
    stop: etree._Element,
    attrs: dict[str, str],
    gradient_attrs: dict[str, str],
) -> tuple[Rgb, float]:
    """A stop's colour and its alpha (black when not given or invalid)."""
    text = attrs.get("stop-color")
    if text == "inherit":
        text = gradient_attrs.get("stop-color")
    if text is None:
        return (0.0, 0.0, 0.0), 1.0
    if text.strip() == "currentColor":
        return compiler.current_colour(stop), 1.0
    try:
        r, g, b, a = colour(text)
    except ValueError:
        return (0.0, 0.0, 0.0), 1.0
    return (r, g, b), a


# --- shadings --------------------------------------------------------------------------------


def _server(
    kind: Kind,
    geometry: tuple[float, ...],
    stops: list[Stop],
    spread: str,
    matrix: Matrix,
    painted: Box | None,
) -> Server:
    """The shadings of a gradient whose stops may repeat over the painted box."""
    t0, t1 = 0.0, 1.0
    if spread != "pad" and painted is not None:
        t0, t1 = _reach(kind, geometry, matrix, painted)
    elif spread == "pad":
        t0, t1 = _pad_ends(kind, stops)
    colours: list[tuple[float, Colour]] = [(o, rgb) for o, rgb, _ in stops]
    alphas: list[tuple[float, Colour]] = [(o, (a,)) for o, _, a in stops]
    coords = _coords(kind, geometry, t0, t1)
    shading: Shading = (kind, coords, (t0, t1), _pieces(colours, spread, t0, t1), 3)
    shared = {a for _, _, a in stops}
    if len(shared) == 1:
        return Server(shading, None, matrix, shared.pop())
    alpha: Shading = (kind, coords, (t0, t1), _pieces(alphas, spread, t0, t1), 1)
    return Server(shading, alpha, matrix, 1.0)


def _pad_ends(kind: Kind, stops: list[Stop]) -> tuple[float, float]:
    """The domain of a padded gradient: 0-1, widened where stops change colour right at an
    end (PDF pads with the function's value at the end of its domain)."""
    t0 = -PAD_MARGIN if kind == "linear" and len(stops) > 1 and stops[1][0] == 0 else 0.0
    t1 = 1 + PAD_MARGIN if len(stops) > 1 and stops[-2][0] == 1 else 1.0
    return t0, t1


def _coords(kind: Kind, geometry: tuple[float, ...], t0: float, t1: float) -> tuple[float, ...]:
    """The shading's coordinates at the ends of its domain."""
    if kind == "linear":
        x1, y1, x2, y2 = geometry
        return (x1 + t0 * (x2 - x1), y1 + t0 * (y2 - y1), x1 + t1 * (x2 - x1), y1 + t1 * (y2 - y1))
    fx, fy, fr, cx, cy, r = geometry

    def circle(t: float) -> tuple[float, float, float]:
        """The centre and radius of the circle at ``t``."""
        return (fx + t * (cx - fx), fy + t * (cy - fy), fr + t * (r - fr))

    return (*circle(t0), *circle(t1))


def _reach(
    kind: Kind, geometry: tuple[float, ...], matrix: Matrix, painted: Box
) -> tuple[float, float]:
    """The range of the gradient's parameter over the painted box (at most MAX_PERIODS)."""
    inverse = invert(matrix)
    assert inverse is not None
    x0, y0, x1, y1 = painted
    corners = [apply(inverse, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    if kind == "linear":
        ax, ay, bx, by = geometry
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        ts = [((x - ax) * dx + (y - ay) * dy) / length2 for x, y in corners]
        low, high = min(ts), max(ts)
    else:
        low, high = 0.0, max(_radial_reach(geometry, x, y) for x, y in corners)
    low = max(math.floor(low), -MAX_PERIODS // 2)
    high = min(math.ceil(high), low + MAX_PERIODS)
    return float(min(low, 0)), float(max(high, 1))


def _radial_reach(geometry: tuple[float, ...], x: float, y: float) -> float:
    """The smallest t from 1 whose circle holds the point (found by halving)."""
    fx, fy, fr, cx, cy, r = geometry

    def inside(t: float) -> bool:
        """Whether the circle at ``t`` holds the point."""
        ccx, ccy, rr = fx + t * (cx - fx), fy + t * (cy - fy), fr + t * (r - fr)
        return math.hypot(x - ccx, y - ccy) <= rr

    high = 1.0
    while not inside(high) and high < MAX_PERIODS:
        high *= 2
    low = high / 2 if high > 1 else 0.0
    for _ in range(30):
        middle = (low + high) / 2
        if inside(middle):
            high = middle
        else:
            low = middle
    return high


def _pieces(
    stops: list[tuple[float, Colour]], spread: str, t0: float, t1: float
) -> tuple[Piece, ...]:
    """Pieces (start, end, colour0, colour1) across [t0, t1]: the stops padded to 0-1, and
    repeated or reflected in every period beyond."""
    base: list[Piece] = []
    if stops[0][0] > 0:
        base.append((0.0, stops[0][0], stops[0][1], stops[0][1]))
    for (o0, c0), (o1, c1) in zip(stops, stops[1:], strict=False):
        if o1 > o0:
            base.append((o0, o1, c0, c1))
    if stops[-1][0] < 1:
        base.append((stops[-1][0], 1.0, stops[-1][1], stops[-1][1]))
    if not base:  # every stop at one offset
        base.append((0.0, 1.0, stops[-1][1], stops[-1][1]))
    if spread == "pad" or (t0 == 0 and t1 == 1):
        head = [(t0, 0.0, stops[0][1], stops[0][1])] if t0 < 0 else []
        tail = [(1.0, t1, stops[-1][1], stops[-1][1])] if t1 > 1 else []
        return tuple(head + base + tail)
    mirrored = [(1 - e, 1 - s, c1, c0) for s, e, c0, c1 in reversed(base)]
    out: list[Piece] = []
    for period in range(int(t0), int(t1)):
        pieces = mirrored if spread == "reflect" and period % 2 else base
        out.extend((s + period, e + period, c0, c1) for s, e, c0, c1 in pieces)
    return tuple(out)
