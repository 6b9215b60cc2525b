"""An element's properties as the compiler reads them: lengths in user units (``user``,
``attr_length``, and a box of four, ``rectangle``), transforms (``matrix_of``), what its
children inherit (``inherit``, with font sizes) and the paint it actually uses (``actual``:
currentColor and the context paints of a ``use``).

None of these needs more than the element's attributes and the context it inherits, so they
are plain functions, shared by every part of the compiler.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from generator.svg.builder import XML_SPACE, Box, Ctx, absolute_length
from generator.svg.values import (
    ABSOLUTE_UNITS,
    DEFAULT_FONT_SIZE,
    IDENTITY,
    NO_PAINT,
    Length,
    Matrix,
    Paint,
    colour,
    length,
    paint,
    transform,
)

BLACK = Paint(colour=(0.0, 0.0, 0.0, 1.0))
INHERITED = frozenset(
    (
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "font-family",
        "font-weight",
        "font-style",
        "font-variant",
        "font-stretch",
        "text-anchor",
        "dominant-baseline",
        "alignment-baseline",
        "baseline-shift",
        "letter-spacing",
        "word-spacing",
        "writing-mode",
        "direction",
        "visibility",
        "color",
        "clip-rule",
        "paint-order",
        "marker-start",
        "marker-mid",
        "marker-end",
        XML_SPACE,
    )
)
# attributes that take an element out of the common case (drawn where it stands, as it is)
SPECIAL = frozenset(("transform", "opacity", "clip-path", "mask", "filter", "mix-blend-mode"))
FONT_SIZES = {
    "xx-small": 9 / 16,
    "x-small": 10 / 16,
    "small": 13 / 16,
    "medium": 1.0,
    "large": 18 / 16,
    "x-large": 24 / 16,
    "xx-large": 2.0,
}


def user(value: Length, ctx: Ctx, axis: str) -> float:
    """A length in user units; percentages of the viewport's width ('x'), height ('y')
    or diagonal ('xy'), em and ex of the font size."""
    unit = value.unit
    factor = ABSOLUTE_UNITS.get(unit)
    if factor is not None:
        return value.value * factor
    if unit == "%":
        if axis == "x":
            whole = ctx.vw
        elif axis == "y":
            whole = ctx.vh
        else:
            whole = math.sqrt((ctx.vw**2 + ctx.vh**2) / 2)
        return value.value * whole / 100
    if unit == "em":
        return value.value * ctx.font_size
    return value.value * ctx.font_size / 2  # ex


def attr_length(
    attrs: dict[str, str], name: str, ctx: Ctx, axis: str, default: float = 0.0
) -> float:
    """An attribute's (or an inherited property's) length in user units (``default`` when
    absent or invalid)."""
    text = attrs.get(name)
    if text is None:
        return default
    value = absolute_length(text)
    if value is None:
        return user(length(text), ctx, axis)
    return default if value != value else value  # NaN: invalid


def rectangle(
    texts: Sequence[str | None], defaults: Sequence[Length], ctx: Ctx, box: Box | None
) -> tuple[float, float, float, float]:
    """x, y, width and height given as ``texts`` (the ``defaults`` where one is absent or
    invalid): in user units, or, when ``box`` is given, as fractions (or percentages) of it."""
    values = []
    for index, (text, default) in enumerate(zip(texts, defaults, strict=True)):
        axis = "y" if index % 2 else "x"
        try:
            value = length(text) if text is not None else default
        except ValueError:
            value = default
        if box is None:
            values.append(user(value, ctx, axis))
            continue
        fraction = value.value / 100 if value.unit == "%" else value.value
        start, size = (box[0], box[2] - box[0]) if axis == "x" else (box[1], box[3] - box[1])
        values.append(fraction * size + (start if index < 2 else 0.0))
    x, y, w, h = values
    return x, y, w, h


def matrix_of(text: str | None) -> Matrix:
    """The matrix of a transform attribute: IDENTITY when there is none, or an invalid one
    (which SVG ignores)."""
    try:
        return transform(text or "")
    except ValueError:
        return IDENTITY


def inherit(attrs: dict[str, str], ctx: Ctx) -> Ctx:
    """The context an element's children inherit: its own inherited properties over
    its parent's."""
    style: dict[str, str] | None = None
    paints: dict[str, Paint] | None = None
    font_size = ctx.font_size
    for name, value in attrs.items():
        if name in INHERITED:
            value = value.strip()
            if value == "inherit" or not value:
                continue
            if name == "fill" or name == "stroke":
                try:
                    parsed = paint(value)
                except ValueError:
                    continue  # an invalid paint counts as not given
                if paints is None:
                    paints = dict(ctx.paints)
                paints[name] = parsed
                continue
            if style is None:
                style = dict(ctx.style)
            if name != "color" or (value != "currentColor" and valid_colour(value)):
                style[name] = value
        elif name == "font-size":
            font_size = computed_font_size(value, ctx)
    if style is None and paints is None and font_size == ctx.font_size:
        return ctx
    return Ctx(
        ctx.style if style is None else style,
        ctx.paints if paints is None else paints,
        font_size,
        ctx.vw,
        ctx.vh,
        ctx.ctm,
    )


def computed_font_size(text: str, ctx: Ctx) -> float:
    """A computed font size: lengths, percentages and em of the parent's size, and the
    CSS keywords."""
    text = text.strip()
    if text in FONT_SIZES:
        return DEFAULT_FONT_SIZE * FONT_SIZES[text]
    if text == "larger":
        return ctx.font_size * 1.2
    if text == "smaller":
        return ctx.font_size / 1.2
    try:
        value = length(text)
    except ValueError:
        return ctx.font_size
    size = ctx.font_size * value.value / 100 if value.unit == "%" else user(value, ctx, "xy")
    return size if size >= 0 else ctx.font_size


def valid_colour(text: str) -> bool:
    """Whether the text is a colour."""
    try:
        colour(text)
    except ValueError:
        return False
    return True


def actual(value: Paint, ctx: Ctx) -> Paint:
    """A paint with currentColor taken from the ``color`` the context has and a context
    paint from the ``use`` that draws the element."""
    if value.current:
        try:
            return Paint(colour=colour(ctx.style.get("color", "black")))
        except ValueError:
            return BLACK
    if value.context is not None:
        return ctx.paints.get(f"context-{value.context}", NO_PAINT)
    if value.fallback is not None and (value.fallback.current or value.fallback.context):
        return value._replace(fallback=actual(value.fallback, ctx))
    return value
