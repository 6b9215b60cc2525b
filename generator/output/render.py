"""Pages rendered to pixels for the shop exports, a strip at a time: PDFium draws a page at an
exact size in pixels (its art's edges where the vendor's cut lines are, not a pixel off to
rounding), and a PNG is written as its strips come, so that a board a metre wide never needs
its whole picture in memory."""

from __future__ import annotations

import io
import math
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from generator.output.colour import srgb_profile

STRIP_PIXELS = 4_000_000  # pixels rendered at a time (12 MB of RGB)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_LEVEL = 6  # zlib level of the PNGs written
M_PER_IN = 0.0254


def size_px(w_pt: float, h_pt: float, dpi: float) -> tuple[int, int]:
    """A page's size in whole pixels at ``dpi`` or a little more (a part pixel is a whole
    one: the picture is never under ``dpi``, which shops' preflight checks)."""
    return max(1, math.ceil(w_pt / 72 * dpi - 1e-6)), max(1, math.ceil(h_pt / 72 * dpi - 1e-6))


def rows_per_strip(width: int) -> int:
    """How many rows of a picture ``width`` pixels wide are rendered at a time."""
    return max(1, STRIP_PIXELS // width)


def strips(
    page: pdfium.PdfPage, size: tuple[int, int], overlap: int = 0
) -> Iterator[tuple[int, Image.Image]]:
    """The page drawn onto ``size`` pixels (white beneath), in horizontal strips from the
    top: each strip's image with up to ``overlap`` rows of its neighbours above and below,
    and how many of those rows are above."""
    width, height = size
    rows = rows_per_strip(width)
    for y0 in range(0, height, rows):
        top, bottom = max(0, y0 - overlap), min(height, y0 + rows + overlap)
        bitmap = pdfium.PdfBitmap.new_native(
            width, bottom - top, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True
        )
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, bottom - top)
        flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER
        pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, -top, width, height, 0, flags)
        yield y0 - top, bitmap.to_pil().convert("RGB")


def picture(page: pdfium.PdfPage, size: tuple[int, int]) -> Image.Image:
    """The whole page as one image of ``size`` pixels (for pictures that are small)."""
    image = Image.new("RGB", size, "white")
    rows = 0
    for _, strip in strips(page, size):
        image.paste(strip, (0, rows))
        rows += strip.height
    return image


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def _filtered_rows(strip: Image.Image, above: Image.Image | None) -> bytes:
    """A strip's rows as a PNG holds them (each with the filter Pillow picks for it), the row
    ``above`` it taken into account: Pillow encodes the strip under that row, whose own
    filtered bytes are then dropped."""
    image = strip
    if above is not None:
        image = Image.new(strip.mode, (strip.width, strip.height + 1))
        image.paste(above, (0, 0))
        image.paste(strip, (0, 1))
    encoded = io.BytesIO()
    image.save(encoded, format="PNG", compress_level=1)
    data, pos, raw = encoded.getvalue(), 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        if kind == b"IDAT":
            raw.append(data[pos + 8 : pos + 8 + length])
        pos += 12 + length
    rows = zlib.decompress(b"".join(raw))
    return rows[1 + len(strip.mode) * strip.width :] if above is not None else rows


def write_png(
    path: Path, size: tuple[int, int], dpi: float, parts: Iterator[Image.Image], alpha: bool = False
) -> Path:
    """Write an sRGB PNG (its profile and resolution stated; with ``alpha``, transparency)
    of ``size`` pixels from its strips, top to bottom, compressing each as it comes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    width, height = size
    mode = "RGBA" if alpha else "RGB"
    per_metre = int(dpi / M_PER_IN + 0.5)
    compressor = zlib.compressobj(PNG_LEVEL)
    rows = 0
    with path.open("wb") as out:
        out.write(PNG_SIGNATURE)
        header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
        out.write(_chunk(b"IHDR", header))
        out.write(_chunk(b"iCCP", b"sRGB\0\0" + zlib.compress(srgb_profile())))
        out.write(_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))
        above: Image.Image | None = None
        for part in parts:
            strip = part.convert(mode)
            assert strip.width == width, "every strip is as wide as the picture"
            data = compressor.compress(_filtered_rows(strip, above))
            if data:
                out.write(_chunk(b"IDAT", data))
            above = strip.crop((0, strip.height - 1, width, strip.height))
            rows += strip.height
        assert rows == height, f"{rows} rows written of {height}"
        out.write(_chunk(b"IDAT", compressor.flush()))
        out.write(_chunk(b"IEND", b""))
    return path


def save_png(image: Image.Image, path: Path, dpi: float) -> Path:
    """Save an image as an sRGB PNG with its resolution, and its transparency if it has any
    (see ``write_png``)."""
    return write_png(path, image.size, dpi, iter([image]), alpha=image.mode in ("RGBA", "LA"))


def page_png(page: pdfium.PdfPage, size: tuple[int, int], path: Path, dpi: float) -> Path:
    """A page rendered at ``size`` pixels straight into a PNG, a strip at a time."""
    return write_png(path, size, dpi, (strip for _, strip in strips(page, size)))
