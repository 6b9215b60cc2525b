"""Print-shop export: one PDF per component with one piece per page at trim size plus bleed,
TrimBox and BleedBox set, colours in CMYK, no marks; and PNG images at 300 dpi with bleed for
shops and virtual tabletops, in sRGB.

Each distinct design is one page (its face, then its back if it has one); ``shop.json`` lists
every file with the number of copies the game needs.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.art.fonts import REGULAR, register_fonts
from generator.layout.pack import Pack
from generator.layout.pieces import Piece
from generator.output import pdfsetup  # noqa: F401 - reportlab set up as packs need
from generator.output.atomic import replacing

DPI = 300
SHOP_KINDS = ("card", "token")


@dataclass(frozen=True)
class ShopPage:
    """One page of a shop PDF: a design's side and how many copies the game needs."""

    component: str
    name: str
    side: str
    art: str
    piece: Piece
    copies: int


def shop_pages(pack: Pack) -> dict[str, list[ShopPage]]:
    """Per component, the distinct designs' sides in order (face, then back)."""
    first: dict[tuple[str, str], Piece] = {}
    copies: Counter[tuple[str, str]] = Counter()
    for _, sheet in pack.numbered_pages():
        for p in sheet.placements:
            if p.side == "front" and p.piece.kind in SHOP_KINDS:
                key = (p.piece.component, p.piece.name)
                copies[key] += 1
                first.setdefault(key, p.piece)
    out: dict[str, list[ShopPage]] = {}
    for (component, name), piece in first.items():
        pages = out.setdefault(component, [])
        n = copies[(component, name)]
        pages.append(ShopPage(component, name, "face", piece.face, piece, n))
        if piece.back:
            pages.append(ShopPage(component, name, "back", piece.back, piece, n))
    return out


def _page_pdf(pack: Pack, pages: list[ShopPage], target, space: str | None) -> None:
    """Draw each page at bleed-box size, trim and bleed boxes set, no marks; ``space``
    'cmyk' converts every colour and lets reportlab refuse any that slipped through."""
    register_fonts()
    canvas = Canvas(target, invariant=1, enforceColorSpace=space, initialFontName=REGULAR)
    canvas.setCreator("pnp-generator")
    canvas.setTitle(pack.game.spec.title)
    for page in pages:
        piece = page.piece
        b = piece.bleed
        w, h = (piece.w + 2 * b) * mm, (piece.h + 2 * b) * mm
        canvas.setPageSize((w, h))
        canvas.setBleedBox([0, 0, w, h])
        canvas.setTrimBox([b * mm, b * mm, w - b * mm, h - b * mm])
        pack.art.drawing(page.art).draw(canvas, cmyk=space == "cmyk")
        canvas.showPage()
    canvas.save()


def export(pack: Pack, folder: Path) -> list[Path]:
    """Write the shop PDFs, PNGs and shop.json for a pack into ``folder``."""
    written: list[Path] = []
    listing = []
    for component, pages in shop_pages(pack).items():
        pdf_path = folder / f"{component}.pdf"
        with replacing(pdf_path) as tmp:
            _page_pdf(pack, pages, str(tmp), "cmyk")
        written.append(pdf_path)
        rgb = io.BytesIO()
        _page_pdf(pack, pages, rgb, None)
        document = pdfium.PdfDocument(rgb.getvalue())
        for index, page in enumerate(pages):
            png = folder / "png" / component / f"{page.name}-{page.side}.png"
            png.parent.mkdir(parents=True, exist_ok=True)
            image = document[index].render(scale=DPI / 72).to_pil()
            with replacing(png) as tmp:
                image.save(tmp, format="PNG", dpi=(DPI, DPI))
            written.append(png)
            listing.append(
                {
                    "component": component,
                    "name": page.name,
                    "side": page.side,
                    "copies": page.copies,
                    "page": index + 1,
                    "pdf": pdf_path.name,
                    "png": png.relative_to(folder).as_posix(),
                    "trim_mm": [page.piece.w, page.piece.h],
                    "bleed_mm": page.piece.bleed,
                }
            )
        document.close()
    listing_path = folder / "shop.json"
    with replacing(listing_path) as tmp:
        tmp.write_text(json.dumps({"game": pack.game.name, "files": listing}, indent=1) + "\n")
    written.append(listing_path)
    return written
