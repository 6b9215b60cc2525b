"""A shop page flattened: its transparency composited in sRGB, as the art is designed and as
the home pack prints it, before any colour is converted to the press's CMYK; the text kept as
text on top.

A page is drawn three times in sRGB into a scratch PDF, each stroke at least ``MIN_LINE_PT``
wide: whole (A), without its text painted opaque outside any group (B), and B with that text
drawn again on top (C). PDFium renders B, a strip at a time, and ``Press.raster`` converts
the pixels (black the printers' way, within the ink limit): the page's art as one CMYK image.
The text goes on top of it as text, in the press's colours, when C looks as A does (nothing
drawn later covers it); where it does not, the page's text stays in the picture, rendered
from A. Nothing of the page is then transparent: the same content is PDF/X-4 and, with the
keys of its version, PDF/X-1a, which has no transparency at all.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
from PIL import ImageChops
from reportlab.pdfgen.canvas import Canvas

from generator.output import render
from generator.output.colour import LARGE_DARK_MM, MIN_LINE_PT, MM_PER_IN, Press
from generator.svg import canvas as rl
from generator.svg.fonts import REGULAR, register_fonts
from generator.svg.pdf import RGB, Colours
from generator.svg.raster import Raster

CHECK_DPI = 100  # the text is compared on top and in place at this resolution
TEXT_TOLERANCE = 8  # of 255 per channel: what anti-aliasing may change, not a covered glyph
# pixels that may differ by more (a table's rule drawn over a glyph's anti-aliased rim): a
# share of the page, and at least a few; a glyph covered by a shape changes far more
TEXT_STRAYS, TEXT_STRAYS_AT_LEAST = 0.0001, 8
FLATE_LEVEL = 6
# the art as the shop file draws it, in sRGB: every line at least MIN_LINE_PT wide
SHOP_RGB = replace(RGB, name="rgb-shop", min_line=MIN_LINE_PT)
# draws a page's content on a canvas (a page begun, its size set), written as ``Colours`` say
Draw = Callable[[Canvas, Colours], None]


@dataclass(frozen=True)
class Flat:
    """A flattened page: its art as a CMYK image, and whether its text goes on top as text."""

    raster: Raster
    text: bool


def scratch(draw: Draw, size: tuple[float, float], pages: list[list[Colours]]) -> bytes:
    """A PDF of pages of ``size`` points: each the page drawn in the layers given, in order."""
    register_fonts()
    out = io.BytesIO()
    with rl.binary_streams():
        canvas = Canvas(out, pagesize=size, invariant=1, initialFontName=REGULAR)
        for layers in pages:
            for colours in layers:
                draw(canvas, colours)
            canvas.showPage()
        canvas.save()
    return out.getvalue()


def _same(a: pdfium.PdfPage, b: pdfium.PdfPage, size: tuple[float, float]) -> bool:
    """Whether two pages look alike at ``CHECK_DPI``: no more than ``TEXT_STRAYS`` of the
    pixels (or ``TEXT_STRAYS_AT_LEAST``) differ by more than ``TEXT_TOLERANCE``."""
    px = render.size_px(*size, CHECK_DPI)
    r, g, b = ImageChops.difference(render.picture(a, px), render.picture(b, px)).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)
    strays = worst.point(lambda v: 255 if v > TEXT_TOLERANCE else 0).histogram()[255]
    return strays <= max(TEXT_STRAYS_AT_LEAST, TEXT_STRAYS * px[0] * px[1])


def cmyk_raster(page: pdfium.PdfPage, size: tuple[int, int], press: Press, dpi: float) -> Raster:
    """A page rendered in sRGB and converted to the press's CMYK, a strip at a time (each
    with enough of its neighbours for ``Press.raster`` to tell a large dark area from a
    thin one), compressed as it comes."""
    overlap = round(LARGE_DARK_MM / MM_PER_IN * dpi) + 2
    compressor = zlib.compressobj(FLATE_LEVEL)
    parts: list[bytes] = []
    for above, strip in render.strips(page, size, overlap):
        converted = press.raster(strip, dpi)
        rows = min(strip.height - above, render.rows_per_strip(size[0]))
        body = converted.crop((0, above, size[0], above + rows))
        parts.append(compressor.compress(body.tobytes()))
    parts.append(compressor.flush())
    return Raster(size[0], size[1], "DeviceCMYK", "FlateDecode", b"".join(parts))


def flatten(
    draw: Draw, size: tuple[float, float], press: Press, dpi: float, png: Path | None = None
) -> Flat:
    """The page ``draw`` draws on ``size`` points, flattened for ``press`` at ``dpi`` (see
    the module); ``png``: also write the page as drawn, in sRGB, to this PNG."""
    art, text = replace(SHOP_RGB, layer="art"), replace(SHOP_RGB, layer="text")
    document = pdfium.PdfDocument(scratch(draw, size, [[SHOP_RGB], [art], [art, text]]))
    try:
        whole, bare, on_top = document[0], document[1], document[2]
        px = render.size_px(*size, dpi)
        keep = _same(whole, on_top, size)
        raster = cmyk_raster(bare if keep else whole, px, press, dpi)
        if png is not None:
            render.page_png(whole, px, png, dpi)
    finally:
        document.close()
    return Flat(raster, keep)
