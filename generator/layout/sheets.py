"""Sheets of paper and their pages: what imposition hands on.

A pack is a stack of sheets of paper. Each ``Sheet`` has a front ``Page`` and, printed
double-sided, the ``Page`` on its back: the backs of the pieces on the front, each behind its own
front, or nothing at all (``back`` is None: a blank page, so that a cut piece never carries
another's ink). All numbers are millimetres with the origin at the page's lower-left corner (as
in PDF).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.layout.pieces import Piece
from generator.layout.sheetflow import FlowLayout

Line = tuple[float, float, float, float]
Box = tuple[float, float, float, float]  # x, y, w, h


@dataclass(frozen=True)
class Placement:
    """Where one side of a piece lands: its trim box on the page and its rotation. A board
    tile shows only ``window`` (x, y, w, h in board mm from its lower-left corner), its art
    clipped to ``clip`` (the page box of the trim plus the bleed on the board's outer edges)."""

    piece: Piece
    side: str
    x: float
    y: float
    w: float
    h: float
    rotation: int
    window: tuple[float, float, float, float] | None = None
    tile: str | None = None
    clip: Box | None = None
    outline: bool = False  # cut lines follow the piece's shape (counters), not crop marks

    @property
    def bleed_box(self) -> Box:
        """The box the piece's art covers on the page (its clip, or trim plus bleed)."""
        if self.clip is not None:
            return self.clip
        b = self.piece.bleed
        return (self.x - b, self.y - b, self.w + 2 * b, self.h + 2 * b)


@dataclass(frozen=True)
class Decoration:
    """Art on a page that is not a piece (a page's title band): drawn, not listed."""

    art: str
    x: float
    y: float


@dataclass(frozen=True)
class BoardMap:
    """An assembly map: the board (its art ``art``) and where each tile goes (board mm)."""

    title: str
    component: str
    art: str
    w: float
    h: float
    tiles: tuple[tuple[str, float, float, float, float], ...]


@dataclass(frozen=True)
class Fold:
    """A gutter fold: the line (``axis`` 'x': vertical at ``at`` mm; 'y': horizontal)."""

    axis: str
    at: float


@dataclass
class Page:
    """One side of a sheet of paper: pieces (fronts or backs), a reference sheet's text, an
    inventory page or an assembly map. Crop marks and cut lines go on fronts only."""

    title: str
    side: str  # "front", "back", "fold" (fronts with their backs across a fold), "notes"
    number: int = 1
    of: int = 1
    placements: list[Placement] = field(default_factory=list)
    marks: list[Line] = field(default_factory=list)
    label: bool = True
    decorations: list[Decoration] = field(default_factory=list)
    area: float = 0.0  # mm² of the printable area, for the fill of a page of pieces
    glue: list[tuple[Box, str]] = field(default_factory=list)  # strips and the tile they are on
    fold: Fold | None = None
    assembly: BoardMap | None = None
    flow: FlowLayout | None = None  # what draws this page's text (a reference sheet's)
    inventory: int | None = None  # the n-th inventory page
    names: list[tuple[float, float, str]] = field(default_factory=list)  # centred, x, y, text

    @property
    def fill(self) -> float:
        """How much of the printable area the fronts' bleed boxes cover (0-1)."""
        used = sum(p.bleed_box[2] * p.bleed_box[3] for p in self.placements if p.side == "front")
        return used / self.area if self.area else 0.0

    @property
    def components(self) -> list[str]:
        """The components whose pieces (or assembly map) are on this page, in order."""
        ids = [p.piece.component for p in self.placements]
        if self.assembly:
            ids.append(self.assembly.component)
        return list(dict.fromkeys(ids))


@dataclass
class Sheet:
    """One sheet of paper: its front page and the page printed on its back (None: nothing is
    printed there; a pack printed single-sided has fronts only)."""

    front: Page
    back: Page | None = None


@dataclass
class Space:
    """Room left on a page for more pieces (``rect``: x, y, w, h in mm, a piece's bleed box
    may reach its edges), and whether pieces with backs may go there."""

    sheet: Sheet
    rect: Box
    backs: bool
