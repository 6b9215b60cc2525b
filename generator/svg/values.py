"""SVG attribute values read as SVG 1.1/2 and resvg read them: numbers and lists of them,
lengths in every unit, colours in every CSS notation, paints with ``url(#id) fallback``, and
transform lists. Each reader raises ``ValueError`` for text it cannot read, so the caller can
treat the attribute as not given, as SVG says an invalid value is.
"""

from __future__ import annotations

import colorsys
import math
import re
from functools import lru_cache
from typing import NamedTuple

Matrix = tuple[float, float, float, float, float, float]
Rgb = tuple[float, float, float]  # a colour's red, green and blue, 0-1
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
DEFAULT_FONT_SIZE = 12.0  # user units, resvg's default (the CSS ``medium``)
# user units per unit; em, ex and % depend on the element and are resolved by the caller
ABSOLUTE_UNITS = {
    "": 1.0,
    "px": 1.0,
    "pt": 4 / 3,
    "pc": 16.0,
    "mm": 96 / 25.4,
    "cm": 96 / 2.54,
    "in": 96.0,
    "q": 96 / 101.6,
}
LIMIT = 1e9  # larger numbers are treated as invalid: no drawing needs them

_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_LENGTH = re.compile(rf"\s*({_NUMBER})\s*(%|[a-zA-Z]*)\s*")
_NUMBERS = re.compile(_NUMBER)
_LIST_SEPARATOR = re.compile(r"[\s,]+")
_TRANSFORM = re.compile(r"[\s,]*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^()]*)\)\s*")


class Length(NamedTuple):
    """A number and its unit ('' for user units, '%', 'em', 'ex' or an absolute unit)."""

    value: float
    unit: str


class Paint(NamedTuple):
    """A fill or stroke: a colour (r, g, b, alpha in 0-1), ``current`` (currentColor), a
    reference to a paint server with its fallback, the paint of the ``use`` that draws the
    element (``context``: 'fill' or 'stroke'), or nothing (all None)."""

    colour: tuple[float, float, float, float] | None = None
    current: bool = False
    url: str | None = None
    fallback: Paint | None = None
    context: str | None = None


NO_PAINT = Paint()


def finite(value: float) -> float:
    """The number if it is finite and not absurdly large, else ValueError."""
    if not math.isfinite(value) or abs(value) > LIMIT:
        raise ValueError(f"number out of range: {value}")
    return value


@lru_cache(maxsize=4096)
def number(text: str) -> float:
    """A single number."""
    text = text.strip()
    if _NUMBERS.fullmatch(text) is None:
        raise ValueError(f"not a number: {text!r}")
    return finite(float(text))


@lru_cache(maxsize=4096)
def length(text: str) -> Length:
    """A length: a number with an optional unit."""
    match = _LENGTH.fullmatch(text)
    if match is None:
        raise ValueError(f"not a length: {text!r}")
    unit = match[2].lower()
    if unit not in ABSOLUTE_UNITS and unit not in ("%", "em", "ex"):
        raise ValueError(f"unknown unit: {text!r}")
    return Length(finite(float(match[1])), unit)


@lru_cache(maxsize=2048)
def numbers(text: str) -> tuple[float, ...]:
    """A list of numbers separated by white space and/or commas."""
    text = text.strip()
    if not text:
        return ()
    return tuple(number(v) for v in _LIST_SEPARATOR.split(text.strip(", \t\r\n")))


def number_prefix(text: str) -> tuple[float, ...]:
    """The numbers at the start of a list, up to the first that is not one (SVG's error
    handling for ``points``)."""
    out = []
    for word in _LIST_SEPARATOR.split(text.strip(", \t\r\n")):
        if not word:
            continue
        try:
            out.append(number(word))
        except ValueError:
            break
    return tuple(out)


def lengths(text: str) -> tuple[Length, ...]:
    """A list of lengths separated by white space and/or commas."""
    text = text.strip(", \t\r\n")
    if not text:
        return ()
    return tuple(length(v) for v in _LIST_SEPARATOR.split(text))


def opacity(text: str | None) -> float:
    """An opacity (a number or a percentage), clamped to 0-1; 1 when not given or invalid."""
    if text is None:
        return 1.0
    try:
        value = length(text)
    except ValueError:
        return 1.0
    if value.unit not in ("", "%"):
        return 1.0
    scaled = value.value / 100 if value.unit == "%" else value.value
    return min(1.0, max(0.0, scaled))


# --- transforms ------------------------------------------------------------------------------


@lru_cache(maxsize=2048)
def transform(text: str) -> Matrix:
    """The matrix of an SVG transform list; ValueError when the list is invalid."""
    matrix = IDENTITY
    position = 0
    text = text.strip(" \t\r\n,")
    while position < len(text):
        match = _TRANSFORM.match(text, position)
        if match is None:
            raise ValueError(f"invalid transform {text!r}")
        position = match.end()
        matrix = multiply(matrix, _step(match[1], numbers(match[2])))
    return matrix


def _step(name: str, args: tuple[float, ...]) -> Matrix:
    """One transform function as a matrix."""
    n = len(args)
    if name == "matrix" and n == 6:
        return args  # type: ignore[return-value]
    if name == "translate" and n in (1, 2):
        return (1.0, 0.0, 0.0, 1.0, args[0], args[1] if n == 2 else 0.0)
    if name == "scale" and n in (1, 2):
        return (args[0], 0.0, 0.0, args[1] if n == 2 else args[0], 0.0, 0.0)
    if name == "rotate" and n in (1, 3):
        a = math.radians(args[0])
        cos, sin = math.cos(a), math.sin(a)
        cx, cy = (args[1], args[2]) if n == 3 else (0.0, 0.0)
        return (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)
    if name == "skewX" and n == 1:
        return (1.0, 0.0, math.tan(math.radians(args[0])), 1.0, 0.0, 0.0)
    if name == "skewY" and n == 1:
        return (1.0, math.tan(math.radians(args[0])), 0.0, 1.0, 0.0, 0.0)
    raise ValueError(f"invalid {name}{args}")


def thinnest_scale(m: tuple[float, ...]) -> float:
    """The least a transform enlarges a length in any direction (its smaller singular value):
    what a line's width becomes at the least."""
    a, b, c, d = m[:4]
    s = a * a + b * b + c * c + d * d
    det = abs(a * d - b * c)
    return math.sqrt(max(0.0, (s - math.sqrt(max(0.0, s * s - 4 * det * det))) / 2))


def multiply(m: Matrix, n: Matrix) -> Matrix:
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


def invert(m: Matrix) -> Matrix | None:
    """The inverse matrix, or None when ``m`` squashes the plane to a line or a point."""
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) < 1e-12 or not math.isfinite(det):
        return None
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """The point (x, y) transformed by ``m``."""
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def bbox_through(
    m: Matrix, box: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """The bounding box (x0, y0, x1, y1) of ``box`` transformed by ``m``."""
    x0, y0, x1, y1 = box
    points = [apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


# --- colours ---------------------------------------------------------------------------------

_NAMED = """\
aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc
bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a
burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50
cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b
darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9
darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc
darkred 8b0000 darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f
darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff
dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0
forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700
goldenrod daa520 gray 808080 grey 808080 green 008000 greenyellow adff2f honeydew f0fff0
hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa
lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080
lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90
lightgrey d3d3d3 lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa
lightslategray 778899 lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0
lime 00ff00 limegreen 32cd32 linen faf0e6 magenta ff00ff maroon 800000
mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db
mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc
mediumvioletred c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5
navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500
orangered ff4500 orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee
palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd
powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f
royalblue 4169e1 saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57
seashell fff5ee sienna a0522d silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090
slategrey 708090 snow fffafa springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080
thistle d8bfd8 tomato ff6347 turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff
whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32"""
NAMED_COLOURS = dict(zip(_NAMED.split()[0::2], _NAMED.split()[1::2], strict=True))
_FUNCTION = re.compile(r"(rgba?|hsla?)\(([^()]*)\)", re.IGNORECASE)


@lru_cache(maxsize=2048)
def colour(text: str) -> tuple[float, float, float, float]:
    """(r, g, b, alpha), each 0-1, of a CSS colour; ValueError when it is none (an
    ``icc-color(...)`` after the colour too, as in resvg and browsers)."""
    lower = text.strip().lower()
    if lower.startswith("#"):
        return _hex(lower[1:])
    if lower == "transparent":
        return (0.0, 0.0, 0.0, 0.0)
    if lower in NAMED_COLOURS:
        return _hex(NAMED_COLOURS[lower])
    match = _FUNCTION.fullmatch(lower)
    if match is None:
        raise ValueError(f"not a colour: {text!r}")
    return _function(match[1], match[2])


def _hex(digits: str) -> tuple[float, float, float, float]:
    """A colour in hex digits (3, 4, 6 or 8 of them)."""
    if len(digits) in (3, 4):
        digits = "".join(d * 2 for d in digits)
    if len(digits) not in (6, 8) or any(d not in "0123456789abcdef" for d in digits):
        raise ValueError(f"not a colour: #{digits}")
    channels = [int(digits[i : i + 2], 16) / 255 for i in range(0, len(digits), 2)]
    return (channels[0], channels[1], channels[2], channels[3] if len(channels) == 4 else 1.0)


def _function(name: str, body: str) -> tuple[float, float, float, float]:
    """rgb(), rgba(), hsl() or hsla() with commas or the CSS 4 space and slash syntax."""
    if "," in body:
        parts = [p.strip() for p in body.split(",")]
    else:
        main, _, after_slash = body.partition("/")
        parts = main.split() + ([after_slash.strip()] if after_slash.strip() else [])
    if len(parts) not in (3, 4):
        raise ValueError(f"{name}() takes 3 or 4 values")
    values = [length(p) for p in parts]
    alpha = 1.0
    if len(values) == 4:
        a = values[3]
        alpha = min(1.0, max(0.0, a.value / 100 if a.unit == "%" else a.value))
    if name.startswith("rgb"):
        rgb = [_channel(v) for v in values[:3]]
        return (rgb[0], rgb[1], rgb[2], alpha)
    hue, saturation, lightness = values[:3]
    if hue.unit not in ("", "deg"):
        raise ValueError("hue in an unknown unit")
    s = min(1.0, max(0.0, saturation.value / 100))
    lum = min(1.0, max(0.0, lightness.value / 100))
    r, g, b = colorsys.hls_to_rgb((hue.value % 360) / 360, lum, s)
    return (r, g, b, alpha)


def _channel(value: Length) -> float:
    """One rgb() channel, 0-255 or a percentage, clamped to 0-1."""
    if value.unit == "%":
        scaled = value.value / 100
    elif value.unit == "":
        scaled = value.value / 255
    else:
        raise ValueError("rgb() channel with a unit")
    return min(1.0, max(0.0, scaled))


@lru_cache(maxsize=2048)
def paint(text: str) -> Paint:
    """A fill or stroke value; ValueError when it is invalid (then it counts as not given)."""
    text = text.strip()
    if text == "none":
        return NO_PAINT
    if text == "currentColor":
        return Paint(current=True)
    if text in ("context-fill", "context-stroke"):
        return Paint(context=text[len("context-") :])
    if text.startswith("url("):
        end = text.find(")")
        if end < 0:
            raise ValueError(f"unclosed url( in {text!r}")
        target = text[4:end].strip().strip("'\"")
        rest = text[end + 1 :].strip()
        fallback = paint(rest) if rest else None
        return Paint(url=target[1:] if target.startswith("#") else target, fallback=fallback)
    return Paint(colour=colour(text))


def url_id(text: str | None) -> str | None:
    """The id in ``url(#id)`` (None for ``none`` or when not given); ValueError otherwise."""
    if text is None:
        return None
    text = text.strip()
    if text == "none":
        return None
    if not text.startswith("url(") or not text.endswith(")"):
        raise ValueError(f"not a url(): {text!r}")
    target = text[4:-1].strip().strip("'\"")
    return target[1:] if target.startswith("#") else target
