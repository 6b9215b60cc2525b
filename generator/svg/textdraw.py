"""Text drawn: a ``text`` element's runs of glyphs (laid out by ``textruns``), each filled and
stroked in its own paints, as one group when the element's opacity applies to strokes over
fills. A plain fill and stroke are one text operation (render mode 2); a gradient or pattern
paints the glyphs through ``painting.paint_with``.
"""

from __future__ import annotations

from lxml import etree

from generator.svg import painting, textruns
from generator.svg.builder import Box, Builder, Ctx
from generator.svg.compiling import Compiling, LazyBox
from generator.svg.path import EMPTY
from generator.svg.pdf import TEXT
from generator.svg.properties import BLACK, SPECIAL
from generator.svg.values import NO_PAINT, opacity

FILL, STROKE, FILL_AND_STROKE = 0, 1, 2  # PDF's text render modes


def text(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """A text element: its runs of glyphs, filled and stroked (as one group when its
    opacity applies to strokes over fills)."""
    runs = textruns.layout(compiler, element, attrs, ctx)
    if not runs:
        return
    boxes: list[Box | None] = []

    def bbox() -> Box | None:
        if not boxes:
            boxes.append(textruns.bbox(runs))
        return boxes[0]

    if SPECIAL.isdisjoint(attrs):
        for run in runs:
            paint_run(compiler, element, run, bbox, ctx, 1.0)
        return
    single = all(run.ctx.paints.get("stroke", NO_PAINT) is NO_PAINT for run in runs)
    alphas: list[float] = []

    def body(inner: Ctx) -> None:
        scale = alphas[0] if alphas else 1.0
        for run in runs:
            paint_run(compiler, element, run, bbox, inner, scale)

    compiler.render(element, attrs, ctx, body, fold=single, bbox=bbox, opacity_in=alphas)


def paint_run(
    compiler: Compiling,
    element: etree._Element,
    run: textruns.Run,
    bbox: LazyBox,
    ctx: Ctx,
    scale: float,
) -> None:
    """One run of text in its own fill and stroke, ``scale`` multiplying their alphas."""
    style, paints = run.ctx.style, run.ctx.paints
    if style.get("visibility", "visible") != "visible":
        return
    fill_value = paints.get("fill", BLACK)
    fill = (
        ((fill_value.colour[:3], fill_value.colour[3]) if fill_value.colour[3] > 0 else None)
        if fill_value.colour is not None
        else painting.paint_of(compiler, fill_value, bbox(), bbox(), ctx, element)
    )
    stroke_value = paints.get("stroke", NO_PAINT)
    line = None
    stroke = None
    if stroke_value is not NO_PAINT:
        line = painting.line_style(compiler, style, run.ctx, EMPTY, element)
        if line is not None:
            stroke = painting.paint_of(compiler, stroke_value, bbox(), bbox(), ctx, element)
    fill_alpha = opacity(style.get("fill-opacity")) * scale
    stroke_alpha = opacity(style.get("stroke-opacity")) * scale
    op = (TEXT, run.font, run.size, run.x, run.y, run.text)
    extra = () if run.rtl is None else (run.rtl,)  # the direction shaped text is laid out in
    b = compiler.b
    if fill is not None and fill[0] is not None and fill[1] * fill_alpha > 0:
        b.fill(fill[0], fill[1] * fill_alpha)
        mode = FILL
        if stroke is not None and stroke[0] is not None and stroke[1] * stroke_alpha > 0:
            assert line is not None
            b.stroke(stroke[0], stroke[1] * stroke_alpha)
            b.line(*line)
            mode = FILL_AND_STROKE
            stroke = None
        b.op(*op, mode, run.spacing, *extra)
    elif fill is not None and fill[0] is None:
        painting.paint_with(
            compiler, fill[1], fill_alpha, False, ((*op, FILL, run.spacing, *extra),), ctx
        )
    if stroke is None or line is None:
        return
    if stroke[0] is not None:
        if stroke[1] * stroke_alpha > 0:
            b.stroke(stroke[0], stroke[1] * stroke_alpha)
            b.line(*line)
            b.op(*op, STROKE, run.spacing, *extra)
        return
    inner = Builder(b.state)
    inner.line(*line)
    inner.op(*op, STROKE, run.spacing, *extra)
    painting.paint_with(compiler, stroke[1], stroke_alpha, True, inner.finish(), ctx)
