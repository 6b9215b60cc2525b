"""The safe zone: text that comes too near the cut. Print-on-demand shops cut within 1/8 in
(3.175 mm) of the trim line and ask that text and everything important stay that far inside
it (``safe_in`` in ``vendors.yaml``): an index that ends 1.5 mm from the cut is cut into on one
card and sits on a sliver of ground on the next.

Each card's text is measured from what is drawn: every text run (its advance, and the font's
ascent and descent), its box through every transform above it. Shapes are not: from its
drawing, the box round an index is not told from the bevelled face of a chocolate piece that
a number sits on, or a frame from a border meant to be cut close. Text inside the trim
but within the safe margin of an edge is reported, once per component and side, with the
nearest it comes. Tokens are not measured: the only vendor chits (The Game Crafter's) come
from a table no second source confirms.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics

from generator.check.legibility import text_runs, walk_art
from generator.check.printed import pieces
from generator.layout.pack import Pack
from generator.layout.pieces import Piece
from generator.svg.fonts import register_fonts
from generator.svg.values import bbox_through

SAFE_MM = 3.175  # the vendors' safe margin inside the cut (1/8 in: vendors.yaml's safe_in)
SAFE_KINDS = frozenset({"card"})  # pieces every vendor cuts to its own size, safe zone kept
TOL = 0.05  # mm: art this near the cut reaches it (drawn to the trim line)
ASCENT, DESCENT = 0.75, 0.25  # of a text's size, above and below its baseline
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class NearCut:
    """Art of a component's side that ends inside the safe margin: the first piece drawing
    it, how near (mm) it comes to which edge, and how many more pieces do."""

    path: Path
    component: str
    piece: str
    side: str
    distance: float
    edge: str
    more: int = 0
    safe: float = SAFE_MM  # the safe margin it is inside

    def message(self) -> str:
        """'warning: text 2.60 mm from the cut at the bottom (event-deck 'clubs-2' and ...'."""
        return (
            f"warning: text {math.floor(self.distance * 100) / 100:.2f} mm from the cut at the "
            f"{self.edge} ({pieces(self.component, self.piece, self.more)}, {self.side}): "
            "print shops "
            f"cut within {self.safe:g} mm of the trim line and ask that text stay that far "
            "inside it (their safe zone); move it inward"
        )


def text_boxes(ops: tuple) -> Iterator[Box]:
    """The box (in points, from the art's viewport) of every text a drawing prints."""
    for op, ctm in text_runs(ops):
        font, size, x, y, text = op[1:6]
        if text.strip():
            advance = pdfmetrics.stringWidth(text, font, size)
            yield bbox_through(ctm, (x, y - ASCENT * size, x + advance, y + DESCENT * size))


def trimmed(boxes: Iterator[Box], piece: Piece) -> list[Box]:
    """Boxes in points on a piece's art (its trim plus bleed) in mm from its trim's corner."""
    b = piece.bleed
    return [(x0 / mm - b, y0 / mm - b, x1 / mm - b, y1 / mm - b) for x0, y0, x1, y1 in boxes]


def nearest_cut(boxes: list[Box], piece: Piece, safe: float) -> tuple[float, str] | None:
    """How near the cut (mm) and at which edge the boxes (mm from the trim's lower left)
    come where they stop inside ``safe`` of the trim; None if nowhere."""
    w, h = piece.w, piece.h
    found: tuple[float, str] | None = None
    for x0, y0, x1, y1 in boxes:
        if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
            continue  # in the bleed alone
        for gap, edge in ((x0, "left"), (y0, "bottom"), (w - x1, "right"), (h - y1, "top")):
            if TOL < gap < safe - TOL and (found is None or gap < found[0]):
                found = (gap, edge)
    return found


def near_cut(pack: Pack, safe: float = SAFE_MM) -> tuple[NearCut, ...]:
    """Every component side whose art stops within ``safe`` mm of the cut, with the first
    piece drawing it, the nearest it comes and how many more pieces do."""
    register_fonts()
    measured: dict[str, tuple[float, str] | None] = {}
    found: dict[tuple[str, str], NearCut] = {}
    paths = {plan.component.id: plan.component.path for plan in pack.components}
    for sheet in pack.sheets:
        for page in (sheet.front, sheet.back):
            for placement in page.placements if page else ():
                piece = placement.piece
                key = piece.face if placement.side == "front" else piece.back
                if not key or piece.noun not in SAFE_KINDS or piece.flowed:
                    continue
                if key not in measured:
                    drawn = walk_art(pack.art.drawing(key), text_boxes)  # type: ignore[arg-type]
                    boxes = trimmed(drawn, piece)  # type: ignore[arg-type]
                    measured[key] = nearest_cut(boxes, piece, safe)
                near = measured[key]
                if near is None or piece.copy != 1 and (piece.component, placement.side) in found:
                    continue
                _add(found, paths, piece, placement.side, near)
    if safe != SAFE_MM:
        found = {where: replace(n, safe=safe) for where, n in found.items()}
    return tuple(sorted(found.values(), key=lambda n: (n.distance, n.component, n.side)))


def _add(
    found: dict[tuple[str, str], NearCut],
    paths: dict[str, Path],
    piece: Piece,
    side: str,
    near: tuple[float, str],
) -> None:
    """Count a piece whose art comes ``near`` the cut into its component side's finding."""
    where = (piece.component, side)
    side_name = "face" if side == "front" else "back"
    if where not in found:
        found[where] = NearCut(
            paths[piece.component], piece.component, piece.name, side_name, *near
        )
        return
    old = found[where]
    if near[0] < old.distance:
        found[where] = NearCut(old.path, old.component, piece.name, side_name, *near, old.more + 1)
    else:
        found[where] = NearCut(
            old.path, old.component, old.piece, side_name, old.distance, old.edge, old.more + 1
        )
