"""Print-shop export: one PDF per component with one piece per page at trim size plus bleed,
TrimBox and BleedBox set, no marks, PDF/X-4 (its colours converted to the press profile's CMYK
by a colour-managed transform, the profile embedded as its output intent); and PNG images at
300 dpi with bleed for shops and virtual tabletops, in sRGB (tagged so).

Every component is exported: cards, tokens, boards (whole, not tiled), dice nets, standees,
and reference sheets (a page of paper each). Each distinct design is one page (its face, then
its back if it has one); ``shop.json`` lists every file with the number of copies the game
needs. The folder is written as a unit: a failed export leaves the previous one as it was.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.art.store import Artwork, Drawing
from generator.layout.pack import Pack
from generator.layout.pieces import Piece
from generator.layout.sheetflow import FlowLayout
from generator.layout.sheets import Page
from generator.model.kinds import MODELS
from generator.output import pdfx
from generator.output.colour import Press, srgb_profile
from generator.output.staging import replacing_folder
from generator.svg import canvas as rl
from generator.svg.fonts import REGULAR, register_fonts
from generator.svg.pdf import RGB, Colours

DPI = 300
MM_PER_IN = 25.4
SHOP_KINDS = frozenset(model.noun for model in MODELS if model.shop)  # what shops get


@dataclass(frozen=True)
class ShopPage:
    """One page of a shop PDF: a design's side (or a reference sheet's page), its trim size
    and bleed in mm, and how many copies the game needs."""

    component: str
    noun: str  # what the piece is called: card, token, ...
    name: str
    side: str  # "face", "back", or "page-N" of a reference sheet
    piece: Piece
    copies: int
    w: float
    h: float
    bleed: float
    art: str | None = None  # the art drawn (None: a sheet's page, or a blank page)
    sheet: Page | None = None  # the pack's page a reference sheet's page is drawn from


def shop_pages(pack: Pack, kinds: frozenset[str] = SHOP_KINDS) -> dict[str, list[ShopPage]]:
    """Per component, in the order of the specs, its distinct designs' sides (face, then back;
    a reference sheet's pages) and the copies the game prints of each."""
    first: dict[tuple[str, str], Piece] = {}
    copies: dict[tuple[str, str], set[int]] = {}
    sheets: dict[tuple[str, str], dict[int, Page]] = {}
    for _, page in pack.numbered_pages():
        for p in page.placements:
            if p.side != "front" or p.piece.noun not in kinds:
                continue
            key = (p.piece.component, p.piece.name)
            first.setdefault(key, p.piece)
            copies.setdefault(key, set()).add(p.piece.copy)
            if p.piece.flowed and p.piece.copy == first[key].copy:
                sheets.setdefault(key, {})[id(page)] = page
    out: dict[str, list[ShopPage]] = {}
    for plan in pack.components:
        for design in plan.designs:
            key = (plan.component.id, design.name)
            if key in first:
                piece, n = first[key], len(copies[key])
                pages = out.setdefault(key[0], [])
                pages += _sides(pack, piece, n, list(sheets.get(key, {}).values()))
    return out


def _sides(pack: Pack, piece: Piece, copies: int, sheet_pages: list[Page]) -> list[ShopPage]:
    """The shop pages of one design: a sheet's pages at paper size, else face and back."""
    if piece.flowed:
        w, h = pack.paper
        return [
            ShopPage(
                component=piece.component,
                noun=piece.noun,
                name=piece.name,
                side=f"page-{n}",
                piece=piece,
                copies=copies,
                w=w,
                h=h,
                bleed=0.0,
                sheet=page,
            )  # fmt: skip
            for n, page in enumerate(sheet_pages, start=1)
        ]
    return [
        ShopPage(
            component=piece.component,
            noun=piece.noun,
            name=piece.name,
            side=side,
            piece=piece,
            copies=copies,
            w=piece.w,
            h=piece.h,
            bleed=piece.bleed,
            art=art,
        )  # fmt: skip
        for side, art in (("face", piece.face), ("back", piece.back))
        if art
    ]


@dataclass(frozen=True)
class _InColours:
    """A sheet's icon drawn in the press's colours (the sheet's flow draws its icons as they
    are)."""

    art: Drawing
    colours: Colours

    @property
    def width(self) -> float:
        return self.art.width

    @property
    def height(self) -> float:
        return self.art.height

    def draw(self, canvas: Canvas, colours: Colours = RGB) -> None:
        self.art.draw(canvas, self.colours)


@rl.binary_streams()
def draw_pdf(
    pack: Pack,
    pages: list[ShopPage],
    target: str | io.BytesIO,
    press: Press | None,
    page_mm: tuple[float, float] | None = None,
) -> None:
    """Draw each page at its trim size plus bleed (or ``page_mm``, the art centred on it and
    mirrored past its bleed where the page is larger), TrimBox and BleedBox set, no marks;
    for a ``press``, PDF/X-4 with every colour in its CMYK (else sRGB as designed)."""
    register_fonts()
    canvas = Canvas(
        target,
        invariant=1,
        enforceColorSpace=press.enforce if press else None,
        initialFontName=REGULAR,
    )
    game = pack.game.spec
    canvas.setCreator("pnp-generator")
    canvas.setTitle(game.title)
    canvas.setAuthor(game.designer or "")
    canvas.setSubject(f"{game.title}: print-shop files")
    canvas.setKeywords("print and play")
    flows: dict[int, FlowLayout] = {}
    colours = press.colours if press else RGB
    for page in pages:
        w, h = page_mm or (page.w + 2 * page.bleed, page.h + 2 * page.bleed)
        canvas.setPageSize((w * mm, h * mm))
        canvas.setBleedBox([0, 0, w * mm, h * mm])
        x, y = (w - page.w) / 2, (h - page.h) / 2
        canvas.setTrimBox([x * mm, y * mm, (x + page.w) * mm, (y + page.h) * mm])
        if page.sheet is not None:
            _sheet_page(canvas, page.sheet, flows, colours)
        elif page.art is not None:  # else a blank page (a card without a back)
            _art(canvas, pack.art.drawing(page.art), page, (w, h), colours)
        canvas.showPage()
    if press is not None:
        pdfx.finish(canvas, press)
    canvas.save()


def _sheet_page(
    canvas: Canvas, sheet: Page, flows: dict[int, FlowLayout], colours: Colours
) -> None:
    """The next page of a reference sheet, from a flow of this document's own (drawing its
    icons in the document's colours)."""
    source = sheet.flow
    assert source is not None  # a reference sheet's page has the flow that drew it
    flow = flows.get(id(source))
    if flow is None:
        original = source.icon
        rgb = colours is RGB
        icon = original if rgb else (lambda name, where: _InColours(original(name, where), colours))
        flow = flows[id(source)] = replace(source, icon=icon, _drawing=None)
    flow.draw_page(canvas, sheet.title)


def _art(
    canvas: Canvas, art: Artwork, page: ShopPage, size: tuple[float, float], colours: Colours
) -> None:
    """The art with its trim centred on the page; where the page reaches past the art's
    bleed (a shop's bleed larger than the design's), the art mirrored at its edges fills the
    rest, as prepress tools extend a bleed."""
    w, h = size
    x0, y0 = (w - page.w) / 2 - page.bleed, (h - page.h) / 2 - page.bleed
    aw, ah = page.w + 2 * page.bleed, page.h + 2 * page.bleed
    if x0 <= 1e-6 and y0 <= 1e-6:
        canvas.saveState()
        canvas.translate(x0 * mm, y0 * mm)
        art.draw(canvas, colours)
        canvas.restoreState()
        return
    name = f"shopart{rl.objects(canvas)}"
    canvas.beginForm(name, 0, 0, art.width, art.height)
    art.draw(canvas, colours)
    rl.end_form(canvas, name)
    for fx, (cx, cw) in _mirrors(x0, aw, w):
        for fy, (cy, ch) in _mirrors(y0, ah, h):
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(cx * mm, cy * mm, cw * mm, ch * mm)
            canvas.clipPath(clip, stroke=0, fill=0)
            canvas.translate(
                (x0 + (2 * aw if fx > 0 else 0)) * mm, (y0 + (2 * ah if fy > 0 else 0)) * mm
            )
            canvas.scale(-1 if fx else 1, -1 if fy else 1)
            canvas.doForm(name)
            canvas.restoreState()


def _mirrors(start: float, size: float, page: float) -> list[tuple[int, tuple[float, float]]]:
    """Along one axis, the art (0) and its mirror images before (-1) and after (1) it, each
    with the stretch of the page (start, length) it fills."""
    spans = {-1: (0.0, start), 0: (start, size), 1: (start + size, page - start - size)}
    return [(k, span) for k, span in spans.items() if span[1] > 1e-6]


def rendered(pdf: bytes, dpi: float) -> Iterator[Image.Image]:
    """Every page of a PDF as an RGB image at ``dpi``."""
    document = pdfium.PdfDocument(pdf)
    try:
        for page in document:
            yield page.render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def pictures(
    pack: Pack, pages: list[ShopPage], page_mm: tuple[float, float], size: tuple[int, int]
) -> list[Image.Image]:
    """Each page drawn in RGB on a page of ``page_mm`` (see ``draw_pdf``), as an image of
    exactly ``size`` pixels (a pixel lost or gained to rounding made up by resampling)."""
    pdf = io.BytesIO()
    draw_pdf(pack, pages, pdf, None, page_mm=page_mm)
    dpi = size[0] / (page_mm[0] / MM_PER_IN)
    return [
        image if image.size == size else image.resize(size, Image.Resampling.LANCZOS)
        for image in rendered(pdf.getvalue(), dpi)
    ]


def save_png(image: Image.Image, path: Path, dpi: float) -> Path:
    """Save an image as a PNG tagged sRGB (its ICC profile embedded) with its resolution."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="PNG", dpi=(dpi, dpi), icc_profile=srgb_profile())
    return path


def export(pack: Pack, folder: Path) -> list[Path]:
    """Write the shop PDFs, PNGs and shop.json for a pack into ``folder`` (replacing it)."""
    with replacing_folder(folder) as tmp:
        written = _write(pack, tmp)
    return [folder / p.relative_to(tmp) for p in written]


def _write(pack: Pack, folder: Path) -> list[Path]:
    written: list[Path] = []
    listing = []
    for component, pages in shop_pages(pack).items():
        pdf_path = folder / f"{component}.pdf"
        draw_pdf(pack, pages, str(pdf_path), Press())
        written.append(pdf_path)
        rgb = io.BytesIO()
        draw_pdf(pack, pages, rgb, None)
        for index, (page, image) in enumerate(
            zip(pages, rendered(rgb.getvalue(), DPI), strict=True)
        ):
            png = folder / "png" / component / f"{page.name}-{page.side}.png"
            written.append(save_png(image, png, DPI))
            listing.append(
                {
                    "component": component,
                    "kind": page.noun,
                    "name": page.name,
                    "side": page.side,
                    "copies": page.copies,
                    "page": index + 1,
                    "pdf": pdf_path.name,
                    "png": png.relative_to(folder).as_posix(),
                    "trim_mm": [page.w, page.h],
                    "bleed_mm": page.bleed,
                }
            )
    listing_path = folder / "shop.json"
    document = {"game": pack.game.name, "pdfx": pdfx.VERSION, "files": listing}
    listing_path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    written.append(listing_path)
    return written
