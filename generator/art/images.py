"""Raster images in the PDF, embedded once each and, where the file allows, without being
decoded and compressed again.

An 8-bit, non-interlaced RGB or greyscale PNG already holds its pixels as a zlib stream with
PNG's row filters, which PDF reads directly (FlateDecode with the PNG predictor): such a file
is copied into the PDF as it is. Any other image (alpha, palette, 16-bit, interlaced, JPEG)
goes through reportlab's own image handling.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class PngData:
    """What a PDF image needs from a PNG: size, colour channels and the compressed rows."""

    width: int
    height: int
    colours: int
    data: bytes


def read_png(path: Path) -> PngData | None:
    """The PNG's compressed pixel data if PDF can take it unchanged, else None."""
    raw = path.read_bytes()
    if not raw.startswith(PNG_SIGNATURE):
        return None
    pos, header, chunks = 8, None, []
    while pos + 8 <= len(raw):
        length, kind = struct.unpack(">I4s", raw[pos : pos + 8])
        body = raw[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None or not chunks:
        return None
    width, height, depth, colour_type, _, _, interlace = header
    colours = {0: 1, 2: 3}.get(colour_type)
    if depth != 8 or colours is None or interlace != 0:
        return None
    data = b"".join(chunks)
    try:
        zlib.decompressobj().decompress(data, 16)  # a broken stream falls back to reportlab
    except zlib.error:
        return None
    return PngData(width, height, colours, data)


class _PngXObject(pdfdoc.PDFImageXObject):
    """An image XObject whose stream is a PNG's own compressed rows."""

    def __init__(self, name: str, png: PngData):  # reportlab's init would read the file
        self.name = name
        self.png = png
        self.width, self.height = png.width, png.height
        self.mask = None

    def format(self, document):  # noqa: ANN001, ANN201 - reportlab's signature
        png = self.png
        stream = pdfdoc.PDFStream(content=png.data)
        d = stream.dictionary
        d["Type"] = pdfdoc.PDFName("XObject")
        d["Subtype"] = pdfdoc.PDFName("Image")
        d["Width"] = png.width
        d["Height"] = png.height
        d["BitsPerComponent"] = 8
        d["ColorSpace"] = pdfdoc.PDFName("DeviceRGB" if png.colours == 3 else "DeviceGray")
        d["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])
        d["DecodeParms"] = pdfdoc.PDFDictionary(
            {"Predictor": 15, "Colors": png.colours, "BitsPerComponent": 8, "Columns": png.width}
        )
        d["Length"] = len(png.data)
        return stream.format(document)


def draw_image(canvas: Canvas, path: Path) -> None:
    """Draw the image file into the unit square of the current transformation, embedding it
    once per document whatever the number of times it is drawn."""
    png = read_png(path)
    if png is None:
        canvas.drawImage(str(path), 0, 0, 1, 1, mask="auto")
        return
    name = "png" + hashlib.sha1(png.data).hexdigest()[:16]
    document = canvas._doc
    reg_name = document.getXObjectName(name)
    if document.idToObject.get(reg_name) is None:
        image = _PngXObject(name, png)
        document.Reference(image, reg_name)
        document.addForm(name, image)
    canvas._code.append(f"/{reg_name} Do")
    canvas._formsinuse.append(name)
    canvas._currentPageHasImages = 1
