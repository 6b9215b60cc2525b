"""The PNG pictures the page shows, and where they are kept: each piece's side drawn as the
print-shop export draws it (``output.shop``: trim plus bleed, RGB), each sheet's page
rendered from the very PDF ``pnp build`` writes (``output.pdf``), both with pypdfium2.

A picture's key is a hash of everything it is drawn from (a piece: its art's key and the
files that art draws; a page: what lies on it), so an unchanged card is never drawn again
and the page reloads only the pictures whose key changed. ``Pictures`` keeps them in memory,
least recently used first out.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from generator.layout.pack import Pack
from generator.output.shop import ShopPage, draw_pdf, rendered

PIECE_DPI = 150  # 5.9 pixels a mm: sharp at the page's default size on a high-density screen
MAX_PIECE_PIXELS = 2400  # the long side of a piece's picture: a board is drawn coarser
SHEET_DPI = 110  # a sheet of A4 is 910 x 1286 pixels
PNG_LEVEL = 1  # zlib level: a picture goes over the loopback, speed beats size
CACHE_BYTES = 400_000_000  # pictures kept in memory
MM_PER_INCH = 25.4


def key_of(*parts: object) -> str:
    """A picture's key: the hash of what it is drawn from."""
    return hashlib.sha1(repr(parts).encode("utf-8", "surrogateescape")).hexdigest()


def piece_dpi(page: ShopPage) -> float:
    """The resolution a piece's side is drawn at: ``PIECE_DPI``, less for a large piece."""
    longest = max(page.w, page.h) + 2 * page.bleed
    return min(PIECE_DPI, MAX_PIECE_PIXELS * MM_PER_INCH / max(longest, 1.0))


def piece_pngs(pack: Pack, pages: list[ShopPage]) -> list[bytes]:
    """Each side drawn as the print-shop export draws it (in RGB), as PNG: one PDF for all
    sides of one resolution, rendered page by page."""
    out: list[bytes] = [b""] * len(pages)
    groups: dict[float, list[int]] = {}
    for index, page in enumerate(pages):
        groups.setdefault(piece_dpi(page), []).append(index)
    for dpi, indices in groups.items():
        pdf = io.BytesIO()
        draw_pdf(pack, [pages[i] for i in indices], pdf)
        for index, image in zip(indices, rendered(pdf.getvalue(), dpi), strict=True):
            out[index] = png(image)
    return out


def sheet_png(pdf: Path, number: int, dpi: float = SHEET_DPI) -> bytes:
    """Page ``number`` (1-based) of a pack's PDF, as PNG."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        image = document[number - 1].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()
    return png(image)


def png(image: Image.Image) -> bytes:
    """An image as PNG, compressed lightly."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


class Pictures:
    """PNG pictures by key, in memory, the least recently used dropped past ``limit`` bytes;
    safe to use from every thread."""

    def __init__(self, limit: int = CACHE_BYTES):
        self.limit = limit
        self.size = 0
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            data = self._kept.get(key)
            if data is not None:
                self._kept.move_to_end(key)
            return data

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._kept

    def put(self, key: str, data: bytes) -> None:
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = data
            self.size += len(data)
            while self.size > self.limit and len(self._kept) > 1:
                _, old = self._kept.popitem(last=False)
                self.size -= len(old)
