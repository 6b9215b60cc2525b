"""Clip paths and masks, as part of the SVG compiler (``svgdraw``).

A clip path of one shape (with its own clip paths of one shape) is a PDF clip; several
shapes, text, or clip paths that clip each other become an alpha soft mask, so that each
shape keeps its own clip-rule and they add up as SVG says. A mask is a luminosity soft mask
of its content in its region (an alpha one for ``mask-type: alpha``). A reference to a clip
path or mask that does not exist hides the element; one to itself is ignored.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from generator.svg import textruns
from generator.svg.builder import Box, Builder, Ctx, href_of, local_name
from generator.svg.path import fmt
from generator.svg.pdf import GROUP, RESTORE, SAVE, TEXT, TRANSFORM
from generator.svg.properties import attr_length, inherit, user
from generator.svg.values import (
    DEFAULT_FONT_SIZE,
    IDENTITY,
    Length,
    Matrix,
    invert,
    length,
    multiply,
    transform,
    url_id,
)

SHAPES = frozenset(("rect", "circle", "ellipse", "line", "polyline", "polygon", "path"))
CLIP_CHILDREN = SHAPES | {"text", "use"}


class Clip:
    """How a clip path clips: ``ops`` set a PDF clip (``mask`` False), or draw an alpha
    soft mask (``mask`` True); ``empty`` clips everything away."""

    __slots__ = ("ops", "mask", "empty")

    def __init__(self, ops: tuple = (), mask: bool = False, empty: bool = False):
        self.ops = ops
        self.mask = mask
        self.empty = empty


EMPTY_CLIP = Clip(empty=True)
EMPTY_MASK = ("empty", ())  # a mask that hides everything


NOTHING = etree.Element("nothing")  # a reference to no element of the kind asked for


class ClipsAndMasks:
    """The clip paths and masks of the compiler (a part of ``svgdraw.Compiler``)."""

    def referenced(
        self, element: etree._Element, attrs: dict[str, str], name: str, kind: str, left: str
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
            self.warn(
                name, f"the {name} '{text.strip()}' of {self.where(element)} is not drawn "
                f"(only url(#id) is); the element is drawn {left}",
            )  # fmt: skip
            return None
        found = self.lookup(target)
        if found is not None and found in self.active:
            return None
        if found is None or local_name(found) != kind:
            return NOTHING
        return found

    # --- masks ----------------------------------------------------------------------------

    def mask_of(
        self,
        element: etree._Element,
        attrs: dict[str, str],
        ctx: Ctx,
        bbox: Callable[[], Box | None],
    ) -> tuple | None:
        """An element's ``mask``: (soft mask kind, operations drawing it), None for none,
        EMPTY_MASK when it hides the element (a reference to nothing)."""
        mask = self.referenced(element, attrs, "mask", "mask", "unmasked")
        return self._drawn(mask, EMPTY_MASK, lambda found: self.mask(found, ctx, bbox))

    def mask(self, mask: etree._Element, ctx: Ctx, bbox: Callable[[], Box | None]) -> tuple:
        """A mask's content drawn in its region: a luminosity soft mask (luminance times
        alpha, with PDF's weights of red, green and blue), or an alpha one (mask-type)."""
        attrs = self.specified(mask)
        on_box = (attrs.get("maskUnits") or "").strip() != "userSpaceOnUse"
        content_on_box = (attrs.get("maskContentUnits") or "").strip() == "objectBoundingBox"
        box = bbox() if on_box or content_on_box else None
        if (on_box or content_on_box) and (box is None or box[2] <= box[0] or box[3] <= box[1]):
            return EMPTY_MASK
        region = self.region(attrs, ctx, box if on_box else None)
        if region is None:
            return EMPTY_MASK
        inner = self.context_of(mask, ctx)
        self.builders.append(Builder())
        try:
            b = self.b
            b.literal.append(f"{fmt(*region)} re W n")
            if content_on_box:
                assert box is not None
                matrix = (box[2] - box[0], 0.0, 0.0, box[3] - box[1], box[0], box[1])
                b.op(TRANSFORM, matrix)
                inner = inner.moved(matrix)
            self.children(mask, inner)
        finally:
            ops = self.builders.pop().finish()
        own = self.mask_of(mask, attrs, ctx, bbox)
        if own is EMPTY_MASK:
            return EMPTY_MASK
        if own is not None:
            ops = ((SAVE,), (GROUP, self.viewport_box(ctx), own, ops), (RESTORE,))
        kind = "Alpha" if (attrs.get("mask-type") or "").strip() == "alpha" else "Luminosity"
        return (kind, ops)

    def region(self, attrs: dict[str, str], ctx: Ctx, box: Box | None) -> Box | None:
        """A mask's x, y, width and height (-10%, -10%, 120%, 120% when not given): of the
        bounding box ``box``, or of the viewport when None; None when it has no area."""
        values = []
        for name, default, axis in (("x", -0.1, "x"), ("y", -0.1, "y"), ("width", 1.2, "x"),
                                    ("height", 1.2, "y")):  # fmt: skip
            text = attrs.get(name)
            try:
                value = length(text) if text is not None else Length(default * 100, "%")
            except ValueError:
                value = Length(default * 100, "%")
            if box is None:
                values.append(user(value, ctx, axis))
                continue
            fraction = value.value / 100 if value.unit == "%" else value.value
            start, size = (box[0], box[2] - box[0]) if axis == "x" else (box[1], box[3] - box[1])
            values.append(fraction * size + (start if name in ("x", "y") else 0.0))
        x, y, w, h = values
        return (x, y, w, h) if w > 0 and h > 0 else None

    def context_of(self, element: etree._Element, ctx: Ctx) -> Ctx:
        """What an element draws inherits from its own ancestors (a mask's content, say),
        placed in the current user space."""
        chain = [node for node in element.iterancestors() if local_name(node) is not None]
        inner = Ctx({}, DEFAULT_FONT_SIZE, ctx.vw, ctx.vh, ctx.ctm)
        for node in reversed(chain):
            inner = inherit(self.specified(node), inner)
        return inherit(self.specified(element), inner)

    # --- clip paths -----------------------------------------------------------------------

    def clip_of(
        self,
        element: etree._Element,
        attrs: dict[str, str],
        ctx: Ctx,
        bbox: Callable[[], Box | None] | None,
    ) -> Clip | None:
        """How an element's ``clip-path`` clips it (None: not at all)."""
        clip_path = self.referenced(element, attrs, "clip-path", "clipPath", "unclipped")
        return self._drawn(clip_path, EMPTY_CLIP, lambda found: self.clip(found, ctx, bbox))

    def _drawn(self, found: object, empty: object, draw: Callable) -> object:
        """What a ``referenced`` clip path or mask makes: None for none, ``empty`` for a
        reference to nothing, else ``draw(found)``, with ``found`` marked active meanwhile (a
        clip or mask that refers back to itself is then seen)."""
        if found is None or found is NOTHING:
            return empty if found is NOTHING else None
        self.active.append(found)
        try:
            return draw(found)
        finally:
            self.active.pop()

    def clip(
        self, clip_path: etree._Element, ctx: Ctx, bbox: Callable[[], Box | None] | None
    ) -> Clip:
        """A clipPath in the user space of the element it clips."""
        attrs = self.specified(clip_path)
        matrix = IDENTITY
        try:
            matrix = transform(attrs.get("transform", ""))
        except ValueError:
            matrix = IDENTITY
        if attrs.get("clipPathUnits", "").strip() == "objectBoundingBox":
            box = bbox() if bbox is not None else None
            if box is None or box[2] <= box[0] or box[3] <= box[1]:
                return EMPTY_CLIP
            matrix = multiply(matrix, (box[2] - box[0], 0.0, 0.0, box[3] - box[1], box[0], box[1]))
        if invert(matrix) is None:
            return EMPTY_CLIP
        ctx = inherit(attrs, ctx.moved(matrix))
        own = self.clip_of(clip_path, attrs, ctx, bbox)
        if own is not None and own.empty:
            return EMPTY_CLIP
        parts = []
        for child in clip_path:
            part = self.clip_child(child, ctx)
            if part is not None:
                parts.append(part)
        if not parts:
            return EMPTY_CLIP
        inverse = invert(matrix)
        assert inverse is not None
        simple = len(parts) == 1 and parts[0][0] is not None and (own is None or not own.mask)
        if simple:
            path_ops = parts[0][0]
            ops = (*(own.ops if own else ()), *moved(matrix, path_ops, inverse))
            return Clip(ops)
        union = tuple(op for part in parts for op in part[1])
        mask_ops = moved(matrix, union, inverse)
        if own is not None:
            mask_ops = wrapped(own, mask_ops, self.viewport_box(ctx) or (0, 0, 0, 0))
        return Clip(tuple(mask_ops), mask=True)

    def clip_child(self, child: etree._Element, ctx: Ctx) -> tuple | None:
        """One child of a clipPath: (ops setting it as a PDF clip or None, ops drawing it
        opaque for a mask); None when it does not count."""
        name = local_name(child)
        if name not in CLIP_CHILDREN:
            return None
        attrs = self.specified(child)
        if (attrs.get("display") or "").strip() == "none":
            return None
        inner = inherit(attrs, ctx)
        if inner.style.get("visibility", "visible") != "visible":
            return None
        if name == "use":
            return self.clip_use(child, attrs, inner)
        matrix = IDENTITY
        try:
            matrix = transform(attrs.get("transform", ""))
        except ValueError:
            matrix = IDENTITY
        if invert(matrix) is None:
            return None
        inner = inner.moved(matrix)
        if name == "text":
            ops = self.clip_text(child, attrs, inner)
            if not ops:
                return None
            return None, ((SAVE,), (TRANSFORM, matrix), *ops, (RESTORE,))
        geometry = self.geometry(name, attrs, inner)
        if not geometry.pdf:
            return None
        own = self.clip_of(child, attrs, inner, lambda: geometry.bbox)
        if own is not None and own.empty:
            return None
        evenodd = inner.style.get("clip-rule") == "evenodd"
        clip_ops: tuple = (f"{geometry.pdf} {'W* n' if evenodd else 'W n'}",)
        fill_ops: tuple = (f"0 g {geometry.pdf} {'f*' if evenodd else 'f'}",)
        inverse = invert(matrix)
        assert inverse is not None
        if own is not None:
            box = self.viewport_box(inner) or (0, 0, 0, 0)
            fill_ops = wrapped(own, fill_ops, box)
            if own.mask:
                return None, ((SAVE,), (TRANSFORM, matrix), *fill_ops, (RESTORE,))
            clip_ops = (*own.ops, *clip_ops)
        return moved(matrix, clip_ops, inverse), (
            (SAVE,),
            (TRANSFORM, matrix),
            *fill_ops,
            (RESTORE,),
        )

    def clip_use(self, child: etree._Element, attrs: dict[str, str], ctx: Ctx) -> tuple | None:
        """A ``use`` in a clipPath, which may only refer to a shape or text."""
        href = href_of(attrs)
        target = self.lookup(href[1:]) if href and href.startswith("#") else None
        if target is None or local_name(target) not in SHAPES | {"text"}:
            return None
        matrix = IDENTITY
        try:
            matrix = transform(attrs.get("transform", ""))
        except ValueError:
            matrix = IDENTITY
        x, y = attr_length(attrs, "x", ctx, "x"), attr_length(attrs, "y", ctx, "y")
        matrix = multiply(matrix, (1.0, 0.0, 0.0, 1.0, x, y))
        inverse = invert(matrix)
        if inverse is None:
            return None
        part = self.clip_child(target, ctx.moved(matrix))
        if part is None:
            return None
        clip_ops = moved(matrix, part[0], inverse) if part[0] is not None else None
        return clip_ops, ((SAVE,), (TRANSFORM, matrix), *part[1], (RESTORE,))

    def clip_text(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> list:
        """Text in a clip path: its glyphs filled opaque."""
        runs = textruns.layout(self, element, attrs, ctx)
        ops: list = ["0 g"]
        for run in runs:
            ops.append((TEXT, run.font, run.size, run.x, run.y, run.text, 0, run.spacing))
        return ops if len(ops) > 1 else []


def moved(matrix: Matrix, ops: tuple, inverse: Matrix) -> tuple:
    """Operations drawn in a transformed space, leaving the transformation as it was."""
    if matrix == IDENTITY:
        return tuple(ops)
    return ((TRANSFORM, matrix), *ops, (TRANSFORM, inverse))


def wrapped(clip: Clip, ops: tuple, box: Box) -> tuple:
    """Operations clipped by a clip (a PDF clip, or a group through its mask)."""
    if clip.mask:
        return ((SAVE,), (GROUP, box, ("Alpha", clip.ops), tuple(ops)), (RESTORE,))
    return ((SAVE,), *clip.ops, *ops, (RESTORE,))
