"""The project's SVG renderer: SVG compiled once into a short list of PDF operations (a
``Drawer``, ``svgpdf``) that draws straight onto a reportlab canvas.

It follows SVG 1.1/2 as resvg does, for the SVG designers export (Inkscape, Illustrator,
Affinity) as much as for our templates' own:

- every shape, and path data with SVG's error handling (``svgpath``);
- units (px, pt, pc, mm, cm, in, em, ex, %), every CSS colour notation, ``currentColor``,
  paints with ``url(#id) fallback`` (``svgvalues``), fill and stroke with all their
  properties, dashes;
- opacity, fill-opacity, stroke-opacity; ``opacity`` on anything with more than one paint
  is a transparency group painted at that alpha (``svgpdf.GROUP``);
- linear and radial gradients (``svgpaint``), patterns (``svgpattern``), clip paths and masks
  (``svgclip``), ``use``, ``symbol``, nested ``svg``, ``switch``, images (``svgimage``: raster,
  or SVG drawn by this renderer), text (``svgtext``);
- CSS ``<style>`` sheets and the cascade (``svgstyle``).

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

from generator.svg import gradients, patterns, textruns
from generator.svg.builder import (
    NS,
    PX_TO_PT,
    Box,
    Builder,
    Ctx,
    SvgError,
    Warn,
    href_of,
    is_ancestor,
    local_name,
    parse_view_box,
    union,
    view_box_matrix,
)
from generator.svg.clips import EMPTY_MASK, SHAPES, ClipsAndMasks
from generator.svg.css import Cascade, cascade, declarations
from generator.svg.fonts import register_fonts
from generator.svg.images import Images, Pictures
from generator.svg.path import (
    EMPTY,
    Geometry,
    ellipse_geometry,
    fmt,
    line_geometry,
    path_geometry,
    polyline_geometry,
    rect_geometry,
)
from generator.svg.pdf import (
    FILL_ALPHA,
    GROUP,
    PAINT,
    RESTORE,
    SAVE,
    STROKE_ALPHA,
    TEXT,
    TRANSFORM,
    Drawer,
)
from generator.svg.properties import BLACK, actual, attr_length, inherit, user
from generator.svg.values import (
    ABSOLUTE_UNITS,
    DEFAULT_FONT_SIZE,
    IDENTITY,
    NO_PAINT,
    Length,
    Matrix,
    Paint,
    bbox_through,
    colour,
    invert,
    length,
    lengths,
    multiply,
    number,
    number_prefix,
    opacity,
    transform,
)

__all__ = ["Drawer", "SvgError", "compile_svg", "pdf_number"]
pdf_number = fmt  # numbers for a content stream, as the PDF writer also needs them

MAX_DEPTH = 64  # levels of nesting (groups, use, nested svg, images of SVG)
# elements one drawing draws in all: use instances and the elements of the SVG pictures it
# draws (each as often as it is drawn) included
MAX_ELEMENTS = 100_000
MAX_DASHES = 100_000  # dashes along a stroke beyond which it is drawn solid
LINE_CAPS = {"butt": 0, "round": 1, "square": 2}
LINE_JOINS = {"miter": 0, "miter-clip": 0, "arcs": 0, "round": 1, "bevel": 2}
DEFAULT_MITER = 4.0  # SVG's default stroke-miterlimit

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
MARKED = frozenset(("path", "line", "polyline", "polygon"))
MARKERS = frozenset(("marker-start", "marker-mid", "marker-end"))
# attributes that take an element out of the common case (drawn where it stands, as it is)
SPECIAL = frozenset(("transform", "opacity", "clip-path", "mask", "filter", "mix-blend-mode"))


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


# --- output ----------------------------------------------------------------------------------


class Compiler(ClipsAndMasks, Images):
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
        self._warn = warn
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
        self.active: list[etree._Element] = []  # use targets and clip paths being drawn
        self.fonts: dict[tuple[str, str, str], str] = {}

    @property
    def b(self) -> Builder:
        """Where operations are being written (a group's, a mask's or the drawing's)."""
        return self.builders[-1]

    def warn(self, needle: str, message: str) -> None:
        """Report something not drawn, once per message."""
        key = (needle, message)
        if key not in self.warned:
            self.warned[key] = None
            if self._warn is not None:
                self._warn(needle, message)

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
        ctx = Ctx({}, DEFAULT_FONT_SIZE, vw, vh, IDENTITY)
        ctx = inherit(attrs, ctx)
        if attrs.get("display", "").strip() != "none":
            self.background(attrs)
            self.b.op(TRANSFORM, matrix)
            inner = ctx.moved(matrix)
            self.render(root, attrs, inner, lambda c: self.children(root, c), fold=False)
        self.b.flush()
        warnings = tuple(self.warned)
        return Drawer(self.width, self.height, self.b.finish(), warnings)

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
        ctx = inherit(attrs, Ctx({}, DEFAULT_FONT_SIZE, 100.0, 100.0, IDENTITY))
        box = self.content_bbox(root, ctx)
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
        attrs = dict(element.attrib)
        style = attrs.pop("style", None)
        if style:
            normal = [(n, v) for n, v, important in declarations(style) if not important]
            attrs.update(normal)
            attrs.update((n, v) for n, v, important in declarations(style) if important)
        return attrs

    # --- values ---------------------------------------------------------------------------

    def current_colour(self, element: etree._Element) -> tuple[float, float, float]:
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

    def group(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """``g`` and ``a``: their children, as one group."""
        self.render(element, attrs, ctx, lambda c: self.children(element, c), fold=False)

    def switch(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """``switch``: the first child whose conditions hold."""
        for child in element:
            if local_name(child) is None:
                continue
            child_attrs = self.specified(child)
            if _conditions_hold(child_attrs):
                self.render(element, attrs, ctx, lambda c, e=child: self.node(e, c), fold=False)
                return

    def render(
        self,
        element: etree._Element,
        attrs: dict[str, str],
        ctx: Ctx,
        body: Callable[[Ctx], None],
        fold: bool,
        bbox: Callable[[], Box | None] | None = None,
        opacity_in: list | None = None,
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
            bbox = lambda: self.content_bbox(element, inner)  # noqa: E731
        clip = self.clip_of(element, attrs, ctx, bbox)
        masked = self.mask_of(element, attrs, ctx, bbox)
        if (clip is not None and clip.empty) or masked is EMPTY_MASK:
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

    def grouped(
        self, ctx: Ctx, body: Callable[[Ctx], None], alpha: float, masks: list[tuple]
    ) -> None:
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
                    f"without it",
                )
        blend = attrs.get("mix-blend-mode")
        if blend is not None and blend.strip() not in ("normal", ""):
            self.warn("mix-blend-mode", f"mix-blend-mode on {self.where(element)} is not drawn")

    # --- use, nested svg, symbol ----------------------------------------------------------

    def use(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """``use``: its target drawn in its place, moved by x and y."""
        href = href_of(attrs)
        if not href or not href.startswith("#"):
            if href:
                self.warn("href", f"{self.where(element)} refers to '{href}', outside this SVG")
            return
        target = self.lookup(href[1:])
        if target is None or local_name(target) is None:
            return
        if target in self.active or is_ancestor(target, element) or self.loops(target):
            return  # a use that leads back to itself draws nothing
        x = attr_length(attrs, "x", ctx, "x")
        y = attr_length(attrs, "y", ctx, "y")
        moved = dict(attrs)
        shift = f"translate({x!r} {y!r})"
        moved["transform"] = (
            f"{attrs.get('transform', '')} {shift}" if x or y else attrs.get("transform", "")
        )
        tag = local_name(target)

        def body(inner: Ctx) -> None:
            self.active.append(target)
            try:
                self.instance(target, tag, attrs, self.in_context(inner))
            finally:
                self.active.pop()

        self.render(element, moved, ctx, body, fold=False, bbox=lambda: self.bbox_of(target, ctx))

    def in_context(self, ctx: Ctx) -> Ctx:
        """The context of what a ``use`` draws: its fill and stroke are the context paints."""
        style = dict(ctx.style)
        style["$context-fill"] = actual(ctx.style.get("fill", BLACK), ctx.style)
        style["$context-stroke"] = actual(ctx.style.get("stroke", NO_PAINT), ctx.style)
        return Ctx(style, ctx.font_size, ctx.vw, ctx.vh, ctx.ctm)

    def instance(self, target: etree._Element, tag: str | None, use: dict, ctx: Ctx) -> None:
        """The element a ``use`` refers to: a symbol or an svg in a viewport the use may
        size, anything else as if it stood in the use's place."""
        if tag not in ("symbol", "svg"):
            self.node(target, ctx)
            return
        attrs = self.specified(target)
        if (attrs.get("display") or "").strip() == "none":
            return
        sized = dict(attrs)
        for name in ("width", "height"):
            if name in use:
                sized[name] = use[name]
        if tag == "symbol":
            sized.pop("transform", None)  # SVG 1.1 has no transform on a symbol
        inner = inherit(attrs, ctx)
        self.render(
            target, sized, inner, lambda c: self.viewport_element(target, sized, c), fold=False
        )

    def loops(self, target: etree._Element) -> bool:
        """Whether drawing ``target`` would lead to a ``use`` that refers back into it."""
        stack = [target]
        seen: set[int] = set()
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            for element in node.iter(f"{NS}use"):
                href = href_of(dict(element.attrib))
                ref = self.lookup(href[1:]) if href and href.startswith("#") else None
                if ref is None:
                    continue
                if ref is target or is_ancestor(ref, element) or ref in self.active:
                    return True
                stack.append(ref)
            if len(seen) > 10_000:
                return True
        return False

    def svg(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """A nested ``svg``: a new viewport."""
        self.render(
            element, attrs, ctx, lambda c: self.viewport_element(element, attrs, c), fold=False
        )

    def viewport_element(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """The children of an ``svg`` or ``symbol`` in a viewport at x, y of width x height
        (100% when not given), clipped to it unless its overflow is visible."""
        x = attr_length(attrs, "x", ctx, "x")
        y = attr_length(attrs, "y", ctx, "y")
        width = attr_length(attrs, "width", ctx, "x", ctx.vw)
        height = attr_length(attrs, "height", ctx, "y", ctx.vh)
        if width <= 0 or height <= 0:
            return
        box = parse_view_box(attrs.get("viewBox"))
        b = self.b
        b.save()
        overflow = (attrs.get("overflow") or "hidden").strip()
        if overflow not in ("visible", "auto"):
            b.literal.append(f"{fmt(x, y, width, height)} re W n")
        matrix = multiply(
            (1.0, 0.0, 0.0, 1.0, x, y),
            view_box_matrix(box, attrs.get("preserveAspectRatio"), width, height),
        )
        if matrix != IDENTITY:
            b.op(TRANSFORM, matrix)
        vw, vh = (box[2], box[3]) if box else (width, height)
        self.children(element, ctx.viewport(vw, vh, matrix))
        b.restore()

    # --- shapes ---------------------------------------------------------------------------

    def shape(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """A basic shape or a path, filled and stroked."""
        tag = element.tag[len(NS) :]
        geometry = self.geometry(tag, attrs, ctx)
        if not geometry.pdf:
            return
        style = ctx.style
        visibility = style.get("visibility")
        if visibility is not None and visibility != "visible":
            return
        if not MARKERS.isdisjoint(style) and tag in MARKED:
            self.markers(element, style)
        fill = style.get("fill", BLACK) if geometry.fillable else NO_PAINT
        stroke = style.get("stroke", NO_PAINT)
        line = self.line_style(style, ctx, geometry, element) if stroke is not NO_PAINT else None
        if line is None:
            stroke = NO_PAINT
        painted = (fill is not NO_PAINT) + (stroke is not NO_PAINT)
        if not painted:
            return
        if SPECIAL.isdisjoint(attrs):  # the common case: painted where it stands
            self.paint_shape(element, geometry, fill, stroke, line, ctx, 1.0)
            return
        alphas: list[float] = []

        def body(inner: Ctx) -> None:
            scale = alphas[0] if alphas else 1.0
            self.paint_shape(element, geometry, fill, stroke, line, inner, scale)

        self.render(
            element, attrs, ctx, body, fold=painted == 1, bbox=lambda: geometry.bbox,
            opacity_in=alphas,
        )  # fmt: skip

    def markers(self, element: etree._Element, style: dict) -> None:
        """Warn of markers, which are not drawn."""
        if any(style.get(name, "none") != "none" for name in MARKERS):
            self.warn("marker", f"markers on {self.where(element)} are not drawn")

    def geometry(self, tag: str, attrs: dict[str, str], ctx: Ctx) -> Geometry:
        """The outline of a shape (EMPTY when it draws nothing)."""
        if tag == "path":
            d = attrs.get("d")
            return path_geometry(d) if d else EMPTY
        if tag in ("polyline", "polygon"):
            points = number_prefix(attrs.get("points", ""))
            return polyline_geometry(points, tag == "polygon")
        if tag == "rect":
            return self.rect(attrs, ctx)
        if tag == "circle":
            r = attr_length(attrs, "r", ctx, "xy")
            if r <= 0:
                return EMPTY
            return ellipse_geometry(
                attr_length(attrs, "cx", ctx, "x"), attr_length(attrs, "cy", ctx, "y"), r, r
            )
        if tag == "ellipse":
            rx, ry = self.radii(attrs, ctx)
            if rx <= 0 or ry <= 0:
                return EMPTY
            return ellipse_geometry(
                attr_length(attrs, "cx", ctx, "x"), attr_length(attrs, "cy", ctx, "y"), rx, ry
            )
        return line_geometry(
            attr_length(attrs, "x1", ctx, "x"),
            attr_length(attrs, "y1", ctx, "y"),
            attr_length(attrs, "x2", ctx, "x"),
            attr_length(attrs, "y2", ctx, "y"),
        )

    def radii(self, attrs: dict[str, str], ctx: Ctx) -> tuple[float, float]:
        """rx and ry of a rect or ellipse: a missing, negative or 'auto' one equals the
        other (0 when both are)."""
        rx = attr_length(attrs, "rx", ctx, "x", -1.0)
        ry = attr_length(attrs, "ry", ctx, "y", -1.0)
        if rx < 0:
            rx = ry
        if ry < 0:
            ry = rx
        return max(rx, 0.0), max(ry, 0.0)

    def rect(self, attrs: dict[str, str], ctx: Ctx) -> Geometry:
        """A rect's outline (EMPTY without a positive width and height)."""
        x, y = attr_length(attrs, "x", ctx, "x"), attr_length(attrs, "y", ctx, "y")
        w = attr_length(attrs, "width", ctx, "x")
        h = attr_length(attrs, "height", ctx, "y")
        if w <= 0 or h <= 0:
            return EMPTY
        rx, ry = self.radii(attrs, ctx)
        return rect_geometry(x, y, w, h, min(rx, w / 2), min(ry, h / 2))

    def line_style(
        self, style: dict, ctx: Ctx, geometry: Geometry, element: etree._Element
    ) -> tuple | None:
        """(width, cap, join, miter limit, dash operator) of a stroke; None when it is too
        thin to show."""
        width = 1.0
        text = style.get("stroke-width")
        if text is not None:
            try:
                width = user(length(text), ctx, "xy")
            except ValueError:
                width = 1.0
            if width < 0:
                width = 1.0
        if width <= 0:
            return None
        cap = LINE_CAPS.get(style.get("stroke-linecap", "butt"), 0)
        join = LINE_JOINS.get(style.get("stroke-linejoin", "miter"), 0)
        miter = DEFAULT_MITER
        text = style.get("stroke-miterlimit")
        if text is not None:
            try:
                miter = number(text)
            except ValueError:
                miter = DEFAULT_MITER
            if miter < 1:
                miter = 1.0
        dash = self.dash(style, ctx, geometry, element)
        return (width, cap, join, miter, dash)

    def dash(self, style: dict, ctx: Ctx, geometry: Geometry, element: etree._Element) -> str:
        """The PDF dash operator of stroke-dasharray and stroke-dashoffset (solid when the
        array is none, invalid, negative, all zero or would make too many dashes)."""
        text = style.get("stroke-dasharray")
        solid = "[] 0 d"
        if text is None or text.strip() in ("none", ""):
            return solid
        try:
            values = [user(v, ctx, "xy") for v in lengths(text)]
        except ValueError:
            return solid
        if not values or any(v < 0 for v in values) or sum(values) <= 0:
            return solid
        if len(values) % 2:
            values = values * 2
        period = sum(values)
        if geometry.bbox is not None:
            x0, y0, x1, y1 = geometry.bbox
            if 2 * ((x1 - x0) + (y1 - y0)) / period > MAX_DASHES * len(values):
                self.warn(
                    "stroke-dasharray",
                    f"the dashes of {self.where(element)} are too many to draw; the line is "
                    "drawn solid",
                )
                return solid
        offset = 0.0
        text = style.get("stroke-dashoffset")
        if text is not None:
            try:
                offset = user(length(text), ctx, "xy")
            except ValueError:
                offset = 0.0
        return f"[{fmt(*values)}] {fmt(offset % period)} d"

    def paint_shape(
        self,
        element: etree._Element,
        geometry: Geometry,
        fill: Paint,
        stroke: Paint,
        line: tuple | None,
        ctx: Ctx,
        scale: float,
    ) -> None:
        """Fill and stroke a geometry (in paint-order), ``scale`` multiplying the alphas."""
        style = ctx.style
        evenodd = style.get("fill-rule") == "evenodd"
        fill_alpha = opacity(style.get("fill-opacity")) * scale
        stroke_alpha = opacity(style.get("stroke-opacity")) * scale
        if (
            (fill.colour is not None or fill is NO_PAINT)
            and (stroke.colour is not None or stroke is NO_PAINT)
            and "paint-order" not in style
        ):
            self.plain(
                geometry, fill.colour, stroke.colour, fill_alpha, stroke_alpha, line, evenodd
            )
            return
        painted = geometry.bbox
        if painted is not None and line is not None:  # the stroke's reach, for gradients
            grow = line[0] * max(line[3], 1.0)
            painted = (painted[0] - grow, painted[1] - grow, painted[2] + grow, painted[3] + grow)
        fill_paint = self.paint_of(fill, geometry.bbox, geometry.bbox, ctx, element)
        stroke_paint = self.paint_of(stroke, geometry.bbox, painted, ctx, element)
        order = (style.get("paint-order") or "normal").split()
        stroke_first = order[:1] == ["stroke"] or order[:2] == ["markers", "stroke"]
        if not stroke_first and fill_paint and stroke_paint and _plain(fill_paint, stroke_paint):
            fa, sa = fill_paint[1] * fill_alpha, stroke_paint[1] * stroke_alpha
            if fa > 0 and sa >= 1:  # B knocks the fill out under the stroke
                assert line is not None
                b = self.b
                b.fill(fill_paint[0], fa)
                b.stroke(stroke_paint[0], sa)
                b.line(*line)
                b.literal.append(geometry.pdf)
                b.literal.append("B*" if evenodd else "B")
                self.dots(geometry, stroke_paint[0], sa, line)
                return
        steps = [(False, fill_paint), (True, stroke_paint)]
        if stroke_first:
            steps.reverse()
        for is_stroke, resolved in steps:
            if resolved is None:
                continue
            if is_stroke:
                assert line is not None
                self.stroke_with(geometry, resolved, stroke_alpha, line, ctx)
            else:
                self.fill_with(geometry, resolved, fill_alpha, evenodd, ctx)

    def plain(
        self,
        geometry: Geometry,
        fill: tuple | None,
        stroke: tuple | None,
        fill_alpha: float,
        stroke_alpha: float,
        line: tuple | None,
        evenodd: bool,
    ) -> None:
        """Fill and stroke in plain colours: the common case, kept short."""
        b = self.b
        fa = fill[3] * fill_alpha if fill is not None else 0.0
        sa = stroke[3] * stroke_alpha if stroke is not None else 0.0
        if fa > 0 and sa >= 1:  # B knocks the fill out under the stroke: only when opaque
            b.fill(fill[:3], fa)  # type: ignore[index]
            b.stroke(stroke[:3], sa)  # type: ignore[index]
            b.line(*line)  # type: ignore[misc]
            b.literal.append(geometry.pdf)
            b.literal.append("B*" if evenodd else "B")
            self.dots(geometry, stroke[:3], sa, line)  # type: ignore[index, arg-type]
            return
        if fa > 0:
            b.fill(fill[:3], fa)  # type: ignore[index]
            b.literal.append(geometry.pdf)
            b.literal.append("f*" if evenodd else "f")
        if sa > 0:
            b.stroke(stroke[:3], sa)  # type: ignore[index]
            b.line(*line)  # type: ignore[misc]
            b.literal.append(geometry.pdf)
            b.literal.append("S")
            self.dots(geometry, stroke[:3], sa, line)  # type: ignore[index, arg-type]

    def fill_with(
        self, geometry: Geometry, resolved: tuple, alpha: float, evenodd: bool, ctx: Ctx
    ) -> None:
        """Fill a geometry with a colour or a gradient."""
        operator = "f*" if evenodd else "f"
        if resolved[0] is not None:
            rgb, colour_alpha = resolved
            total = colour_alpha * alpha
            if total <= 0:
                return
            self.b.fill(rgb, total)
            self.b.literal.append(geometry.pdf)
            self.b.literal.append(operator)
            return
        self.gradient(resolved[1], alpha, False, (f"{geometry.pdf} {operator}",), ctx)

    def stroke_with(
        self, geometry: Geometry, resolved: tuple, alpha: float, line: tuple, ctx: Ctx
    ) -> None:
        """Stroke a geometry with a colour or a gradient."""
        if resolved[0] is not None:
            rgb, colour_alpha = resolved
            total = colour_alpha * alpha
            if total <= 0:
                return
            b = self.b
            b.stroke(rgb, total)
            b.line(*line)
            b.literal.append(geometry.pdf)
            b.literal.append("S")
            self.dots(geometry, rgb, total, line)
            return
        inner = Builder(self.b.state)
        inner.line(*line)
        inner.literal.append(f"{geometry.pdf} S")
        self.gradient(resolved[1], alpha, True, inner.finish(), ctx)

    def dots(self, geometry: Geometry, rgb: tuple, alpha: float, line: tuple) -> None:
        """Square caps of zero-length subpaths, which PDF leaves out (round ones it draws)."""
        if not geometry.dots or line[1] != 2:
            return
        half = line[0] / 2
        self.b.fill(rgb, alpha)
        for x, y in geometry.dots:
            self.b.literal.append(f"{fmt(x - half, y - half, line[0], line[0])} re f")

    def gradient(
        self, server: gradients.Server, alpha: float, stroke: bool, ops: tuple, ctx: Ctx
    ) -> None:
        """``ops`` painted with a gradient or a pattern at ``alpha`` times the opacity its
        stops share. A pattern's tile sets its own alphas, which some viewers let replace
        the alpha it is painted at: a pattern not opaque is painted in a group."""
        total = alpha * server.opacity
        box = self.viewport_box(ctx)
        if total <= 0 or box is None:
            return
        b = self.b
        paint = (PAINT, box, server.shading, server.alpha, server.matrix, stroke, ops)
        if server.shading[0] == "tile":
            if total < 1:
                b.save()
                b.op(FILL_ALPHA, total)
                b.op(STROKE_ALPHA, total)
                b.op(GROUP, box, None, (paint,))
                b.restore()
            else:
                b.op(*paint)
            return
        b.state[3 if stroke else 1] = None
        b.op(STROKE_ALPHA if stroke else FILL_ALPHA, total)
        b.op(*paint)

    def paint_of(
        self,
        value: Paint,
        bbox: Box | None,
        painted: Box | None,
        ctx: Ctx,
        element: etree._Element,
    ) -> tuple | None:
        """A paint resolved: (rgb, alpha) for a colour, (None, Server) for a gradient, None
        for nothing."""
        value = actual(value, ctx.style)
        if value.colour is None and value.url is None:
            return None
        if value.colour is not None:
            r, g, b, a = value.colour
            return ((r, g, b), a) if a > 0 else None
        server = self.lookup(value.url)
        kind = local_name(server) if server is not None else None
        if kind in ("linearGradient", "radialGradient"):
            assert server is not None
            result = gradients.resolve(_Resolver(self, ctx), server, bbox, painted)
            if result is None and value.fallback is not None:
                return self.paint_of(value.fallback, bbox, painted, ctx, element)
            if result is None:
                return None
            if isinstance(result, gradients.Solid):
                return (result.rgb, result.alpha) if result.alpha > 0 else None
            return (None, result)
        if kind == "pattern" and server not in self.active:
            assert server is not None
            tiles = patterns.resolve(self, element, server, bbox, painted, ctx)
            if tiles is not None:
                return (None, tiles)
        if value.fallback is not None:
            return self.paint_of(value.fallback, bbox, painted, ctx, element)
        return None

    def tile(
        self,
        content: etree._Element,
        pattern: etree._Element,
        ctx: Ctx,
        matrix: Matrix,
        size: tuple[float, float],
    ) -> tuple:
        """The operations of a pattern's tile of ``size``: its content's children, drawn
        through ``matrix`` into the tile."""
        canvas = self.canvas
        self.canvas = (0.0, 0.0, *size)
        inner = self.context_of(content, ctx)
        inner = Ctx(inner.style, inner.font_size, inner.vw, inner.vh, matrix)
        self.builders.append(Builder())
        self.active.append(pattern)
        try:
            if matrix != IDENTITY:
                self.b.op(TRANSFORM, matrix)
            self.children(content, inner)
        finally:
            self.active.pop()
            ops = self.builders.pop().finish()
            self.canvas = canvas
        return ops if any(op.__class__ is str or op[0] != TRANSFORM for op in ops) else ()

    # --- bounding boxes -------------------------------------------------------------------

    def content_bbox(self, element: etree._Element, ctx: Ctx) -> Box | None:
        """The bounding box of what an element holds, in its own user space."""
        box = None
        for child in element:
            box = union(box, self.bbox_of(child, ctx))
        return box

    def bbox_of(self, element: etree._Element, ctx: Ctx) -> Box | None:
        """The bounding box of an element in its parent's user space (fill only)."""
        name = local_name(element)
        if name is None:
            return None
        attrs = self.specified(element)
        if (attrs.get("display") or "").strip() == "none":
            return None
        inner = inherit(attrs, ctx)
        box: Box | None = None
        if name in SHAPES:
            box = self.geometry(name, attrs, inner).bbox
        elif name == "text":
            runs = textruns.layout(self, element, attrs, inner)
            box = textruns.bbox(runs)
        elif name in ("g", "a", "switch", "svg", "symbol"):
            for child in element:
                box = union(box, self.bbox_of(child, inner))
        elif name == "use":
            href = href_of(attrs)
            target = self.lookup(href[1:]) if href and href.startswith("#") else None
            if (
                target is not None
                and target not in self.active
                and not is_ancestor(target, element)
            ):
                self.active.append(target)
                try:
                    box = self.bbox_of(target, inner)
                finally:
                    self.active.pop()
                if box is not None:
                    x, y = attr_length(attrs, "x", inner, "x"), attr_length(attrs, "y", inner, "y")
                    box = (box[0] + x, box[1] + y, box[2] + x, box[3] + y)
        elif name == "image":
            x, y = attr_length(attrs, "x", inner, "x"), attr_length(attrs, "y", inner, "y")
            w = attr_length(attrs, "width", inner, "x")
            h = attr_length(attrs, "height", inner, "y")
            box = (x, y, x + w, y + h) if w > 0 and h > 0 else None
        if box is None:
            return None
        try:
            matrix = transform(attrs.get("transform", ""))
        except ValueError:
            matrix = IDENTITY
        return bbox_through(matrix, box) if matrix != IDENTITY else box

    # --- text -----------------------------------------------------------------------------

    def text(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """A text element: its runs of glyphs, filled and stroked (as one group when its
        opacity applies to strokes over fills)."""
        runs = textruns.layout(self, element, attrs, ctx)
        if not runs:
            return
        boxes: list[Box | None] = []

        def bbox() -> Box | None:
            if not boxes:
                boxes.append(textruns.bbox(runs))
            return boxes[0]

        if SPECIAL.isdisjoint(attrs):
            for run in runs:
                self.paint_run(element, run, bbox, ctx, 1.0)
            return
        single = all(run.style.get("stroke", NO_PAINT) is NO_PAINT for run in runs)
        alphas: list[float] = []

        def body(inner: Ctx) -> None:
            scale = alphas[0] if alphas else 1.0
            for run in runs:
                self.paint_run(element, run, bbox, inner, scale)

        self.render(element, attrs, ctx, body, fold=single, bbox=bbox, opacity_in=alphas)

    def paint_run(
        self,
        element: etree._Element,
        run: textruns.Run,
        bbox: Callable[[], Box | None],
        ctx: Ctx,
        scale: float,
    ) -> None:
        """One run of text in its own fill and stroke."""
        style = run.style
        if style.get("visibility", "visible") != "visible":
            return
        fill_value = style.get("fill", BLACK)
        fill = (
            ((fill_value.colour[:3], fill_value.colour[3]) if fill_value.colour[3] > 0 else None)
            if fill_value.colour is not None
            else self.paint_of(fill_value, bbox(), bbox(), ctx, element)
        )
        stroke_value = style.get("stroke", NO_PAINT)
        line = None
        stroke = None
        if stroke_value is not NO_PAINT:
            line = self.line_style(style, run.ctx, EMPTY, element)
            if line is not None:
                stroke = self.paint_of(stroke_value, bbox(), bbox(), ctx, element)
        fill_alpha = opacity(style.get("fill-opacity")) * scale
        stroke_alpha = opacity(style.get("stroke-opacity")) * scale
        text_op = (TEXT, run.font, run.size, run.x, run.y, run.text)
        b = self.b
        if fill is not None and fill[0] is not None and fill[1] * fill_alpha > 0:
            b.fill(fill[0], fill[1] * fill_alpha)
            mode = 0
            if stroke is not None and stroke[0] is not None and stroke[1] * stroke_alpha > 0:
                assert line is not None
                b.stroke(stroke[0], stroke[1] * stroke_alpha)
                b.line(*line)
                mode = 2
                stroke = None
            b.op(*text_op, mode, run.spacing)
        elif fill is not None and fill[0] is None:
            self.gradient(fill[1], fill_alpha, False, ((*text_op, 0, run.spacing),), ctx)
        if stroke is None:
            return
        assert line is not None
        if stroke[0] is not None:
            if stroke[1] * stroke_alpha > 0:
                b.stroke(stroke[0], stroke[1] * stroke_alpha)
                b.line(*line)
                b.op(*text_op, 1, run.spacing)
            return
        inner = Builder(b.state)
        inner.line(*line)
        inner.op(*text_op, 1, run.spacing)
        self.gradient(stroke[1], stroke_alpha, True, inner.finish(), ctx)

    def foreign(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """``foreignObject``: not drawn."""
        self.warn("<foreignObject", f"{self.where(element)} is not drawn")


HANDLERS = {  # the element each method draws, by its tag with the SVG namespace
    "g": Compiler.group,
    "a": Compiler.group,
    "switch": Compiler.switch,
    "use": Compiler.use,
    "svg": Compiler.svg,
    "text": Compiler.text,
    "image": Compiler.image,
    "foreignObject": Compiler.foreign,
    **dict.fromkeys(SHAPES, Compiler.shape),
}
HANDLERS = {NS + name: handler for name, handler in HANDLERS.items()}


class _Resolver(gradients.Resolver):
    """What gradients need from the compiler, in one element's context."""

    def __init__(self, compiler: Compiler, ctx: Ctx):
        self.specified = compiler.specified
        self.lookup = compiler.lookup
        self.user_length = lambda value, axis: user(value, ctx, axis)
        self.current_colour = compiler.current_colour


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


def _plain(*resolved: tuple) -> bool:
    """Whether every resolved paint is a plain colour."""
    return all(r[0] is not None for r in resolved)


def _conditions_hold(attrs: dict[str, str]) -> bool:
    """A ``switch`` child's conditions: no extension is supported, English is."""
    if "requiredExtensions" in attrs and attrs["requiredExtensions"].strip():
        return False
    languages = attrs.get("systemLanguage")
    if languages is not None:
        wanted = [lang.strip().lower() for lang in languages.split(",")]
        return any(lang == "en" or lang.startswith("en-") for lang in wanted)
    return True
