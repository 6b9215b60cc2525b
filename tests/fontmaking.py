"""Fonts in the forms designers buy them, made in the test from the stock DejaVu Sans Mono
(its ASCII letters): TrueType, OpenType with CFF outlines, a collection, WOFF and WOFF2, and
a variable font."""

from __future__ import annotations

import io
import string

from fontTools import subset
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.ttLib import TTCollection, TTFont, newTable
from fontTools.ttLib.tables._f_v_a_r import Axis
from fontTools.ttLib.tables.TupleVariation import TupleVariation

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


VARIED = {"wght": 500, "ital": 200}  # font units a glyph of the variable font widens at each max


def variable(family: str = "Quill") -> TTFont:
    """The TrueType letters made a variable font, as Google Fonts ships them: a weight axis
    (100 to 900, default 400) and an italic axis (0 to 1, default 0), each widening every
    glyph's advance by ``VARIED`` at its maximum, so that each instance is told by its
    widths (the mono font's 1233 units at the default)."""
    font = truetype(family)
    add_axes(font, {"wght": (100, 400, 900), "ital": (0, 0, 1)})
    gvar = font["gvar"] = newTable("gvar")
    gvar.version, gvar.reserved, gvar.variations = 1, 0, {}
    glyf, metrics = font["glyf"], font["hmtx"].metrics
    for name in font.getGlyphOrder():
        points = len(glyf._getCoordinatesAndControls(name, metrics)[0])
        gvar.variations[name] = [
            TupleVariation({tag: (0, 1.0, 1.0)}, _advance_moved(points, units))
            for tag, units in VARIED.items()
        ]
    return font


def add_axes(font: TTFont, axes: dict[str, tuple[float, float, float]]) -> None:
    """An fvar table of ``axes`` (tag: least, default, most value), no named instances."""
    fvar = font["fvar"] = newTable("fvar")
    for tag, (low, default, high) in axes.items():
        axis = Axis()
        axis.axisTag = tag
        axis.minValue, axis.defaultValue, axis.maxValue = low, default, high
        axis.axisNameID = font["name"].addMultilingualName({"en": tag}, minNameID=256)
        fvar.axes.append(axis)
    fvar.instances = []


def _advance_moved(points: int, units: int) -> list[tuple[int, int]]:
    """Deltas that move only a glyph's advance (its second phantom point, of the last 4)."""
    deltas = [(0, 0)] * points
    deltas[points - 3] = (units, 0)
    return deltas


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
