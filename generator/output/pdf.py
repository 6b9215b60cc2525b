"""The print pack PDF: inventory page(s), then every section's sheets, drawn with reportlab.

Art placed more than once (backs, repeated faces) becomes one PDF form XObject, drawn by
reference wherever it is placed; its bounding box is the bleed box, so art never spills onto a
neighbour. Art placed once is drawn straight into the page, clipped to the same box, inside a
marked-content sequence ``/PnpArt <</Art (key) /BBox [...]>> BDC ... EMC`` that tells readers
(and the tests) where one piece's art begins and ends: a form of its own would cost an object,
a resource dictionary and a separately compressed stream per card, nearly doubling a deck of
distinct cards. Tokens are clipped to their shape grown by the bleed, and get cut lines that
follow the shape.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.art.layers import Layered
from generator.art.shapes import Shape, hex_points
from generator.art.store import Artwork
from generator.layout.furniture import (
    CUT_WIDTH_PT,
    FOLD_WIDTH_PT,
    GLUE_NOTE_PT,
    LABEL_SIZE_PT,
    MARK_WIDTH_PT,
    fold_line,
    fold_notes,
    label_at,
    label_text,
)
from generator.layout.inksaver import outlined
from generator.layout.pack import Pack
from generator.layout.sheets import BoardMap, Box, Fold, Page, Placement
from generator.output import inventory
from generator.svg import canvas as rl
from generator.svg.compiler import pdf_number
from generator.svg.fonts import BOLD, REGULAR, register_fonts

FOLD_DASH_PT = (3, 2)


@rl.binary_streams()
def write(pack: Pack, path: Path, progress: Callable[[int], None] | None = None) -> None:
    """Draw the whole pack to ``path``, page by page (a blank page where a sheet's back has
    nothing); ``progress(1)`` is called after every page."""
    register_fonts()
    game = pack.game.spec
    # the initial font is the embedded one: reportlab's default would put an unembedded
    # Helvetica on every page, and a text operator on pages meant to stay blank
    size = (pack.paper[0] * mm, pack.paper[1] * mm)
    canvas = Canvas(str(path), pagesize=size, invariant=1, initialFontName=REGULAR)
    canvas.setTitle(pack.words.text("pdf_title", title=game.title))
    canvas.setAuthor(game.designer or "")
    canvas.setSubject(f"{game.title}, {game.players} players")
    canvas.setCreator("pnp-generator")
    first_pages: dict[int, list] = {}
    for plan in pack.components:
        if plan.pages:
            first_pages.setdefault(plan.pages[0], []).append(plan)
    arts = _ArtPlacer(pack, Counter(_art_uses(pack)))
    for number, page, _ in pack.pages():
        if page is not None and page.inventory is not None:
            if page.inventory == 0:
                canvas.bookmarkPage("inventory")
                canvas.addOutlineEntry(pack.words.text("bookmark_inventory"), "inventory", level=0)
            inventory.draw_page(pack, canvas, page.inventory)
            if page.assembly is not None:  # a small board's map, under 'About this edition'
                box = inventory.room_left(pack)
                _assembly_map(pack, page.assembly, canvas, arts, box)
        elif page is not None:
            for plan in first_pages.get(number, []):
                key = f"component-{plan.component.id}"
                canvas.bookmarkPage(key)
                canvas.addOutlineEntry(plan.component.spec.title, key, level=0)
            _draw_page(pack, page, number, canvas, arts)
        canvas.showPage()
        if progress:
            progress(1)
    canvas.showOutline()
    canvas.save()


def _art_uses(pack: Pack) -> Iterator[str]:
    """The art key of every placement, decoration and map the pack draws, once per use."""
    for _, page in pack.numbered_pages():
        for decoration in page.decorations:
            yield decoration.art
        for p in page.placements:
            key = _placed_art(pack, p)
            if key is not None:
                yield key
        if page.assembly:
            yield page.assembly.art


def _placed_art(pack: Pack, p: Placement) -> str | None:
    """The art a placement draws (None: a sheet's flow, or an ink-saver back's outline)."""
    if p.piece.flowed or outlined(pack, p):
        return None
    return p.piece.face if p.side == "front" else p.piece.back


@dataclass
class _ArtPlacer:
    """Draws art at the canvas origin: by reference to its form when it is placed more than
    once (the form defined on first use), else straight into the page. A face with a static
    layer draws the layer's form and then its own elements."""

    pack: Pack
    uses: Counter[str]
    forms: set[str] = field(default_factory=set)

    def draw(self, canvas: Canvas, key: str) -> None:
        art = self.pack.art.drawing(key)
        if isinstance(art, Layered):
            self._define(canvas, art.layer_key, art.layer)  # forms cannot be begun in forms
        if self.uses[key] > 1:
            self._define(canvas, key, art)
            canvas.doForm(f"art{key}")
            return
        w, h = pdf_number(art.width), pdf_number(art.height)
        canvas.addLiteral(f"/PnpArt <</Art ({key}) /BBox [0 0 {w} {h}]>> BDC")
        canvas.saveState()
        canvas.addLiteral(f"0 0 {w} {h} re W n")
        self._paint(canvas, art)
        canvas.restoreState()
        canvas.addLiteral("EMC")

    def _define(self, canvas: Canvas, key: str, art: Artwork) -> None:
        """The form XObject of art ``key``, the first time it is needed."""
        if key not in self.forms:
            canvas.beginForm(f"art{key}", 0, 0, art.width, art.height)
            self._paint(canvas, art)
            rl.end_form(canvas, f"art{key}")
            self.forms.add(key)

    @staticmethod
    def _paint(canvas: Canvas, art: Artwork) -> None:
        if isinstance(art, Layered):
            canvas.doForm(f"art{art.layer_key}")
            art.rest.draw(canvas)
        else:
            art.draw(canvas)


def _draw_page(pack: Pack, sheet: Page, page: int, canvas: Canvas, arts: _ArtPlacer) -> None:
    for decoration in sheet.decorations:
        canvas.saveState()
        canvas.translate(decoration.x * mm, decoration.y * mm)
        arts.draw(canvas, decoration.art)
        canvas.restoreState()
    if sheet.flow is not None:
        sheet.flow.draw_page(canvas, sheet.title)
    for placement in sheet.placements:
        key = _placed_art(pack, placement)
        if key is not None:
            _place(canvas, placement, lambda: arts.draw(canvas, key))  # noqa: B023 - called now
        elif placement.side == "back" and not placement.piece.flowed:
            _outline_only(canvas, placement)
    if sheet.assembly:
        box = inventory.map_page_box(pack.paper)
        _assembly_map(pack, sheet.assembly, canvas, arts, box)
    for placement in sheet.placements:
        if placement.side == "front" and placement.outline:
            _cut_guides(canvas, placement)
    if sheet.fold is not None:
        _fold_line(pack, canvas, sheet.fold)
    for glue, tile in sheet.glue:
        _glue_area(canvas, glue, pack.words.text("glue_here", tile=tile))
    for x, y, name in sheet.names:
        _tile_name(canvas, x, y, name)
    canvas.setLineWidth(MARK_WIDTH_PT)
    canvas.setStrokeGray(0)
    for x1, y1, x2, y2 in sheet.marks:
        canvas.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
    if sheet.label:
        _page_label(pack, sheet, page, canvas)


def _place(canvas: Canvas, p: Placement, draw_art: Callable[[], None]) -> None:
    """Draw the art (``draw_art`` draws it at the origin) so that its trim box lands on the
    placement's box, turned as placed; a token's art is clipped to its shape grown by the
    bleed."""
    b = p.piece.bleed
    canvas.saveState()
    if p.window and p.tile != "whole":
        bx, by, _, _ = p.window
        cx, cy, cw, ch = p.clip or (p.x, p.y, p.w, p.h)
        path = canvas.beginPath()
        path.rect(cx * mm, cy * mm, cw * mm, ch * mm)
        canvas.clipPath(path, stroke=0, fill=0)
        if p.rotation == 90:
            canvas.translate((p.x + p.w) * mm, p.y * mm)
            canvas.rotate(90)
        else:
            canvas.translate(p.x * mm, p.y * mm)
        canvas.translate(-(bx + b) * mm, -(by + b) * mm)
        draw_art()
        canvas.restoreState()
        return
    if p.clip is not None:  # butted cards: the bleed only where no neighbour touches
        cx, cy, cw, ch = p.clip
        path = canvas.beginPath()
        path.rect(cx * mm, cy * mm, cw * mm, ch * mm)
        canvas.clipPath(path, stroke=0, fill=0)
    _piece_frame(canvas, p)
    if p.piece.clipped:
        canvas.clipPath(_outline(canvas, p.piece.shape, 0, 0, b), stroke=0, fill=0)
    canvas.translate(-b * mm, -b * mm)  # the art's origin is its bleed box corner
    draw_art()
    canvas.restoreState()


def _piece_frame(canvas: Canvas, p: Placement) -> None:
    """Move the canvas origin to the placed piece's trim corner in the piece's own frame:
    turned about the centre of the placement as placed."""
    w, h = (p.h, p.w) if p.rotation % 180 else (p.w, p.h)
    canvas.translate((p.x + p.w / 2) * mm, (p.y + p.h / 2) * mm)
    canvas.rotate(p.rotation)
    canvas.translate(-w / 2 * mm, -h / 2 * mm)


def _outline(canvas: Canvas, shape: Shape, x: float, y: float, grow: float = 0.0):
    """A path of ``shape`` with its trim box at (x, y) mm, grown by ``grow`` mm."""
    path = canvas.beginPath()
    if shape.kind == "circle":
        path.circle((x + shape.w / 2) * mm, (y + shape.h / 2) * mm, (shape.w / 2 + grow) * mm)
    elif shape.kind.startswith("hex"):
        points = [((x + px) * mm, (y + py) * mm) for px, py in hex_points(shape, grow)]
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
    else:
        radius = shape.corner + grow if shape.corner else 0
        w, h = shape.w + 2 * grow, shape.h + 2 * grow
        if radius:
            path.roundRect((x - grow) * mm, (y - grow) * mm, w * mm, h * mm, radius * mm)
        else:
            path.rect((x - grow) * mm, (y - grow) * mm, w * mm, h * mm)
    return path


def _cut_guides(canvas: Canvas, p: Placement) -> None:
    """Cut lines that follow the piece's shape; dashed fold lines for die nets and
    standees, grey on white so they show on any art."""
    shape = p.piece.shape
    canvas.saveState()
    _piece_frame(canvas, p)
    canvas.setLineWidth(CUT_WIDTH_PT)
    canvas.setStrokeGray(0)
    if shape.cuts:
        for x1, y1, x2, y2 in shape.cuts:
            canvas.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
        # a fold shows on dark art and light alike: grey dashes over a white line
        for gray, dash in ((1.0, ()), (0.35, FOLD_DASH_PT)):
            canvas.setDash(*dash)
            canvas.setStrokeGray(gray)
            for x1, y1, x2, y2 in shape.folds:
                canvas.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
    else:
        canvas.drawPath(_outline(canvas, shape, 0, 0), stroke=1, fill=0)
    canvas.restoreState()


def _outline_only(canvas: Canvas, p: Placement) -> None:
    """Ink saver: a back is only its outline, a thin grey line on the trim."""
    canvas.saveState()
    canvas.setStrokeGray(0.6)
    canvas.setLineWidth(0.3)
    if p.piece.trim_outline:
        canvas.rect(p.x * mm, p.y * mm, p.w * mm, p.h * mm, stroke=1, fill=0)
    else:
        _piece_frame(canvas, p)
        canvas.drawPath(_outline(canvas, p.piece.shape, 0, 0), stroke=1, fill=0)
    canvas.restoreState()


def _fold_line(pack: Pack, canvas: Canvas, fold: Fold) -> None:
    """The dashed gutter-fold line across (or down) the sheet, with its notes."""
    canvas.saveState()
    canvas.setStrokeGray(0.3)
    canvas.setLineWidth(FOLD_WIDTH_PT)
    canvas.setDash(4, 3)
    canvas.setFont(REGULAR, LABEL_SIZE_PT)
    canvas.setFillGray(0.3)
    x1, y1, x2, y2 = fold_line(pack, fold)
    canvas.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
    for x, y, note, turn in fold_notes(pack, fold):
        canvas.saveState()
        canvas.translate(x * mm, y * mm)
        canvas.rotate(turn)
        rl.draw_string(canvas, 0, 0, note)
        canvas.restoreState()
    canvas.restoreState()


def _glue_area(canvas: Canvas, box: Box, note: str) -> None:
    """Hatch the strip a neighbouring tile will cover, and label it with the tile's name (it
    stays on the tile once cut, and is hidden once glued)."""
    x, y, w, h = box
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(x * mm, y * mm, w * mm, h * mm)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.setFillColorRGB(1, 1, 1, alpha=0.55)
    canvas.rect(x * mm, y * mm, w * mm, h * mm, stroke=0, fill=1)
    canvas.setStrokeGray(0.55)
    canvas.setLineWidth(0.4)
    step = 4.0
    offset = -h
    while offset < w:
        canvas.line((x + offset) * mm, y * mm, (x + offset + h) * mm, (y + h) * mm)
        offset += step
    canvas.restoreState()
    canvas.saveState()
    canvas.setFont(BOLD, GLUE_NOTE_PT)
    canvas.setFillGray(0.2)
    cx, cy = (x + w / 2) * mm, (y + h / 2) * mm
    canvas.translate(cx, cy)
    if h > w:
        canvas.rotate(90)
    rl.draw_string(canvas, 0, -2.5, note, "middle")
    canvas.restoreState()


def _tile_name(canvas: Canvas, x: float, y: float, name: str) -> None:
    """A tile's name, small from (x, y): outside the art of the tile that has no glue
    strip to carry it."""
    canvas.saveState()
    canvas.setFillGray(0.35)
    canvas.setFont(REGULAR, LABEL_SIZE_PT)
    rl.draw_string(canvas, x * mm, y * mm, name)
    canvas.restoreState()


def _assembly_map(pack: Pack, board: BoardMap, canvas: Canvas, arts: _ArtPlacer, box: Box) -> None:
    """The whole board, small, with every tile drawn over it where it goes, labelled: its
    title and how to put it together at the top of ``box`` (x, y, w, h mm), the map below."""
    left, bottom, width, height = box
    scale = inventory.map_scale(board, box)
    height -= inventory.MAP_TITLE
    ox = left + (width - board.w * scale) / 2
    oy = bottom + (height - board.h * scale) / 2
    canvas.setFont(BOLD, 16)
    canvas.setFillGray(0)
    title_y = bottom + box[3] - 5
    title = pack.words.text("assembly_title", board=board.title)
    rl.draw_string(canvas, left * mm, title_y * mm, title)
    canvas.setFont(REGULAR, 9)
    rl.draw_string(canvas, left * mm, (title_y - 8) * mm, pack.words.text("assembly_help"))
    art = pack.art.drawing(board.art)
    bleed = (art.width / mm - board.w) / 2  # the art runs out into the bleed
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(ox * mm, oy * mm, board.w * scale * mm, board.h * scale * mm)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate((ox - bleed * scale) * mm, (oy - bleed * scale) * mm)
    canvas.scale(scale, scale)
    arts.draw(canvas, board.art)
    canvas.restoreState()
    canvas.setLineWidth(1)
    canvas.setStrokeGray(0)
    canvas.rect(ox * mm, oy * mm, board.w * scale * mm, board.h * scale * mm)
    for label, bx, by, w, h in board.tiles:
        canvas.setStrokeColorRGB(0.05, 0.15, 0.5)
        canvas.setLineWidth(1.2)
        canvas.setFillColorRGB(0.85, 0.9, 1, alpha=0.25)
        tx, ty = ox + bx * scale, oy + by * scale
        canvas.rect(tx * mm, ty * mm, w * scale * mm, h * scale * mm, stroke=1, fill=1)
        canvas.setFillAlpha(1)
        cx, cy = (tx + w * scale / 2) * mm, (ty + h * scale / 2) * mm
        canvas.setFillColorRGB(1, 1, 1)
        canvas.roundRect(cx - 14, cy - 10, 28, 20, 4, stroke=1, fill=1)
        canvas.setFillColorRGB(0.05, 0.15, 0.5)
        canvas.setFont(BOLD, 14)
        rl.draw_string(canvas, cx, cy - 5, label, "middle")


def _page_label(pack: Pack, page: Page, number: int, canvas: Canvas) -> None:
    """A small line in the footer band naming the game, the page's components, its sheet and
    side (on a back page, where the front's footer band lands)."""
    canvas.setFont(REGULAR, LABEL_SIZE_PT)
    canvas.setFillGray(0.35)
    x, y = label_at(pack, page)
    rl.draw_string(canvas, x * mm, y * mm, label_text(pack, page, number), "middle")
