"""The fast path for art: the SVG our templates produce, compiled once into a short list of PDF
operations and drawn straight onto a reportlab canvas, without svglib's tree of shapes.

``compile_svg`` accepts only the subset the templates use and returns None for anything else,
so the caller falls back to svglib:

- a root ``<svg>`` with ``width``/``height`` (mm, pt, px or user units) and a ``viewBox``,
  mapped to the viewport as svglib maps it (``preserveAspectRatio`` included);
- ``g`` (with ``transform``: translate, scale, rotate with an optional centre, matrix, skewX,
  skewY), ``rect`` (``rx``/``ry``), ``circle``, ``ellipse``, ``line``, ``polyline``,
  ``polygon``, ``path`` (every command, relative or absolute; arcs become Béziers), ``text``
  with plain ``tspan`` children, an empty ``defs``, and ``title``/``desc``/``metadata``;
- the presentation attributes fill, fill-opacity, fill-rule, stroke, stroke-width,
  stroke-opacity, stroke-dasharray, stroke-dashoffset, stroke-linecap, stroke-linejoin,
  stroke-miterlimit, opacity, display, visibility, color, font-family, font-size,
  font-weight, font-style and text-anchor, as attributes or in ``style="a: b; c: d"``,
  inherited by children as in SVG.

Anything else (images, ``use``, gradients, clipping, masks, filters, patterns, CSS classes and
``<style>``, ``url(#...)`` paints, percentages, other units, unknown elements or attributes)
returns None. Where svglib and SVG disagree the fast path follows SVG:

- ``opacity`` (svglib ignores it) multiplies the fill and stroke alpha of the element and of
  everything in a group (each shape on its own, not the group as one layer);
- ``fill-opacity`` applies to text too (svglib drops it there);
- a path or polyline that is only straight lines along one line has no fill (svglib fills a
  closed copy of it, which viewers paint as a hairline);
- ``stroke-dashoffset`` and ``stroke-miterlimit`` are applied;
- a ``tspan`` is measured in its own font and a text anchors as one piece;
- the families sans-serif, Vera, PnpSans, Helvetica and Arial (and text without a family) all
  draw in the embedded PnpSans, where svglib picks the standard, unembedded Helvetica for
  "Helvetica".

As in svglib, text is filled only (a stroke on text is not drawn).

A ``Drawer`` holds only its size and the prepared operations: PDF path operators as literal
strings, with the few calls that must go through reportlab's canvas (save and restore,
transforms, transparency, text, so reportlab keeps its graphics state, ExtGState resources and
embedded font subsets right).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

from lxml import etree
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import Svg2RlgAttributeConverter
from svglib.utils import bezier_arc_from_end_points

from generator.art.fonts import FAMILIES, VARIANTS, register_fonts
from generator.art.images import draw_image

NS = "{http://www.w3.org/2000/svg}"
XML_NS = "{http://www.w3.org/XML/1998/namespace}"
XLINK_NS = "{http://www.w3.org/1999/xlink}"
PX_TO_PT = 0.75  # SVG user units (px) to points, as svglib
UNITS = {"": 1.0, "px": 1.0, "pt": 96 / 72, "mm": 96 / 25.4}  # to user units
KAPPA = 4 / 3 * (math.sqrt(2) - 1)  # a quarter circle as one cubic Bézier
DEFAULT_FONT_SIZE = 16.0  # user units: svglib's 12 pt
DEFAULT_MITER = 10  # the PDF default, which svglib leaves in place

# operations other than literal PDF text
SAVE, RESTORE, TRANSFORM, FILL_ALPHA, STROKE_ALPHA, TEXT, IMAGE = range(7)

INHERITED = frozenset(
    (
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "font-family",
        "font-size",
        "font-weight",
        "font-style",
        "text-anchor",
        "visibility",
        "color",
    )
)
NOT_INHERITED = frozenset(("opacity", "display"))
PROPERTIES = INHERITED | NOT_INHERITED
# attributes and properties that do not change what is drawn
HARMLESS = frozenset(
    (
        "id",
        "version",
        "baseProfile",
        "lang",
        "__rules_applied",  # svglib's mark on a tree it has styled
        "shape-rendering",
        "text-rendering",
        "color-rendering",
        "image-rendering",
        "color-interpolation",
        "clip-rule",
        "pointer-events",
        "cursor",
        "overflow",
    )
)
GEOMETRY = {
    "rect": frozenset(("x", "y", "width", "height", "rx", "ry", "transform")),
    "circle": frozenset(("cx", "cy", "r", "transform")),
    "ellipse": frozenset(("cx", "cy", "rx", "ry", "transform")),
    "line": frozenset(("x1", "y1", "x2", "y2", "transform")),
    "polyline": frozenset(("points", "transform")),
    "polygon": frozenset(("points", "transform")),
    "path": frozenset(("d", "transform")),
    "text": frozenset(("x", "y", "transform")),
    "g": frozenset(("transform",)),
    "image": frozenset(("x", "y", "width", "height", "transform", "preserveAspectRatio", "href")),
    "tspan": frozenset(),
    "svg": frozenset(("width", "height", "viewBox", "preserveAspectRatio")),
}
SKIPPED = frozenset(("title", "desc", "metadata"))
LINE_CAPS = {"butt": 0, "round": 1, "square": 2}
LINE_JOINS = {"miter": 0, "round": 1, "bevel": 2}
ALIGNS = frozenset(
    ["none"] + [f"x{x}Y{y}" for x in ("Min", "Mid", "Max") for y in ("Min", "Mid", "Max")]
)

_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_LENGTH = re.compile(rf"\s*({_NUMBER})(px|pt|mm)?\s*")
_NUMBERS = re.compile(_NUMBER)
_NUMBER_LIST = re.compile(rf"[\s,]*(?:{_NUMBER}[\s,]*)*")
_PATH_TOKENS = re.compile(rf"[MmLlHhVvCcSsQqTtAaZz]|{_NUMBER}")
_PATH_DATA = re.compile(rf"[\s,]*(?:(?:[MmLlHhVvCcSsQqTtAaZz]|{_NUMBER})[\s,]*)*")
_TRANSFORM = re.compile(r"[\s,]*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^()]*)\)")
_RGB_OPERATOR = re.compile(r"([\d.+-]+) ([\d.+-]+) ([\d.+-]+) (rg|RG)\b")
PATH_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7}
COMMANDS = frozenset("MmLlHhVvCcSsQqTtAaZz")

_COLOURS = Svg2RlgAttributeConverter()  # svglib's own colour parsing, for names and rgb()/hsl()


class Unsupported(Exception):
    """The SVG uses something outside the fast path's subset."""


class Drawer:
    """Art compiled for the fast path: its size in points and the operations that draw it."""

    __slots__ = ("width", "height", "ops")

    def __init__(self, width: float, height: float, ops: tuple):
        self.width = width
        self.height = height
        self.ops = ops

    def draw(self, canvas: Canvas, cmyk: bool = False) -> None:
        """Draw the art with its viewport's lower-left corner at the canvas origin, in points,
        as ``renderPDF.draw(drawing, canvas, 0, 0)`` draws svglib's drawing; ``cmyk`` sets
        every colour in CMYK (black generation at the full grey component)."""
        canvas.saveState()
        for op in self.ops:
            if op.__class__ is str:
                canvas.addLiteral(_RGB_OPERATOR.sub(_to_cmyk, op) if cmyk else op)
                continue
            code = op[0]
            if code == SAVE:
                canvas.saveState()
            elif code == RESTORE:
                canvas.restoreState()
            elif code == TRANSFORM:
                canvas.transform(*op[1])
            elif code == FILL_ALPHA:
                canvas.setFillAlpha(op[1])
            elif code == STROKE_ALPHA:
                canvas.setStrokeAlpha(op[1])
            elif code == IMAGE:
                _, path, x, y, w, h = op
                canvas.saveState()
                canvas.transform(w, 0, 0, -h, x, y + h)  # SVG's y runs down
                draw_image(canvas, path)
                canvas.restoreState()
            else:
                _, font, size, x, y, text = op
                t = canvas.beginText()
                t.setTextTransform(1, 0, 0, -1, x, y)  # SVG's y runs down
                t.setFont(font, size)
                t.textOut(text)
                canvas.drawText(t)
        canvas.restoreState()


def pdf_number(*values: float) -> str:
    """Numbers for a content stream: four decimals at most, no trailing zeros (reportlab's
    fp_str does the same, slower when its C accelerator is missing)."""
    return " ".join([f"{v:.4f}".rstrip("0").rstrip(".") for v in values])


def _to_cmyk(match: re.Match[str]) -> str:
    c, m, y, k = colors.rgb2cmyk(float(match[1]), float(match[2]), float(match[3]))
    return f"{pdf_number(c, m, y, k)} {'k' if match[4] == 'rg' else 'K'}"


def compile_svg(root: etree._Element, base: Path | None = None) -> Drawer | None:
    """A drawer for the SVG if it only uses the supported subset, else None (use svglib).
    ``base`` is the folder relative image references are read from (none allowed without)."""
    register_fonts()
    try:
        return _Compiler(base).compile(root)
    except (Unsupported, ValueError, ArithmeticError, LookupError):
        return None  # values svglib may still make something of


# --- values ----------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _length(value: str) -> float:
    """A length in user units: a number, or px, pt or mm."""
    match = _LENGTH.fullmatch(value)
    if match is None:
        raise Unsupported(f"length {value!r}")
    return float(match[1]) * UNITS[match[2] or ""]


def _geometry(attrs: dict[str, str], name: str, default: float = 0.0) -> float:
    value = attrs.get(name)
    return default if value is None else _length(value)


@lru_cache(maxsize=1024)
def _numbers(value: str) -> tuple[float, ...]:
    """A list of numbers separated by white space and/or commas."""
    if _NUMBER_LIST.fullmatch(value) is None:
        raise Unsupported(f"numbers {value!r}")
    return tuple(float(v) for v in _NUMBERS.findall(value))


@lru_cache(maxsize=1024)
def _colour(value: str) -> tuple[float, float, float, float] | None:
    """(r, g, b, alpha) of a paint, None for 'none'; what svglib cannot read is unsupported."""
    if value == "none":
        return None
    if value.startswith("#") and len(value) in (4, 5, 7, 9):
        digits = value[1:]
        if len(digits) < 6:
            digits = "".join(d * 2 for d in digits)
        try:
            channels = [int(digits[i : i + 2], 16) / 255 for i in range(0, len(digits), 2)]
        except ValueError:
            raise Unsupported(f"colour {value!r}") from None
        return (channels[0], channels[1], channels[2], channels[3] if len(channels) == 4 else 1)
    if value.startswith(("url(", "currentColor", "#")):
        raise Unsupported(f"paint {value!r}")
    colour = _COLOURS.convertColor(value)
    if colour is None:
        raise Unsupported(f"colour {value!r}")
    return (colour.red, colour.green, colour.blue, colour.alpha)


def _paint_colour(style: dict[str, str], name: str, default: str):
    value = style.get(name, default)
    if value == "currentColor":
        value = style.get("color")
        if value is None or value == "currentColor":
            raise Unsupported("currentColor without a color")
    return _colour(value)


@lru_cache(maxsize=256)
def _number(value: str) -> float:
    """A single number."""
    if _NUMBERS.fullmatch(value.strip()) is None:
        raise Unsupported(f"number {value!r}")
    return float(value)


def _opacity(value: str | None) -> float:
    """An opacity, clamped to 0-1 as SVG says (1 when not given)."""
    return 1.0 if value is None else min(1.0, max(0.0, _number(value)))


@lru_cache(maxsize=2048)
def _transform(value: str) -> tuple[float, ...] | None:
    """The matrix of an SVG transform list (None for the identity)."""
    matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    position = 0
    value = value.rstrip(" \t\r\n,")
    while position < len(value):
        match = _TRANSFORM.match(value, position)
        if match is None:
            raise Unsupported(f"transform {value!r}")
        position = match.end()
        name, args = match[1], _numbers(match[2])
        n = len(args)
        if name == "matrix" and n == 6:
            step = args
        elif name == "translate" and n in (1, 2):
            step = (1, 0, 0, 1, args[0], args[1] if n == 2 else 0)
        elif name == "scale" and n in (1, 2):
            step = (args[0], 0, 0, args[1] if n == 2 else args[0], 0, 0)
        elif name == "rotate" and n in (1, 3):
            a = math.radians(args[0])
            cos, sin = math.cos(a), math.sin(a)
            cx, cy = (args[1], args[2]) if n == 3 else (0, 0)
            step = (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)
        elif name == "skewX" and n == 1:
            step = (1, 0, math.tan(math.radians(args[0])), 1, 0, 0)
        elif name == "skewY" and n == 1:
            step = (1, math.tan(math.radians(args[0])), 0, 1, 0, 0)
        else:
            raise Unsupported(f"transform {value!r}")
        matrix = _multiply(matrix, step)
    return None if matrix == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0) else matrix


def _multiply(m: tuple, n: tuple) -> tuple[float, ...]:
    """The matrix that applies ``n`` first, then ``m`` (SVG's order in a transform list)."""
    a1, b1, c1, d1, e1, f1 = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


@lru_cache(maxsize=256)
def _style_attribute(value: str) -> tuple[tuple[str, str], ...]:
    """The declarations of a ``style`` attribute; only presentation properties are allowed."""
    if "/*" in value or "!" in value or "\\" in value:
        raise Unsupported("style with comments, !important or escapes")
    out = []
    for declaration in value.split(";"):
        if not declaration.strip():
            continue
        name, colon, text = declaration.partition(":")
        name = name.strip()
        if not colon or (name not in PROPERTIES and name not in HARMLESS):
            raise Unsupported(f"style {declaration!r}")
        out.append((name, text.strip()))
    return tuple(out)


@lru_cache(maxsize=256)
def _font(family: str, weight: str, style: str) -> str:
    """The embedded font for a font-family list, weight and style."""
    first = family.split(",")[0].strip().strip("'\"").strip().lower()
    if first not in _FAMILIES or weight not in ("normal", "bold"):
        raise Unsupported(f"font {family!r} {weight}")
    if style not in ("normal", "italic"):
        raise Unsupported(f"font style {style!r}")
    return VARIANTS[(weight, style)][0]


_FAMILIES = frozenset(f.lower() for f in FAMILIES)


@lru_cache(maxsize=1024)
def _paint(
    fill: str | None,
    fill_opacity: str | None,
    fill_rule: str | None,
    stroke: str | None,
    stroke_width: str | None,
    stroke_opacity: str | None,
    dasharray: str | None,
    dashoffset: str | None,
    linecap: str | None,
    linejoin: str | None,
    miterlimit: str | None,
    color: str | None,
    opacity: float,
    can_fill: bool,
) -> tuple | None:
    """How a shape is painted: (fill rgb, fill alpha, stroke rgb, stroke alpha, width, cap,
    join, miter limit, dash, painting operator), or None when nothing shows."""
    style = {"color": color} if color is not None else {}
    if fill is not None:
        style["fill"] = fill
    if stroke is not None:
        style["stroke"] = stroke
    fill_rgb = stroke_rgb = None
    fill_alpha = stroke_alpha = 0.0
    evenodd = False
    if can_fill:
        colour = _paint_colour(style, "fill", "black")
        if colour is not None:
            fill_alpha = colour[3] * _opacity(fill_opacity) * opacity
            fill_rgb = colour[:3] if fill_alpha > 0 else None
        if fill_rule not in (None, "nonzero", "evenodd"):
            raise Unsupported(f"fill-rule {fill_rule!r}")
        evenodd = fill_rule == "evenodd"
    colour = _paint_colour(style, "stroke", "none")
    width = 1.0 if stroke_width is None else _length(stroke_width)
    if width < 0:
        raise Unsupported("negative stroke-width")
    if colour is not None and width > 0:
        stroke_alpha = colour[3] * _opacity(stroke_opacity) * opacity
        stroke_rgb = colour[:3] if stroke_alpha > 0 else None
    cap = join = miter = dash = None
    if stroke_rgb is not None:
        cap = LINE_CAPS.get(linecap or "butt")
        join = LINE_JOINS.get(linejoin or "miter")
        if cap is None or join is None:
            raise Unsupported(f"stroke-linecap {linecap!r} / stroke-linejoin {linejoin!r}")
        if miterlimit is not None:
            miter = _number(miterlimit)
            if miter < 1:
                raise Unsupported("stroke-miterlimit below 1")
        dash = "[] 0 d"
        if dasharray is not None and dasharray != "none":
            lengths = [_length(v) for v in dasharray.replace(",", " ").split()]
            if any(v < 0 for v in lengths):
                raise Unsupported("negative dash")
            if sum(lengths) > 0:
                offset = _length(dashoffset) if dashoffset not in (None, "none") else 0.0
                dash = f"[{pdf_number(*lengths)}] {pdf_number(offset)} d"
    if fill_rgb is None and stroke_rgb is None:
        return None
    if fill_rgb is not None and stroke_rgb is not None:
        operator = "B*" if evenodd else "B"
    elif fill_rgb is not None:
        operator = "f*" if evenodd else "f"
    else:
        operator = "S"
    return (fill_rgb, fill_alpha, stroke_rgb, stroke_alpha, width, cap, join, miter, dash, operator)


def _clean_text(text: str | None, strip_start: bool, strip_end: bool) -> str:
    """svglib's white-space handling of text (xml:space="default")."""
    if not text:
        return ""
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\t", " ")
    if strip_start:
        text = text.lstrip()
    if strip_end:
        text = text.rstrip()
    while "  " in text:
        text = text.replace("  ", " ")
    return text


# --- paths -----------------------------------------------------------------------------------


def _path_data(d: str) -> str:
    """The PDF path operators for SVG path data, in user units."""
    return _path(d)[0]


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


@lru_cache(maxsize=2048)
def _path(d: str) -> tuple[str, bool]:
    """The PDF path operators for SVG path data, in user units, and whether it encloses any
    area to fill: straight lines do not (PDF viewers paint their fill as a hairline, SVG
    paints nothing)."""
    if _PATH_DATA.fullmatch(d) is None:
        raise Unsupported("path data")
    tokens = _PATH_TOKENS.findall(d)
    out: list[str] = []
    subpaths: list[list[tuple[float, float]]] = []  # their points, while all are straight
    curved = False
    x = y = start_x = start_y = 0.0
    command = ""
    previous = ""  # the command of the previous segment, for S and T
    control_x = control_y = 0.0  # its last control point
    closed = False
    i, n = 0, len(tokens)
    while i < n:
        token = tokens[i]
        if token in COMMANDS:
            command = token
            i += 1
            if command in "Zz":
                if out:
                    out.append("h")
                x, y = start_x, start_y
                closed = True
                previous = "Z"
                continue
            if i >= n or tokens[i] in COMMANDS:
                raise Unsupported("path command without its numbers")
        elif not command or command in "Zz":
            raise Unsupported("numbers without a path command")
        upper = command.upper()
        relative = command != upper
        if not out and upper != "M":
            raise Unsupported("path data must begin with a moveto")
        if closed and upper != "M":
            out.append(f"{pdf_number(x, y)} m")  # a new subpath from the closed one's start
            subpaths.append([(x, y)])
        closed = False
        count = PATH_ARGS[upper]
        if upper == "A":
            args, i = _arc_args(tokens, i)
        else:
            if i + count > n:
                raise Unsupported("path command short of numbers")
            args = [float(t) for t in tokens[i : i + count] if t not in COMMANDS]
            if len(args) != count:
                raise Unsupported("path command short of numbers")
            i += count
        if relative:
            if upper == "H":
                args[0] += x
            elif upper == "V":
                args[0] += y
            elif upper != "A":
                for k in range(0, count, 2):
                    args[k] += x
                    args[k + 1] += y
            else:
                args[5] += x
                args[6] += y
        if upper == "M":
            x, y = start_x, start_y = args
            out.append(f"{pdf_number(x, y)} m")
            command = "l" if relative else "L"  # further pairs are lines
            subpaths.append([(x, y)])
        elif upper in "LHV":
            if upper == "L":
                x, y = args
            elif upper == "H":
                x = args[0]
            else:
                y = args[0]
            out.append(f"{pdf_number(x, y)} l")
            subpaths[-1].append((x, y))
        elif upper in "CS":
            curved = True
            if upper == "S":
                if previous in ("C", "S"):
                    args = [2 * x - control_x, 2 * y - control_y, *args]
                else:
                    args = [x, y, *args]
            out.append(f"{pdf_number(*args)} c")
            control_x, control_y, x, y = args[2:]
        elif upper in "QT":
            curved = True
            if upper == "T":
                if previous in ("Q", "T"):
                    qx, qy = 2 * x - control_x, 2 * y - control_y
                else:
                    qx, qy = x, y
                end_x, end_y = args
            else:
                qx, qy, end_x, end_y = args
            out.append(
                f"{pdf_number(x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y))} "
                f"{pdf_number(end_x + 2 / 3 * (qx - end_x), end_y + 2 / 3 * (qy - end_y))} "
                f"{pdf_number(end_x, end_y)} c"
            )
            control_x, control_y, x, y = qx, qy, end_x, end_y
        else:  # A
            curved = True
            rx, ry, phi, large, sweep, end_x, end_y = args
            if end_x == x and end_y == y:
                pass  # the same point: no arc at all
            elif rx == 0 or ry == 0:
                out.append(f"{pdf_number(end_x, end_y)} l")
            else:
                curves = bezier_arc_from_end_points(
                    x, y, rx, ry, phi, int(large), int(sweep), end_x, end_y
                )
                for curve in curves[:-1]:
                    out.append(f"{pdf_number(*curve[2:8])} c")
                # the last one ends exactly on the end point
                out.append(f"{pdf_number(*curves[-1][2:6])} {pdf_number(end_x, end_y)} c")
            x, y = end_x, end_y
        previous = upper
    return " ".join(out), curved or not all(_flat(points) for points in subpaths)


def _arc_args(tokens: list[str], i: int) -> tuple[list[float], int]:
    """The seven numbers of an arc from ``tokens[i:]``; flags may be run together ('011')."""
    args: list[float] = []
    tokens_left = len(tokens)
    while len(args) < 7:
        if i >= tokens_left or tokens[i] in COMMANDS:
            raise Unsupported("arc short of numbers")
        token = tokens[i]
        if len(args) in (3, 4):  # a flag: one character, 0 or 1
            if token[0] not in "01":
                raise Unsupported(f"arc flag {token!r}")
            args.append(float(token[0]))
            if len(token) > 1:
                tokens[i] = token[1:]  # the rest of a run-together number
                if tokens[i] in COMMANDS or not _NUMBERS.fullmatch(tokens[i]):
                    raise Unsupported(f"arc flag {token!r}")
                continue
        else:
            args.append(float(token))
        i += 1
    return args, i


def _points(value: str) -> tuple[float, ...]:
    numbers = _numbers(value)
    if len(numbers) % 2:
        raise Unsupported("odd number of coordinates")
    return numbers


def _round_rect(x: float, y: float, w: float, h: float, rx: float, ry: float) -> str:
    kx, ky = rx * (1 - KAPPA), ry * (1 - KAPPA)
    x1, y1 = x + w, y + h
    return (
        f"{pdf_number(x + rx, y)} m {pdf_number(x1 - rx, y)} l "
        f"{pdf_number(x1 - kx, y, x1, y + ky, x1, y + ry)} c {pdf_number(x1, y1 - ry)} l "
        f"{pdf_number(x1, y1 - ky, x1 - kx, y1, x1 - rx, y1)} c {pdf_number(x + rx, y1)} l "
        f"{pdf_number(x + kx, y1, x, y1 - ky, x, y1 - ry)} c {pdf_number(x, y + ry)} l "
        f"{pdf_number(x, y + ky, x + kx, y, x + rx, y)} c h"
    )


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> str:
    """Four quarters from the rightmost point, towards +y (SVG's direction, and svglib's)."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return (
        f"{pdf_number(cx + rx, cy)} m "
        f"{pdf_number(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry)} c "
        f"{pdf_number(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy)} c "
        f"{pdf_number(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry)} c "
        f"{pdf_number(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)} c h"
    )


# --- the compiler ----------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _colour_operator(rgb: tuple[float, ...], operator: str) -> str:
    return f"{pdf_number(*rgb)} {operator}"


class _Compiler:
    """Walks the tree once, resolving styles, and writes the operations; the graphics state
    is followed so that a colour, width or dash is set only when it changes."""

    # what is known of the graphics state: fill, fill alpha, stroke, stroke alpha, line
    # width, cap, join, miter limit, dash (None: not known, so set before use)
    def __init__(self, base: Path | None = None) -> None:
        self.base = base
        self.ops: list = []
        self.literal: list[str] = []
        self.state: list = [None] * 9
        self.saved: list[list] = []

    # output

    def flush(self) -> None:
        if self.literal:
            self.ops.append(" ".join(self.literal))
            self.literal = []

    def op(self, *op: object) -> None:
        self.flush()
        self.ops.append(op)

    def save(self, matrix: tuple[float, ...]) -> None:
        self.op(SAVE)
        self.op(TRANSFORM, matrix)
        self.saved.append(self.state[:])

    def restore(self) -> None:
        self.state = self.saved.pop()
        if not self.literal and self.ops[-1][0] == TRANSFORM and self.ops[-2] == (SAVE,):
            del self.ops[-2:]  # nothing drawn in between
            return
        self.op(RESTORE)

    def fill_state(self, rgb: tuple[float, ...], alpha: float) -> None:
        state = self.state
        if state[0] != rgb:
            self.literal.append(_colour_operator(rgb, "rg"))
            state[0] = rgb
        if state[1] != alpha:
            self.op(FILL_ALPHA, alpha)
            state[1] = alpha

    def paint(self, paint: tuple, path: str) -> None:
        fill, fill_alpha, stroke, stroke_alpha, width, cap, join, miter, dash, operator = paint
        if fill is not None:
            self.fill_state(fill, fill_alpha)
        if stroke is not None:
            state = self.state
            literal = self.literal
            if state[2] != stroke:
                literal.append(_colour_operator(stroke, "RG"))
                state[2] = stroke
            if state[3] != stroke_alpha:
                self.op(STROKE_ALPHA, stroke_alpha)
                state[3] = stroke_alpha
                literal = self.literal
            if state[4] != width:
                literal.append(f"{pdf_number(width)} w")
                state[4] = width
            if state[5] != cap:
                literal.append(f"{cap} J")
                state[5] = cap
            if state[6] != join:
                literal.append(f"{join} j")
                state[6] = join
            if miter is None and state[7] is not None and state[7] != DEFAULT_MITER:
                miter = DEFAULT_MITER
            if miter is not None and state[7] != miter:
                literal.append(f"{pdf_number(miter)} M")
                state[7] = miter
            if state[8] != dash:
                literal.append(dash)
                state[8] = dash
        self.literal.append(path)
        self.literal.append(operator)

    # the tree

    def compile(self, root: etree._Element) -> Drawer:
        if root.tag != NS + "svg":
            raise Unsupported("not an SVG root")
        attrs, style, opacity, shown = self.attributes(root, "svg", {}, 1.0)
        width, height = attrs.get("width"), attrs.get("height")
        box = attrs.get("viewBox")
        if width is None or height is None or box is None:
            raise Unsupported("the root needs width, height and viewBox")
        box_x, box_y, box_w, box_h = _numbers(box) if len(_numbers(box)) == 4 else (0, 0, 0, 0)
        if box_w <= 0 or box_h <= 0:
            raise Unsupported("viewBox")
        width_pt, height_pt = _length(width) * PX_TO_PT, _length(height) * PX_TO_PT
        self.op(TRANSFORM, _viewport(attrs, box_x, box_y, box_w, box_h, width_pt, height_pt))
        if shown:
            self.children(root, style, opacity)
        self.flush()
        return Drawer(width_pt, height_pt, tuple(self.ops))

    def attributes(
        self, element: etree._Element, tag: str, style: dict[str, str], opacity: float
    ) -> tuple[dict[str, str], dict[str, str], float, bool]:
        """An element's geometry attributes, its computed style (inherited properties), the
        opacity it multiplies in, and whether it is displayed."""
        allowed = GEOMETRY[tag]
        geometry: dict[str, str] = {}
        own: dict[str, str] | None = None
        for name, value in element.attrib.items():
            if name in allowed:
                geometry[name] = value
            elif name in PROPERTIES:
                if own is None:
                    own = {}
                own[name] = value
            elif name == "style":
                if own is None:
                    own = {}
                own.setdefault("style", value)
            elif name in HARMLESS or name == XML_NS + "lang":
                pass
            elif tag == "image" and name == XLINK_NS + "href":
                pass  # read by image()
            elif name.startswith("{") and not name.startswith((XML_NS, XLINK_NS, NS)):
                pass  # another application's data (Inkscape's, say)
            else:
                raise Unsupported(f"attribute {name!r} on <{tag}>")
        shown = True
        if own is not None:
            declarations = own.pop("style", None)
            if declarations is not None:
                own.update(_style_attribute(declarations))  # style wins over attributes
            style = dict(style)
            for name, value in own.items():
                value = value.strip()
                if name == "opacity":
                    opacity *= _opacity(value)
                elif name == "display":
                    shown = value != "none"
                elif name in HARMLESS or value == "inherit":
                    continue
                else:
                    style[name] = value
        return geometry, style, opacity, shown

    def children(self, parent: etree._Element, style: dict[str, str], opacity: float) -> None:
        for element in parent:
            tag = element.tag
            if tag.__class__ is not str:
                continue  # a comment or processing instruction
            if not tag.startswith(NS):
                raise Unsupported(f"element {tag!r}")
            tag = tag[len(NS) :]
            if tag in SKIPPED:
                continue
            if tag == "defs" and len(element) == 0:
                continue  # svgwrite's empty <defs/>
            if tag not in GEOMETRY or tag in ("svg", "tspan"):
                raise Unsupported(f"element <{tag}>")
            attrs, own_style, own_opacity, shown = self.attributes(element, tag, style, opacity)
            if not shown:
                continue
            matrix = _transform(attrs["transform"]) if "transform" in attrs else None
            if matrix is not None:
                self.save(matrix)
            if tag == "g":
                self.children(element, own_style, own_opacity)
            elif tag == "image":
                self.image(element, attrs)
            elif tag == "text":
                self.text(element, attrs, own_style, own_opacity)
            else:
                if len(element):
                    raise Unsupported(f"<{tag}> with children")
                self.shape(tag, attrs, own_style, own_opacity)
            if matrix is not None:
                self.restore()

    def shape(self, tag: str, attrs: dict[str, str], style: dict[str, str], opacity: float) -> None:
        visibility = style.get("visibility")
        if visibility is not None and visibility != "visible":
            if visibility in ("hidden", "collapse"):
                return
            raise Unsupported(f"visibility {visibility!r}")
        path, fillable = _shape_path(tag, attrs)
        if not path:
            return
        get = style.get
        paint = _paint(
            get("fill"),
            get("fill-opacity"),
            get("fill-rule"),
            get("stroke"),
            get("stroke-width"),
            get("stroke-opacity"),
            get("stroke-dasharray"),
            get("stroke-dashoffset"),
            get("stroke-linecap"),
            get("stroke-linejoin"),
            get("stroke-miterlimit"),
            get("color"),
            opacity,
            fillable,
        )
        if paint is not None:
            self.paint(paint, path)

    def image(self, element: etree._Element, attrs: dict[str, str]) -> None:
        """A raster image from the game folder, stretched to its box (the templates' use)."""
        href = element.get(f"{XLINK_NS}href") or element.get("href") or ""
        if self.base is None or not href or ":" in href or href.startswith("/"):
            raise Unsupported("image reference")
        base = self.base.resolve()
        path = (base / href).resolve()
        if not path.is_relative_to(base) or not path.is_file():
            raise Unsupported("image outside the game folder")
        if attrs.get("preserveAspectRatio", "none") != "none":
            raise Unsupported("preserveAspectRatio on an image")
        x, y = _geometry(attrs, "x"), _geometry(attrs, "y")
        w, h = _geometry(attrs, "width"), _geometry(attrs, "height")
        if w > 0 and h > 0:
            self.op(IMAGE, path, x, y, w, h)

    def text(
        self, element: etree._Element, attrs: dict[str, str], style: dict[str, str], opacity: float
    ) -> None:
        """A line of text, its tspans measured in their own fonts, anchored as one piece."""
        pieces: list[tuple[dict[str, str], float, str]] = []
        last = len(element) - 1
        head = _clean_text(element.text, True, last < 0)
        if head:
            pieces.append((style, opacity, head))
        for index, child in enumerate(element):
            if child.tag.__class__ is not str:
                continue
            if child.tag != NS + "tspan" or len(child):
                raise Unsupported("text may only hold plain tspans")
            _, child_style, child_opacity, shown = self.attributes(child, "tspan", style, opacity)
            if child_style.get("text-anchor", "start") != style.get("text-anchor", "start"):
                raise Unsupported("text-anchor on a tspan")
            body = _clean_text(child.text, False, False)
            if body and shown:
                pieces.append((child_style, child_opacity, body))
            tail = _clean_text(child.tail, False, index == last)
            if tail:
                pieces.append((style, opacity, tail))
        x, y = _geometry(attrs, "x"), _geometry(attrs, "y")
        runs = []
        total = 0.0
        for piece_style, piece_opacity, body in pieces:
            get = piece_style.get
            font = _font(
                get("font-family", "sans-serif"),
                get("font-weight", "normal"),
                get("font-style", "normal"),
            )
            size = _length(get("font-size")) if "font-size" in piece_style else DEFAULT_FONT_SIZE
            width = stringWidth(body, font, size)
            visibility = get("visibility", "visible")
            if visibility not in ("visible", "hidden", "collapse"):
                raise Unsupported(f"visibility {visibility!r}")
            colour = _paint_colour(piece_style, "fill", "black")
            alpha = 0.0
            if colour is not None:
                alpha = colour[3] * _opacity(get("fill-opacity")) * piece_opacity
            if colour is not None and alpha > 0 and size > 0 and visibility == "visible":
                runs.append((total, font, size, body, colour[:3], alpha))
            total += width
        anchor = style.get("text-anchor", "start")
        if anchor not in ("start", "middle", "end"):
            raise Unsupported(f"text-anchor {anchor!r}")
        shift = {"start": 0.0, "middle": total / 2, "end": total}[anchor]
        for offset, font, size, body, rgb, alpha in runs:
            self.fill_state(rgb, alpha)
            self.op(TEXT, font, size, x - shift + offset, y, body)


def _shape_path(tag: str, attrs: dict[str, str]) -> tuple[str, bool]:
    """The PDF path of a shape, in user units ('' when it draws nothing), and whether it has
    an area to fill."""
    if tag == "path":
        d = attrs.get("d")
        return _path(d) if d else ("", False)
    if tag in ("polyline", "polygon"):
        points = _points(attrs.get("points", ""))
        if not points:
            return "", False
        out = [f"{pdf_number(points[0], points[1])} m"]
        out += [f"{pdf_number(points[k], points[k + 1])} l" for k in range(2, len(points), 2)]
        if tag == "polygon":
            out.append("h")
        return " ".join(out), not _flat(list(zip(points[0::2], points[1::2], strict=True)))
    return _basic_shape(tag, attrs), tag != "line"


def _basic_shape(tag: str, attrs: dict[str, str]) -> str:
    if tag == "rect":
        x, y = _geometry(attrs, "x"), _geometry(attrs, "y")
        w, h = _geometry(attrs, "width"), _geometry(attrs, "height")
        if w < 0 or h < 0:
            raise Unsupported("negative size")
        if w == 0 or h == 0:
            return ""
        rx = _length(attrs["rx"]) if "rx" in attrs else None
        ry = _length(attrs["ry"]) if "ry" in attrs else None
        if (rx or 0) < 0 or (ry or 0) < 0:
            raise Unsupported("negative corner radius")
        rx = ry if rx is None else rx  # one given: both alike
        ry = rx if ry is None else ry
        rx, ry = min(rx or 0.0, w / 2), min(ry or 0.0, h / 2)
        if rx == 0 or ry == 0:
            return f"{pdf_number(x, y, w, h)} re"
        return _round_rect(x, y, w, h, rx, ry)
    if tag == "circle":
        r = _geometry(attrs, "r")
        if r < 0:
            raise Unsupported("negative radius")
        return _ellipse(_geometry(attrs, "cx"), _geometry(attrs, "cy"), r, r) if r else ""
    if tag == "ellipse":
        rx, ry = _geometry(attrs, "rx"), _geometry(attrs, "ry")
        if rx < 0 or ry < 0:
            raise Unsupported("negative radius")
        if rx == 0 or ry == 0:
            return ""
        return _ellipse(_geometry(attrs, "cx"), _geometry(attrs, "cy"), rx, ry)
    if tag == "line":
        x1, y1 = _geometry(attrs, "x1"), _geometry(attrs, "y1")
        x2, y2 = _geometry(attrs, "x2"), _geometry(attrs, "y2")
        if x1 == x2 and y1 == y2:
            x1 *= 1.0000001  # as svglib: a zero-length line still shows its caps
        return f"{pdf_number(x1, y1)} m {pdf_number(x2, y2)} l"
    raise Unsupported(f"<{tag}>")


def _viewport(
    attrs: dict[str, str],
    box_x: float,
    box_y: float,
    box_w: float,
    box_h: float,
    width: float,
    height: float,
) -> tuple[float, ...]:
    """The matrix from user units to the viewport, y up, in points, as svglib sets it."""
    x_scale, y_scale = width / box_w, height / box_h
    tx = ty = 0.0
    words = (attrs.get("preserveAspectRatio") or "xMidYMid meet").split()
    align = words[0] if words else "xMidYMid"
    fit = words[1] if len(words) > 1 else "meet"
    if align not in ALIGNS or fit not in ("meet", "slice") or len(words) > 2:
        raise Unsupported(f"preserveAspectRatio {words}")
    if align != "none":
        scale = max(x_scale, y_scale) if fit == "slice" else min(x_scale, y_scale)
        if align.startswith("xMin"):
            tx = 0.0
        elif align.startswith("xMax"):
            tx = width - box_w * scale
        else:
            tx = (width - box_w * scale) / 2
        if "YMin" in align:
            ty = height - box_h * scale
        elif "YMax" in align:
            ty = 0.0
        else:
            ty = (height - box_h * scale) / 2
        x_scale = y_scale = scale
    return (x_scale, 0.0, 0.0, -y_scale, tx - x_scale * box_x, ty + y_scale * (box_h + box_y))
