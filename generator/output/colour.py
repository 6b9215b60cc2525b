"""True colour for print shops and screens: sRGB art converted to the press profile's CMYK by a
colour-managed transform (littleCMS, through Pillow's ImageCms), with black the printers' way;
and the sRGB profile that PNGs carry, so that every viewer and every shop reads their pixels
as the colours they are.

A shop file's page is flattened (``generator.output.flatten``): its art, composited in sRGB,
goes through ``Press.raster`` pixel by pixel, and the text on top of it takes its colour from
``Press.text_colour`` (the SVG renderer's text) and ``Press.enforce_text`` (reportlab's, on a
reference sheet), all by the same transform within the same ink limit, so that a colour
prints alike whether it is a shape, a table cell, a pixel or a letter.
"""

from __future__ import annotations

import io
import math
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageCms, ImageFilter, ImageMath
from reportlab.lib import colors

from generator.paths import read_bytes

# The press profile a CMYK export prints to: its PDFs name it as their output intent
# (icc/ beside this module holds it, with its licence).
PRESS_PROFILE = Path(__file__).resolve().parent / "icc" / "ISOcoated_v2_300_bas.icc"


@lru_cache(maxsize=1)
def press_transform() -> tuple[ImageCms.ImageCmsTransform, bytes]:
    """sRGB to the press profile (relative colorimetric, black-point compensation), and for
    each grey level the black ink alone that prints it as light as that transform's own
    build of it does (so black text and rules never need four inks in register, and a grey
    looks the same on black ink as in four); greys darker than black ink alone can print
    get all of it."""
    press = ImageCms.getOpenProfile(io.BytesIO(press_profile()))
    srgb = ImageCms.createProfile("sRGB")
    lab = ImageCms.createProfile("LAB", 5000)
    relative = ImageCms.Intent.RELATIVE_COLORIMETRIC
    to_press = ImageCms.buildTransform(
        srgb, press, "RGB", "CMYK", relative, ImageCms.Flags.BLACKPOINTCOMPENSATION
    )
    to_lab = ImageCms.buildTransform(press, lab, "CMYK", "LAB", relative)
    ramp = Image.frombytes("L", (256, 1), bytes(range(256)))
    none = Image.new("L", (256, 1))
    targets = to_lab.apply(to_press.apply(ramp.convert("RGB"))).tobytes()[::3]  # L* 0-255
    ink_l = to_lab.apply(Image.merge("CMYK", (none, none, none, ramp))).tobytes()[::3]
    black = bytes(min(range(256), key=lambda k: abs(ink_l[k] - t)) for t in targets)
    return to_press, black


def limit_ink(cmyk: tuple[float, ...], total: float | None) -> tuple[float, ...]:
    """A CMYK colour with its cyan, magenta and yellow scaled down alike until the four inks
    sum to at most ``total``, black kept (a shop's total area coverage limit); each scaled
    ink is rounded down to a step of 1/255, so that no rounding ever takes the sum past the
    limit."""
    c, m, y, k = cmyk
    colour = c + m + y
    if total is None or colour + k <= total or colour == 0:
        return cmyk
    scale = max(0.0, total - k) / colour
    c, m, y = (math.floor(v * scale * 255 + 1e-6) / 255 for v in (c, m, y))
    return (c, m, y, k)


def cmyk_of(rgb: tuple[float, ...]) -> tuple[float, ...]:
    """A colour in CMYK as the press prints it: through the press profile by littleCMS, a grey
    on the black ink alone (see ``press_transform``); each 8-bit colour converted once."""
    return _cmyk8(*(min(255, max(0, round(v * 255))) for v in rgb))


# Black the printers' way: type and lines print in black ink, large dark areas in a rich
# black (all four inks, within the limit), so that no small shape needs four plates in
# register and no large one prints the grey of black ink alone.
NEAR_BLACK = 0.25  # a colour none of whose red, green and blue passes this is near-black
SMALL_TYPE_PT = 12.0  # text under this size is small type
LARGE_DARK_MM = 2.0  # a dark area this wide everywhere is large: it prints in rich black
GREYISH = 0.1  # a colour whose red, green and blue lie this close together is greyish
MIN_LINE_PT = 0.25  # the thinnest line a shop export draws (thinner is thickened to it)
SMALL_BLACK_CMY = 0.25  # cyan, magenta and yellow together beside black in small black
SMALL_BLACK_STEPS = 6  # how finely the cyan, magenta and yellow of a small black are tried


# Small coloured type on one or two inks: under 8 pt, text of a colour built from three or
# four inks needs three or four plates in register, and a slip of 0.1-0.2 mm (a good offset
# press's) fringes letters a stroke or two wide; prepress guides ask for type under 8 pt in
# at most two separations. Such text prints in the two-ink build nearest its colour.
SMALL_COLOUR_TYPE_PT = 8.0
SHEET_TYPE_PT = SMALL_COLOUR_TYPE_PT  # a reference sheet's text, as the press is told of it
TWO_INK_STEP = 8  # of 255: how finely two-ink builds are tried before the nearest is refined


def near_black(rgb: tuple[float, ...]) -> bool:
    """Whether a colour is so dark that it reads as black."""
    return max(rgb) <= NEAR_BLACK


def small_black(rgb: tuple[float, ...]) -> tuple[float, ...]:
    """A near-black colour as small type and thin lines print it, so that a slip of the
    plates shows no coloured fringe: a grey on black ink alone (``cmyk_of``); a dark colour
    on black ink with at most ``SMALL_BLACK_CMY`` of cyan, magenta and yellow together, in
    the build of that kind nearest to the colour its own build prints (``_small8``)."""
    eight = tuple(min(255, max(0, round(v * 255))) for v in rgb)
    return tuple(v / 255 for v in _small8(*eight))


@lru_cache(maxsize=1)
def _press_lab() -> ImageCms.ImageCmsTransform:
    """The press's CMYK to L*a*b* (D50), as it prints."""
    press, lab = (
        ImageCms.getOpenProfile(io.BytesIO(press_profile())),
        ImageCms.createProfile("LAB", 5000),
    )
    relative = ImageCms.Intent.RELATIVE_COLORIMETRIC
    return ImageCms.buildTransform(press, lab, "CMYK", "LAB", relative)


def _labs(inks: list[tuple[int, ...]]) -> list[tuple[float, float, float]]:
    """The L*a*b* each 8-bit CMYK build prints."""
    image = Image.new("CMYK", (len(inks), 1))
    for x, pixel in enumerate(inks):
        image.putpixel((x, 0), pixel)
    raw = _press_lab().apply(image).tobytes()  # L* 0-255, a* and b* signed bytes
    return [
        (
            raw[i] * 100 / 255,
            raw[i + 1] - (raw[i + 1] > 127) * 256,
            raw[i + 2] - (raw[i + 2] > 127) * 256,
        )
        for i in range(0, len(raw), 3)
    ]


@lru_cache(maxsize=8192)
def _small8(r: int, g: int, b: int) -> tuple[int, ...]:
    """``small_black`` of an 8-bit colour, in 8-bit inks: the colour's own cyan, magenta and
    yellow scaled down to ``SMALL_BLACK_CMY`` together or less (in ``SMALL_BLACK_STEPS``),
    beside black from its own up to full, whichever prints nearest to it (ΔE76)."""
    c, m, y, k = (round(v * 255) for v in _cmyk8(r, g, b))
    colour = c + m + y
    if colour == 0:
        return (c, m, y, k)
    most = min(1.0, SMALL_BLACK_CMY * 255 / colour)
    builds = [
        (*(math.floor(v * most * step / SMALL_BLACK_STEPS) for v in (c, m, y)), black)
        for step in range(SMALL_BLACK_STEPS + 1)
        for black in (*range(k, 255, 2), 255)
    ]
    target, *printed = _labs([(c, m, y, k), *builds])
    distances = [math.dist(lab, target) for lab in printed]
    return builds[distances.index(min(distances))]


def two_inks(rgb: tuple[float, ...]) -> tuple[float, ...]:
    """A colour as small coloured type prints it: its own build where that takes at most two
    inks, else the build of two inks that prints nearest to it (ΔE76)."""
    eight = tuple(min(255, max(0, round(v * 255))) for v in rgb)
    return tuple(v / 255 for v in _two8(*eight))


def _pairs(inks: tuple[int, int], values: range, around: tuple[int, ...] | None) -> list:
    """Builds of the two inks ``inks`` (indexes into CMYK): every pair of ``values``, or
    those values about ``around`` (a build)."""
    out = []
    for a in values:
        for b in values:
            build = [0, 0, 0, 0]
            if around is None:
                build[inks[0]], build[inks[1]] = a, b
            else:
                build[inks[0]] = min(255, max(0, around[inks[0]] + a))
                build[inks[1]] = min(255, max(0, around[inks[1]] + b))
            out.append(tuple(build))
    return out


@lru_cache(maxsize=4096)
def _two8(r: int, g: int, b: int) -> tuple[int, ...]:
    """``two_inks`` of an 8-bit colour, in 8-bit inks: every two-ink build on a coarse grid,
    then the nearest refined an ink step at a time."""
    own = tuple(round(v * 255) for v in _cmyk8(r, g, b))
    if sum(1 for v in own if v) <= 2:
        return own
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    coarse = range(0, 256, TWO_INK_STEP)
    builds = [build for pair in pairs for build in _pairs(pair, coarse, None)]
    target, *printed = _labs([own, *builds])
    best = builds[min(range(len(builds)), key=lambda i: math.dist(printed[i], target))]
    used = tuple(i for i, v in enumerate(best) if v) or (3,)
    pair = (used[0], used[-1] if len(used) > 1 else (used[0] + 1) % 4)
    fine = _pairs(pair, range(-TWO_INK_STEP, TWO_INK_STEP + 1), best)
    printed = _labs(fine)
    return fine[min(range(len(fine)), key=lambda i: math.dist(printed[i], target))]


@lru_cache(maxsize=1)
def _small_lut() -> ImageFilter.Color3DLUT:
    """``small_black`` for every near-black pixel at once: a 3D look-up table from sRGB to
    the press's CMYK (its other colours are not looked up)."""

    def entry(r: float, g: float, b: float) -> tuple[float, ...]:
        return small_black((r, g, b)) if max(r, g, b) <= NEAR_BLACK + 1e-9 else (0, 0, 0, 0)

    return ImageFilter.Color3DLUT.generate(33, entry, channels=4, target_mode="CMYK")


@dataclass(frozen=True)
class Press:
    """The press a shop file is drawn for: its profile's CMYK, within the most ink (C+M+Y+K,
    1.0 = 100 %) the shop accepts (None: the profile's own limit)."""

    ink_limit: float | None = None

    def colour(self, rgb: tuple[float, ...]) -> tuple[float, ...]:
        """An sRGB colour as this press prints it."""
        return limit_ink(cmyk_of(rgb), self.ink_limit)

    def text_colour(self, rgb: tuple[float, ...], size: float) -> tuple[float, ...]:
        """A text's colour as this press prints it at ``size`` points: near-black small type
        on black ink (``small_black``), larger in rich black (the profile's own build, even
        for a grey); other colours under ``SMALL_COLOUR_TYPE_PT`` on two inks at most
        (``two_inks``), the rest as any colour."""
        if not near_black(rgb):
            if size < SMALL_COLOUR_TYPE_PT:
                return limit_ink(two_inks(rgb), self.ink_limit)
            return self.colour(rgb)
        if size < SMALL_TYPE_PT:
            return limit_ink(small_black(rgb), self.ink_limit)
        eight = (min(255, max(0, round(v * 255))) for v in rgb)
        return limit_ink(_rich8(*eight), self.ink_limit)

    def enforce_text(self, colour: object) -> colors.CMYKColor:
        """``enforce`` for a page that holds only text (a reference sheet's, on top of its
        flattened art), whose sizes it is not told: every colour as ``SHEET_TYPE_PT`` type
        prints it (``text_colour``): black on black ink, colours as they are."""
        rgb = colors.toColor(colour)
        if isinstance(rgb, colors.CMYKColor):
            return rgb
        c, m, y, k = self.text_colour((rgb.red, rgb.green, rgb.blue), SHEET_TYPE_PT)
        return colors.CMYKColor(c, m, y, k, alpha=rgb.alpha)

    def raster(self, image: Image.Image, dpi: float) -> Image.Image:
        """An sRGB picture of a page (its art composited as designed) in this press's CMYK,
        pixel for pixel as ``colour`` and ``small_black`` print a colour: through the
        profile; greys on black ink alone; greyish near-black in shapes narrower than
        ``LARGE_DARK_MM`` (lines, small type, icons) as ``small_black`` prints it, larger
        dark areas in rich black, each shape in one build throughout (``_large``); all
        within the ink limit. A dark colour that is no grey keeps its build: in pixels a
        thin line and the gap between two shapes look alike."""
        rgb = image.convert("RGB")
        to_press, black = press_transform()
        cmyk = to_press.apply(rgb)
        r, g, b = rgb.split()
        spread = _spread(r, g, b)
        dark = _where(ImageChops.lighter(ImageChops.lighter(r, g), b), 0, round(NEAR_BLACK * 255))
        none = Image.new("L", rgb.size)
        grey = Image.merge("CMYK", (none, none, none, r.point(list(black))))
        cmyk.paste(grey, mask=ImageChops.subtract(_where(spread, 0, 0), dark))
        large = ImageChops.multiply(dark, _large(dark, LARGE_DARK_MM / MM_PER_IN * dpi))
        dark_grey = ImageChops.multiply(dark, _where(spread, 0, round(GREYISH * 255)))
        cmyk.paste(rgb.filter(_small_lut()), mask=ImageChops.subtract(dark_grey, large))
        total = self.ink_limit
        return cmyk if total is None else _limit_pixels(cmyk, total * 255)


# a dark pixel is in a large area where this share of the square around it is dark
LARGE_SHARE = 0.75


def _large(dark: Image.Image, across: float) -> Image.Image:
    """The dark shapes ``across`` pixels wide somewhere, whole: where three quarters of the
    square around a pixel is dark (a shape's inside), and everything within half that
    square of such a pixel (its rim, and what is drawn against it), so that a shape prints
    in one build throughout."""
    radius = max(1, round(across / 2))
    inside = _where(dark.filter(ImageFilter.BoxBlur(radius)), round(LARGE_SHARE * 255), 255)
    return _where(inside.filter(ImageFilter.BoxBlur(radius)), 1, 255)


@lru_cache(maxsize=65536)
def _cmyk8(r: int, g: int, b: int) -> tuple[float, ...]:
    """An 8-bit colour as the press prints it (``cmyk_of``)."""
    if r == g == b:
        return (0.0, 0.0, 0.0, press_transform()[1][r] / 255)
    return _rich8(r, g, b)


@lru_cache(maxsize=4096)
def _rich8(r: int, g: int, b: int) -> tuple[float, ...]:
    """An 8-bit colour through the press profile, a grey too (a dark one in rich black)."""
    to_press = press_transform()[0]
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


MM_PER_IN = 25.4


def _spread(r: Image.Image, g: Image.Image, b: Image.Image) -> Image.Image:
    """How far apart each pixel's red, green and blue are (0 for a grey)."""
    most = ImageChops.lighter(ImageChops.lighter(r, g), b)
    return ImageChops.subtract(most, ImageChops.darker(ImageChops.darker(r, g), b))


def _where(band: Image.Image, low: int, high: int) -> Image.Image:
    """A mask: 255 where a band's value lies in [low, high], else 0."""
    return band.point([255 if low <= v <= high else 0 for v in range(256)])
