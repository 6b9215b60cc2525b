"""Counter sheets cut with scissors or a guillotine: every component's pieces in one block of
straight rows and columns, blocks placed so that every piece can be freed by straight cuts
right across the paper.

Blocks go into free rectangles; a placed block splits its rectangle in two by one straight
cut, so the layout is a guillotine layout by construction. A component is kept in one block,
on one sheet, whenever it fits on one (a larger one becomes blocks of whole rows, a sheet
each); only when the room left on the sheets already open holds all of it, and no block of it
fits whole there, are its rows spread over that room rather than taking a new sheet, and then
only over the room of one sheet: a component is never spread over two sheets. The room
left on other sheets (beside and under a deck's cards) is filled first. Several orders, block
shapes and cutting rules are tried, always the same ones; the layout with the fewest new sheets
wins.

A component laid out gang-cut (``butt``) is a block like any other, of counters touching
each other and a rim round them for its bleed and crop marks (see ``gangs``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

from generator.layout.gangs import Block, rim_side
from generator.layout.grids import FOLD_CLEAR, printable_box
from generator.layout.impose import add_backs, offset_room
from generator.layout.pieces import Piece
from generator.layout.sheets import Fold, Page, Placement, Sheet, Space
from generator.model.sizes import SheetGeometry
from generator.options import PrintOptions

EPS = 1e-6
SHUFFLES = 6  # seeded random orders tried besides the sorted ones
Rect = tuple[float, float, float, float]  # x, y (bottom), w, h


class PackingError(ValueError):
    """A piece larger than the printable area."""


@dataclass(frozen=True)
class Group:
    """The pieces of one component that go in one block (or several, when they need more than
    a sheet): cells of the bleed box plus the cutting gap; gang-cut (``butt``), cells of the
    trim box and a ``rim`` round the block."""

    pieces: tuple[Piece, ...]
    cell_w: float
    cell_h: float
    backs: bool
    rim: float = 0.0  # what a block is wider and taller than its cells
    butt: bool = False

    def fits(self, width: float, height: float) -> tuple[int, int]:
        """How many columns and rows of cells a block fits in ``width`` x ``height``."""
        cols = math.floor((width - self.rim + EPS) / self.cell_w)
        return cols, math.floor((height - self.rim + EPS) / self.cell_h)

    def size(self, cols: int, rows: int) -> tuple[float, float]:
        """The width and height of a block of ``cols`` x ``rows`` cells."""
        return cols * self.cell_w + self.rim, rows * self.cell_h + self.rim

    def shapes(self, width: float, height: float, count: int) -> list[tuple[int, int]]:
        """(columns, rows) of blocks of ``count`` cells that fit ``width`` x ``height``: the
        widest, the tallest and the squarest."""
        cols_max, rows_max = self.fits(width, height)
        cols_max = min(count, cols_max)
        if cols_max < 1 or rows_max < 1 or cols_max * rows_max < count:
            return []
        fewest = math.ceil(count / rows_max)
        square = min(max(round(math.sqrt(count * self.cell_h / self.cell_w)), fewest), cols_max)
        return [(cols, math.ceil(count / cols)) for cols in sorted({cols_max, fewest, square})]


@dataclass
class _Bin:
    """A sheet (or the room left on one) being filled: its free rectangles and what is placed."""

    backs: bool
    free: list[Rect]
    space: Space | None = None
    spots: list[tuple[Piece, float, float]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)  # gang-cut blocks

    def copy(self) -> _Bin:
        """A copy to try placing more in."""
        return _Bin(self.backs, list(self.free), self.space, list(self.spots), list(self.blocks))


def groups_of(pieces: list[Piece], geo: SheetGeometry) -> list[Group]:
    """The pieces in groups of one component each, in order."""
    by_component: dict[str, list[Piece]] = {}
    for piece in pieces:
        by_component.setdefault(piece.component, []).append(piece)
    out = []
    for found in by_component.values():
        first = found[0]
        backs = any(p.back for p in found)
        if first.butt:
            rim = 2 * rim_side(first.bleed, geo)
            out.append(Group(tuple(found), first.w, first.h, backs, rim, butt=True))
            continue
        pad = 2 * first.bleed + geo.piece_gap
        out.append(Group(tuple(found), first.w + pad, first.h + pad, backs))
    return out


def _place(
    target: _Bin, index: int, pieces: tuple[Piece, ...], group: Group, shape: tuple, vertical: bool
) -> None:
    """Put ``pieces`` as one block of ``shape`` (columns, rows) at the top-left of free
    rectangle ``index`` of ``target`` and cut what is left of the rectangle (and of the
    block's last row) into new free rectangles."""
    cols, rows = shape
    cw, ch = group.cell_w, group.cell_h
    x, y, w, h = target.free.pop(index)
    bw, bh = group.size(cols, rows)
    top = y + h
    if group.butt:  # one block, its rim round it: the short row's room is the block's own
        target.blocks.append(Block(pieces, cols, x, top - bh))
    else:
        for i, piece in enumerate(pieces):
            col, row = i % cols, i // cols
            target.spots.append((piece, x + col * cw, top - (row + 1) * ch))
    short = cols * rows - len(pieces)
    if short and not group.butt:
        target.free.append((x + (cols - short) * cw, top - bh, short * cw, ch))
    if vertical:
        target.free += [(x + bw, y, w - bw, h), (x, y, bw, h - bh)]
    else:
        target.free += [(x + bw, top - bh, w - bw, bh), (x, y, w, h - bh)]
    target.free = [r for r in target.free if r[2] > EPS and r[3] > EPS]


def _best(bins: list[_Bin], group: Group, count: int) -> tuple[int, int, tuple] | None:
    """Where a block of ``count`` of the group's cells fits best (bin, rectangle, shape): the
    least room left along the rectangle's shorter side, then the fewest empty cells."""
    best: tuple[tuple, int, int, tuple] | None = None
    for b, target in enumerate(bins):
        if group.backs and not target.backs:
            continue
        for r, (_, _, w, h) in enumerate(target.free):
            for cols, rows in group.shapes(w, h, count):
                bw, bh = group.size(cols, rows)
                leftover = min(w - bw, h - bh)
                score = (leftover, cols * rows - count)
                if best is None or score < best[0]:
                    best = (score, b, r, (cols, rows))
    return None if best is None else best[1:]


def _pour(bins: list[_Bin], group: Group, vertical: bool) -> bool:
    """Spread the group's pieces over the free room of one sheet in ``bins``, in blocks of
    whole rows, as large as fit (a component is never spread over two sheets); False (and
    ``bins`` as they were) when no sheet has room for all of them."""
    sheets: dict[int, list[int]] = {}  # a sheet (its front page) -> its bins
    for b, target in enumerate(bins):
        page = id(target.space.sheet) if target.space is not None else -b - 1
        sheets.setdefault(page, []).append(b)
    return any(_pour_into(bins, members, group, vertical) for members in sheets.values())


def _pour_into(bins: list[_Bin], members: list[int], group: Group, vertical: bool) -> bool:
    """``_pour`` into the bins ``members`` (the room of one sheet)."""
    trial = [b.copy() for b in bins]
    left = group.pieces
    while left:
        best: tuple[int, int, int, tuple] | None = None
        for b in members:
            target = trial[b]
            if group.backs and not target.backs:
                continue
            for r, (_, _, w, h) in enumerate(target.free):
                cols, rows = group.fits(w, h)
                cols = min(len(left), cols)
                take = min(len(left), max(cols, 0) * max(rows, 0))
                if take and (best is None or take > best[0]):
                    best = (take, b, r, (cols, math.ceil(take / cols)))
        if best is None:
            return False
        take, b, r, shape = best
        _place(trial[b], r, left[:take], group, shape, vertical)
        left = left[take:]
    bins[:] = trial
    return True


def _run(
    groups: list[Group], spaces: list[Space], fresh: tuple[Rect, Rect], vertical: bool, pour: bool
) -> tuple[list[_Bin], int]:
    """Every group placed: whole where it fits best, else (with ``pour``) spread over the room
    left, else whole on a new sheet (``fresh``: the area of a new sheet for pieces without
    backs, and for pieces with backs). The bins, and how many groups were spread."""
    bins = [_Bin(s.backs, [s.rect], s) for s in spaces]
    spread = 0
    for group in groups:
        spot = _best(bins, group, len(group.pieces))
        if spot is None and pour and _pour(bins, group, vertical):
            spread += 1
            continue
        if spot is None:
            area = fresh[1] if group.backs else fresh[0]
            bins.append(_Bin(group.backs or fresh[0] == fresh[1], [area]))
            spot = _best(bins[-1:], group, len(group.pieces))
            assert spot is not None
            spot = (len(bins) - 1, spot[1], spot[2])
        b, r, shape = spot
        _place(bins[b], r, group.pieces, group, shape, vertical)
    return bins, spread


def _orders(groups: list[Group]) -> list[list[Group]]:
    """The orders the packing tries: as given, tallest cells first, largest blocks first,
    largest cells first, and a few shuffles (seeded, so every build is the same)."""
    shuffler = random.Random(len(groups))
    shuffles = []
    for _ in range(SHUFFLES):
        order = list(groups)
        shuffler.shuffle(order)
        shuffles.append(order)
    return [
        groups,
        sorted(groups, key=lambda g: -g.cell_h),
        sorted(groups, key=lambda g: -g.cell_w * g.cell_h * len(g.pieces)),
        sorted(groups, key=lambda g: -max(g.cell_w, g.cell_h)),
        *shuffles,
    ]


def _grown(rect: Rect, half: float) -> Rect:
    x, y, w, h = rect
    return (x - half, y - half, w + 2 * half, h + 2 * half)


def _sized(groups: list[Group], whole: Rect, backed: Rect, geo: SheetGeometry) -> list[Group]:
    """The groups, those too large for a sheet split into blocks of whole rows that fit one."""
    out: list[Group] = []
    for group in groups:
        area = backed if group.backs else whole
        if group.shapes(area[2], area[3], len(group.pieces)):
            out.append(group)
            continue
        cols, rows = group.fits(area[2], area[3])
        per = max(cols, 0) * max(rows, 0)
        if per < 1:
            first = group.pieces[0]
            raise PackingError(
                f"a {first.shape.label()} piece with {first.bleed:g} mm bleed does not fit "
                f"inside the {geo.margin:g} mm margin"
            )
        out += [
            replace(group, pieces=group.pieces[i : i + per])
            for i in range(0, len(group.pieces), per)
        ]
    return out


def pack_counters(
    groups: list[Group],
    spaces: list[Space],
    paper: tuple[float, float],
    geo: SheetGeometry,
    options: PrintOptions,
    title: str,
) -> list[Sheet]:
    """Place every group: into ``spaces`` left on other sheets where it fits, the rest on new
    counter sheets (returned); backs go behind their fronts, or across the fold."""
    half = geo.piece_gap / 2
    left, bottom, right, top = printable_box(paper, geo, True, offset_room(options))
    clear = geo.line_room  # cut lines on a trim edge: their width stays inside the margin
    left, bottom, right, top = left + clear, bottom + clear, right - clear, top - clear
    whole = _grown((left, bottom, right - left, top - bottom), half)
    backed = whole
    if options.layout == "fold":
        fold_bottom = paper[1] / 2 + FOLD_CLEAR
        backed = _grown((left, fold_bottom, right - left, top - geo.footer - fold_bottom), half)
    sized = _sized(groups, whole, backed, geo)
    grown_spaces = [Space(s.sheet, _grown(s.rect, half - clear), s.backs) for s in spaces]
    need = sum(len(g.pieces) * g.cell_w * g.cell_h for g in sized)
    room = sum(s.rect[2] * s.rect[3] for s in grown_spaces)
    least = max(0, math.ceil((need - room) / (whole[2] * whole[3]) - EPS))
    best: tuple[int, int, list[_Bin]] | None = None
    for order in _orders(sized):
        for vertical in (False, True):
            for pour in (False, True):
                bins, spread = _run(order, grown_spaces, (whole, backed), vertical, pour)
                score = (sum(1 for b in bins if b.space is None), spread)
                if best is None or score < best[:2]:
                    best = (*score, bins)
                if best[:2] == (least, 0):  # no layout takes fewer sheets
                    return _sheets(best[2], paper, geo, options, title, half)
    assert best is not None
    return _sheets(best[2], paper, geo, options, title, half)


def _sheets(
    bins: list[_Bin],
    paper: tuple[float, float],
    geo: SheetGeometry,
    options: PrintOptions,
    title: str,
    half: float,
) -> list[Sheet]:
    """The placements of every bin: on the sheet of a space, or on new counter sheets."""
    left, bottom, right, top = printable_box(paper, geo, True, offset_room(options))
    new = [b for b in bins if b.space is None]
    sheets: list[Sheet] = []
    for target in bins:
        if not target.spots and not target.blocks:
            continue
        placements = []
        for piece, x, y in target.spots:
            x0, y0 = x + half + piece.bleed, y + half + piece.bleed
            placements.append(Placement(piece, "front", x0, y0, piece.w, piece.h, 0, outline=True))
        marks = []
        for block in target.blocks:
            found, lines = block.layout(geo)
            placements += found
            marks += lines
        placements.sort(key=lambda p: (-round(p.y + p.h, 3), round(p.x, 3)))
        if target.space is not None:
            sheet = target.space.sheet
        else:
            number = new.index(target) + 1
            page = Page(title, "front", number, len(new), area=(right - left) * (top - bottom))
            if options.layout == "fold" and target.backs and any(p.piece.back for p in placements):
                page.side, page.fold = "fold", Fold("y", paper[1] / 2)
            sheet = Sheet(page)
            sheets.append(sheet)
        sheet.front.placements.extend(placements)
        sheet.front.marks.extend(marks)
        add_backs(sheet, placements, paper, options)
    return sheets
