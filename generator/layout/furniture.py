"""What a page prints besides its pieces' art, and where: the page label, crop marks, cut
lines, the fold line and its notes, glue strips and their notes, tile names, title bands.

The PDF writer draws the label where ``label_at`` puts it, and ``page_ink`` gives every mark
of a page as a box of ink with the piece it belongs to (if any), so the print check can put
each where the printer will and see whether it lands on a piece it does not belong to.

A page label sits in the footer band above the bottom margin, which pieces leave free. On
the back page of a sheet printed double-sided it goes where the front's footer band lands:
flipped on the long edge that is the bottom of the back page too, flipped on the short edge
it is the top, so a back's label never prints behind a piece near the top of its front.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.layout.impose import flip_axis, offset_room
from generator.layout.inksaver import outlined
from generator.layout.pack import Pack
from generator.layout.pieces import Piece
from generator.layout.sheets import Box, Fold, Page, Placement
from generator.model.sizes import sheet_geometry
from generator.svg.fonts import REGULAR, register_fonts

MM_PER_PT = 25.4 / 72
LABEL_SIZE_PT = 6.5
LABEL_RISE = 1.2  # mm from the bottom of the footer band to the label's baseline
ASCENT, DESCENT = 0.76, 0.24  # DejaVu's glyphs above and below the baseline, in font sizes
FOLD_NOTE_RISE_PT = 2.0  # the fold line's notes stand this far from it
MARK_WIDTH_PT = 0.3
FOLD_WIDTH_PT = 0.5
CUT_WIDTH_PT = 0.35
GLUE_NOTE_PT = 7.0


@dataclass(frozen=True)
class Ink:
    """A mark a page prints: what it is, its box (x, y, w, h mm on its page) and the piece
    it belongs to (None: the page's own, such as its label)."""

    what: str
    box: Box
    owner: Piece | None = None


def label_key(page: Page) -> str:
    """The engine string a page's label is made from."""
    if page.side == "back":
        key = "page_label_backs"
    elif page.side == "fold":
        key = "page_label_fold"
    elif any(p.piece.back for p in page.placements):
        key = "page_label_fronts"
    else:
        key = "page_label_single"
    if _tile(page):
        key = "page_label_tile"
    elif page.assembly:
        key = "page_label_map"
    return key


def is_tile(page: Page) -> bool:
    """Whether a page holds one tile of a board (its label counts tiles, not sheets)."""
    return _tile(page) is not None


def _tile(page: Page) -> str | None:
    return next((p.tile for p in page.placements if p.tile and p.tile != "whole"), None)


def label_text(pack: Pack, page: Page, number: int) -> str:
    """The label of page ``number``: the game, the page's components, its sheet and side."""
    return pack.words.text(
        label_key(page),
        game=pack.game.spec.title,
        component=page.title,
        sheet=page.number,
        sheets=page.of,
        page=number,
        tile=_tile(page),
    )


def label_at(pack: Pack, page: Page) -> tuple[float, float]:
    """Where a page's label is centred: its x and its baseline's y (mm)."""
    geo = sheet_geometry()
    pw, ph = pack.paper
    if page.side != "back" or not pack.duplex:
        return pw / 2, geo.margin + LABEL_RISE
    dx, dy = pack.options.back_offset
    band = geo.margin + geo.footer + offset_room(pack.options)[1]  # the front's band's top
    short = flip_axis(pack.options) == "y"  # turned over the short edge, the band is on top
    lower = ph - band + dy if short else max(geo.margin, geo.margin + dy)
    return pw / 2 + dx, lower + LABEL_RISE


def text_box(text: str, font: str, size_pt: float, x: float, y: float, anchor: str) -> Box:
    """The box (mm) of a line of text whose baseline starts (``anchor`` 'start'), is centred
    ('middle') or ends ('end') at (x, y) mm."""
    register_fonts()
    width = stringWidth(text, font, size_pt) * MM_PER_PT
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    size = size_pt * MM_PER_PT
    return (left, y - DESCENT * size, width, (ASCENT + DESCENT) * size)


def _line_box(x1: float, y1: float, x2: float, y2: float, width_pt: float) -> Box:
    grow = width_pt * MM_PER_PT / 2
    w, h = abs(x2 - x1) + 2 * grow, abs(y2 - y1) + 2 * grow
    return (min(x1, x2) - grow, min(y1, y2) - grow, w, h)


def fold_notes(pack: Pack, fold: Fold) -> list[tuple[float, float, str, float]]:
    """The fold line's notes: (x, y) mm of each baseline's start, its text and its turn."""
    margin = sheet_geometry().margin + 1
    pw, ph = pack.paper
    note = pack.words.text("fold_here")
    rise = FOLD_NOTE_RISE_PT * MM_PER_PT
    if fold.axis == "y":
        width = stringWidth(note, REGULAR, LABEL_SIZE_PT) * MM_PER_PT
        return [(margin, fold.at + rise, note, 0), (pw - margin - width, fold.at + rise, note, 0)]
    width = stringWidth(note, REGULAR, LABEL_SIZE_PT) * MM_PER_PT
    return [(fold.at - rise, ph / 2 - width / 2, note, 90)]


def fold_line(pack: Pack, fold: Fold) -> tuple[float, float, float, float]:
    """The dashed fold line, its ends a millimetre inside the margin."""
    margin = sheet_geometry().margin + 1
    pw, ph = pack.paper
    if fold.axis == "y":
        return margin, fold.at, pw - margin, fold.at
    return fold.at, margin, fold.at, ph - margin


def page_ink(pack: Pack, page: Page, number: int) -> list[Ink]:
    """Every mark page ``number`` prints, art included, with the piece each belongs to."""
    inks = [_art(pack, p) for p in page.placements if not p.piece.flowed]
    for x1, y1, x2, y2 in page.marks:
        inks.append(Ink("a crop mark", _line_box(x1, y1, x2, y2, MARK_WIDTH_PT)))
    for p in page.placements:
        if p.side == "front" and p.outline:
            inks.append(Ink("a cut line", _grown(p, CUT_WIDTH_PT), p.piece))
    for decoration in page.decorations:
        art = pack.art.drawing(decoration.art)
        box = (decoration.x, decoration.y, art.width * MM_PER_PT, art.height * MM_PER_PT)
        inks.append(Ink("the title band", box))
    inks += _fold_ink(pack, page)
    inks += _tile_ink(pack, page)
    if page.label:
        x, y = label_at(pack, page)
        box = text_box(label_text(pack, page, number), REGULAR, LABEL_SIZE_PT, x, y, "middle")
        inks.append(Ink("the page label", box))
    return inks


def _art(pack: Pack, p: Placement) -> Ink:
    """A piece's art on the page: its bleed box (clipped), or its outline (an ink-saver
    back)."""
    if outlined(pack, p):
        return Ink("the outline of a back", (p.x, p.y, p.w, p.h), p.piece)
    return Ink(f"the {p.side} art", p.bleed_box, p.piece)


def _grown(p: Placement, width_pt: float) -> Box:
    grow = width_pt * MM_PER_PT / 2
    return (p.x - grow, p.y - grow, p.w + 2 * grow, p.h + 2 * grow)


def _fold_ink(pack: Pack, page: Page) -> list[Ink]:
    """The fold line and its notes."""
    if page.fold is None:
        return []
    inks = [Ink("the fold line", _line_box(*fold_line(pack, page.fold), FOLD_WIDTH_PT))]
    size = LABEL_SIZE_PT * MM_PER_PT
    for x, y, note, turn in fold_notes(pack, page.fold):
        x0, y0, w, h = text_box(note, REGULAR, LABEL_SIZE_PT, x, y, "start")
        if turn:  # read upwards from (x, y): the glyphs stand left of the baseline
            x0, y0, w, h = x - ASCENT * size, y, (ASCENT + DESCENT) * size, w
        inks.append(Ink("a fold note", (x0, y0, w, h)))
    return inks


def _tile_ink(pack: Pack, page: Page) -> list[Ink]:
    """A board tile's glue strips and their notes, and its name, all the tile's own."""
    tile = next((p.piece for p in page.placements if p.tile), None)
    inks = [Ink("a glue strip", box, tile) for box, _ in page.glue]
    for x, y, name in page.names:
        box = text_box(name, REGULAR, LABEL_SIZE_PT, x, y, "start")
        inks.append(Ink("a tile's name", box, tile))
    return inks
