"""Clip paths and masks.

A clip path of one shape (with its own clip paths of one shape) is a PDF clip; several
shapes, text, or clip paths that clip each other become an alpha soft mask, so that each
shape keeps its own clip-rule and they add up as SVG says. A mask is a luminosity soft mask
of its content in its region (an alpha one for ``mask-type: alpha``). A reference to a clip
path or mask that does not exist hides the element; one to itself is ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from lxml import etree

from generator.svg import shapes, textruns
from generator.svg.builder import Box, Builder, Ctx, href_of, local_name
from generator.svg.compiling import Compiling, LazyBox
from generator.svg.path import fmt
from generator.svg.pdf import GROUP, RESTORE, SAVE, TEXT, TRANSFORM, Mask, Op, Ops
from generator.svg.properties import attr_length, inherit, matrix_of, rectangle
from generator.svg.values import IDENTITY, Length, Matrix, invert, multiply, url_id

CLIP_CHILDREN = shapes.SHAPES | {"text", "use"}
USED_IN_CLIPS = shapes.SHAPES | {"text"}  # what a use in a clip path may refer to
# a mask's region when not given: x, y, width and height, of the bounding box or viewport
MASK_REGION = tuple(Length(share * 100, "%") for share in (-0.1, -0.1, 1.2, 1.2))
# a child of a clip path: the operations setting it as a PDF clip (None: it cannot be
# one), and those drawing it opaque for a soft mask
Part = tuple[Ops | None, Ops]
T = TypeVar("T")


class Clip:
    """How a clip path clips: ``ops`` set a PDF clip (``mask`` False), or draw an alpha
    soft mask (``mask`` True); ``empty`` clips everything away."""

    __slots__ = ("ops", "mask", "empty")

    def __init__(self, ops: Ops = (), mask: bool = False, empty: bool = False):
        self.ops = ops
        self.mask = mask
        self.empty = empty


EMPTY_CLIP = Clip(empty=True)
EMPTY_MASK: Mask = ("empty", ())  # a mask that hides everything
NOTHING = etree.Element("nothing")  # a reference to no element of the kind asked for


def referenced(
    compiler: Compiling,
    element: etree._Element,
    attrs: dict[str, str],
    name: str,
    kind: str,
    left: str,
) -> etree._Element | None:
    """The element an attribute such as ``mask`` or ``clip-path`` refers to: None when
    there is none to apply (not set, 'none', not url(#id) — a warning —, or one applied
    inside itself, ignored as resvg does), NOTHING when it names no element of ``kind``
    (which hides the element)."""
    text = attrs.get(name)
    if text is None or text.strip() == "none":
        return None
    try:
        target = url_id(text)
    except ValueError:
        compiler.warn(
            name, f"the {name} '{text.strip()}' of {compiler.where(element)} is not drawn "
            f"(only url(#id) is); the element is drawn {left}",
        )  # fmt: skip
        return None
    found = compiler.lookup(target)
    if found is not None and found in compiler.active:
        return None
    if found is None or local_name(found) != kind:
        return NOTHING
    return found


def _drawn(
    compiler: Compiling,
    found: etree._Element | None,
    empty: T,
    draw: Callable[[etree._Element], T],
) -> T | None:
    """What a ``referenced`` clip path or mask makes: None for none, ``empty`` for a
    reference to nothing, else ``draw(found)``, with ``found`` marked active meanwhile (a
    clip or mask that refers back to itself is then seen)."""
    if found is None or found is NOTHING:
        return empty if found is NOTHING else None
    compiler.active.append(found)
    try:
        return draw(found)
    finally:
        compiler.active.pop()


# --- masks -------------------------------------------------------------------------------


def mask_of(
    compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx, bbox: LazyBox
) -> Mask | None:
    """An element's ``mask``: (soft mask kind, operations drawing it), None for none,
    EMPTY_MASK when it hides the element (a reference to nothing)."""
    found = referenced(compiler, element, attrs, "mask", "mask", "unmasked")
    return _drawn(compiler, found, EMPTY_MASK, lambda mask: _mask(compiler, mask, ctx, bbox))


def _mask(compiler: Compiling, mask: etree._Element, ctx: Ctx, bbox: LazyBox) -> Mask:
    """A mask's content drawn in its region: a luminosity soft mask (luminance times
    alpha, with PDF's weights of red, green and blue), or an alpha one (mask-type)."""
    attrs = compiler.specified(mask)
    on_box = (attrs.get("maskUnits") or "").strip() != "userSpaceOnUse"
    content_on_box = (attrs.get("maskContentUnits") or "").strip() == "objectBoundingBox"
    box = bbox() if on_box or content_on_box else None
    if (on_box or content_on_box) and (box is None or box[2] <= box[0] or box[3] <= box[1]):
        return EMPTY_MASK
    texts = [attrs.get(name) for name in ("x", "y", "width", "height")]
    region = rectangle(texts, MASK_REGION, ctx, box if on_box else None)
    if not (region[2] > 0 and region[3] > 0):
        return EMPTY_MASK
    inner = compiler.context_of(mask, ctx)
    compiler.builders.append(Builder())
    try:
        b = compiler.b
        b.literal.append(f"{fmt(*region)} re W n")
        if content_on_box:
            assert box is not None
            matrix = (box[2] - box[0], 0.0, 0.0, box[3] - box[1], box[0], box[1])
            b.op(TRANSFORM, matrix)
            inner = inner.moved(matrix)
        compiler.children(mask, inner)
    finally:
        ops = compiler.builders.pop().finish()
    own = mask_of(compiler, mask, attrs, ctx, bbox)
    if own is EMPTY_MASK:
        return EMPTY_MASK
    if own is not None:
        ops = ((SAVE,), (GROUP, compiler.viewport_box(ctx), own, ops), (RESTORE,))
    kind = "Alpha" if (attrs.get("mask-type") or "").strip() == "alpha" else "Luminosity"
    return (kind, ops)


# --- clip paths --------------------------------------------------------------------------


def clip_of(
    compiler: Compiling,
    element: etree._Element,
    attrs: dict[str, str],
    ctx: Ctx,
    bbox: LazyBox | None,
) -> Clip | None:
    """How an element's ``clip-path`` clips it (None: not at all)."""
    found = referenced(compiler, element, attrs, "clip-path", "clipPath", "unclipped")
    return _drawn(compiler, found, EMPTY_CLIP, lambda path: _clip(compiler, path, ctx, bbox))


def _clip(compiler: Compiling, clip_path: etree._Element, ctx: Ctx, bbox: LazyBox | None) -> Clip:
    """A clipPath in the user space of the element it clips."""
    attrs = compiler.specified(clip_path)
    matrix = matrix_of(attrs.get("transform"))
    if attrs.get("clipPathUnits", "").strip() == "objectBoundingBox":
        box = bbox() if bbox is not None else None
        if box is None or box[2] <= box[0] or box[3] <= box[1]:
            return EMPTY_CLIP
        matrix = multiply(matrix, (box[2] - box[0], 0.0, 0.0, box[3] - box[1], box[0], box[1]))
    inverse = invert(matrix)
    if inverse is None:
        return EMPTY_CLIP
    ctx = inherit(attrs, ctx.moved(matrix))
    own = clip_of(compiler, clip_path, attrs, ctx, bbox)
    if own is not None and own.empty:
        return EMPTY_CLIP
    parts = []
    for child in clip_path:
        part = _clip_child(compiler, child, ctx)
        if part is not None:
            parts.append(part)
    if not parts:
        return EMPTY_CLIP
    path_ops = parts[0][0]
    if len(parts) == 1 and path_ops is not None and (own is None or not own.mask):
        return Clip((*(own.ops if own else ()), *moved(matrix, path_ops, inverse)))
    mask_ops = moved(matrix, tuple(op for part in parts for op in part[1]), inverse)
    if own is not None:
        mask_ops = wrapped(own, mask_ops, compiler.viewport_box(ctx) or (0, 0, 0, 0))
    return Clip(tuple(mask_ops), mask=True)


def _clip_child(compiler: Compiling, child: etree._Element, ctx: Ctx) -> Part | None:
    """One child of a clipPath (None when it does not count)."""
    name = local_name(child)
    if name not in CLIP_CHILDREN:
        return None
    attrs = compiler.specified(child)
    if (attrs.get("display") or "").strip() == "none":
        return None
    inner = inherit(attrs, ctx)
    if inner.style.get("visibility", "visible") != "visible":
        return None
    if name == "use":
        return _clip_use(compiler, attrs, inner)
    matrix = matrix_of(attrs.get("transform"))
    inverse = invert(matrix)
    if inverse is None:
        return None
    inner = inner.moved(matrix)
    if name == "text":
        ops = _clip_text(compiler, child, attrs, inner)
        if not ops:
            return None
        return None, ((SAVE,), (TRANSFORM, matrix), *ops, (RESTORE,))
    return _clip_shape(compiler, child, name, attrs, inner, matrix, inverse)


def _clip_shape(
    compiler: Compiling,
    child: etree._Element,
    name: str,
    attrs: dict[str, str],
    ctx: Ctx,
    matrix: Matrix,
    inverse: Matrix,
) -> Part | None:
    """A shape in a clipPath, with its own clip path, in its ``matrix``."""
    geometry = shapes.geometry_of(name, attrs, ctx)
    if not geometry.pdf:
        return None
    own = clip_of(compiler, child, attrs, ctx, lambda: geometry.bbox)
    if own is not None and own.empty:
        return None
    evenodd = ctx.style.get("clip-rule") == "evenodd"
    clip_ops: Ops = (f"{geometry.pdf} {'W* n' if evenodd else 'W n'}",)
    fill_ops: Ops = (f"0 g {geometry.pdf} {'f*' if evenodd else 'f'}",)
    if own is not None:
        fill_ops = wrapped(own, fill_ops, compiler.viewport_box(ctx) or (0, 0, 0, 0))
        if own.mask:
            return None, ((SAVE,), (TRANSFORM, matrix), *fill_ops, (RESTORE,))
        clip_ops = (*own.ops, *clip_ops)
    return moved(matrix, clip_ops, inverse), ((SAVE,), (TRANSFORM, matrix), *fill_ops, (RESTORE,))


def _clip_use(compiler: Compiling, attrs: dict[str, str], ctx: Ctx) -> Part | None:
    """A ``use`` in a clipPath, which may only refer to a shape or text."""
    href = href_of(attrs)
    target = compiler.lookup(href[1:]) if href and href.startswith("#") else None
    if target is None or local_name(target) not in USED_IN_CLIPS:
        return None
    x, y = attr_length(attrs, "x", ctx, "x"), attr_length(attrs, "y", ctx, "y")
    matrix = multiply(matrix_of(attrs.get("transform")), (1.0, 0.0, 0.0, 1.0, x, y))
    inverse = invert(matrix)
    if inverse is None:
        return None
    part = _clip_child(compiler, target, ctx.moved(matrix))
    if part is None:
        return None
    clip_ops = moved(matrix, part[0], inverse) if part[0] is not None else None
    return clip_ops, ((SAVE,), (TRANSFORM, matrix), *part[1], (RESTORE,))


def _clip_text(
    compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx
) -> list[Op]:
    """Text in a clip path: its glyphs filled opaque."""
    runs = textruns.layout(compiler, element, attrs, ctx)
    ops: list[Op] = ["0 g"]
    for run in runs:
        extra = () if run.rtl is None else (run.rtl,)
        ops.append((TEXT, run.font, run.size, run.x, run.y, run.text, 0, run.spacing, *extra))
    return ops if len(ops) > 1 else []


def moved(matrix: Matrix, ops: Ops, inverse: Matrix) -> Ops:
    """Operations drawn in a transformed space, leaving the transformation as it was."""
    if matrix == IDENTITY:
        return tuple(ops)
    return ((TRANSFORM, matrix), *ops, (TRANSFORM, inverse))


def wrapped(clip: Clip, ops: Ops, box: Box) -> Ops:
    """Operations clipped by a clip (a PDF clip, or a group through its mask)."""
    if clip.mask:
        return ((SAVE,), (GROUP, box, ("Alpha", clip.ops), tuple(ops)), (RESTORE,))
    return ((SAVE,), *clip.ops, *ops, (RESTORE,))
