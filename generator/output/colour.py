"""True colour for print shops and screens: sRGB art converted to the press profile's CMYK by a
colour-managed transform (littleCMS, through Pillow's ImageCms), for reportlab's own colours
and for raster images; and the sRGB profile that PNGs carry, so that every viewer and every
shop reads their pixels as the colours they are.

Vector colours drawn by the SVG renderer go through ``generator.art.svgpdf.cmyk_of``, the same
transform, so a colour prints alike whether it is a shape, a table cell or a pixel.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageCms, ImageMath
from reportlab.lib import colors

from generator.art.svgpdf import INK_LIMIT, PRESS_PROFILE, cmyk_of, press_transform


@dataclass(frozen=True)
class OutputCondition:
    """What the press profile characterises, as a PDF/X output intent names it."""

    identifier: str  # OutputConditionIdentifier: a name in the ICC's registry
    registry: str
    condition: str
    info: str  # the profile's own description


# ISO Coated v2 300% (basICColor) is built on the FOGRA39 characterisation data (ISO 12647-2,
# offset on coated paper), registered at the ICC as "FOGRA39"; see generator/art/icc/*.LICENSE.txt.
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
    return PRESS_PROFILE.read_bytes()


@lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """An sRGB ICC profile (littleCMS's own), for the PNGs' iCCP chunk. littleCMS stamps the
    time it made the profile into the header (bytes 24-35); a fixed date keeps every export
    the same bytes from one run to the next."""
    made = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return made[:24] + ICC_DATE + made[36:]


def enforce_cmyk(colour: object) -> colors.CMYKColor:
    """Any colour reportlab is given (a sheet's text, its table rules and bands) in the press
    profile's CMYK: reportlab's ``enforceColorSpace`` hook, so nothing reaches a shop PDF in
    RGB."""
    found = colors.toColor(colour)
    if isinstance(found, colors.CMYKColor):
        return found
    c, m, y, k = cmyk_of((found.red, found.green, found.blue))
    return colors.CMYKColor(c, m, y, k, alpha=found.alpha)


def cmyk_image(image: Image.Image) -> Image.Image:
    """An RGB image in the press profile's CMYK (one transform for all its pixels), within
    the ink limit of the vendor the file is for."""
    cmyk = press_transform()[0].apply(image.convert("RGB"))
    total = INK_LIMIT.get()
    return cmyk if total is None else _limit_pixels(cmyk, total * 255)


def _limit_pixels(image: Image.Image, total: float) -> Image.Image:
    """Each pixel's cyan, magenta and yellow scaled down alike where the four inks sum to more
    than ``total`` (0-255 per ink), black kept: ``limit_ink`` for every pixel at once."""
    c, m, y, k = (band.convert("F") for band in image.split())
    room = ImageMath.lambda_eval(lambda e: e["max"](e["t"] - e["k"], 0.0), k=k, t=total)
    colour = ImageMath.lambda_eval(lambda e: e["max"](e["c"] + e["m"] + e["y"], 1.0), c=c, m=m, y=y)
    scale = ImageMath.lambda_eval(lambda e: e["min"](e["r"] / e["s"], 1.0), r=room, s=colour)
    bands = [ImageMath.lambda_eval(lambda e: e["b"] * e["s"], b=b, s=scale) for b in (c, m, y)]
    return Image.merge("CMYK", [*(b.convert("L") for b in bands), k.convert("L")])
