"""The one door to Pillow for a picture from a game folder (docs/safety.md): every decoding
of a user's raster file goes through here, bounded before Pillow sees it, and whatever Pillow
raises leaves as ``ImageProblem`` in the user's words (never an internal error).

- only the kinds of ``FORMATS`` are opened (never EPS, which Pillow hands to Ghostscript),
  always from bytes that came through the gate (``paths.read_bytes``: ``FILE_BYTES["image"]``);
- the pixel count is read from the header and refused past ``MAX_PIXELS`` before anything is
  decoded, and the frame decoded past ``MAX_DECODED_PIXELS`` (Pillow's ``MAX_IMAGE_PIXELS``
  the last line behind ours);
- frames: only the first is ever decoded (``MAX_FRAMES``), however many the file declares, and
  their count is never asked (Pillow would walk the file to count them);
- EXIF is read defensively, after the pixels are bounded and never by decoding: the
  orientation is used only when it is a whole number from 1 to 8, and the picture is turned
  by our own transpose (Pillow's ``exif_transpose`` writes the EXIF block back, which fails
  on a tag of the wrong type);
- what Pillow warns of while it reads is collected (``pillow_said``), never printed.
"""

from __future__ import annotations

import dataclasses
import io
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageFile, UnidentifiedImageError

FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "TIFF")  # what Pillow may decode: docs/safety.md's list
MAX_PIXELS = 250_000_000  # a picture's pixels, by its header: past any camera, a bomb
MAX_DECODED_PIXELS = 100_000_000  # the frame decoded (a JPEG's after draft): ~400 MB as RGBA
MAX_FRAMES = 1  # frames of an animation or a multi-page TIFF ever decoded: the first
HEIF = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1"}  # ftyp brands
AVIF = {b"avif", b"avis"}
MAGIC = {b"%PDF": "a PDF", b"8BPS": "a Photoshop file (PSD)", b"BM": "a BMP picture"}
EXPORT = "export it as PNG or JPEG"
ORIENTATION = 0x0112  # the EXIF tag of a photo's orientation (1: upright as stored)
Image.MAX_IMAGE_PIXELS = MAX_PIXELS  # Pillow's own last line; ours says the size first
ImageFile.LOAD_TRUNCATED_IMAGES = False
TURNS = {  # EXIF orientation -> the transpose that makes the picture upright
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}


class ImageProblem(ValueError):
    """Why a file cannot be used as an image, in the user's terms."""


class TooManyPixels(ImageProblem):
    """A picture with more pixels than any photo (a decompression bomb): an error, since a
    pack without its art must not print."""


@dataclass(frozen=True)
class Header:
    """What a picture's header says, nothing decoded: its kind, mode, size as stored, EXIF
    orientation (1 when it has none that can be used) and whether Adobe wrote it."""

    format: str
    mode: str
    size: tuple[int, int]
    orientation: int
    adobe: bool
    notes: tuple[str, ...] = ()  # what Pillow warned of while reading it


@contextmanager
def guarded() -> Iterator[None]:
    """Whatever Pillow (or the codec under it) raises in the block, as ``ImageProblem``: a
    damaged file raises anything from ``struct.error`` to ``KeyError``, and MemoryError
    under a limit."""
    try:
        yield
    except ImageProblem:
        raise
    except (Exception, MemoryError) as exc:  # noqa: BLE001 - a decoder's failure is the file's
        raise unreadable(exc) from None


@contextmanager
def pillow_said() -> Iterator[list[str]]:
    """What Pillow warns of in the block (a corrupt EXIF block, a truncated palette ...),
    collected to be said with the picture's name instead of printed by Python."""
    said: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield said
    said.extend(dict.fromkeys(str(w.message).strip() for w in caught))


def open_image(raw: bytes) -> Image.Image:
    """The picture in ``raw``, opened (its header read, nothing decoded) by one of the
    plugins of ``FORMATS`` alone; a file of none of them is named by what it is."""
    try:
        return Image.open(io.BytesIO(raw), formats=FORMATS)
    except UnidentifiedImageError:
        raise ImageProblem(not_ours(raw)) from None


def not_ours(raw: bytes) -> str:
    """What to say of a file that is none of ``FORMATS``: the kinds designers bring most
    (an iPhone's HEIC photo, AVIF, a PDF, a Photoshop file, a BMP) by their name, each with
    what to export instead."""
    if raw[4:8] == b"ftyp":  # an ISO media file: its brands say HEIF or AVIF
        brands = {raw[at : at + 4] for at in range(8, min(len(raw), 64), 4)}
        kind = "an AVIF picture" if brands & AVIF else "a HEIC photo" if brands & HEIF else None
    else:
        kind = next((name for magic, name in MAGIC.items() if raw.startswith(magic)), None)
    if kind is None:
        return "cannot be read as an image: it is none of PNG, JPEG, WebP, GIF and TIFF; " + EXPORT
    if kind == "a HEIC photo":
        return (
            "is a HEIC photo (an iPhone's own format), which pnp does not read; export it as "
            "JPEG (an iPhone takes JPEGs with Settings > Camera > Formats > Most Compatible)"
        )
    return f"is {kind}, which pnp does not read; {EXPORT}"


def header(raw: bytes) -> Header:
    """The header of the picture in ``raw`` (``ImageProblem`` when it is none of ``FORMATS``
    or is damaged), its pixels checked against ``MAX_PIXELS``."""
    limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None  # the header only: ours
    try:
        with guarded(), pillow_said() as said, open_image(raw) as image:
            within_pixels(*image.size, MAX_PIXELS)  # before EXIF, which may decode (a PNG's)
            found = Header(
                str(image.format), image.mode, image.size, orientation(image), "adobe" in image.info
            )
        return dataclasses.replace(found, notes=tuple(said))
    finally:
        Image.MAX_IMAGE_PIXELS = limit


def image_size(raw: bytes) -> tuple[int, int]:
    """The width and height in pixels as the picture prints, upright (its EXIF orientation
    applied), from the file's header (nothing decoded), checked against ``MAX_PIXELS``."""
    found = header(raw)
    width, height = found.size
    return (height, width) if found.orientation in (5, 6, 7, 8) else (width, height)


def orientation(image: Image.Image) -> int:
    """The EXIF orientation of an opened picture (1 when it has none, it is unreadable or of
    the wrong type). A PNG's is read only from an ``eXIf`` chunk before its pixels: Pillow
    decodes the whole picture to look for one after them."""
    if image.format == "PNG" and "exif" not in image.info:
        return 1
    try:
        value = image.getexif().get(ORIENTATION, 1)
    except Exception:  # noqa: BLE001 - a damaged EXIF block means no orientation
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def within_pixels(width: int, height: int, limit: int) -> None:
    """``TooManyPixels`` for a picture of more than ``limit`` pixels."""
    if width * height > limit:
        raise TooManyPixels(
            f"is {width} x {height} pixels, more than the {limit // 1_000_000} megapixels "
            "a picture may have (a decompression bomb?); export it smaller"
        )


def unreadable(exc: BaseException) -> ImageProblem:
    """A picture Pillow cannot open, or not as one of the kinds it may be."""
    kind = exc.__class__.__name__
    return ImageProblem(f"cannot be read as an image ({kind}); {EXPORT}")


def decode_upright(raw: bytes, target: tuple[int, int] | None) -> tuple[Image.Image, bool]:
    """The picture's first frame decoded and turned upright (a JPEG decoded at the smallest
    fraction of its size that still holds ``target``), and whether it was a JPEG."""
    with guarded(), open_image(raw) as opened:
        turn = orientation(opened)
        if target is not None and opened.format == "JPEG":
            opened.draft(opened.mode, target[::-1] if turn in (5, 6, 7, 8) else target)
        within_pixels(*opened.size, MAX_DECODED_PIXELS)  # the frame decoded
        opened.load()  # the first frame only (MAX_FRAMES)
        image = opened.transpose(TURNS[turn]) if turn in TURNS else opened.copy()
        return image, opened.format == "JPEG"


def verify(raw: bytes) -> None:
    """``ImageProblem`` unless the picture's header passes (``header``) and its data reads to
    its end (``Image.verify``)."""
    header(raw)
    with guarded(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # said with the picture when it is drawn
        with open_image(raw) as image:
            image.verify()
