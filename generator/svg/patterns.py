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

from typing import TYPE_CHECKING

from lxml import etree

from generator.svg.builder import parse_view_box, view_box_matrix
from generator.svg.gradients import Server, href_of
from generator.svg.properties import user
from generator.svg.values import (
    IDENTITY,
    Length,
    Matrix,
    bbox_through,
    invert,
    length,
    multiply,
    transform,
)

if TYPE_CHECKING:
    from generator.svg.builder import Ctx
    from generator.svg.compiler import Compiler

PATTERN = "{http://www.w3.org/2000/svg}pattern"
MAX_TILES = 100_000
Box = tuple[float, float, float, float]


def _chain(compiler: Compiler, pattern: etree._Element) -> list[tuple[etree._Element, dict]]:
    """The pattern and those its href chain leads to, each with its attributes."""
    chain = []
    seen: set[int] = set()
    current: etree._Element | None = pattern
    while current is not None and current.tag == PATTERN and id(current) not in seen:
        seen.add(id(current))
        attrs = compiler.specified(current)
        chain.append((current, attrs))
        target = href_of(attrs)
        current = compiler.lookup(target) if target else None
    return chain


def _first(chain: list, name: str) -> str | None:
    """The first value of an attribute along the chain."""
    for _, attrs in chain:
        if name in attrs:
            return attrs[name]
    return None


def resolve(
    compiler: Compiler,
    element: etree._Element,
    pattern: etree._Element,
    bbox: Box | None,
    painted: Box | None,
    ctx: Ctx,
) -> Server | None:
    """The tiling of a pattern for an element with bounding box ``bbox`` whose painted area
    is ``painted``; None when it paints nothing."""
    chain = _chain(compiler, pattern)
    content = next((e for e, _ in chain if any(isinstance(c.tag, str) for c in e)), None)
    bounding = (_first(chain, "patternUnits") or "").strip() != "userSpaceOnUse"
    on_box = bounding or (_first(chain, "patternContentUnits") or "").strip() == (
        "objectBoundingBox"
    )
    if content is None or (on_box and (bbox is None or bbox[2] <= bbox[0] or bbox[3] <= bbox[1])):
        return None
    x, y, w, h = _tile(compiler, chain, ctx, bbox if bounding else None)
    if w <= 0 or h <= 0:
        return None
    try:
        own = transform(_first(chain, "patternTransform") or "")
    except ValueError:
        own = IDENTITY
    matrix = multiply(own, (1.0, 0.0, 0.0, 1.0, x, y))
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
    cell = _content_matrix(compiler, chain, w, h, bbox)
    ops = compiler.tile(content, pattern, ctx, cell, (w, h))
    if not ops:
        return None
    return Server(("tile", (w, h), ops), None, matrix, 1.0)


def _tile(
    compiler: Compiler, chain: list, ctx: Ctx, box: Box | None
) -> tuple[float, float, float, float]:
    """x, y, width and height of the tile: fractions of ``box``, or user lengths."""
    values = []
    for name, axis in (("x", "x"), ("y", "y"), ("width", "x"), ("height", "y")):
        text = _first(chain, name)
        try:
            value = length(text) if text is not None else Length(0.0, "")
        except ValueError:
            value = Length(0.0, "")
        if box is None:
            values.append(user(value, ctx, axis))
            continue
        fraction = value.value / 100 if value.unit == "%" else value.value
        start, size = (box[0], box[2] - box[0]) if axis == "x" else (box[1], box[3] - box[1])
        values.append(fraction * size + (start if name in ("x", "y") else 0.0))
    x, y, w, h = values
    return x, y, w, h


def _content_matrix(
    compiler: Compiler, chain: list, w: float, h: float, bbox: Box | None
) -> Matrix:
    """From the pattern's content to its tile: its viewBox, else the bounding box's size
    (patternContentUnits objectBoundingBox), else nothing."""
    box = parse_view_box(_first(chain, "viewBox"))
    if box is not None:
        return view_box_matrix(box, _first(chain, "preserveAspectRatio"), w, h)
    if (_first(chain, "patternContentUnits") or "").strip() == "objectBoundingBox":
        assert bbox is not None
        return (bbox[2] - bbox[0], 0.0, 0.0, bbox[3] - bbox[1], 0.0, 0.0)
    return IDENTITY
