"""The print pack PDF: inventory page(s), then each component's sheets, drawn with reportlab.

Each distinct piece of art becomes one PDF form XObject, drawn by reference wherever it is
placed; its bounding box is the bleed box, so art never spills onto a neighbour.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.graphics import renderPDF
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from generator import inventory
from generator.fonts import REGULAR, register_fonts
from generator.impose import Placement, Sheet
from generator.sizes import sheet_geometry
from generator.strings import text

if TYPE_CHECKING:
    from generator.pipeline import ComponentPlan, Pack

MARK_WIDTH_PT = 0.3
LABEL_SIZE_PT = 6.5


class _FormXObject(pdfdoc.PDFFormXObject):
    """reportlab's form XObject leaves its graphics states (transparency) out of its resources,
    so viewers cannot find them; build the resources as reportlab does for a page."""

    def format(self, document):  # noqa: ANN001, ANN201 - reportlab's signature
        if not self.Resources:
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            if getattr(self, "ExtGState", None):
                resources.ExtGState = self.ExtGState
            resources.setColorSpace(getattr(self, "_colorsUsed", {}))
            self.Resources = resources
        return super().format(document)


pdfdoc.PDFFormXObject = _FormXObject


def write(pack: Pack, path: Path) -> None:
    """Draw the whole pack to ``path``."""
    register_fonts()
    game = pack.game.spec
    canvas = Canvas(str(path), pagesize=(pack.paper[0] * mm, pack.paper[1] * mm), invariant=1)
    canvas.setTitle(text("pdf_title", title=game.title))
    canvas.setAuthor(game.designer or "")
    canvas.setSubject(f"{game.title}, {game.players} players")
    canvas.setCreator("pnp-generator")
    inventory.draw(pack, canvas)
    forms: set[str] = set()
    for plan in pack.components:
        for offset, sheet in enumerate(plan.sheets):
            if offset == 0:
                key = f"component-{plan.component.id}"
                canvas.bookmarkPage(key)
                canvas.addOutlineEntry(plan.component.spec.title, key, level=0)
            _draw_sheet(pack, plan, sheet, plan.first_page + offset, canvas, forms)
            canvas.showPage()
    canvas.showOutline()
    canvas.save()


def _draw_sheet(
    pack: Pack, plan: ComponentPlan, sheet: Sheet, page: int, canvas: Canvas, forms: set[str]
) -> None:
    for placement in sheet.placements:
        key = placement.piece.face if placement.side == "front" else placement.piece.back
        assert key is not None
        _ensure_form(pack, key, canvas, forms)
        _place(canvas, f"art{key}", placement)
    canvas.setLineWidth(MARK_WIDTH_PT)
    canvas.setStrokeGray(0)
    for x1, y1, x2, y2 in sheet.marks:
        canvas.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
    if sheet.label:
        _page_label(pack, plan, sheet, page, canvas)


def _ensure_form(pack: Pack, key: str, canvas: Canvas, forms: set[str]) -> None:
    """Define the form XObject for art ``key`` the first time it is used."""
    if key in forms:
        return
    drawing = pack.art.drawing(key)
    canvas.beginForm(f"art{key}", 0, 0, drawing.width, drawing.height)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.endForm()
    forms.add(key)


def _place(canvas: Canvas, form: str, p: Placement) -> None:
    """Draw ``form`` so that its trim box lands on the placement's box, turned as placed."""
    b = p.piece.bleed
    canvas.saveState()
    if p.rotation == 90:
        canvas.translate((p.x + p.w + b) * mm, (p.y - b) * mm)
        canvas.rotate(90)
    elif p.rotation == -90:
        canvas.translate((p.x - b) * mm, (p.y + p.h + b) * mm)
        canvas.rotate(-90)
    else:
        canvas.translate((p.x - b) * mm, (p.y - b) * mm)
    canvas.doForm(form)
    canvas.restoreState()


def _page_label(pack: Pack, plan: ComponentPlan, sheet: Sheet, page: int, canvas: Canvas) -> None:
    """A small line in the footer band naming the game, component, sheet and side."""
    has_backs = plan.component.spec.back is not None
    key = "page_label_single" if not has_backs else f"page_label_{sheet.side}s"
    label = text(
        key,
        game=pack.game.spec.title,
        component=plan.component.spec.title,
        sheet=sheet.number,
        sheets=sheet.of,
        page=page,
    )
    canvas.setFont(REGULAR, LABEL_SIZE_PT)
    canvas.setFillGray(0.35)
    baseline = sheet_geometry().margin + 1.2
    canvas.drawCentredString(pack.paper[0] / 2 * mm, baseline * mm, label)
