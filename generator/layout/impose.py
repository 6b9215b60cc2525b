"""Imposition of cards and token pages onto sheets of paper, and the backs of every sheet.

Cards of one size sit in a grid, bleed touching bleed, turned 90° when that holds more, so
pages stay portrait and a long-edge flip is unambiguous; decks of the same size and bleed
share their sheets, one deck going on where the one before it ends. Printed double-sided, each
sheet's back page holds the backs of its pieces, each behind its own front: a long-edge flip
mirrors the columns, a short-edge flip the rows (backs turned 180°), and the printer's back
offset moves them all. Printed single-sided with a gutter fold, the backs sit across the fold
line on the same page instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from generator.layout.grids import (
    FOLD_CLEAR,
    Grid,
    crop_marks,
    fit_grid,
    fold_grids,
    marks_below,
    marks_right,
    printable_box,
)
from generator.layout.pieces import Piece
from generator.layout.sheets import Decoration, Fold, Page, Placement, Sheet, Space
from generator.model.sizes import SheetGeometry
from generator.options import DEFAULT_OPTIONS, PrintOptions

MIN_TOKEN_GAP = 1.0  # mm: the narrowest cutting gap a page of tokens falls back on


class ImpositionError(ValueError):
    """Pieces that cannot be laid out on the paper (too large, too many for a page)."""


def mirrored(p: Placement, paper: tuple[float, float], axis: str) -> Placement:
    """The back of placement ``p``: what lies behind it when the sheet turns about a vertical
    line (``axis`` 'x': a long-edge flip, or a fold down the middle) or a horizontal one ('y':
    a short-edge flip, or a fold across)."""
    if axis == "x":
        x, y, turn = paper[0] - p.x - p.w, p.y, -p.rotation % 360
    else:
        x, y, turn = p.x, paper[1] - p.y - p.h, (180 - p.rotation) % 360
    clip = None
    if p.clip is not None:
        cx, cy, cw, ch = p.clip
        clip = (paper[0] - cx - cw, cy, cw, ch) if axis == "x" else (cx, paper[1] - cy - ch, cw, ch)
    return Placement(p.piece, "back", x, y, p.w, p.h, turn, outline=p.outline, clip=clip)


def flip_axis(options: PrintOptions) -> str:
    """The axis a duplex printer turns the sheet about: long edge 'x', short edge 'y'."""
    return "y" if options.duplex == "short" else "x"


def add_backs(
    sheet: Sheet, placements: list[Placement], paper: tuple[float, float], options: PrintOptions
) -> None:
    """Put the backs of ``placements`` (those whose piece has one) where they belong: across
    the fold line of a folded sheet, else on the sheet's back page, mirrored for the duplex
    edge and moved by the back offset."""
    backed = [p for p in placements if p.piece.back]
    if not backed:
        return
    front = sheet.front
    if front.fold is not None:
        front.placements.extend(mirrored(p, paper, front.fold.axis) for p in backed)
        return
    if sheet.back is None:
        sheet.back = Page(front.title, "back", front.number, front.of, label=front.label)
    dx, dy = options.back_offset
    for p in backed:
        back = mirrored(p, paper, flip_axis(options))
        clip = back.clip
        if clip is not None:
            clip = (clip[0] + dx, clip[1] + dy, clip[2], clip[3])
        sheet.back.placements.append(replace(back, x=back.x + dx, y=back.y + dy, clip=clip))


def offset_room(options: PrintOptions) -> tuple[float, float, float, float]:
    """The room (left, bottom, right, top) fronts keep so that their backs, mirrored and
    moved by the back offset, stay inside the margin too (duplex; none when folding)."""
    if options.layout != "duplex":
        return (0.0, 0.0, 0.0, 0.0)
    dx, dy = options.back_offset
    if flip_axis(options) == "x":  # x mirrored: a back moves right as its front moves left
        return max(dx, 0.0), max(-dy, 0.0), max(-dx, 0.0), max(dy, 0.0)
    return max(-dx, 0.0), max(dy, 0.0), max(dx, 0.0), max(-dy, 0.0)


def impose_cards(
    pieces: list[Piece],
    paper: tuple[float, float],
    geo: SheetGeometry,
    titles: Callable[[list[str]], str],
    options: PrintOptions = DEFAULT_OPTIONS,
) -> tuple[list[Sheet], list[Space]]:
    """Sheets for cards of one size (one deck, or several decks one after another), and the
    room each sheet leaves below its cards; ``titles`` names the components on a page."""
    first = pieces[0]
    fold = options.layout == "fold" and any(p.back for p in pieces)
    axis = None
    if fold:
        found = fold_grids(paper, first.w, first.h, first.bleed, geo, first.butt)
        grid, axis = found if found else (None, None)
    else:
        grid = fit_grid(paper, first.w, first.h, first.bleed, geo, offset_room(options), first.butt)
    if grid is None:
        raise ImpositionError(
            f"a {first.w:g} x {first.h:g} mm card with {first.bleed:g} mm bleed does not fit "
            f"on {paper[0]:g} x {paper[1]:g} mm paper inside the {geo.margin:g} mm margin"
        )
    chunks = [pieces[i : i + grid.capacity] for i in range(0, len(pieces), grid.capacity)]
    sheets: list[Sheet] = []
    spaces: list[Space] = []
    for number, chunk in enumerate(chunks, start=1):
        front = Page("", "front", number, len(chunks), label=grid.footer)
        if axis is not None:
            front.side, front.fold = "fold", Fold(axis, paper[0 if axis == "x" else 1] / 2)
        for slot, piece in enumerate(chunk):
            x, y = grid.trim_origin(slot)
            turn = 90 if grid.rotated else 0
            clip = grid.art_box(slot, len(chunk))
            front.placements.append(
                Placement(piece, "front", x, y, grid.trim_w, grid.trim_h, turn, clip=clip)
            )
        front.title = titles(front.components)
        front.marks = crop_marks(grid, len(chunk), geo)
        sheet = Sheet(front)
        add_backs(sheet, front.placements, paper, options)
        sheets.append(sheet)
        spaces += _spaces(sheet, grid, len(chunk), paper, geo, options)
    return sheets, spaces


def _spaces(
    sheet: Sheet,
    grid: Grid,
    used: int,
    paper: tuple[float, float],
    geo: SheetGeometry,
    options: PrintOptions,
) -> list[Space]:
    """The room right of a sheet's cards and their crop marks (its whole height), and under
    them (left of that), kept a cutting gap from the marks, inside the printable area (the
    front half of a folded sheet)."""
    left, bottom, right, top = printable_box(paper, geo, True, offset_room(options))
    if sheet.front.fold is not None:
        left, bottom, right, top = grid.bounds
        if sheet.front.fold.axis == "x":
            right = grid.block_right(grid.cols)  # the marks toward the fold stay clear
        else:  # pieces keep as clear of the fold line as the cards' bleed does
            bottom = max(bottom, sheet.front.fold.at + FOLD_CLEAR)
    side = marks_right(grid, used, geo) + geo.piece_gap
    under = marks_below(grid, used, geo) - geo.piece_gap
    found = []
    if right - side > geo.piece_gap:
        found.append(Space(sheet, (side, bottom, right - side, top - bottom), backs=True))
        right = side - geo.piece_gap
    if under - bottom > geo.piece_gap:
        found.append(Space(sheet, (left, bottom, right - left, under - bottom), backs=True))
    return found


def _token_box(
    paper: tuple[float, float],
    geo: SheetGeometry,
    footer: bool,
    fold: bool,
    offset: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
) -> tuple[float, float, float, float]:
    """Where a token page's band and tokens go: the printable area (less the room for the
    back offset), or above a fold across the middle of the page (kept as far from the top as
    the footer is from the bottom)."""
    left, bottom, right, top = printable_box(paper, geo, footer, offset)
    if fold:
        return left, paper[1] / 2 + FOLD_CLEAR, right, top - (bottom - geo.margin)
    return left, bottom, right, top


@dataclass(frozen=True)
class TokenGrid:
    """How a page of round tokens is laid out: columns and rows, the title band's height,
    whether the page label fits, and the cutting gap between tokens."""

    cols: int
    rows: int
    band: float
    footer: bool
    gap: float


def token_page_grid(
    count: int,
    size: float,
    header_height: float,
    paper: tuple[float, float],
    geo: SheetGeometry,
    fold: bool = False,
    offset: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
) -> TokenGrid | None:
    """The layout of a page of ``count`` round tokens (``size`` mm with their bleed) under a
    title band (above a fold, only as many rows as fit there): the band keeps its height if
    it can (the page label giving up its footer first), else gives up height down to half of
    it; then the cutting gap narrows, down to 1 mm; the tokens never give up their size."""
    gap = geo.piece_gap
    while gap >= MIN_TOKEN_GAP - 1e-9:
        best: TokenGrid | None = None
        cell = size + gap
        for footer in (True, False):
            left, bottom, right, top = _token_box(paper, geo, footer, fold, offset)
            cols = int((right - left + 1e-9) // cell)
            if cols < 1:
                break
            rows = -(-count // cols)
            if fold:
                rows = min(rows, int((top - bottom - header_height / 2 - gap) // cell))
                if rows < 1:
                    continue
            band = min(header_height, top - bottom - rows * cell - gap)
            if band >= header_height / 2 - 1e-9 and (best is None or band > best.band + 1e-9):
                best = TokenGrid(cols, rows, band, footer, gap)
        if best is not None:
            return best
        gap -= 0.25
    return None


def impose_token_pages(
    pages: Sequence[tuple[Callable[[float, float], str], list[Piece]]],
    header_height: float,
    paper: tuple[float, float],
    geo: SheetGeometry,
    options: PrintOptions = DEFAULT_OPTIONS,
) -> list[Sheet]:
    """Whole pages of equal round tokens: a title band (drawn by ``header(width, height)``) on
    top, then a centred grid (under the band, for a set of fewer rows than the page holds);
    each page's backs behind it. Folding, the tokens go above the
    fold, their backs below it, a page's set spread over as many sheets as it takes."""
    backed = any(p.back for _, pieces in pages for p in pieces)
    fold = options.layout == "fold" and backed
    offset = offset_room(options) if backed else (0.0, 0.0, 0.0, 0.0)
    parts: list[tuple[Callable[[float, float], str], list[Piece], TokenGrid]] = []
    for header, pieces in pages:
        first = pieces[0]
        size = first.w + 2 * first.bleed
        grid = token_page_grid(len(pieces), size, header_height, paper, geo, fold, offset)
        if grid is None:
            moved = " with the back offset" if any(offset) else ""
            raise ImpositionError(
                f"a page cannot hold {len(pieces)} tokens of {first.w:g} mm{moved}"
            )
        per = grid.cols * grid.rows
        parts += [(header, pieces[i : i + per], grid) for i in range(0, len(pieces), per)]
    sheets: list[Sheet] = []
    for number, (header, pieces, grid) in enumerate(parts, start=1):
        first = pieces[0]
        gap, cols, rows = grid.gap, grid.cols, grid.rows
        cell = first.w + 2 * first.bleed + gap
        left, bottom, right, top = _token_box(paper, geo, grid.footer, fold, offset)
        page = Page("", "front", number, len(parts), label=grid.footer)
        if fold:
            page.side, page.fold = "fold", Fold("y", paper[1] / 2)
        page.area = (right - left) * (top - bottom)
        page.decorations.append(Decoration(header(right - left, grid.band), left, top - grid.band))
        body_top = top - grid.band - gap
        x0 = left + (right - left - cols * cell) / 2 + gap / 2 + first.bleed
        slack = body_top - bottom - rows * cell  # centred, unless rows are left empty:
        drop = slack / 2 if slack < cell else 0.0  # a short set hangs under the band
        y_top = body_top - drop - gap / 2 - first.bleed
        for slot, piece in enumerate(pieces):
            col, row = slot % cols, slot // cols
            x, y = x0 + col * cell, y_top - first.h - row * cell
            page.placements.append(
                Placement(piece, "front", x, y, piece.w, piece.h, 0, outline=True)
            )
        sheet = Sheet(page)
        add_backs(sheet, page.placements, paper, options)
        sheets.append(sheet)
    return sheets


def shuffled(values: list[int], each: int, seed: str) -> list[int]:
    """``each`` of every value, in an order of its own for every ``seed`` (a page)."""
    out = [v for v in values for _ in range(each)]
    random.Random(seed).shuffle(out)
    return out
