"""What prints under one text of a plain ground: the painted paths that reach its patch of
pixels, from the last opaque fill that covers the whole patch up. Two patches with the same
scene render to the same pixels, so the contrast check renders one of them: a deck's text
panels sit on cards whose colours and pictures differ elsewhere.

A scene is built only from what it can follow exactly: paths, colours, line styles,
transforms and opacities (a ground ``groundpdf`` writes). A literal with any other operator (a
clip, a text, an image) gives no scene, and its ground's patches are all rendered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from generator.check import groundpdf
from generator.svg.pdf import (
    FILL_ALPHA,
    PAINTING,
    RESTORE,
    SAVE,
    STROKE_ALPHA,
    STROKING,
    TRANSFORM,
    Drawer,
)
from generator.svg.values import IDENTITY, Matrix, apply, bbox_through, multiply

MARGIN = 2  # pixels around a patch a path must keep out of to be left out of its scene
LITERALS_KEPT = 4096  # literals whose paths are kept read
STATE = frozenset({"rg", "RG", "g", "G", "k", "K", "w", "J", "j", "M", "d", "ri", "i"})
SAME_STATE = {"g": "rg", "k": "rg", "G": "RG", "K": "RG"}  # one slot for a fill, one a stroke
FILLING = PAINTING - {"S", "s"}
OPERAND = "0123456789.-+[]"
POINTS = {"m": 2, "l": 2, "c": 6, "v": 4, "y": 4, "re": 4, "h": 0}  # each operator's numbers
Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Pixels = tuple[int, int, int, int]  # x0, y0, x1, y1 of a render, y down from its top


@dataclass(frozen=True)
class Path:
    """One painted path of a literal, in the literal's own units: how it is written, the
    operator that paints it and the box its points (control points too) lie in."""

    written: str
    paint: str
    box: Box


Event = tuple  # ("set", slot, operands) | ("cm", matrix) | ("q",) | ("Q",) | ("paint", Path)


class Painted(NamedTuple):
    """A path as the page paints it: what decides its pixels (``key``), its bounds in page
    points (its stroke's reach included) and, if its fill is opaque, the path and transform
    (to find whether it covers a patch, only when asked). A tuple: a deck's grounds paint
    thousands."""

    key: tuple
    bounds: Box
    filled: tuple[str, Matrix] | None


@lru_cache(maxsize=LITERALS_KEPT)
def events(literal: str) -> tuple[Event, ...] | None:
    """What a literal does, in order (None: it uses an operator a scene does not follow)."""
    out: list[Event] = []
    operands: list[str] = []
    path: list[str] = []
    for token in literal.split():
        if token[0] in OPERAND:
            operands.append(token)
            continue
        if token in STATE:
            if token in ("w", "M") and len(operands) != 1:
                return None  # a width or miter limit a scene cannot read
            out.append(("set", SAME_STATE.get(token, token), tuple(operands)))
        elif token in ("m", "l", "c", "v", "y", "re", "h"):
            path += [*operands, token]
        elif token in PAINTING:
            path += operands
            box = _box(path)
            if box is None:
                return None
            out.append(("paint", Path(" ".join(path), token, box)))
            path = []
        elif token == "cm" and len(operands) == 6:
            out.append(("cm", tuple(float(v) for v in operands)))
        elif token in ("q", "Q"):
            out.append((token,))
        else:
            return None  # a clip, an end without painting, text, an image, a name
        operands = []
    return None if path or operands else tuple(out)


def _box(written: list[str]) -> Box | None:
    """The box a written path's points lie in (control points too); None for a path whose
    numbers do not read as points."""
    xs: list[float] = []
    ys: list[float] = []
    numbers: list[float] = []
    for token in written:
        if token[0] in OPERAND:
            try:
                numbers.append(float(token))
            except ValueError:
                return None
            continue
        if len(numbers) != POINTS.get(token, len(numbers)) or len(numbers) % 2:
            return None
        if token == "re":
            x, y, w, h = numbers
            xs += (x, x + w)
            ys += (y, y + h)
        else:
            xs += numbers[0::2]
            ys += numbers[1::2]
        numbers = []
    if numbers:
        return None  # numbers no operator took
    return (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)


@lru_cache(maxsize=LITERALS_KEPT)
def chord(written: str) -> tuple[Point, ...] | None:
    """The polygon of a path's points on the curve, when it is one convex outline (what its
    fill surely covers: each curve bulges out of its chord); None for any other path."""
    points: list[Point] = []
    on_curve: list[Point] = []
    starts, numbers = 0, []
    for token in written.split():
        if token[0] in OPERAND:
            numbers.append(float(token))
            continue
        if token == "re":
            x, y, w, h = numbers
            corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            points += corners
            on_curve += corners
        elif token != "h":
            pairs = list(zip(numbers[::2], numbers[1::2], strict=True))
            points += pairs
            on_curve.append(pairs[-1])
        starts += token in ("m", "re")
        numbers = []
    return tuple(on_curve) if starts == 1 and _convex(points) else None


def _convex(points: Sequence[Point]) -> bool:
    """Whether a closed polygon turns one way only, once round."""
    ring = [p for i, p in enumerate(points) if p != points[i - 1]]
    if len(ring) < 3:
        return False
    turning, sign = 0.0, 0
    for i, (x, y) in enumerate(ring):
        px, py = ring[i - 1]
        nx, ny = ring[(i + 1) % len(ring)]
        cross = (x - px) * (ny - y) - (y - py) * (nx - x)
        if cross:
            if sign and (cross > 0) != (sign > 0):
                return False
            sign = 1 if cross > 0 else -1
        turning += math.atan2(cross, (x - px) * (nx - x) + (y - py) * (ny - y))
    return sign != 0 and abs(abs(turning) - 2 * math.pi) < 1e-6


def painted(drawings: Sequence[Drawer]) -> list[Painted] | None:
    """Every path the drawings paint, one above the other, each in its own save and restore
    (as ``groundpdf`` writes them); None when one of them cannot be followed."""
    out: list[Painted] = []
    for drawing in drawings:
        if not _follow(drawing.ops, out):
            return None
    return out


def _follow(ops: tuple, out: list[Painted]) -> bool:
    """Add the paths ``ops`` paint to ``out`` (False: an operation cannot be followed)."""
    state: dict[str, object] = {}
    frozen: tuple = ()  # the state as a key, made again when it changes
    ctm: Matrix = IDENTITY
    stack: list[tuple[dict[str, object], tuple, Matrix]] = []
    for op in ops:
        found = events(op) if op.__class__ is str else (_event(op),)
        if found is None:
            return False
        for event in found:
            code = event[0]
            if code == "paint":
                out.append(_painted(event[1], state, frozen, ctm))
            elif code == "set":
                state[event[1]] = event[2]
                frozen = tuple(sorted(state.items()))
            elif code in ("cm", TRANSFORM):
                ctm = multiply(ctm, event[1])
            elif code in ("q", SAVE):
                stack.append((dict(state), frozen, ctm))
            elif code in ("Q", RESTORE):
                state, frozen, ctm = stack.pop() if stack else (state, frozen, ctm)
            else:
                return False
    return True


def _event(op: tuple) -> Event:
    """An operation of the drawing as a literal's event: an opacity sets ``ca`` or ``CA``."""
    if op[0] in (FILL_ALPHA, STROKE_ALPHA):
        return ("set", "ca" if op[0] == FILL_ALPHA else "CA", float(op[1]))
    return op


def _painted(path: Path, state: dict[str, object], frozen: tuple, ctm: Matrix) -> Painted:
    """A path painted in ``state`` (``frozen``: the same as a key) under ``ctm``."""
    if ctm[1] or ctm[2]:
        x0, y0, x1, y1 = bbox_through(ctm, path.box)
    else:  # no turn: each side maps to a side
        a, _, _, d, e, f = ctm
        bx0, by0, bx1, by1 = path.box
        x0, x1 = sorted((a * bx0 + e, a * bx1 + e))
        y0, y1 = sorted((d * by0 + f, d * by1 + f))
    reach = 0.0
    if path.paint in STROKING:
        width = float(state.get("w", ("1",))[0])  # type: ignore[index]
        miter = float(state.get("M", ("10",))[0])  # type: ignore[index]
        reach = width / 2 * max(miter, math.sqrt(2)) * math.hypot(*ctm[:4])
    opaque = path.paint in FILLING and state.get("ca", 1.0) == 1.0
    return Painted(
        (frozen, ctm, path.written, path.paint),
        (x0 - reach, y0 - reach, x1 + reach, y1 + reach),
        (path.written, ctm) if opaque else None,
    )


def scene(
    items: Sequence[Painted], size: tuple[float, float], pixels: tuple[int, int], box: Pixels
) -> tuple:
    """What decides the pixels ``box`` of a page ``size`` points rendered ``pixels`` wide and
    high: the page's size in both, the box, and the paths that reach it (with ``MARGIN``),
    from the last that covers it all up."""
    width, height = size
    sx, sy = width / pixels[0], height / pixels[1]
    x0, y0, x1, y1 = box
    reach = (
        (x0 - MARGIN) * sx,
        height - (y1 + MARGIN) * sy,
        (x1 + MARGIN) * sx,
        height - (y0 - MARGIN) * sy,
    )
    keys = []
    for item in reversed(items):
        b = item.bounds
        if b[0] > reach[2] or b[2] < reach[0] or b[1] > reach[3] or b[3] < reach[1]:
            continue
        keys.append(item.key)
        if item.filled is not None and _covers(*item.filled, reach):
            break
    return (size, pixels, box, tuple(reversed(keys)))


@lru_cache(maxsize=LITERALS_KEPT)
def _covers(written: str, ctm: Matrix, box: Box) -> bool:
    """Whether a path's fill under ``ctm`` covers every corner of ``box``: its chord polygon
    (``chord``) holds them all."""
    outline = chord(written)
    if outline is None:
        return False
    polygon = [apply(ctm, x, y) for x, y in outline]
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    sign = 0
    for i, (x, y) in enumerate(polygon):
        px, py = polygon[i - 1]
        for cx, cy in corners:
            cross = (x - px) * (cy - py) - (y - py) * (cx - px)
            if cross:
                if sign and (cross > 0) != (sign > 0):
                    return False
                sign = 1 if cross > 0 else -1
    return sign != 0


def firsts(
    key: object,
    drawings: list[Drawer],
    boxes: set[Pixels],
    dpi: float,
    seen: dict[tuple, tuple[object, Pixels]],
) -> dict[Pixels, tuple[object, Pixels]]:
    """For each box of a plain ground, the first patch rendered with its scene (itself, when
    its scene is new or the ground cannot be followed); ``seen`` holds the scenes met so far,
    by their keys."""
    items = painted(drawings)
    if items is None:
        return {box: (key, box) for box in boxes}
    size = groundpdf.page_size(drawings)
    scale = dpi / 72  # as the patches are rendered
    pixels = (math.ceil(size[0] * scale), math.ceil(size[1] * scale))
    return {box: seen.setdefault(scene(items, size, pixels, box), (key, box)) for box in boxes}
