"""Fonts as designers buy them, made into the one form the PDF writer embeds: TrueType.

reportlab embeds and subsets TrueType outlines only, so an OpenType font with PostScript
(CFF) outlines, a WOFF or WOFF2 web font and a face of a TrueType/OpenType collection (.ttc,
.otc) are rewritten once, at loading, with fontTools (the font library the type industry
keeps): collections unpacked, web fonts decompressed, cubic CFF curves approximated by
quadratic ones within a hundredth of a point at 100 pt (``MAX_ERROR`` font units), and a
variable font made the static instance of the weight (and italic) its entry names: reportlab
would embed its default instance, a Regular, for every weight. A plain static TrueType file is
passed through untouched, byte for byte.
"""

from __future__ import annotations

import io
import struct
from typing import Any

from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTLibError, newTable
from fontTools.ttLib import TTFont as OpenTypeFont

from generator.model.fonterrors import FontFileError
from generator.model.fontguard import BROTLI_MISSING, guard, sfnt_tags

__all__ = ["FontFileError", "as_truetype", "embedding_problem", "face_names"]

MAX_ERROR = 1.0  # font units (of 1000 or 2048 an em) a quadratic curve may stray from a cubic
MAX_CONVERTED_GLYPHS = 20_000  # glyphs of a CFF font converted or of a variable font instanced
MAX_VARIATION_DELTAS = 5_000_000  # values a variable font's instancing works through
VARIED_TABLES = ("HVAR", "VVAR", "MVAR", "GDEF", "GPOS", "GSUB", "avar")  # their deltas stored
WEIGHTS = {"normal": 400.0, "bold": 700.0}  # a font entry's weight on a variable wght axis
TRUETYPE = (b"\x00\x01\x00\x00", b"true")  # the sfnt versions of TrueType outlines
EMBED_FORBIDDEN = 0x0002  # OS/2 fsType: restricted licence, no embedding at all
EMBED_BITMAP_ONLY = 0x0200  # fsType: only bitmaps may be embedded (no outlines)


def as_truetype(
    data: bytes, face: str | None = None, weight: str = "normal", style: str = "normal"
) -> bytes:
    """The TrueType form of the font in ``data`` (a static TrueType file unchanged); ``face``
    picks a font of a collection by its name, ``weight`` and ``style`` the instance of a
    variable font. ``FontFileError`` says what cannot be used: the font
    guard's bounds first (before any library reads the file), then whatever fontTools raises
    on a damaged file, said as the file's error."""
    guard(data)
    try:
        return _converted(data, face, weight, style)
    except FontFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged table raises anything in fontTools
        raise FontFileError(
            f"cannot be converted for printing ({type(exc).__name__}: the file is damaged); "
            "use the font's TrueType (.ttf) version"
        ) from None


def _converted(data: bytes, face: str | None, weight: str, style: str) -> bytes:
    """``as_truetype`` on a file the guard let through."""
    if data[:4] in TRUETYPE and face is None and "fvar" not in sfnt_tags(data):
        _licence(data)
        return data
    font = _opened(data, face)
    kind = _outline_kind(font)
    if kind == "CFF2":
        raise FontFileError(
            "is a variable font with CFF2 outlines, which cannot be embedded; use a static "
            "instance of it (.otf or .ttf of one weight)"
        )
    if "fvar" in font:
        _instance(font, weight, style)
    if kind == "CFF ":
        _cff_to_glyf(font)
    elif kind is None:
        raise FontFileError("has no outlines (neither TrueType nor CFF); use a .ttf or .otf")
    font.flavor = None
    out = io.BytesIO()
    font.save(out)
    _licence(out.getvalue())
    return out.getvalue()


def _instance(font: OpenTypeFont, weight: str, style: str) -> None:
    """A variable TrueType font made static, in place: its weight axis at the entry's
    weight (within the axis), italic where an ital or slnt axis has it, every other axis at
    its default."""
    glyphs = len(font.getGlyphOrder())
    if glyphs > MAX_CONVERTED_GLYPHS:
        raise FontFileError(
            f"is a variable font of {glyphs:,} glyphs, more than the {MAX_CONVERTED_GLYPHS:,} "
            "made static for printing; use a static instance of it (.ttf of one weight)"
        )
    deltas = _variation_work(font)
    if deltas > MAX_VARIATION_DELTAS:
        raise FontFileError(
            f"is a variable font whose variations move {deltas:,} values, more than the "
            f"{MAX_VARIATION_DELTAS:,} made static for printing; use a static instance of it "
            "(.ttf of one weight)"
        )
    from fontTools.varLib import instancer  # only a variable font needs it

    axes = {axis.axisTag: axis for axis in font["fvar"].axes}
    at: dict[str, float | None] = dict.fromkeys(axes)
    if "wght" in axes:
        axis = axes["wght"]
        at["wght"] = min(max(WEIGHTS[weight], axis.minValue), axis.maxValue)
    if style == "italic" and "ital" in axes:
        at["ital"] = axes["ital"].maxValue
    elif style == "italic" and "slnt" in axes:
        at["slnt"] = axes["slnt"].minValue  # slant is negative: clockwise, as italics lean
    instancer.instantiateVariableFont(font, at, inplace=True)


def _variation_work(font: OpenTypeFont) -> int:
    """The values instancing a variable font works through, counted before fontTools
    decodes any: the glyphs' point moves (gvar), the hinting values' (cvar: each of its
    tuples moves every value of cvt), and a value for every two bytes of the tables whose
    deltas are stored one by one."""
    reader = font.reader
    work = _variation_deltas(font) if "gvar" in reader else 0
    if "cvar" in reader:
        tuples = struct.unpack_from(">H", reader["cvar"], 4)[0] & 0x0FFF
        work += tuples * (len(reader["cvt "]) // 2 if "cvt " in reader else 0)
    return work + sum(len(reader[tag]) // 2 for tag in VARIED_TABLES if tag in reader)


def _variation_deltas(font: OpenTypeFont) -> int:
    """The point moves instancing works through: each glyph's variation tuples times its
    points and 4 phantom points, read from the raw gvar and glyf tables before fontTools
    decodes them (a few bytes can declare a glyph of thousands of points)."""
    gvar, glyf, loca = font.reader["gvar"], font.reader["glyf"], font["loca"]
    glyphs, flags, start = struct.unpack_from(">HHI", gvar, 12)
    size, unit = ("I", 1) if flags & 1 else ("H", 2)
    offsets = struct.unpack_from(f">{glyphs + 1}{size}", gvar, 20)
    total = 0
    for glyph in range(min(glyphs, len(loca) - 1)):
        at = start + offsets[glyph] * unit
        if start + offsets[glyph + 1] * unit - at >= 4:
            tuples = struct.unpack_from(">H", gvar, at)[0] & 0x0FFF
            total += tuples * (_points(glyf, loca[glyph], loca[glyph + 1]) + 4)
    return total


def _points(glyf: bytes, start: int, end: int) -> int:
    """A glyph's points as its variations count them, from its raw data: a simple glyph's
    last contour end plus one, a composite's components."""
    if end - start < 10:
        return 0
    contours = struct.unpack_from(">h", glyf, start)[0]
    if contours >= 0:
        last = start + 10 + 2 * (contours - 1)
        return struct.unpack_from(">H", glyf, last)[0] + 1 if contours else 0
    count, at = 0, start + 10
    while at + 4 <= end:
        flags = struct.unpack_from(">H", glyf, at)[0]
        count += 1
        at += 4 + (4 if flags & 0x0001 else 2)  # flags, glyph, offsets as words or bytes
        at += 8 if flags & 0x0080 else 4 if flags & 0x0040 else 2 if flags & 0x0008 else 0
        if not flags & 0x0020:  # no more components
            break
    return count


def embedding_problem(fs_type: int) -> str | None:
    """What the licence flag of a font (OS/2 ``fsType``) forbids, or None when a PDF may
    embed it (a font that may be embedded only whole is, when it is small enough)."""
    if fs_type & 0x000F == EMBED_FORBIDDEN:
        return (
            "forbids embedding in its licence flag (OS/2 fsType 0x0002, restricted licence); "
            "ask its foundry for an embeddable licence or use another font"
        )
    if fs_type & EMBED_BITMAP_ONLY:
        return (
            f"allows only bitmaps to be embedded (OS/2 fsType 0x{fs_type:04X}), and a PDF "
            "embeds outlines; use another font"
        )
    return None


def _licence(data: bytes) -> None:
    """``FontFileError`` when the font's licence flag forbids embedding it."""
    try:
        font = OpenTypeFont(io.BytesIO(data), lazy=True)
        fs_type = int(font["OS/2"].fsType) if "OS/2" in font else 0
    except Exception:  # noqa: BLE001, S110 - a damaged file is told by the parsers after
        return
    problem = embedding_problem(fs_type)
    if problem:
        raise FontFileError(problem)


def _opened(data: bytes, face: str | None) -> OpenTypeFont:
    """The font in ``data`` parsed by fontTools (a collection's face picked by name), kept
    with its own date: fontTools stamps a font it saves with the time, and a pack that
    embeds it would differ on every build."""
    try:
        if data[:4] == b"ttcf":
            return _face_of(TTCollection(io.BytesIO(data), recalcTimestamp=False), face)
        font = OpenTypeFont(io.BytesIO(data), recalcTimestamp=False)
    except FontFileError:
        raise
    except (TTLibError, ImportError) as exc:
        raise FontFileError(_unreadable(exc)) from None
    except Exception as exc:  # noqa: BLE001 - a damaged table raises anything in fontTools
        raise FontFileError(f"cannot be read as a font ({type(exc).__name__})") from None
    if face is not None:
        names = face_names(font)
        if face.casefold() not in {n.casefold() for n in names}:
            raise FontFileError(f"is one font, '{names[0]}', not a collection with '{face}'")
    return font


def _unreadable(exc: Exception) -> str:
    """A fontTools parse error in the user's terms."""
    if isinstance(exc, ImportError) or "brotli" in str(exc).lower():
        return BROTLI_MISSING
    return f"is not a font file (TrueType, OpenType, WOFF, WOFF2 or a collection) ({exc})"


def _face_of(collection: TTCollection, face: str | None) -> OpenTypeFont:
    """The font of a collection named ``face`` (by full, PostScript or family and style
    name); an error listing the faces when it is missing or none is named."""
    named = [(font, face_names(font)) for font in collection.fonts]
    if face is None and len(named) == 1:
        return named[0][0]
    listing = ", ".join(f"'{names[0]}'" for _, names in named)
    if face is None:
        raise FontFileError(
            f"is a collection of {len(named)} fonts; pick one with face: (one of {listing})"
        )
    for font, names in named:
        if face.casefold() in {n.casefold() for n in names}:
            return font
    raise FontFileError(f"has no face '{face}'; its faces are {listing}")


def face_names(font: OpenTypeFont) -> list[str]:
    """The names a designer may call a font by: its full name first, then its PostScript
    name and family with style."""
    table = font.get("name")
    if table is None:
        return ["(unnamed)"]
    full, postscript = table.getDebugName(4), table.getDebugName(6)
    family = table.getBestFamilyName()
    style = table.getBestSubFamilyName()
    pair = f"{family} {style}" if family and style else None
    names = [n for n in (full, postscript, pair, family) if n]
    return list(dict.fromkeys(names)) or ["(unnamed)"]


def _outline_kind(font: OpenTypeFont) -> str | None:
    """Which outlines the font has: 'glyf' (TrueType), 'CFF ', 'CFF2' or None."""
    return next((tag for tag in ("glyf", "CFF ", "CFF2") if tag in font), None)


def _cff_to_glyf(font: OpenTypeFont) -> None:
    """Replace a font's CFF outlines by TrueType ones, in place (as fontTools' otf2ttf
    snippet does): each glyph drawn through cu2qu into a TrueType glyph, then the tables
    that describe glyf outlines (loca, maxp, post, the side bearings of hmtx) made anew."""
    order = font.getGlyphOrder()
    if len(order) > MAX_CONVERTED_GLYPHS:
        raise FontFileError(
            f"has {len(order):,} glyphs in PostScript (CFF) outlines, more than the "
            f"{MAX_CONVERTED_GLYPHS:,} converted for printing; use its TrueType (.ttf) version "
            "or a subset of it"
        )
    glyphs = font.getGlyphSet()
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {name: _quadratic(glyphs, name) for name in order}
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    _new_maxp(font)
    _new_post(font, order)
    font.sfntVersion = "\x00\x01\x00\x00"


def _quadratic(glyphs: Any, name: str) -> Any:
    """One CFF glyph as a TrueType glyph (contours reversed: CFF winds them the other way)."""
    pen = TTGlyphPen(glyphs)
    glyphs[name].draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))
    return pen.glyph()


def _new_maxp(font: OpenTypeFont) -> None:
    """A version 1.0 maxp (the one TrueType outlines need), with no hinting programs."""
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    maxp.maxTwilightPoints = maxp.maxStorage = maxp.maxFunctionDefs = 0
    maxp.maxInstructionDefs = maxp.maxStackElements = maxp.maxSizeOfInstructions = 0
    parts = [len(getattr(g, "components", None) or ()) for g in font["glyf"].glyphs.values()]
    maxp.maxComponentElements = max(parts, default=0)
    maxp.compile(font)


def _new_post(font: OpenTypeFont, order: list[str]) -> None:
    """A post table of format 2 (glyph names kept), or 3 when the names do not fit."""
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    try:
        post.compile(font)
    except OverflowError:
        post.formatType = 3.0
