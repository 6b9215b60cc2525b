"""The pieces the SVG compiler (``compiler``) is built of: the operations being written with
the graphics state they leave (``Builder``), what an element inherits (``Ctx``), viewports
and references, and the error for SVG that cannot be drawn at all.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from lxml import etree

from generator.svg.path import fmt
from generator.svg.pdf import FILL_ALPHA, RESTORE, SAVE, STROKE_ALPHA, TRANSFORM, Op, Ops
from generator.svg.values import (
    ABSOLUTE_UNITS,
    DEFAULT_FONT_SIZE,
    IDENTITY,
    Matrix,
    Paint,
    length,
    multiply,
    numbers,
)

NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
PX_TO_PT = 0.75  # SVG user units (px) to points
ALIGNS = frozenset(
    ["none"] + [f"x{x}Y{y}" for x in ("Min", "Mid", "Max") for y in ("Min", "Mid", "Max")]
)
Warn = Callable[[str, str], None]  # (what to look for in the template, message)
Box = tuple[float, float, float, float]
Line = tuple[float, int, int, float, str]  # a stroke's width, cap, join, miter limit, dash
# what a Builder knows the graphics state to be (see Builder), compared only for equality
State = list[object]
STATE_SIZE = 9


class SvgError(ValueError):
    """SVG that cannot be drawn at all (said in words fit for the person who wrote it);
    ``needle`` is what to look for in the template, when known."""

    def __init__(self, message: str, needle: str | None = None) -> None:
        super().__init__(message)
        self.needle = needle


@lru_cache(maxsize=4096)
def absolute_length(text: str) -> float | None:
    """A length in an absolute unit in user units, None for a relative one (em, ex, %),
    NaN when it is not a length."""
    try:
        value = length(text)
    except ValueError:
        return math.nan
    factor = ABSOLUTE_UNITS.get(value.unit)
    return None if factor is None else value.value * factor


@lru_cache(maxsize=1024)
def colour_operator(rgb: tuple[float, ...], operator: str) -> str:
    """A colour-setting operator (rg or RG)."""
    return f"{fmt(*rgb)} {operator}"


class Builder:
    """Operations being written, with the graphics state they leave (fill, fill alpha,
    stroke, stroke alpha, line width, cap, join, miter limit, dash; None: not known), so
    that a colour, width or dash is set only when it changes."""

    __slots__ = ("ops", "literal", "state", "saved")

    def __init__(self, state: State | None = None):
        self.ops: list[Op] = []
        self.literal: list[str] = []
        self.state: State = state[:] if state is not None else [None] * STATE_SIZE
        self.saved: list[State] = []

    def flush(self) -> None:
        """Close the literal operators written so far into one string operation."""
        if self.literal:
            self.ops.append(" ".join(self.literal))
            self.literal = []

    def op(self, *op: object) -> None:
        """Write an operation that is not a literal."""
        self.flush()
        self.ops.append(op)

    def save(self) -> None:
        """Save the graphics state (q), remembering what it is."""
        self.op(SAVE)
        self.saved.append(self.state[:])

    def restore(self) -> None:
        """Restore the graphics state (Q); a save with nothing drawn since is taken back."""
        self.state = self.saved.pop()
        if not self.literal and self.ops and self.ops[-1] == (SAVE,):
            del self.ops[-1]  # nothing drawn in between
            return
        ops = self.ops
        if not self.literal and len(ops) > 1 and ops[-2] == (SAVE,) and ops[-1][0] == TRANSFORM:
            del ops[-2:]
            return
        self.op(RESTORE)

    def forget(self) -> None:
        """The graphics state is not known (after operations written elsewhere)."""
        self.state = [None] * STATE_SIZE

    def finish(self) -> Ops:
        """The operations written."""
        self.flush()
        return tuple(self.ops)

    def fill(self, rgb: tuple[float, ...], alpha: float) -> None:
        """Set the fill colour and alpha, where they change."""
        state = self.state
        if state[0] != rgb:
            self.literal.append(colour_operator(rgb, "rg"))
            state[0] = rgb
        if state[1] != alpha:
            self.op(FILL_ALPHA, alpha)
            state[1] = alpha

    def stroke(self, rgb: tuple[float, ...], alpha: float) -> None:
        """Set the stroke colour and alpha, where they change."""
        state = self.state
        if state[2] != rgb:
            self.literal.append(colour_operator(rgb, "RG"))
            state[2] = rgb
        if state[3] != alpha:
            self.op(STROKE_ALPHA, alpha)
            state[3] = alpha

    def line(self, width: float, cap: int, join: int, miter: float, dash: str) -> None:
        """Set the line width, cap, join, miter limit and dash, where they change."""
        state, literal = self.state, self.literal
        if state[4] != width:
            literal.append(f"{fmt(width)} w")
            state[4] = width
        if state[5] != cap:
            literal.append(f"{cap} J")
            state[5] = cap
        if state[6] != join:
            literal.append(f"{join} j")
            state[6] = join
        if state[7] != miter:
            literal.append(f"{fmt(miter)} M")
            state[7] = miter
        if state[8] != dash:
            literal.append(dash)
            state[8] = dash


class Ctx:
    """What an element inherits: the inherited properties as text (``style``), its paints
    (``paints``: fill, stroke and, inside a ``use``, context-fill and context-stroke), the
    font size and viewport size in user units, and the matrix from user units to the
    drawing's points. Neither dict is changed once made: a child that changes one gets a
    copy."""

    __slots__ = ("style", "paints", "font_size", "vw", "vh", "ctm")

    def __init__(
        self,
        style: dict[str, str],
        paints: dict[str, Paint],
        font_size: float,
        vw: float,
        vh: float,
        ctm: Matrix,
    ) -> None:
        self.style = style
        self.paints = paints
        self.font_size = font_size
        self.vw = vw
        self.vh = vh
        self.ctm = ctm

    @staticmethod
    def initial(vw: float, vh: float, ctm: Matrix = IDENTITY) -> Ctx:
        """The context of a root: nothing inherited, the default font size."""
        return Ctx({}, {}, DEFAULT_FONT_SIZE, vw, vh, ctm)

    def moved(self, matrix: Matrix) -> Ctx:
        """The same context in a user space transformed by ``matrix``."""
        return self.placed(self.vw, self.vh, multiply(self.ctm, matrix))

    def viewport(self, vw: float, vh: float, matrix: Matrix) -> Ctx:
        """The context inside a new viewport of size vw x vh."""
        return self.placed(vw, vh, multiply(self.ctm, matrix))

    def placed(self, vw: float, vh: float, ctm: Matrix) -> Ctx:
        """The same inherited properties in a viewport of vw x vh, with this matrix."""
        return Ctx(self.style, self.paints, self.font_size, vw, vh, ctm)


def view_box_matrix(box: Box | None, align: str | None, width: float, height: float) -> Matrix:
    """The matrix from a viewBox (x, y, w, h) to a viewport of width x height at the origin
    (y down), as ``preserveAspectRatio`` says."""
    if box is None:
        return IDENTITY
    bx, by, bw, bh = box
    sx, sy = width / bw, height / bh
    words = (align or "xMidYMid meet").split()
    if words and words[0] == "defer":
        words = words[1:]
    mode = words[0] if words and words[0] in ALIGNS else "xMidYMid"
    fit = words[1] if len(words) > 1 and words[1] in ("meet", "slice") else "meet"
    if mode == "none":
        return (sx, 0.0, 0.0, sy, -bx * sx, -by * sy)
    scale = max(sx, sy) if fit == "slice" else min(sx, sy)
    tx = {"xMin": 0.0, "xMid": 0.5, "xMax": 1.0}[mode[:4]] * (width - bw * scale)
    ty = {"YMin": 0.0, "YMid": 0.5, "YMax": 1.0}[mode[4:]] * (height - bh * scale)
    return (scale, 0.0, 0.0, scale, tx - bx * scale, ty - by * scale)


def parse_view_box(text: str | None) -> Box | None:
    """A viewBox (x, y, width, height), or None when absent or not positive."""
    if text is None:
        return None
    try:
        values = numbers(text)
    except ValueError:
        return None
    if len(values) != 4 or values[2] <= 0 or values[3] <= 0:
        return None
    x, y, width, height = values
    return (x, y, width, height)


def local_name(element: etree._Element) -> str | None:
    """An SVG element's tag without the namespace; None for anything else."""
    tag = element.tag
    if tag.__class__ is not str or not tag.startswith(NS):
        return None
    return tag[len(NS) :]


def href_of(attrs: dict[str, str]) -> str | None:
    """The reference an element's ``href`` (preferred) or ``xlink:href`` holds."""
    value = attrs.get("href")
    if value is None:
        value = attrs.get(XLINK_HREF)
    return value.strip() if value is not None else None


def is_ancestor(candidate: etree._Element, element: etree._Element) -> bool:
    """Whether ``candidate`` is ``element`` or holds it."""
    node: etree._Element | None = element
    while node is not None:
        if node is candidate:
            return True
        node = node.getparent()
    return False


def union(a: Box | None, b: Box | None) -> Box | None:
    """The box holding both (either alone when the other is None)."""
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
