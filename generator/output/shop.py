"""Print-shop export: one PDF per component with one piece per page at trim size plus bleed,
TrimBox and BleedBox set, no marks, PDF/X-4 (its colours converted to the press profile's CMYK
by a colour-managed transform, the profile embedded as its output intent); and PNG images at
300 dpi with bleed for shops and virtual tabletops, in sRGB (tagged so).

Every component is exported: cards, tokens, boards (whole, not tiled), dice nets, standees,
reference sheets (a page of paper each) and roll-and-write pads (a sheet a page); but boxes,
which shops make on their own dielines (``shop.json`` lists what is left out, and why). Each
distinct design is one page (its face, then its back if it has one); ``shop.json`` lists every
file with the number of copies the game needs. The folder is written as a unit: a failed
export leaves the previous one as it was.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.art.store import Artwork, Drawing
from generator.layout.pack import Pack
from generator.layout.pieces import Piece
from generator.layout.sheets import Page
from generator.model.kinds import MODELS
from generator.output import pdfx, render
from generator.output.colour import Press
from generator.output.flatten import SHOP_RGB, Draw, Flat, flatten
from generator.output.staging import replacing_folder
from generator.svg import canvas as rl
from generator.svg.fonts import REGULAR, register_fonts
from generator.svg.pdf import RGB, Colours
from generator.svg.raster import draw_raster

DPI = 300
MM_PER_IN = 25.4
SHOP_KINDS = frozenset(model.noun for model in MODELS if model.shop)  # what shops get
PICTURES_AT_ONCE = 16  # pages drawn into one PDF before they are rendered, one at a time
Step = Callable[[str], None]  # hears of each piece of work done, with what it was


def quiet(what: str) -> None:
    """A step nobody listens to."""


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
    number: int = 0  # which page of its reference sheet (from 1)
    scale: float = 1.0  # the art scaled to a vendor's product (to its cut, or ``--fit``)
    cut: tuple[float, float] | None = None  # a vendor product's trim (mm) where it is not w x h


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
                number=n,
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
    """A sheet's icon drawn in the colours (and layer) of the page (the sheet's flow draws its
    icons as they are)."""

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


def draw_page(
    canvas: Canvas, pack: Pack, page: ShopPage, size: tuple[float, float], colours: Colours
) -> None:
    """A shop page's content on the canvas's page (of ``size`` mm, its boxes set), written as
    ``colours`` say: its art with its trim centred, a reference sheet's page, or nothing (a
    card without a back)."""
    if page.sheet is not None:
        _sheet_page(canvas, page, colours)
    elif page.art is not None:
        _art(canvas, pack.art.drawing(page.art), page, size, colours)


def start_page(
    canvas: Canvas, page: ShopPage, page_mm: tuple[float, float] | None
) -> tuple[float, float]:
    """Begin a page: its size (trim plus bleed, or ``page_mm``), BleedBox and TrimBox (the
    trim centred: a vendor product's, where the piece prints as one); the size in mm."""
    w, h = page_mm or (page.w + 2 * page.bleed, page.h + 2 * page.bleed)
    canvas.setPageSize((w * mm, h * mm))
    canvas.setBleedBox([0, 0, w * mm, h * mm])
    tw, th = page.cut or (page.w, page.h)
    x, y = (w - tw) / 2, (h - th) / 2
    canvas.setTrimBox([x * mm, y * mm, (x + tw) * mm, (y + th) * mm])
    return (w, h)


def describe(canvas: Canvas, pack: Pack) -> None:
    """The document's title, author, subject, keywords and tool."""
    game = pack.game.spec
    canvas.setCreator("pnp-generator")
    canvas.setTitle(game.title)
    canvas.setAuthor(game.designer or "")
    canvas.setSubject(f"{game.title}: print-shop files")
    canvas.setKeywords("print and play")


@rl.binary_streams()
def draw_pdf(
    pack: Pack,
    pages: list[ShopPage],
    target: str | io.BytesIO,
    colours: Colours = RGB,
    page_mm: tuple[float, float] | None = None,
) -> None:
    """Draw each page at its trim size plus bleed (or ``page_mm``, the art centred on it and
    mirrored past its bleed where the page is larger), TrimBox and BleedBox set, no marks, in
    sRGB as designed (``colours``: as a shop draws it, every line at least its thinnest)."""
    register_fonts()
    canvas = Canvas(target, invariant=1, initialFontName=REGULAR)
    describe(canvas, pack)
    for page in pages:
        size = start_page(canvas, page, page_mm)
        draw_page(canvas, pack, page, size, colours)
        canvas.showPage()
    canvas.save()


def _icons(original: Callable, colours: Colours) -> Callable:
    """A sheet's icons, drawn in ``colours`` unless they are as designed."""
    if colours.plain:
        return original
    return lambda name, where: _InColours(original(name, where), colours)


def _sheet_page(canvas: Canvas, page: ShopPage, colours: Colours) -> None:
    """A reference sheet's page, from a flow of its own (its icons drawn in the page's
    colours): in the art layer without reportlab's text, in the text layer that text alone."""
    assert page.sheet is not None and page.sheet.flow is not None  # a sheet's page has both
    source = page.sheet.flow
    original = source.icon
    flow = replace(source, icon=_icons(original, colours), _drawing=None)
    layered = {"art": rl.without_text, "text": rl.text_only}.get(colours.layer)
    with layered(canvas) if layered else contextlib.nullcontext():
        flow.draw_page_at(canvas, page.sheet.title, page.number)


def _art(
    canvas: Canvas, art: Artwork, page: ShopPage, size: tuple[float, float], colours: Colours
) -> None:
    """The art (scaled by ``page.scale``) with its trim centred on the page; where the page
    reaches past the art's bleed (a shop's bleed larger than the design's), the art mirrored
    at its edges fills the rest, as prepress tools extend a bleed."""
    w, h, k = size[0], size[1], page.scale
    aw, ah = (page.w + 2 * page.bleed) * k, (page.h + 2 * page.bleed) * k
    x0, y0 = (w - aw) / 2, (h - ah) / 2
    mirrored = x0 > 1e-6 or y0 > 1e-6
    for fx, (cx, cw) in _mirrors(x0, aw, w):
        for fy, (cy, ch) in _mirrors(y0, ah, h):
            canvas.saveState()
            if mirrored:
                clip = canvas.beginPath()
                clip.rect(cx * mm, cy * mm, cw * mm, ch * mm)
                canvas.clipPath(clip, stroke=0, fill=0)
            canvas.translate(
                (x0 + (2 * aw if fx > 0 else 0)) * mm, (y0 + (2 * ah if fy > 0 else 0)) * mm
            )
            canvas.scale(-k if fx else k, -k if fy else k)
            art.draw(canvas, colours)
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
    pack: Pack,
    pages: list[ShopPage],
    page_mm: tuple[float, float],
    size: tuple[int, int],
    colours: Colours = RGB,
) -> Iterator[Image.Image]:
    """Each page drawn in sRGB (as ``colours`` say) on a page of ``page_mm`` (see
    ``draw_pdf``), as an image of exactly ``size`` pixels, one after the other: a few pages
    are drawn at a time and each is rendered when it is wanted, so that a thousand cards are
    never all in memory."""
    for start in range(0, len(pages), PICTURES_AT_ONCE):
        pdf = io.BytesIO()
        draw_pdf(pack, pages[start : start + PICTURES_AT_ONCE], pdf, colours, page_mm)
        document = pdfium.PdfDocument(pdf.getvalue())
        try:
            for page in document:
                yield render.picture(page, size)
        finally:
            document.close()


@rl.binary_streams()
def print_pdf(
    pack: Pack,
    pages: list[ShopPage],
    target: str | io.BytesIO,
    press: Press,
    standard: pdfx.Standard = pdfx.X4,
    page_mm: tuple[float, float] | None = None,
    pngs: dict[int, Path] | None = None,
    step: Step = quiet,
) -> None:
    """The print file of ``pages`` (laid out as ``draw_pdf`` lays them out): each distinct
    page flattened once (``flatten``) at ``DPI`` and drawn as its art's CMYK image with its
    text on top in the press's colours, PDF/X of ``standard``. ``pngs``: the pages (by index)
    also written as sRGB PNGs. ``step`` hears of each page done."""
    register_fonts()
    canvas = Canvas(
        target, invariant=1, enforceColorSpace=press.enforce_text, initialFontName=REGULAR
    )
    rl.tag_subsets_by_glyphs(canvas)
    describe(canvas, pack)
    text = replace(SHOP_RGB, name="cmyk-text", convert=press.colour, layer="text")
    text = replace(text, text=press.text_colour)
    done: dict[tuple, Flat] = {}
    for index, page in enumerate(pages):
        size = start_page(canvas, page, page_mm)
        if page.art is not None or page.sheet is not None:
            key = (page.art, id(page.sheet), page.number, size, page.w, page.h, page.bleed)
            png = (pngs or {}).get(index)
            if key not in done or png is not None:
                points = (size[0] * mm, size[1] * mm)
                done[key] = flatten(_drawer(pack, page, size), points, press, DPI, png)
            _flat_page(canvas, pack, page, size, done[key], text)
        canvas.showPage()
        step(f"{page.component} {page.name} {page.side}")
    pdfx.finish(canvas, standard)
    canvas.save()


def _drawer(pack: Pack, page: ShopPage, size: tuple[float, float]) -> Draw:
    """What draws a shop page's content in given colours (for ``flatten``)."""

    def draw(canvas: Canvas, colours: Colours) -> None:
        draw_page(canvas, pack, page, size, colours)

    return draw


def _flat_page(
    canvas: Canvas, pack: Pack, page: ShopPage, size: tuple[float, float], flat: Flat, text: Colours
) -> None:
    """A flattened page: its art's image over the whole page, its text on top if it goes."""
    canvas.saveState()
    canvas.transform(size[0] * mm, 0, 0, size[1] * mm, 0, 0)
    draw_raster(canvas, flat.raster)
    canvas.restoreState()
    if flat.text:
        draw_page(canvas, pack, page, size, text)


def export(pack: Pack, folder: Path, step: Step = quiet) -> list[Path]:
    """Write the shop PDFs, PNGs and shop.json for a pack into ``folder`` (replacing it)."""
    with replacing_folder(folder) as tmp:
        written = _write(pack, tmp, step)
    return [folder / p.relative_to(tmp) for p in written]


def work(pack: Pack) -> int:
    """How many pages the shop export draws (what its ``step`` hears of)."""
    return sum(len(pages) for pages in shop_pages(pack).values())


def left_out(pack: Pack) -> list[dict[str, str]]:
    """The components of a kind shops do not get, each with why (as its model says)."""
    return [
        {"component": plan.component.id, "kind": spec.kind, "why": spec.shop_note}
        for plan in pack.components
        if not (spec := plan.component.spec).shop
    ]


def _write(pack: Pack, folder: Path, step: Step) -> list[Path]:
    written: list[Path] = []
    listing = []
    for component, pages in shop_pages(pack).items():
        pdf_path = folder / f"{component}.pdf"
        pngs = {
            index: folder / "png" / component / f"{page.name}-{page.side}.png"
            for index, page in enumerate(pages)
        }
        print_pdf(pack, pages, str(pdf_path), Press(), pdfx.X4, pngs=pngs, step=step)
        written.append(pdf_path)
        for index, page in enumerate(pages):
            png = pngs[index]
            written.append(png)
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
    document = {
        "game": pack.game.name,
        "pdfx": pdfx.VERSION,
        "files": listing,
        "left_out": left_out(pack),
    }
    listing_path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    written.append(listing_path)
    return written
