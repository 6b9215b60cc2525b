"""The elements that hold others: ``g`` and ``a`` (a group), ``switch`` (its first child whose
conditions hold), ``use`` (its target drawn in its place, the use's fill and stroke its context
paints), nested ``svg`` and ``symbol`` (a new viewport, clipped to it unless its overflow is
visible). A ``use`` that leads back to itself draws nothing.
"""

from __future__ import annotations

from lxml import etree

from generator.svg import shapes
from generator.svg.builder import (
    NS,
    Ctx,
    href_of,
    is_ancestor,
    local_name,
    parse_view_box,
    view_box_matrix,
)
from generator.svg.compiling import Compiling
from generator.svg.path import fmt
from generator.svg.pdf import TRANSFORM
from generator.svg.properties import BLACK, actual, attr_length, inherit
from generator.svg.values import IDENTITY, NO_PAINT, multiply

MAX_REFERENCES = 10_000  # elements a use's references are followed through, looking for a loop
VIEWPORTS = frozenset(("symbol", "svg"))


def group(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """``g`` and ``a``: their children, as one group."""
    compiler.render(element, attrs, ctx, lambda c: compiler.children(element, c), fold=False)


def switch(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """``switch``: the first child whose conditions hold."""
    chosen = next(
        (
            child
            for child in element
            if local_name(child) is not None and conditions_hold(compiler.specified(child))
        ),
        None,
    )
    if chosen is not None:
        compiler.render(element, attrs, ctx, lambda c: compiler.node(chosen, c), fold=False)


def conditions_hold(attrs: dict[str, str]) -> bool:
    """A ``switch`` child's conditions: no extension is supported, English is."""
    if "requiredExtensions" in attrs and attrs["requiredExtensions"].strip():
        return False
    languages = attrs.get("systemLanguage")
    if languages is not None:
        wanted = [lang.strip().lower() for lang in languages.split(",")]
        return any(lang == "en" or lang.startswith("en-") for lang in wanted)
    return True


def use(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """``use``: its target drawn in its place, moved by x and y."""
    href = href_of(attrs)
    if not href or not href.startswith("#"):
        if href:
            where = compiler.where(element)
            compiler.warn("href", f"{where} refers to '{href}', outside this SVG")
        return
    target = compiler.lookup(href[1:])
    if target is None or local_name(target) is None:
        return
    if target in compiler.active or is_ancestor(target, element) or loops(compiler, target):
        return  # a use that leads back to itself draws nothing
    x = attr_length(attrs, "x", ctx, "x")
    y = attr_length(attrs, "y", ctx, "y")
    moved = dict(attrs)
    shift = f"translate({x!r} {y!r})"
    moved["transform"] = (
        f"{attrs.get('transform', '')} {shift}" if x or y else attrs.get("transform", "")
    )

    def body(inner: Ctx) -> None:
        compiler.active.append(target)
        try:
            instance(compiler, target, attrs, in_context(inner))
        finally:
            compiler.active.pop()

    def bbox() -> tuple[float, float, float, float] | None:
        return shapes.bbox_of(compiler, target, ctx)

    compiler.render(element, moved, ctx, body, fold=False, bbox=bbox)


def in_context(ctx: Ctx) -> Ctx:
    """The context of what a ``use`` draws: its fill and stroke are the context paints."""
    paints = dict(ctx.paints)
    paints["context-fill"] = actual(ctx.paints.get("fill", BLACK), ctx)
    paints["context-stroke"] = actual(ctx.paints.get("stroke", NO_PAINT), ctx)
    return Ctx(ctx.style, paints, ctx.font_size, ctx.vw, ctx.vh, ctx.ctm)


def instance(compiler: Compiling, target: etree._Element, use: dict[str, str], ctx: Ctx) -> None:
    """The element a ``use`` refers to: a symbol or an svg in a viewport the use may
    size, anything else as if it stood in the use's place."""
    tag = local_name(target)
    if tag not in VIEWPORTS:
        compiler.node(target, ctx)
        return
    attrs = compiler.specified(target)
    if (attrs.get("display") or "").strip() == "none":
        return
    sized = dict(attrs)
    for name in ("width", "height"):
        if name in use:
            sized[name] = use[name]
    if tag == "symbol":
        sized.pop("transform", None)  # SVG 1.1 has no transform on a symbol
    inner = inherit(attrs, ctx)
    compiler.render(
        target, sized, inner, lambda c: viewport(compiler, target, sized, c), fold=False
    )


def loops(compiler: Compiling, target: etree._Element) -> bool:
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
            ref = compiler.lookup(href[1:]) if href and href.startswith("#") else None
            if ref is None:
                continue
            if ref is target or is_ancestor(ref, element) or ref in compiler.active:
                return True
            stack.append(ref)
        if len(seen) > MAX_REFERENCES:
            return True
    return False


def svg(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """A nested ``svg``: a new viewport."""
    compiler.render(
        element, attrs, ctx, lambda c: viewport(compiler, element, attrs, c), fold=False
    )


def viewport(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """The children of an ``svg`` or ``symbol`` in a viewport at x, y of width x height
    (100% when not given), clipped to it unless its overflow is visible."""
    x = attr_length(attrs, "x", ctx, "x")
    y = attr_length(attrs, "y", ctx, "y")
    width = attr_length(attrs, "width", ctx, "x", ctx.vw)
    height = attr_length(attrs, "height", ctx, "y", ctx.vh)
    if width <= 0 or height <= 0:
        return
    box = parse_view_box(attrs.get("viewBox"))
    b = compiler.b
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
    compiler.children(element, ctx.viewport(vw, vh, matrix))
    b.restore()
