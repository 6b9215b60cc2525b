"""The print check: how a laid-out pack will come out of a printer given the whole file, and
whether every text on it can be read (see ``legibility``).

Printed double-sided, the printer puts each sheet's second page on the back of its first,
turned about the long edge (x mirrored) or the short one (y mirrored), and the user's back
offset moves every back; folded, a sheet carries its backs across the fold line. Every back
must then lie behind the front of its own piece, every piece that has a back must get it,
nothing may be drawn in the margin a printer cannot print, and no mark of either side of a
sheet (a label, a crop mark, a fold note, another piece's art ...) may land on a piece it does
not belong to, on its face or behind it. A block of butted pieces (a deck's, gang-cut
counters) must part by straight cuts, each with its crop mark (``cuts``).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.check.backs import BacksDiffer, differing_backs
from generator.check.contrast import LowContrast, low_contrast
from generator.check.cuts import cut_problems
from generator.check.legibility import SmallText, small_texts
from generator.check.safezone import NearCut, near_cut
from generator.check.seams import SeamCut, seam_cuts
from generator.check.strokes import ThinStroke, thin_strokes
from generator.layout.furniture import Ink, page_ink
from generator.layout.pack import Pack
from generator.layout.pieces import Piece
from generator.layout.sheets import Box, Page, Placement, Sheet
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
    contrast: tuple[LowContrast, ...] = ()  # text that does not stand out from its ground
    ink_saver: bool = False  # the art was lightened for the ink saver
    seams: tuple[SeamCut, ...] = ()  # board seams through places (warnings, not failures)
    backs: tuple[BacksDiffer, ...] = ()  # decks told apart face down (warnings, not failures)
    near_cut: tuple[NearCut, ...] = ()  # text inside a print shop's safe zone (warnings)

    @property
    def failures(self) -> tuple[object, ...]:
        """Everything here that fails the check."""
        return (*self.problems, *self.small, *self.contrast)


def _behind(p: Placement, paper: tuple[float, float], axis: str) -> tuple[float, float]:
    """Where the back of ``p`` belongs (its trim corner), turned about ``axis``."""
    if axis == "x":
        return paper[0] - p.x - p.w, p.y
    return p.x, paper[1] - p.y - p.h


def _name(p: Placement) -> str:
    return _piece_name(p.piece)


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


def _margin(pack: Pack, page: Page, number: int) -> list[str]:
    """What a page draws within the margin a printer cannot print: art, marks, labels."""
    margin = sheet_geometry().margin - TOL
    pw, ph = pack.paper
    problems = []
    for ink in page_ink(pack, page, number):
        x, y, w, h = ink.box
        room = min(x, y, pw - x - w, ph - y - h)
        if room < margin:
            owner = f" of {_piece_name(ink.owner)}" if ink.owner else ""
            problems.append(f"page {number}: {ink.what}{owner} is {room:.2f} mm from the edge")
    return problems


def _piece_name(piece: Piece) -> str:
    return f"{piece.component} '{piece.name}' copy {piece.copy}"


def _turned(box: Box, paper: tuple[float, float], axis: str) -> Box:
    """What lies behind ``box`` once the sheet turns about ``axis`` (see ``_behind``)."""
    x, y, w, h = box
    if axis == "x":
        return paper[0] - x - w, y, w, h
    return x, paper[1] - y - h, w, h


def _folded(box: Box, at: float, axis: str) -> Box:
    """Where ``box`` lands when the sheet folds along the line at ``at`` about ``axis``."""
    x, y, w, h = box
    if axis == "x":
        return 2 * at - x - w, y, w, h
    return x, 2 * at - y - h, w, h


def _lands_on(box: Box, pieces: list[tuple[Piece, Box]], owner: Piece | None) -> list[Piece]:
    """The pieces (trim boxes) ``box`` overlaps, other than ``owner`` (compared only where
    the boxes overlap: a piece's equality compares all its fields)."""
    x, y, w, h = box
    found = []
    for piece, (px, py, pw, ph) in pieces:
        across = min(x + w, px + pw) - max(x, px) > TOL
        if across and min(y + h, py + ph) - max(y, py) > TOL and piece != owner:
            found.append(piece)
    return found


def _on_pieces(pack: Pack, sheet: Sheet, numbers: tuple[int, int]) -> list[str]:
    """Every mark of a sheet (its front and back pages, or its folded page) that lands on a
    piece to cut it does not belong to: where the printer puts it, on the face or behind."""
    pieces = [
        (p.piece, (p.x, p.y, p.w, p.h))
        for p in sheet.front.placements
        if p.side == "front" and not p.piece.flowed
    ]
    if not pieces:
        return []
    found: list[tuple[Ink, str, list[Piece]]] = []
    for ink in page_ink(pack, sheet.front, numbers[0]):
        places = [(ink.box, "on the front")]
        if sheet.front.fold is not None:
            fold = sheet.front.fold
            places.append((_folded(ink.box, fold.at, fold.axis), "once folded"))
        for box, where in places:
            hit = _lands_on(box, pieces, ink.owner)
            if hit:
                found.append((ink, where, hit))
    if pack.duplex and sheet.back is not None:
        axis = "y" if pack.options.duplex == "short" else "x"
        dx, dy = pack.options.back_offset
        for ink in page_ink(pack, sheet.back, numbers[1]):
            x, y, w, h = ink.box
            hit = _lands_on(_turned((x - dx, y - dy, w, h), pack.paper, axis), pieces, ink.owner)
            if hit:
                found.append((ink, f"on the back (page {numbers[1]})", hit))
    return [_landing(ink, where, hit) for ink, where, hit in found]


def _landing(ink: Ink, where: str, hit: list[Piece]) -> str:
    """'the page label on the back (page 4) prints on board 'board' copy 1 and 2 more'."""
    others = f" and {len(hit) - 1} more" if len(hit) > 1 else ""
    piece = _piece_name(hit[0])
    return f"{ink.what} {where} prints on {piece}{others}, which it does not belong to"


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
        found += _on_pieces(pack, sheet, (number, number + 1))
        found += cut_problems(front)
        problems += [f"sheet {index}: {problem}" for problem in found]
        for page in (front, sheet.back) if pack.duplex else (front,):
            if page is not None:
                problems += _margin(pack, page, number)
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
        low_contrast(pack),
        options.ink_saver,
        tuple(seam_cuts(pack)),
        differing_backs(pack),
        near_cut(pack),
    )
