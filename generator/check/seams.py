"""Seams: where the tiles of a board printed in pieces meet, checked against its places. The
tiling (``layout.tiles``) moves its seams out of the board's places where the paper leaves a
choice; a seam still running through a space, a track's or row's space or a region a piece
stands on is one it could not avoid on this paper, and is reported as a warning, once per
board, at the spec line of the first place it cuts.

A seam is the edge of the tile that lies on its neighbour, seen once the board is glued: a
tile's left edge (it lies on the tile to its left) and its top edge (the tile below lies on
the one above), where it is not the board's own edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.layout.pack import Pack
from generator.layout.sheets import Placement
from generator.layout.tiles import PLACE, Keep, board_keeps
from generator.model.kinds.board import BoardSpec
from generator.model.loader import Component
from generator.model.places import stood_on

EPS = 1e-6  # mm: a seam along a place's edge does not run through it
SHOWN = 3  # places named in a message


@dataclass(frozen=True)
class SeamCut:
    """The places a board's seams run through on one paper: where to change the board, and
    each place cut with the seam that cuts it."""

    path: Path
    line: int
    board: str
    paper: str
    cuts: tuple[tuple[str, str], ...]  # (place, the seam: 'the left edge of tile A2, at 120 mm')

    def message(self) -> str:
        """'warning: a seam of board 'board' on a4 runs through 'stall-12' (...) and 2 more
        places: ...'."""
        shown = ", ".join(f"'{place}' ({seam})" for place, seam in self.cuts[:SHOWN])
        more = len(self.cuts) - SHOWN
        others = f" and {more} more place{'s' if more > 1 else ''}" if more > 0 else ""
        return (
            f"warning: a seam of board '{self.board}' printed on {self.paper} runs through "
            f"{shown}{others}: its tiles meet there whichever way this paper splits them; "
            "leave a gap of a few mm between places where tiles can meet, make the board "
            "smaller, or print it on larger paper"
        )


def seam_cuts(pack: Pack) -> list[SeamCut]:
    """Every tiled board of the pack whose seams run through its places."""
    found = []
    for component in pack.game.components:
        spec = component.spec
        if not isinstance(spec, BoardSpec):
            continue
        tiles = [
            p
            for sheet in pack.sheets
            for p in sheet.front.placements
            if p.piece.component == component.id and p.piece.copy == 1 and p.tile
        ]
        if not tiles or any(p.tile == "whole" for p in tiles):
            continue
        stood = stood_on(pack.game.components, component.id, spec)
        places = [k for k in board_keeps(spec, stood) if k.rank == PLACE]
        cuts = [
            (k.name, seam)
            for tile in tiles
            for k, seam in _cut(tile, places, spec, _shown_from(tile, tiles))
        ]
        if cuts:
            path, line = _where(component, spec, cuts[0][0])
            found.append(SeamCut(path, line, component.id, pack.paper_name, tuple(cuts)))
    return found


def _cut(
    tile: Placement, places: list[Keep], spec: BoardSpec, low: float
) -> list[tuple[Keep, str]]:
    """The places the seams of one tile run through, each with the seam that cuts it (its
    left edge shows from ``low`` up: below that the row below lies on it)."""
    assert tile.window is not None  # a tile shows a window of its board
    bx, by, w, h = tile.window
    found = []
    if bx > EPS:  # its left edge, where it lies on the tile to its left, above the row below
        for k in places:
            if k.x0 + EPS < bx < k.x1 - EPS and k.y0 < by + h and k.y1 > low:
                seam = f"tile {tile.tile}'s left edge, {bx:g} mm from the board's left edge"
                found.append((k, seam))
    top = by + h
    if top < spec.size.h - EPS:  # its top edge, where it lies on the tile above
        for k in places:
            if k.y0 + EPS < top < k.y1 - EPS and k.x0 < bx + w and k.x1 > bx:
                down = spec.size.h - top
                seam = f"tile {tile.tile}'s top edge, {down:g} mm from the board's top edge"
                found.append((k, seam))
    return found


def _shown_from(tile: Placement, tiles: list[Placement]) -> float:
    """How far up the board a tile's left edge is covered by the row below it (its top)."""
    assert tile.window is not None
    _, by, _, h = tile.window
    tops = [t.window[1] + t.window[3] for t in tiles if t.window is not None]
    return max([top for top in tops if by + EPS < top < by + h - EPS], default=by)


def _where(component: Component, spec: BoardSpec, place: str) -> tuple[Path, int]:
    """The spec line that draws ``place``: its space, row, track or region."""
    for key in ("spaces", "regions"):
        for index, item in enumerate(getattr(spec, key)):
            if item.name == place:
                return component.path, component.doc.line_of((key, index))
    for key in ("rows", "tracks"):
        for index, item in enumerate(getattr(spec, key)):
            if place.startswith(f"{item.name}-"):
                return component.path, component.doc.line_of((key, index))
    return component.path, component.doc.line_of(())
