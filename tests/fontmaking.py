"""Fonts in the forms designers buy them, made in the test from the stock DejaVu Sans Mono
(its ASCII letters): TrueType, OpenType with CFF outlines, a collection, WOFF and WOFF2."""

from __future__ import annotations

import io
import string

from fontTools import subset
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.ttLib import TTCollection, TTFont

from generator.svg.fonts import FONT_DIR

CHARS = string.ascii_letters + string.digits + " .,:;'!?-()"


def truetype(family: str = "Quill", style: str = "Regular", fs_type: int = 0) -> TTFont:
    """DejaVu Sans Mono cut to ``CHARS``, renamed ``family``, with the licence flag given."""
    face = "DejaVuSansMono-Bold.ttf" if style == "Bold" else "DejaVuSansMono.ttf"
    font = TTFont(FONT_DIR / face)
    options = subset.Options()
    options.name_IDs = ["*"]
    options.drop_tables += ["FFTM"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in CHARS])
    subsetter.subset(font)
    names = font["name"]
    full = f"{family} {style}"
    for record in list(names.names):
        if record.nameID in (1, 4, 6, 16, 17):
            names.removeNames(nameID=record.nameID)
    names.setName(family, 1, 3, 1, 0x409)
    names.setName(style, 2, 3, 1, 0x409)
    names.setName(full, 4, 3, 1, 0x409)
    names.setName(f"{family}-{style}", 6, 3, 1, 0x409)
    font["OS/2"].fsType = fs_type
    return font


def cff(family: str = "Quill") -> TTFont:
    """The same letters as an OpenType font with PostScript (CFF) outlines."""
    source = truetype(family)
    order = source.getGlyphOrder()
    glyphs = source.getGlyphSet()
    metrics = {name: source["hmtx"][name] for name in order}
    charstrings = {}
    for name in order:
        pen = T2CharStringPen(metrics[name][0], glyphs)
        glyphs[name].draw(pen)
        charstrings[name] = pen.getCharString()
    builder = FontBuilder(source["head"].unitsPerEm, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap(source.getBestCmap())
    builder.setupCFF(f"{family}-Regular", {"FullName": f"{family} Regular"}, charstrings, {})
    builder.setupHorizontalMetrics(metrics)
    hhea = source["hhea"]
    builder.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    os2 = source["OS/2"]
    builder.setupOS2(
        sTypoAscender=os2.sTypoAscender,
        sTypoDescender=os2.sTypoDescender,
        usWinAscent=os2.usWinAscent,
        usWinDescent=os2.usWinDescent,
        fsType=0,
    )
    builder.setupPost()
    return builder.font


def saved(font: TTFont, flavor: str | None = None) -> bytes:
    """The font's file bytes (``flavor`` woff or woff2 for a web font)."""
    font.flavor = flavor
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def collection(*fonts: TTFont) -> bytes:
    """A TrueType collection (.ttc) of ``fonts``."""
    ttc = TTCollection()
    ttc.fonts = list(fonts)
    out = io.BytesIO()
    ttc.save(out)
    return out.getvalue()
