"""Raster images in the PDF: every kind a designer exports, with its true colours and
transparency, embedded once each and, where the file allows, without being decoded again.

- An 8-bit, non-interlaced RGB or greyscale PNG without transparency holds its pixels as a
  zlib stream with PNG's row filters, which PDF reads as it is (FlateDecode with the PNG
  predictor in the filter's decode parameters): the file's own data goes into the PDF.
- A JPEG (RGB, grey or CMYK) goes in as it is too (DCTDecode); a CMYK JPEG written by Adobe
  software stores its inks inverted, which the PDF's Decode array undoes.
- Anything else (alpha, palettes and their transparency, 16-bit, interlaced, WebP, GIF, TIFF)
  is decoded once and stored as 8-bit colour, its alpha as a soft mask.

A picture is kept at no more pixels than its print needs (``fit``: ``PRINT_DPI`` at the size it
is drawn), downsampled once as it is loaded: a JPEG decoded at a fraction of its size by its
own decoder (``Image.draft``, memory bounded), then reduced; the EXIF orientation a phone
writes is honoured (``ImageOps.exif_transpose``), so a photo prints upright.

Every decoding of the user's file goes through ``imageguard`` (the one door to Pillow: the
kinds, the pixels, the frames and EXIF bounded, whatever Pillow raises said as
``ImageProblem``); what Pillow warns of while it reads is said in our words (``Raster.notes``),
never printed by Python.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import math
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from generator.paths import PathRefused, read_bytes
from generator.svg import canvas as rl
from generator.svg.imageguard import (
    FORMATS,
    MAX_DECODED_PIXELS,
    MAX_PIXELS,
    ImageProblem,
    TooManyPixels,
    decode_upright,
    guarded,
    header,
    image_size,
    open_image,
    pillow_said,
)

__all__ = [  # what other modules take from here: the guard's names among them
    "FORMATS",
    "MAX_DECODED_PIXELS",
    "MAX_PIXELS",
    "ImageProblem",
    "PictureFile",
    "Raster",
    "TooManyPixels",
    "draw_image",
    "draw_raster",
    "fit_for",
    "image_size",
    "load",
    "open_image",
]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PRINT_DPI = 600  # pixels per inch a picture keeps at the size it prints (more is not seen)
JPEG_QUALITY = 92  # a downsampled JPEG photo is stored as a JPEG again, at this quality


@dataclass(frozen=True)
class PictureFile:
    """A picture file inside its folder, read through the gate each time it is wanted (when
    the art is compiled and when the PDF is written), never by its path alone."""

    root: Path
    path: Path

    def read(self) -> bytes:
        """The file's bytes; ``ImageProblem`` when the gate refuses it."""
        try:
            return read_bytes(self.root, self.path, "image")
        except PathRefused as exc:
            raise ImageProblem(str(exc)) from None


@dataclass(frozen=True)
class Raster:
    """An image as the PDF takes it: size, colour space, the stream (with its filter, decode
    parameters and Decode array) and, for transparency, an 8-bit alpha stream (zlib)."""

    width: int
    height: int
    colour_space: str
    filter: str
    data: bytes
    parms: tuple[tuple[str, int], ...] = ()
    decode: tuple[int, ...] = ()
    alpha: bytes | None = None
    notes: tuple[str, ...] = ()  # what Pillow warned of while reading it, in our words

    @property
    def key(self) -> str:
        """A name for the image in the PDF, the same for the same pixels."""
        digest = hashlib.sha1(self.data)
        if self.alpha:
            digest.update(self.alpha)
        return "img" + digest.hexdigest()[:16]


Fit = tuple[int, int] | None  # the most pixels a picture needs, wide and high (None: all)


def fit_for(width_pt: float, height_pt: float) -> tuple[int, int]:
    """The pixels a picture printed ``width_pt`` x ``height_pt`` points needs, at
    ``PRINT_DPI``."""
    return (
        max(1, math.ceil(abs(width_pt) / 72 * PRINT_DPI)),
        max(1, math.ceil(abs(height_pt) / 72 * PRINT_DPI)),
    )


def _target(width: int, height: int, fit: Fit) -> tuple[int, int] | None:
    """The size to downsample a ``width`` x ``height`` picture to for ``fit``, or None when
    it has no more pixels than the print needs (its aspect kept)."""
    if fit is None:
        return None
    scale = max(fit[0] / width, fit[1] / height)
    if scale >= 1:
        return None
    return max(1, math.ceil(width * scale)), max(1, math.ceil(height * scale))


@lru_cache(maxsize=64)
def load(raw: bytes, fit: Fit = None) -> Raster:
    """The image in ``raw`` as the PDF will hold it, at no more pixels than ``fit`` (its
    aspect kept; ``ImageProblem`` if it cannot be used, whatever Pillow raised)."""
    width, height = image_size(raw)
    target = _target(width, height, fit)
    with guarded():
        if target is None:
            as_is = _png_as_is(raw) or _jpeg_as_is(raw)
            if as_is is not None:
                return as_is
        return _decoded(raw, target)


def _png_as_is(raw: bytes) -> Raster | None:
    """An 8-bit RGB or grey PNG, not interlaced, without transparency: its own rows."""
    if not raw.startswith(PNG_SIGNATURE):
        return None
    pos, header, chunks = 8, None, []
    while pos + 8 <= len(raw):
        length, kind = struct.unpack(">I4s", raw[pos : pos + 8])
        body = raw[pos + 8 : pos + 8 + length]
        stored = raw[pos + 8 + length : pos + 12 + length]
        if len(stored) < 4 or zlib.crc32(kind + body) != int.from_bytes(stored, "big"):
            return None  # damaged or cut short: Pillow decodes it, and says so
        if kind == b"IHDR" and length == 13:
            header = struct.unpack(">IIBBBBB", body)
        elif kind in (b"tRNS", b"eXIf"):
            return None  # transparency by colour key, an orientation: decoded
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
        zlib.decompressobj().decompress(data, 16)  # a broken stream is decoded by Pillow
    except zlib.error:
        return None
    parms = (("Predictor", 15), ("Colors", colours), ("BitsPerComponent", 8), ("Columns", width))
    space = "DeviceRGB" if colours == 3 else "DeviceGray"
    return Raster(width, height, space, "FlateDecode", data, parms)


def _jpeg_as_is(raw: bytes) -> Raster | None:
    """A JPEG in RGB, grey or CMYK, stored upright: its own compressed data."""
    if not raw.startswith(b"\xff\xd8"):
        return None
    found = header(raw)
    space = {"RGB": "DeviceRGB", "L": "DeviceGray", "CMYK": "DeviceCMYK"}.get(found.mode)
    if found.format != "JPEG" or space is None or found.orientation != 1:
        return None
    inverted = found.mode == "CMYK" and found.adobe
    width, height = found.size
    decode = (1, 0, 1, 0, 1, 0, 1, 0) if inverted else ()
    return Raster(width, height, space, "DCTDecode", raw, decode=decode, notes=found.notes)


def _decoded(raw: bytes, target: tuple[int, int] | None) -> Raster:
    """Any other image, decoded (upright, downsampled to ``target``): 8-bit colour (grey,
    RGB or CMYK) and its alpha, if any part of it is transparent, as a separate channel."""
    with pillow_said() as said:
        image, jpeg = decode_upright(raw, target)
        image = _eight_bit(image)
        if target is not None and image.size != target:
            image = image.resize(target, Image.Resampling.LANCZOS, reducing_gap=3.0)
    alpha = None
    if image.mode in ("RGBA", "LA"):
        channel = image.getchannel("A")
        if channel.getextrema() != (255, 255):
            alpha = zlib.compress(channel.tobytes(), 6)
        image = image.convert("RGB" if image.mode == "RGBA" else "L")
    notes = tuple(said)
    if jpeg and target is not None and alpha is None and image.mode in ("RGB", "L"):
        encoded = io.BytesIO()
        image.save(encoded, "JPEG", quality=JPEG_QUALITY, subsampling=0)
        again = _jpeg_as_is(encoded.getvalue())
        if again is not None:
            return dataclasses.replace(again, notes=notes)
    space = {"RGB": "DeviceRGB", "L": "DeviceGray", "CMYK": "DeviceCMYK"}[image.mode]
    data = zlib.compress(image.tobytes(), 6)
    return Raster(image.width, image.height, space, "FlateDecode", data, alpha=alpha, notes=notes)


def _eight_bit(image: Image.Image) -> Image.Image:
    """The image in one of the modes kept: RGB, RGBA, L, LA or CMYK, 8 bits a channel;
    palettes (and their transparency) and 16-bit greys become RGBA or L."""
    mode = image.mode
    if mode in ("RGB", "RGBA", "L", "LA", "CMYK"):
        return image
    if mode in ("P", "PA") or (mode in ("L", "RGB") and "transparency" in image.info):
        return image.convert("RGBA")
    if mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        return image.point(lambda v: v / 257).convert("L") if mode != "F" else image.convert("L")
    if mode == "1":
        return image.convert("L")
    return image.convert("RGBA")


class _ImageXObject(pdfdoc.PDFImageXObject):
    """An image XObject written from a ``Raster`` (reportlab's own would read the file and
    encode it again), with its soft mask when it has one."""

    def __init__(self, name: str, raster: Raster, mask: str | None):  # noqa: D107
        self.name = name
        self.raster = raster
        self.width, self.height = raster.width, raster.height
        self.mask = None
        self.smask = mask

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        """The image's stream, naming its soft mask."""
        r = self.raster
        stream = _image_stream(r.data, r.width, r.height, r.colour_space, r.filter)
        d = stream.dictionary
        if r.parms:  # the filter a name, its parameters a dictionary
            d["DecodeParms"] = pdfdoc.PDFDictionary(dict(r.parms))
        if r.decode:
            d["Decode"] = pdfdoc.PDFArray(list(r.decode))
        if self.smask:
            d["SMask"] = pdfdoc.PDFObjectReference(self.smask)
        formatted: bytes = stream.format(document)
        return formatted


class _MaskXObject(pdfdoc.PDFImageXObject):
    """The soft mask of an image: its alpha channel as an 8-bit grey image."""

    def __init__(self, name: str, raster: Raster):  # noqa: D107
        self.name = name
        self.raster = raster
        self.width, self.height = raster.width, raster.height
        self.mask = None

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        """The alpha channel's stream."""
        r = self.raster
        assert r.alpha is not None
        stream = _image_stream(r.alpha, r.width, r.height, "DeviceGray", "FlateDecode")
        formatted: bytes = stream.format(document)
        return formatted


def _image_stream(
    data: bytes, width: int, height: int, colour_space: str, filter_name: str
) -> pdfdoc.PDFStream:
    """An 8-bit image XObject's stream of ``data`` as it is (already encoded by the filter)."""
    stream = pdfdoc.PDFStream(content=data)
    d = stream.dictionary
    d["Type"] = pdfdoc.PDFName("XObject")
    d["Subtype"] = pdfdoc.PDFName("Image")
    d["Width"] = width
    d["Height"] = height
    d["BitsPerComponent"] = 8
    d["ColorSpace"] = pdfdoc.PDFName(colour_space)
    d["Filter"] = pdfdoc.PDFName(filter_name)
    d["Length"] = len(data)
    return stream


def draw_image(canvas: Canvas, source: PictureFile | bytes, fit: Fit = None) -> None:
    """Draw the image (a file, or the bytes of one) into the unit square of the current
    transformation at no more pixels than ``fit``, embedding it once per document however
    often it is drawn."""
    raw = source.read() if isinstance(source, PictureFile) else source
    draw_raster(canvas, load(raw, fit))


def draw_raster(canvas: Canvas, raster: Raster) -> None:
    """Draw a ``Raster`` into the unit square of the current transformation, embedded once
    per document however often it is drawn."""
    document = rl.document(canvas)
    name = raster.key
    reg_name = document.getXObjectName(name)
    if document.idToObject.get(reg_name) is None:
        mask = None
        if raster.alpha is not None:
            mask = document.getXObjectName(name + "m")
            document.Reference(_MaskXObject(name + "m", raster), mask)
        document.Reference(_ImageXObject(name, raster, mask), reg_name)
        document.addForm(name, document.idToObject[reg_name])
    rl.paint(canvas, name, image=True)
