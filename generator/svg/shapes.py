"""The basic shapes and paths: their outlines (``geometry_of``), drawn filled and stroked
(``shape``, painted by ``painting``), and the bounding boxes of anything the compiler draws
(``bbox_of``), which gradients, patterns, clip paths and masks in ``objectBoundingBox``
units are sized by.
"""

from __future__ import annotations

from lxml import etree

from generator.svg import painting, textruns
from generator.svg.builder import NS, Box, Ctx, href_of, is_ancestor, local_name, union
from generator.svg.compiling import Compiling
from generator.svg.path import (
    EMPTY,
    Geometry,
    ellipse_geometry,
    line_geometry,
    path_geometry,
    polyline_geometry,
    rect_geometry,
)
from generator.svg.properties import BLACK, SPECIAL, attr_length, inherit, matrix_of
from generator.svg.values import IDENTITY, NO_PAINT, bbox_through, number_prefix

SHAPES = frozenset(("rect", "circle", "ellipse", "line", "polyline", "polygon", "path"))
MARKED = frozenset(("path", "line", "polyline", "polygon"))
MARKERS = frozenset(("marker-start", "marker-mid", "marker-end"))
CONTAINERS = frozenset(("g", "a", "switch", "svg", "symbol"))


def shape(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """A basic shape or a path, filled and stroked."""
    tag = element.tag[len(NS) :]
    geometry = geometry_of(tag, attrs, ctx)
    if not geometry.pdf:
        return
    style = ctx.style
    visibility = style.get("visibility")
    if visibility is not None and visibility != "visible":
        return
    if not MARKERS.isdisjoint(style) and tag in MARKED:
        markers(compiler, element, style)
    fill = ctx.paints.get("fill", BLACK) if geometry.fillable else NO_PAINT
    stroke = ctx.paints.get("stroke", NO_PAINT)
    line = (
        painting.line_style(compiler, style, ctx, geometry, element)
        if stroke is not NO_PAINT
        else None
    )
    if line is None:
        stroke = NO_PAINT
    painted = (fill is not NO_PAINT) + (stroke is not NO_PAINT)
    if not painted:
        return
    if SPECIAL.isdisjoint(attrs):  # the common case: painted where it stands
        painting.paint_shape(compiler, element, geometry, fill, stroke, line, ctx, 1.0)
        return
    alphas: list[float] = []

    def body(inner: Ctx) -> None:
        scale = alphas[0] if alphas else 1.0
        painting.paint_shape(compiler, element, geometry, fill, stroke, line, inner, scale)

    compiler.render(
        element, attrs, ctx, body, fold=painted == 1, bbox=lambda: geometry.bbox,
        opacity_in=alphas,
    )  # fmt: skip


def markers(compiler: Compiling, element: etree._Element, style: dict[str, str]) -> None:
    """Warn of markers, which are not drawn."""
    if any(style.get(name, "none") != "none" for name in MARKERS):
        compiler.warn("marker", f"markers on {compiler.where(element)} are not drawn")


def geometry_of(tag: str, attrs: dict[str, str], ctx: Ctx) -> Geometry:
    """The outline of a shape (EMPTY when it draws nothing)."""
    if tag == "path":
        d = attrs.get("d")
        return path_geometry(d) if d else EMPTY
    if tag in ("polyline", "polygon"):
        points = number_prefix(attrs.get("points", ""))
        return polyline_geometry(points, tag == "polygon")
    if tag == "rect":
        return rect(attrs, ctx)
    if tag == "circle":
        r = attr_length(attrs, "r", ctx, "xy")
        if r <= 0:
            return EMPTY
        return ellipse_geometry(
            attr_length(attrs, "cx", ctx, "x"), attr_length(attrs, "cy", ctx, "y"), r, r
        )
    if tag == "ellipse":
        rx, ry = radii(attrs, ctx)
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


def radii(attrs: dict[str, str], ctx: Ctx) -> tuple[float, float]:
    """rx and ry of a rect or ellipse: a missing, negative or 'auto' one equals the
    other (0 when both are)."""
    rx = attr_length(attrs, "rx", ctx, "x", -1.0)
    ry = attr_length(attrs, "ry", ctx, "y", -1.0)
    if rx < 0:
        rx = ry
    if ry < 0:
        ry = rx
    return max(rx, 0.0), max(ry, 0.0)


def rect(attrs: dict[str, str], ctx: Ctx) -> Geometry:
    """A rect's outline (EMPTY without a positive width and height)."""
    x, y, w, h = placed(attrs, ctx)
    if w <= 0 or h <= 0:
        return EMPTY
    rx, ry = radii(attrs, ctx)
    return rect_geometry(x, y, w, h, min(rx, w / 2), min(ry, h / 2))


def placed(attrs: dict[str, str], ctx: Ctx, unsized: float = 0.0) -> Box:
    """x, y, width and height of a rect, an image or a viewport (``unsized`` for a width or
    height not given)."""
    return (
        attr_length(attrs, "x", ctx, "x"),
        attr_length(attrs, "y", ctx, "y"),
        attr_length(attrs, "width", ctx, "x", unsized),
        attr_length(attrs, "height", ctx, "y", unsized),
    )


# --- bounding boxes ----------------------------------------------------------------------


def content_bbox(compiler: Compiling, element: etree._Element, ctx: Ctx) -> Box | None:
    """The bounding box of what an element holds, in its own user space."""
    box = None
    for child in element:
        box = union(box, bbox_of(compiler, child, ctx))
    return box


def bbox_of(compiler: Compiling, element: etree._Element, ctx: Ctx) -> Box | None:
    """The bounding box of an element in its parent's user space (fill only)."""
    name = local_name(element)
    if name is None:
        return None
    attrs = compiler.specified(element)
    if (attrs.get("display") or "").strip() == "none":
        return None
    inner = inherit(attrs, ctx)
    box: Box | None = None
    if name in SHAPES:
        box = geometry_of(name, attrs, inner).bbox
    elif name == "text":
        box = textruns.bbox(textruns.layout(compiler, element, attrs, inner))
    elif name in CONTAINERS:
        box = content_bbox(compiler, element, inner)
    elif name == "use":
        box = _use_bbox(compiler, element, attrs, inner)
    elif name == "image":
        x, y, w, h = placed(attrs, inner)
        box = (x, y, x + w, y + h) if w > 0 and h > 0 else None
    if box is None:
        return None
    matrix = matrix_of(attrs.get("transform"))
    return bbox_through(matrix, box) if matrix != IDENTITY else box


def _use_bbox(
    compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx
) -> Box | None:
    """The bounding box of what a ``use`` draws, moved by its x and y (None for a use that
    refers to nothing, or back to itself)."""
    href = href_of(attrs)
    target = compiler.lookup(href[1:]) if href and href.startswith("#") else None
    if target is None or target in compiler.active or is_ancestor(target, element):
        return None
    compiler.active.append(target)
    try:
        box = bbox_of(compiler, target, ctx)
    finally:
        compiler.active.pop()
    if box is None:
        return None
    x, y = attr_length(attrs, "x", ctx, "x"), attr_length(attrs, "y", ctx, "y")
    return (box[0] + x, box[1] + y, box[2] + x, box[3] + y)
