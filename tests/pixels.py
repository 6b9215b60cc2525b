"""Pictures compared pixel by pixel: our PDF rendered by pypdfium2 against a reference image,
with a tolerance that accepts anti-aliasing but catches wrong drawing.

The metric (``bad_share``): both images (RGB, 0-255) are blurred with a 5-tap binomial
kernel (sigma about one pixel), so that edges anti-aliased differently, and thin lines drawn
as one dark pixel by one renderer and two lighter ones by the other, come out alike. A pixel
is bad when its colour (the largest of the three channel differences) differs by more than
``TOLERANCE`` from every pixel of the other image within ``SHIFT`` pixels of it, in both
directions: an edge placed a pixel or two apart (PDF viewers sample gradients in 256 steps)
is forgiven, a shape missing, moved, misshapen or in the wrong colour is not. A picture
matches when at most ``WITHIN`` of its pixels are bad: at 300 x 300 pixels, a one-pixel frame
left out, or a 20 x 20 pixel square in the wrong colour, is already too much.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable

import numpy as np
import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

TOLERANCE = 40  # per pixel, 0-255, after blurring
SHIFT = 2  # pixels an edge may move
WITHIN = 0.005  # share of bad pixels a matching picture may have
KERNEL = np.array([1, 4, 6, 4, 1], np.float32) / 16


def blur(image: np.ndarray) -> np.ndarray:
    """The image blurred by the binomial kernel in both directions (edges repeated)."""
    out = image.astype(np.float32)
    for axis in (0, 1):
        pad = [(2, 2) if i == axis else (0, 0) for i in range(out.ndim)]
        padded = np.pad(out, pad, mode="edge")
        n = out.shape[axis]
        taps = [padded[i : i + n] if axis == 0 else padded[:, i : i + n] for i in range(5)]
        out = sum(k * tap for k, tap in zip(KERNEL, taps, strict=True))
    return out


def bad_share(ours: np.ndarray, reference: np.ndarray) -> float:
    """The share of pixels that differ beyond the tolerance (see the module's docstring)."""
    a, b = blur(ours), blur(reference)
    h, w, _ = b.shape
    ys, xs = np.nonzero(np.abs(a - b).max(axis=2) > TOLERANCE)
    if len(ys) == 0:
        return 0.0
    best_a = np.full(len(ys), np.inf, np.float32)
    best_b = np.full(len(ys), np.inf, np.float32)
    for dy in range(-SHIFT, SHIFT + 1):
        for dx in range(-SHIFT, SHIFT + 1):
            sy, sx = np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)
            best_a = np.minimum(best_a, np.abs(a[ys, xs] - b[sy, sx]).max(axis=1))
            best_b = np.minimum(best_b, np.abs(b[ys, xs] - a[sy, sx]).max(axis=1))
    return float((np.maximum(best_a, best_b) > TOLERANCE).sum() / (h * w))


def on_white(image: Image.Image) -> np.ndarray:
    """An image (any mode, with or without alpha) over white, as RGB 0-255."""
    rgba = image.convert("RGBA")
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return np.asarray(Image.alpha_composite(white, rgba).convert("RGB")).astype(np.int16)


Page = tuple[float, float, Callable[[Canvas], None]]  # width, height (points), draw


def pdf_of(pages: list[Page]) -> bytes:
    """Each (width, height, draw) on a page of its own."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    for width, height, draw in pages:
        canvas.setPageSize((width, height))
        draw(canvas)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def render(pdf: bytes, sizes: list[tuple[int, int]]) -> list[np.ndarray]:
    """Each page rendered by pypdfium2 at the pixel size given for it, as RGB 0-255."""
    document = pdfium.PdfDocument(pdf)
    try:
        out = []
        for page, (width, height) in zip(document, sizes, strict=True):
            scale = width / page.get_width()
            bitmap = page.render(scale=scale).to_pil().convert("RGB")
            if bitmap.size != (width, height):
                bitmap = bitmap.resize((width, height))
            out.append(np.asarray(bitmap).astype(np.int16))
        return out
    finally:
        document.close()


def card_area(
    page: np.ndarray, item: dict, box: tuple[float, float, float, float], dpi: float
) -> np.ndarray:
    """A box of the card (x, y, w, h in card mm, y down) cut out of a rendered page; the card
    may be turned on the page, so the cut is turned back."""
    px = dpi / 25.4
    height = page.shape[0] / px
    x, y, w, h = box
    if item["rotation"] == 0:
        left, top = item["x_mm"] + x, height - item["y_mm"] - item["h_mm"] + y
        cut = page[
            round(top * px) : round((top + h) * px), round(left * px) : round((left + w) * px)
        ]
        return cut
    assert item["rotation"] in (90, 270), item
    image = Image.fromarray(page.astype(np.uint8))
    left = item["x_mm"] * px
    top = (height - item["y_mm"] - item["h_mm"]) * px
    whole = image.crop(
        (round(left), round(top), round(left + item["w_mm"] * px), round(top + item["h_mm"] * px))
    )
    upright = whole.rotate(-item["rotation"], expand=True)
    cut = upright.crop((round(x * px), round(y * px), round((x + w) * px), round((y + h) * px)))
    return np.asarray(cut, np.int16)


def png_header_only(width: int, height: int) -> bytes:
    """A few bytes of PNG that say ``width`` x ``height`` pixels: a decompression bomb."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 1000))
    )
