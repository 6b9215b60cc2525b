"""True colour for print shops and screens: sRGB art converted to the press profile's CMYK by a
colour-managed transform (littleCMS, through Pillow's ImageCms), for reportlab's own colours
and for raster images; and the sRGB profile that PNGs carry, so that every viewer and every
shop reads their pixels as the colours they are.

A shop file is drawn for a ``Press``: the SVG renderer writes its vector colours through it
(``Press.colours``), reportlab's own through ``Press.enforce`` and images through
``Press.image``, all by the same transform within the same ink limit, so a colour prints alike
whether it is a shape, a table cell or a pixel.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageCms, ImageMath
from reportlab.lib import colors

from generator.paths import read_bytes
from generator.svg.pdf import Colours

# The press profile a CMYK export prints to: its PDFs name it as their output intent
# (icc/ beside this module holds it, with its licence).
PRESS_PROFILE = Path(__file__).resolve().parent / "icc" / "ISOcoated_v2_300_bas.icc"


@lru_cache(maxsize=1)
def press_transform() -> tuple[ImageCms.ImageCmsTransform, bytes]:
    """sRGB to the press profile (relative colorimetric, black-point compensation), and for
    each grey level the black ink alone that prints it at its lightness, the press's darkest
    black standing in for sRGB's (so black text and rules never need four inks in register)."""
    press = ImageCms.getOpenProfile(io.BytesIO(press_profile()))
    srgb = ImageCms.createProfile("sRGB")
    lab = ImageCms.createProfile("LAB", 5000)
    relative = ImageCms.Intent.RELATIVE_COLORIMETRIC
    to_press = ImageCms.buildTransform(
        srgb, press, "RGB", "CMYK", relative, ImageCms.Flags.BLACKPOINTCOMPENSATION
    )
    ramp = Image.frombytes("L", (256, 1), bytes(range(256)))
    none = Image.new("L", (256, 1))
    grey_l = ImageCms.buildTransform(srgb, lab, "RGB", "LAB", relative).apply(ramp.convert("RGB"))
    ink = Image.merge("CMYK", (none, none, none, ramp))
    ink_l = ImageCms.buildTransform(press, lab, "CMYK", "LAB", relative).apply(ink).tobytes()[::3]
    darkest, white = ink_l[255], ink_l[0]  # L* (0-255) of all the black ink and of none
    targets = [darkest + lum * (white - darkest) / 255 for lum in grey_l.tobytes()[::3]]
    black = bytes(min(range(256), key=lambda k: abs(ink_l[k] - t)) for t in targets)
    return to_press, black


def limit_ink(cmyk: tuple[float, ...], total: float | None) -> tuple[float, ...]:
    """A CMYK colour with its cyan, magenta and yellow scaled down alike until the four inks
    sum to at most ``total``, black kept (a shop's total area coverage limit)."""
    c, m, y, k = cmyk
    colour = c + m + y
    if total is None or colour + k <= total or colour == 0:
        return cmyk
    scale = max(0.0, total - k) / colour
    return (c * scale, m * scale, y * scale, k)


def cmyk_of(rgb: tuple[float, ...]) -> tuple[float, ...]:
    """A colour in CMYK as the press prints it: through the press profile by littleCMS, a grey
    on the black ink alone (see ``press_transform``); each 8-bit colour converted once."""
    return _cmyk8(*(min(255, max(0, round(v * 255))) for v in rgb))


@dataclass(frozen=True)
class Press:
    """The press a shop file is drawn for: its profile's CMYK, within the most ink (C+M+Y+K,
    1.0 = 100 %) the shop accepts (None: the profile's own limit)."""

    ink_limit: float | None = None

    def colour(self, rgb: tuple[float, ...]) -> tuple[float, ...]:
        """An sRGB colour as this press prints it."""
        return limit_ink(cmyk_of(rgb), self.ink_limit)

    @property
    def colours(self) -> Colours:
        """The colours the SVG renderer writes for this press."""
        return Colours("cmyk", self.colour)

    def enforce(self, colour: object) -> colors.CMYKColor:
        """Any colour reportlab is given (a sheet's text, its table rules and bands) in the
        press's CMYK: reportlab's ``enforceColorSpace`` hook, so nothing reaches a shop PDF
        in RGB."""
        found = colors.toColor(colour)
        if isinstance(found, colors.CMYKColor):
            return found
        c, m, y, k = self.colour((found.red, found.green, found.blue))
        return colors.CMYKColor(c, m, y, k, alpha=found.alpha)

    def image(self, image: Image.Image) -> Image.Image:
        """An RGB image in the press's CMYK (one transform for all its pixels), within its
        ink limit."""
        cmyk = press_transform()[0].apply(image.convert("RGB"))
        total = self.ink_limit
        return cmyk if total is None else _limit_pixels(cmyk, total * 255)


@lru_cache(maxsize=65536)
def _cmyk8(r: int, g: int, b: int) -> tuple[float, ...]:
    to_press, black = press_transform()
    if r == g == b:
        return (0.0, 0.0, 0.0, black[r] / 255)
    out = Image.new("CMYK", (1, 1))
    # the core transform: ImageCmsTransform.apply() copies the 1 MB profile on every call
    to_press.transform.apply(Image.new("RGB", (1, 1), (r, g, b)).getim(), out.getim())
    pixel = out.getpixel((0, 0))
    assert isinstance(pixel, tuple)  # a CMYK pixel: its four inks
    return tuple(v / 255 for v in pixel)


@dataclass(frozen=True)
class OutputCondition:
    """What the press profile characterises, as a PDF/X output intent names it."""

    identifier: str  # OutputConditionIdentifier: a name in the ICC's registry
    registry: str
    condition: str
    info: str  # the profile's own description


# ISO Coated v2 300% (basICColor) is built on the FOGRA39 characterisation data (ISO 12647-2,
# offset on coated paper), registered at the ICC as "FOGRA39"; see icc/*.LICENSE.txt beside
# this module.
PRESS = OutputCondition(
    identifier="FOGRA39",
    registry="http://www.color.org",
    condition="Offset printing on coated paper (ISO 12647-2:2004), 300% total area coverage",
    info="ISO Coated v2 300% (basICColor)",
)


ICC_DATE = struct.pack(">6H", 2024, 1, 1, 0, 0, 0)  # an ICC header's dateTimeNumber


@lru_cache(maxsize=1)
def press_profile() -> bytes:
    """The press profile's bytes, as the PDF/X output intent embeds them."""
    return read_bytes(PRESS_PROFILE.parent, PRESS_PROFILE, "package")


@lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """An sRGB ICC profile (littleCMS's own), for the PNGs' iCCP chunk. littleCMS stamps the
    time it made the profile into the header (bytes 24-35); a fixed date keeps every export
    the same bytes from one run to the next."""
    made = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return made[:24] + ICC_DATE + made[36:]


def _limit_pixels(image: Image.Image, total: float) -> Image.Image:
    """Each pixel's cyan, magenta and yellow scaled down alike where the four inks sum to more
    than ``total`` (0-255 per ink), black kept: ``limit_ink`` for every pixel at once."""
    c, m, y, k = (band.convert("F") for band in image.split())
    room = ImageMath.lambda_eval(lambda e: e["max"](e["t"] - e["k"], 0.0), k=k, t=total)
    colour = ImageMath.lambda_eval(lambda e: e["max"](e["c"] + e["m"] + e["y"], 1.0), c=c, m=m, y=y)
    scale = ImageMath.lambda_eval(lambda e: e["min"](e["r"] / e["s"], 1.0), r=room, s=colour)
    bands = [ImageMath.lambda_eval(lambda e: e["b"] * e["s"], b=b, s=scale) for b in (c, m, y)]
    return Image.merge("CMYK", [*(b.convert("L") for b in bands), k.convert("L")])
