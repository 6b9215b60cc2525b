"""Compiled art drawn onto a reportlab canvas: the ``Drawer`` and the PDF objects it makes.

A ``Drawer`` holds its size in points and a tuple of operations: PDF path and colour
operators as literal strings, and tuples for what must go through reportlab's canvas (save and
restore, transforms, transparency, text, images) or become PDF objects of their own:

- ``GROUP``: a transparency group XObject (group opacity, masks), painted with the alpha set
  before it, optionally through a soft mask (``Alpha`` for clip paths, ``Luminosity``);
- ``PAINT``: operations painted with a gradient, as a form XObject holding a shading pattern
  (a pattern's matrix is relative to the content stream it is used in, so each gradient paint
  gets a stream of its own whose space is the user space where it is drawn); stops with
  different opacities add a luminosity soft mask of the same gradient in grey.

These objects are written straight through reportlab's ``pdfdoc`` layer with resources of
their own, so they work on a page and inside a form being defined with ``beginForm`` alike;
the page or form only names them in its XObject resources. Identical objects are written
once per document.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from generator.svg import canvas as rl
from generator.svg.path import fmt
from generator.svg.raster import Fit, PictureFile, draw_image
from generator.svg.values import thinnest_scale

# operations other than literal PDF text
SAVE, RESTORE, TRANSFORM, FILL_ALPHA, STROKE_ALPHA, TEXT, IMAGE, GROUP, PAINT = range(9)
_RGB_OPERATOR = re.compile(r"([\d.+-]+) ([\d.+-]+) ([\d.+-]+) (rg|RG)\b")
Box = tuple[float, float, float, float]
# an operation: literal PDF text, or a code above with its operands (each code takes its own:
# ``_Painter.run`` passes them on to the method that draws it, whose signature they follow)
Op = str | tuple[Any, ...]
Ops = tuple[Op, ...]
Mask = tuple[str, Ops]  # a soft mask: its kind ("Alpha" or "Luminosity"), what draws it
Colour = tuple[float, ...]  # the components of a colour: RGB, or one grey
Piece = tuple[float, float, Colour, Colour]  # a gradient's piece: from t0 to t1, colour to colour
# a shading: linear or radial, its coordinates, its domain, its pieces and how many components
# its colours have
Shading = tuple[
    Literal["linear", "radial"], tuple[float, ...], tuple[float, float], tuple[Piece, ...], int
]
Tiling = tuple[Literal["tile"], tuple[float, float], Ops]  # a pattern's tile: its size and ops
Resources = dict[str, dict[str, object]]  # a form's resources: its XObjects, states, patterns
Group = dict[str, object]  # a transparency group's dictionary


def luminance_of(rgb: tuple[float, ...]) -> tuple[float]:
    """The grey an SVG mask sees in a colour (its luminance, with resvg's weights; PDF's
    own luminosity weighs red, green and blue otherwise, so masks are drawn in these greys)."""
    return (0.2125 * rgb[0] + 0.7154 * rgb[1] + 0.0721 * rgb[2],)


Layer = Literal["all", "art", "text"]
# a text's colour as written, from its sRGB colour and its size on the page in points
TextColour = Callable[[tuple[float, ...], float], tuple[float, ...]]


def _same(rgb: tuple[float, ...]) -> tuple[float, ...]:
    return rgb


@dataclass(frozen=True)
class Colours:
    """How the art is written: ``convert`` maps each sRGB colour (0-1 floats) to the
    components written (3: RGB, 1: grey, 4: CMYK); ``name`` tells drawings written otherwise
    apart in a document's cache of written objects. A print shop's output passes its press's
    CMYK (``generator.output.colour.Press``) and, to flatten its transparency, draws a page
    in layers: ``art``, everything but the text that is painted opaque outside any group
    (the text on top), or ``text``, that text alone (each in the colour ``text`` gives it
    for its size; paths only clip). ``min_line``: no stroke thinner than this many points."""

    name: str
    convert: Callable[[tuple[float, ...]], tuple[float, ...]]
    layer: Layer = "all"
    min_line: float = 0.0
    text: TextColour | None = None

    @property
    def plain(self) -> bool:
        """Every colour as it is, the whole art, every line as designed."""
        return self.convert is _same and self.layer == "all" and not self.min_line


RGB = Colours("rgb", _same)
LUMINANCE = Colours("luminance", luminance_of)  # a luminosity mask's greys


class Drawer:
    """Compiled art: its size in points, the operations that draw it, what it could not
    draw, as (what to look for in its template, message) pairs, and the steps its style
    sheets took to match (for a budget across documents)."""

    __slots__ = ("width", "height", "ops", "warnings", "css_steps")

    def __init__(
        self,
        width: float,
        height: float,
        ops: Ops,
        warnings: tuple[tuple[str, str], ...] = (),
        css_steps: int = 0,
    ):
        self.width = width
        self.height = height
        self.ops = ops
        self.warnings = warnings
        self.css_steps = css_steps

    def draw(self, canvas: Canvas, colours: Colours = RGB) -> None:
        """Draw the art with its viewport's lower-left corner at the canvas origin, in points,
        its colours written as ``colours`` says (as they are, or a press's CMYK)."""
        canvas.saveState()
        painter = _Painter if colours.layer == "all" and not colours.min_line else _Layered
        painter(canvas, colours).run(self.ops)
        canvas.restoreState()


SPACES = {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}
OPERATORS = {  # the colour operator for the number of components, fill and stroke
    (1, "rg"): "g",
    (1, "RG"): "G",
    (3, "rg"): "rg",
    (3, "RG"): "RG",
    (4, "rg"): "k",
    (4, "RG"): "K",
}


def convert(colour: tuple[float, ...], colours: Colours) -> tuple[float, ...]:
    """An RGB colour in the colours of what is drawn (a grey stays grey)."""
    return colours.convert(colour) if len(colour) == 3 else colour


class _Literal(pdfdoc.PDFObject):
    """A PDF token written as it is (``true``, ``false``)."""

    def __init__(self, text: str):
        self.text = text

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        """The token's bytes."""
        return self.text.encode()


TRUE = _Literal("true")


def _array(values: Sequence[float]) -> pdfdoc.PDFArray:
    """Numbers as a PDF array, four decimals at most."""
    return pdfdoc.PDFArray([_Literal(fmt(v)) for v in values])


class _Form(pdfdoc.PDFObject):
    """A form XObject with its own resources, optionally a transparency group."""

    def __init__(self, content: str, bbox: Box, resources: Resources, group: Group | None):
        self.content = content
        self.bbox = bbox
        self.resources = resources
        self.group = group

    def stream(self) -> pdfdoc.PDFStream:
        """The compressed content with its bounding box and resources."""
        stream = pdfdoc.PDFStream(content=pdfdoc.pdfdocEnc(self.content))
        stream.filters = [pdfdoc.PDFZCompress]
        d = stream.dictionary
        d["BBox"] = _array(self.bbox)
        resources = pdfdoc.PDFResourceDictionary()
        resources.basicFonts()
        resources.allProcs()
        for kind, entries in self.resources.items():
            if entries:
                setattr(resources, kind, entries)
        d["Resources"] = resources
        return stream

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        """The form's stream, a transparency group if it is one."""
        stream = self.stream()
        d = stream.dictionary
        d["Type"] = pdfdoc.PDFName("XObject")
        d["Subtype"] = pdfdoc.PDFName("Form")
        if self.group is not None:
            d["Group"] = pdfdoc.PDFDictionary(self.group)
        formatted: bytes = stream.format(document)
        return formatted


class _Tiling(_Form):
    """A coloured tiling pattern: one tile, repeated edge to edge."""

    def __init__(self, content: str, bbox: Box, resources: Resources, matrix: Sequence[float]):
        super().__init__(content, bbox, resources, None)
        self.matrix = matrix

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        """The pattern's stream: its tile, stepped by the tile's size."""
        stream = self.stream()
        d = stream.dictionary
        d["Type"] = pdfdoc.PDFName("Pattern")
        d["PatternType"] = 1
        d["PaintType"] = 1
        d["TilingType"] = 1
        d["XStep"] = _Literal(fmt(self.bbox[2]))
        d["YStep"] = _Literal(fmt(self.bbox[3]))
        d["Matrix"] = _array(self.matrix)
        formatted: bytes = stream.format(document)
        return formatted


def _function(segments: tuple[Piece, ...], colours: Colours) -> pdfdoc.PDFDictionary:
    """A PDF function of the colour stops: pieces (t0, t1, colour0, colour1) joined."""

    def piece(c0: Colour, c1: Colour, domain: tuple[float, float]) -> pdfdoc.PDFDictionary:
        """One linear piece from colour c0 to colour c1."""
        return pdfdoc.PDFDictionary(
            {
                "FunctionType": 2,
                "Domain": _array(domain),
                "C0": _array(convert(c0, colours)),
                "C1": _array(convert(c1, colours)),
                "N": 1,
            }
        )

    if len(segments) == 1:
        t0, t1, c0, c1 = segments[0]
        return piece(c0, c1, (t0, t1))
    return pdfdoc.PDFDictionary(
        {
            "FunctionType": 3,
            "Domain": _array((segments[0][0], segments[-1][1])),
            "Functions": pdfdoc.PDFArray([piece(s[2], s[3], (0, 1)) for s in segments]),
            "Bounds": _array([s[1] for s in segments[:-1]]),
            "Encode": _array([0, 1] * len(segments)),
        }
    )


def _pattern(shading: Shading, matrix: Sequence[float], colours: Colours) -> pdfdoc.PDFDictionary:
    """A shading pattern: ``shading`` is (kind, coords, domain, pieces, components)."""
    kind, coords, domain, segments, components = shading
    last = convert(segments[-1][3], colours)
    body = pdfdoc.PDFDictionary(
        {
            "ShadingType": 2 if kind == "linear" else 3,
            "ColorSpace": pdfdoc.PDFName(SPACES[len(last)]),
            "Coords": _array(coords),
            "Domain": _array(domain),
            "Function": _function(segments, colours),
            "Extend": pdfdoc.PDFArray([TRUE, TRUE]),
        }
    )
    fx, fy, _, cx, cy, r = coords if kind == "radial" else (0, 0, 0, 0, 0, 0)
    if kind == "radial" and (fx - cx) ** 2 + (fy - cy) ** 2 < r * r:  # beyond every circle
        body["Background"] = _array(last)
    return pdfdoc.PDFDictionary(
        {
            "Type": pdfdoc.PDFName("Pattern"),
            "PatternType": 2,
            "Shading": body,
            "Matrix": _array(matrix),
        }  # fmt: skip
    )


class _Painter:
    """Runs a drawer's operations on a canvas, making the XObjects they need."""

    def __init__(self, canvas: Canvas, colours: Colours):
        self.canvas = canvas
        self.colours = colours  # how colours are set (LUMINANCE in masks)
        self.doc = rl.document(canvas)
        self.objects = rl.written(canvas)  # the name identical content was written under

    def run(self, ops: Ops) -> None:
        """Every operation, in order."""
        canvas, rgb = self.canvas, self.colours.convert is _same
        for op in ops:
            if op.__class__ is str:
                canvas.addLiteral(op if rgb else _RGB_OPERATOR.sub(self.colour, op))
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
            elif code == TEXT:
                self.text(*op[1:])
            else:
                self.drawn(*op)

    def drawn(self, code: Any, *operands: Any) -> None:
        """An image, a transparency group or a gradient paint."""
        if code == IMAGE:
            self.image(*operands)
        elif code == GROUP:
            self.group(*operands)
        else:
            self.paint(*operands)

    def colour(self, match: re.Match[str]) -> str:
        """A colour operator in the colours drawn."""
        converted = convert((float(match[1]), float(match[2]), float(match[3])), self.colours)
        return f"{fmt(*converted)} {OPERATORS[len(converted), match[4]]}"

    def text(
        self,
        font: str,
        size: float,
        x: float,
        y: float,
        text: str,
        mode: int,
        spacing: float,
        rtl: bool | None = None,
    ) -> None:
        """A run of text at (x, y), SVG's y running down; ``mode`` is PDF's render mode;
        text that needs shaping is drawn glyph by glyph (``rtl``: its paragraph's direction,
        None to take it from the text)."""
        rl.draw_run(self.canvas, font, size, x, y, text, mode, spacing, rtl)

    def image(
        self, source: PictureFile | bytes, x: float, y: float, w: float, h: float, fit: Fit = None
    ) -> None:
        """A raster image stretched over the box, SVG's y running down, at no more pixels
        than ``fit``."""
        canvas = self.canvas
        canvas.saveState()
        canvas.transform(w, 0, 0, -h, x, y + h)
        draw_image(canvas, source, fit)
        canvas.restoreState()

    def group(self, bbox: Box, mask: Mask | None, ops: Ops) -> None:
        """A transparency group, through a soft mask if given, painted at the current
        alpha as one layer."""
        states: dict[str, object] = {}
        if mask is not None:
            name, state = self.mask_state(mask[0], bbox, mask[1])
            ops = (f"/{name} gs", *ops)
            states[name] = state
        content, resources = self.capture(ops, True, (), states)
        self.do(content, bbox, resources, {"S": pdfdoc.PDFName("Transparency")})

    def mask_state(
        self, kind: str, bbox: Box, ops: Ops, patterns: tuple[str, ...] = ()
    ) -> tuple[str, pdfdoc.PDFDictionary]:
        """A graphics state setting a soft mask drawn by ``ops``: its name and dictionary (a
        luminosity mask's colours drawn as the greys an SVG mask sees in them)."""
        colours = self.colours
        if kind == "Luminosity":
            self.colours = LUMINANCE
        try:
            content, resources = self.capture(ops, True, patterns, {})
        finally:
            self.colours = colours
        group = {"S": pdfdoc.PDFName("Transparency")}
        if kind == "Luminosity":
            group["CS"] = pdfdoc.PDFName("DeviceGray")
        form = self.form(content, bbox, resources, group)
        name = "PnpM" + hashlib.sha1(f"{kind}{form}".encode()).hexdigest()[:12]
        state = pdfdoc.PDFDictionary(
            {
                "Type": pdfdoc.PDFName("ExtGState"),
                "SMask": pdfdoc.PDFDictionary(
                    {
                        "Type": pdfdoc.PDFName("Mask"),
                        "S": pdfdoc.PDFName(kind),
                        "G": pdfdoc.PDFObjectReference(pdfdoc.xObjectName(form)),
                    }
                ),
            }
        )
        return name, state

    def paint(
        self,
        bbox: Box,
        shading: Shading | Tiling,
        alpha: Shading | None,
        matrix: Sequence[float],
        stroke: bool,
        ops: Ops,
    ) -> None:
        """``ops`` painted with a gradient (its fill or its stroke colour), in a form of
        their own; ``alpha`` is the grey shading of varying stop opacities, if any."""
        pattern = self.pattern(shading, matrix)
        space, colour = ("CS", "SCN") if stroke else ("cs", "scn")
        head = [f"/Pattern {space} /{pattern} {colour}"]
        states: dict[str, object] = {}
        if alpha is not None:
            alpha_pattern = self.pattern(alpha, matrix)
            x0, y0, x1, y1 = bbox
            body = (f"/Pattern cs /{alpha_pattern} scn {fmt(x0, y0, x1 - x0, y1 - y0)} re f",)
            name, state = self.mask_state("Luminosity", bbox, body, (alpha_pattern,))
            head.insert(0, f"/{name} gs")
            states[name] = state
        content, resources = self.capture((*head, *ops), False, (pattern,), states)
        self.do(content, bbox, resources, None)

    def pattern(self, shading: Shading | Tiling, matrix: Sequence[float]) -> str:
        """The name of a shading pattern, or of a tiling one (``shading`` is then ("tile",
        size, operations of a tile)), written once per document."""
        key = "PnpP" + hashlib.sha1(repr((shading, matrix, self.colours.name)).encode()).hexdigest()
        name = self.objects.get(key)
        if name is None:
            name = key[:16]
            if shading[0] == "tile":
                _, (w, h), ops = shading
                content, resources = self.capture(ops, True, (), {})
                self.doc.Reference(_Tiling(content, (0, 0, w, h), resources, matrix), name)
            else:
                self.doc.Reference(_pattern(shading, matrix, self.colours), name)
            self.objects[key] = name
        return name

    def capture(
        self, ops: Ops, reset_alpha: bool, patterns: tuple[str, ...], states: dict[str, object]
    ) -> tuple[str, Resources]:
        """The content stream ``ops`` draw and the resources it names (with ``patterns``
        and the graphics ``states`` it sets itself), drawn aside from the canvas's own
        stream. A transparency group starts at full alpha."""
        canvas = self.canvas
        with rl.drawn_aside(canvas) as aside:
            canvas.saveState()
            if reset_alpha:
                canvas.setFillAlpha(1)
                canvas.setStrokeAlpha(1)
            self.run(ops)
            canvas.restoreState()
        forms = aside.forms
        resources = {
            "XObject": dict(self.doc.xobjDict(forms).dict) if forms else {},
            "ExtGState": {**rl.graphics_states(canvas), **states},
            "Pattern": {name: pdfdoc.PDFObjectReference(name) for name in patterns},
        }
        return "\n".join(aside.code), resources

    def form(self, content: str, bbox: Box, resources: Resources, group: Group | None) -> str:
        """The name of a form XObject with this content, written once per document."""
        key = repr(("form", bbox, group is not None, content))
        name = self.objects.get(key)
        if name is None:
            name = "pnp" + hashlib.sha1(key.encode()).hexdigest()[:16]
            self.doc.Reference(_Form(content, bbox, resources, group), pdfdoc.xObjectName(name))
            self.objects[key] = name
        return name

    def do(self, content: str, bbox: Box, resources: Resources, group: Group | None) -> None:
        """Paint a form XObject with this content here."""
        rl.paint(self.canvas, self.form(content, bbox, resources, group))


PAINTING = frozenset({"f", "F", "f*", "B", "B*", "b", "b*", "S", "s"})  # path painting operators
STROKING = frozenset({"S", "s", "B", "B*", "b", "b*"})
COLOURING = {"rg": 0, "g": 0, "RG": 1, "G": 1}  # colour operators: fill (0) or stroke (1)


class _Layered(_Painter):
    """A painter for print shops: one layer of the art (``Colours.layer``), every stroke at
    least ``Colours.min_line`` points wide; it follows the graphics state the art leaves
    (alpha, colours, line width), since what it writes depends on it."""

    def __init__(self, canvas: Canvas, colours: Colours):
        super().__init__(canvas, colours)
        self.depth = 0  # groups, masks and gradient paints drawn inside one another
        # fill and stroke alpha, fill and stroke colour (sRGB), line width (as designed and as
        # written)
        self.state: list[Any] = [1.0, 1.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0, None]
        self.saved: list[list[Any]] = []

    def run(self, ops: Ops) -> None:
        """Every operation, in order, as the layer draws it."""
        canvas, text_layer = self.canvas, self.colours.layer == "text"
        for op in ops:
            if isinstance(op, str):
                canvas.addLiteral(self.literal(op))
                continue
            code = op[0]
            if code == SAVE:
                canvas.saveState()
                self.saved.append(self.state[:])
            elif code == RESTORE:
                canvas.restoreState()
                self.state = self.saved.pop() if self.saved else self.state
            elif code == TRANSFORM:
                canvas.transform(*op[1])
            elif code in (FILL_ALPHA, STROKE_ALPHA):
                self.state[code - FILL_ALPHA] = op[1]
                if not text_layer:
                    (canvas.setFillAlpha if code == FILL_ALPHA else canvas.setStrokeAlpha)(op[1])
            elif code == TEXT:
                self.layer_text(op[1:])
            elif not text_layer:  # images, groups and gradient paints are the art's
                self.drawn(*op)

    def capture(
        self, ops: Ops, reset_alpha: bool, patterns: tuple[str, ...], states: dict[str, object]
    ) -> tuple[str, Resources]:
        """A group's (or mask's, or gradient paint's) content: everything it holds belongs to
        the art, drawn in a graphics state of its own."""
        self.depth += 1
        self.saved.append(self.state[:])
        if reset_alpha:
            self.state[0] = self.state[1] = 1.0
        try:
            return super().capture(ops, reset_alpha, patterns, states)
        finally:
            self.state = self.saved.pop()
            self.depth -= 1

    def layer_text(self, text: tuple[Any, ...]) -> None:
        """A text, if its layer has it: text painted opaque outside any group is the text
        layer's (in the colour it takes at its size), the rest is the art's."""
        mode = text[5]
        fill_alpha, stroke_alpha = self.state[0], self.state[1]
        opaque = fill_alpha >= 1 and (mode == 0 or stroke_alpha >= 1)
        top = self.depth == 0 and mode in (0, 1, 2) and opaque
        layer = self.colours.layer
        if layer == "art" and top:
            return
        if layer == "text":
            if not top:
                return
            size = text[1] * thinnest_scale(rl.matrix(self.canvas))
            for ink, operator in ((0, "rg"), (1, "RG"))[: 2 if mode else 1]:
                rgb, colour = self.state[2 + ink], self.colours.text
                written = colour(rgb, size) if colour else self.colours.convert(rgb)
                self.canvas.addLiteral(f"{fmt(*written)} {OPERATORS[len(written), operator]}")
        self.text(*text)

    def literal(self, op: str) -> str:
        """Literal operators as the layer writes them: colours converted (or, in the text
        layer, only noted, and paths painted into clips alone), and each stroke at least
        ``min_line`` points wide."""
        text_layer, minimum = self.colours.layer == "text", self.colours.min_line
        out: list[str] = []
        operands: list[str] = []
        path_at: int | None = None  # where the path being built starts in ``out``
        state = self.state
        for token in op.split():
            if token[0] in "0123456789.-+[]/(<":
                operands.append(token)
                continue
            if token in COLOURING:
                colour = tuple(float(v) for v in operands)
                state[2 + COLOURING[token]] = colour * 3 if len(colour) == 1 else colour
                if not text_layer:
                    written = convert(state[2 + COLOURING[token]], self.colours)
                    operator = "rg" if token in ("rg", "g") else "RG"
                    out += [fmt(*written), OPERATORS[len(written), operator]]
            elif token == "w":
                state[4] = width = float(operands[0])
                if minimum:
                    width = max(width, minimum / thinnest_scale(rl.matrix(self.canvas)))
                state[5] = width
                out += [fmt(width), "w"]
            elif token in PAINTING:
                if text_layer:
                    token = "n"
                elif minimum and token in STROKING:
                    self.widen(out, path_at, minimum)
                out += [*operands, token]
                path_at = None
            else:
                if token in ("m", "re") and path_at is None:
                    path_at = len(out)
                elif token == "n":
                    path_at = None
                out += [*operands, token]
            operands = []
        return " ".join(out + operands)

    def widen(self, out: list[str], path_at: int | None, minimum: float) -> None:
        """Before the path about to be stroked, the line width it needs to be at least
        ``minimum`` points wide, where the width in force is thinner."""
        state = self.state
        needed = max(state[4], minimum / thinnest_scale(rl.matrix(self.canvas)))
        if state[5] is None or abs(state[5] - needed) > 1e-9:
            at = len(out) if path_at is None else path_at
            out[at:at] = [fmt(needed), "w"]
            state[5] = needed
