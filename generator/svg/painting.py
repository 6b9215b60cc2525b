"""Fills and strokes: the line style of a stroke with its dashes, a paint resolved to a colour,
a gradient (``gradients``) or a pattern's tiles (``patterns``), and an outline or text painted
with it, in ``paint-order``.

Plain colours, the common case, are written as PDF colour operators; a fill and an opaque
stroke in one ``B``. A gradient or a pattern paints its operations through a ``PAINT``
operation, at the alpha its stops share.
"""

from __future__ import annotations

from lxml import etree

from generator.svg import gradients, patterns
from generator.svg.builder import Box, Builder, Ctx, Line, local_name
from generator.svg.compiling import Compiling
from generator.svg.path import Geometry, fmt
from generator.svg.pdf import FILL_ALPHA, GROUP, PAINT, STROKE_ALPHA, Ops
from generator.svg.properties import actual, attr_length, user
from generator.svg.values import NO_PAINT, Paint, Rgb, lengths, number, opacity

MAX_DASHES = 100_000  # dashes along a stroke beyond which it is drawn solid
LINE_CAPS = {"butt": 0, "round": 1, "square": 2}
LINE_JOINS = {"miter": 0, "miter-clip": 0, "arcs": 0, "round": 1, "bevel": 2}
DEFAULT_MITER = 4.0  # SVG's default stroke-miterlimit
SQUARE_CAP = LINE_CAPS["square"]
SOLID = "[] 0 d"  # the dash operator of a solid line
# a paint resolved: a colour and its alpha, or a gradient or pattern (None for no paint)
Resolved = tuple[Rgb, float] | tuple[None, gradients.Server]


# --- line style --------------------------------------------------------------------------


def line_style(
    compiler: Compiling,
    style: dict[str, str],
    ctx: Ctx,
    geometry: Geometry,
    element: etree._Element,
) -> Line | None:
    """(width, cap, join, miter limit, dash operator) of a stroke; None when it is too
    thin to show."""
    width = attr_length(style, "stroke-width", ctx, "xy", 1.0)
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
    return (width, cap, join, miter, dash(compiler, style, ctx, geometry, element))


def dash(
    compiler: Compiling,
    style: dict[str, str],
    ctx: Ctx,
    geometry: Geometry,
    element: etree._Element,
) -> str:
    """The PDF dash operator of stroke-dasharray and stroke-dashoffset (solid when the
    array is none, invalid, negative, all zero or would make too many dashes)."""
    text = style.get("stroke-dasharray")
    if text is None or text.strip() in ("none", ""):
        return SOLID
    try:
        values = [user(v, ctx, "xy") for v in lengths(text)]
    except ValueError:
        return SOLID
    if not values or any(v < 0 for v in values) or sum(values) <= 0:
        return SOLID
    if len(values) % 2:
        values = values * 2
    period = sum(values)
    if geometry.bbox is not None:
        x0, y0, x1, y1 = geometry.bbox
        if 2 * ((x1 - x0) + (y1 - y0)) / period > MAX_DASHES * len(values):
            compiler.warn(
                "stroke-dasharray",
                f"the dashes of {compiler.where(element)} are too many to draw; the line is "
                "drawn solid",
            )
            return SOLID
    offset = attr_length(style, "stroke-dashoffset", ctx, "xy")
    return f"[{fmt(*values)}] {fmt(offset % period)} d"


# --- shapes ------------------------------------------------------------------------------


def paint_shape(
    compiler: Compiling,
    element: etree._Element,
    geometry: Geometry,
    fill: Paint,
    stroke: Paint,
    line: Line | None,
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
        fa = fill.colour[3] * fill_alpha if fill.colour is not None else 0.0
        sa = stroke.colour[3] * stroke_alpha if stroke.colour is not None else 0.0
        plain(compiler.b, geometry, fill.colour, fa, stroke.colour, sa, line, evenodd)
        return
    fill_paint = paint_of(compiler, fill, geometry.bbox, geometry.bbox, ctx, element)
    stroke_paint = paint_of(compiler, stroke, geometry.bbox, reach(geometry, line), ctx, element)
    order = (style.get("paint-order") or "normal").split()
    stroke_first = order[:1] == ["stroke"] or order[:2] == ["markers", "stroke"]
    if (
        not stroke_first
        and fill_paint is not None
        and fill_paint[0] is not None
        and stroke_paint is not None
        and stroke_paint[0] is not None
    ):
        fa, sa = fill_paint[1] * fill_alpha, stroke_paint[1] * stroke_alpha
        if fa > 0 and sa >= 1:  # both plain colours, the stroke opaque: in one B
            plain(compiler.b, geometry, fill_paint[0], fa, stroke_paint[0], sa, line, evenodd)
            return
    if stroke_first and stroke_paint is not None and line is not None:
        stroke_with(compiler, geometry, stroke_paint, stroke_alpha, line, ctx)
    if fill_paint is not None:
        fill_with(compiler, geometry, fill_paint, fill_alpha, evenodd, ctx)
    if not stroke_first and stroke_paint is not None and line is not None:
        stroke_with(compiler, geometry, stroke_paint, stroke_alpha, line, ctx)


def reach(geometry: Geometry, line: Line | None) -> Box | None:
    """The box a stroke paints (its outline grown by the stroke's reach), for gradients."""
    painted = geometry.bbox
    if painted is None or line is None:
        return painted
    grow = line[0] * max(line[3], 1.0)
    return (painted[0] - grow, painted[1] - grow, painted[2] + grow, painted[3] + grow)


def plain(
    b: Builder,
    geometry: Geometry,
    fill: tuple[float, ...] | None,
    fill_alpha: float,
    stroke: tuple[float, ...] | None,
    stroke_alpha: float,
    line: Line | None,
    evenodd: bool,
) -> None:
    """Fill and stroke in plain colours (their first three components) at these alphas:
    the common case, kept short; a fill under an opaque stroke in one ``B``."""
    fa = fill_alpha if fill is not None else 0.0
    sa = stroke_alpha if stroke is not None and line is not None else 0.0
    if fa > 0 and sa >= 1:  # B knocks the fill out under the stroke: only when opaque
        assert fill is not None and stroke is not None and line is not None
        b.fill(fill[:3], fa)
        b.stroke(stroke[:3], sa)
        b.line(*line)
        b.literal.append(geometry.pdf)
        b.literal.append("B*" if evenodd else "B")
        dots(b, geometry, stroke[:3], sa, line)
        return
    if fa > 0:
        assert fill is not None
        b.fill(fill[:3], fa)
        b.literal.append(geometry.pdf)
        b.literal.append("f*" if evenodd else "f")
    if sa > 0:
        assert stroke is not None and line is not None
        b.stroke(stroke[:3], sa)
        b.line(*line)
        b.literal.append(geometry.pdf)
        b.literal.append("S")
        dots(b, geometry, stroke[:3], sa, line)


def fill_with(
    compiler: Compiling,
    geometry: Geometry,
    resolved: Resolved,
    alpha: float,
    evenodd: bool,
    ctx: Ctx,
) -> None:
    """Fill a geometry with a colour or a gradient."""
    if resolved[0] is not None:
        plain(compiler.b, geometry, resolved[0], resolved[1] * alpha, None, 0.0, None, evenodd)
        return
    operator = "f*" if evenodd else "f"
    paint_with(compiler, resolved[1], alpha, False, (f"{geometry.pdf} {operator}",), ctx)


def stroke_with(
    compiler: Compiling,
    geometry: Geometry,
    resolved: Resolved,
    alpha: float,
    line: Line,
    ctx: Ctx,
) -> None:
    """Stroke a geometry with a colour or a gradient."""
    if resolved[0] is not None:
        plain(compiler.b, geometry, None, 0.0, resolved[0], resolved[1] * alpha, line, False)
        return
    inner = Builder(compiler.b.state)
    inner.line(*line)
    inner.literal.append(f"{geometry.pdf} S")
    paint_with(compiler, resolved[1], alpha, True, inner.finish(), ctx)


def dots(b: Builder, geometry: Geometry, rgb: tuple[float, ...], alpha: float, line: Line) -> None:
    """Square caps of zero-length subpaths, which PDF leaves out (round ones it draws)."""
    if not geometry.dots or line[1] != SQUARE_CAP:
        return
    half = line[0] / 2
    b.fill(rgb, alpha)
    for x, y in geometry.dots:
        b.literal.append(f"{fmt(x - half, y - half, line[0], line[0])} re f")


# --- gradients and patterns --------------------------------------------------------------


def paint_with(
    compiler: Compiling, server: gradients.Server, alpha: float, stroke: bool, ops: Ops, ctx: Ctx
) -> None:
    """``ops`` painted with a gradient or a pattern at ``alpha`` times the opacity its
    stops share. A pattern's tile sets its own alphas, which some viewers let replace
    the alpha it is painted at: a pattern not opaque is painted in a group."""
    total = alpha * server.opacity
    box = compiler.viewport_box(ctx)
    if total <= 0 or box is None:
        return
    b = compiler.b
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
    compiler: Compiling,
    value: Paint,
    bbox: Box | None,
    painted: Box | None,
    ctx: Ctx,
    element: etree._Element,
) -> Resolved | None:
    """A paint resolved: (rgb, alpha) for a colour, (None, Server) for a gradient or a
    pattern, None for nothing (its fallback, when what it refers to paints nothing)."""
    value = actual(value, ctx)
    if value.colour is not None:
        r, g, b, a = value.colour
        return ((r, g, b), a) if a > 0 else None
    if value.url is None:
        return None
    server = compiler.lookup(value.url)
    kind = local_name(server) if server is not None else None
    if server is not None and kind in ("linearGradient", "radialGradient"):
        result = gradients.resolve(compiler, ctx, server, bbox, painted)
        if isinstance(result, gradients.Solid):
            return (result.rgb, result.alpha) if result.alpha > 0 else None
        if result is not None:
            return (None, result)
    elif server is not None and kind == "pattern" and server not in compiler.active:
        tiles = patterns.resolve(compiler, element, server, bbox, painted, ctx)
        if tiles is not None:
            return (None, tiles)
    if value.fallback is not None:
        return paint_of(compiler, value.fallback, bbox, painted, ctx, element)
    return None
