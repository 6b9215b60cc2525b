"""The print check: how a laid-out pack will come out of a printer given the whole file, and
whether every text on it can be read (see ``legibility``).

Printed double-sided, the printer puts each sheet's second page on the back of its first,
turned about the long edge (x mirrored) or the short one (y mirrored), and the user's back
offset moves every back; folded, a sheet carries its backs across the fold line. Every back
must then lie behind the front of its own piece, every piece that has a back must get it, and
nothing may be drawn in the margin a printer cannot print.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.check.legibility import SmallText, small_texts
from generator.check.strokes import ThinStroke, thin_strokes
from generator.layout.pack import Pack
from generator.layout.sheets import Page, Placement
from generator.model.sizes import sheet_geometry

TOL = 0.01  # mm


@dataclass(frozen=True)
class PrintReport:
    """What the print check found for one pack: its paper and sheets, and every problem."""

    sheets: int
    pages: int
    sides: str  # how it prints: "double-sided, long edge", "single-sided, folded" ...
    problems: tuple[str, ...]
    small: tuple[SmallText, ...] = ()  # text printed under the game's floor
    floor: float = 6.0  # pt: the smallest text the game allows
    thin: tuple[ThinStroke, ...] = ()  # lines printed under 0.25 pt (warnings, not failures)


def _behind(p: Placement, paper: tuple[float, float], axis: str) -> tuple[float, float]:
    """Where the back of ``p`` belongs (its trim corner), turned about ``axis``."""
    if axis == "x":
        return paper[0] - p.x - p.w, p.y
    return p.x, paper[1] - p.y - p.h


def _name(p: Placement) -> str:
    return f"{p.piece.component} '{p.piece.name}' copy {p.piece.copy}"


def _pairing(
    front: Page, backs: list[Placement], axis: str | None, offset: tuple[float, float], paper
) -> list[str]:
    """How the backs of one sheet miss their fronts: a back behind another piece or none, a
    piece with a back that gets none or two."""
    problems = []
    fronts = {p.piece: p for p in front.placements if p.side == "front"}
    seen: dict[object, int] = {}
    for back in backs:
        home = fronts.get(back.piece)
        if home is None or axis is None:
            problems.append(f"the back of {_name(back)} is on a sheet without its front")
            continue
        x, y = _behind(home, paper, axis)
        x, y = x + offset[0], y + offset[1]
        if abs(back.x - x) > TOL or abs(back.y - y) > TOL:
            problems.append(
                f"the back of {_name(back)} misses its front by "
                f"{max(abs(back.x - x), abs(back.y - y)):.1f} mm"
            )
        seen[back.piece] = seen.get(back.piece, 0) + 1
    for piece, home in fronts.items():
        wanted = 1 if piece.back else 0
        if seen.get(piece, 0) != wanted:
            problems.append(f"{_name(home)} has {seen.get(piece, 0)} backs behind it, not {wanted}")
    return problems


def _margin(page: Page, number: int, paper: tuple[float, float]) -> list[str]:
    """What a page draws within the margin a printer cannot print."""
    margin = sheet_geometry().margin - TOL
    pw, ph = paper
    problems = []
    for p in page.placements:
        x, y, w, h = p.bleed_box
        room = min(x, y, pw - x - w, ph - y - h)
        if room < margin:
            problems.append(f"page {number}: {_name(p)} is {room:.2f} mm from the edge")
    for x1, y1, x2, y2 in page.marks:
        room = min(x1, x2, y1, y2, pw - max(x1, x2), ph - max(y1, y2))
        if room < margin:
            problems.append(f"page {number}: a crop mark is {room:.2f} mm from the edge")
    return problems


def check_printing(pack: Pack) -> PrintReport:
    """Simulate printing the whole pack as one job: every back behind its own front, nothing
    in the margin."""
    options = pack.options
    problems: list[str] = []
    number = 1
    for index, sheet in enumerate(pack.sheets, start=1):
        front = sheet.front
        axis: str | None  # the line the back turns over: none without a fold
        if pack.duplex:
            axis = "y" if options.duplex == "short" else "x"
            backs = [p for p in sheet.back.placements if p.side == "back"] if sheet.back else []
            offset = options.back_offset
        else:
            axis = front.fold.axis if front.fold else None
            backs = [p for p in front.placements if p.side == "back"]
            offset = (0.0, 0.0)
        found = _pairing(front, backs, axis, offset, pack.paper)
        problems += [f"sheet {index}: {problem}" for problem in found]
        for page in (front, sheet.back) if pack.duplex else (front,):
            if page is not None:
                problems += _margin(page, number, pack.paper)
            number += 1
    if pack.duplex:
        edge = "short" if options.duplex == "short" else "long"
        sides = f"double-sided, flipped on the {edge} edge"
    else:
        sides = "single-sided" + (", folded" if options.layout == "fold" else "")
    floor = pack.game.spec.min_text_pt
    return PrintReport(
        pack.sheet_count,
        pack.page_count,
        sides,
        tuple(problems),
        small_texts(pack),
        floor,
        thin_strokes(pack),
    )
