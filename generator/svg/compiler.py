"""The project's SVG renderer: SVG compiled once into a short list of PDF operations (a
``Drawer``, ``pdf``) that draws straight onto a reportlab canvas.

It follows SVG 1.1/2 as resvg does, for the SVG designers export (Inkscape, Illustrator,
Affinity) as much as for our templates' own:

- every shape, and path data with SVG's error handling (``shapes``, ``path``);
- units (px, pt, pc, mm, cm, in, em, ex, %), every CSS colour notation, ``currentColor``,
  paints with ``url(#id) fallback`` (``values``, ``properties``), fill and stroke with all
  their properties, dashes (``painting``);
- opacity, fill-opacity, stroke-opacity; ``opacity`` on anything with more than one paint
  is a transparency group painted at that alpha (``pdf.GROUP``);
- linear and radial gradients (``gradients``), patterns (``patterns``), clip paths and masks
  (``clips``), ``use``, ``symbol``, nested ``svg``, ``switch`` (``structure``), images
  (``images``: raster, or SVG drawn by this renderer), text (``textruns``, ``textdraw``);
- CSS ``<style>`` sheets and the cascade (``css``).

The ``Compiler`` walks the tree, drawing each element with the handler for its tag
(``HANDLERS``); the handlers and everything they use of the compiler are typed against
``compiling.Compiling``.

What it does not draw (filters, markers, foreign objects, text on a path ...) is reported
through ``warn`` with the element's tag and line, and the rest is drawn. Input it cannot make
sense of draws what SVG says such input draws (usually nothing); only SVG nested absurdly
deep, too many elements, a root without a size, or text the fonts cannot write raise
``SvgError``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from generator.svg import clips, images, shapes, structure, textdraw
from generator.svg.builder import (
    NS,
    PX_TO_PT,
    Box,
    Builder,
    Ctx,
    SvgError,
    Warn,
    local_name,
    parse_view_box,
    view_box_matrix,
)
from generator.svg.compiling import Body, Compiling, LazyBox, Pictures
from generator.svg.css import Cascade, cascade, declarations
from generator.svg.fonts import register_fonts
from generator.svg.path import fmt
from generator.svg.pdf import (
    FILL_ALPHA,
    GROUP,
    RESTORE,
    SAVE,
    STROKE_ALPHA,
    TRANSFORM,
    Drawer,
    Mask,
)
from generator.svg.properties import inherit
from generator.svg.values import (
    ABSOLUTE_UNITS,
    DEFAULT_FONT_SIZE,
    IDENTITY,
    Length,
    Matrix,
    Rgb,
    bbox_through,
    colour,
    invert,
    length,
    multiply,
    opacity,
    transform,
)

__all__ = ["Drawer", "SvgError", "compile_svg", "pdf_number"]
pdf_number = fmt  # numbers for a content stream, as the PDF writer also needs them

MAX_DEPTH = 64  # levels of nesting (groups, use, nested svg, images of SVG)
# elements one drawing draws in all: use instances and the elements of the SVG pictures it
# draws (each as often as it is drawn) included
MAX_ELEMENTS = 100_000

# elements never drawn where they stand (only through a reference, if at all)
NOT_DRAWN = frozenset(
    (
        "defs",
        "clipPath",
        "mask",
        "marker",
        "pattern",
        "filter",
        "linearGradient",
        "radialGradient",
        "symbol",
        "style",
        "title",
        "desc",
        "metadata",
        "script",
        "font",
        "font-face",
        "glyph",
        "missing-glyph",
        "cursor",
        "view",
        "animate",
        "animateMotion",
        "animateTransform",
        "animateColor",
        "set",
        "stop",
        "tspan",
        "textPath",
        "tref",
        "altGlyphDef",
    )
)


def compile_svg(
    root: etree._Element,
    base: Path | None = None,
    warn: Warn | None = None,
    depth: int = 0,
    pictures: Pictures | None = None,
) -> Drawer:
    """The drawer of an SVG document. ``base`` is the folder relative image references are
    read from (none allowed without); ``warn(needle, message)`` hears of everything that is
    not drawn (``needle`` is the element or attribute to look for in the template). SVG
    pictures are compiled once into ``pictures`` (pass one dict for a whole build)."""
    register_fonts()
    return Compiler(base, warn, depth, pictures).compile(root)


class Compiler:
    """Walks the tree once and writes the operations."""

    def __init__(
        self,
        base: Path | None,
        warn: Warn | None,
        depth: int,
        pictures: Pictures | None = None,
        limit: int | None = None,
    ) -> None:
        self.base = base
        self.listener = warn
        self.warned: dict[tuple[str, str], None] = {}
        self.nesting = self.deepest = depth
        self.count = 0
        self.limit = MAX_ELEMENTS if limit is None else limit  # what the whole drawing has left
        self.outermost = depth == 0  # not an SVG picture another drawing draws
        self.pictures: Pictures = {} if pictures is None else pictures
        self.builders: list[Builder] = [Builder()]
        self.ids: dict[str, etree._Element] | None = None
        self.css: Cascade | None = None
        self.root: etree._Element | None = None
        self.width = self.height = 0.0
        self.canvas: Box = (0.0, 0.0, 0.0, 0.0)  # what can be seen, in the ctm's space
        self.active: list[etree._Element] = []  # use targets, clip paths, masks, patterns

    @property
    def b(self) -> Builder:
        """Where operations are being written (a group's, a mask's or the drawing's)."""
        return self.builders[-1]

    def warn(self, needle: str, message: str) -> None:
        """Report something not drawn, once per message."""
        key = (needle, message)
        if key not in self.warned:
            self.warned[key] = None
            if self.listener is not None:
                self.listener(needle, message)

    def where(self, element: etree._Element) -> str:
        """An element named for a message: its tag and line in the SVG."""
        return f"<{etree.QName(element).localname}> (line {element.sourceline} of the SVG)"

    # --- the document ---------------------------------------------------------------------

    def compile(self, root: etree._Element) -> Drawer:
        """The drawer of a whole document: its root's viewport in points, y up."""
        if local_name(root) != "svg":
            raise SvgError("the art must be an <svg> element in the SVG namespace")
        self.root = root
        if root.find(f".//{NS}style") is not None:
            self.css = cascade(root, self.warn)
        attrs = self.specified(root)
        box = parse_view_box(attrs.get("viewBox"))
        if box is None and "width" not in attrs and "height" not in attrs:
            box = self.content_box(root, attrs)
        width, height = self.root_size(attrs, box)
        self.width, self.height = width * PX_TO_PT, height * PX_TO_PT
        self.canvas = (0.0, 0.0, self.width, self.height)
        flip = (PX_TO_PT, 0.0, 0.0, -PX_TO_PT, 0.0, self.height)
        matrix = multiply(
            flip, view_box_matrix(box, attrs.get("preserveAspectRatio"), width, height)
        )
        vw, vh = (box[2], box[3]) if box else (width, height)
        ctx = inherit(attrs, Ctx.initial(vw, vh))
        if attrs.get("display", "").strip() != "none":
            self.background(attrs)
            self.b.op(TRANSFORM, matrix)
            inner = ctx.moved(matrix)
            self.render(root, attrs, inner, lambda c: self.children(root, c), fold=False)
        self.b.flush()
        warnings = tuple(self.warned)
        steps = self.css.steps if self.css is not None else 0
        return Drawer(self.width, self.height, self.b.finish(), warnings, steps)

    def background(self, attrs: dict[str, str]) -> None:
        """The root's background-color, under everything."""
        text = attrs.get("background-color")
        if text is None:
            return
        try:
            r, g, b, a = colour(text)
        except ValueError:
            return
        if a > 0:
            self.b.fill((r, g, b), a)
            self.b.literal.append(f"0 0 {fmt(self.width, self.height)} re f")

    def content_box(self, root: etree._Element, attrs: dict[str, str]) -> Box | None:
        """For a root without a size or viewBox: the box from the origin to the far corner
        of what it draws, as its viewBox (as resvg sizes it)."""
        ctx = inherit(attrs, Ctx.initial(100.0, 100.0))
        box = shapes.content_bbox(self, root, ctx)
        if box is None or box[2] <= 0 or box[3] <= 0:
            return None
        return (0.0, 0.0, box[2], box[3])

    def root_size(self, attrs: dict[str, str], box: Box | None) -> tuple[float, float]:
        """The root's width and height in user units (px): as given, else the viewBox's,
        else 100 x 100; a percentage takes that share of the viewBox."""
        sizes = []
        for name, index in (("width", 2), ("height", 3)):
            try:
                value = length(attrs[name]) if name in attrs else Length(100.0, "%")
            except ValueError:
                value = Length(100.0, "%")
            if value.unit == "%":
                whole = box[index] if box else 100.0
                sizes.append(whole * value.value / 100)
            elif value.unit in ("em", "ex"):
                sizes.append(value.value * DEFAULT_FONT_SIZE / (2 if value.unit == "ex" else 1))
            else:
                sizes.append(value.value * ABSOLUTE_UNITS[value.unit])
        width, height = sizes
        if not (width > 0 and height > 0 and math.isfinite(width * height)):
            raise SvgError("the <svg> needs a positive width and height")
        return width, height

    def lookup(self, name: str | None) -> etree._Element | None:
        """The element with this id (the first, when ids repeat)."""
        if not name:
            return None
        if self.ids is None:
            self.ids = {}
            assert self.root is not None
            for element in self.root.iter():
                key = element.get("id") if isinstance(element.tag, str) else None
                if key is not None and key not in self.ids:
                    self.ids[key] = element
        return self.ids.get(name)

    def specified(self, element: etree._Element) -> dict[str, str]:
        """An element's attributes after the cascade (sheets and its ``style``)."""
        if self.css is not None:
            return self.css.specified(element)
        attrs = dict(element.items())  # lxml builds the pairs at once: faster than .attrib
        style = attrs.pop("style", None)
        if style:
            normal = [(n, v) for n, v, important in declarations(style) if not important]
            attrs.update(normal)
            attrs.update((n, v) for n, v, important in declarations(style) if important)
        return attrs

    # --- values ---------------------------------------------------------------------------

    def context_of(self, element: etree._Element, ctx: Ctx) -> Ctx:
        """What an element draws inherits from its own ancestors (a mask's or a pattern's
        content, say), placed in the current user space."""
        chain = [node for node in element.iterancestors() if local_name(node) is not None]
        inner = Ctx.initial(ctx.vw, ctx.vh, ctx.ctm)
        for node in reversed(chain):
            inner = inherit(self.specified(node), inner)
        return inherit(self.specified(element), inner)

    def current_colour(self, element: etree._Element) -> Rgb:
        """The ``color`` an element has, looking up its ancestors (black by default)."""
        node: etree._Element | None = element
        while node is not None:
            if isinstance(node.tag, str):
                value = self.specified(node).get("color")
                if value is not None and value.strip() not in ("inherit", "currentColor"):
                    try:
                        return colour(value)[:3]
                    except ValueError:
                        pass
            node = node.getparent()
        return (0.0, 0.0, 0.0)

    # --- elements -------------------------------------------------------------------------

    def children(self, parent: etree._Element, ctx: Ctx) -> None:
        """Draw an element's children in order."""
        for element in parent:
            self.node(element, ctx)

    def node(self, element: etree._Element, ctx: Ctx) -> None:
        """Draw one element and what it holds."""
        tag = element.tag
        if tag.__class__ is not str:
            if isinstance(element, etree._Entity):
                self.warn(f"&{element.name};", f"the entity &{element.name}; is not expanded")
            return
        handler = HANDLERS.get(tag)
        if handler is None:
            if not tag.startswith(NS):
                return  # another XML vocabulary (an editor's metadata): not drawn, as SVG says
            name = tag[len(NS) :]
            if name not in NOT_DRAWN:
                self.warn(f"<{name}", f"{self.where(element)} is not drawn")
            return
        attrs = self.specified(element)
        display = attrs.get("display")
        if display is not None and display.strip() == "none":
            return
        self.nesting += 1  # (an error ends the whole drawing: no need to count back)
        self.reached(1, self.nesting)
        handler(self, element, attrs, inherit(attrs, ctx))
        self.nesting -= 1

    def reached(self, elements: int, nesting: int) -> None:
        """Count ``elements`` more drawn and a level of ``nesting`` reached: SvgError past
        ``MAX_ELEMENTS`` (for the whole drawing) or ``MAX_DEPTH``."""
        self.count += elements
        if self.count > self.limit:
            raise SvgError(
                f"the SVG draws more than {MAX_ELEMENTS:,} elements in all, counting what each "
                "<use> and each SVG picture draws as often as it is drawn; draw fewer"
            )
        if nesting > MAX_DEPTH:
            raise SvgError(f"the SVG nests elements more than {MAX_DEPTH} levels deep")
        self.deepest = max(self.deepest, nesting)

    def render(
        self,
        element: etree._Element,
        attrs: dict[str, str],
        ctx: Ctx,
        body: Body,
        fold: bool,
        bbox: LazyBox | None = None,
        opacity_in: list[float] | None = None,
    ) -> None:
        """Draw ``body`` as an element: in its transform, clipped by its clip path, through
        its mask and at its opacity (a group, unless ``fold``: then the body multiplies the
        opacity into its paints, given to it in ``opacity_in``)."""
        matrix = _own_transform(attrs)
        alpha = opacity(attrs.get("opacity"))
        if matrix is SQUASHED or alpha <= 0:
            return  # nothing shows
        self.unsupported(element, attrs)
        b = self.b
        saved = matrix is not None
        if saved:
            b.save()
            b.op(TRANSFORM, matrix)
            ctx = ctx.moved(matrix)  # type: ignore[arg-type]
        if bbox is None:
            inner = ctx
            bbox = lambda: shapes.content_bbox(self, element, inner)  # noqa: E731
        clip = clips.clip_of(self, element, attrs, ctx, bbox)
        masked = clips.mask_of(self, element, attrs, ctx, bbox)
        if (clip is not None and clip.empty) or masked is clips.EMPTY_MASK:
            if saved:
                b.restore()
            return
        if clip is not None and not clip.mask:
            if not saved:
                b.save()
                saved = True
            b.flush()
            b.ops.extend(clip.ops)
        if opacity_in is not None:
            opacity_in.append(alpha if fold else 1.0)
        masks = [m for m in (("Alpha", clip.ops) if clip and clip.mask else None, masked) if m]
        group_alpha = 1.0 if fold else alpha
        if group_alpha < 1 or masks:
            self.grouped(ctx, body, group_alpha, masks)
        else:
            body(ctx)
        if saved:
            b.restore()

    def grouped(self, ctx: Ctx, body: Body, alpha: float, masks: list[Mask]) -> None:
        """``body`` drawn as one transparency group, painted at ``alpha``, through each of
        ``masks`` (a group nested in a group for each)."""
        box = self.viewport_box(ctx)
        if box is None:
            return
        self.builders.append(Builder())
        try:
            body(ctx)
        finally:
            ops = self.builders.pop().finish()
        if not ops:
            return
        for mask in masks[1:]:
            ops = ((SAVE,), (GROUP, box, mask, ops), (RESTORE,))
        b = self.b
        b.save()
        if alpha < 1:
            b.op(FILL_ALPHA, alpha)
            b.op(STROKE_ALPHA, alpha)
        b.op(GROUP, box, masks[0] if masks else None, ops)
        b.restore()

    def viewport_box(self, ctx: Ctx) -> Box | None:
        """What can be seen of the drawing (or of the pattern tile being drawn) in the
        current user space: the bounding box of a group."""
        inverse = invert(ctx.ctm)
        if inverse is None:
            return None
        x0, y0, x1, y1 = bbox_through(inverse, self.canvas)
        pad = max(x1 - x0, y1 - y0) * 0.01
        return (x0 - pad, y0 - pad, x1 + pad, y1 + pad)

    def unsupported(self, element: etree._Element, attrs: dict[str, str]) -> None:
        """Warn of the properties on an element that are not drawn."""
        for name in ("filter",):
            value = attrs.get(name)
            if value is not None and value.strip() != "none":
                self.warn(
                    f"{name}=",
                    f"{name} on {self.where(element)} is not drawn; the element is drawn "
                    "without it (PDF has no filters: export a drop shadow or blur as a PNG "
                    "picture, or draw the shadow as a shape)",
                )
        blend = attrs.get("mix-blend-mode")
        if blend is not None and blend.strip() not in ("normal", ""):
            self.warn("mix-blend-mode", f"mix-blend-mode on {self.where(element)} is not drawn")

    def nested(self, warn: Warn) -> Compiler:
        """A compiler for an SVG picture drawn here: one level deeper, with what is left of
        this drawing's budget of elements."""
        return Compiler(self.base, warn, self.nesting + 1, self.pictures, self.limit - self.count)


def foreign(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """``foreignObject``: not drawn."""
    compiler.warn("<foreignObject", f"{compiler.where(element)} is not drawn")


Handler = Callable[[Compiling, etree._Element, dict[str, str], Ctx], None]
HANDLERS: dict[str, Handler] = {  # what draws each element, by its tag with the SVG namespace
    NS + name: handler
    for name, handler in (
        ("g", structure.group),
        ("a", structure.group),
        ("switch", structure.switch),
        ("use", structure.use),
        ("svg", structure.svg),
        ("text", textdraw.text),
        ("image", images.image),
        ("foreignObject", foreign),
        *((name, shapes.shape) for name in shapes.SHAPES),
    )
}


SQUASHED = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  # a transform that leaves nothing to see


def _own_transform(attrs: dict[str, str]) -> Matrix | None:
    """An element's transform: None when it has none (or an invalid one, which SVG
    ignores), SQUASHED when it flattens everything."""
    text = attrs.get("transform")
    if text is None:
        return None
    try:
        matrix = transform(text)
    except ValueError:
        return None
    if invert(matrix) is None:
        return SQUASHED
    return None if matrix == IDENTITY else matrix
