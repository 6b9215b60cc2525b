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

from generator.art.fonts import REGULAR, register_fonts
from generator.art.layers import Layered
from generator.art.shapes import Shape, hex_points
from generator.art.store import Artwork
from generator.art.svgdraw import pdf_number
from generator.i18n.strings import text
from generator.layout.impose import Placement, Sheet
from generator.layout.pack import Pack
from generator.output import inventory, pdfsetup  # noqa: F401 - reportlab set up as packs need
from generator.spec.sizes import sheet_geometry

MARK_WIDTH_PT = 0.3
CUT_WIDTH_PT = 0.35
FOLD_DASH_PT = (3, 2)
LABEL_SIZE_PT = 6.5




def write(pack: Pack, path: Path, progress: Callable[[int], None] | None = None) -> None:
    """Draw the whole pack to ``path``; ``progress(1)`` is called after every page."""
    register_fonts()
    game = pack.game.spec
    canvas = Canvas(str(path), pagesize=(pack.paper[0] * mm, pack.paper[1] * mm), invariant=1)
    canvas.setTitle(text("pdf_title", title=game.title))
    canvas.setAuthor(game.designer or "")
    canvas.setSubject(f"{game.title}, {game.players} players")
    canvas.setCreator("pnp-generator")
    inventory.draw(pack, canvas)
    first_pages = {plan.pages[0]: [] for plan in pack.components if plan.pages}
    for plan in pack.components:
        if plan.pages:
            first_pages[plan.pages[0]].append(plan)
    arts = _ArtPlacer(pack, Counter(_art_uses(pack)))
    for page, sheet in pack.numbered_sheets():
        for plan in first_pages.get(page, []):
            key = f"component-{plan.component.id}"
            canvas.bookmarkPage(key)
            canvas.addOutlineEntry(plan.component.spec.title, key, level=0)
        _draw_sheet(pack, sheet, page, canvas, arts)
        canvas.showPage()
        if progress:
            progress(1)
    canvas.showOutline()
    canvas.save()


def _art_uses(pack: Pack) -> Iterator[str]:
    """The art key of every placement and decoration the pack draws, once per use."""
    for _, sheet in pack.numbered_sheets():
        for decoration in sheet.decorations:
            yield decoration.art
        for p in sheet.placements:
            key = _placed_art(pack, p)
            if key is not None:
                yield key


def _placed_art(pack: Pack, p: Placement) -> str | None:
    """The art a placement draws (None: a sheet's flow, or an ink-saver back's outline)."""
    if p.piece.kind == "sheet" or (p.side == "back" and pack.options.ink_saver):
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
            canvas.endForm()
            self.forms.add(key)

    @staticmethod
    def _paint(canvas: Canvas, art: Artwork) -> None:
        if isinstance(art, Layered):
            canvas.doForm(f"art{art.layer_key}")
            art.rest.draw(canvas)
        else:
            art.draw(canvas)


def _draw_sheet(pack: Pack, sheet: Sheet, page: int, canvas: Canvas, arts: _ArtPlacer) -> None:
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
        elif placement.side == "back" and placement.piece.kind != "sheet":
            _outline_only(canvas, placement)
    if sheet.assembly:
        _assembly_map(pack, sheet, canvas)
    for placement in sheet.placements:
        if placement.side == "front" and placement.piece.kind not in ("card", "board", "sheet"):
            _cut_guides(canvas, placement)
    if sheet.fold is not None:
        _fold_line(pack, canvas, sheet.fold)
    for glue in sheet.glue:
        _glue_area(canvas, glue)
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
        path = canvas.beginPath()
        path.rect(p.x * mm, p.y * mm, p.w * mm, p.h * mm)
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
    if p.piece.kind == "token":
        path = _outline(canvas, p.piece.shape, p.x, p.y, b)
        canvas.clipPath(path, stroke=0, fill=0)
    # turn about the centre of the placement; the form's origin is its bleed box corner
    w, h = (p.h, p.w) if p.rotation % 180 else (p.w, p.h)
    canvas.translate((p.x + p.w / 2) * mm, (p.y + p.h / 2) * mm)
    canvas.rotate(p.rotation)
    canvas.translate(-(w / 2 + b) * mm, -(h / 2 + b) * mm)
    draw_art()
    canvas.restoreState()


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
    """Cut lines that follow the piece's shape; dashed fold lines for die nets."""
    shape = p.piece.shape
    canvas.saveState()
    canvas.setLineWidth(CUT_WIDTH_PT)
    canvas.setStrokeGray(0)
    if shape.cuts:
        for x1, y1, x2, y2 in shape.cuts:
            canvas.line((p.x + x1) * mm, (p.y + y1) * mm, (p.x + x2) * mm, (p.y + y2) * mm)
        canvas.setDash(*FOLD_DASH_PT)
        canvas.setStrokeGray(0.45)
        for x1, y1, x2, y2 in shape.folds:
            canvas.line((p.x + x1) * mm, (p.y + y1) * mm, (p.x + x2) * mm, (p.y + y2) * mm)
    else:
        canvas.drawPath(_outline(canvas, shape, p.x, p.y), stroke=1, fill=0)
    canvas.restoreState()


def _outline_only(canvas: Canvas, p: Placement) -> None:
    """Ink saver: a back is only its outline, a thin grey line on the trim."""
    canvas.saveState()
    canvas.setStrokeGray(0.6)
    canvas.setLineWidth(0.3)
    if p.piece.kind == "card":
        canvas.rect(p.x * mm, p.y * mm, p.w * mm, p.h * mm, stroke=1, fill=0)
    else:
        canvas.drawPath(_outline(canvas, p.piece.shape, p.x, p.y), stroke=1, fill=0)
    canvas.restoreState()


def _fold_line(pack: Pack, canvas: Canvas, y: float) -> None:
    """The dashed gutter-fold line across the sheet, labelled at both ends."""
    margin = sheet_geometry().margin
    canvas.saveState()
    canvas.setStrokeGray(0.3)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 3)
    canvas.line(margin * mm, y * mm, (pack.paper[0] - margin) * mm, y * mm)
    canvas.setFont(REGULAR, 6)
    canvas.setFillGray(0.3)
    canvas.drawString(margin * mm, y * mm + 2, text("fold_here"))
    canvas.drawRightString((pack.paper[0] - margin) * mm, y * mm + 2, text("fold_here"))
    canvas.restoreState()


def _glue_area(canvas: Canvas, box: tuple[float, float, float, float]) -> None:
    """Hatch the strip a neighbouring tile will cover, and label it for glue."""
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
    canvas.setFont(REGULAR, 7)
    canvas.setFillGray(0.3)
    cx, cy = (x + w / 2) * mm, (y + h / 2) * mm
    canvas.translate(cx, cy)
    if h > w:
        canvas.rotate(90)
    canvas.drawCentredString(0, -2.5, text("glue_here"))
    canvas.restoreState()


def _assembly_map(pack: Pack, sheet: Sheet, canvas: Canvas) -> None:
    """The board's outline scaled to the page, with every tile's place and label."""
    board = sheet.assembly
    assert board is not None
    left, bottom = 20.0, 40.0
    width, height = pack.paper[0] - 40, pack.paper[1] - 90
    scale = min(width / board.w, height / board.h)
    ox = left + (width - board.w * scale) / 2
    oy = bottom + (height - board.h * scale) / 2
    canvas.setFont(REGULAR, 16)
    canvas.setFillGray(0)
    canvas.drawString(
        left * mm, (pack.paper[1] - 25) * mm, text("assembly_title", board=board.title)
    )
    canvas.setFont(REGULAR, 9)
    canvas.drawString(left * mm, (pack.paper[1] - 33) * mm, text("assembly_help"))
    canvas.setLineWidth(1)
    canvas.rect(ox * mm, oy * mm, board.w * scale * mm, board.h * scale * mm)
    for label, bx, by, w, h in board.tiles:
        canvas.setStrokeGray(0.4)
        canvas.setLineWidth(0.5)
        canvas.setFillColorRGB(0.85, 0.9, 1, alpha=0.35)
        canvas.rect(
            (ox + bx * scale) * mm,
            (oy + by * scale) * mm,
            w * scale * mm,
            h * scale * mm,
            stroke=1,
            fill=1,
        )
        canvas.setFillAlpha(1)
        canvas.setFillGray(0)
        canvas.setFont(REGULAR, 14)
        canvas.drawCentredString(
            (ox + (bx + w / 2) * scale) * mm, (oy + (by + h / 2) * scale) * mm - 5, label
        )


def _page_label(pack: Pack, sheet: Sheet, page: int, canvas: Canvas) -> None:
    """A small line in the footer band naming the game, the sheet and its side."""
    # a sheet of fronts is followed by its backs exactly when one of its pieces has a back
    has_backs = sheet.side == "back" or any(p.piece.back for p in sheet.placements)
    key = f"page_label_{sheet.side}s" if has_backs else "page_label_single"
    if sheet.side == "fold":
        key = "page_label_fold"
    tile = next((p.tile for p in sheet.placements if p.tile and p.tile != "whole"), None)
    if tile:
        key = "page_label_tile"
    elif sheet.assembly:
        key = "page_label_map"
    label = text(
        key,
        game=pack.game.spec.title,
        component=sheet.title,
        sheet=sheet.number,
        sheets=sheet.of,
        page=page,
        tile=tile,
    )
    canvas.setFont(REGULAR, LABEL_SIZE_PT)
    canvas.setFillGray(0.35)
    baseline = sheet_geometry().margin + 1.2
    canvas.drawCentredString(pack.paper[0] / 2 * mm, baseline * mm, label)
