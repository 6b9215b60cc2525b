"""SVG patterns as PDF tiling patterns: a pattern's tile is compiled once like any other SVG
and repeated by the PDF viewer.

A pattern takes each attribute from the first pattern along its ``href`` chain that has it,
and its content from the first that has any. The tile (x, y, width, height) is in the
bounding box of the painted element (``patternUnits``, the default) or in user space, moved
by ``patternTransform``; its content is in user space, in the bounding box
(``patternContentUnits``) or in its ``viewBox``. A tile so small that the painted area would
need more than ``MAX_TILES`` copies is not drawn (a warning).
"""

from __future__ import annotations

from lxml import etree

from generator.svg.builder import NS, Box, Builder, Ctx, parse_view_box, view_box_matrix
from generator.svg.compiling import Compiling
from generator.svg.gradients import Chain, Server, chain_of, first
from generator.svg.pdf import TRANSFORM, Ops
from generator.svg.properties import matrix_of, rectangle
from generator.svg.values import IDENTITY, Length, Matrix, bbox_through, invert, multiply

PATTERN = f"{NS}pattern"
MAX_TILES = 100_000  # copies of a tile the painted area may need before it is not drawn
TILE = (Length(0.0, ""),) * 4  # x, y, width and height of a tile when not given


def resolve(
    compiler: Compiling,
    element: etree._Element,
    pattern: etree._Element,
    bbox: Box | None,
    painted: Box | None,
    ctx: Ctx,
) -> Server | None:
    """The tiling of a pattern for an element with bounding box ``bbox`` whose painted area
    is ``painted``; None when it paints nothing."""
    chain = chain_of(compiler, pattern, (PATTERN,))
    content = next((e for e, _ in chain if any(isinstance(c.tag, str) for c in e)), None)
    bounding = (first(chain, "patternUnits") or "").strip() != "userSpaceOnUse"
    on_box = bounding or (first(chain, "patternContentUnits") or "").strip() == (
        "objectBoundingBox"
    )
    if content is None or (on_box and (bbox is None or bbox[2] <= bbox[0] or bbox[3] <= bbox[1])):
        return None
    texts = [first(chain, name) for name in ("x", "y", "width", "height")]
    x, y, w, h = rectangle(texts, TILE, ctx, bbox if bounding else None)
    if w <= 0 or h <= 0:
        return None
    matrix = multiply(matrix_of(first(chain, "patternTransform")), (1.0, 0.0, 0.0, 1.0, x, y))
    inverse = invert(matrix)
    if inverse is None:
        return None
    if painted is not None:
        x0, y0, x1, y1 = bbox_through(inverse, painted)
        if (x1 - x0) * (y1 - y0) / (w * h) > MAX_TILES:
            compiler.warn(
                "<pattern",
                f"the pattern of {compiler.where(element)} has tiles too small to draw "
                f"(more than {MAX_TILES:,} of them); it is not drawn",
            )
            return None
    cell = _content_matrix(chain, w, h, bbox)
    ops = _tile(compiler, content, pattern, ctx, cell, (w, h))
    if not ops:
        return None
    return Server(("tile", (w, h), ops), None, matrix, 1.0)


def _content_matrix(chain: Chain, w: float, h: float, bbox: Box | None) -> Matrix:
    """From the pattern's content to its tile: its viewBox, else the bounding box's size
    (patternContentUnits objectBoundingBox), else nothing."""
    box = parse_view_box(first(chain, "viewBox"))
    if box is not None:
        return view_box_matrix(box, first(chain, "preserveAspectRatio"), w, h)
    if (first(chain, "patternContentUnits") or "").strip() == "objectBoundingBox":
        assert bbox is not None
        return (bbox[2] - bbox[0], 0.0, 0.0, bbox[3] - bbox[1], 0.0, 0.0)
    return IDENTITY


def _tile(
    compiler: Compiling,
    content: etree._Element,
    pattern: etree._Element,
    ctx: Ctx,
    matrix: Matrix,
    size: tuple[float, float],
) -> Ops:
    """The operations of a pattern's tile of ``size``: its content's children, drawn
    through ``matrix`` into the tile (none when they draw nothing)."""
    canvas = compiler.canvas
    compiler.canvas = (0.0, 0.0, *size)
    inner = compiler.context_of(content, ctx)
    inner = inner.placed(inner.vw, inner.vh, matrix)
    compiler.builders.append(Builder())
    compiler.active.append(pattern)
    try:
        if matrix != IDENTITY:
            compiler.b.op(TRANSFORM, matrix)
        compiler.children(content, inner)
    finally:
        compiler.active.pop()
        ops = compiler.builders.pop().finish()
        compiler.canvas = canvas
    return ops if any(op.__class__ is str or op[0] != TRANSFORM for op in ops) else ()
