"""Box nets on pages of their own: one after another in shelves from the top-left of the
printable area, each upright or turned a quarter where only that fits, a new page when the
page is full. A net is cut along its outline and folded along its fold lines (drawn as its
cut guides), so it needs no crop marks; it is printed on one side only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from generator.layout.grids import printable_box
from generator.layout.impose import ImpositionError
from generator.layout.pieces import Piece
from generator.layout.sheets import Page, Placement, Sheet
from generator.model.sizes import SheetGeometry

NET_BLEED = 1.5  # mm a net's colour runs beyond its cut lines
EPS = 1e-6


@dataclass
class _Shelves:
    """A page being filled: the shelf being filled (its top, height and where the next net
    goes across it)."""

    left: float
    bottom: float
    right: float
    top: float
    gap: float
    x: float = 0.0
    height: float = 0.0
    placements: list[Placement] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.x = self.left

    def place(self, piece: Piece) -> bool:
        """Put ``piece`` on this page (upright, else turned), if there is room."""
        b = piece.bleed
        for turned in (False, True):
            w, h = (piece.h, piece.w) if turned else (piece.w, piece.h)
            spot = self._spot(w + 2 * b, h + 2 * b)
            if spot is not None:
                x, y = spot
                placement = Placement(
                    piece, "front", x + b, y + b, w, h, 90 if turned else 0, outline=True
                )
                self.placements.append(placement)
                return True
        return False

    def _spot(self, w: float, h: float) -> tuple[float, float] | None:
        """The lower-left corner of a box of ``w`` x ``h`` on the current shelf or a new one
        under it; None if neither has room (the shelves as they were)."""
        if self.x + w <= self.right + EPS and self.top - h >= self.bottom - EPS:
            x = self.x
            self.x += w + self.gap
            self.height = max(self.height, h)
            return x, self.top - h
        top = self.top - self.height - self.gap
        if self.height and self.left + w <= self.right + EPS and top - h >= self.bottom - EPS:
            self.top, self.height, self.x = top, h, self.left + w + self.gap
            return self.left, top - h
        return None


def net_sheets(
    pieces: list[Piece],
    paper: tuple[float, float],
    geo: SheetGeometry,
    titles: Callable[[list[str]], str],
) -> list[Sheet]:
    """The nets' pages, in order: as many nets to a page as its shelves hold."""
    left, bottom, right, top = printable_box(paper, geo)
    pages: list[_Shelves] = []
    for piece in pieces:
        if not pages or not pages[-1].place(piece):
            pages.append(_Shelves(left, bottom, right, top, geo.piece_gap))
            if not pages[-1].place(piece):
                raise ImpositionError(f"a {piece.w:g} x {piece.h:g} mm net does not fit the page")
    sheets = []
    for number, shelves in enumerate(pages, start=1):
        page = Page("", "front", number, len(pages), placements=shelves.placements)
        page.title = titles(page.components)
        sheets.append(Sheet(page))
    return sheets
