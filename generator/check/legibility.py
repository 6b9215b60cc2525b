"""Legibility: the size of every text a pack prints, measured from what is drawn, against the
floor the game keeps (6 pt, or what its ``game.yaml`` lowers it to).

A piece's text is measured in its compiled art: each text operation's font size through every
transform above it (the art's own and its viewport's, which maps its units to points), so a
``scale()`` in a template or a panel turned into a die net counts. Reference sheets are
measured at the size their text was fitted at, tables included. Pieces print at full size;
the scaled-down assembly map of a tiled board is an overview, and not measured.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from generator.check.printed import PrintedText, Tally
from generator.layout.pack import Pack
from generator.layout.sheetflow import FlowLayout
from generator.svg.pdf import GROUP, PAINT, RESTORE, SAVE, TEXT, TRANSFORM
from generator.svg.values import IDENTITY, Matrix, multiply


@dataclass(frozen=True)
class SmallText(PrintedText):
    """A text printed under the floor (``more``: other pieces of the component printing text
    this small, ``texts``: how many texts of this size they print)."""

    def message(self, floor: float) -> str:
        """'text under 6 pt: cards 'cocoa' and 3 more (front): 'Trade' at 5.67 pt; ...'."""
        return (
            f"text under {floor:g} pt: {self.subject(self.side)} at {self.size:.2f} pt; "
            "make it larger or shorter"
        )


def _scale(m: Matrix) -> float:
    """How much a transform enlarges: the square root of its area factor."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def text_runs(ops: tuple, ctm: Matrix = IDENTITY) -> Iterator[tuple[tuple, Matrix]]:
    """Every text operation of a drawing's operations, with the transform it prints through
    (to the units ``ctm`` maps to); groups and gradient-painted shapes are followed in."""
    stack: list[Matrix] = []
    for op in ops:
        if op.__class__ is str:
            continue
        code = op[0]
        if code == SAVE:
            stack.append(ctm)
        elif code == RESTORE:
            ctm = stack.pop() if stack else ctm
        elif code == TRANSFORM:
            ctm = multiply(ctm, op[1])
        elif code == TEXT:
            yield op, ctm
        elif code == GROUP:
            yield from text_runs(op[3], ctm)
        elif code == PAINT:
            yield from text_runs(op[6], ctm)


def text_sizes(ops: tuple, ctm: Matrix = IDENTITY) -> Iterator[tuple[str, float]]:
    """Every text a drawing's operations print, with its size in the units ``ctm`` maps to
    (points, from a viewport)."""
    for op, at in text_runs(ops, ctm):
        if op[5].strip():
            yield op[5], op[2] * _scale(at)


def walk_art(
    artwork: object, walk: Callable[[tuple], Iterator[tuple[str, float]]] = text_sizes
) -> Iterator[tuple[str, float]]:
    """What ``walk`` finds in stored art (by default its texts): a compiled drawing, or a
    face drawn as a layer and the rest."""
    if hasattr(artwork, "ops"):
        yield from walk(artwork.ops)
    for part in ("layer", "rest"):
        if hasattr(artwork, part):
            yield from walk_art(getattr(artwork, part), walk)


def small_texts(pack: Pack) -> tuple[SmallText, ...]:
    """Every text of the pack under its floor, once per component, side and size, with the
    first piece and text and how many more (the smallest first):
    the art of each piece placed, the title bands of token pages, and reference sheets."""
    floor = pack.game.spec.min_text_pt
    smallest: dict[str, list[tuple[str, float]]] = {}  # art key -> its texts under the floor
    tally: Tally[SmallText] = Tally()
    designs = {(p.component.id, d.name): d for p in pack.components for d in p.designs}
    specs = {p.component.id: p.component for p in pack.components}
    for page in (page for sheet in pack.sheets for page in (sheet.front, sheet.back) if page):
        for placement in page.placements:
            piece = placement.piece
            key = piece.face if placement.side == "front" else piece.back
            if not key:  # no back, or art that could not be made (its error is reported)
                continue
            design = designs.get((piece.component, piece.name))
            path, line = design.where if design else (specs[piece.component].path, None)
            for text, size in _under(pack, key, floor, smallest):
                where = (piece.component, placement.side, round(size, 2))
                found = partial(
                    SmallText, path, line, piece.component, piece.name, placement.side, text, size
                )
                tally.add(where, piece.name, text, found)
        for decoration in page.decorations:
            component = specs.get(page.components[0]) if page.components else None
            for text, size in _under(pack, decoration.art, floor, smallest):
                path = component.path if component else pack.game.doc.path
                cid = component.id if component else page.title
                tally.found.setdefault(
                    (cid, "title band", text),
                    SmallText(path, None, cid, "title band", "front", text, size),
                )
        if page.flow is not None:
            tally.found.update(_sheet_text(pack, page.flow, floor))
    return tuple(sorted(tally.found.values(), key=lambda s: (s.size, s.component, s.piece)))


def _under(
    pack: Pack, key: str, floor: float, smallest: dict[str, list[tuple[str, float]]]
) -> list[tuple[str, float]]:
    """The texts of art ``key`` under ``floor`` (measured once per key)."""
    if key not in smallest:
        sizes: dict[str, float] = {}
        for text, size in walk_art(pack.art.drawing(key)):
            if size < floor - 0.005:
                sizes[text] = min(size, sizes.get(text, size))
        smallest[key] = sorted(sizes.items(), key=lambda item: item[1])
    return smallest[key]


def _sheet_text(pack: Pack, flow: FlowLayout, floor: float) -> dict[tuple, SmallText]:
    """A reference sheet's text under the floor: its body at the fitted size, its tables."""
    plan = next(p for p in pack.components if p.component.spec is flow.spec)
    component = plan.component
    sizes = [("body text", flow.size)]
    for section in flow.spec.sections:
        for block in section.blocks:
            if block.table is not None:
                size = min(block.table.font_size or flow.size, flow.size)
                sizes.append(("table", size))
    out = {}
    for what, size in sizes:
        if size < floor - 0.005:
            where = (component.id, "sheet", what)
            out[where] = SmallText(component.path, None, component.id, "sheet", "front", what, size)
    return out
