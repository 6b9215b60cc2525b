"""PNG previews of a print pack: pages rendered with pypdfium2, and one contact sheet image
of the whole pack so a designer sees every page at a glance."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from generator.output.atomic import replacing

CONTACT_COLUMNS = 6
CONTACT_WIDTH = 300  # px per page on the contact sheet


def page_count(pdf: Path) -> int:
    """How many pages a PDF has."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


def render_pages(
    pdf: Path,
    folder: Path,
    dpi: int,
    pages: list[int] | None = None,
    step: Callable[[str], None] | None = None,
) -> list[Path]:
    """``page-NN.png`` for the given pages (1-based; all by default) at ``dpi``; ``step``
    hears of each page written."""
    document = pdfium.PdfDocument(str(pdf))
    written = []
    try:
        for number in pages or range(1, len(document) + 1):
            if not 1 <= number <= len(document):
                raise ValueError(f"the pack has pages 1 to {len(document)}, not {number}")
            image = document[number - 1].render(scale=dpi / 72).to_pil()
            path = folder / f"page-{number:02d}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            with replacing(path) as tmp:
                image.save(tmp, format="PNG", dpi=(dpi, dpi))
            written.append(path)
            if step is not None:
                step(f"page {number}")
    finally:
        document.close()
    return written


def contact_sheet(pdf: Path, path: Path) -> Path:
    """One image with every page of the pack, in rows of six, each with a thin frame."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        thumbs = []
        for page in document:
            scale = CONTACT_WIDTH / page.get_width()
            thumbs.append(page.render(scale=scale).to_pil())
        dpi = CONTACT_WIDTH / (document[0].get_width() / 72)
    finally:
        document.close()
    cols = min(CONTACT_COLUMNS, len(thumbs))
    rows = math.ceil(len(thumbs) / cols)
    cell_w = max(t.width for t in thumbs) + 10
    cell_h = max(t.height for t in thumbs) + 10
    sheet = Image.new("RGB", (cols * cell_w + 10, rows * cell_h + 10), "#d8d8d8")
    for i, thumb in enumerate(thumbs):
        x, y = 10 + (i % cols) * cell_w, 10 + (i // cols) * cell_h
        sheet.paste(thumb, (x, y))
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp:
        sheet.save(tmp, format="PNG", dpi=(dpi, dpi))  # the first page's scale
    return path
