"""Pieces fit where they go: each component's ``stands_on`` measured against the board it
names. A place must hold as many of the pieces as the spec says share it (``together``),
side by side, turned if that helps (a pile counting as one, for pieces that pile up:
``stack``),
overhanging by at most ``OVERHANG``; and pieces on two
places of one board must not cover each other, each group of pieces centred on its place.

Round pieces on a round place are packed as circles (the densest packings known), anything
else in rows and columns; a region or grid cell counts as its bounding box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from generator.art.boards import Place, places
from generator.model.component import StandsOn
from generator.model.fields import Size
from generator.model.kinds.board import BoardSpec
from generator.model.loader import Component, Game

OVERHANG = 0.5  # mm a piece may reach past its place, or into its neighbour's pieces
# the diameter of the smallest circle that holds n equal circles of diameter 1 (n = 1 ... 10)
CIRCLES = (1.0, 2.0, 2.1547, 2.4142, 2.7013, 3.0, 3.0, 3.3048, 3.6131, 3.8130)


@dataclass(frozen=True)
class Misfit:
    """Pieces that do not fit where their spec says they stand: the spec and line of the
    ``stands_on`` entry, and what is wrong."""

    path: Path
    line: int
    component: str
    message: str


@dataclass(frozen=True)
class Stand:
    """One ``stands_on`` entry measured: its component, what a piece covers, how many share
    a place, and how much room they take on each of its places."""

    component: Component
    index: int
    footprint: Size
    round: bool
    together: int  # pieces (or piles) side by side on a place
    board: str
    piled: bool = False  # ``together`` counts piles

    def room(self, place: Place) -> tuple[float, float, float]:
        """The box the pieces take on ``place`` (w, h) and how far they reach past it (mm):
        the arrangement that reaches least."""
        n, w, h = self.together, self.footprint.w, self.footprint.h
        if self.round and place.round and n <= len(CIRCLES):
            side = w * CIRCLES[n - 1]
            return side, side, side - place.w
        best: tuple[float, float, float] | None = None
        for fw, fh in {(w, h), (h, w)}:
            for cols in range(1, n + 1):
                rows = math.ceil(n / cols)
                bw, bh = cols * fw, rows * fh
                if place.round:
                    past = math.hypot(bw, bh) - place.w
                else:
                    past = max(bw - place.w, bh - place.h)
                if best is None or past < best[2] - 1e-9:
                    best = (bw, bh, past)
        assert best is not None
        return best


def _stands(game: Game) -> list[Stand]:
    """Every ``stands_on`` entry of the game, measured."""
    out = []
    for component in game.components:
        for index, stand in enumerate(component.spec.stands_on):
            standing = component.spec.standing(stand)
            if standing is None:
                continue  # a load error already
            size, round_ = standing
            together = stand.piles  # a pile covers one piece
            piled = stand.stack is not False
            out.append(Stand(component, index, size, round_, together, stand.board, piled))
    return out


def check_fit(game: Game) -> list[Misfit]:
    """Every ``stands_on`` whose pieces do not fit their places, or cover each other's."""
    boards = {c.id: c.spec for c in game.components if isinstance(c.spec, BoardSpec)}
    drawn = {name: places(spec) for name, spec in boards.items()}
    found: list[Misfit] = []
    occupied: dict[str, list[tuple[Stand, Place, float, float]]] = {}
    for stand in _stands(game):
        spec: StandsOn = stand.component.spec.stands_on[stand.index]
        board = boards.get(stand.board)
        if board is None:
            continue
        names = list(dict.fromkeys(n for ref in spec.places for n in board.resolve(ref)))
        taken = [(drawn[stand.board][n], *stand.room(drawn[stand.board][n])) for n in names]
        misfits = [(place, w, h, past) for place, w, h, past in taken if past > OVERHANG]
        if misfits:
            found.append(_too_large(stand, misfits))
        for place, w, h, _ in taken:
            occupied.setdefault(stand.board, []).append((stand, place, w, h))
    for board_id, taken_places in occupied.items():
        found += _overlaps(board_id, taken_places)
    return found


def _where(stand: Stand) -> tuple[Path, int]:
    return stand.component.path, stand.component.doc.line_of(("stands_on", stand.index))


def _size(stand: Stand) -> str:
    f = stand.footprint
    return f"{f.w:g} mm across" if stand.round else f"{f.w:g} x {f.h:g} mm"


def _place_size(place: Place) -> str:
    return f"a {place.w:g} mm circle" if place.round else f"{place.w:g} x {place.h:g} mm"


def _too_large(stand: Stand, misfits: list[tuple[Place, float, float, float]]) -> Misfit:
    """The place the pieces overhang most, and how many more they overhang."""
    place, w, h, past = max(misfits, key=lambda m: m[3])
    others = f" (and {len(misfits) - 1} more places)" if len(misfits) > 1 else ""
    noun = "piles" if stand.piled else "pieces"
    pieces = f"{stand.together} {noun}" if stand.together > 1 else "a piece"
    need = f", which take {w:.1f} x {h:.1f} mm side by side" if stand.together > 1 else ""
    path, line = _where(stand)
    return Misfit(
        path,
        line,
        stand.component.id,
        f"does not fit: {pieces} of {stand.component.id} ({_size(stand)} each{need}) on "
        f"'{place.name}' of board '{stand.board}', {_place_size(place)}{others}: they reach "
        f"{past:.1f} mm past it; make the places larger or the pieces smaller, or let fewer "
        "share a place (together:)",
    )


def _overlaps(board: str, taken: list[tuple[Stand, Place, float, float]]) -> list[Misfit]:
    """Pieces on two places of one board that cover each other: per ``stands_on`` entry, the
    pair that overlaps most and how many pairs do."""
    worst: dict[tuple[str, int], tuple[float, Place, Place, int]] = {}
    for (a, pa, wa, ha), (b, pb, wb, hb) in combinations(taken, 2):
        if pa.name == pb.name:
            continue
        dx = abs(pa.centre[0] - pb.centre[0])
        dy = abs(pa.centre[1] - pb.centre[1])
        if a.round and b.round and a.together == b.together == 1:
            overlap = (a.footprint.w + b.footprint.w) / 2 - math.hypot(dx, dy)
        else:
            overlap = min((wa + wb) / 2 - dx, (ha + hb) / 2 - dy)
        if overlap <= OVERHANG:
            continue
        key = (a.component.id, a.index)
        count = worst.get(key, (0.0, pa, pb, 0))[3] + 1
        if key not in worst or overlap > worst[key][0]:
            worst[key] = (overlap, pa, pb, count)
        else:
            worst[key] = (*worst[key][:3], count)
    stands = {(s.component.id, s.index): s for s, _, _, _ in taken}
    out = []
    for key, (overlap, pa, pb, count) in worst.items():
        stand = stands[key]
        path, line = _where(stand)
        apart = math.dist(pa.centre, pb.centre)
        others = f" (and {count - 1} more pairs)" if count > 1 else ""
        out.append(
            Misfit(
                path,
                line,
                stand.component.id,
                f"pieces cover each other: {stand.component.id} on '{pa.name}' and the pieces "
                f"on '{pb.name}' of board '{board}', {apart:.1f} mm apart, overlap by "
                f"{overlap:.1f} mm{others}; space the places further apart or make the "
                "pieces smaller",
            )
        )
    return out
