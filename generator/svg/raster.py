"""Raster images in the PDF: every kind a designer exports, with its true colours and
transparency, embedded once each and, where the file allows, without being decoded again.

- An 8-bit, non-interlaced RGB or greyscale PNG without transparency holds its pixels as a
  zlib stream with PNG's row filters, which PDF reads as it is (FlateDecode with the PNG
  predictor in the filter's decode parameters): the file's own data goes into the PDF.
- A JPEG (RGB, grey or CMYK) goes in as it is too (DCTDecode); a CMYK JPEG written by Adobe
  software stores its inks inverted, which the PDF's Decode array undoes.
- Anything else (alpha, palettes and their transparency, 16-bit, interlaced, WebP, GIF, TIFF)
  is decoded once and stored as 8-bit colour, its alpha as a soft mask.

Only the kinds the README lists are ever decoded (``FORMATS``: never EPS, which Pillow hands
to Ghostscript, nor any other plugin), always from bytes in memory that came through the gate
(``PictureFile``). The pixel count of the frame that is decoded is read from its header and
refused above ``MAX_PIXELS`` before anything is decoded: a small file can hold a huge image.
"""

from __future__ import annotations

import hashlib
import io
import struct
import warnings
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFile, ImageOps
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from generator.paths import PathRefused, read_bytes
from generator.svg import canvas as rl

FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "TIFF")  # what Pillow may decode: the README's list
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_PIXELS = 40_000_000  # 40 megapixels: a 300 dpi image larger than A2
Image.MAX_IMAGE_PIXELS = 4 * MAX_PIXELS  # Pillow's own last line; ours says the size first
ImageFile.LOAD_TRUNCATED_IMAGES = False


class ImageProblem(ValueError):
    """Why a file cannot be used as an image, in the user's terms."""


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


def open_image(raw: bytes) -> Image.Image:
    """The picture in ``raw``, opened (its header read, nothing decoded) by one of the
    plugins of ``FORMATS`` alone."""
    return Image.open(io.BytesIO(raw), formats=FORMATS)


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

    @property
    def key(self) -> str:
        """A name for the image in the PDF, the same for the same pixels."""
        digest = hashlib.sha1(self.data)
        if self.alpha:
            digest.update(self.alpha)
        return "img" + digest.hexdigest()[:16]


def image_size(raw: bytes) -> tuple[int, int]:
    """The width and height in pixels from the file's header (nothing decoded), checked
    against ``MAX_PIXELS``."""
    limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None  # the header only: ours
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with open_image(raw) as image:
                width, height = image.size
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise _unreadable(exc) from None
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    _within_pixels(width, height)
    return width, height


def _within_pixels(width: int, height: int) -> None:
    if width * height > MAX_PIXELS:
        raise ImageProblem(
            f"is {width} x {height} pixels; images are limited to {MAX_PIXELS // 1_000_000} "
            "megapixels (300 dpi over an A2 sheet): scale it down"
        )


def _unreadable(exc: BaseException) -> ImageProblem:
    """A picture Pillow cannot open, or not as one of the kinds it may be."""
    kind = exc.__class__.__name__
    return ImageProblem(f"cannot be read as an image ({kind}); export it as PNG or JPEG")


@lru_cache(maxsize=256)
def load(raw: bytes) -> Raster:
    """The image in ``raw`` as the PDF will hold it (``ImageProblem`` if it cannot be)."""
    image_size(raw)
    return _png_as_is(raw) or _jpeg_as_is(raw) or _decoded(raw)


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
        elif kind == b"tRNS":
            return None  # transparency by colour key: decoded, as a soft mask
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
    """A JPEG in RGB, grey or CMYK: its own compressed data."""
    if not raw.startswith(b"\xff\xd8"):
        return None
    with open_image(raw) as image:
        space = {"RGB": "DeviceRGB", "L": "DeviceGray", "CMYK": "DeviceCMYK"}.get(image.mode)
        if image.format != "JPEG" or space is None:
            return None
        inverted = image.mode == "CMYK" and "adobe" in image.info
        width, height = image.size
    decode = (1, 0, 1, 0, 1, 0, 1, 0) if inverted else ()
    return Raster(width, height, space, "DCTDecode", raw, decode=decode)


def _decoded(raw: bytes) -> Raster:
    """Any other image, decoded: 8-bit colour (grey, RGB or CMYK) and its alpha, if any part
    of it is transparent, as a separate channel."""
    try:
        with open_image(raw) as opened:
            opened.seek(0)  # an animation prints its first frame
            _within_pixels(*opened.size)  # the frame decoded, whatever the file's first said
            image = ImageOps.exif_transpose(opened) if opened.format == "JPEG" else opened.copy()
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise _unreadable(exc) from None
    image = _eight_bit(image)
    alpha = None
    if image.mode in ("RGBA", "LA"):
        channel = image.getchannel("A")
        if channel.getextrema() != (255, 255):
            alpha = zlib.compress(channel.tobytes(), 6)
        image = image.convert("RGB" if image.mode == "RGBA" else "L")
    space = {"RGB": "DeviceRGB", "L": "DeviceGray", "CMYK": "DeviceCMYK"}[image.mode]
    data = zlib.compress(image.tobytes(), 6)
    return Raster(image.width, image.height, space, "FlateDecode", data, alpha=alpha)


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


def draw_image(canvas: Canvas, source: PictureFile | bytes) -> None:
    """Draw the image (a file, or the bytes of one) into the unit square of the current
    transformation, embedding it once per document however often it is drawn."""
    raw = source.read() if isinstance(source, PictureFile) else source
    draw_raster(canvas, load(raw))


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
